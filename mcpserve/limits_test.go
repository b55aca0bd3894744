package mcpserve_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/mcpserve"
)

// metricsOf reads the server's metrics text.
func metricsOf(t *testing.T, srv *mcpserve.Server) string {
	t.Helper()
	rec := httptest.NewRecorder()
	srv.MetricsHandler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	return rec.Body.String()
}

// waitMetric waits until the metrics hold line, woken by each change of
// the server's session metrics (an event, not a clock); a line that never
// comes leaves the test to go test's -timeout, which names it.
func waitMetric(t *testing.T, srv *mcpserve.Server, line string) {
	t.Helper()
	for {
		changed := srv.MetricsChange()
		if strings.Contains(metricsOf(t, srv), line+"\n") {
			return
		}
		<-changed
	}
}

// Beyond MaxSessions a new HTTP session is refused with 503 and
// Retry-After, counted, and a closed session makes room (issue 15,
// finding 6). The idle window is far longer than the test, so how fast
// the machine runs cannot reap a session under it.
func TestHTTPSessionsAreCapped(t *testing.T) {
	tk := task(t, "db_pool")
	srv, _ := newServer(t, mcpserve.Options{Tasks: []*engine.Task{tk}, Seed: 2, SessionIdle: time.Hour, MaxSessions: 2})
	hs := httptest.NewServer(srv.Handler())
	defer hs.Close()
	open := func() *mcp.ClientSession {
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "walker", Version: "1"}, nil).Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: hs.URL, DisableStandaloneSSE: true}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return cs
	}
	a := open()
	b := open()
	defer b.Close()
	resp, err := http.Post(hs.URL, "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"third","version":"1"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" {
		t.Errorf("a session over the cap: %d Retry-After %q %s", resp.StatusCode, resp.Header.Get("Retry-After"), body)
	}
	waitMetric(t, srv, "srezc_mcp_sessions_refused_total 1")
	// Room again once one closes.
	a.Close()
	waitMetric(t, srv, `srezc_mcp_sessions_ended_total{reason="client"} 1`)
	c := open()
	c.Close()
	waitMetric(t, srv, `srezc_mcp_sessions_ended_total{reason="client"} 2`)
}

// An HTTP session a client walks away from is reaped after SessionIdle
// and its episode recorded (issue 15, finding 6: 3,000 abandoned sessions
// were held forever). On a machine slow enough that the session idles out
// between connecting and its first call, the client connects again: the
// test waits on events (a call answered, a metric, a record), never on
// the clock.
func TestHTTPSessionsAreReaped(t *testing.T) {
	tk := task(t, "db_pool")
	srv, path := newServer(t, mcpserve.Options{Tasks: []*engine.Task{tk}, Seed: 2, SessionIdle: 200 * time.Millisecond, MaxSessions: 2})
	hs := httptest.NewServer(srv.Handler())
	defer hs.Close()
	ctx := context.Background()
	reaped := 0
	for {
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "walker", Version: "1"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: hs.URL, DisableStandaloneSSE: true}, nil)
		if err != nil {
			t.Fatal(err)
		}
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "check_status", Arguments: map[string]any{"service": "database"}})
		if err == nil && !res.IsError {
			break // a step played; the client now walks away without closing
		}
		reaped++
		waitMetric(t, srv, fmt.Sprintf(`srezc_mcp_sessions_ended_total{reason="idle"} %d`, reaped))
	}
	waitMetric(t, srv, fmt.Sprintf(`srezc_mcp_sessions_ended_total{reason="idle"} %d`, reaped+1))
	waitMetric(t, srv, "srezc_mcp_sessions 0")
	if recs := readRecords(t, path); len(recs) != 1 || recs[0].Agent != "mcp:walker" {
		t.Errorf("records after the reaping: %+v", recs)
	}
}

// A client's name with control or bidi characters reaches neither the
// log nor the record raw.
func TestClientNamesAreCleaned(t *testing.T) {
	var log bytes.Buffer
	tk := task(t, "db_pool")
	srv, path := newServer(t, mcpserve.Options{Tasks: []*engine.Task{tk}, Seed: 1, Log: &log})
	cs := connect(t, srv, "evil\x1b[2J\u202eexe.txt\nforged line")
	callText(t, cs, "check_status", map[string]any{"service": "database"}, false)
	cs.Close()
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	recs := readRecords(t, path)
	for _, got := range []string{log.String(), recs[0].Agent} {
		if strings.ContainsAny(got, "\x1b\u202e") || strings.Contains(got, "\nforged") {
			t.Errorf("a client's raw name came through: %q", got)
		}
	}
	if recs[0].Agent != "mcp:evil?[2J?exe.txt?forged line" {
		t.Errorf("recorded agent %q", recs[0].Agent)
	}
	for _, bad := range []string{"mcp:a\u202eb", "mcp:tab\there", "mcp:" + strings.Repeat("x", 70)} {
		if mcpserve.NameProblem(bad) == "" {
			t.Errorf("--as %q is taken", bad)
		}
	}
	if p := mcpserve.NameProblem("mcp:claude-code é"); p != "" {
		t.Errorf("a plain name is refused: %s", p)
	}
}
