package runtime

// FaultFixedWith reports whether fault i's fixed_when holds on the current
// row with slot s set to word w; the episode does not change. Certification
// uses it to say why an expert's write misses a fault's fix range ("4 is
// outside the fix range 20..150"), so it runs only when a plan fails.
func (e *Episode) FaultFixedWith(i int, s SlotID, w uint64) bool {
	f := &e.t.Faults[i]
	row := e.Row()
	old := row[s]
	row[s] = w
	ok := e.eval(e.t.Code[f.Fixed.Start:f.Fixed.End], row, row) != 0
	row[s] = old
	return ok
}
