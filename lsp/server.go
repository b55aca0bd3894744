// Package lsp is srezc's language server: a thin layer over lang's analysis
// and the compiler's certification, spoken over JSON-RPC with the LSP types
// of go.lsp.dev/protocol. A document's module is the folder it is in: its
// open buffers and the *.srez.hcl files beside them, with the embedded
// stdlib, which the server materialises to a read-only cache folder so an
// editor can open its definitions.
package lsp

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/srezc/srezc/certify"
	"github.com/srezc/srezc/compiler"
	"github.com/srezc/srezc/lang"
)

// Debounce is how long the server waits after a change before it analyses:
// typing produces a change per key.
var Debounce = 50 * time.Millisecond

// Server holds the open documents of one editor session.
type Server struct {
	conn jsonrpc2.Conn

	mu        sync.Mutex
	docs      map[uri.URI]string // open buffers
	published map[uri.URI]bool   // documents last published with diagnostics
	timer     *time.Timer
	// generation counts analyses: a slow certification from an older
	// generation must not overwrite newer diagnostics.
	generation int
	stdlibDir  string
	shutdown   bool
	// last is the most recent analysis, which hover and completion read:
	// analysing again per keystroke would cost 40 ms.
	last *lang.Module
	// certified caches certification across analyses: an unchanged
	// incident certifies once per session.
	certified *certify.Cache
}

// Serve runs a server on a stream (stdio for an editor) until the client
// exits or the stream closes.
func Serve(ctx context.Context, rwc io.ReadWriteCloser) error {
	s := &Server{docs: map[uri.URI]string{}, published: map[uri.URI]bool{}, certified: certify.NewCache()}
	s.stdlibDir = materializeStdlib()
	s.conn = jsonrpc2.NewConn(jsonrpc2.NewStream(rwc))
	s.conn.Go(ctx, s.handle)
	select {
	case <-ctx.Done():
	case <-s.conn.Done():
	}
	return nil
}

// materializeStdlib writes the embedded stdlib to a read-only folder under
// the user cache, named by its content, so definitions in it open in an
// editor; "" when it cannot.
func materializeStdlib() string {
	base, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	files := lang.StdlibFiles()
	h := sha256.New()
	for _, f := range files {
		h.Write([]byte(f.Name))
		h.Write(f.Src)
	}
	dir := filepath.Join(base, "srezc", "stdlib-"+hex.EncodeToString(h.Sum(nil))[:12])
	if _, err := os.Stat(dir); err == nil {
		return dir
	}
	tmp, err := os.MkdirTemp(filepath.Join(base, "srezc"), ".stdlib-*")
	if err != nil && os.MkdirAll(filepath.Join(base, "srezc"), 0o755) == nil {
		tmp, err = os.MkdirTemp(filepath.Join(base, "srezc"), ".stdlib-*")
	}
	if err != nil {
		return ""
	}
	for _, f := range files {
		p := filepath.Join(tmp, strings.TrimPrefix(f.Name, lang.StdlibPrefix))
		if os.MkdirAll(filepath.Dir(p), 0o755) != nil || os.WriteFile(p, f.Src, 0o444) != nil {
			os.RemoveAll(tmp)
			return ""
		}
	}
	if err := os.Rename(tmp, dir); err != nil {
		os.RemoveAll(tmp)
		if _, err := os.Stat(dir); err == nil {
			return dir // another server got there first
		}
		return ""
	}
	return dir
}

