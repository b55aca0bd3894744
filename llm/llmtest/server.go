// Package llmtest is a fake OpenAI-compatible Chat Completions server on
// loopback, for tests. Its model is deterministic given the request, so
// two sweeps against it compare; on top of that it injects the failures
// providers have (429 with Retry-After, 500s, timeouts, dropped
// connections, malformed JSON, no choices, null choices, bad keys,
// missing models, a full context, a content filter, overload errors that
// mention tokens or a content policy) and the unusable answers models give
// (prose instead of a call, a garbage tool call). A request carrying
// llm.JudgeSystemPrompt is answered as a judge (JudgeAnswer). Tests
// synchronise with it on events (WaitCalls, Hold), never on time, and pace
// a Provider by a fake Clock.
package llmtest

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"

	"github.com/srezc/srezc/agents"
	"github.com/srezc/srezc/llm"
)

// Fault is a failure the server injects into one answer.
type Fault string

// The faults.
const (
	None          Fault = ""
	TooMany       Fault = "429"
	ServerError   Fault = "500"
	Timeout       Fault = "timeout"
	Drop          Fault = "drop"
	BadJSON       Fault = "bad_json"
	NoChoices     Fault = "no_choices"
	Unauthorized  Fault = "401"
	NotFound      Fault = "404"
	ContextLength Fault = "context_length"
	ContentFilter Fault = "content_filter"
	// TokenRate is a 429 whose message mentions tokens and the length of
	// the messages; BusyContext a 503 that mentions a context length;
	// PolicyOutage a 500 that mentions the content policy. Each is the
	// provider's trouble (retried), whatever its words.
	TokenRate    Fault = "429_tokens"
	BusyContext  Fault = "503_context"
	PolicyOutage Fault = "500_content_policy"
	// NullChoice answers 200 with "choices": [null]; NoMessage with a
	// choice that has no message: malformed payloads, retried.
	NullChoice Fault = "null_choice"
	NoMessage  Fault = "no_message"
	// Prose and GarbageCall are answers, not failures: what a model says
	// when it does not follow the format.
	Prose       Fault = "prose"
	GarbageCall Fault = "garbage_call"
)

// Transient lists the faults a retry can get past.
var Transient = []Fault{TooMany, ServerError, Timeout, Drop, BadJSON, NoChoices, TokenRate, BusyContext, PolicyOutage, NullChoice, NoMessage}

// Quick lists the transient faults answered at once: all but Timeout,
// which holds the request until the client gives up, so a test that
// injects it must give calls a short timeout, and a short timeout is
// one a loaded machine can hit on a healthy call too.
var Quick = []Fault{TooMany, ServerError, Drop, BadJSON, NoChoices, TokenRate, BusyContext, PolicyOutage, NullChoice, NoMessage}

// Call is one request as the server saw it.
type Call struct {
	Arrived, Answered time.Time
	Body              []byte
	Sum               uint64 // FNV-1a of the request body
	Attempt           int    // how many times this body came before
	Fault             Fault
}

// Server is the fake provider.
type Server struct {
	*httptest.Server
	// Faults picks the failure for a request from its body's hash and how
	// many times the same body came before; nil injects none.
	Faults func(sum uint64, attempt int) Fault
	// Answers picks an unusable answer (Prose, GarbageCall) from the
	// body's hash alone, as a model would give the same answer again; nil
	// means every answer is usable.
	Answers func(sum uint64) Fault
	// RetryAfter is the Retry-After header of a 429 ("0.05" by default).
	RetryAfter string
	// Hang is the longest a Timeout answer takes (a minute by default);
	// it ends sooner when the client gives up, as it must.
	Hang time.Duration
	// Delay is how long every answer takes, like a model thinking.
	Delay time.Duration

	mu   sync.Mutex
	seen map[uint64]int
	log  []Call
	// arrived is closed and replaced whenever a request arrives.
	arrived chan struct{}
	// holdAfter > 0 holds every request after the first holdAfter until
	// released or the client leaves.
	holdAfter int
	released  chan struct{}
}

