package cli

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/srezc/srezc/eval"
	"github.com/srezc/srezc/llm"
)

// On a terminal, a provider's pause is printed on a line of its own: the
// progress line is cleared first and drawn again below it, never written
// onto.
func TestPauseMessageIsNotPrintedOntoTheProgressLine(t *testing.T) {
	var out bytes.Buffer
	s := &statusLine{w: &out, tty: true, started: time.Now()}
	s.episode(eval.Progress{Total: 4, Contestant: "react/m"})
	s.provider("http://x/v1", llm.Event{Kind: llm.EventCall})
	s.provider("http://x/v1", llm.Event{Kind: llm.EventPause, Delay: 30 * time.Second, Err: errors.New("HTTP 429: slow down")})
	got := out.String()
	const clear = "\r\033[K"
	i := strings.Index(got, "srezc: provider http://x/v1 paused for 30s: HTTP 429: slow down\n")
	if i < 0 {
		t.Fatalf("no pause message in %q", got)
	}
	if !strings.HasSuffix(got[:i], clear) {
		t.Errorf("the pause message is written onto the progress line: %q", got)
	}
	if after := got[i:]; !strings.Contains(after, clear+"react/m [") || !strings.Contains(after, "provider paused 30s") {
		t.Errorf("the progress line is not drawn again below the message, with the pause: %q", after)
	}
}

// Without a terminal, an LLM sweep prints a progress line at its first
// answer, with calls, tokens and retries; a sweep of built-in agents prints
// nothing.
func TestProgressLinesWithoutATerminal(t *testing.T) {
	var out bytes.Buffer
	s := &statusLine{w: &out, lines: true, started: time.Now(), last: time.Now()}
	s.episode(eval.Progress{Total: 6})
	s.provider("u", llm.Event{Kind: llm.EventCall})
	s.provider("u", llm.Event{Kind: llm.EventAnswer, Tokens: 1234})
	if got, want := out.String(), "srezc: progress: 0/6 episodes · 1 calls · 1.2k tokens · 0 retries\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	var quiet bytes.Buffer
	q := &statusLine{w: &quiet, started: time.Now()}
	q.episode(eval.Progress{Total: 6, Done: 1})
	if quiet.Len() != 0 {
		t.Errorf("a built-in sweep printed %q", quiet.String())
	}
}
