package lsp

import (
	"go.lsp.dev/protocol"

	"github.com/srezc/srezc/lang"
)

// definition is where the symbols under the cursor are declared, from
// lang's index: the label of fault "web_memory_leak" is the fault kind,
// not the incident of the same name. An embedded incident or mutation the
// module names as a base (which the index, holding the module's files,
// does not declare) opens in the materialised embedded default.
func (s *Server) definition(p *protocol.DefinitionParams) (any, error) {
	v := s.view()
	var out []protocol.Location
	for _, o := range v.at(p.TextDocument.URI, p.Position) {
		defs := v.ix.Definitions(o.Symbol)
		for _, d := range defs {
			if l, ok := s.location(v, d.Range); ok {
				out = append(out, l)
			}
		}
		if len(defs) == 0 {
			if r, ok := embeddedDefinition(v.m, o.Symbol); ok {
				if l, ok := s.embeddedLocation(r); ok {
					out = append(out, l)
				}
			}
		}
	}
	return out, nil
}

// embeddedDefinition is the label of the embedded declaration a symbol the
// module does not declare resolves to: a mutation's base, or a mutation.
func embeddedDefinition(m *lang.Module, sym lang.Symbol) (lang.Range, bool) {
	switch sym.Kind {
	case lang.SymMutation:
		if mu := m.Mutation(sym.Name); mu != nil && m.IsEmbedded(&mu.Decl) {
			return mu.NameRange, true
		}
	case lang.SymIncident:
		for _, mu := range m.Mutations {
			if base := m.MutationBase(mu); mu.From == sym.Name && base != nil && m.IsEmbedded(&base.Decl) {
				return base.NameRange, true
			}
		}
	}
	return lang.Range{}, false
}

// embeddedLocation locates a range of an embedded default's file.
func (s *Server) embeddedLocation(r lang.Range) (protocol.Location, bool) {
	u, ok := s.locate(nil, r.Filename)
	if !ok {
		return protocol.Location{}, false
	}
	for _, f := range lang.EmbeddedFiles() {
		if f.Name == r.Filename {
			// A label's range holds its quotes; the index's hold the name.
			if r.Start.Byte >= 0 && r.End.Byte-r.Start.Byte >= 2 && r.End.Byte <= len(f.Src) && f.Src[r.Start.Byte] == '"' && f.Src[r.End.Byte-1] == '"' {
				r.Start.Byte, r.Start.Column, r.End.Byte, r.End.Column = r.Start.Byte+1, r.Start.Column+1, r.End.Byte-1, r.End.Column-1
			}
			return protocol.Location{URI: u, Range: toRange(string(f.Src), r)}, true
		}
	}
	return protocol.Location{}, false
}
