// Package lsp is srezc's language server: plumbing between the Language
// Server Protocol (go.lsp.dev/protocol's types over go.lsp.dev/jsonrpc2)
// and lang, which answers every question: its schema table (completion,
// hover on keywords and arguments) and its index of definitions and uses
// (definition, references, rename, symbols). One file per method, as
// terraform-ls lays them out; this one maps methods to handlers and holds
// the state they share. A document's module is the folder it is in: its
// open buffers and the *.srez.hcl files beside them, with the embedded
// stdlib, which the server materialises to a read-only cache folder so an
// editor can open its definitions.
package lsp

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/srezc/srezc/certify"
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
	// embeddedDir holds the embedded default's sources, for definitions
	// of the embedded incidents and mutations a module names.
	embeddedDir string
	shutdown    bool
	// last is the most recent analysis, which hover and completion read:
	// analysing again per keystroke would cost 40 ms. lastIndex is its
	// index, built on first use.
	last      *lang.Module
	lastIndex *lang.Index
	// certified caches certification across analyses: an unchanged
	// incident certifies once per session.
	certified *certify.Cache
}

// Serve runs a server on a stream (stdio for an editor) until the client
// exits or the stream closes.
func Serve(ctx context.Context, rwc io.ReadWriteCloser) error {
	s := &Server{docs: map[uri.URI]string{}, published: map[uri.URI]bool{}, certified: certify.NewCache()}
	s.stdlibDir = materializeStdlib()
	s.embeddedDir = materializeEmbedded()
	s.conn = jsonrpc2.NewConn(jsonrpc2.NewStream(rwc))
	s.conn.Go(ctx, s.handle)
	select {
	case <-ctx.Done():
	case <-s.conn.Done():
	}
	return nil
}

// requestHandler answers a request from its raw params.
type requestHandler func(s *Server, params json.RawMessage) (any, error)

// request adapts a method's handler: params that do not decode are an
// InvalidParams error.
func request[P any](f func(*Server, *P) (any, error)) requestHandler {
	return func(s *Server, raw json.RawMessage) (any, error) {
		var p P
		if err := json.Unmarshal(raw, &p); err != nil {
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%v", err)
		}
		return f(s, &p)
	}
}

// notification adapts a notification's handler; params that do not
// decode are ignored, as a notification has no reply to carry an error.
func notification[P any](f func(*Server, *P)) func(*Server, json.RawMessage) {
	return func(s *Server, raw json.RawMessage) {
		var p P
		if json.Unmarshal(raw, &p) == nil {
			f(s, &p)
		}
	}
}

var requests = map[string]requestHandler{
	protocol.MethodInitialize:                 func(s *Server, _ json.RawMessage) (any, error) { return s.initialize(), nil },
	protocol.MethodShutdown:                   func(s *Server, _ json.RawMessage) (any, error) { s.stop(); return nil, nil },
	protocol.MethodTextDocumentFormatting:     request((*Server).formatting),
	protocol.MethodTextDocumentDefinition:     request((*Server).definition),
	protocol.MethodTextDocumentHover:          request((*Server).hover),
	protocol.MethodTextDocumentCompletion:     request((*Server).completion),
	protocol.MethodTextDocumentReferences:     request((*Server).references),
	protocol.MethodTextDocumentRename:         request((*Server).rename),
	protocol.MethodTextDocumentPrepareRename:  request((*Server).prepareRename),
	protocol.MethodTextDocumentCodeAction:     request((*Server).codeAction),
	protocol.MethodTextDocumentDocumentSymbol: request((*Server).documentSymbol),
	protocol.MethodWorkspaceSymbol:            request((*Server).workspaceSymbol),
}

var notifications = map[string]func(*Server, json.RawMessage){
	protocol.MethodTextDocumentDidOpen:   notification((*Server).didOpen),
	protocol.MethodTextDocumentDidChange: notification((*Server).didChange),
	protocol.MethodTextDocumentDidClose:  notification((*Server).didClose),
}

