package engine_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/srezc/srezc/engine"
)

// TestFastUpdatesMatchTheMachine: every update program of every shipped
// incident that a fast path recognises gives the machine's word, on the
// rows testRows makes.
func TestFastUpdatesMatchTheMachine(t *testing.T) {
	matchTheMachine(t, engine.FastMismatch, "no update of the suite has a fast path")
}

// TestFusedUpdatesMatchTheMachine: every update program of every shipped
// incident, with its instructions fused as episodes run it, gives the
// compiled program's word on the same rows.
func TestFusedUpdatesMatchTheMachine(t *testing.T) {
	matchTheMachine(t, engine.FusedMismatch, "no update of the suite has a fused instruction")
}

// matchTheMachine runs mismatch, which reports how many updates it covers
// and the first difference from the machine, on every shipped incident's
// rows; it fails on a difference, or when nothing was covered (none).
func matchTheMachine(t *testing.T, mismatch func(tk *engine.Task, row, prev []uint64) (int, string), none string) {
	t.Helper()
	rng := rand.New(rand.NewPCG(3, 5))
	covered := 0
	for _, p := range boundPlans(t) {
		tk := p.ep.Task()
		rows := testRows(p, rng)
		for i := 1; i < len(rows); i++ {
			n, diff := mismatch(tk, rows[i], rows[i-1])
			if diff != "" {
				t.Fatalf("%s row %d: %s", tk.ID, i, diff)
			}
			covered = max(covered, n)
		}
	}
	if covered == 0 {
		t.Fatal(none + ": the test checks nothing")
	}
}

// testRows are the rows of the expert's episode of seed 1 and rows of
// random and extreme words (zero, negative, NaN and infinite floats, huge
// ints).
func testRows(p boundPlan, rng *rand.Rand) [][]uint64 {
	extremes := []uint64{0, 1, math.MaxUint64, 1 << 63, math.Float64bits(0), math.Float64bits(-1.5), math.Float64bits(math.NaN()), math.Float64bits(math.Inf(1)), math.Float64bits(math.Inf(-1)), math.Float64bits(1e300), math.Float64bits(-2.5e19)}
	tk := p.ep.Task()
	p.ep.Reset(1)
	rows := [][]uint64{append([]uint64(nil), p.ep.Row()...)}
	for _, a := range p.acts(1) {
		p.ep.Step(&a)
		rows = append(rows, append([]uint64(nil), p.ep.Row()...))
	}
	for k := 0; k < 20; k++ {
		r := make([]uint64, len(tk.Slots))
		for i := range r {
			switch rng.IntN(3) {
			case 0:
				r[i] = extremes[rng.IntN(len(extremes))]
			case 1:
				r[i] = math.Float64bits(rng.NormFloat64() * 1e4)
			default:
				r[i] = uint64(rng.Int64N(1<<20) - 1<<19)
			}
		}
		rows = append(rows, r)
	}
	return rows
}
