package certify_test

import (
	"testing"

	"github.com/srezc/srezc/certify"
)

// BenchmarkSuiteCertifyFixes is the fixed_when cross-check alone
// (fixcheck.go), uncached: every fault's remedy sweep on one shipped
// incident per iteration, compiled up to the Certify stage. Certification
// as a whole costs this plus BenchmarkSuiteCertify.
func BenchmarkSuiteCertifyFixes(b *testing.B) {
	m := shippedModule(b)
	incs := make([]certify.Incident, len(m.Incidents))
	for i, in := range m.Incidents {
		incs[i] = prepared(b, m, in)
		if f := certify.CheckFixedWhen(incs[i]); len(f) > 0 {
			b.Fatalf("%s: %s", in.Name, f[0])
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		certify.CheckFixedWhen(incs[i%len(incs)])
	}
}

// A disagreement of a stdlib fault kind is reported at the incident's
// fault block, which its author can edit (a fault kind of the author's own
// is reported at its fixed_when: testdata/certify/fixed_when_disagrees).
func TestStdlibDisagreementAtFaultBlock(t *testing.T) {
	m := shippedModule(t)
	for _, in := range m.Incidents {
		if in.Name != "db_pool" {
			continue
		}
		r := certify.FixedWhenRange(prepared(t, m, in), 0)
		if r != in.Faults[0].DefRange {
			t.Errorf("db_pool's stdlib fault is reported at %s:%d, want its fault block %s:%d", r.Filename, r.Start.Line, in.Faults[0].DefRange.Filename, in.Faults[0].DefRange.Start.Line)
		}
		return
	}
	t.Fatal("no db_pool incident")
}
