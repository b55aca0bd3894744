package serve

import (
	"container/list"
	"sync"
	"time"

	"github.com/srezc/srezc/action"
	"github.com/srezc/srezc/engine"
)

// episode is one leased episode. Its truth is the fold (task, seed,
// actions); live is a materialised runtime episode when it holds one of
// the pool's slots, and the last observation is kept rendered for observe
// and for a retried step.
type episode struct {
	mu      sync.Mutex
	id      string
	task    *engine.Task
	seed    uint64
	actions []string
	slot    *slot // guarded by the table's mu for ownership
	// owner is the WebSocket connection that created the episode (empty:
	// whoever holds the id). origin and abandoned are the grader's: where
	// a fork came from, and the branches rewinds left behind.
	owner     string
	origin    string
	abandoned [][]string

	// The last step's observation (the intro before any step), its
	// structured form, and the grader's side of it.
	lastText, lastJSON []byte
	lastReward         float64
	reward             float64 // the sum of the step rewards
	done               bool
	gone               bool // closed or expired: a holder must look it up again
	expires            time.Time
}

// slot is one materialised runtime episode in the pool. pinned keeps it
// from being handed to another episode while its owner steps it.
type slot struct {
	ep     *engine.Episode
	owner  *episode
	pinned bool
	elem   *list.Element
}

// table holds the leased episodes and the pool of materialised ones. Lock
// order: an episode's mu, then the table's mu; never two episodes' mu.
type table struct {
	mu       sync.Mutex
	byID     map[string]*episode
	capacity int
	ttl      time.Duration
	pool     *list.List // of *slot, most recently used first
	poolMax  int
	now      func() time.Time
	// onRebuild counts an episode replayed into a slot it did not hold
	// (evicted from the pool, or taken up from a token).
	onRebuild func()
	// parses binds the actions played and replayed into the table's
	// episodes; a rebuild replays the same texts again.
	parses action.Cache
}

func newTable(capacity, poolMax int, ttl time.Duration, now func() time.Time) *table {
	return &table{byID: map[string]*episode{}, capacity: capacity, ttl: ttl, pool: list.New(), poolMax: poolMax, now: now}
}

// get returns a live episode by id and renews its lease.
func (tb *table) get(id string) *episode {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	e := tb.byID[id]
	if e == nil {
		return nil
	}
	now := tb.now()
	if now.After(e.expires) {
		tb.dropLocked(e)
		return nil
	}
	e.expires = now.Add(tb.ttl)
	return e
}

// add leases a new episode; it fails when the table is full of leases that
// have not expired, and then says when the first one will.
func (tb *table) add(e *episode) (retryAfter time.Duration, ok bool) {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	now := tb.now()
	if len(tb.byID) >= tb.capacity {
		tb.expireLocked(now)
	}
	if len(tb.byID) >= tb.capacity {
		first := time.Time{}
		for _, o := range tb.byID {
			if first.IsZero() || o.expires.Before(first) {
				first = o.expires
			}
		}
		return max(time.Second, first.Sub(now)), false
	}
	e.expires = now.Add(tb.ttl)
	tb.byID[e.id] = e
	return 0, true
}

// peek returns the episode under id, expired or not, without renewing it.
func (tb *table) peek(id string) *episode {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	return tb.byID[id]
}

// replace puts e under its id in place of old (a resume or rewind from a
// token); raced says the table no longer holds old there.
func (tb *table) replace(e, old *episode) (retryAfter time.Duration, ok, raced bool) {
	tb.mu.Lock()
	if cur := tb.byID[e.id]; cur != old {
		tb.mu.Unlock()
		return 0, false, true
	}
	if old != nil {
		tb.dropLocked(old)
	}
	tb.mu.Unlock()
	retryAfter, ok = tb.add(e)
	return retryAfter, ok, false
}

func (tb *table) remove(id string) bool {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	e := tb.byID[id]
	if e == nil {
		return false
	}
	tb.dropLocked(e)
	return true
}

func (tb *table) live() int {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	return len(tb.byID)
}

// expire drops every lease past its time; the server calls it now and
// then, and add calls it when the table is full.
func (tb *table) expire() int {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	return tb.expireLocked(tb.now())
}

func (tb *table) expireLocked(now time.Time) int {
	n := 0
	for _, e := range tb.byID {
		if now.After(e.expires) {
			tb.dropLocked(e)
			n++
		}
	}
	return n
}

// dropLocked forgets e. Its slot goes back to the pool unless its owner is
// stepping it; gone tells a holder of e to look the id up again.
func (tb *table) dropLocked(e *episode) {
	delete(tb.byID, e.id)
	e.gone = true
	if s := e.slot; s != nil && s.owner == e && !s.pinned {
		s.owner = nil
		tb.pool.MoveToBack(s.elem)
	}
}

// pin gives e a materialised runtime episode and keeps it from other
// episodes until unpin. fresh says the slot was not e's already: its
// runtime episode is not e's state yet, and the caller must replay e into
// it. The caller holds e.mu.
func (tb *table) pin(e *episode) (ep *engine.Episode, fresh bool) {
	tb.mu.Lock()
	s := e.slot
	if s == nil || s.owner != e {
		s, fresh = tb.takeLocked(), true
		s.owner = e
		e.slot = s
	}
	s.pinned = true
	tb.pool.MoveToFront(s.elem)
	tb.mu.Unlock()
	if fresh && (s.ep == nil || s.ep.Task() != e.task) {
		s.ep = engine.NewEpisode(e.task)
	}
	return s.ep, fresh
}

// materialise is pin, replaying e's actions when its slot is fresh.
func (tb *table) materialise(e *episode) *engine.Episode {
	ep, fresh := tb.pin(e)
	if fresh {
		if tb.onRebuild != nil && len(e.actions) > 0 {
			tb.onRebuild()
		}
		ep.Reset(e.seed)
		for _, a := range e.actions {
			act := tb.parses.Bind(e.task, a)
			ep.Step(&act)
		}
	}
	return ep
}

func (tb *table) unpin(e *episode) {
	tb.mu.Lock()
	if e.slot != nil {
		e.slot.pinned = false
		if e.gone && e.slot.owner == e {
			e.slot.owner = nil
			tb.pool.MoveToBack(e.slot.elem)
		}
	}
	tb.mu.Unlock()
}

// takeLocked returns a slot for a new owner: a new one while the pool is
// below its size (or every slot is pinned), else the least recently used
// unpinned one.
func (tb *table) takeLocked() *slot {
	if tb.pool.Len() < tb.poolMax {
		s := &slot{}
		s.elem = tb.pool.PushFront(s)
		return s
	}
	for el := tb.pool.Back(); el != nil; el = el.Prev() {
		s := el.Value.(*slot)
		if !s.pinned {
			if s.owner != nil {
				s.owner.slot = nil
			}
			s.owner = nil
			return s
		}
	}
	s := &slot{}
	s.elem = tb.pool.PushFront(s)
	return s
}
