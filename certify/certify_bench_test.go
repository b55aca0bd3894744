package certify_test

import (
	"slices"
	"testing"

	"github.com/srezc/srezc/agents"
	"github.com/srezc/srezc/certify"
)

// BenchmarkSuiteCertify is certification alone, the figure DESIGN.md
// targets (≤ 2 ms): every rule (derived evidence, diagnosability and the
// informed optimum, the expert, the exploit panel, reachability, the leak
// lint) on one shipped incident per iteration, already compiled up to the
// Certify stage, without the cache.
func BenchmarkSuiteCertify(b *testing.B) {
	m := shippedModule(b)
	incs := make([]certify.Incident, len(m.Incidents))
	want := make([]certify.Result, len(m.Incidents))
	for i, in := range m.Incidents {
		incs[i] = prepared(b, m, in)
		want[i] = certify.Afresh(incs[i], false)
	}
	// An incident certifies again to the same result: the loop measures
	// real work, not a shortcut taken the second time.
	for i, inc := range incs {
		if got := certify.Afresh(inc, false); got.Optimal() != want[i].Optimal() || !slices.Equal(got.Findings(), want[i].Findings()) || !slices.Equal(got.Plan(), want[i].Plan()) {
			b.Fatalf("%s: certifying twice differs", m.Incidents[i].Name)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		certify.Afresh(incs[i%len(incs)], false)
	}
}

// BenchmarkAdaptivePanel is the adaptive panel as certification plays it
// (every policy, every site variant, seeds 1..AdaptiveSeeds, stopping at a
// policy's first win) on one shipped incident per iteration. The per-op
// time is one incident's share of `srezc validate`.
func BenchmarkAdaptivePanel(b *testing.B) {
	m := shippedModule(b)
	tasks := suiteTasks(b)
	k := certify.Knowledge(m)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		certify.PlayAdversaries(tasks[i%len(tasks)], k, false)
	}
}

// BenchmarkAdaptiveEpisodeInFull is the same panel without the replay
// shortcut: every episode played by the agent from its observations, as
// evaluation plays it, for comparison.
func BenchmarkAdaptiveEpisodeInFull(b *testing.B) {
	m := shippedModule(b)
	tasks := suiteTasks(b)
	k := certify.Knowledge(m)
	advs := agents.Adversaries(k)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		tk := tasks[i%len(tasks)]
		for site := 0; site < tk.SiteCount(); site++ {
			v := *tk
			if site > 0 {
				v = *tk.Sites[site-1]
			}
			v.Sites = nil
			for _, adv := range advs {
				for seed := uint64(1); seed <= certify.AdaptiveSeeds; seed++ {
					playInFull(&v, adv.New(), seed)
				}
			}
		}
	}
}
