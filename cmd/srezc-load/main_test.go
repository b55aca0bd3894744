package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/srezc/srezc/compiler"
	"github.com/srezc/srezc/lang"
	"github.com/srezc/srezc/record"
	"github.com/srezc/srezc/serve"
)

// seen is one request as the server received it.
type seen struct {
	method, path string
	trainer      bool
	body         map[string]any
	status       int
}

// server is srezc serve with the trust model on (a trainer token exists),
// recording every request and its status.
func server(t *testing.T, capacity int) (*httptest.Server, func() []seen) {
	t.Helper()
	m, diags := lang.Analyze(lang.ScenarioFiles())
	tasks, more := compiler.CompileModule(m)
	if diags = append(diags, more...); diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	s, err := serve.New(serve.Options{Tasks: tasks, Versions: record.Versions{Srezc: "test"}, TrainerToken: "trainer", Capacity: capacity})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var log []seen
	h := s.Handler()
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		data, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(data))
		var body map[string]any
		_ = json.Unmarshal(data, &body)
		rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
		h.ServeHTTP(rec, r)
		mu.Lock()
		log = append(log, seen{r.Method, r.URL.Path, r.Header.Get("X-Srezc-Trainer-Token") != "", body, rec.status})
		mu.Unlock()
	}))
	t.Cleanup(hs.Close)
	return hs, func() []seen {
		mu.Lock()
		defer mu.Unlock()
		return append([]seen(nil), log...)
	}
}

type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (r *statusRecorder) WriteHeader(code int) {
	r.status = code
	r.ResponseWriter.WriteHeader(code)
}

// Without the trainer token the generator plays as an agent does under the
// trust model: it never chooses an id, sends a token or closes an episode,
// steps the episodes the server named, and plays each to its end.
func TestAgentPlaysWithoutTrainerCapabilities(t *testing.T) {
	hs, requests := server(t, 0)
	cfg := loadConfig{url: hs.URL, conns: 2, perConn: 2}
	res, err := play(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res.errors != 0 || res.full != 0 || res.episodes != 4 || res.steps == 0 {
		t.Fatalf("agent run: %+v, want 4 episodes played to the end without an error", res)
	}
	creates := 0
	for _, q := range requests() {
		if q.status >= 400 {
			t.Errorf("%s %s answered %d", q.method, q.path, q.status)
		}
		if q.trainer || q.method == http.MethodDelete || q.body["id"] != nil || q.body["token"] != nil {
			t.Errorf("an agent's request used a trainer capability: %+v", q)
		}
		if q.method == http.MethodPost && q.path == "/v1/episodes" {
			creates++
		}
		if strings.HasSuffix(q.path, "/step") && !strings.HasPrefix(q.path, "/v1/episodes/ep-") {
			t.Errorf("a step on an episode the server did not name: %s", q.path)
		}
	}
	if creates != 4 {
		t.Errorf("%d creates, want 4", creates)
	}
	var out strings.Builder
	res.print(&out, cfg)
	if !strings.Contains(out.String(), "connections 2 (agent), 2 episodes each: 4 episodes") {
		t.Errorf("report:\n%s", out.String())
	}
}

// With the token it plays as a trainer: its own ids, each episode closed.
func TestTrainerChoosesIDsAndCloses(t *testing.T) {
	hs, requests := server(t, 0)
	res, err := play(loadConfig{url: hs.URL, conns: 2, perConn: 2, trainer: "trainer", token: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.errors != 0 || res.episodes != 4 {
		t.Fatalf("trainer run: %+v", res)
	}
	closes := 0
	for _, q := range requests() {
		if q.status >= 400 {
			t.Errorf("%s %s answered %d", q.method, q.path, q.status)
		}
		if !q.trainer && q.path != "/v1/tasks" {
			t.Errorf("a trainer's request without the token: %+v", q)
		}
		if q.method == http.MethodPost && q.path == "/v1/episodes" && !strings.HasPrefix(q.body["id"].(string), "load-") {
			t.Errorf("a trainer's create without its id: %+v", q)
		}
		if q.method == http.MethodDelete {
			closes++
		}
	}
	if closes != 4 {
		t.Errorf("%d closes, want 4", closes)
	}
}

// An agent's episodes hold their leases, so a server too small for the run
// stops it with a 429, and the report says why and what to do.
func TestAgentRunStopsAtAFullServer(t *testing.T) {
	hs, _ := server(t, 1)
	cfg := loadConfig{url: hs.URL, conns: 1, perConn: 3}
	res, err := play(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res.episodes != 1 || res.full != 1 {
		t.Fatalf("run on a server of capacity 1: %+v, want 1 episode then a full server", res)
	}
	var out strings.Builder
	res.print(&out, cfg)
	for _, want := range []string{"the server was full: 1 of 1 connections stopped at a 429", "larger --capacity or a shorter --ttl"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, out.String())
		}
	}
}

// -token is a trainer's flag: refused without the trainer token.
func TestTokenNeedsTheTrainer(t *testing.T) {
	err := loadConfig{conns: 1, token: true}.check()
	if err == nil || !strings.Contains(err.Error(), "SREZC_TRAINER_TOKEN") {
		t.Fatalf("check: %v", err)
	}
}

// fill keeps agent episodes live under server-drawn ids.
func TestFillAsAgent(t *testing.T) {
	hs, requests := server(t, 0)
	n, failed, err := fill(loadConfig{url: hs.URL, conns: 1}, 5)
	if err != nil || n != 5 || failed != 0 {
		t.Fatalf("fill: %d created, %d failed, %v", n, failed, err)
	}
	for _, q := range requests() {
		if q.status >= 400 || q.body["id"] != nil {
			t.Errorf("fill as an agent: %+v", q)
		}
	}
}
