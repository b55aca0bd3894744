package compiler

import (
	"slices"
	"testing"
)

// BenchmarkSuiteCertify is certification alone, the figure DESIGN.md
// targets (≤ 2 ms): every rule (derived evidence, diagnosability and the
// informed optimum, the expert, the exploit panel, reachability, the leak
// lint) on one shipped incident per iteration, already compiled up to the
// Certify stage, without the cache.
func BenchmarkSuiteCertify(b *testing.B) {
	m := shippedModule(b)
	builds := make([]*build, len(m.Incidents))
	want := make([]certResult, len(m.Incidents))
	for i, in := range m.Incidents {
		builds[i] = buildUpTo(b, m, in)
		want[i] = builds[i].certifyAfresh()
	}
	// A build certifies again to the same result: the loop measures
	// real work, not a shortcut taken the second time.
	for i, bd := range builds {
		if got := bd.certifyAfresh(); got.optimal != want[i].optimal || !slices.Equal(got.failures, want[i].failures) || !slices.Equal(got.plan, want[i].plan) {
			b.Fatalf("%s: certifying twice differs", bd.in.Name)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		builds[i%len(builds)].certifyAfresh()
	}
}
