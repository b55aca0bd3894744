package lsp

import (
	"go.lsp.dev/protocol"
)

// definition is where the symbols under the cursor are declared, from
// lang's index: the label of fault "web_memory_leak" is the fault kind,
// not the incident of the same name.
func (s *Server) definition(p *protocol.DefinitionParams) (any, error) {
	v := s.view()
	var out []protocol.Location
	for _, o := range v.at(p.TextDocument.URI, p.Position) {
		for _, d := range v.ix.Definitions(o.Symbol) {
			if l, ok := s.location(v, d.Range); ok {
				out = append(out, l)
			}
		}
	}
	return out, nil
}
