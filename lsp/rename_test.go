package lsp_test

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

const renameDoc = `service_kind "svc" {
  config "limit" {
    type    = "int"
    default = 10
    low     = 1
    high    = 100
  }
  metric "load" {
    type  = "int"
    value = "config.limit"
    low   = 0
    high  = 100
  }
}

system "mini" {
  service "api" { kind = "svc" }
  service "api_b" { kind = "svc" }
}

fault_kind "limit_low" {
  applies_to = ["svc"]
  mechanism  = "connection_pool_exhausted"
  set_config { limit = 2 }
  fixed_when = "config.limit >= 5"
  remedy "update_config" { key = "limit" }
}
`

const renameIncident = `incident "limit_low" {
  alert      = "Errors."
  difficulty = "easy"
  split      = "train"
  budget     = 6
  system     = "mini"

  fault "limit_low" { target = "api" }

  resolved_when = "api.load < 50 && api_b.load < 50"
  expert        = ["inspect_config(api, limit)", "update_config(api, limit, 10)"]
}
`

// apply applies a document's edits (non-overlapping, any order).
func apply(text string, edits []protocol.TextEdit) string {
	sort.Slice(edits, func(i, j int) bool {
		a, b := edits[i].Range.Start, edits[j].Range.Start
		return a.Line > b.Line || a.Line == b.Line && a.Character > b.Character
	})
	lines := strings.Split(text, "\n")
	for _, e := range edits {
		l := lines[e.Range.Start.Line]
		lines[e.Range.Start.Line] = l[:e.Range.Start.Character] + e.NewText + l[e.Range.End.Character:]
	}
	return strings.Join(lines, "\n")
}

// TestRename: renaming a service edits its declaration and every use of
// that service across the module's files (a target, resolved_when, expert
// actions) and nothing else; renaming a config key edits its uses in
// another file too; a stdlib name and a taken name are refused.
func TestRename(t *testing.T) {
	c := start(t)
	var init protocol.InitializeResult
	c.call(protocol.MethodInitialize, &protocol.InitializeParams{}, &init)
	if init.Capabilities.RenameProvider == nil || init.Capabilities.WorkspaceSymbolProvider == nil {
		t.Fatalf("capabilities: %+v", init.Capabilities)
	}
	dir := t.TempDir()
	kinds := uri.File(filepath.Join(dir, "kinds.srez.hcl"))
	if err := os.WriteFile(kinds.Filename(), []byte(renameDoc), 0o644); err != nil { // on disk, not open
		t.Fatal(err)
	}
	u := uri.File(filepath.Join(dir, "incident.srez.hcl"))
	c.notify(protocol.MethodTextDocumentDidOpen, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{URI: u, Version: 1, Text: renameIncident}})

	rename := func(doc uri.URI, text, marker, to string) (*protocol.WorkspaceEdit, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		var edit protocol.WorkspaceEdit
		_, err := c.conn.Call(ctx, protocol.MethodTextDocumentRename, &protocol.RenameParams{
			TextDocumentPositionParams: protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: doc}, Position: positionAfter(t, text, marker)},
			NewName:                    to}, &edit)
		return &edit, err
	}

	edit, err := rename(u, renameIncident, `target = "a`, "gateway")
	if err != nil {
		t.Fatal(err)
	}
	want := strings.NewReplacer(`"api"`, `"gateway"`, "api.load", "gateway.load", "(api,", "(gateway,").Replace(renameIncident)
	if got := apply(renameIncident, edit.Changes[u]); got != want {
		t.Errorf("the incident after renaming api:\n%s", got)
	}
	if got := apply(renameDoc, edit.Changes[kinds]); got != strings.Replace(renameDoc, `service "api" {`, `service "gateway" {`, 1) {
		t.Errorf("the kinds file after renaming api:\n%s", got)
	}
	if len(edit.Changes) != 2 {
		t.Errorf("edits in %d files", len(edit.Changes))
	}

	// A config key, from its use in an expert action.
	edit, err = rename(u, renameIncident, "inspect_config(api, l", "cap")
	if err != nil {
		t.Fatal(err)
	}
	if got := apply(renameIncident, edit.Changes[u]); got != strings.ReplaceAll(renameIncident, "api, limit", "api, cap") {
		t.Errorf("the incident after renaming limit:\n%s", got)
	}
	wantKinds := strings.NewReplacer(`config "limit"`, `config "cap"`, "config.limit", "config.cap", "{ limit", "{ cap", `key = "limit"`, `key = "cap"`).Replace(renameDoc)
	if got := apply(renameDoc, edit.Changes[kinds]); got != wantKinds {
		t.Errorf("the kinds file after renaming limit:\n%s", got)
	}

	// The fault kind limit_low: its declaration and the fault's label, not
	// the incident of the same name.
	edit, err = rename(u, renameIncident, `fault "l`, "limit_starved")
	if err != nil {
		t.Fatal(err)
	}
	if got := apply(renameIncident, edit.Changes[u]); got != strings.Replace(renameIncident, `fault "limit_low"`, `fault "limit_starved"`, 1) {
		t.Errorf("the incident after renaming the fault kind:\n%s", got)
	}

	if _, err := rename(u, renameIncident, `system     = "m`, "mini"); err != nil {
		t.Errorf("renaming a name to itself: %v", err)
	}
	for _, bad := range []struct{ marker, to string }{
		{"inspect_con", "look"},   // a stdlib tool
		{`target = "a`, "api_b"},  // a name its kind already has
		{`target = "a`, "9lives"}, // not a name
	} {
		if _, err := rename(u, renameIncident, bad.marker, bad.to); err == nil {
			t.Errorf("renaming at %q to %q was not refused", bad.marker, bad.to)
		}
	}

	var r protocol.Range
	c.call(protocol.MethodTextDocumentPrepareRename, &protocol.PrepareRenameParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: u}, Position: positionAfter(t, renameIncident, `target = "a`)}}, &r)
	if r.Start != (protocol.Position{Line: 7, Character: 32}) || r.End.Character != 35 {
		t.Errorf("prepareRename: %+v", r)
	}
}
