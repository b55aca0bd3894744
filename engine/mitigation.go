package engine

import (
	"math"
	"slices"

	"github.com/srezc/srezc/value"
)

// Mitigation is what the world shows (DESIGN.md, "Decisions taken on
// 2026-11-24"). At the resolve step the grader runs idle ticks on a copy of
// the ring: Hold ticks for the world to settle after the last write, then
// at each of Hold more ticks
//
//   - every service's status is healthy,
//   - every metric with a healthy band is inside it,
//   - the alert's condition no longer holds (Task.AlertSlots), and
//   - the author's resolved_when, if the incident has one, holds: it adds
//     conditions, it can never excuse an unhealthy world,
//
// all read from rows, so noise (which only changes what tools show) never
// enters. A fault's fixed_when plays no part: it is the author's statement
// of a fix, which certification checks against this predicate
// (certify/fixcheck.go).

// healthCheck is one slot the world's health reads: a status that must be
// healthy, or a metric that must sit inside [low, high].
type healthCheck struct {
	slot      SlotID
	status    bool
	isFloat   bool
	low, high float64
}

// healthChecks lists the checks of t, services in order, each status
// before its metrics.
func healthChecks(t *Task) []healthCheck {
	var out []healthCheck
	for si := range t.Services {
		s := &t.Services[si]
		if s.Status != NoSlot {
			out = append(out, healthCheck{slot: s.Status, status: true})
		}
		for _, m := range s.Metrics {
			if c, ok := bandCheck(t, m); ok {
				out = append(out, c)
			}
		}
	}
	return out
}

func bandCheck(t *Task, m SlotID) (healthCheck, bool) {
	sl := &t.Slots[m]
	if !sl.HasBand || (sl.Kind != value.Int && sl.Kind != value.Float) {
		return healthCheck{}, false
	}
	return healthCheck{slot: m, isFloat: sl.Kind == value.Float, low: sl.Low, high: sl.High}, true
}

// anomalous reports whether a check fails on a row: a status other than
// healthy (healthy is the word of the healthy status), or a metric outside
// its band. A NaN metric is outside every band.
func (c *healthCheck) anomalous(row []uint64, healthy uint64) bool {
	w := row[c.slot]
	if c.status {
		return w != healthy
	}
	v := float64(int64(w))
	if c.isFloat {
		v = math.Float64frombits(w)
	}
	return !(v >= c.low && v <= c.high)
}

// SlotAnomalous reports whether slot s shows a symptom on row: a status
// that is not healthy, or a banded metric outside its band. Slots of other
// classes never do. The compiler derives the alert with it.
func (t *Task) SlotAnomalous(s SlotID, row []uint64) bool {
	if s < 0 || int(s) >= len(t.Slots) || int(s) >= len(row) {
		return false
	}
	healthy, ok := t.StringID(StatusHealthy)
	if !ok {
		return true
	}
	switch t.Slots[s].Class {
	case ClassStatus:
		c := healthCheck{slot: s, status: true}
		return c.anomalous(row, uint64(healthy))
	case ClassMetric:
		if c, ok := bandCheck(t, s); ok {
			return c.anomalous(row, uint64(healthy))
		}
	}
	return false
}

// worldHealthy reports whether row shows a healthy world with the alert's
// condition gone.
func (e *Episode) worldHealthy(row []uint64) bool {
	p := e.prep
	for i := range p.health {
		if p.health[i].anomalous(row, p.healthyWord) {
			return false
		}
	}
	for i := range e.alert {
		if e.alert[i].anomalous(row, p.healthyWord) {
			return false
		}
	}
	return true
}

// alertChecks are the checks of the alert's condition. They are built per
// episode, not prepared with the task: the compiler writes AlertSlots after
// the warm-up has prepared it.
func alertChecks(t *Task) []healthCheck {
	var out []healthCheck
	for _, s := range t.AlertSlots {
		switch {
		case s < 0 || int(s) >= len(t.Slots):
		case t.Slots[s].Class == ClassStatus:
			out = append(out, healthCheck{slot: s, status: true})
		case t.Slots[s].Class == ClassMetric:
			if c, ok := bandCheck(t, s); ok {
				out = append(out, c)
			}
		}
	}
	return out
}

// Mitigated reports whether the grader would judge the episode mitigated
// if it resolved now. The episode itself does not move.
func (e *Episode) Mitigated() bool { return e.rules.mitigated(e) }

