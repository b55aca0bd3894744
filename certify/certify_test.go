package certify_test

import (
	"strings"
	"testing"

	"github.com/srezc/srezc/certify"
	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/record"
)

func TestShippedIncidentsCertify(t *testing.T) {
	for _, tk := range suiteTasks(t) {
		if !tk.Certified || len(tk.Uncertified) != 0 {
			t.Errorf("%s: not certified: %v", tk.ID, tk.Uncertified)
		}
		c := certify.Certify(tk)
		if len(c.Panel) < 10 {
			t.Errorf("%s: the panel played only %d policies", tk.ID, len(c.Panel))
		}
		if c.Closest == "" {
			t.Errorf("%s: no closest exploit reported", tk.ID)
		}
	}
}

// TestPanelBeatsWeakWorld: the test world's store has a single config key,
// so setting it to its band maximum or to its default is the fix; the panel
// must catch both, and nothing else.
func TestPanelBeatsWeakWorld(t *testing.T) {
	c := certify.Certify(world(t)["pool"])
	want := []string{`"every key of store to its band maximum" succeeds`, `"every key of store to its default" succeeds`}
	if len(c.Failures) != len(want) {
		t.Fatalf("failures = %q, want exactly %q", c.Failures, want)
	}
	for i, w := range want {
		if !strings.Contains(c.Failures[i], w) {
			t.Errorf("failure %d = %q, want it to say %s", i, c.Failures[i], w)
		}
	}
}

// TestCertificationIsSeedFree checks the premise that lets certification
// play each policy once per site variant: outcomes do not depend on the
// seed beyond the variant it picks, since it draws only rendering noise
// within a variant (each variant, a task of its own, is certified apart).
func TestCertificationIsSeedFree(t *testing.T) {
	for _, parent := range suiteTasks(t) {
		tk := parent.Site(1)
		c := certify.Certify(tk)
		plans := [][]string{tk.Expert}
		for _, p := range c.Panel {
			plans = append(plans, p.Plan)
		}
		// A budget no plan reaches, so each plays whole; not far above
		// that, since an episode's buffers grow with its budget.
		open := *tk
		open.Budget = tk.Budget
		for _, p := range plans {
			open.Budget = max(open.Budget, len(p)+1)
		}
		for _, plan := range plans {
			// Bound once, played on every seed.
			acts := make([]engine.Action, len(plan))
			for i, text := range plan {
				acts[i] = bind(t, &open, text)
			}
			var first record.EpisodeMetrics
			for seed := uint64(1); seed <= 8; seed++ {
				ep := engine.NewEpisode(&open)
				ep.Reset(seed)
				for i := range acts {
					a := acts[i]
					ep.Step(&a)
				}
				if seed == 1 {
					first = ep.Record()
				} else if ep.Record() != first {
					t.Fatalf("%s: %v: seed %d gives %+v, seed 1 %+v", tk.ID, plan, seed, ep.Record(), first)
				}
			}
		}
	}
}
