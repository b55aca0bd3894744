package llm_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/srezc/srezc/llm"
)

// think is the reasoning block a model may put before its answer, which
// ExtractAction drops.
var think = regexp.MustCompile(`(?s)<think>.*?</think>`)

// FuzzExtractAction: any answer gives an action no longer than itself, and
// a call found in it is a piece of it, once reasoning blocks are dropped.
func FuzzExtractAction(f *testing.F) {
	for _, s := range []string{"inspect_logs(web)", "Thought: x\nAction: update_config(db, k, 1)", "<think>a(b)</think>c(d)", "```\nresolve_incident(\"a, b\", c)\n```", "", "((", "Action:"} {
		f.Add(s, true)
	}
	tools := []string{"inspect_logs", "update_config", "resolve_incident"}
	f.Fuzz(func(t *testing.T, reply string, react bool) {
		got := llm.ExtractAction(reply, tools, react)
		if len(got) > len(reply) && !strings.HasSuffix(got, "…") {
			t.Fatalf("ExtractAction(%q) = %q, longer than the answer", reply, got)
		}
		if strings.HasSuffix(got, ")") && !strings.Contains(think.ReplaceAllString(reply, ""), got) {
			t.Fatalf("ExtractAction(%q) = %q, not a piece of the answer", reply, got)
		}
	})
}

type canned struct {
	status int
	header string
	body   string
}

func (c canned) RoundTrip(*http.Request) (*http.Response, error) {
	h := http.Header{}
	h.Set("Retry-After", c.header)
	return &http.Response{StatusCode: c.status, Header: h, Body: io.NopCloser(strings.NewReader(c.body))}, nil
}

// FuzzCallAnswer: whatever a provider answers, a call returns a response
// with a choice or a classified CallError, and never panics.
func FuzzCallAnswer(f *testing.F) {
	f.Add(200, "", `{"choices":[{"message":{"role":"assistant","content":"x"}}]}`)
	f.Add(200, "", `{"choices":[]}`)
	f.Add(200, "", `{"error":{"message":"m","code":401}}`)
	f.Add(429, "3", `{"error":{"message":"slow down"}}`)
	f.Add(400, "", `{"error":{"code":"context_length_exceeded","message":"too long"}}`)
	f.Add(503, "Wed, 21 Oct 2015 07:28:00 GMT", `<html>`)
	f.Fuzz(func(t *testing.T, status int, retryAfter, body string) {
		if status < 100 || status > 999 {
			return
		}
		c := &llm.Client{Config: llm.Config{BaseURL: "http://fake", Model: "m"}, HTTP: &http.Client{Transport: canned{status, retryAfter, body}}}
		resp, err := c.Call(context.Background(), &llm.Request{Model: "m"})
		if err == nil {
			if len(resp.Choices) == 0 {
				t.Fatalf("a response with no choice and no error, from %d %q", status, body)
			}
			return
		}
		var ce *llm.CallError
		if !errors.As(err, &ce) || ce.Kind < llm.Transient || ce.Kind > llm.AgentFault || ce.RetryAfter < 0 {
			t.Fatalf("unclassified error %v from %d %q", err, status, body)
		}
	})
}
