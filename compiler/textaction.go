package compiler

import (
	"strings"
	"sync"

	"github.com/srezc/srezc/action"
	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/value"
)

// BindText parses a text action and binds it to a task's tools; malformed
// text is an invalid action, never an error. Parses are cached. An
// sre_zero task parses by the reference's grammar instead, untrimmed (its
// canonical form of a bad action is the raw text).
func BindText(t *engine.Task, text string) engine.Action {
	if t.Profile == engine.ProfileSreZero {
		return t.BindRef(parseRefCached(text))
	}
	p := parseCached(text)
	if p.err != "" {
		return engine.InvalidAction(engine.ErrSyntax, p.err)
	}
	return t.Bind(p.tool, p.args)
}

// parsedAction is a text action parsed once. Certification plays the same
// few dozen texts (panel plans, reads, resolutions) for every world it
// compares, and parsing, not playing, dominated its time.
type parsedAction struct {
	tool string
	args []value.Value
	err  string
}

var (
	parsedMu    sync.Mutex
	parsedCache = map[string]parsedAction{}
)

// maxParsed bounds the cache; when full it starts over, so texts seen
// once (an agent's) cannot crowd out the ones played again and again.
// Texts longer than maxParsedLen are parsed every time: a server takes
// actions from anyone, and 4,096 long ones would hold a lot of memory.
const (
	maxParsed    = 1 << 12
	maxParsedLen = 512
)

func parseCached(text string) parsedAction {
	parsedMu.Lock()
	p, ok := parsedCache[text]
	parsedMu.Unlock()
	if ok {
		return p
	}
	call, d := action.Parse(strings.TrimSpace(text))
	if d != nil {
		p = parsedAction{err: d.Detail}
	} else {
		p = parsedAction{tool: call.Tool, args: make([]value.Value, len(call.Args))}
		for i, a := range call.Args {
			p.args[i] = a.Value
		}
	}
	if len(text) > maxParsedLen {
		return p
	}
	parsedMu.Lock()
	if len(parsedCache) >= maxParsed {
		clear(parsedCache)
	}
	parsedCache[text] = p
	parsedMu.Unlock()
	return p
}

var (
	refParsedMu    sync.Mutex
	refParsedCache = map[string]*engine.RefAction{}
)

// parseRefCached parses by the sre_zero grammar. The result is shared by
// every Action bound from the same text, so it is never modified.
func parseRefCached(text string) *engine.RefAction {
	refParsedMu.Lock()
	p, ok := refParsedCache[text]
	refParsedMu.Unlock()
	if ok {
		return p
	}
	ra := action.ParseRef(text)
	p = &ra
	if len(text) > maxParsedLen {
		return p
	}
	refParsedMu.Lock()
	if len(refParsedCache) >= maxParsed {
		clear(refParsedCache)
	}
	refParsedCache[text] = p
	refParsedMu.Unlock()
	return p
}