// mitigated runs the grader's idle ticks on a copy of the ring (see the
// top of this file).
func (e *Episode) mitigated() bool {
	t := e.t
	extra := t.Code[t.Resolved.Start:t.Resolved.End]
	// Ticks after the current one are written before they are read, so
	// only the current row needs copying. A tick reads its row and the one
	// before, and so do the checks: two rows of scratch are the whole
	// look-ahead, which then stays in cache however long the ring is.
	h := min(t.History, 2)
	tick := e.tick
	if len(e.scratch) != h*e.n {
		// Allocated at the first resolution: most forks (certification's
		// counterfactual worlds) never resolve.
		e.scratch = make([]uint64, h*e.n)
		e.lookahead = newTickState(t)
	}
	ri := (tick % h) * e.n
	copy(e.scratch[ri:ri+e.n], e.row(tick))
	e.lookahead.copyFrom(&e.ticks)
	hold := max(t.Hold, 1)
	// Full ticks (SetIncremental(false)) run every update here too, which
	// is how tests check the mask.
	var mask []uint64
	if b := &e.sites[e.site]; !e.alwaysFull {
		if b.watched == nil {
			b.watched = watchedUpdates(t, e.prep, e.alert)
		}
		mask = b.watched
	}
	for i := 0; i < 2*hold; i++ {
		tick = e.advanceRows(e.scratch, h, tick, &e.lookahead, mask)
		if i < hold {
			continue
		}
		ci := (tick % h) * e.n
		pi := ((tick - 1) % h) * e.n
		cur := e.scratch[ci : ci+e.n : ci+e.n]
		if !e.worldHealthy(cur) || e.eval(extra, cur, e.scratch[pi:pi+e.n]) == 0 {
			return false
		}
	}
	return true
}

// FaultFixed reports whether fault i's fixed_when holds on the current
// row. Certification compares it with Mitigated.
func (e *Episode) FaultFixed(i int) bool {
	f := &e.t.Faults[i]
	row := e.Row()
	return e.eval(e.t.Code[f.Fixed.Start:f.Fixed.End], row, row) != 0
}

// FaultFixedWith reports whether fault i's fixed_when would hold on the
// current row with slot s set to word w; the episode does not change.
// Certification uses it to say why an expert's write misses a fault's fix
// range ("4 is outside the fix range 20..150"), so it runs only when a plan
// fails.
func (e *Episode) FaultFixedWith(i int, s SlotID, w uint64) bool {
	row := e.Row()
	old := row[s]
	row[s] = w
	ok := e.FaultFixed(i)
	row[s] = old
	return ok
}

// AppendAnomalies appends the slots of the world's health check that fail
// on the current row, then those of the alert's condition, for messages.
func (e *Episode) AppendAnomalies(dst []SlotID) []SlotID { return e.rules.appendAnomalies(e, dst) }

// appendAnomalies is AppendAnomalies under the native profile.
func (e *Episode) appendAnomalies(dst []SlotID) []SlotID {
	row := e.Row()
	p := e.prep
	for i := range p.health {
		if p.health[i].anomalous(row, p.healthyWord) {
			dst = append(dst, p.health[i].slot)
		}
	}
	for _, s := range e.t.AlertSlots {
		if e.t.SlotAnomalous(s, row) && !slices.Contains(dst, s) {
			dst = append(dst, s)
		}
	}
	return dst
}

// watchedUpdates is the bitset of the updates the look-ahead's checks
// depend on: those of the slots the health and alert checks and the
// resolved condition read, and of every slot those updates read, to a
// fixed point. Skipping the rest (metrics no check bands, lines, counters)
// leaves the checks' results as a full tick would.
func watchedUpdates(t *Task, p *prepared, alert []healthCheck) []uint64 {
	live := make([]bool, len(t.Slots))
	var work []SlotID
	add := func(s SlotID) {
		if s >= 0 && int(s) < len(live) && !live[s] {
			live[s] = true
			work = append(work, s)
		}
	}
	addReads := func(code []Op) {
		for _, op := range code {
			if op.Code == OpLoad || op.Code == OpLoadPrev {
				add(SlotID(op.A))
			}
		}
	}
	for _, c := range p.health {
		add(c.slot)
	}
	for _, c := range alert {
		add(c.slot)
	}
	addReads(t.Code[t.Resolved.Start:t.Resolved.End])
	mask := make([]uint64, (len(t.Updates)+63)/64)
	if !p.deps.ok {
		// Without the one-update-per-slot index, run everything.
		for i := range t.Updates {
			mask[i>>6] |= 1 << (uint(i) & 63)
		}
		return mask
	}
	for len(work) > 0 {
		s := work[len(work)-1]
		work = work[:len(work)-1]
		u := p.deps.update[s]
		if u < 0 {
			continue
		}
		mask[u>>6] |= 1 << (uint(u) & 63)
		c := t.Updates[u].Code
		addReads(t.Code[c.Start:c.End])
	}
	return mask
}
