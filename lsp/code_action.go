package lsp

import (
	"regexp"
	"strings"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// Quick fixes for the common mistakes, read off the diagnostics the editor
// hands back: a misspelt name the diagnostic suggests a replacement for,
// and a missing required argument.

var (
	didYouMean = regexp.MustCompile(`Did you mean "([^"]+)"\?`)
	missingArg = regexp.MustCompile(`^Missing required argument: The argument "([^"]+)" is required`)
)

func codeActions(u uri.URI, text string, diags []protocol.Diagnostic) []protocol.CodeAction {
	var out []protocol.CodeAction
	for _, d := range diags {
		if m := didYouMean.FindStringSubmatch(d.Message); m != nil {
			start, end := offsetOf(text, d.Range.Start), offsetOf(text, d.Range.End)
			if start > end || end > len(text) {
				continue
			}
			old := text[start:end]
			repl := m[1]
			if strings.HasPrefix(old, `"`) && strings.HasSuffix(old, `"`) && len(old) >= 2 {
				repl = `"` + repl + `"`
			}
			out = append(out, protocol.CodeAction{
				Title:       "Change to " + m[1],
				Kind:        protocol.QuickFix,
				Diagnostics: []protocol.Diagnostic{d},
				IsPreferred: true,
				Edit: &protocol.WorkspaceEdit{Changes: map[uri.URI][]protocol.TextEdit{
					u: {{Range: d.Range, NewText: repl}},
				}},
			})
		}
		if m := missingArg.FindStringSubmatch(d.Message); m != nil {
			// Insert the argument on the line after the block's header.
			at := offsetOf(text, d.Range.Start)
			nl := strings.IndexByte(text[at:], '\n')
			if nl < 0 {
				continue
			}
			pos := positionOf(text, at+nl+1)
			out = append(out, protocol.CodeAction{
				Title:       "Add " + m[1],
				Kind:        protocol.QuickFix,
				Diagnostics: []protocol.Diagnostic{d},
				Edit: &protocol.WorkspaceEdit{Changes: map[uri.URI][]protocol.TextEdit{
					u: {{Range: protocol.Range{Start: pos, End: pos}, NewText: "  " + m[1] + " = \"\"\n"}},
				}},
			})
		}
	}
	return out
}

// codeAction offers the quick fixes for the diagnostics the editor sends.
func (s *Server) codeAction(p *protocol.CodeActionParams) (any, error) {
	s.mu.Lock()
	text := s.docs[p.TextDocument.URI]
	s.mu.Unlock()
	return codeActions(p.TextDocument.URI, text, p.Context.Diagnostics), nil
}
