package lsp

import (
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// Document sync: the open buffers, kept by didOpen, didChange and
// didClose; each change schedules an analysis.

func (s *Server) didOpen(p *protocol.DidOpenTextDocumentParams) {
	s.setDoc(p.TextDocument.URI, p.TextDocument.Text)
}

func (s *Server) didChange(p *protocol.DidChangeTextDocumentParams) {
	s.mu.Lock()
	text := s.docs[p.TextDocument.URI]
	s.mu.Unlock()
	for _, c := range p.ContentChanges {
		text = applyChange(text, c)
	}
	s.setDoc(p.TextDocument.URI, text)
}

func (s *Server) didClose(p *protocol.DidCloseTextDocumentParams) {
	s.mu.Lock()
	delete(s.docs, p.TextDocument.URI)
	s.mu.Unlock()
	s.schedule()
}

// applyChange applies one content change: a whole new text, or a range
// replaced (positions in UTF-16 code units, as LSP counts them).
func applyChange(text string, c protocol.TextDocumentContentChangeEvent) string {
	if c.Range == (protocol.Range{}) && c.RangeLength == 0 {
		return c.Text
	}
	start := offsetOf(text, c.Range.Start)
	end := offsetOf(text, c.Range.End)
	if end < start {
		start, end = end, start
	}
	return text[:start] + c.Text + text[end:]
}

func (s *Server) setDoc(u uri.URI, text string) {
	s.mu.Lock()
	s.docs[u] = text
	s.mu.Unlock()
	s.schedule()
}

// schedule analyses after the debounce, once for a burst of changes.
func (s *Server) schedule() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.timer != nil {
		s.timer.Stop()
	}
	s.generation++
	gen := s.generation
	s.timer = time.AfterFunc(Debounce, func() { s.analyse(gen) })
}