// handle dispatches one message. A panic in a handler becomes an error
// reply: the server stays up.
func (s *Server) handle(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = reply(ctx, nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "srezc lsp: %s failed: %v\n%s", req.Method(), r, debug.Stack()))
		}
	}()
	params := req.Params()
	switch req.Method() {
	case protocol.MethodInitialize:
		return reply(ctx, s.initialize(), nil)
	case protocol.MethodInitialized, protocol.MethodWorkDoneProgressCancel, protocol.MethodSetTrace, "$/cancelRequest":
		return nil
	case protocol.MethodShutdown:
		s.mu.Lock()
		s.shutdown = true
		s.mu.Unlock()
		return reply(ctx, nil, nil)
	case protocol.MethodExit:
		return s.conn.Close()
	case protocol.MethodTextDocumentDidOpen:
		var p protocol.DidOpenTextDocumentParams
		if err := json.Unmarshal(params, &p); err != nil {
			return nil
		}
		s.setDoc(p.TextDocument.URI, p.TextDocument.Text)
		return nil
	case protocol.MethodTextDocumentDidChange:
		var p protocol.DidChangeTextDocumentParams
		if err := json.Unmarshal(params, &p); err != nil {
			return nil
		}
		s.mu.Lock()
		text := s.docs[p.TextDocument.URI]
		s.mu.Unlock()
		for _, c := range p.ContentChanges {
			text = applyChange(text, c)
		}
		s.setDoc(p.TextDocument.URI, text)
		return nil
	case protocol.MethodTextDocumentDidClose:
		var p protocol.DidCloseTextDocumentParams
		if err := json.Unmarshal(params, &p); err == nil {
			s.mu.Lock()
			delete(s.docs, p.TextDocument.URI)
			s.mu.Unlock()
			s.schedule()
		}
		return nil
	case protocol.MethodTextDocumentDidSave:
		return nil
	case protocol.MethodTextDocumentFormatting:
		var p protocol.DocumentFormattingParams
		if err := json.Unmarshal(params, &p); err != nil {
			return reply(ctx, nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%v", err))
		}
		return reply(ctx, s.format(p.TextDocument.URI), nil)
	case protocol.MethodTextDocumentDefinition:
		var p protocol.DefinitionParams
		if err := json.Unmarshal(params, &p); err != nil {
			return reply(ctx, nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%v", err))
		}
		return reply(ctx, s.definition(p.TextDocument.URI, p.Position), nil)
	case protocol.MethodTextDocumentHover:
		var p protocol.HoverParams
		if err := json.Unmarshal(params, &p); err != nil {
			return reply(ctx, nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%v", err))
		}
		m, text := s.analysed(p.TextDocument.URI)
		doc := hover(m, text, offsetOf(text, p.Position))
		if doc == "" {
			return reply(ctx, nil, nil)
		}
		return reply(ctx, &protocol.Hover{Contents: protocol.MarkupContent{Kind: protocol.Markdown, Value: doc}}, nil)
	case protocol.MethodTextDocumentCompletion:
		var p protocol.CompletionParams
		if err := json.Unmarshal(params, &p); err != nil {
			return reply(ctx, nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%v", err))
		}
		m, text := s.analysed(p.TextDocument.URI)
		return reply(ctx, &protocol.CompletionList{Items: completion(m, text, offsetOf(text, p.Position))}, nil)
	case protocol.MethodTextDocumentReferences:
		var p protocol.ReferenceParams
		if err := json.Unmarshal(params, &p); err != nil {
			return reply(ctx, nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%v", err))
		}
		return reply(ctx, s.references(p.TextDocument.URI, p.Position, p.Context.IncludeDeclaration), nil)
	case protocol.MethodTextDocumentCodeAction:
		var p protocol.CodeActionParams
		if err := json.Unmarshal(params, &p); err != nil {
			return reply(ctx, nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%v", err))
		}
		s.mu.Lock()
		text := s.docs[p.TextDocument.URI]
		s.mu.Unlock()
		return reply(ctx, codeActions(p.TextDocument.URI, text, p.Context.Diagnostics), nil)
	case protocol.MethodTextDocumentDocumentSymbol:
		var p protocol.DocumentSymbolParams
		if err := json.Unmarshal(params, &p); err != nil {
			return reply(ctx, nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%v", err))
		}
		return reply(ctx, s.symbols(p.TextDocument.URI), nil)
	}
	return jsonrpc2.MethodNotFoundHandler(ctx, reply, req)
}

func (s *Server) initialize() *protocol.InitializeResult {
	return &protocol.InitializeResult{
		Capabilities: protocol.ServerCapabilities{
			TextDocumentSync: protocol.TextDocumentSyncOptions{
				OpenClose: true,
				Change:    protocol.TextDocumentSyncKindIncremental,
			},
			DocumentFormattingProvider: true,
			HoverProvider:              true,
			CompletionProvider:         &protocol.CompletionOptions{TriggerCharacters: []string{"\"", " "}},
			DefinitionProvider:         true,
			DocumentSymbolProvider:     true,
			ReferencesProvider:         true,
			CodeActionProvider:         true,
		},
		ServerInfo: &protocol.ServerInfo{Name: "srezc"},
	}
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

// module gathers the files of the folders holding open documents: the
// open buffers, and the other *.srez.hcl files read from disk.
func (s *Server) module() ([]*lang.File, map[string]uri.URI) {
	s.mu.Lock()
	docs := make(map[uri.URI]string, len(s.docs))
	for u, t := range s.docs {
		docs[u] = t
	}
	s.mu.Unlock()
	byPath := map[string]uri.URI{}
	var files []*lang.File
	dirs := map[string]bool{}
	for u, text := range docs {
		p := u.Filename()
		byPath[p] = u
		files = append(files, &lang.File{Name: p, Src: []byte(text)})
		dirs[filepath.Dir(p)] = true
	}
	for dir := range dirs {
		paths, _ := filepath.Glob(filepath.Join(dir, "*"+lang.Ext))
		for _, p := range paths {
			if _, open := byPath[p]; open {
				continue
			}
			if src, err := os.ReadFile(p); err == nil {
				files = append(files, &lang.File{Name: p, Src: src})
				byPath[p] = uri.File(p)
			}
		}
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Name < files[j].Name })
	return files, byPath
}

// analyse publishes the module's diagnostics: first what analysis finds
// (syntax, decoding, references, types), then, once compiled, with the
// certification findings added.
func (s *Server) analyse(gen int) {
	files, byPath := s.module()
	m, diags := lang.Analyze(files)
	if !s.current(gen) {
		return
	}
	s.mu.Lock()
	s.last = m
	s.mu.Unlock()
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

// locate turns a file name of the module into a URI: the author's files
// as they are, stdlib files in the materialised folder.
func (s *Server) locate(byPath map[string]uri.URI, name string) (uri.URI, bool) {
	if u, ok := byPath[name]; ok {
		return u, true
	}
	if rest, ok := strings.CutPrefix(name, lang.StdlibPrefix); ok && s.stdlibDir != "" {
		return uri.File(filepath.Join(s.stdlibDir, rest)), true
	}
	return "", false
}

func (s *Server) format(u uri.URI) []protocol.TextEdit {
	s.mu.Lock()
	text, ok := s.docs[u]
	s.mu.Unlock()
	if !ok {
		return nil
	}
	out, diags := lang.Format(u.Filename(), []byte(text))
	if diags.HasErrors() || string(out) == text {
		return []protocol.TextEdit{}
	}
	return []protocol.TextEdit{{Range: protocol.Range{Start: protocol.Position{}, End: endOf(text)}, NewText: string(out)}}
}

// definition finds the declaration a name under the cursor refers to: a
// string or block label naming a fault kind, service kind, system,
// distractor kind, noise pattern, tool, rubric, incident or mutation.
func (s *Server) definition(u uri.URI, pos protocol.Position) []protocol.Location {
	m, byPath, name := s.nameUnder(u, pos)
	if name == "" {
		return nil
	}
	var out []protocol.Location
	src := map[string]string{}
	for _, f := range m.Files {
		src[f.Name] = string(f.Src)
	}
	for _, d := range m.Decls(name) {
		if l, ok := s.locate(byPath, d.DefRange.Filename); ok {
			out = append(out, protocol.Location{URI: l, Range: toRange(src[d.DefRange.Filename], d.NameRange)})
		}
	}
	return out
}

// analysed returns the latest analysis (analysing once if there is none
// yet) and the document's current text.
func (s *Server) analysed(u uri.URI) (*lang.Module, string) {
	s.mu.Lock()
	m, text := s.last, s.docs[u]
	s.mu.Unlock()
	if m == nil {
		files, _ := s.module()
		m, _ = lang.Analyze(files)
		s.mu.Lock()
		s.last = m
		s.mu.Unlock()
	}
	return m, text
}

// nameUnder analyses the document's module and reads the name under the
// cursor.
func (s *Server) nameUnder(u uri.URI, pos protocol.Position) (*lang.Module, map[string]uri.URI, string) {
	files, byPath := s.module()
	var text string
	for _, f := range files {
		if f.Name == u.Filename() {
			text = string(f.Src)
		}
	}
	name := nameAt(text, offsetOf(text, pos))
	if name == "" {
		return nil, nil, ""
	}
	m, _ := lang.Analyze(files)
	return m, byPath, name
}

// references finds every place a declared name is used: as a quoted
// string or a block label in any file of the module, the stdlib included.
func (s *Server) references(u uri.URI, pos protocol.Position, withDecl bool) []protocol.Location {
	m, byPath, name := s.nameUnder(u, pos)
	if name == "" {
		return nil
	}
	decls := m.Decls(name)
	if len(decls) == 0 {
		return nil
	}
	var out []protocol.Location
	quoted := `"` + name + `"`
	for _, f := range m.Files {
		loc, ok := s.locate(byPath, f.Name)
		if !ok {
			continue
		}
		src := string(f.Src)
		for from := 0; ; {
			i := strings.Index(src[from:], quoted)
			if i < 0 {
				break
			}
			start := from + i
			from = start + len(quoted)
			isDecl := false
			for _, d := range decls {
				isDecl = isDecl || d.NameRange.Filename == f.Name && d.NameRange.Start.Byte == start
			}
			if isDecl && !withDecl {
				continue
			}
			out = append(out, protocol.Location{URI: loc, Range: protocol.Range{Start: positionOf(src, start), End: positionOf(src, from)}})
		}
	}
	return out
}

// nameAt is the quoted string or identifier around a byte offset.
func nameAt(text string, off int) string {
	if off < 0 || off > len(text) {
		return ""
	}
	isName := func(c byte) bool {
		return c == '_' || c == '-' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
	}
	start, end := off, off
	for start > 0 && isName(text[start-1]) {
		start--
	}
	for end < len(text) && isName(text[end]) {
		end++
	}
	return text[start:end]
}

// symbols is the document's outline: its top-level declarations.
func (s *Server) symbols(u uri.URI) []protocol.DocumentSymbol {
	files, _ := s.module()
	m, _ := lang.Analyze(files)
	var text string
	for _, f := range files {
		if f.Name == u.Filename() {
			text = string(f.Src)
		}
	}
	var out []protocol.DocumentSymbol
	for _, d := range m.AllDecls() {
		if d.Decl.DefRange.Filename != u.Filename() {
			continue
		}
		r := toRange(text, d.Decl.DefRange)
		out = append(out, protocol.DocumentSymbol{Name: d.Decl.Name, Detail: d.Kind, Kind: protocol.SymbolKindStruct,
			Range: r, SelectionRange: toRange(text, d.Decl.NameRange)})
	}
	return out
}

var _ = fmt.Sprintf
