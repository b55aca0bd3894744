package lsp_test

import (
	"context"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/srezc/srezc/lsp"
)

// client is an LSP client on a real JSON-RPC connection to the server.
type client struct {
	t     *testing.T
	conn  jsonrpc2.Conn
	diags chan *protocol.PublishDiagnosticsParams
}

func start(t *testing.T) *client {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	lsp.Debounce = 5 * time.Millisecond
	a, b := net.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go lsp.Serve(ctx, a)
	c := &client{t: t, conn: jsonrpc2.NewConn(jsonrpc2.NewStream(b)), diags: make(chan *protocol.PublishDiagnosticsParams, 64)}
	c.conn.Go(ctx, func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
		if req.Method() == protocol.MethodTextDocumentPublishDiagnostics {
			var p protocol.PublishDiagnosticsParams
			if err := json.Unmarshal(req.Params(), &p); err == nil {
				c.diags <- &p
			}
			return nil
		}
		return reply(ctx, nil, nil)
	})
	return c
}

func (c *client) call(method string, params, result any) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := c.conn.Call(ctx, method, params, result); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
}

func (c *client) notify(method string, params any) {
	c.t.Helper()
	if err := c.conn.Notify(context.Background(), method, params); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
}

// wait returns the next diagnostics for u that satisfy ok.
func (c *client) wait(u uri.URI, ok func([]protocol.Diagnostic) bool) []protocol.Diagnostic {
	c.t.Helper()
	deadline := time.After(20 * time.Second)
	for {
		select {
		case p := <-c.diags:
			if p.URI == u && ok(p.Diagnostics) {
				return p.Diagnostics
			}
		case <-deadline:
			c.t.Fatalf("no matching diagnostics for %s", u)
		}
	}
}

const broken = `incident "x" {
  alert      = "Cafés see errors — p95 is high."
  difficulty = "easy"
  split      = "train"
  budget = 8
  system     = "standard"

  fault "db_pool_too_smal" { target = "database" }

  expert = ["inspect_logs(database)"]
}
`

