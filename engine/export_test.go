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
