package engine

import "fmt"

// FastMismatch evaluates every update of t recognised by a fast path both
// ways over the rows cur and prev, and describes the first difference.
// fast counts the updates recognised.
func FastMismatch(t *Task, cur, prev []uint64) (fast int, diff string) {
	e := NewEpisode(t)
	for i, f := range fastUpdates(t) {
		if f.kind == fastNone {
			continue
		}
		fast++
		u := t.Updates[i]
		code := t.Code[u.Code.Start:u.Code.End]
		if got, want := e.evalUpdate(&f, code, cur, prev), e.eval(code, cur, prev); got != want {
			return fast, fmt.Sprintf("update %d (%s, %v): fast path %#x, machine %#x", i, t.Slots[u.Slot].Name, code, got, want)
		}
	}
	return fast, ""
}

// FusedMismatch evaluates every update of t both as prepared, with fused
// instructions, and as compiled, over the rows cur and prev, and describes
// the first difference. fused counts the fused instructions.
func FusedMismatch(t *Task, cur, prev []uint64) (fused int, diff string) {
	e := NewEpisode(t)
	code, spans := fusedUpdates(t)
	for _, op := range code {
		if op.Code > OpCount {
			fused++
		}
	}
	for i, u := range t.Updates {
		orig := t.Code[u.Code.Start:u.Code.End]
		f := code[spans[i].Start:spans[i].End]
		if got, want := e.eval(f, cur, prev), e.eval(orig, cur, prev); got != want {
			return fused, fmt.Sprintf("update %d (%s, %v): fused %v gives %#x, machine %#x", i, t.Slots[u.Slot].Name, orig, f, got, want)
		}
	}
	return fused, ""
}
