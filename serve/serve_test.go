package serve_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/srezc/srezc/agents"
	"github.com/srezc/srezc/compiler"
	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/eval"
	"github.com/srezc/srezc/lang"
	"github.com/srezc/srezc/record"
	"github.com/srezc/srezc/serve"
)

var (
	suiteOnce sync.Once
	suite     []*engine.Task
)

func tasks(t testing.TB) []*engine.Task {
	suiteOnce.Do(func() {
		m, diags := lang.Analyze(lang.ScenarioFiles())
		ts, more := compiler.CompileModule(m)
		if diags = append(diags, more...); diags.HasErrors() {
			panic(diags.Error())
		}
		suite = ts
	})
	return suite
}

func newServer(t testing.TB, mod func(*serve.Options)) (*serve.Server, *httptest.Server) {
	opt := serve.Options{Tasks: tasks(t), Versions: record.Versions{Srezc: "test"}, GraderToken: "grader", TrainerToken: "trainer", TokenKey: []byte("0123456789abcdef0123456789abcdef")}
	if mod != nil {
		mod(&opt)
	}
	s, err := serve.New(opt)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(s.Handler())
	t.Cleanup(hs.Close)
	return s, hs
}

// client is a test's HTTP client: an agent, unless it presents the
// grader's or the trainer's token.
type client struct {
	t               testing.TB
	base            string
	grader, trainer bool
}

