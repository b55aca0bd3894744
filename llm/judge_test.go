package llm_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/srezc/srezc/llm"
	"github.com/srezc/srezc/llm/llmtest"
)

func TestParseVerdict(t *testing.T) {
	cases := []struct {
		answer  string
		correct bool
		reason  string
		ok      bool
	}{
		{`{"diagnosis_correct": true, "reason": "names the pool"}`, true, "names the pool", true},
		{`{"diagnosis_correct":false}`, false, "", true},
		{"```json\n{\"diagnosis_correct\": false, \"reason\": \"wrong service\"}\n```", false, "wrong service", true},
		{"<think>maybe {\"diagnosis_correct\": true}</think>\nVerdict: {\"diagnosis_correct\": false, \"reason\": \"blames the cache\"} — final.", false, "blames the cache", true},
		{`{"diagnosis_correct": true, "reason": "braces {in} the reason"}`, true, "braces {in} the reason", true},
		// Not verdicts.
		{"The diagnosis is correct.", false, "", false},
		{`{"diagnosis_correct": "yes", "reason": "x"}`, false, "", false},
		{`{"correct": true}`, false, "", false},
		{`{"diagnosis_correct": true, "reason": 7}`, false, "", false},
		{`{"diagnosis_correct": tru`, false, "", false},
		{"", false, "", false},
	}
	for _, c := range cases {
		v, err := llm.ParseVerdict(c.answer)
		if (err == nil) != c.ok {
			t.Errorf("ParseVerdict(%q): error %v, want ok=%v", c.answer, err, c.ok)
			continue
		}
		if !c.ok {
			if !errors.Is(err, llm.ErrUnusableVerdict) {
				t.Errorf("ParseVerdict(%q): error %v is not ErrUnusableVerdict", c.answer, err)
			}
			continue
		}
		if v.DiagnosisCorrect != c.correct || v.Reason != c.reason {
			t.Errorf("ParseVerdict(%q) = %+v, want %v %q", c.answer, v, c.correct, c.reason)
		}
	}
}

// FuzzParseVerdict: any answer gives a verdict or ErrUnusableVerdict, and
// a verdict comes from a JSON object the answer holds. encoding/json
// matches keys without regard to case (Unicode's simple folding, so
// "diagnoſis_correct" is the key too), and so does the check.
func FuzzParseVerdict(f *testing.F) {
	for _, s := range []string{`{"diagnosis_correct": true, "reason": "x"}`, "```\n{\"diagnosis_correct\":false}\n```", "{{{", `{"diagnosis_correct": "no"}`, "<think>{</think>}", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, answer string) {
		v, err := llm.ParseVerdict(answer)
		if err != nil {
			if !errors.Is(err, llm.ErrUnusableVerdict) {
				t.Fatalf("ParseVerdict(%q): %v", answer, err)
			}
			return
		}
		if !containsFold(answer, "diagnosis_correct") || len(v.Reason) > len(answer)+len("…") {
			t.Fatalf("ParseVerdict(%q) = %+v, from nowhere", answer, v)
		}
	})
}

// containsFold reports whether s holds a run of runes equal to word under
// simple case folding, as encoding/json compares keys.
func containsFold(s, word string) bool {
	rs, n := []rune(s), utf8.RuneCountInString(word)
	for i := 0; i+n <= len(rs); i++ {
		if strings.EqualFold(string(rs[i:i+n]), word) {
			return true
		}
	}
	return false
}

const judgeCase = `{"incident": {"title": "t", "alert": "a", "services": ["web_server", "database"]},
 "ground_truth": [{"service": "database", "mechanism": "connection_limit_exceeded"}],
 "answer": {"root_cause": %q, "fix": "raised it"}}`

func judgeFor(t *testing.T, srv *llmtest.Server, p llm.Policy) *llm.Judge {
	t.Helper()
	return llm.NewJudge(provider(t, srv, p))
}

// The fake judge's rule, through the real caller: the verdict follows the
// answer, the request carries the fixed prompt at temperature 0.
func TestJudgeAgainstFakeProvider(t *testing.T) {
	srv := llmtest.New()
	defer srv.Close()
	j := judgeFor(t, srv, fast())
	if j.Prompt() != llm.JudgePromptVersion || j.Model() != "fake-1" {
		t.Fatalf("judge %s/%s", j.Prompt(), j.Model())
	}
	for answer, want := range map[string]bool{
		"database: connection limit too low": true,
		"the database is refusing clients":   false, // no word of the mechanism
		"web_server: connection limit":       false, // wrong service
	} {
		v, err := j.Judge(context.Background(), []byte(strings.Replace(judgeCase, "%q", `"`+answer+`"`, 1)))
		if err != nil {
			t.Fatalf("%q: %v", answer, err)
		}
		if v.DiagnosisCorrect != want || v.Reason == "" {
			t.Errorf("%q: verdict %+v, want %v", answer, v, want)
		}
	}
	for _, c := range srv.Calls() {
		if !strings.Contains(string(c.Body), `"temperature":0`) || !strings.Contains(string(c.Body), "You grade the diagnosis") {
			t.Errorf("request %s", c.Body)
		}
	}
}

// Failures: a provider that keeps failing and an unusable answer are no
// verdict; a bad key also says to stop.
func TestJudgeFailures(t *testing.T) {
	cases := []struct {
		fault, answer llmtest.Fault
		abort         bool
		says          string
	}{
		{fault: llmtest.ServerError, says: "HTTP 500"},
		{fault: llmtest.Unauthorized, abort: true, says: "OPENAI_API_KEY"},
		{answer: llmtest.Prose, says: "unusable verdict"},
		{answer: llmtest.GarbageCall, says: "unusable verdict"},
	}
	for _, c := range cases {
		srv := llmtest.New()
		srv.Faults = func(uint64, int) llmtest.Fault { return c.fault }
		srv.Answers = func(uint64) llmtest.Fault { return c.answer }
		p := fast()
		p.MaxRetries = 1
		p.Timeout = time.Second
		_, err := judgeFor(t, srv, p).Judge(context.Background(), []byte(strings.Replace(judgeCase, "%q", `"database: connection limit"`, 1)))
		srv.Close()
		var je *llm.JudgeError
		if !errors.As(err, &je) || je.Abort != c.abort || !strings.Contains(err.Error(), c.says) {
			t.Errorf("fault %q answer %q: error %v (abort %v), want abort %v saying %q", c.fault, c.answer, err, je != nil && je.Abort, c.abort, c.says)
		}
	}
}
