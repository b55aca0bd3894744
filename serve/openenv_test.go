package serve_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/srezc/srezc/serve"
)

// `openenv validate --url` passes: the checks of its _validation.py
// (reference protocol §5).
func TestOpenEnvConformance(t *testing.T) {
	_, hs := newServer(t, nil)
	c := client{t: t, base: hs.URL}
	st, api := c.do("GET", "/openapi.json", nil)
	info, _ := api["info"].(map[string]any)
	paths, _ := api["paths"].(map[string]any)
	if st != 200 || info["version"] != "1.0.0" || paths == nil {
		t.Fatalf("/openapi.json: %d %v", st, api)
	}
	for _, p := range []string{"/reset", "/step", "/state"} {
		if paths[p] == nil {
			t.Errorf("/openapi.json lacks %s (simulation mode lists all three)", p)
		}
	}
	if st, h := c.do("GET", "/health", nil); st != 200 || h["status"] != "healthy" {
		t.Errorf("/health: %d %v", st, h)
	}
	if st, m := c.do("GET", "/metadata", nil); st != 200 || m["name"] != "srezc" || m["description"] == nil {
		t.Errorf("/metadata: %d %v", st, m)
	}
	st, sc := c.do("GET", "/schema", nil)
	for _, k := range []string{"action", "observation", "state"} {
		if _, ok := sc[k].(map[string]any); st != 200 || !ok {
			t.Errorf("/schema lacks the object %s", k)
		}
	}
	st, rpc := c.do("POST", "/mcp", "{}")
	if st != 200 || rpc["jsonrpc"] != "2.0" || rpc["error"].(map[string]any)["code"].(float64) != -32600 {
		t.Errorf("POST /mcp {}: %d %v", st, rpc)
	}
}

// The HTTP face: reset gives an episode id, steps take it back, reward is
// null without the grader token and a number with it; OpenEnv's MCP
// actions list and call tools.
func TestOpenEnvHTTP(t *testing.T) {
	_, hs := newServer(t, nil)
	tk := tasks(t)[0]
	handle := handleOf(t, hs.URL, tk)
	for _, grader := range []bool{false, true} {
		c := client{t: t, base: hs.URL, grader: grader}
		st, r := c.do("POST", "/reset", map[string]any{"seed": 1, "task": handle})
		if st != 200 || r["done"] != false {
			t.Fatalf("/reset: %d %v", st, r)
		}
		obs := r["observation"].(map[string]any)
		id := obs["episode_id"].(string)
		want := trace(tk, 1, tk.Expert)
		if obs["text"] != want.Steps[0].Intro {
			t.Fatalf("/reset's text is not the intro")
		}
		for k, a := range tk.Expert {
			st, r := c.do("POST", "/step", map[string]any{"action": map[string]any{"action": a}, "episode_id": id})
			if st != 200 || r["observation"].(map[string]any)["text"] != want.Steps[k].Observation {
				t.Fatalf("/step %d: %d %v", k+1, st, r)
			}
			if grader && r["reward"].(float64) != want.Steps[k].Reward || !grader && r["reward"] != nil {
				t.Fatalf("/step %d with grader=%v: reward %v", k+1, grader, r["reward"])
			}
			if _, hasMeta := r["observation"].(map[string]any)["metadata"]; hasMeta {
				t.Fatal("metadata is never sent")
			}
		}
		st, s := c.do("GET", "/state?episode_id="+id, nil)
		if st != 200 || s["step_count"].(float64) != float64(len(tk.Expert)) {
			t.Errorf("/state: %d %v", st, s)
		}
	}
	c := client{t: t, base: hs.URL}
	_, r := c.do("POST", "/reset", nil)
	id := r["observation"].(map[string]any)["episode_id"].(string)
	_, l := c.do("POST", "/step", map[string]any{"action": map[string]any{"type": "list_tools"}, "episode_id": id})
	tools := l["observation"].(map[string]any)["tools"].([]any)
	if len(tools) == 0 || tools[0].(map[string]any)["input_schema"] == nil {
		t.Fatalf("list_tools: %v", l)
	}
	_, call := c.do("POST", "/step", map[string]any{"action": map[string]any{"type": "call_tool", "tool_name": "check_status", "arguments": map[string]any{"service": "cache"}}, "episode_id": id})
	res := call["observation"].(map[string]any)["result"].(map[string]any)
	if res["is_error"] != false || !strings.Contains(res["data"].(string), "cache") {
		t.Errorf("call_tool: %v", call)
	}
	for _, bad := range []struct {
		body string
		loc  string
	}{{`{"episode_id": "` + id + `"}`, "action"}, {`{"action": {"action": "x"}}`, "episode_id"}, {`{"action": `, "body"}} {
		st, e := c.do("POST", "/step", bad.body)
		if st != 422 || !strings.Contains(fmt.Sprint(e["detail"]), bad.loc) {
			t.Errorf("/step %s: %d %v, want 422 at %s", bad.body, st, e, bad.loc)
		}
	}
	if st, e := c.do("POST", "/reset", `{"seed": -1}`); st != 422 || !strings.Contains(fmt.Sprint(e), "greater_than_equal") {
		t.Errorf("/reset seed -1: %d %v", st, e)
	}
}

