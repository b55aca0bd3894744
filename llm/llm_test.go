package llm_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/srezc/srezc/agents"
	"github.com/srezc/srezc/llm"
	"github.com/srezc/srezc/llm/llmtest"
)

// fast is a policy for tests: the reference's shape, in milliseconds, with
// a call timeout no healthy loopback call can reach however loaded the
// machine (a test of timeouts gives its own).
func fast() llm.Policy {
	return llm.Policy{MaxRetries: 5, Timeout: time.Minute, Concurrency: 4,
		BackoffBase: 5 * time.Millisecond, BackoffMax: 20 * time.Millisecond}
}

func provider(t *testing.T, srv *llmtest.Server, p llm.Policy) *llm.Provider {
	t.Helper()
	pr, err := llm.NewProvider(llm.Config{BaseURL: srv.URL, Model: "fake-1", KeyVar: "OPENAI_API_KEY"}, p, srv.Client())
	if err != nil {
		t.Fatal(err)
	}
	return pr
}

// paced is provider on a fake clock, with its events recorded in order.
func paced(t *testing.T, srv *llmtest.Server, p llm.Policy) (*llm.Provider, *[]llm.Event) {
	pr := provider(t, srv, p)
	pr.UseClock(llmtest.NewClock())
	var events []llm.Event
	pr.OnEvent(func(ev llm.Event) { events = append(events, ev) })
	return pr, &events
}

const intro = "ALERT: checkout is slow\nServices: web database cache\nTools:\n  inspect_logs(service)\n  resolve_incident(root_cause, fix)\n"

func request(n int) *llm.Request {
	s := intro
	for range n {
		s += "."
	}
	c := "system prompt"
	return &llm.Request{Model: "fake-1", Messages: []llm.Message{{Role: "system", Content: &c}, {Role: "user", Content: &s}}}
}

// Every fault the server can inject lands in the class README's table
// gives it, and only transient ones are retried. The status class comes
// first: a 429 or 5xx that speaks of tokens, context length or a content
// policy is the provider's trouble, and a 200 whose choice is null or has
// no message is a malformed payload, not an empty answer.
func TestClassification(t *testing.T) {
	cases := []struct {
		fault    llmtest.Fault
		kind     llm.Kind
		failure  agents.Failure
		attempts int
		says     string
	}{
		{llmtest.TooMany, llm.Transient, agents.Infra, 3, "HTTP 429"},
		{llmtest.ServerError, llm.Transient, agents.Infra, 3, "HTTP 500"},
		{llmtest.Timeout, llm.Transient, agents.Infra, 3, "timed out"},
		{llmtest.Drop, llm.Transient, agents.Infra, 3, "provider"},
		{llmtest.BadJSON, llm.Transient, agents.Infra, 3, "not valid JSON"},
		{llmtest.NoChoices, llm.Transient, agents.Infra, 3, "no choices"},
		{llmtest.TokenRate, llm.Transient, agents.Infra, 3, "HTTP 429: Rate limit reached for tokens"},
		{llmtest.BusyContext, llm.Transient, agents.Infra, 3, "HTTP 503"},
		{llmtest.PolicyOutage, llm.Transient, agents.Infra, 3, "HTTP 500"},
		{llmtest.NullChoice, llm.Transient, agents.Infra, 3, "malformed"},
		{llmtest.NoMessage, llm.Transient, agents.Infra, 3, "malformed"},
		{llmtest.Unauthorized, llm.Fatal, agents.Abort, 1, "OPENAI_API_KEY"},
		{llmtest.NotFound, llm.Fatal, agents.Abort, 1, "OPENAI_MODEL"},
		{llmtest.ContextLength, llm.AgentFault, agents.Refused, 1, "context_length_exceeded"},
		{llmtest.ContentFilter, llm.AgentFault, agents.Refused, 1, "content_filter"},
	}
	for _, c := range cases {
		t.Run(string(c.fault), func(t *testing.T) {
			srv := llmtest.New()
			defer srv.Close()
			srv.Faults = func(uint64, int) llmtest.Fault { return c.fault }
			srv.RetryAfter = "0"
			p := fast()
			p.MaxRetries = 2
			if c.fault == llmtest.Timeout {
				// The server holds the call until the client gives up, so
				// this timeout is reached on any machine, and only here.
				p.Timeout = 50 * time.Millisecond
			}
			pr, _ := paced(t, srv, p)
			_, stats, err := pr.Complete(context.Background(), request(0))
			var ce *llm.CallError
			if !errors.As(err, &ce) {
				t.Fatalf("error %v is not a CallError", err)
			}
			if ce.Kind != c.kind {
				t.Errorf("kind %v, want %v (%v)", ce.Kind, c.kind, err)
			}
			if stats.Attempts != c.attempts || len(srv.Calls()) != c.attempts {
				t.Errorf("%d attempts, %d calls; want %d", stats.Attempts, len(srv.Calls()), c.attempts)
			}
			if !strings.Contains(err.Error(), c.says) {
				t.Errorf("error %q does not say %q", err, c.says)
			}
		})
	}
}

