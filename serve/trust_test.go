package serve_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/serve"
)

func taskByID(t testing.TB, id string) *engine.Task {
	for _, tk := range tasks(t) {
		if tk.ID == id {
			return tk
		}
	}
	t.Fatalf("no task %s", id)
	return nil
}

// The audit's reproducer (issue 15, finding 1): read, a wrong write, a
// read that shows it; then step 2 again with the step-1 token and the
// right value. An agent has no token to send, and a token it got anyway
// is refused: the grader's actions keep the wrong write. A trainer may
// rewind, and then the grader's view keeps the abandoned branch.
func TestRewindIsTheTrainersAndTheGraderKeepsEveryBranch(t *testing.T) {
	_, hs := newServer(t, nil)
	tk := taskByID(t, "db_pool")
	agent := client{t: t, base: hs.URL}
	trainer := client{t: t, base: hs.URL, trainer: true}
	grader := client{t: t, base: hs.URL, grader: true}
	read, wrong, check, right := "inspect_config(database, pool_size)", "update_config(database, pool_size, 7)", "check_status(database)", "update_config(database, pool_size, 50)"

	_, created := agent.do("POST", "/v1/episodes", map[string]any{"task": handleOf(t, hs.URL, tk), "seed": 1})
	id := created["episode"].(string)
	_, r1 := agent.do("POST", "/v1/episodes/"+id+"/step", map[string]any{"step": 1, "action": read})
	if _, has := r1["token"]; has {
		t.Fatalf("an agent's reply carries a replay token: %v", r1)
	}
	// The step-1 token, as a trainer of the same episode would see it.
	_, seen := trainer.do("GET", "/v1/episodes/"+id, nil)
	token1 := seen["token"].(string)
	agent.do("POST", "/v1/episodes/"+id+"/step", map[string]any{"step": 2, "action": wrong})
	agent.do("POST", "/v1/episodes/"+id+"/step", map[string]any{"step": 3, "action": check})
	st, rep := agent.do("POST", "/v1/episodes/"+id+"/step", map[string]any{"step": 2, "action": right, "token": token1})
	if st != http.StatusForbidden || !strings.Contains(fmt.Sprint(rep), "trainer capability") {
		t.Errorf("an agent's rewind: %d %v, want 403", st, rep)
	}
	if st, _ := agent.do("GET", "/v1/episodes/"+id+"?token="+token1, nil); st != http.StatusForbidden {
		t.Errorf("an agent's resume: %d, want 403", st)
	}
	_, g := grader.do("GET", "/v1/grader/episodes/"+id, nil)
	if got := fmt.Sprint(g["actions"]); got != fmt.Sprint([]any{read, wrong, check}) {
		t.Fatalf("after the agent's attempt the grader reads %s", got)
	}

	// The trainer's rewind: played, and the wrong branch stays on record.
	st, rep = trainer.do("POST", "/v1/episodes/"+id+"/step", map[string]any{"step": 2, "action": right, "token": token1})
	if st != http.StatusOK {
		t.Fatalf("a trainer's rewind: %d %v", st, rep)
	}
	_, g = grader.do("GET", "/v1/grader/episodes/"+id, nil)
	if got := fmt.Sprint(g["actions"]); got != fmt.Sprint([]any{read, right}) {
		t.Errorf("after the rewind the grader reads actions %s", got)
	}
	if got := fmt.Sprint(g["abandoned_branches"]); got != fmt.Sprint([]any{[]any{read, wrong, check}}) {
		t.Errorf("after the rewind the grader reads abandoned branches %s, want the wrong write's", got)
	}
	// The branch travels in the token: a replica that never saw the
	// episode shows it too.
	_, other := newServer(t, nil)
	_, resumed := (client{t: t, base: other.URL, grader: true, trainer: true}).do("GET", "/v1/episodes/"+id+"?token="+rep["token"].(string), nil)
	if got := fmt.Sprint(resumed["grader"].(map[string]any)["abandoned_branches"]); got != fmt.Sprint([]any{[]any{read, wrong, check}}) {
		t.Errorf("another replica resumed from the token reads abandoned branches %s", got)
	}
}

