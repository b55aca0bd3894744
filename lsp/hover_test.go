package lsp

import (
	"strings"
	"testing"

	"github.com/srezc/srezc/lang"
)

// TestHoverWords: the language's own words and a kind's state are
// documented.
func TestHoverWords(t *testing.T) {
	m, _ := lang.Analyze(nil)
	if h := hover(m, nil, "", "  resolved_when = \"true\"", 4); !strings.Contains(h, "mitigated") {
		t.Errorf("hover on resolved_when: %q", h)
	}
	if h := hover(m, nil, "", "state.restart_ticks", 10); !strings.Contains(h, "state of") {
		t.Errorf("hover on a state: %q", h)
	}
	if h := hover(m, nil, "", "pool_size", 3); !strings.Contains(h, "config key of database") || !strings.Contains(h, "healthy 20 to 150") {
		t.Errorf("hover on a config key: %q", h)
	}
}

// TestHoverOnKeywords: a block's keyword and an argument's name are
// documented from lang's schema table, for the context they are in.
func TestHoverOnKeywords(t *testing.T) {
	m, _ := lang.Analyze(nil)
	doc := "incident \"x\" {\n  fault \"db_pool_too_small\" {\n    target = \"database\"\n  }\n}\nservice_kind \"k\" {\n  config \"c\" {}\n}\n"
	at := func(marker string) int { return strings.Index(doc, marker) + 2 }
	cases := []struct{ marker, want string }{
		{"incident", "**incident** block"},
		{"fault \"", "**fault** block in `incident`, labelled with its fault kind"},
		{"target", "**target** (string, required, in `incident/fault`): The service the fault applies to."},
		{"service_kind", "**service_kind** block"},
		{"config \"", "**config** block in `service_kind`"},
	}
	for _, c := range cases {
		if h := hover(m, nil, "", doc, at(c.marker)); !strings.Contains(h, c.want) {
			t.Errorf("hover on %q: %q lacks %q", c.marker, h, c.want)
		}
	}
}

// TestHoverOnChangeBlocks: the change history's blocks are documented
// where they sit, a fault's change apart from an incident's.
func TestHoverOnChangeBlocks(t *testing.T) {
	m, _ := lang.Analyze(nil)
	doc := "incident \"x\" {\n  fault \"db_pool_too_small\" {\n    target = \"database\"\n    change {\n      actor = \"k\"\n    }\n  }\n  change {\n    service = \"cache\"\n  }\n}\nbenign_change \"b\" {\n  values = [1]\n}\n"
	at := func(marker string) int { return strings.Index(doc, marker) + 2 }
	cases := []struct{ marker, want string }{
		{"change {\n      actor", "**change** block in `incident/fault`"},
		{"actor", "**actor** (string, in `incident/fault/change`)"},
		{"change {\n    service", "**change** block in `incident`"},
		{"service = \"cache\"", "**service** (string, required, in `incident/change`)"},
		{"benign_change", "**benign_change** block"},
		{"values", "**values** (list of literals, required, in `benign_change`)"},
	}
	for _, c := range cases {
		if h := hover(m, nil, "", doc, at(c.marker)); !strings.Contains(h, c.want) {
			t.Errorf("hover on %q: %q lacks %q", c.marker, h, c.want)
		}
	}
}
