package engine

import "math/bits"

// Incremental ticks. A tick computes the next row from the current one:
// the next row starts as a copy, and each update, in order, reads slots of
// the next row — those updated earlier in the tick hold new values, the
// rest still hold current ones — and of the current row. An update whose
// inputs read the same as in the tick before gives the same value again,
// so it can be skipped: the copy already holds it.
//
// Changes are pushed, not polled. The tick state carries the slots that
// changed in the last tick; their readers are marked, marked updates run in
// order, and each value that changes marks the readers that see it later in
// the same tick. A stable world ticks for the price of a row copy.
//
// A write between ticks (an update_config, a restart, a poke) "forces" its
// slot: every reader runs, and so does the slot's own update if it has one,
// because a written slot no longer holds what its update computed.

// readsNext marks a reader that sees a slot's new value in the same tick
// (it runs after the slot's own update); other readers see the value of
// the row before.
const readsNext = 1 << 30

// forced marks a changed slot that was written between ticks.
const forced = 1 << 30

// depIndex is the reverse of the updates' reads: for each slot, the
// updates that read it.
type depIndex struct {
	start   []int32 // slot x is read by readers[start[x]:start[x+1]]
	readers []int32 // update index | readsNext
	update  []int32 // each slot's own update, -1 for none
	ok      bool    // false when a slot has two updates: tick in full
}

func buildDeps(t *Task) depIndex {
	n := len(t.Slots)
	d := depIndex{update: make([]int32, n), ok: true}
	for i := range d.update {
		d.update[i] = -1
	}
	for i, u := range t.Updates {
		if int(u.Slot) < 0 || int(u.Slot) >= n || d.update[u.Slot] >= 0 {
			d.ok = false
			continue
		}
		d.update[u.Slot] = int32(i)
	}
	type read struct{ slot, reader int32 }
	var reads []read
	last := make([]int32, n)
	for i := range last {
		last[i] = -1
	}
	for i, u := range t.Updates {
		if u.Code.Start < 0 || int(u.Code.End) > len(t.Code) || u.Code.Start > u.Code.End {
			d.ok = false
			continue
		}
		for _, op := range t.Code[u.Code.Start:u.Code.End] {
			if op.Code != OpLoad && op.Code != OpLoadPrev {
				continue
			}
			x := op.A
			if x < 0 || int(x) >= n {
				d.ok = false
				continue
			}
			r := int32(i)
			if op.Code == OpLoad && d.update[x] >= 0 && d.update[x] < int32(i) {
				r |= readsNext
			}
			// One entry per (slot, update); a load of both rows of one
			// slot is rare enough to keep both entries.
			if last[x] == r {
				continue
			}
			last[x] = r
			reads = append(reads, read{x, r})
		}
	}
	d.start = make([]int32, n+1)
	for _, r := range reads {
		d.start[r.slot+1]++
	}
	for i := 0; i < n; i++ {
		d.start[i+1] += d.start[i]
	}
	d.readers = make([]int32, len(reads))
	fill := append([]int32(nil), d.start[:n]...)
	for _, r := range reads {
		d.readers[fill[r.slot]] = r.reader
		fill[r.slot]++
	}
	return d
}

// tickState is what an incremental tick needs besides the rows: the slots
// that changed in the last tick (| forced), and scratch.
type tickState struct {
	changed []int32
	next    []int32
	need    []uint64 // bitset over updates
	full    bool     // the next tick evaluates every update
}

func newTickState(t *Task) tickState {
	n := len(t.Slots)
	return tickState{
		changed: make([]int32, 0, n),
		next:    make([]int32, 0, n),
		need:    make([]uint64, (len(t.Updates)+63)/64),
	}
}

func (s *tickState) clone() tickState {
	c := tickState{
		changed: append(make([]int32, 0, cap(s.changed)), s.changed...),
		next:    make([]int32, 0, cap(s.next)),
		need:    make([]uint64, len(s.need)),
		full:    s.full,
	}
	return c
}

// copyFrom makes s a copy of o, reusing s's buffers.
func (s *tickState) copyFrom(o *tickState) {
	s.changed = append(s.changed[:0], o.changed...)
	s.full = o.full
}

// force records a write of slot x between ticks.
func (s *tickState) force(x SlotID) {
	if len(s.changed) < cap(s.changed) {
		s.changed = append(s.changed, int32(x)|forced)
	} else {
		s.full = true
	}
}

func (s *tickState) mark(u int32) { s.need[u>>6] |= 1 << (uint(u) & 63) }

// advance computes next from cur (next already holds a copy of cur).
//
// With a mask, updates whose bit is clear are skipped and their slots keep
// the copied value: the mask must be closed under reading (watchedUpdates),
// so no update it runs reads a slot it skips.
func (e *Episode) advance(next, cur []uint64, s *tickState, mask []uint64) {
	t := e.t
	code := e.prep.fused
	d := &e.prep.deps
	fast := e.prep.fast[:len(t.Updates)]
	spans := e.prep.fusedSpan[:len(t.Updates)]
	s.next = s.next[:0]
	if s.full || e.alwaysFull || !d.ok {
		for i, u := range t.Updates {
			if mask != nil && mask[i>>6]&(1<<(uint(i)&63)) == 0 {
				continue
			}
			v := e.evalUpdate(&fast[i], code[spans[i].Start:spans[i].End], next, cur)
			if v != cur[u.Slot] {
				s.next = append(s.next, int32(u.Slot))
			}
			next[u.Slot] = v
		}
		s.changed, s.next = s.next, s.changed
		s.full = false
		return
	}
	clear(s.need)
	for _, c := range s.changed {
		x := c &^ forced
		for _, r := range d.readers[d.start[x]:d.start[x+1]] {
			if r&readsNext == 0 || c&forced != 0 {
				s.mark(r &^ readsNext)
			}
		}
		if c&forced != 0 && d.update[x] >= 0 {
			s.mark(d.update[x])
		}
	}
	for w := range s.need {
		for s.need[w] != 0 {
			b := bits.TrailingZeros64(s.need[w])
			s.need[w] &^= 1 << uint(b)
			if mask != nil && mask[w]&(1<<uint(b)) == 0 {
				continue
			}
			i := w<<6 + b
			u := &t.Updates[i]
			v := e.evalUpdate(&fast[i], code[spans[i].Start:spans[i].End], next, cur)
			if v == cur[u.Slot] {
				next[u.Slot] = v
				continue
			}
			next[u.Slot] = v
			s.next = append(s.next, int32(u.Slot))
			for _, r := range d.readers[d.start[u.Slot]:d.start[u.Slot+1]] {
				if r&readsNext != 0 {
					s.mark(r &^ readsNext)
				}
			}
		}
	}
	s.changed, s.next = s.next, s.changed
}

// SetIncremental turns incremental ticks on (the default) or off; off, the
// grader's look-ahead also runs every update, not only those its checks
// read. Results are identical either way; tests compare the two.
func (e *Episode) SetIncremental(on bool) { e.alwaysFull = !on }