// An agent cannot fork, close (and so create again), choose an episode
// id, or name a task by its author id or hash; a trainer can. The agent's
// refusal for an author id is the one for a name that exists nowhere.
func TestAgentsOnlyStepForward(t *testing.T) {
	_, hs := newServer(t, nil)
	tk := tasks(t)[0]
	agent := client{t: t, base: hs.URL}
	trainer := client{t: t, base: hs.URL, trainer: true}
	_, created := agent.do("POST", "/v1/episodes", map[string]any{"split": "train", "seed": 3})
	id := created["episode"].(string)
	for _, k := range []struct {
		name, method, path string
		body               any
	}{
		{"fork", "POST", "/v1/episodes/" + id + "/fork", map[string]any{"at": 0}},
		{"close", "DELETE", "/v1/episodes/" + id, nil},
		{"chosen id", "POST", "/v1/episodes", map[string]any{"split": "train", "id": "mine"}},
		{"batch with ids", "POST", "/v1/batch/episodes", map[string]any{"group": map[string]any{"split": "train", "count": 2, "id": "g"}}},
	} {
		st, rep := agent.do(k.method, k.path, k.body)
		if k.name == "batch with ids" {
			st = int(rep["episodes"].([]any)[0].(map[string]any)["status"].(float64))
		}
		if st != http.StatusForbidden {
			t.Errorf("an agent's %s: %d %v, want 403", k.name, st, rep)
		}
		if st, rep := trainer.do(k.method, k.path, k.body); st >= 400 {
			t.Errorf("a trainer's %s: %d %v", k.name, st, rep)
		}
	}
	_, byID := agent.do("POST", "/v1/episodes", map[string]any{"task": tk.ID})
	_, none := agent.do("POST", "/v1/episodes", map[string]any{"task": "no_such_task"})
	if fmt.Sprint(byID["error"].(map[string]any)["status"]) != "400" || strings.Replace(fmt.Sprint(byID), tk.ID, "no_such_task", 1) != fmt.Sprint(none) {
		t.Errorf("an author id: %v; a name that exists nowhere: %v", byID, none)
	}
	for _, name := range []string{tk.ID, tk.Hash} {
		if st, _ := agent.do("GET", "/v1/tasks/"+name+"/tools", nil); st != http.StatusNotFound {
			t.Errorf("an agent's tools by %q: %d, want 404", name, st)
		}
		if st, _ := trainer.do("GET", "/v1/tasks/"+name+"/tools", nil); st != http.StatusOK {
			t.Errorf("a trainer's tools by %q: %d", name, st)
		}
	}
	if st, _ := agent.do("GET", "/v1/tasks/"+handleOf(t, hs.URL, tk)+"/tools", nil); st != http.StatusOK {
		t.Errorf("an agent's tools by handle: %d", st)
	}
	// OpenEnv: no token in observations, no chosen episode_id.
	_, r := agent.do("POST", "/reset", map[string]any{"seed": 1})
	if _, has := r["observation"].(map[string]any)["token"]; has {
		t.Errorf("an OpenEnv observation carries a token for an agent: %v", r)
	}
	if st, _ := agent.do("POST", "/reset", map[string]any{"episode_id": id}); st != http.StatusForbidden {
		t.Errorf("an OpenEnv reset with another's episode_id: %d, want 403", st)
	}
}

// Task handles are keyed: no handle is a prefix of its task's hash, the
// same key gives the same handles (replicas), another key others.
func TestHandlesAreKeyed(t *testing.T) {
	_, a := newServer(t, nil)
	_, b := newServer(t, nil)
	_, other := newServer(t, func(o *serve.Options) { o.TokenKey = []byte("another key, another deployment") })
	for _, tk := range tasks(t)[:5] {
		h := handleOf(t, a.URL, tk)
		if strings.Contains(tk.Hash, strings.TrimPrefix(h, "t-")) || strings.Contains(h, tk.ID) {
			t.Errorf("%s: handle %s shows the task", tk.ID, h)
		}
		if handleOf(t, b.URL, tk) != h {
			t.Errorf("%s: two replicas with one key give different handles", tk.ID)
		}
		if handleOf(t, other.URL, tk) == h {
			t.Errorf("%s: another key gives the same handle", tk.ID)
		}
	}
}

