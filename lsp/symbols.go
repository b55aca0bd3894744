package lsp

import (
	"go.lsp.dev/protocol"
)

// documentSymbol is the document's outline: its top-level declarations.
func (s *Server) documentSymbol(p *protocol.DocumentSymbolParams) (any, error) {
	v := s.view()
	name := p.TextDocument.URI.Filename()
	text := v.src[name]
	var out []protocol.DocumentSymbol
	for _, d := range v.m.AllDecls() {
		if d.Decl.DefRange.Filename != name {
			continue
		}
		out = append(out, protocol.DocumentSymbol{Name: d.Decl.Name, Detail: d.Kind, Kind: protocol.SymbolKindStruct,
			Range: toRange(text, d.Decl.DefRange), SelectionRange: toRange(text, d.Decl.NameRange)})
	}
	return out, nil
}