// New starts a server; Close stops it.
func New() *Server {
	s := &Server{seen: map[uint64]int{}, RetryAfter: "0.05", Hang: time.Minute, arrived: make(chan struct{})}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// WaitCalls waits until n requests have arrived (or done is closed, or
// the request log cannot grow: never, for a live server) and reports
// whether they did.
func (s *Server) WaitCalls(n int, done <-chan struct{}) bool {
	for {
		s.mu.Lock()
		got, arrived := len(s.log), s.arrived
		s.mu.Unlock()
		if got >= n {
			return true
		}
		select {
		case <-arrived:
		case <-done:
			return false
		}
	}
}

// Hold makes every request after the first n (counted from the server's
// start) wait, unanswered, until release is called or its client goes
// away: a provider that stops answering at a known point, for tests that
// interrupt a sweep in mid-call.
func (s *Server) Hold(n int) (release func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.holdAfter = n
	ch := make(chan struct{})
	s.released = ch
	var once sync.Once
	return func() { once.Do(func() { close(ch) }) }
}

// Calls returns the requests seen so far, in arrival order.
func (s *Server) Calls() []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Call(nil), s.log...)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	arrived := time.Now()
	body, _ := io.ReadAll(r.Body)
	h := fnv.New64a()
	h.Write(body)
	sum := h.Sum64()
	s.mu.Lock()
	attempt := s.seen[sum]
	s.seen[sum]++
	fault := None
	if s.Faults != nil {
		fault = s.Faults(sum, attempt)
	}
	i := len(s.log)
	s.log = append(s.log, Call{Arrived: arrived, Body: body, Sum: sum, Attempt: attempt, Fault: fault})
	close(s.arrived)
	s.arrived = make(chan struct{})
	var hold chan struct{}
	if s.holdAfter > 0 && len(s.log) > s.holdAfter {
		hold = s.released
	}
	s.mu.Unlock()
	if hold != nil {
		select {
		case <-hold:
		case <-r.Context().Done():
			return
		}
	}
	defer func() {
		s.mu.Lock()
		s.log[i].Answered = time.Now()
		s.mu.Unlock()
	}()

	if s.Delay > 0 {
		time.Sleep(s.Delay)
	}
	if !strings.HasSuffix(r.URL.Path, "/chat/completions") || r.Method != http.MethodPost {
		fault = NotFound
	}
	errorBody := func(status int, code, msg string) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		fmt.Fprintf(w, `{"error":{"message":%q,"type":"invalid_request_error","code":%q}}`, msg, code)
	}
	switch fault {
	case TooMany:
		w.Header().Set("Retry-After", s.RetryAfter)
		errorBody(http.StatusTooManyRequests, "rate_limit_exceeded", "Rate limit reached")
		return
	case ServerError:
		errorBody(http.StatusInternalServerError, "server_error", "The server had an error")
		return
	case Timeout:
		select {
		case <-time.After(s.Hang):
		case <-r.Context().Done():
		}
		return
	case Drop:
		if hj, ok := w.(http.Hijacker); ok {
			if conn, _, err := hj.Hijack(); err == nil {
				conn.Close()
				return
			}
		}
		panic(http.ErrAbortHandler)
	case BadJSON:
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"choices": [{"message": {"role": "assistant", "content": "inspect_lo`)
		return
	case NoChoices:
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"x","choices":[]}`)
		return
	case NullChoice:
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"x","choices":[null]}`)
		return
	case NoMessage:
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"x","choices":[{"index":0,"finish_reason":"stop"}]}`)
		return
	case TokenRate:
		w.Header().Set("Retry-After", s.RetryAfter)
		errorBody(http.StatusTooManyRequests, "rate_limit_exceeded", "Rate limit reached for tokens per min (TPM): Limit 30000, Requested 31000. Please reduce the length of the messages or completion.")
		return
	case BusyContext:
		errorBody(http.StatusServiceUnavailable, "overloaded", "The server is overloaded: the batch exceeds the maximum context length; too many tokens in flight")
		return
	case PolicyOutage:
		errorBody(http.StatusInternalServerError, "server_error", "The content_policy service is unavailable")
		return
	case Unauthorized:
		errorBody(http.StatusUnauthorized, "invalid_api_key", "Incorrect API key provided")
		return
	case NotFound:
		errorBody(http.StatusNotFound, "model_not_found", "The model does not exist")
		return
	case ContextLength:
		errorBody(http.StatusBadRequest, "context_length_exceeded", "This model's maximum context length is 8192 tokens")
		return
	case ContentFilter:
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"choices":[{"message":{"role":"assistant","content":null},"finish_reason":"content_filter"}]}`)
		return
	}
	var req llm.Request
	if err := json.Unmarshal(body, &req); err != nil {
		errorBody(http.StatusBadRequest, "invalid_request", "bad JSON: "+err.Error())
		return
	}
	answer := None
	if s.Answers != nil {
		answer = s.Answers(sum)
	}
	var msg llm.Message
	if len(req.Messages) > 0 && req.Messages[0].Text() == llm.JudgeSystemPrompt {
		msg = JudgeAnswer(&req, answer)
	} else {
		msg = Answer(&req, answer)
	}
	resp := map[string]any{
		"id":      fmt.Sprintf("cmpl-%016x", sum),
		"object":  "chat.completion",
		"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": "stop"}},
		"usage":   map[string]int{"prompt_tokens": len(body) / 4, "completion_tokens": len(msg.Text())/4 + 5},
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(resp)
}

