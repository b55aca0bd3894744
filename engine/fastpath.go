package engine

// Fast paths for the commonest update programs. Half the updates a tick
// evaluates are one of a handful of shapes (a counter, a copy, a
// comparison of two slots, a duration in days); running such a program as
// one Go expression saves the machine's per-instruction dispatch. Results
// are the machine's, word for word (TestFastUpdatesMatchTheMachine).

type fastKind uint8

const (
	fastNone      fastKind = iota
	fastLoad               // load A
	fastLoadTrunc          // load A; truncf
	fastPrevAddI           // loadprev A; const K; addi
	fastLtI                // load A; load B; lti
	fastSubIDivF           // load A; load B; subi; itof; const K; divf
	fastMulFTrunc          // load A; const K; mulf; truncf
	fastDivFTrunc          // load A; const K; divf; truncf
)

// fastUpdate is an update's program recognised as one of the shapes.
type fastUpdate struct {
	kind fastKind
	a, b int32
	k    uint64
}

// fastUpdates recognises the shape of every update's program.
func fastUpdates(t *Task) []fastUpdate {
	out := make([]fastUpdate, len(t.Updates))
	for i, u := range t.Updates {
		if u.Code.Start < 0 || int(u.Code.End) > len(t.Code) || u.Code.Start > u.Code.End {
			continue
		}
		out[i] = fastOf(t.Code[u.Code.Start:u.Code.End])
	}
	return out
}

func fastOf(c []Op) fastUpdate {
	is := func(codes ...OpCode) bool {
		if len(c) != len(codes) {
			return false
		}
		for i := range codes {
			if c[i].Code != codes[i] {
				return false
			}
		}
		return true
	}
	switch {
	case is(OpLoad):
		return fastUpdate{kind: fastLoad, a: c[0].A}
	case is(OpLoad, OpTruncF):
		return fastUpdate{kind: fastLoadTrunc, a: c[0].A}
	case is(OpLoadPrev, OpConst, OpAddI):
		return fastUpdate{kind: fastPrevAddI, a: c[0].A, k: c[1].K}
	case is(OpLoad, OpLoad, OpLtI):
		return fastUpdate{kind: fastLtI, a: c[0].A, b: c[1].A}
	case is(OpLoad, OpLoad, OpSubI, OpIntToFloat, OpConst, OpDivF):
		return fastUpdate{kind: fastSubIDivF, a: c[0].A, b: c[1].A, k: c[4].K}
	case is(OpLoad, OpConst, OpMulF, OpTruncF):
		return fastUpdate{kind: fastMulFTrunc, a: c[0].A, k: c[1].K}
	case is(OpLoad, OpConst, OpDivF, OpTruncF):
		return fastUpdate{kind: fastDivFTrunc, a: c[0].A, k: c[1].K}
	}
	return fastUpdate{}
}

// evalUpdate is eval(code, cur, prev) for an update recognised as f.
func (e *Episode) evalUpdate(f *fastUpdate, code []Op, cur, prev []uint64) uint64 {
	switch f.kind {
	case fastLoad:
		return cur[f.a]
	case fastLoadTrunc:
		return uint64(safeInt(w2f(cur[f.a])))
	case fastPrevAddI:
		return uint64(int64(prev[f.a]) + int64(f.k))
	case fastLtI:
		return b2w(int64(cur[f.a]) < int64(cur[f.b]))
	case fastSubIDivF:
		d := w2f(f.k)
		if d == 0 {
			return f2w(0)
		}
		return f2w(float64(int64(cur[f.a])-int64(cur[f.b])) / d)
	case fastMulFTrunc:
		return uint64(safeInt(float64(w2f(cur[f.a]) * w2f(f.k))))
	case fastDivFTrunc:
		d := w2f(f.k)
		if d == 0 {
			return 0 // the machine's divf gives 0, which truncates to 0
		}
		return uint64(safeInt(w2f(cur[f.a]) / d))
	}
	return e.eval(code, cur, prev)
}