// ignored are notifications the server has nothing to do for.
var ignored = []string{protocol.MethodInitialized, protocol.MethodWorkDoneProgressCancel, protocol.MethodSetTrace,
	"$/cancelRequest", protocol.MethodTextDocumentDidSave}

// handle dispatches one message. A panic in a handler becomes an error
// reply: the server stays up.
func (s *Server) handle(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = reply(ctx, nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "srezc lsp: %s failed: %v\n%s", req.Method(), r, debug.Stack()))
		}
	}()
	method := req.Method()
	if h, ok := requests[method]; ok {
		result, err := h(s, req.Params())
		return reply(ctx, result, err)
	}
	if h, ok := notifications[method]; ok {
		h(s, req.Params())
		return nil
	}
	if method == protocol.MethodExit {
		return s.conn.Close()
	}
	for _, m := range ignored {
		if m == method {
			return nil
		}
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
			WorkspaceSymbolProvider:    true,
			ReferencesProvider:         true,
			RenameProvider:             &protocol.RenameOptions{PrepareProvider: true},
			CodeActionProvider:         true,
		},
		ServerInfo: &protocol.ServerInfo{Name: "srezc"},
	}
}

func (s *Server) stop() {
	s.mu.Lock()
	s.shutdown = true
	s.mu.Unlock()
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

// remember keeps an analysis for hover and completion.
func (s *Server) remember(m *lang.Module) {
	s.mu.Lock()
	s.last, s.lastIndex = m, nil
	s.mu.Unlock()
}

// analysed returns the latest analysis (analysing once if there is none
// yet), its index when it analysed the document's current text (nil when
// the text has changed since), and that text.
func (s *Server) analysed(u uri.URI) (*lang.Module, *lang.Index, string) {
	s.mu.Lock()
	m, text := s.last, s.docs[u]
	s.mu.Unlock()
	if m == nil {
		files, _ := s.module()
		m, _ = lang.Analyze(files)
		s.remember(m)
	}
	current := false
	for _, f := range m.Files {
		if f.Name == u.Filename() {
			current = string(f.Src) == text
		}
	}
	if !current {
		return m, nil, text
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.last == m && s.lastIndex == nil {
		s.lastIndex = lang.NewIndex(m)
	}
	if s.last == m {
		return m, s.lastIndex, text
	}
	return m, lang.NewIndex(m), text
}

// view is a module analysed as its files are now, for the requests that
// must not read a stale analysis (definition, references, rename,
// symbols): positions in it are positions in the editor's buffers.
type view struct {
	m      *lang.Module
	ix     *lang.Index
	byPath map[string]uri.URI
	src    map[string]string // every file's text, by name
}

func (s *Server) view() *view {
	files, byPath := s.module()
	m, _ := lang.Analyze(files)
	v := &view{m: m, ix: lang.NewIndex(m), byPath: byPath, src: map[string]string{}}
	for _, f := range m.Files {
		v.src[f.Name] = string(f.Src)
	}
	return v
}

// at lists the occurrences at an LSP position of a document.
func (v *view) at(u uri.URI, pos protocol.Position) []lang.Occurrence {
	name := u.Filename()
	text, ok := v.src[name]
	if !ok {
		return nil
	}
	return v.ix.At(name, offsetOf(text, pos))
}

// location is where a range of the module is, for the editor; false for
// a file it cannot open.
func (s *Server) location(v *view, r lang.Range) (protocol.Location, bool) {
	u, ok := s.locate(v.byPath, r.Filename)
	if !ok {
		return protocol.Location{}, false
	}
	return protocol.Location{URI: u, Range: toRange(v.src[r.Filename], r)}, true
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
	if (strings.HasPrefix(name, lang.ScenarioPrefix) || strings.HasPrefix(name, lang.MutationPrefix)) && s.embeddedDir != "" {
		return uri.File(filepath.Join(s.embeddedDir, filepath.FromSlash(name))), true
	}
	return "", false
}