// Transient failures are retried until the answer comes, and the answer
// is the one a clean server gives.
func TestRetriesGetPast(t *testing.T) {
	srv := llmtest.New()
	defer srv.Close()
	srv.Faults = func(sum uint64, attempt int) llmtest.Fault {
		if attempt < 3 {
			return llmtest.Quick[(int(sum%7)+attempt)%len(llmtest.Quick)]
		}
		return llmtest.None
	}
	pr, _ := paced(t, srv, fast())
	for n := range 4 {
		resp, stats, err := pr.Complete(context.Background(), request(n))
		if err != nil {
			t.Fatalf("request %d: %v", n, err)
		}
		if stats.Attempts != 4 {
			t.Errorf("request %d: %d attempts, want 4", n, stats.Attempts)
		}
		if got := resp.Choices[0].Message.Text(); got != "inspect_logs(web)" {
			t.Errorf("request %d answered %q", n, got)
		}
	}
}

// On the provider's clock, the limits held: no call starts within
// MinInterval of the previous start or of an end before it, no window of
// RateWindow holds more than RateCalls starts, and concurrency never
// exceeds its bound. The clock is fake, so this is exact and does not
// wait.
func TestRateLimitAndMinimumInterval(t *testing.T) {
	srv := llmtest.New()
	defer srv.Close()
	p := fast()
	p.MinInterval = 20 * time.Second
	p.RateCalls, p.RateWindow = 3, 4*time.Minute
	pr, events := paced(t, srv, p)
	var wg sync.WaitGroup
	for n := range 10 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, _, err := pr.Complete(context.Background(), request(n)); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	var starts []time.Time
	var lastEnd, lastStart time.Time
	inFlight := 0
	for _, ev := range *events {
		switch ev.Kind {
		case llm.EventCall:
			if !lastStart.IsZero() && ev.At.Sub(lastStart) < p.MinInterval {
				t.Errorf("a call started %v after the previous start; minimum %v", ev.At.Sub(lastStart), p.MinInterval)
			}
			if !lastEnd.IsZero() && ev.At.Sub(lastEnd) < p.MinInterval {
				t.Errorf("a call started %v after the last end; minimum %v", ev.At.Sub(lastEnd), p.MinInterval)
			}
			lastStart = ev.At
			starts = append(starts, ev.At)
			if inFlight++; inFlight > p.Concurrency {
				t.Errorf("%d calls in flight; bound %d", inFlight, p.Concurrency)
			}
		case llm.EventAnswer:
			lastEnd = ev.At
			inFlight--
		}
	}
	if len(starts) != 10 || len(srv.Calls()) != 10 {
		t.Fatalf("%d calls started, %d arrived; want 10", len(starts), len(srv.Calls()))
	}
	for i := range starts {
		in := 0
		for j := i; j < len(starts) && starts[j].Sub(starts[i]) < p.RateWindow; j++ {
			in++
		}
		if in > p.RateCalls {
			t.Errorf("%d calls within %v of call %d; limit %d", in, p.RateWindow, i, p.RateCalls)
		}
	}
}

