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
	ErrArgFormat
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
	ErrArgFormat:      "an identifier must be a name like orders or web-2 (letters, digits, _ . -), an ip_address four numbers like 192.0.2.7",
}

func (c ErrCode) String() string {
	if int(c) < len(errText) {
		return errText[c]
	}
	return "invalid action"
}

var errNames = [...]string{"ok", "syntax", "unknown_tool", "arity", "unknown_service", "unknown_key", "value_type", "empty_text", "episode_done", "arg_format"}

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
	// Names are the identifiers and addresses given to an operate tool,
	// in order.
	Names [MaxOperationArgs]string
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
	text, names := 0, 0
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
		case ArgIdentifier, ArgAddress:
			s := arg.String()
			if names < len(a.Names) {
				a.Names[names] = s
				names++
			}
			ok := arg.K == value.String && validIdentifier(s)
			if tl.Args[i].Type == ArgAddress {
				ok = arg.K == value.String && validIPv4(s)
			}
			if a.Err == OK && !ok {
				a.Err = ErrArgFormat
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

// validIdentifier accepts a name as systems print them: 1 to 63 letters,
// digits, "_", "." and "-", beginning with a letter or "_". Whether the
// system has such a thing is not checked: an operation on a name nothing
// has is acknowledged as any other is.
func validIdentifier(s string) bool {
	if len(s) == 0 || len(s) > 63 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
		if !letter && (i == 0 || !(c >= '0' && c <= '9' || c == '.' || c == '-')) {
			return false
		}
	}
	return true
}

// validIPv4 accepts a dotted-quad IPv4 address without leading zeros.
func validIPv4(s string) bool {
	parts, n, digits := 0, 0, 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == '.' {
			if digits == 0 || n > 255 {
				return false
			}
			parts++
			n, digits = 0, 0
			continue
		}
		c := s[i]
		if c < '0' || c > '9' || (digits == 1 && n == 0) || digits == 3 {
			return false
		}
		n = n*10 + int(c-'0')
		digits++
	}
	return parts == 4
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