func (c client) do(method, path string, body any) (int, map[string]any) {
	c.t.Helper()
	var rd io.Reader
	if body != nil {
		if s, ok := body.(string); ok {
			rd = strings.NewReader(s)
		} else {
			js, _ := json.Marshal(body)
			rd = bytes.NewReader(js)
		}
	}
	req, _ := http.NewRequest(method, c.base+path, rd)
	if c.grader {
		req.Header.Set("X-Srezc-Grader-Token", "grader")
	}
	if c.trainer {
		req.Header.Set("X-Srezc-Trainer-Token", "trainer")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	data, _ := io.ReadAll(resp.Body)
	if err := json.Unmarshal(data, &out); err != nil {
		c.t.Fatalf("%s %s: %d %q is not JSON", method, path, resp.StatusCode, data)
	}
	return resp.StatusCode, out
}

// trace is an episode played by eval with the replay agent: the reference
// every server reply must match.
func trace(t *engine.Task, seed uint64, actions []string) eval.Episode {
	return eval.Play(t, agents.NewReplay(strings.Join(actions, "\n")), 0, seed, true)
}

// actionsOf plays a seeded random agent and keeps its actions: valid,
// invalid and malformed ones alike.
func actionsOf(t *engine.Task, seed uint64) []string {
	ep := eval.Play(t, agents.NewRandom(seed), 0, seed, true)
	var out []string
	for _, s := range ep.Steps {
		out = append(out, s.Action)
	}
	return out
}

// Over the whole suite, the same create and steps over HTTP give the same
// observations, byte for byte, and the same rewards as srezc run --agent
// replay with the same actions: the expert's plan and a random agent's.
func TestRepliesMatchReplay(t *testing.T) {
	_, hs := newServer(t, nil)
	c := client{t: t, base: hs.URL, grader: true, trainer: true}
	for _, tk := range tasks(t) {
		for i, actions := range [][]string{tk.Expert, actionsOf(tk, 3)} {
			seed := uint64(1 + i)
			want := trace(tk, seed, actions)
			id := fmt.Sprintf("%s-%d", tk.ID, i)
			st, rep := c.do("POST", "/v1/episodes", map[string]any{"task": tk.ID, "seed": seed, "id": id})
			if st != http.StatusCreated {
				t.Fatalf("%s: create: %d %v", tk.ID, st, rep)
			}
			if rep["intro"] != want.Steps[0].Intro {
				t.Fatalf("%s: the intro differs from the replay agent's", tk.ID)
			}
			for k, s := range want.Steps {
				st, rep := c.do("POST", "/v1/episodes/"+id+"/step", map[string]any{"step": k + 1, "action": actions[k]})
				if st != http.StatusOK {
					t.Fatalf("%s step %d: %d %v", tk.ID, k+1, st, rep)
				}
				if rep["observation"] != s.Observation {
					t.Fatalf("%s step %d: observation\n%q\nwant\n%q", tk.ID, k+1, rep["observation"], s.Observation)
				}
				g := rep["grader"].(map[string]any)
				if g["reward"].(float64) != s.Reward {
					t.Fatalf("%s step %d: reward %v, want %v", tk.ID, k+1, g["reward"], s.Reward)
				}
				if rep["done"] != s.Done {
					t.Fatalf("%s step %d: done %v, want %v", tk.ID, k+1, rep["done"], s.Done)
				}
			}
			_, g := c.do("GET", "/v1/grader/episodes/"+id, nil)
			rec, _ := json.Marshal(g["record"])
			var wantMap map[string]any
			js, _ := json.Marshal(want.Record)
			json.Unmarshal(js, &wantMap)
			wantRec, _ := json.Marshal(wantMap)
			if want.Record.Terminal != "" && string(rec) != string(wantRec) {
				t.Fatalf("%s: record\n%s\nwant\n%s", tk.ID, rec, wantRec)
			}
		}
	}
}

// What an agent-side reply carries: no reward, no components, no task id,
// no replay token.
func TestAgentViewHidesTheGrader(t *testing.T) {
	_, hs := newServer(t, nil)
	c := client{t: t, base: hs.URL}
	tk := tasks(t)[0]
	st, rep := c.do("POST", "/v1/episodes", map[string]any{"task": handleOf(t, hs.URL, tk), "seed": 1})
	if st != http.StatusCreated {
		t.Fatalf("an agent's create by handle: %d %v", st, rep)
	}
	id := rep["episode"].(string)
	_, rep = c.do("POST", "/v1/episodes/"+id+"/step", map[string]any{"step": 1, "action": tk.Expert[0]})
	js, _ := json.Marshal(rep)
	for _, bad := range []string{"grader", "reward", "components", tk.ID, `"difficulty"`, `"split"`, `"token"`} {
		if strings.Contains(string(js), bad) {
			t.Errorf("an agent-side reply holds %q: %s", bad, js)
		}
	}
	_, cat := c.do("GET", "/v1/tasks", nil)
	js, _ = json.Marshal(cat)
	if strings.Contains(string(js), tk.ID) || strings.Contains(string(js), "difficulty") {
		t.Errorf("the public catalogue shows grader fields")
	}
	if st, _ := c.do("GET", "/v1/grader/episodes/"+id, nil); st != http.StatusForbidden {
		t.Errorf("the grader view without its token: %d, want 403", st)
	}
	_, hs2 := newServer(t, func(o *serve.Options) { o.GraderToken = "" })
	if st, _ := (client{t: t, base: hs2.URL, grader: true}).do("GET", "/v1/grader/tasks", nil); st != http.StatusNotFound {
		t.Errorf("the grader view of a server without one: %d, want 404", st)
	}
}

// handleOf is a task's handle, as the grader's catalogue pairs it with
// the task's id.
func handleOf(t testing.TB, base string, tk *engine.Task) string {
	t.Helper()
	_, cat := (client{t: t, base: base, grader: true}).do("GET", "/v1/grader/tasks", nil)
	for _, x := range cat["tasks"].([]any) {
		if m := x.(map[string]any); m["id"] == tk.ID {
			return m["handle"].(string)
		}
	}
	t.Fatalf("no handle for %s", tk.ID)
	return ""
}

// Two replicas sharing a key, with steps alternating between them and
// each step carrying the last token, give the replies one server gives.
// A third replica with another key refuses the tokens.
func TestTokensAcrossReplicas(t *testing.T) {
	_, a := newServer(t, nil)
	_, b := newServer(t, nil)
	_, other := newServer(t, func(o *serve.Options) { o.TokenKey = []byte("another key, another deployment") })
	_, single := newServer(t, nil)
	tk := tasks(t)[3]
	actions := actionsOf(tk, 5)
	replicas := []client{{t: t, base: a.URL, grader: true, trainer: true}, {t: t, base: b.URL, grader: true, trainer: true}}
	one := client{t: t, base: single.URL, grader: true, trainer: true}
	_, r1 := replicas[0].do("POST", "/v1/episodes", map[string]any{"task": tk.ID, "seed": 9, "id": "rr"})
	one.do("POST", "/v1/episodes", map[string]any{"task": tk.ID, "seed": 9, "id": "rr"})
	token := r1["token"].(string)
	for k, act := range actions {
		c := replicas[(k+1)%2]
		st, rep := c.do("POST", "/v1/episodes/rr/step", map[string]any{"step": k + 1, "action": act, "token": token})
		if st != http.StatusOK {
			t.Fatalf("step %d on replica %d: %d %v", k+1, (k+1)%2, st, rep)
		}
		_, want := one.do("POST", "/v1/episodes/rr/step", map[string]any{"step": k + 1, "action": act})
		for _, f := range []string{"observation", "done", "token"} {
			if fmt.Sprint(rep[f]) != fmt.Sprint(want[f]) {
				t.Fatalf("step %d: %s differs across replicas", k+1, f)
			}
		}
		if fmt.Sprint(rep["grader"].(map[string]any)["reward"]) != fmt.Sprint(want["grader"].(map[string]any)["reward"]) {
			t.Fatalf("step %d: reward differs across replicas", k+1)
		}
		token = rep["token"].(string)
		if k == 1 {
			st, rep := (client{t: t, base: other.URL, trainer: true}).do("POST", "/v1/episodes/rr/step", map[string]any{"step": k + 2, "action": act, "token": token})
			if st != http.StatusBadRequest || !strings.Contains(fmt.Sprint(rep), "not one this server's key sealed") {
				t.Fatalf("a replica with another key took the token: %d %v", st, rep)
			}
		}
	}
	// A token is not readable: the task id and seed do not appear in it.
	if strings.Contains(token, tk.ID) {
		t.Error("the token shows the task id")
	}
	// Tampering is refused.
	bad := []byte(token)
	bad[len(bad)/2] ^= 1
	if st, _ := replicas[0].do("POST", "/v1/episodes/zz/step", map[string]any{"step": 1, "action": "x", "token": string(bad)}); st != http.StatusBadRequest {
		t.Errorf("a damaged token: %d, want 400", st)
	}
	// Another episode's token is refused.
	if st, _ := replicas[0].do("POST", "/v1/episodes/zz/step", map[string]any{"step": len(actions) + 1, "action": "x", "token": token}); st != http.StatusBadRequest {
		t.Errorf("another episode's token: %d, want 400", st)
	}
}

// Every bad request gets its documented status, and the episode it aimed
// at is intact afterwards.
func TestFaults(t *testing.T) {
	_, hs := newServer(t, func(o *serve.Options) { o.MaxBody = 4096 })
	c := client{t: t, base: hs.URL, grader: true, trainer: true}
	tk := tasks(t)[0]
	c.do("POST", "/v1/episodes", map[string]any{"task": tk.ID, "seed": 1, "id": "f"})
	cases := []struct {
		name, method, path string
		body               any
		status             int
	}{
		{"malformed JSON", "POST", "/v1/episodes/f/step", `{"step": 1, "action": `, 400},
		{"unknown field", "POST", "/v1/episodes/f/step", `{"step": 1, "action": "x", "cheat": true}`, 400},
		{"two values", "POST", "/v1/episodes/f/step", `{"step": 1, "action": "x"} {}`, 400},
		{"oversized", "POST", "/v1/episodes/f/step", `{"step": 1, "action": "` + strings.Repeat("a", 8000) + `"}`, 413},
		{"no action", "POST", "/v1/episodes/f/step", `{"step": 1}`, 400},
		{"step 0", "POST", "/v1/episodes/f/step", `{"step": 0, "action": "x"}`, 400},
		{"unknown episode", "POST", "/v1/episodes/nope/step", `{"step": 1, "action": "x"}`, 404},
		{"skipped step", "POST", "/v1/episodes/f/step", `{"step": 3, "action": "x"}`, 409},
		{"unknown task", "POST", "/v1/episodes", `{"task": "nope"}`, 400},
		{"bad id", "POST", "/v1/episodes", `{"task": "` + tk.ID + `", "id": "a b"}`, 400},
		{"same id, other seed", "POST", "/v1/episodes", `{"task": "` + tk.ID + `", "id": "f", "seed": 2}`, 409},
		{"unknown route", "GET", "/v2/everything", nil, 404},
		{"wrong method", "GET", "/v1/episodes/f/step", nil, 405},
		{"close unknown", "DELETE", "/v1/episodes/nope", nil, 404},
		{"fork past the end", "POST", "/v1/episodes/f/fork", `{"at": 5}`, 400},
	}
	for _, k := range cases {
		req, _ := http.NewRequest(k.method, hs.URL+k.path, bodyOf(k.body))
		req.Header.Set("X-Srezc-Trainer-Token", "trainer")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("%s: %v", k.name, err)
		}
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != k.status {
			t.Errorf("%s: %d %s, want %d", k.name, resp.StatusCode, data, k.status)
		}
		if resp.StatusCode != 405 && !bytes.Contains(data, []byte(`"message"`)) {
			t.Errorf("%s: no message in %s", k.name, data)
		}
	}
	// Repeats: the same step again gives the same reply; with another
	// action it is refused; an old step is refused.
	_, first := c.do("POST", "/v1/episodes/f/step", map[string]any{"step": 1, "action": tk.Expert[0]})
	st, again := c.do("POST", "/v1/episodes/f/step", map[string]any{"step": 1, "action": tk.Expert[0]})
	if st != 200 || fmt.Sprint(first) != fmt.Sprint(again) {
		t.Errorf("a retried step: %d, differs: %v", st, st != 200)
	}
	if st, _ := c.do("POST", "/v1/episodes/f/step", map[string]any{"step": 1, "action": "check_status(cache)"}); st != 409 {
		t.Errorf("step 1 again with another action: %d, want 409", st)
	}
	// Abrupt disconnects: half a request, then the connection closes.
	for _, raw := range []string{"POST /v1/episodes/f/step HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"step\":", "GARBAGE\r\n\r\n", "POST /v1/episodes HTTP/1.1\r\n"} {
		conn, err := net.Dial("tcp", strings.TrimPrefix(hs.URL, "http://"))
		if err != nil {
			t.Fatal(err)
		}
		conn.Write([]byte(raw))
		conn.Close()
	}
	// Concurrent steps on one episode: the same step index from many
	// clients is played once; every client gets that step's reply or a
	// conflict.
	var wg sync.WaitGroup
	replies := make([]map[string]any, 16)
	codes := make([]int, 16)
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			act := tk.Expert[1]
			if i%2 == 1 {
				act = "check_status(cache)"
			}
			codes[i], replies[i] = c.do("POST", "/v1/episodes/f/step", map[string]any{"step": 2, "action": act})
		}()
	}
	wg.Wait()
	var won string
	for i := range 16 {
		switch codes[i] {
		case 200:
			obs := replies[i]["observation"].(string)
			if won != "" && obs != won {
				t.Errorf("two different step-2 replies were given")
			}
			won = obs
		case 409:
		default:
			t.Errorf("concurrent step: %d %v", codes[i], replies[i])
		}
	}
	// The episode is intact: its grader view is a fold of two actions and
	// equals a replay of them.
	_, g := c.do("GET", "/v1/grader/episodes/f", nil)
	acts := g["actions"].([]any)
	if len(acts) != 2 {
		t.Fatalf("after the faults the episode holds %d actions, want 2", len(acts))
	}
	want := trace(tk, 1, []string{acts[0].(string), acts[1].(string)})
	_, obs := c.do("GET", "/v1/episodes/f", nil)
	if obs["observation"] != want.Steps[1].Observation {
		t.Errorf("after the faults the last observation is not the replay's")
	}
}

