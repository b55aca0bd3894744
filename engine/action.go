package engine

import (
	"github.com/srezc/srezc/srezero"
	"github.com/srezc/srezc/value"
)

// ErrCode says why an action was invalid. Invalid actions consume a step and
// are counted; they never stop an episode.
type ErrCode uint8

const (
	OK ErrCode = iota
	ErrSyntax
	ErrUnknownTool
	ErrArity
	ErrUnknownService
	ErrUnknownKey
	ErrValueType
	ErrEmptyText
	ErrEpisodeDone
)

var errText = [...]string{
	OK:                "",
	ErrSyntax:         "the action is not a tool call like inspect_logs(service)",
	ErrUnknownTool:    "no tool has that name",
	ErrArity:          "wrong number of arguments for this tool",
	ErrUnknownService: "no service has that name",
	ErrUnknownKey:     "the service has no config key of that name",
	ErrValueType:      "the value has the wrong type for this config key",
	ErrEmptyText:      "a text argument is empty",
	ErrEpisodeDone:    "the episode is over",
}

func (c ErrCode) String() string {
	if int(c) < len(errText) {
		return errText[c]
	}
	return "invalid action"
}

var errNames = [...]string{"ok", "syntax", "unknown_tool", "arity", "unknown_service", "unknown_key", "value_type", "empty_text", "episode_done"}

// Name is the stable machine name of the code.
func (c ErrCode) Name() string {
	if int(c) < len(errNames) {
		return errNames[c]
	}
	return "invalid"
}

// Action is a bound tool call: names resolved to ids, arguments typed. The
// zero Action is not valid; build actions with Task.Bind.
type Action struct {
	Tool    int16
	Service int16
	Key     SlotID
	Value   value.Value
	Text    [2]string
	// Ref is the action as the sre_zero grammar parsed it, for a task
	// under that profile (package srezero); nil otherwise.
	Ref *srezero.Action
	Err ErrCode
	// Detail explains a syntax error in the agent's words.
	Detail string
	// Canon identifies the canonical form, for repetition.
	Canon uint64
}

// InvalidAction is an action that failed before binding, such as text that
// does not parse.
func InvalidAction(code ErrCode, detail string) Action {
	return Action{Tool: -1, Service: -1, Key: NoSlot, Err: code, Detail: detail, Canon: hashString(offset64, detail) ^ uint64(code)}
}

const (
	offset64 = 14695981039346656037
	prime64  = 1099511628211
)

func hashString(h uint64, s string) uint64 {
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= prime64
	}
	return h
}

func hashWord(h, w uint64) uint64 {
	for i := 0; i < 8; i++ {
		h ^= (w >> (8 * i)) & 0xff
		h *= prime64
	}
	return h
}

// Bind resolves a call by tool name and typed arguments against the task.
// Any mismatch yields an invalid Action with a code, never an error value, so
// that a model's malformed call is accounted like any other step.
func (t *Task) Bind(tool string, args []value.Value) Action {
	ti := t.ToolIndex(tool)
	if ti < 0 {
		a := InvalidAction(ErrUnknownTool, "")
		a.Canon = hashString(a.Canon, tool)
		return a
	}
	tl := &t.Tools[ti]
	a := Action{Tool: int16(ti), Service: -1, Key: NoSlot}
	h := hashWord(offset64, uint64(ti))
	required := 0
	for _, p := range tl.Args {
		if !p.Optional {
			required++
		}
	}
	if len(args) < required || len(args) > len(tl.Args) {
		a.Err = ErrArity
		a.Canon = hashWord(h, uint64(len(args))|1<<40)
		return a
	}
	text := 0
	for i, arg := range args {
		switch tl.Args[i].Type {
		case ArgService:
			a.Service = int16(t.ServiceIndex(arg.String()))
			if arg.K != value.String || a.Service < 0 {
				a.Err = ErrUnknownService
			}
			h = hashWord(h, uint64(a.Service))
		case ArgConfigKey:
			a.Key = t.ConfigSlot(int(a.Service), arg.String())
			if a.Err == OK && (arg.K != value.String || a.Key == NoSlot) {
				a.Err = ErrUnknownKey
			}
			h = hashWord(h, uint64(a.Key))
		case ArgValue:
			a.Value = arg
			if a.Err == OK && a.Key != NoSlot && t.Slots[a.Key].Kind != arg.K {
				a.Err = ErrValueType
			}
			h = hashWord(hashWord(h, uint64(arg.K)), arg.Bits())
			h = hashString(h, arg.S)
		case ArgText:
			s := arg.String()
			if text < len(a.Text) {
				a.Text[text] = s
				text++
			}
			if a.Err == OK && len(trimSpace(s)) == 0 {
				a.Err = ErrEmptyText
			}
			h = hashString(h, s)
		}
	}
	a.Canon = h
	if a.Err != OK {
		a.Canon ^= uint64(a.Err) << 56
	}
	return a
}

func trimSpace(s string) string {
	for len(s) > 0 && (s[0] == ' ' || s[0] == '\t') {
		s = s[1:]
	}
	for len(s) > 0 && (s[len(s)-1] == ' ' || s[len(s)-1] == '\t') {
		s = s[:len(s)-1]
	}
	return s
}
