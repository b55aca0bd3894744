package lsp_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// TestDeepFileBeside: a file nested 100,000 levels deep beside the one an
// editor opens used to kill the server (a fatal stack overflow while
// analysing the folder). Now the deep file gets its one located error, the
// open file its own diagnostics, and the server keeps answering.
func TestDeepFileBeside(t *testing.T) {
	c := start(t)
	var init protocol.InitializeResult
	c.call(protocol.MethodInitialize, &protocol.InitializeParams{}, &init)
	c.notify(protocol.MethodInitialized, &protocol.InitializedParams{})

	dir := t.TempDir()
	deepPath := filepath.Join(dir, "deep.srez.hcl")
	deep := "incident \"deep\" {\n  budget = " + strings.Repeat("(", 100000) + "12" + strings.Repeat(")", 100000) + "\n}\n"
	if err := os.WriteFile(deepPath, []byte(deep), 0o644); err != nil {
		t.Fatal(err)
	}
	u := uri.File(filepath.Join(dir, "a.srez.hcl"))
	c.notify(protocol.MethodTextDocumentDidOpen, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{URI: u, LanguageID: "srezc", Version: 1, Text: broken}})
	c.wait(u, func(ds []protocol.Diagnostic) bool {
		for _, d := range ds {
			if strings.HasPrefix(d.Message, "Unknown fault kind") {
				return true
			}
		}
		return false
	})
	ds := c.wait(uri.File(deepPath), func(ds []protocol.Diagnostic) bool { return len(ds) > 0 })
	if len(ds) != 1 || !strings.HasPrefix(ds[0].Message, "Nesting too deep") || ds[0].Range.Start != (protocol.Position{Line: 1, Character: 42}) {
		t.Fatalf("deep file: %+v", ds)
	}
	var list protocol.CompletionList
	c.call(protocol.MethodTextDocumentCompletion, &protocol.CompletionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: u}, Position: protocol.Position{Line: 7, Character: 10}}}, &list)
	if len(list.Items) == 0 {
		t.Errorf("no completion after the deep file")
	}
	c.call(protocol.MethodShutdown, nil, nil)
	c.notify(protocol.MethodExit, nil)
}
