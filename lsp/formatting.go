package lsp

import (
	"go.lsp.dev/protocol"

	"github.com/srezc/srezc/lang"
)

// formatting is srezc fmt's formatter, as one edit of the whole document.
func (s *Server) formatting(p *protocol.DocumentFormattingParams) (any, error) {
	u := p.TextDocument.URI
	s.mu.Lock()
	text, ok := s.docs[u]
	s.mu.Unlock()
	if !ok {
		return []protocol.TextEdit(nil), nil
	}
	out, diags := lang.Format(u.Filename(), []byte(text))
	if diags.HasErrors() || string(out) == text {
		return []protocol.TextEdit{}, nil
	}
	return []protocol.TextEdit{{Range: protocol.Range{Start: protocol.Position{}, End: endOf(text)}, NewText: string(out)}}, nil
}
