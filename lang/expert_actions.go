package lang

import (
	"slices"
	"sync"

	"github.com/srezc/srezc/action"
)

// Expert actions are parsed by the action package's grammar, whose regexp
// lexer made parsing them a twentieth of the analysis of a small incident;
// an editor analyses the same plan again on every keystroke, so parses are
// kept by text, like syntax trees. Callers get their own copies.
var (
	actionsMu     sync.Mutex
	parsedActions = map[string]parsedAction{}
	actionsBytes  int // the text held as keys of parsedActions
)

type parsedAction struct {
	call action.Call
	err  *action.Error
}

// maxParsedActionBytes bounds the text the cache holds; when full it
// starts over.
const maxParsedActionBytes = 1 << 20

// parseAction is action.Parse, cached.
func parseAction(src string) (action.Call, *action.Error) {
	actionsMu.Lock()
	p, ok := parsedActions[src]
	actionsMu.Unlock()
	if !ok {
		p.call, p.err = action.Parse(src)
		actionsMu.Lock()
		if actionsBytes+len(src) > maxParsedActionBytes {
			clear(parsedActions)
			actionsBytes = 0
		}
		if _, dup := parsedActions[src]; !dup {
			actionsBytes += len(src)
		}
		parsedActions[src] = p
		actionsMu.Unlock()
	}
	call := p.call
	call.Args = slices.Clone(call.Args)
	if p.err == nil {
		return call, nil
	}
	err := *p.err
	if err.Subject != nil {
		subject := *err.Subject
		err.Subject = &subject
	}
	return call, &err
}
