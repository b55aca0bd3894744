package lsp

import (
	"go.lsp.dev/protocol"
)

// references are the uses of the symbols under the cursor across the
// module and the stdlib, from lang's index: the service web_server of a
// target, not the service kind of that name nor another system's service.
func (s *Server) references(p *protocol.ReferenceParams) (any, error) {
	v := s.view()
	var out []protocol.Location
	for _, o := range v.at(p.TextDocument.URI, p.Position) {
		for _, r := range v.ix.References(o.Symbol, p.Context.IncludeDeclaration) {
			if l, ok := s.location(v, r.Range); ok {
				out = append(out, l)
			}
		}
	}
	return out, nil
}
