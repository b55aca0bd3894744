package engine

import (
	"github.com/srezc/srezc/value"
)

// The sre_zero profile reproduces the SRE-Zero reference environment's
// grading exactly (../shared/reference/sre-zero-spec.md §4–7): its action
// set and text grammar, evidence keys, matching rules, reward components
// and penalties. Its world is the reference's: five services with literal
// fixtures (status, log lines, metrics, config) that change only by a
// restart (status healthy, one log line) or a config write. What an agent
// sees is still srezc's renderer, with none of the reference's leaks.

// RefTask is a task's sre_zero data: the fixture world and the grading
// spec, in the reference task file's terms (spec §2).
type RefTask struct {
	// Services are the five fixtures with the task's patches applied, in
	// the reference's order (web_server, database, cache, message_queue,
	// load_balancer).
	Services []RefService `json:"services"`

	RootCause         string        `json:"root_cause"`
	RootCauseKeywords []string      `json:"root_cause_keywords"`
	Evidence          []RefEvidence `json:"evidence"`
	Fix               RefFix        `json:"fix"`
	// DistractorServices count distractor_failures; Distractors are the
	// reference's informational notes, kept for export.
	DistractorServices        []string `json:"distractor_services,omitempty"`
	Distractors               []string `json:"distractors,omitempty"`
	TerminalOnWrongResolution bool     `json:"terminal_on_wrong_resolution"`
	// Metadata is the task file's metadata map, in key order.
	Metadata []RefPair `json:"metadata,omitempty"`
}

// RefService is one service fixture.
type RefService struct {
	Name         string     `json:"name"`
	Status       string     `json:"status"`
	Logs         []string   `json:"logs"`
	Metrics      []RefField `json:"metrics"`
	Config       []RefField `json:"config"`
	Dependencies []string   `json:"dependencies"`
}

// RefField is one metric or config entry; Value keeps its exact type
// (spec §1.1: True stays bool, 100 int, 1.5 float, "100" string).
type RefField struct {
	Name  string      `json:"name"`
	Value value.Value `json:"value"`
}

// RefPair is one string-to-string entry.
type RefPair struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// RefEvidence is one relevant-evidence key ("action_type:service[:KEY]")
// and its description (never shown to agents).
type RefEvidence struct {
	Key         string `json:"key"`
	Description string `json:"description"`
}

// RefFix is the task's correct_fix (spec §2, §5.2–5.3).
type RefFix struct {
	ActionType string      `json:"action_type"`
	Service    string      `json:"service"`
	Key        string      `json:"key,omitempty"`
	HasKey     bool        `json:"has_key,omitempty"`
	MinNumeric float64     `json:"min_numeric,omitempty"`
	HasMin     bool        `json:"has_min,omitempty"`
	Exact      value.Value `json:"exact"` // null (zero Value) when absent
	// FixKeywords are matched against the resolution's fix text.
	FixKeywords []string `json:"fix_keywords"`
}

// RefAction is an action parsed by the sre_zero grammar (spec §4.1–4.2;
// action.ParseRef), the form an sre_zero Action carries.
// Err is the parse error message ("" when the text parsed); Canonical is
// the canonical form, or the raw text when it did not parse.
type RefAction struct {
	Type      string // one of the eight action types; "" on a parse error
	Service   string // service actions
	Key       string // inspect_config (when HasKey) and update_config
	HasKey    bool
	Value     value.Value // update_config, coerced as §4.1 step 5 says
	RootCause string
	Fix       string
	Reason    string
	Canonical string
	Err       string
}
