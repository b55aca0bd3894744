package llm

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/srezc/srezc/agents"
	"github.com/srezc/srezc/record"
)

// Styles of LLM agent.
const (
	// Prompting: the model answers each observation with one text action.
	Prompting = "prompting"
	// ReAct: a Thought line, then an Action line.
	ReAct = "react"
	// Tools: native tool calling, one call per turn.
	Tools = "tools"
)

// Styles lists the LLM agents, in help order.
var Styles = []string{Prompting, ReAct, Tools}

// Agent is an LLM agent. It keeps the whole conversation of an episode:
// the system prompt, the intro (the alert, the services and the tools, as
// the runtime shows them), and every answer and observation since.
type Agent struct {
	style    string
	provider *Provider
	specs    []agents.ToolSpec

	tools    []string // tool names, from the intro
	schemas  []Tool
	intro    string
	history  []Message
	pending  []string // tool call ids still owed an answer
	answered bool     // the last answer was a played tool call
	usage    record.Usage
}

// New returns an LLM agent of the given style talking through p. specs are
// the tools' documentation (for the tools style).
func New(style string, p *Provider, specs []agents.ToolSpec) (*Agent, error) {
	if !slices.Contains(Styles, style) {
		return nil, fmt.Errorf("unknown LLM agent style %q (want one of %s)", style, strings.Join(Styles, ", "))
	}
	if style == Tools && len(specs) == 0 {
		return nil, fmt.Errorf("the tools agent needs the tools' specifications")
	}
	return &Agent{style: style, provider: p, specs: specs}, nil
}

// Begin starts an episode.
func (a *Agent) Begin(intro string) {
	a.intro = intro
	in := agents.ParseIntro(intro)
	a.tools = a.tools[:0]
	for _, t := range in.Tools {
		a.tools = append(a.tools, t.Name)
	}
	if a.style == Tools {
		a.schemas = Schemas(a.specs, in.Services)
	}
	a.history = []Message{text("system", SystemPrompt(a.style))}
	a.pending = nil
	a.answered = false
	a.usage = record.Usage{}
}

// Usage is what the episode has cost so far.
func (a *Agent) Usage() record.Usage { return a.usage }

// Turn asks the model for the next action.
func (a *Agent) Turn(ctx context.Context, obs string) (agents.Turn, error) {
	switch {
	case len(a.history) == 1:
		a.history = append(a.history, text("user", a.intro+"\n\n"+FirstInstruction(a.style)))
	case a.answered && len(a.pending) > 0:
		a.history = append(a.history, Message{Role: "tool", Content: &obs, ToolCallID: a.pending[0]})
		a.pending = a.pending[1:]
	default:
		a.history = append(a.history, text("user", obs))
	}
	// Calls the model made beside the one played are answered as refused,
	// so that every tool call id is answered, as the API requires.
	for _, id := range a.pending {
		a.history = append(a.history, text("tool", "Not carried out: only one tool call is carried out per turn."))
		a.history[len(a.history)-1].ToolCallID = id
	}
	a.pending = nil
	cfg := a.provider.Config()
	req := &Request{Model: cfg.Model, Messages: a.history, Temperature: cfg.Temperature, MaxTokens: cfg.MaxTokens, Seed: cfg.Seed}
	if a.style == Tools {
		req.Tools = a.schemas
		req.ToolChoice = "auto"
	}
	resp, stats, err := a.provider.Complete(ctx, req)
	a.usage.Calls += stats.Attempts
	a.usage.Retries += max(0, stats.Attempts-1)
	a.usage.LatencyMS += stats.Elapsed.Milliseconds()
	if err != nil {
		kind := Transient
		var ce *CallError
		if errors.As(err, &ce) {
			kind = ce.Kind
		}
		return agents.Turn{}, &agents.TurnError{Failure: failure(kind), Err: err}
	}
	a.usage.PromptTokens += resp.Usage.PromptTokens
	a.usage.CompletionTokens += resp.Usage.CompletionTokens
	msg := resp.Choices[0].Message
	msg.Role = "assistant"
	if msg.Content == nil && len(msg.ToolCalls) == 0 {
		empty := ""
		msg.Content = &empty
	}
	a.history = append(a.history, msg)
	a.answered = false
	if a.style == Tools && len(msg.ToolCalls) > 0 {
		for _, c := range msg.ToolCalls {
			a.pending = append(a.pending, c.ID)
		}
		a.answered = true
		call := msg.ToolCalls[0]
		return agents.Turn{Action: agents.CallText(a.specs, call.Function.Name, call.Function.Arguments), Reply: replyText(msg)}, nil
	}
	reply := msg.Text()
	return agents.Turn{Action: ExtractAction(reply, a.tools, a.style == ReAct), Reply: reply}, nil
}

func replyText(m Message) string {
	var b strings.Builder
	b.WriteString(m.Text())
	for _, c := range m.ToolCalls {
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "tool call %s %s", c.Function.Name, c.Function.Arguments)
	}
	return b.String()
}

var (
	thinkBlock = regexp.MustCompile(`(?s)<think>.*?</think>`)
	actionLine = regexp.MustCompile(`(?i)^\W*action\W*:\s*(.*)$`)
	anyCall    = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*\s*\(`)
)

// ExtractAction finds the action in a model's text answer. It reads, in
// order: with react, the last "Action:" line; otherwise the whole answer
// if it is one call; then, from the last line up, the first line holding a
// call of a known tool (a namespace prefix such as "functions." dropped),
// from the tool's name to the line's last ")". Failing all, the answer is
// returned trimmed, and the runtime rejects it as an invalid action.
func ExtractAction(reply string, tools []string, react bool) string {
	body := strings.TrimSpace(thinkBlock.ReplaceAllString(reply, ""))
	lines := strings.Split(body, "\n")
	if react {
		for i := len(lines) - 1; i >= 0; i-- {
			if m := actionLine.FindStringSubmatch(strings.TrimSpace(lines[i])); m != nil {
				if call, ok := callIn(m[1], tools); ok {
					return call
				}
			}
		}
	}
	if !strings.Contains(body, "\n") {
		if call, ok := callIn(body, tools); ok {
			return call
		}
	}
	for i := len(lines) - 1; i >= 0; i-- {
		if call, ok := callIn(lines[i], tools); ok {
			return call
		}
	}
	return clip(body, 2000)
}

// callIn finds a call of a known tool (any name when tools is empty) in
// one line.
func callIn(line string, tools []string) (string, bool) {
	line = strings.TrimSpace(line)
	end := strings.LastIndexByte(line, ')')
	if end < 0 {
		return "", false
	}
	for _, loc := range anyCall.FindAllStringIndex(line[:end], -1) {
		name := strings.TrimSpace(line[loc[0] : loc[1]-1])
		if len(tools) > 0 && !slices.Contains(tools, name) {
			continue
		}
		return line[loc[0] : end+1], true
	}
	return "", false
}