// gapAfterFailure is, on the provider's clock, the time from the first
// failed answer to the next call's start.
func gapAfterFailure(t *testing.T, events []llm.Event, failures int) time.Duration {
	t.Helper()
	var failedAt time.Time
	seen := 0
	for _, ev := range events {
		switch {
		case ev.Kind == llm.EventAnswer && ev.Err != nil:
			if seen++; seen == failures {
				failedAt = ev.At
			}
		case ev.Kind == llm.EventCall && !failedAt.IsZero():
			return ev.At.Sub(failedAt)
		}
	}
	t.Fatalf("no call after failure %d in %+v", failures, events)
	return 0
}

// After PauseAfter consecutive failures every call waits Pause; a 429's
// Retry-After holds back the next call however short the backoff, up to
// MaxRetryAfter, and a Retry-After of a day or of 1e300 seconds (which
// overflows a Duration) waits exactly that maximum.
func TestPauseAndRetryAfter(t *testing.T) {
	t.Run("pause", func(t *testing.T) {
		srv := llmtest.New()
		defer srv.Close()
		srv.Faults = func(_ uint64, attempt int) llmtest.Fault {
			if attempt < 2 {
				return llmtest.ServerError
			}
			return llmtest.None
		}
		p := fast()
		p.PauseAfter, p.Pause = 2, 90*time.Second
		pr, events := paced(t, srv, p)
		if _, _, err := pr.Complete(context.Background(), request(0)); err != nil {
			t.Fatal(err)
		}
		if gap := gapAfterFailure(t, *events, 2); gap < p.Pause {
			t.Errorf("the third call came %v after the second failure; pause %v", gap, p.Pause)
		}
	})
	for _, c := range []struct {
		header string
		want   time.Duration
	}{{"0.2", 200 * time.Millisecond}, {"120", 2 * time.Minute}, {"86400", llm.MaxRetryAfter}, {"1e300", llm.MaxRetryAfter}, {"+Inf", llm.MaxRetryAfter}, {"-5", 0}} {
		t.Run("retry-after="+c.header, func(t *testing.T) {
			srv := llmtest.New()
			defer srv.Close()
			srv.RetryAfter = c.header
			srv.Faults = func(_ uint64, attempt int) llmtest.Fault {
				if attempt == 0 {
					return llmtest.TooMany
				}
				return llmtest.None
			}
			p := fast()
			p.BackoffBase, p.BackoffMax = 0, 0
			pr, events := paced(t, srv, p)
			if _, _, err := pr.Complete(context.Background(), request(0)); err != nil {
				t.Fatal(err)
			}
			if gap := gapAfterFailure(t, *events, 1); gap < c.want || gap > c.want+time.Millisecond {
				t.Errorf("retried %v after a 429 with Retry-After %s; want %v", gap, c.header, c.want)
			}
		})
	}
}

// A pause ends as soon as the caller gives up: a sweep's Ctrl-C or
// SIGTERM is not held by a provider's Retry-After. (On the real clock: a
// pause that ignored ctx would hold this test for MaxRetryAfter.)
func TestPauseIsInterruptible(t *testing.T) {
	srv := llmtest.New()
	defer srv.Close()
	srv.RetryAfter = "86400"
	srv.Faults = func(uint64, int) llmtest.Fault { return llmtest.TooMany }
	pr := provider(t, srv, fast())
	paused := make(chan struct{})
	var once sync.Once
	pr.OnEvent(func(ev llm.Event) {
		if ev.Kind == llm.EventPause && ev.Delay == llm.MaxRetryAfter {
			once.Do(func() { close(paused) })
		}
	})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, _, err := pr.Complete(ctx, request(0))
		done <- err
	}()
	<-paused
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("an interrupted pause returned %v", err)
	}
	if n := len(srv.Calls()); n != 1 {
		t.Errorf("%d calls; the pause should have held back the retry", n)
	}
}