func bodyOf(b any) io.Reader {
	switch b := b.(type) {
	case nil:
		return nil
	case string:
		return strings.NewReader(b)
	}
	js, _ := json.Marshal(b)
	return bytes.NewReader(js)
}

// Leases: a full server answers 429 with Retry-After; an idle episode
// expires after the TTL; closing frees a place.
func TestLeases(t *testing.T) {
	now := time.Unix(1000, 0)
	var mu sync.Mutex
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	s, hs := newServer(t, func(o *serve.Options) { o.Capacity = 2; o.TTL = time.Minute; o.Now = clock })
	c := client{t: t, base: hs.URL, trainer: true}
	tk := tasks(t)[0]
	for _, id := range []string{"a", "b"} {
		if st, _ := c.do("POST", "/v1/episodes", map[string]any{"task": tk.ID, "id": id}); st != 201 {
			t.Fatalf("create %s: %d", id, st)
		}
	}
	req, _ := http.NewRequest("POST", hs.URL+"/v1/episodes", strings.NewReader(`{"task":"`+tk.ID+`","id":"c"}`))
	req.Header.Set("X-Srezc-Trainer-Token", "trainer")
	resp, _ := http.DefaultClient.Do(req)
	resp.Body.Close()
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") != "60" {
		t.Errorf("a full server: %d, Retry-After %q; want 429, 60", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	c.do("DELETE", "/v1/episodes/a", nil)
	if st, _ := c.do("POST", "/v1/episodes", map[string]any{"task": tk.ID, "id": "c"}); st != 201 {
		t.Errorf("after a close: %d, want 201", st)
	}
	mu.Lock()
	now = now.Add(2 * time.Minute)
	mu.Unlock()
	s.Expire()
	if st, _ := c.do("GET", "/v1/episodes/b", nil); st != 404 {
		t.Errorf("an expired episode: %d, want 404", st)
	}
}

// Episodes evicted from the materialised pool are rebuilt from their
// actions and play on exactly as if they had stayed.
func TestPoolEviction(t *testing.T) {
	_, small := newServer(t, func(o *serve.Options) { o.Pool = 1 })
	c := client{t: t, base: small.URL, grader: true, trainer: true}
	ts := tasks(t)[:4]
	plans := make([][]string, len(ts))
	for i, tk := range ts {
		plans[i] = actionsOf(tk, uint64(i+1))
		c.do("POST", "/v1/episodes", map[string]any{"task": tk.ID, "seed": i + 1, "id": fmt.Sprint("p", i)})
	}
	for k := 0; ; k++ {
		played := false
		for i, tk := range ts {
			if k >= len(plans[i]) {
				continue
			}
			played = true
			_, rep := c.do("POST", fmt.Sprintf("/v1/episodes/p%d/step", i), map[string]any{"step": k + 1, "action": plans[i][k]})
			want := trace(tk, uint64(i+1), plans[i])
			if rep["observation"] != want.Steps[k].Observation {
				t.Fatalf("%s step %d: after eviction the observation differs", tk.ID, k+1)
			}
		}
		if !played {
			break
		}
	}
}

// A group of G episodes of one task and seed, stepped in a batch, gives G
// identical replies; forking goes back to an earlier step.
func TestBatchAndFork(t *testing.T) {
	_, hs := newServer(t, nil)
	c := client{t: t, base: hs.URL, trainer: true}
	tk := tasks(t)[2]
	st, out := c.do("POST", "/v1/batch/episodes", map[string]any{"group": map[string]any{"task": tk.ID, "seed": 4, "count": 8, "id": "g"}})
	if st != 200 || len(out["episodes"].([]any)) != 8 {
		t.Fatalf("group create: %d %v", st, out)
	}
	var steps []map[string]any
	for i := range 8 {
		steps = append(steps, map[string]any{"episode": fmt.Sprint("g-", i), "step": 1, "action": tk.Expert[0]})
	}
	_, res := c.do("POST", "/v1/batch/steps", map[string]any{"steps": steps})
	var first string
	for i, r := range res["results"].([]any) {
		item := r.(map[string]any)
		obs := item["reply"].(map[string]any)["observation"].(string)
		if i == 0 {
			first = obs
		} else if obs != first {
			t.Fatalf("group member %d saw another observation", i)
		}
	}
	c.do("POST", "/v1/episodes/g-0/step", map[string]any{"step": 2, "action": tk.Expert[1]})
	st, f := c.do("POST", "/v1/episodes/g-0/fork", map[string]any{"at": 1, "id": "g-0b"})
	if st != 201 || f["step"].(float64) != 1 || f["observation"] != first {
		t.Fatalf("fork at step 1: %d %v", st, f["step"])
	}
	want := trace(tk, 4, []string{tk.Expert[0], "check_status(cache)"})
	_, rep := c.do("POST", "/v1/episodes/g-0b/step", map[string]any{"step": 2, "action": "check_status(cache)"})
	if rep["observation"] != want.Steps[1].Observation {
		t.Errorf("a forked episode plays on like a replay of its actions")
	}
}

// The hand-written encoding of a reply is valid JSON that reads back to
// what encoding/json would have written.
func TestReplyEncoding(t *testing.T) {
	_, hs := newServer(t, nil)
	c := client{t: t, base: hs.URL, trainer: true}
	tk := tasks(t)[1]
	c.do("POST", "/v1/episodes", map[string]any{"task": tk.ID, "id": "enc"})
	for k, a := range append([]string{"not an action", `inspect_logs("a \"quoted\" \u00e9 <b>&amp; name")`}, tk.Expert...) {
		resp, err := http.Post(hs.URL+"/v1/episodes/enc/step", "application/json", strings.NewReader(fmt.Sprintf(`{"step":%d,"action":%q}`, k+1, a)))
		if err != nil {
			t.Fatal(err)
		}
		fast, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		var rep serve.Reply
		if err := json.Unmarshal(fast, &rep); err != nil {
			t.Fatalf("step %d: %v", k+1, err)
		}
		slow, _ := json.Marshal(&rep)
		var a, b any
		json.Unmarshal(fast, &a)
		json.Unmarshal(slow, &b)
		if !json.Valid(fast) || fmt.Sprint(a) != fmt.Sprint(b) {
			t.Fatalf("step %d:\n%s\nencoding/json:\n%s", k+1, fast, slow)
		}
		if rep.Done {
			break
		}
	}
}
