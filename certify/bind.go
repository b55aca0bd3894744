package certify

import (
	"strings"
	"sync"

	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/lang"
	"github.com/srezc/srezc/value"
)

// bindText binds a text action to a task's tools as the runtime takes it
// from an agent: malformed text is an invalid action, never an error; an
// sre_zero task parses by the reference's grammar, untrimmed.
//
// Interim: this is compiler.BindText (compiler/textaction.go), which
// certify cannot call without importing the compiler. Text actions are
// getting a package of their own (issue 17, item 1); when they have it,
// this file goes and its callers call that package. Parses are memoised
// as there, for the same reason: certification plays the same few dozen
// texts for every world it compares, and parsing, not playing, dominated
// its time.
func bindText(t *engine.Task, text string) engine.Action {
	if t.Profile == engine.ProfileSreZero {
		return t.BindRef(parseRefCached(text))
	}
	p := parseCached(text)
	if p.err != "" {
		return engine.InvalidAction(engine.ErrSyntax, p.err)
	}
	return t.Bind(p.tool, p.args)
}

type parsedAction struct {
	tool string
	args []value.Value
	err  string
}

var (
	parsedMu       sync.Mutex
	parsedCache    = map[string]parsedAction{}
	refParsedMu    sync.Mutex
	refParsedCache = map[string]*engine.RefAction{}
)

// maxParsed bounds each memo; when full it starts over. Texts longer than
// maxParsedLen are parsed every time.
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
	call, d := lang.ParseAction(strings.TrimSpace(text))
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

// parseRefCached parses by the sre_zero grammar. The result is shared by
// every Action bound from the same text, so it is never modified.
func parseRefCached(text string) *engine.RefAction {
	refParsedMu.Lock()
	p, ok := refParsedCache[text]
	refParsedMu.Unlock()
	if ok {
		return p
	}
	la := lang.ParseRefAction(text)
	p = &engine.RefAction{
		Type: la.Type, Service: la.Service, Key: la.Key, HasKey: la.HasKey, Value: la.Value,
		RootCause: la.RootCause, Fix: la.Fix, Reason: la.Reason, Canonical: la.Canonical, Err: la.Err,
	}
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
