package lsp_test

import (
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// badExpertValue certifies but for one expert value outside the fault's
// fix range (db_max_connections_low is fixed when the site's pool <=
// max_connections <= 500). With $before there instead, it certifies: the
// fault comes from a change in the history, on a site (peak) whose pool
// is above the documented max_connections.
const badExpertValue = `incident "checkout_timeouts" {
  alert      = "Checkout requests are timing out."
  difficulty = "medium"
  split      = "dev"
  budget     = 8
  system     = "peak"

  fault "db_max_connections_low" {
    target = "database"
    change {}
  }

  expert = [
    "inspect_logs(database)",
    "inspect_config(database, max_connections)",
    "update_config(database, max_connections, 4)",
    "resolve_incident(\"database: max_connections below the pool\", \"raised max_connections\")",
  ]
}
`

// TestCertificationErrorAtItsAction: the editor shows a certification
// failure where `srezc validate` does — on the expert action responsible,
// with the numbers — and only the root error, not its follow-ons.
func TestCertificationErrorAtItsAction(t *testing.T) {
	c := start(t)
	var init protocol.InitializeResult
	c.call(protocol.MethodInitialize, &protocol.InitializeParams{}, &init)
	c.notify(protocol.MethodInitialized, &protocol.InitializedParams{})
	u := uri.File(filepath.Join(t.TempDir(), "a.srez.hcl"))
	c.notify(protocol.MethodTextDocumentDidOpen, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{URI: u, LanguageID: "srezc", Version: 1, Text: badExpertValue}})
	ds := c.wait(u, func(ds []protocol.Diagnostic) bool {
		for _, d := range ds {
			if strings.Contains(d.Message, "not certified") {
				return true
			}
		}
		return false
	})
	if len(ds) != 1 {
		t.Fatalf("%d diagnostics, want the root error only: %+v", len(ds), ds)
	}
	d := ds[0]
	// Line 16 (0-based 15), the action's string from its opening quote.
	if d.Range.Start != (protocol.Position{Line: 15, Character: 4}) || !strings.Contains(d.Message, "4 is outside the fix range ") {
		t.Errorf("diagnostic at %+v: %s", d.Range, d.Message)
	}
}
