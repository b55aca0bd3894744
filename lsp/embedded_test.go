package lsp_test

import (
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// TestEmbeddedBaseDiagnostics: the server resolves a mutation's base and
// a suite spec's mutations among the embedded default's as the CLI does:
// a misspelt base is a located error suggesting the embedded incident,
// and once fixed the document has no diagnostic; go-to-definition on the
// base, or on an embedded mutation, opens the embedded source at its
// label.
func TestEmbeddedBaseDiagnostics(t *testing.T) {
	c := start(t)
	var init protocol.InitializeResult
	c.call(protocol.MethodInitialize, &protocol.InitializeParams{}, &init)
	c.notify(protocol.MethodInitialized, &protocol.InitializedParams{})
	u := uri.File(filepath.Join(t.TempDir(), "m.srez.hcl"))
	text := "mutation \"mine\" {\n  from   = \"mq_backlogg\"\n  faults = [\"mq_consumer_concurrency_low\"]\n}\n\nsuite_spec \"s\" {\n  mutations = [\"mine\", \"queue_consumers\"]\n  tasks     = 4\n}\n"
	c.notify(protocol.MethodTextDocumentDidOpen, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{URI: u, LanguageID: "srezc", Version: 1, Text: text}})
	ds := c.wait(u, func(ds []protocol.Diagnostic) bool { return len(ds) > 0 })
	if len(ds) != 1 || !strings.HasPrefix(ds[0].Message, "Unknown incident") || !strings.Contains(ds[0].Message, `Did you mean "mq_backlog"`) ||
		ds[0].Range.Start != (protocol.Position{Line: 1, Character: 11}) {
		t.Fatalf("diagnostics: %+v; want one unknown incident at 2:12 suggesting mq_backlog", ds)
	}
	c.notify(protocol.MethodTextDocumentDidChange, &protocol.DidChangeTextDocumentParams{
		TextDocument: protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: u}, Version: 2},
		ContentChanges: []protocol.TextDocumentContentChangeEvent{{
			Range: protocol.Range{Start: protocol.Position{Line: 1, Character: 22}, End: protocol.Position{Line: 1, Character: 23}},
			Text:  "",
		}},
	})
	c.wait(u, func(ds []protocol.Diagnostic) bool { return len(ds) == 0 })
	fixed := strings.Replace(text, "mq_backlogg", "mq_backlog", 1)
	for _, jump := range []struct{ after, file, label string }{
		{`from   = "mq_back`, "scenarios/mq_backlog.srez.hcl", "mq_backlog"},
		{`"mine", "queue_con`, "mutations/default.srez.hcl", "queue_consumers"},
	} {
		var locs []protocol.Location
		c.call(protocol.MethodTextDocumentDefinition, &protocol.DefinitionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: u}, Position: positionAfter(t, fixed, jump.after)}}, &locs)
		if len(locs) != 1 || !strings.HasSuffix(filepath.ToSlash(locs[0].URI.Filename()), jump.file) {
			t.Fatalf("definition after %s: %+v; want %s", jump.after, locs, jump.file)
		}
		if got := textAt(t, locs[0]); got != jump.label {
			t.Errorf("the definition after %s spans %q", jump.after, got)
		}
	}
}
