package engine_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/srezc/srezc/engine"
)

// TestIncrementalTicksMatchFullTicks plays random valid and invalid actions
// on every shipped incident with incremental ticks and with full ones, and
// requires identical rows, observations and rewards at every step, through
// forks and grading.
func TestIncrementalTicksMatchFullTicks(t *testing.T) {
	for _, tk := range suiteTasks(t) {
		reads := readActions(tk)
		writes := []string{}
		for _, s := range tk.Services {
			writes = append(writes, "restart_service("+s.Name+")")
		}
		writes = append(writes, tk.Expert...)
		for seed := uint64(1); seed <= 30; seed++ {
			rng := rand.New(rand.NewPCG(seed, 9))
			inc, full := engine.NewEpisode(tk), engine.NewEpisode(tk)
			full.SetIncremental(false)
			inc.Reset(seed)
			full.Reset(seed)
			for step := 0; !inc.Done(); step++ {
				var text string
				if rng.IntN(3) == 0 {
					text = writes[rng.IntN(len(writes))]
				} else {
					text = reads[rng.IntN(len(reads))]
				}
				if rng.IntN(8) == 0 {
					inc.Advance()
					full.Advance()
				}
				a := bind(t, tk, text)
				ri, rf := inc.Step(&a), full.Step(&a)
				oi, of := inc.AppendText(nil, &ri.Obs), full.AppendText(nil, &rf.Obs)
				if !slices.Equal(inc.History(), full.History()) || string(oi) != string(of) || ri.Reward != rf.Reward {
					t.Fatalf("%s seed %d step %d (%s): incremental and full ticks differ\n%s\n%s", tk.ID, seed, step, text, oi, of)
				}
				if rng.IntN(5) == 0 {
					fi, ff := inc.Fork(), full.Fork()
					for k := 0; k < 3; k++ {
						fi.Advance()
						ff.Advance()
					}
					if !slices.Equal(fi.History(), ff.History()) {
						t.Fatalf("%s seed %d step %d: forks differ", tk.ID, seed, step)
					}
				}
			}
			if inc.Record() != full.Record() {
				t.Fatalf("%s seed %d: records differ:\n%+v\n%+v", tk.ID, seed, inc.Record(), full.Record())
			}
		}
	}
}
