package lang

import "github.com/srezc/srezc/value"

// RefAction is an action text parsed by the sre_zero profile's grammar,
// written to the SRE-Zero reference's quirks (spec §4.1–4.2), not the
// native participle grammar.
type RefAction struct {
	Type      string      // one of the eight action types; "" on a parse error
	Service   string      // service actions
	Key       string      // inspect_config (when HasKey) and update_config
	HasKey    bool
	Value     value.Value // update_config, coerced as §4.1 step 5 says
	RootCause string
	Fix       string
	Reason    string
	// Canonical is the canonical form (§4.2), or the raw text when the
	// text did not parse.
	Canonical string
	// Err is the reference's exact error message; "" when the text parsed.
	Err string
}

// ParseRefAction parses one text action by the sre_zero grammar.
func ParseRefAction(text string) RefAction {
	return RefAction{Canonical: text, Err: "not implemented"}
}
