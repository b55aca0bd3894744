// Package agents holds the built-in policies. An agent sees exactly what a
// model sees — the intro text and each observation's text — and answers
// with a text action. The package imports nothing else from srezc, so no
// agent can read a compiled task (layering_test.go enforces it).
package agents

import (
	"strconv"
	"strings"
)

// Agent chooses text actions from the text an agent is shown.
type Agent interface {
	// Begin starts an episode with the intro: the alert, the services and
	// the tools.
	Begin(intro string)
	// Act returns the next action given the latest observation ("" before
	// the first step). ok is false when the agent has nothing more to do;
	// the episode then ends unfinished.
	Act(observation string) (action string, ok bool)
}

// Intro is what an agent can read from the intro text.
type Intro struct {
	Alert    string
	Services []string
	Tools    []ToolSig
	// Budget is the step budget the intro states; 0 when it states none.
	Budget int
}

// ToolSig is a tool's name and argument names as the intro lists them.
type ToolSig struct {
	Name     string
	Args     []string
	Optional []bool
}

// ParseIntro reads the intro's "ALERT:", "Services:" and "Tools:" sections;
// unknown lines are ignored, so the format can grow.
func ParseIntro(intro string) Intro {
	var in Intro
	inTools := false
	for _, line := range strings.Split(intro, "\n") {
		switch {
		case strings.HasPrefix(line, "ALERT: "):
			in.Alert = strings.TrimPrefix(line, "ALERT: ")
			inTools = false
		case strings.HasPrefix(line, "Services:"):
			in.Services = strings.Fields(strings.TrimPrefix(line, "Services:"))
			inTools = false
		case strings.HasPrefix(line, "Tools:"):
			inTools = true
		case strings.Contains(line, "Step budget: "):
			_, after, _ := strings.Cut(line, "Step budget: ")
			n, _ := strconv.Atoi(strings.TrimRight(after, ". "))
			in.Budget = n
			inTools = false
		case inTools && strings.HasPrefix(line, "    "):
			// A tool's documentation.
		case inTools && strings.HasPrefix(line, "  "):
			if sig, ok := parseSig(strings.TrimSpace(line)); ok {
				in.Tools = append(in.Tools, sig)
			}
		default:
			inTools = false
		}
	}
	return in
}

func parseSig(s string) (ToolSig, bool) {
	open := strings.IndexByte(s, '(')
	if open <= 0 || !strings.HasSuffix(s, ")") {
		return ToolSig{}, false
	}
	sig := ToolSig{Name: s[:open]}
	inner := strings.TrimSpace(s[open+1 : len(s)-1])
	if inner == "" {
		return sig, true
	}
	for _, a := range strings.Split(inner, ",") {
		a = strings.TrimSpace(a)
		opt := strings.HasSuffix(a, "?")
		sig.Args = append(sig.Args, strings.TrimSuffix(a, "?"))
		sig.Optional = append(sig.Optional, opt)
	}
	return sig, true
}

// Scripted plays a fixed plan, such as an incident's expert plan, and stops
// when the plan runs out.
type Scripted struct {
	plan []string
	next int
}

// NewScripted returns an agent that plays plan in order.
func NewScripted(plan []string) *Scripted { return &Scripted{plan: plan} }

func (s *Scripted) Begin(string) { s.next = 0 }

func (s *Scripted) Act(string) (string, bool) {
	if s.next >= len(s.plan) {
		return "", false
	}
	s.next++
	return s.plan[s.next-1], true
}

// NewReplay returns an agent that replays text actions, one per line;
// blank lines and lines starting with # are skipped.
func NewReplay(text string) *Scripted {
	var plan []string
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		plan = append(plan, line)
	}
	return NewScripted(plan)
}
