package lsp

import (
	"go.lsp.dev/protocol"

	"github.com/srezc/srezc/lang"
)

// workspaceSymbol lists the declarations whose name contains the query,
// across the open documents' modules and the stdlib, each with its kind
// and the declaration it belongs to (a config key's service kind).
func (s *Server) workspaceSymbol(p *protocol.WorkspaceSymbolParams) (any, error) {
	v := s.view()
	out := []protocol.SymbolInformation{}
	for _, o := range v.ix.Search(p.Query) {
		l, ok := s.location(v, o.Range)
		if !ok {
			continue
		}
		out = append(out, protocol.SymbolInformation{Name: o.Name, Kind: symbolKind(o.Kind), Location: l,
			ContainerName: containerName(o.Symbol)})
	}
	return out, nil
}

func containerName(s lang.Symbol) string {
	if s.Scope != "" {
		return s.Kind.String() + " of " + s.Scope
	}
	return s.Kind.String()
}

// symbolKind picks the nearest of LSP's fixed symbol kinds.
func symbolKind(k lang.SymbolKind) protocol.SymbolKind {
	switch k {
	case lang.SymServiceKind, lang.SymFaultKind, lang.SymDistractorKind, lang.SymNoisePattern:
		return protocol.SymbolKindClass
	case lang.SymSystem, lang.SymSuite, lang.SymSuiteSpec:
		return protocol.SymbolKindModule
	case lang.SymService, lang.SymIncident, lang.SymMutation:
		return protocol.SymbolKindObject
	case lang.SymTool:
		return protocol.SymbolKindFunction
	case lang.SymConfigKey:
		return protocol.SymbolKindProperty
	case lang.SymState, lang.SymQuantity:
		return protocol.SymbolKindVariable
	case lang.SymParam:
		return protocol.SymbolKindTypeParameter
	case lang.SymRole:
		return protocol.SymbolKindInterface
	case lang.SymMechanism, lang.SymComponent:
		return protocol.SymbolKindEnumMember
	}
	return protocol.SymbolKindStruct
}
