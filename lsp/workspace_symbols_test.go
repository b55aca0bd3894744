package lsp_test

import (
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

// TestWorkspaceSymbols: the declarations named like the query, each with
// its kind, in the open module and the stdlib.
func TestWorkspaceSymbols(t *testing.T) {
	c, u, _ := openScenario(t, "web_memory_leak.srez.hcl")
	var syms []protocol.SymbolInformation
	c.call(protocol.MethodWorkspaceSymbol, &protocol.WorkspaceSymbolParams{Query: "web_memory"}, &syms)
	got := map[string]protocol.SymbolInformation{}
	for _, s := range syms {
		got[s.ContainerName+" "+s.Name] = s
	}
	fk, ok := got["fault kind web_memory_leak"]
	if !ok || !strings.HasSuffix(fk.Location.URI.Filename(), "faults.srez.hcl") || fk.Kind != protocol.SymbolKindClass {
		t.Errorf("the fault kind: %+v", syms)
	}
	if in, ok := got["incident web_memory_leak"]; !ok || in.Location.URI != u {
		t.Errorf("the incident: %+v", syms)
	}
	// Scoped symbols name their container.
	c.call(protocol.MethodWorkspaceSymbol, &protocol.WorkspaceSymbolParams{Query: "pool_size"}, &syms)
	found := false
	for _, s := range syms {
		found = found || s.Name == "pool_size" && s.ContainerName == "config key of database" && s.Kind == protocol.SymbolKindProperty
	}
	if !found {
		t.Errorf("pool_size: %+v", syms)
	}
}