// TestSession drives the server as an editor would: initialize, open a
// file with an error, see it, fix it, see it go, complete, hover, jump into
// the stdlib, format, list symbols, shut down.
func TestSession(t *testing.T) {
	c := start(t)
	var init protocol.InitializeResult
	c.call(protocol.MethodInitialize, &protocol.InitializeParams{}, &init)
	if init.ServerInfo == nil || init.ServerInfo.Name != "srezc" {
		t.Fatalf("initialize: %+v", init)
	}
	c.notify(protocol.MethodInitialized, &protocol.InitializedParams{})

	dir := t.TempDir()
	u := uri.File(filepath.Join(dir, "a.srez.hcl"))
	c.notify(protocol.MethodTextDocumentDidOpen, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{URI: u, LanguageID: "srezc", Version: 1, Text: broken}})
	ds := c.wait(u, func(ds []protocol.Diagnostic) bool { return len(ds) > 0 })
	var unknown *protocol.Diagnostic
	for i := range ds {
		if strings.HasPrefix(ds[i].Message, "Unknown fault kind") {
			unknown = &ds[i]
		}
	}
	if unknown == nil {
		t.Fatalf("no unknown-fault-kind diagnostic: %+v", ds)
	}
	// Line 8 (0-based 7), the label from its opening quote.
	if unknown.Range.Start != (protocol.Position{Line: 7, Character: 8}) || !strings.Contains(unknown.Message, `Did you mean "db_pool_too_small"`) {
		t.Errorf("diagnostic at %+v: %s", unknown.Range, unknown.Message)
	}

	// An incremental change fixes the typo: the diagnostic goes.
	c.notify(protocol.MethodTextDocumentDidChange, &protocol.DidChangeTextDocumentParams{
		TextDocument: protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: u}, Version: 2},
		ContentChanges: []protocol.TextDocumentContentChangeEvent{{
			Range: protocol.Range{Start: protocol.Position{Line: 7, Character: 25}, End: protocol.Position{Line: 7, Character: 25}},
			Text:  "l",
		}},
	})
	c.wait(u, func(ds []protocol.Diagnostic) bool {
		for _, d := range ds {
			if strings.HasPrefix(d.Message, "Unknown fault kind") {
				return false
			}
		}
		return true
	})

	// Complete in the fault's label, hover on it.
	var list protocol.CompletionList
	c.call(protocol.MethodTextDocumentCompletion, &protocol.CompletionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: u}, Position: protocol.Position{Line: 7, Character: 10}}}, &list)
	if len(list.Items) < 20 {
		t.Errorf("completion in the fault label: %d items", len(list.Items))
	}
	var h protocol.Hover
	c.call(protocol.MethodTextDocumentHover, &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: u}, Position: protocol.Position{Line: 7, Character: 12}}}, &h)
	if !strings.Contains(h.Contents.Value, "db_pool_too_small") {
		t.Errorf("hover: %q", h.Contents.Value)
	}

	// Go to the definition of the fault kind: in the materialised stdlib.
	var locs []protocol.Location
	c.call(protocol.MethodTextDocumentDefinition, &protocol.DefinitionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: u}, Position: protocol.Position{Line: 7, Character: 12}}}, &locs)
	if len(locs) != 1 || !strings.HasSuffix(locs[0].URI.Filename(), "faults.srez.hcl") {
		t.Fatalf("definition: %+v", locs)
	}
	if src, err := os.ReadFile(locs[0].URI.Filename()); err != nil || !strings.Contains(string(src), `fault_kind "db_pool_too_small"`) {
		t.Errorf("the stdlib file the definition points at: %v", err)
	}

	// Formatting: the misaligned attributes are aligned in one edit.
	var edits []protocol.TextEdit
	c.call(protocol.MethodTextDocumentFormatting, &protocol.DocumentFormattingParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}}, &edits)
	if len(edits) != 1 || !strings.Contains(edits[0].NewText, `fault "db_pool_too_small" { target = "database" }`) {
		t.Errorf("formatting: %+v", edits)
	}

	var symbols []protocol.DocumentSymbol
	c.call(protocol.MethodTextDocumentDocumentSymbol, &protocol.DocumentSymbolParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}}, &symbols)
	if len(symbols) != 1 || symbols[0].Name != "x" || symbols[0].Detail != "incident" {
		t.Errorf("symbols: %+v", symbols)
	}

	c.call(protocol.MethodShutdown, nil, nil)
	c.notify(protocol.MethodExit, nil)
}

// TestUnknownMethodAndBadParams: the server answers, and stays up.
func TestUnknownMethodAndBadParams(t *testing.T) {
	c := start(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := c.conn.Call(ctx, "textDocument/nonsense", map[string]int{"a": 1}, nil); err == nil {
		t.Error("an unknown method got no error")
	}
	if _, err := c.conn.Call(ctx, protocol.MethodTextDocumentDefinition, "not an object", nil); err == nil {
		t.Error("bad params got no error")
	}
	var init protocol.InitializeResult
	c.call(protocol.MethodInitialize, &protocol.InitializeParams{}, &init)
}

// TestHoverAndCompletion: documentation from the stdlib where a name is
// used, and completion that knows the cursor's place.
func TestHoverAndCompletion(t *testing.T) {
	c := start(t)
	var init protocol.InitializeResult
	c.call(protocol.MethodInitialize, &protocol.InitializeParams{}, &init)
	u := uri.File(filepath.Join(t.TempDir(), "a.srez.hcl"))
	text := strings.Replace(broken, "db_pool_too_smal", "db_pool_too_small", 1)
	c.notify(protocol.MethodTextDocumentDidOpen, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{URI: u, Version: 1, Text: text}})
	c.wait(u, func([]protocol.Diagnostic) bool { return true })

	var h protocol.Hover
	c.call(protocol.MethodTextDocumentHover, &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: u}, Position: protocol.Position{Line: 7, Character: 12}}}, &h)
	if !strings.Contains(h.Contents.Value, "fault kind") || !strings.Contains(h.Contents.Value, "Mechanism: `connection_pool_exhausted`") || !strings.Contains(h.Contents.Value, "`size` int") {
		t.Errorf("hover on the fault kind: %q", h.Contents.Value)
	}

	complete := func(line, char uint32) []string {
		var list protocol.CompletionList
		c.call(protocol.MethodTextDocumentCompletion, &protocol.CompletionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: u}, Position: protocol.Position{Line: line, Character: char}}}, &list)
		var labels []string
		for _, it := range list.Items {
			labels = append(labels, it.Label)
		}
		return labels
	}
	// In the fault's label: fault kinds.
	if got := complete(7, 10); !slices.Contains(got, "db_index_disabled") || slices.Contains(got, "standard") {
		t.Errorf("completion in a fault label: %v", got)
	}
	// In the fault's target: the incident's services.
	if got := complete(7, 41); !slices.Contains(got, "database") || !slices.Contains(got, "cache") {
		t.Errorf("completion in a target: %v", got)
	}
	// In the system attribute: systems.
	if got := complete(5, 17); !slices.Contains(got, "standard") || !slices.Contains(got, "sre_zero") {
		t.Errorf("completion in system: %v", got)
	}
	// On an empty line of the incident body: its arguments and blocks.
	if got := complete(6, 0); !slices.Contains(got, "resolved_when") || !slices.Contains(got, "fault") {
		t.Errorf("completion in the incident body: %v", got)
	}
}