// JSON-RPC on POST /mcp (transcript T4).
func TestOpenEnvJSONRPC(t *testing.T) {
	_, hs := newServer(t, nil)
	c := client{t: t, base: hs.URL}
	_, created := c.do("POST", "/mcp", `{"jsonrpc":"2.0","method":"openenv/session/create","params":{},"id":1}`)
	sid := created["result"].(map[string]any)["session_id"].(string)
	_, call := c.do("POST", "/mcp", fmt.Sprintf(`{"jsonrpc":"2.0","method":"tools/call","params":{"name":"check_status","arguments":{"service":"cache"},"session_id":%q},"id":2}`, sid))
	if call["id"].(float64) != 2 || call["result"].(map[string]any)["is_error"] != false {
		t.Errorf("tools/call: %v", call)
	}
	_, list := c.do("POST", "/mcp", fmt.Sprintf(`{"jsonrpc":"2.0","method":"tools/list","params":{"session_id":%q},"id":"x"}`, sid))
	if list["id"] != "x" || list["result"].(map[string]any)["tools"].([]any)[0].(map[string]any)["inputSchema"] == nil {
		t.Errorf("tools/list: %v", list)
	}
	for body, code := range map[string]float64{
		`{"jsonrpc":"2.0","method":"initialize","params":{},"id":3}`:                               -32601,
		`{"jsonrpc":"2.0","method":"tools/call","params":{},"id":4}`:                               -32602,
		`{"jsonrpc":"2.0","method":"tools/call","params":{"name":"x","session_id":"nope"},"id":5}`: -32602,
		`{"jsonrpc":"2.0","method":"openenv/session/close","params":{},"id":6}`:                    -32602,
		`{"jsonrpc":"2.0","method":"tools/list","id":7,"extra":1}`:                                 -32600,
		`[1,2]`:       -32600,
		`{"jsonrpc":`: -32700,
	} {
		st, r := c.do("POST", "/mcp", body)
		if st != 200 || r["error"] == nil || r["error"].(map[string]any)["code"].(float64) != code {
			t.Errorf("%s: %d %v, want error %v", body, st, r, code)
		}
	}
	closeSession := fmt.Sprintf(`{"jsonrpc":"2.0","method":"openenv/session/close","params":{"session_id":%q},"id":8}`, sid)
	if _, refused := c.do("POST", "/mcp", closeSession); refused["error"] == nil || !strings.Contains(fmt.Sprint(refused["error"]), "trainer capability") {
		t.Errorf("an agent's session/close: %v, want the trainer's refusal", refused)
	}
	trainer := client{t: t, base: hs.URL, trainer: true}
	if _, closed := trainer.do("POST", "/mcp", closeSession); closed["result"].(map[string]any)["closed"] != true {
		t.Errorf("session/close: %v", closed)
	}
}