// A refused connection to an endpoint that never answered aborts at once,
// naming the fix; once the endpoint has answered, a refused connection is
// a restart, and retried.
func TestUnreachableEndpoint(t *testing.T) {
	srv := llmtest.New()
	url := srv.URL
	srv.Close()
	pr, err := llm.NewProvider(llm.Config{BaseURL: url + "/v1", Model: "fake-1"}, fast(), nil)
	if err != nil {
		t.Fatal(err)
	}
	pr.UseClock(llmtest.NewClock())
	_, stats, err := pr.Complete(context.Background(), request(0))
	var ce *llm.CallError
	if !errors.As(err, &ce) || ce.Kind != llm.Fatal || stats.Attempts != 1 {
		t.Fatalf("a refused connection: %v after %d attempts, want a fatal error at once", err, stats.Attempts)
	}
	for _, want := range []string{"connection refused", "nothing answers at " + url + "/v1", "--base-url or OPENAI_BASE_URL"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q does not say %q", err, want)
		}
	}

	live := llmtest.New()
	pr2 := provider(t, live, fast())
	pr2.UseClock(llmtest.NewClock())
	if _, _, err := pr2.Complete(context.Background(), request(0)); err != nil {
		t.Fatal(err)
	}
	live.Close()
	_, _, err = pr2.Complete(context.Background(), request(1))
	if !errors.As(err, &ce) || ce.Kind != llm.Transient {
		t.Errorf("refused after answering: %v, want transient", err)
	}
}

// The pacing follows the endpoint: no pacing on loopback, private
// networks and plain-http servers; a named provider's limits on its host;
// a generic hosted policy elsewhere.
func TestPresetFor(t *testing.T) {
	for url, want := range map[string]string{
		"http://127.0.0.1:8000/v1": "local", "http://localhost:11434/v1": "local", "https://10.0.3.7/v1": "local",
		"https://[::1]:8080/v1": "local", "http://vllm:8000/v1": "local", "https://gpu.lab.internal/v1": "local",
		"http://llm.example.com/v1": "local", "https://api.openai.com/v1": "openai", "api.openai.com/v1": "openai",
		"https://api.groq.com/openai/v1": "groq", "https://openrouter.ai/api/v1": "openrouter",
		"https://api.together.xyz/v1": "hosted", "https://8.8.8.8/v1": "hosted",
	} {
		if got := llm.PresetFor(url).Name; got != want {
			t.Errorf("PresetFor(%s) = %s, want %s", url, got, want)
		}
	}
	local, _ := llm.PresetNamed("local")
	if p := local.Policy; p.MinInterval != 0 || p.RateCalls != 0 || p.PauseAfter != 0 || p.Check() != nil {
		t.Errorf("the local preset paces: %+v", p)
	}
	for _, p := range llm.Presets() {
		if err := p.Policy.Check(); err != nil {
			t.Errorf("preset %s: %v", p.Name, err)
		}
	}
	if _, err := llm.PresetNamed("nope"); err == nil || !strings.Contains(err.Error(), "local, hosted, openai") {
		t.Errorf("an unknown preset: %v", err)
	}
}

func TestExtractAction(t *testing.T) {
	tools := []string{"inspect_logs", "update_config", "resolve_incident"}
	cases := []struct {
		reply string
		react bool
		want  string
	}{
		{"inspect_logs(web)", false, "inspect_logs(web)"},
		{"  `inspect_logs(web)`.  ", false, "inspect_logs(web)"},
		{"```\ninspect_logs(web)\n```", false, "inspect_logs(web)"},
		{"functions.inspect_logs(web)", false, "inspect_logs(web)"},
		{"<think>maybe update_config(a, b, 1)</think>inspect_logs(db)", false, "inspect_logs(db)"},
		{"Thought: the pool is small, so update_config(db, x, 1) would help.\nAction: inspect_logs(db)", true, "inspect_logs(db)"},
		{"Thought: look\n**Action:** update_config(db, pool, 150)", true, "update_config(db, pool, 150)"},
		{`resolve_incident("db: pool (too small)", "raised it")`, false, `resolve_incident("db: pool (too small)", "raised it")`},
		{"I would look at the logs first.", false, "I would look at the logs first."},
		{"Inspect_Logs(web)", false, "Inspect_Logs(web)"},
		{"drop_tables(web)", false, "drop_tables(web)"},
	}
	for _, c := range cases {
		if got := llm.ExtractAction(c.reply, tools, c.react); got != c.want {
			t.Errorf("ExtractAction(%q) = %q, want %q", c.reply, got, c.want)
		}
	}
}

var specs = []agents.ToolSpec{
	{Name: "inspect_logs", Description: "Show logs.", Args: []agents.ArgSpec{{Name: "service", Type: "service"}}},
	{Name: "resolve_incident", Description: "Resolve.", Args: []agents.ArgSpec{{Name: "root_cause", Type: "text"}, {Name: "fix", Type: "text"}}},
}

