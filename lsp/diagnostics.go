package lsp

import (
	"context"
	"slices"
	"sort"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/srezc/srezc/compiler"
	"github.com/srezc/srezc/lang"
)

// analyse publishes the module's diagnostics: first what analysis finds
// (syntax, decoding, references, types), then, once compiled, with the
// certification findings added.
func (s *Server) analyse(gen int) {
	files, byPath := s.module()
	m, diags := lang.Analyze(files)
	if !s.current(gen) {
		return
	}
	s.remember(m)
	s.publish(m, byPath, diags)
	if diags.HasErrors() {
		return
	}
	_, cdiags := compiler.CompileWith(m, compiler.Options{Cache: s.certified})
	if !s.current(gen) || len(cdiags) == 0 {
		return
	}
	s.publish(m, byPath, append(diags, cdiags...).Sort())
}

func (s *Server) current(gen int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return gen == s.generation && !s.shutdown
}

// publish sends every open or module document its diagnostics, and an
// empty list to those that had some and have none now.
func (s *Server) publish(m *lang.Module, byPath map[string]uri.URI, diags lang.Diagnostics) {
	src := map[string]string{}
	for _, f := range m.Files {
		src[f.Name] = string(f.Src)
	}
	per := map[uri.URI][]protocol.Diagnostic{}
	for _, d := range diags {
		if d.Subject == nil {
			continue
		}
		u, ok := byPath[d.Subject.Filename]
		if !ok {
			continue // a stdlib file: not the author's
		}
		pd := protocol.Diagnostic{
			Range:    toRange(src[d.Subject.Filename], *d.Subject),
			Severity: protocol.DiagnosticSeverityError,
			Source:   "srezc",
			Message:  d.Summary,
		}
		if d.Detail != "" {
			pd.Message += ": " + d.Detail
		}
		if d.Severity == lang.Warning {
			pd.Severity = protocol.DiagnosticSeverityWarning
		}
		if d.Related != nil {
			if ru, ok := s.locate(byPath, d.Related.Filename); ok {
				pd.RelatedInformation = []protocol.DiagnosticRelatedInformation{{
					Location: protocol.Location{URI: ru, Range: toRange(src[d.Related.Filename], *d.Related)},
					Message:  "see here",
				}}
			}
		}
		per[u] = append(per[u], pd)
	}
	s.mu.Lock()
	var targets []uri.URI
	for u := range per {
		targets = append(targets, u)
	}
	for u := range s.published {
		if _, ok := per[u]; !ok {
			targets = append(targets, u)
		}
	}
	for u := range s.docs {
		if !slices.Contains(targets, u) {
			targets = append(targets, u)
		}
	}
	s.published = map[uri.URI]bool{}
	for u, ds := range per {
		s.published[u] = len(ds) > 0
	}
	s.mu.Unlock()
	sort.Slice(targets, func(i, j int) bool { return targets[i] < targets[j] })
	for _, u := range targets {
		ds := per[u]
		if ds == nil {
			ds = []protocol.Diagnostic{}
		}
		_ = s.conn.Notify(context.Background(), protocol.MethodTextDocumentPublishDiagnostics,
			&protocol.PublishDiagnosticsParams{URI: u, Diagnostics: ds})
	}
}
