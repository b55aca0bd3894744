package runtime

// Incremental ticks. A tick computes the next row from the current one:
// the next row starts as a copy and each update, in order, reads slots of
// the next row (those updated earlier in the tick hold new values, the rest
// still hold current ones) and of the current row. So an update whose
// inputs are the same as they were for the tick before gives the same value
// again, and can be skipped: the copy already holds it. The inputs of an
// update are the same when every slot it reads, as it reads it, is unchanged
// between the two ticks. A write between ticks makes the next tick a full
// one, since a written slot no longer holds what its update computed.

// readsNext marks a dependency read from the next row after its own update
// in the same tick; otherwise the read sees the current row's value.
const readsNext = 1 << 30

// depIndex lists, per update, the slots it reads.
type depIndex struct {
	start []int32 // update i reads deps[start[i]:start[i+1]]
	deps  []int32 // slot, | readsNext
	ok    bool    // false when a slot has two updates: always tick in full
}

func buildDeps(t *Task) depIndex {
	n := len(t.Slots)
	pos := make([]int32, n) // position of each slot's update, -1 for none
	for i := range pos {
		pos[i] = -1
	}
	d := depIndex{start: make([]int32, 0, len(t.Updates)+1), ok: true}
	for i, u := range t.Updates {
		if int(u.Slot) < 0 || int(u.Slot) >= n || pos[u.Slot] >= 0 {
			d.ok = false
			continue
		}
		pos[u.Slot] = int32(i)
	}
	seen := make([]int32, n)
	for i := range seen {
		seen[i] = -1
	}
	for i, u := range t.Updates {
		d.start = append(d.start, int32(len(d.deps)))
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
			dep := x
			if op.Code == OpLoad && pos[x] >= 0 && pos[x] < int32(i) {
				dep |= readsNext
			}
			if seen[x] == int32(i) {
				continue
			}
			seen[x] = int32(i)
			d.deps = append(d.deps, dep)
		}
	}
	d.start = append(d.start, int32(len(d.deps)))
	return d
}

// tickIncremental computes next from cur, given before (the row cur was
// computed from). changedNow and changedNext are scratch, one per slot.
func (e *Episode) tickIncremental(next, cur, before []uint64) {
	for i := range cur {
		e.changedNow[i] = cur[i] != before[i]
	}
	clear(e.changedNext)
	code := e.t.Code
	deps := &e.deps
	for i, u := range e.t.Updates {
		need := false
		for _, d := range deps.deps[deps.start[i]:deps.start[i+1]] {
			if d&readsNext != 0 {
				need = e.changedNext[d&^readsNext]
			} else {
				need = e.changedNow[d]
			}
			if need {
				break
			}
		}
		if !need {
			continue
		}
		v := e.eval(code[u.Code.Start:u.Code.End], next, cur)
		if v != cur[u.Slot] {
			e.changedNext[u.Slot] = true
		}
		next[u.Slot] = v
	}
}

// SetIncremental turns incremental ticks on (the default) or off. Results
// are identical either way; tests compare the two.
func (e *Episode) SetIncremental(on bool) { e.alwaysFull = !on }
