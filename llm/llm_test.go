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

// fast is a policy for tests: the reference's shape, in milliseconds.
func fast() llm.Policy {
	return llm.Policy{MaxRetries: 5, Timeout: 300 * time.Millisecond, Concurrency: 4,
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
// gives it, and only transient ones are retried.
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
		{llmtest.Unauthorized, llm.Fatal, agents.Abort, 1, "OPENAI_API_KEY"},
		{llmtest.NotFound, llm.Fatal, agents.Abort, 1, "OPENAI_MODEL"},
		{llmtest.ContextLength, llm.AgentFault, agents.Refused, 1, "context_length_exceeded"},
		{llmtest.ContentFilter, llm.AgentFault, agents.Refused, 1, "content_filter"},
	}
	for _, c := range cases {
		t.Run(string(c.fault), func(t *testing.T) {
			srv := llmtest.New()
			defer srv.Close()
			srv.Hang = time.Second
			srv.Faults = func(uint64, int) llmtest.Fault { return c.fault }
			p := fast()
			p.MaxRetries = 2
			p.Timeout = 100 * time.Millisecond
			pr := provider(t, srv, p)
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
	srv.Hang = time.Second
	srv.Faults = func(sum uint64, attempt int) llmtest.Fault {
		if attempt < 3 {
			return llmtest.Transient[(int(sum%7)+attempt)%len(llmtest.Transient)]
		}
		return llmtest.None
	}
	p := fast()
	p.Timeout = 100 * time.Millisecond
	pr := provider(t, srv, p)
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

// The server's clock shows the limits held: no call starts within
// MinInterval of the previous one's end, no window of RateWindow holds
// more than RateCalls starts, and concurrency never exceeds its bound.
func TestRateLimitAndMinimumInterval(t *testing.T) {
	srv := llmtest.New()
	defer srv.Close()
	p := fast()
	p.MinInterval = 20 * time.Millisecond
	p.RateCalls, p.RateWindow = 3, 240*time.Millisecond
	pr := provider(t, srv, p)
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
	calls := srv.Calls()
	if len(calls) != 10 {
		t.Fatalf("%d calls, want 10", len(calls))
	}
	// A call arrives after the client started it, and the client saw the
	// previous answer after the server sent it, so the minimum interval
	// holds between server timestamps as it is; the pacing of starts can
	// look up to one request's transit shorter from the server (a loaded
	// machine delays a request by milliseconds).
	const transit = 25 * time.Millisecond
	for i := 1; i < len(calls); i++ {
		if gap := calls[i].Arrived.Sub(calls[i-1].Answered); gap < p.MinInterval {
			t.Errorf("call %d started %v after call %d ended; minimum %v", i, gap, i-1, p.MinInterval)
		}
	}
	for i := range calls {
		in := 0
		for j := i; j < len(calls) && calls[j].Arrived.Sub(calls[i].Arrived) < p.RateWindow-transit; j++ {
			in++
		}
		if in > p.RateCalls {
			t.Errorf("%d calls within %v of call %d; limit %d", in, p.RateWindow, i, p.RateCalls)
		}
	}
}

// After PauseAfter consecutive failures every call waits Pause; a 429's
// Retry-After holds back the next call however short the backoff.
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
		p.PauseAfter, p.Pause = 2, 150*time.Millisecond
		pr := provider(t, srv, p)
		if _, _, err := pr.Complete(context.Background(), request(0)); err != nil {
			t.Fatal(err)
		}
		calls := srv.Calls()
		if gap := calls[2].Arrived.Sub(calls[1].Answered); gap < p.Pause-2*time.Millisecond {
			t.Errorf("the third call came %v after the second failure; pause %v", gap, p.Pause)
		}
	})
	t.Run("retry-after", func(t *testing.T) {
		srv := llmtest.New()
		defer srv.Close()
		srv.RetryAfter = "0.2"
		srv.Faults = func(_ uint64, attempt int) llmtest.Fault {
			if attempt == 0 {
				return llmtest.TooMany
			}
			return llmtest.None
		}
		pr := provider(t, srv, fast())
		if _, _, err := pr.Complete(context.Background(), request(0)); err != nil {
			t.Fatal(err)
		}
		calls := srv.Calls()
		if gap := calls[1].Arrived.Sub(calls[0].Answered); gap < 198*time.Millisecond {
			t.Errorf("retried %v after a 429 with Retry-After 0.2", gap)
		}
	})
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
