package eval_test

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/srezc/srezc/action"
	"github.com/srezc/srezc/engine"
)

// TestRecoveryIncidents checks what the tag "recovery" promises. The
// archive's recovered.actions makes the tempting fix (its first write), later
// undoes it and succeeds (TestGoldenTraces checks that). Here: the tempting
// write makes things worse, measured independently of any text, as the
// error rate users see (the edge's, the first service's) a few ticks later,
// against the same reads without the write. Not the worst of any service:
// a backlog at its x-max-length rejects publishes, and more consumers
// shrink that while the site they overload gets worse.
func TestRecoveryIncidents(t *testing.T) {
	found := 0
	for _, tk := range suite(t) {
		if !slices.Contains(tk.Tags, "recovery") {
			continue
		}
		found++
		t.Run(tk.ID, func(t *testing.T) {
			plan := archivedPlans(t, tk)["recovered"]
			first := slices.IndexFunc(plan, func(a string) bool {
				return strings.HasPrefix(a, "update_config(") || strings.HasPrefix(a, "restart_service(")
			})
			if first < 0 {
				t.Fatal("recovered.actions makes no write")
			}
			wait := slices.Repeat([]string{"check_status(" + tk.Services[0].Name + ")"}, 4)
			before := edgeErrorRate(t, tk, append(slices.Clone(plan[:first]), wait...))
			after := edgeErrorRate(t, tk, append(slices.Clone(plan[:first+1]), wait...))
			if after <= before {
				t.Errorf("the tempting %s does not make things worse: the edge's error rate %.3f, %.3f without it", plan[first], after, before)
			}
		})
	}
	if found < 2 {
		t.Errorf("%d shipped incidents are tagged recovery, want at least 2", found)
	}
}

func edgeErrorRate(t *testing.T, tk *engine.Task, actions []string) float64 {
	t.Helper()
	ep := engine.NewEpisode(tk)
	ep.Reset(1)
	for _, text := range actions {
		a := action.Bind(tk, text)
		if a.Err != engine.OK {
			t.Fatalf("%s does not bind", text)
		}
		ep.Step(&a)
	}
	row := ep.Row()
	edge := tk.Services[0]
	if edge.ErrorRate == engine.NoSlot {
		t.Fatalf("%s, the edge, has no error rate", edge.Name)
	}
	return math.Float64frombits(row[edge.ErrorRate])
}