// TestReferencesAndCodeActions: every use of a fault kind across the
// module and the stdlib; a quick fix for a misspelt name and one for a
// missing required argument.
func TestReferencesAndCodeActions(t *testing.T) {
	c := start(t)
	var init protocol.InitializeResult
	c.call(protocol.MethodInitialize, &protocol.InitializeParams{}, &init)
	dir := t.TempDir()
	u := uri.File(filepath.Join(dir, "a.srez.hcl"))
	c.notify(protocol.MethodTextDocumentDidOpen, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{URI: u, Version: 1, Text: broken}})
	ds := c.wait(u, func(ds []protocol.Diagnostic) bool { return len(ds) > 0 })

	var actions []protocol.CodeAction
	c.call(protocol.MethodTextDocumentCodeAction, &protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}, Context: protocol.CodeActionContext{Diagnostics: ds}}, &actions)
	var fix *protocol.TextEdit
	for _, a := range actions {
		if a.Title == "Change to db_pool_too_small" && a.Edit != nil {
			fix = &a.Edit.Changes[u][0]
		}
	}
	if fix == nil || fix.NewText != `"db_pool_too_small"` || fix.Range.Start != (protocol.Position{Line: 7, Character: 8}) {
		t.Fatalf("no quick fix for the misspelt fault kind: %+v", actions)
	}

	// A second file uses the fault kind too; references find both uses and
	// the stdlib declaration.
	other := filepath.Join(dir, "b.srez.hcl")
	if err := os.WriteFile(other, []byte(strings.Replace(strings.Replace(broken, `"x"`, `"y"`, 1), "db_pool_too_smal", "db_pool_too_small", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	fixed := strings.Replace(broken, "db_pool_too_smal", "db_pool_too_small", 1)
	c.notify(protocol.MethodTextDocumentDidChange, &protocol.DidChangeTextDocumentParams{
		TextDocument:   protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: u}, Version: 2},
		ContentChanges: []protocol.TextDocumentContentChangeEvent{{Text: fixed}},
	})
	var refs []protocol.Location
	c.call(protocol.MethodTextDocumentReferences, &protocol.ReferenceParams{
		TextDocumentPositionParams: protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}, Position: protocol.Position{Line: 7, Character: 12}},
		Context:                    protocol.ReferenceContext{IncludeDeclaration: true}}, &refs)
	files := map[string]bool{}
	for _, r := range refs {
		files[filepath.Base(r.URI.Filename())] = true
	}
	if !files["a.srez.hcl"] || !files["b.srez.hcl"] || !files["faults.srez.hcl"] {
		t.Errorf("references: %+v", refs)
	}
}
