package lsp_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// openScenario starts a server and opens a copy of a shipped scenario in
// a folder of its own; it returns the document's URI and text.
func openScenario(t *testing.T, name string) (*client, uri.URI, string) {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "scenarios", name))
	if err != nil {
		t.Fatal(err)
	}
	c := start(t)
	var init protocol.InitializeResult
	c.call(protocol.MethodInitialize, &protocol.InitializeParams{}, &init)
	u := uri.File(filepath.Join(t.TempDir(), name))
	if err := os.WriteFile(u.Filename(), src, 0o644); err != nil {
		t.Fatal(err)
	}
	c.notify(protocol.MethodTextDocumentDidOpen, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{URI: u, Version: 1, Text: string(src)}})
	return c, u, string(src)
}

// positionAfter is the LSP position just after the first marker in text
// (ASCII text: columns are bytes).
func positionAfter(t *testing.T, text, marker string) protocol.Position {
	t.Helper()
	i := strings.Index(text, marker)
	if i < 0 {
		t.Fatalf("no %q in the document", marker)
	}
	end := i + len(marker)
	line := strings.Count(text[:end], "\n")
	return protocol.Position{Line: uint32(line), Character: uint32(end - (strings.LastIndexByte(text[:end], '\n') + 1))}
}

// textAt is the text a location spans, read from its file.
func textAt(t *testing.T, l protocol.Location) string {
	t.Helper()
	src, err := os.ReadFile(l.URI.Filename())
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(src), "\n")
	if l.Range.Start.Line != l.Range.End.Line {
		t.Fatalf("a multi-line range %+v", l.Range)
	}
	return lines[l.Range.Start.Line][l.Range.Start.Character:l.Range.End.Character]
}

// TestDefinitionOfAFaultLabel: in the incident web_memory_leak, the label
// of fault "web_memory_leak" is the fault kind alone, in the stdlib — not
// also the incident of the same name (issue 17).
func TestDefinitionOfAFaultLabel(t *testing.T) {
	c, u, text := openScenario(t, "web_memory_leak.srez.hcl")
	var locs []protocol.Location
	c.call(protocol.MethodTextDocumentDefinition, &protocol.DefinitionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: u}, Position: positionAfter(t, text, `fault "web_mem`)}}, &locs)
	if len(locs) != 1 || !strings.HasSuffix(locs[0].URI.Filename(), "faults.srez.hcl") {
		t.Fatalf("definition: %+v", locs)
	}
	if got := textAt(t, locs[0]); got != "web_memory_leak" {
		t.Errorf("the definition spans %q", got)
	}
	// On the incident's own label: the incident, here.
	c.call(protocol.MethodTextDocumentDefinition, &protocol.DefinitionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: u}, Position: positionAfter(t, text, `incident "web_mem`)}}, &locs)
	if len(locs) != 1 || locs[0].URI != u {
		t.Errorf("definition of the incident: %+v", locs)
	}
}
