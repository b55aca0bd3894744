package action

import (
	"strings"
	"sync"

	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/record"
	"github.com/srezc/srezc/srezero"
	"github.com/srezc/srezc/value"
)

// Bind parses a text action and binds it to a task's tools; malformed
// text is an invalid action, never an error. An sre_zero task parses by
// the reference's grammar instead, untrimmed (its canonical form of a bad
// action is the raw text). Parses go through a cache shared by the
// process, bounded (see Cache); a caller that wants its own holds a Cache.
func Bind(t *engine.Task, text string) engine.Action { return shared.Bind(t, text) }

var shared Cache

// Cache remembers parses of text actions, so that texts played again and
// again bind without parsing: certification plays the same few dozen texts
// (panel plans, reads, resolutions) for every world it compares, and a
// server replays an episode's actions when it rebuilds it; parsing, not
// playing, dominated their time. A Cache is bounded: when full it starts
// over, so texts seen once (an agent's) cannot crowd out the ones played
// again and again, and texts longer than maxParsedLen are parsed every
// time (a server takes actions from anyone, and 4,096 long ones would hold
// a lot of memory). The zero Cache is ready; it is safe for concurrent use.
type Cache struct {
	mu     sync.Mutex
	native map[string]parsed
	ref    map[string]*srezero.Action
}

const (
	maxParsed    = 1 << 12
	maxParsedLen = 512
)

// parsed is a native text action parsed once.
type parsed struct {
	tool string
	args []value.Value
	err  string
	// call is kept when an argument is named: where it goes depends on
	// the tool's parameters, which only the task knows.
	call *Call
}

// Bind is Bind through c.
func (c *Cache) Bind(t *engine.Task, text string) engine.Action {
	if t.Profile == record.ProfileSreZero {
		return t.BindRef(c.parseRef(text))
	}
	p := c.parse(text)
	if p.err != "" {
		return engine.InvalidAction(engine.ErrSyntax, p.err)
	}
	if p.call != nil {
		return BindCall(t, *p.call)
	}
	return t.Bind(p.tool, p.args)
}

// BindCall binds a parsed call to a task's tools, named arguments where
// the tool's parameters take them.
func BindCall(t *engine.Task, call Call) engine.Action {
	if ti := t.ToolIndex(call.Tool); ti >= 0 {
		params := make([]string, len(t.Tools[ti].Args))
		for i, a := range t.Tools[ti].Args {
			params[i] = a.Name
		}
		if d := call.Order(params); d != nil {
			return engine.InvalidAction(engine.ErrArity, d.Detail)
		}
	}
	args := make([]value.Value, len(call.Args))
	for i, a := range call.Args {
		args[i] = a.Value
	}
	return t.Bind(call.Tool, args)
}

func (c *Cache) parse(text string) parsed {
	c.mu.Lock()
	p, ok := c.native[text]
	c.mu.Unlock()
	if ok {
		return p
	}
	call, d := Parse(strings.TrimSpace(text))
	if d != nil {
		p = parsed{err: d.Detail}
	} else {
		p = parsed{tool: call.Tool, args: make([]value.Value, len(call.Args))}
		for i, a := range call.Args {
			p.args[i] = a.Value
			if a.Name != "" {
				p.call = &call
			}
		}
	}
	if len(text) > maxParsedLen {
		return p
	}
	c.mu.Lock()
	if c.native == nil || len(c.native) >= maxParsed {
		c.native = make(map[string]parsed)
	}
	c.native[text] = p
	c.mu.Unlock()
	return p
}

// parseRef parses by the sre_zero grammar. The result is shared by every
// Action bound from the same text, so it is never modified.
func (c *Cache) parseRef(text string) *srezero.Action {
	c.mu.Lock()
	p, ok := c.ref[text]
	c.mu.Unlock()
	if ok {
		return p
	}
	ra := ParseRef(text)
	p = &ra
	if len(text) > maxParsedLen {
		return p
	}
	c.mu.Lock()
	if c.ref == nil || len(c.ref) >= maxParsed {
		c.ref = make(map[string]*srezero.Action)
	}
	c.ref[text] = p
	c.mu.Unlock()
	return p
}
