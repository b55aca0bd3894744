package lsp_test

import (
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

// TestReferencesOfATarget: target = "web_server" is the standard system's
// service; its references are its declaration, its role bindings and its
// uses in the incident (the distractor's target, the expert's actions),
// never the service kind web_server (its declaration, kind = …,
// applies_to) that a text search also found (issue 17: 25 mixed hits).
func TestReferencesOfATarget(t *testing.T) {
	c, u, text := openScenario(t, "db_pool.srez.hcl")
	var refs []protocol.Location
	c.call(protocol.MethodTextDocumentReferences, &protocol.ReferenceParams{
		TextDocumentPositionParams: protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}, Position: positionAfter(t, text, `target = "web`)},
		Context:                    protocol.ReferenceContext{IncludeDeclaration: true}}, &refs)
	inDoc, inSystems := 0, 0
	for _, r := range refs {
		if got := textAt(t, r); got != "web_server" {
			t.Errorf("%s: a reference spans %q", r.URI.Filename(), got)
		}
		switch name := r.URI.Filename(); {
		case r.URI == u:
			inDoc++
		case strings.HasSuffix(name, "systems.srez.hcl"):
			inSystems++
		default:
			t.Errorf("a reference in %s, line %d: not the service's", name, r.Range.Start.Line+1)
		}
	}
	// In the document: the distractor's target and inspect_logs(web_server).
	if inDoc != 2 || inSystems < 4 {
		t.Errorf("%d references in the document, %d in the systems file: %+v", inDoc, inSystems, refs)
	}
	// Without the declaration: one fewer.
	var uses []protocol.Location
	c.call(protocol.MethodTextDocumentReferences, &protocol.ReferenceParams{
		TextDocumentPositionParams: protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}, Position: positionAfter(t, text, `target = "web`)},
		Context:                    protocol.ReferenceContext{IncludeDeclaration: false}}, &uses)
	if len(uses) != len(refs)-1 {
		t.Errorf("%d uses, %d references with the declaration", len(uses), len(refs))
	}
}