// A /ws session's episodes are its own: another connection's reset with
// its episode_id is refused, and a step naming it over HTTP finds nothing.
// The first session's episode is intact afterwards.
func TestWebSocketEpisodesHaveAnOwner(t *testing.T) {
	_, hs := newServer(t, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	url := "ws" + strings.TrimPrefix(hs.URL, "http") + "/ws"
	dial := func() *websocket.Conn {
		c, _, err := websocket.Dial(ctx, url, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.CloseNow() })
		return c
	}
	send := func(c *websocket.Conn, msg string) map[string]any {
		t.Helper()
		if err := c.Write(ctx, websocket.MessageText, []byte(msg)); err != nil {
			t.Fatal(err)
		}
		_, data, err := c.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var out map[string]any
		json.Unmarshal(data, &out)
		return out
	}
	victim, thief := dial(), dial()
	r := send(victim, `{"type": "reset", "data": {"seed": 2}}`)
	id := r["data"].(map[string]any)["observation"].(map[string]any)["episode_id"].(string)
	send(victim, `{"type": "step", "data": {"action": "check_status(cache)"}}`)
	if r := send(thief, fmt.Sprintf(`{"type": "reset", "data": {"episode_id": %q}}`, id)); r["type"] != "error" {
		t.Errorf("another session's reset with the episode's id: %v", r)
	}
	thief.Close(websocket.StatusNormalClosure, "")
	if st, _ := (client{t: t, base: hs.URL}).do("POST", "/step", map[string]any{"episode_id": id, "action": map[string]any{"action": "check_status(cache)"}}); st != http.StatusNotFound {
		t.Errorf("an HTTP step on a session's episode: %d, want 404", st)
	}
	if s := send(victim, `{"type": "state"}`); s["data"].(map[string]any)["step_count"] != float64(1) {
		t.Errorf("the session's episode after the attempts: %v", s)
	}
}

// Every 429 says when to come back: create, fork, token resume, OpenEnv
// /reset (Retry-After), batch items (retry_after) and JSON-RPC errors
// (data.retry_after, a message, never a Go value).
func TestEveryTooManyRequestsSaysRetryAfter(t *testing.T) {
	_, hs := newServer(t, func(o *serve.Options) { o.Capacity = 1 })
	trainer := client{t: t, base: hs.URL, trainer: true}
	_, first := trainer.do("POST", "/v1/episodes", map[string]any{"split": "train", "id": "full"})
	token := first["token"].(string)
	for _, k := range []struct{ name, method, path, body string }{
		{"create", "POST", "/v1/episodes", `{"split": "train"}`},
		{"fork", "POST", "/v1/episodes/full/fork", `{}`},
		{"token resume", "POST", "/v1/episodes/elsewhere/step", `{"step": 1, "action": "x", "token": "` + token + `"}`},
		{"OpenEnv reset", "POST", "/reset", `{}`},
	} {
		req, _ := http.NewRequest(k.method, hs.URL+k.path, strings.NewReader(k.body))
		req.Header.Set("X-Srezc-Trainer-Token", "trainer")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if k.name == "token resume" {
			// Another id's token is refused before capacity matters; a
			// resume of the episode itself elsewhere is the 429 case.
			continue
		}
		if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" {
			t.Errorf("%s on a full server: %d Retry-After %q %s", k.name, resp.StatusCode, resp.Header.Get("Retry-After"), data)
		}
	}
	// A resume from a token on a full replica.
	_, full2 := newServer(t, func(o *serve.Options) { o.Capacity = 1 })
	(client{t: t, base: full2.URL, trainer: true}).do("POST", "/v1/episodes", map[string]any{"split": "train"})
	req, _ := http.NewRequest("POST", full2.URL+"/v1/episodes/full/step", strings.NewReader(`{"step": 1, "action": "check_status(cache)", "token": "`+token+`"}`))
	req.Header.Set("X-Srezc-Trainer-Token", "trainer")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" {
		t.Errorf("a token resume on a full replica: %d Retry-After %q", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	_, batch := trainer.do("POST", "/v1/batch/episodes", map[string]any{"episodes": []any{map[string]any{"split": "train"}}})
	item := batch["episodes"].([]any)[0].(map[string]any)
	if item["status"] != float64(429) || item["retry_after"] == nil {
		t.Errorf("a batch item on a full server: %v", item)
	}
	_, rpc := trainer.do("POST", "/mcp", `{"jsonrpc":"2.0","method":"openenv/session/create","params":{},"id":1}`)
	e := rpc["error"].(map[string]any)
	if strings.Contains(fmt.Sprint(e["message"]), "&{") || e["data"].(map[string]any)["retry_after"] == nil {
		t.Errorf("a JSON-RPC 429: %v", e)
	}
}