// Answer is the fake model: it reads the logs of each service the intro
// lists, in order, then resolves naming the first one. The answer takes
// the form the request asks for: a tool call when it offers tools, a
// Thought and an Action when the system prompt asks for them, a bare call
// otherwise. bad makes it Prose or a GarbageCall instead.
func Answer(req *llm.Request, bad Fault) llm.Message {
	intro, system := "", ""
	steps := 0
	for _, m := range req.Messages {
		switch m.Role {
		case "system":
			system = m.Text()
		case "user":
			if intro == "" {
				intro = m.Text()
			}
		case "assistant":
			steps++
		}
	}
	services := agents.ParseIntro(intro).Services
	name, args := "resolve_incident", []string{"unknown", "unknown"}
	if steps < len(services) {
		name, args = "inspect_logs", []string{services[steps]}
	} else if len(services) > 0 {
		args[0] = services[0] + ": unknown"
	}
	if len(req.Tools) > 0 {
		arguments := map[string]string{}
		if name == "inspect_logs" {
			arguments["service"] = args[0]
		} else {
			arguments["root_cause"], arguments["fix"] = args[0], args[1]
		}
		js, _ := json.Marshal(arguments)
		call := llm.ToolCall{ID: fmt.Sprintf("call_%d", steps), Type: "function", Function: llm.FunctionCall{Name: name, Arguments: string(js)}}
		switch bad {
		case GarbageCall:
			call.Function = llm.FunctionCall{Name: "inspect_logs", Arguments: `{"service": [unterminated`}
		case Prose:
			content := "Let me think about what to look at next."
			return llm.Message{Role: "assistant", Content: &content}
		}
		return llm.Message{Role: "assistant", ToolCalls: []llm.ToolCall{call}}
	}
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = a
		if strings.ContainsAny(a, ",:() ") {
			quoted[i] = fmt.Sprintf("%q", a)
		}
	}
	action := name + "(" + strings.Join(quoted, ", ") + ")"
	switch bad {
	case Prose:
		action = "I would look at the logs first, then decide."
	case GarbageCall:
		action = name + "(" + strings.Join(quoted, " ")
	}
	content := action
	if strings.Contains(system, "Thought:") {
		content = "Thought: one service at a time.\nAction: " + action
	}
	return llm.Message{Role: "assistant", Content: &content}
}
