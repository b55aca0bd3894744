package compiler

import "testing"

// BenchmarkSuiteCertifyFixes is the fixed_when cross-check alone
// (fixcheck.go), uncached: every fault's remedy sweep on one shipped
// incident per iteration, compiled up to the Certify stage. Certification
// as a whole costs this plus BenchmarkSuiteCertify.
func BenchmarkSuiteCertifyFixes(b *testing.B) {
	m := shippedModule(b)
	builds := make([]*build, len(m.Incidents))
	for i, in := range m.Incidents {
		builds[i] = buildUpTo(b, m, in)
		if f := builds[i].checkFixedWhen(); len(f) > 0 {
			b.Fatalf("%s: %s", in.Name, f[0].detail)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		builds[i%len(builds)].checkFixedWhen()
	}
}