// Smaller promises of finding 7: an action over the cap is a 413 naming
// the cap; a tampered token is refused even while the table's copy is
// current; a rebuild after pool eviction is counted.
func TestActionCapTamperedTokenAndRebuildCount(t *testing.T) {
	_, hs := newServer(t, func(o *serve.Options) { o.Pool = 1; o.MaxAction = 100; o.MaxBody = 1 << 16 })
	trainer := client{t: t, base: hs.URL, trainer: true}
	tk := tasks(t)[0]
	_, a := trainer.do("POST", "/v1/episodes", map[string]any{"task": tk.ID, "id": "a"})
	st, rep := trainer.do("POST", "/v1/episodes/a/step", map[string]any{"step": 1, "action": "resolve_incident(\"" + strings.Repeat("x", 200) + "\")"})
	if st != http.StatusRequestEntityTooLarge || !strings.Contains(fmt.Sprint(rep), "at most 100") {
		t.Errorf("an action over the cap: %d %v", st, rep)
	}
	st, rep = trainer.do("POST", "/v1/episodes/a/step", map[string]any{"step": 1, "tool": map[string]any{"name": "resolve_incident", "arguments": map[string]any{"cause": strings.Repeat("x", 200)}}})
	if st != http.StatusRequestEntityTooLarge {
		t.Errorf("a tool call over the cap: %d %v", st, rep)
	}
	bad := []byte(a["token"].(string))
	bad[len(bad)/2] ^= 1
	if st, _ := trainer.do("POST", "/v1/episodes/a/step", map[string]any{"step": 1, "action": "check_status(cache)", "token": string(bad)}); st != http.StatusBadRequest {
		t.Errorf("a tampered token with the copy current: %d, want 400", st)
	}
	metric := func() string {
		resp, err := http.Get(hs.URL + "/metrics")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		data, _ := io.ReadAll(resp.Body)
		for _, line := range strings.Split(string(data), "\n") {
			if strings.HasPrefix(line, "srezc_episode_rebuilds_total ") {
				return strings.TrimPrefix(line, "srezc_episode_rebuilds_total ")
			}
		}
		return ""
	}
	trainer.do("POST", "/v1/episodes/a/step", map[string]any{"step": 1, "action": "check_status(cache)"})
	trainer.do("POST", "/v1/episodes", map[string]any{"task": tk.ID, "id": "b"})
	trainer.do("POST", "/v1/episodes/b/step", map[string]any{"step": 1, "action": "check_status(cache)"})
	before := metric()
	// a lost its slot to b: its next step replays it.
	trainer.do("POST", "/v1/episodes/a/step", map[string]any{"step": 2, "action": "check_status(cache)"})
	if after := metric(); before != "0" || after != "1" {
		t.Errorf("srezc_episode_rebuilds_total %s, then %s after a pool eviction; want 0, 1", before, after)
	}
}

// A WebSocket session that says nothing for WSIdle is closed and
// counted; the test waits for the close, not for a time.
func TestIdleWebSocketIsReleased(t *testing.T) {
	_, hs := newServer(t, func(o *serve.Options) { o.WSIdle = 50 * time.Millisecond })
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(hs.URL, "http")+"/ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	if _, _, err := c.Read(ctx); websocket.CloseStatus(err) != websocket.StatusPolicyViolation {
		t.Fatalf("an idle session: %v, want a policy-violation close", err)
	}
	for {
		resp, err := http.Get(hs.URL + "/metrics")
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if strings.Contains(string(data), `srezc_websocket_closed_total{reason="idle"} 1`) && strings.Contains(string(data), "srezc_websocket_sessions 0") {
			break
		}
		select {
		case <-ctx.Done():
			t.Fatalf("the idle close is not in the metrics:\n%s", data)
		case <-time.After(10 * time.Millisecond):
		}
	}
}