// The /ws session (transcript T2): reset, steps in lockstep, state, the
// error codes, close; and the capacity refusal.
func TestOpenEnvWebSocket(t *testing.T) {
	_, hs := newServer(t, func(o *serve.Options) { o.Capacity = 1 })
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	url := "ws" + strings.TrimPrefix(hs.URL, "http") + "/ws"
	conn, _, err := websocket.Dial(ctx, url, &websocket.DialOptions{HTTPHeader: http.Header{"X-Srezc-Grader-Token": {"grader"}}})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.CloseNow()
	send := func(msg string) map[string]any {
		t.Helper()
		if err := conn.Write(ctx, websocket.MessageText, []byte(msg)); err != nil {
			t.Fatal(err)
		}
		_, data, err := conn.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var out map[string]any
		if err := json.Unmarshal(data, &out); err != nil {
			t.Fatalf("%s: %v", data, err)
		}
		return out
	}
	tk := tasks(t)[0]
	r := send(fmt.Sprintf(`{"type": "reset", "data": {"seed": 7, "task": %q}}`, handleOf(t, hs.URL, tk)))
	if r["type"] != "observation" {
		t.Fatalf("reset: %v", r)
	}
	want := trace(tk, 7, tk.Expert)
	for k, a := range tk.Expert {
		js, _ := json.Marshal(map[string]any{"type": "step", "data": map[string]any{"action": a}})
		r := send(string(js))
		d := r["data"].(map[string]any)
		if d["observation"].(map[string]any)["text"] != want.Steps[k].Observation || d["reward"].(float64) != want.Steps[k].Reward {
			t.Fatalf("ws step %d: %v", k+1, r)
		}
	}
	if s := send(`{"type": "state"}`); s["data"].(map[string]any)["step_count"].(float64) != float64(len(tk.Expert)) {
		t.Errorf("state: %v", s)
	}
	for msg, code := range map[string]string{`{"type": `: "INVALID_JSON", `{"type": "dance"}`: "UNKNOWN_TYPE", `{"type": "step"}`: "VALIDATION_ERROR", `{"type": "step", "data": {}, "x": 1}`: "VALIDATION_ERROR"} {
		if r := send(msg); r["type"] != "error" || r["data"].(map[string]any)["code"] != code {
			t.Errorf("%s: %v, want %s", msg, r, code)
		}
	}
	// A second session while the first is live: capacity reached.
	other, _, err := websocket.Dial(ctx, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, data, err := other.Read(ctx)
	if err != nil || !strings.Contains(string(data), "CAPACITY_REACHED") {
		t.Errorf("a second session: %s %v", data, err)
	}
	other.CloseNow()
	conn.Write(ctx, websocket.MessageText, []byte(`{"type": "close"}`))
	if _, _, err := conn.Read(ctx); websocket.CloseStatus(err) != websocket.StatusNormalClosure {
		t.Errorf("close: %v", err)
	}
}

// A /ws session outlives the server's per-request deadlines.
func TestWebSocketOutlivesRequestDeadlines(t *testing.T) {
	s, _ := newServer(t, nil)
	hs := httptest.NewUnstartedServer(s.Handler())
	hs.Config.ReadTimeout, hs.Config.WriteTimeout = 150*time.Millisecond, 150*time.Millisecond
	hs.Start()
	defer hs.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(hs.URL, "http")+"/ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.CloseNow()
	time.Sleep(400 * time.Millisecond)
	if err := conn.Write(ctx, websocket.MessageText, []byte(`{"type": "reset", "data": {"seed": 1}}`)); err != nil {
		t.Fatal(err)
	}
	if _, data, err := conn.Read(ctx); err != nil || !strings.Contains(string(data), `"observation"`) {
		t.Fatalf("after the deadlines: %s %v", data, err)
	}
}