// Each style turns the fake model's answers into the same text actions;
// a garbage tool call and prose become actions the runtime rejects.
func TestAgentStyles(t *testing.T) {
	srv := llmtest.New()
	defer srv.Close()
	for _, style := range llm.Styles {
		a, err := llm.New(style, provider(t, srv, fast()), specs)
		if err != nil {
			t.Fatal(err)
		}
		a.Begin(intro)
		var got []string
		obs := ""
		for range 4 {
			turn, err := a.Turn(context.Background(), obs)
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, turn.Action)
			obs = "ok"
		}
		want := `inspect_logs(web) inspect_logs(database) inspect_logs(cache) resolve_incident("web: unknown", unknown)`
		if style == llm.Tools {
			want = `inspect_logs("web") inspect_logs("database") inspect_logs("cache") resolve_incident("web: unknown", "unknown")`
		}
		if s := strings.Join(got, " "); s != want {
			t.Errorf("%s played %s\nwant %s", style, s, want)
		}
		if u := a.Usage(); u.Calls != 4 || u.PromptTokens == 0 || u.CompletionTokens == 0 {
			t.Errorf("%s usage %+v", style, u)
		}
	}
	srv.Answers = func(uint64) llmtest.Fault { return llmtest.GarbageCall }
	a, _ := llm.New(llm.Tools, provider(t, srv, fast()), specs)
	a.Begin(intro)
	turn, err := a.Turn(context.Background(), "")
	if err != nil || !strings.HasPrefix(turn.Action, `inspect_logs("unreadable arguments`) {
		t.Errorf("garbage tool call played as %q (%v)", turn.Action, err)
	}
}

// A refused or failed turn says what it means for the episode.
func TestTurnFailures(t *testing.T) {
	for fault, want := range map[llmtest.Fault]agents.Failure{llmtest.Unauthorized: agents.Abort, llmtest.ContextLength: agents.Refused, llmtest.ServerError: agents.Infra} {
		srv := llmtest.New()
		srv.Faults = func(uint64, int) llmtest.Fault { return fault }
		a, _ := llm.New(llm.Prompting, provider(t, srv, fast()), nil)
		a.Begin(intro)
		_, err := a.Turn(context.Background(), "")
		if got := agents.FailureOf(err); got != want {
			t.Errorf("%s: failure %v, want %v (%v)", fault, got, want, err)
		}
		srv.Close()
	}
}

func TestConfigCheck(t *testing.T) {
	env := map[string]string{"OPENAI_BASE_URL": "https://api.openai.com/v1", "OPENAI_MODEL": "gpt-x"}
	c := llm.FromEnv(func(k string) string { return env[k] })
	if err := c.Check(); err == nil || !strings.Contains(err.Error(), "OPENAI_API_KEY") {
		t.Errorf("a key-less OpenAI config: %v", err)
	}
	if err := (llm.Config{Model: "m"}).Check(); err == nil || !strings.Contains(err.Error(), "OPENAI_BASE_URL") {
		t.Errorf("no base URL: %v", err)
	}
}

// TestRootCauseSchemaHasBothForms: root_cause takes text or a list of
// {service, what, explanation} with the episode's services as an enum.
func TestRootCauseSchemaHasBothForms(t *testing.T) {
	specs := []agents.ToolSpec{{Name: "resolve_incident", Args: []agents.ArgSpec{{Name: "root_cause", Type: "text"}, {Name: "fix", Type: "text"}}}}
	tools := llm.Schemas(specs, []string{"database", "cache"})
	rc := tools[0].Function.Parameters.Properties["root_cause"]
	if len(rc.AnyOf) != 2 || rc.AnyOf[0].Type != "string" || rc.AnyOf[1].Type != "array" || rc.AnyOf[1].Items == nil {
		t.Fatalf("root_cause schema: %+v", rc)
	}
	item := rc.AnyOf[1].Items
	if got := item.Properties["service"].Enum; len(got) != 2 || got[0] != "database" {
		t.Errorf("service enum %v", got)
	}
	if len(item.Required) != 2 || item.Required[0] != "service" || item.Required[1] != "what" {
		t.Errorf("required %v", item.Required)
	}
}
