package lsp

import (
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// codeRequestFailed is LSP's RequestFailed: a valid request the server
// declines (renaming a stdlib name).
const codeRequestFailed jsonrpc2.Code = -32803

// rename edits every occurrence of the symbol under the cursor, and
// nothing else, as lang's index finds them (lang.Index.Rename says what
// it refuses).
func (s *Server) rename(p *protocol.RenameParams) (any, error) {
	v := s.view()
	u := p.TextDocument.URI
	text, ok := v.src[u.Filename()]
	if !ok {
		return nil, jsonrpc2.NewError(codeRequestFailed, "the document is not open")
	}
	_, occs, err := v.ix.Rename(u.Filename(), offsetOf(text, p.Position), p.NewName)
	if err != nil {
		return nil, jsonrpc2.NewError(codeRequestFailed, err.Error())
	}
	changes := map[uri.URI][]protocol.TextEdit{}
	for _, o := range occs {
		l, ok := s.location(v, o.Range)
		if !ok {
			return nil, jsonrpc2.Errorf(codeRequestFailed, "%s is in %s, which the editor cannot open", o.Symbol, o.Range.Filename)
		}
		changes[l.URI] = append(changes[l.URI], protocol.TextEdit{Range: l.Range, NewText: p.NewName})
	}
	return &protocol.WorkspaceEdit{Changes: changes}, nil
}

// prepareRename is the range of the name a rename would edit, or why it
// would be refused.
func (s *Server) prepareRename(p *protocol.PrepareRenameParams) (any, error) {
	v := s.view()
	u := p.TextDocument.URI
	text, ok := v.src[u.Filename()]
	if !ok {
		return nil, nil
	}
	off := offsetOf(text, p.Position)
	at := v.ix.At(u.Filename(), off)
	if len(at) == 0 {
		return nil, nil
	}
	if _, _, err := v.ix.Rename(u.Filename(), off, at[0].Name); err != nil {
		return nil, jsonrpc2.NewError(codeRequestFailed, err.Error())
	}
	r := toRange(text, at[0].Range)
	return &r, nil
}
