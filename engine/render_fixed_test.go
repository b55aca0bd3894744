package engine

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// TestAppendFixedMatchesStrconv: the fast fixed-point writer prints what
// strconv prints, on values drawn across magnitudes, on exact and near
// halves, on values just below a carry and on the ones it leaves to
// strconv.
func TestAppendFixedMatchesStrconv(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var vals []float64
	for range 200000 {
		vals = append(vals, r.Float64()*math.Pow(10, float64(r.IntN(14)-4)))
	}
	for _, base := range []float64{0, 0.5, 1.5, 2.5, 0.125, 0.375, 1.005, 2.675, 9.995, 99.5, 0.05, 0.15, 0.25, 0.35, 1e12, 1 << 40, 1<<53 + 1} {
		for _, d := range []float64{0, 1e-17, 1e-12, 1e-9, 1e-6} {
			vals = append(vals, base+d, base-d, math.Nextafter(base, 0), math.Nextafter(base, 10))
		}
	}
	vals = append(vals, -0.0, math.Copysign(0, -1), -1.25, -0.001, math.NaN(), math.Inf(1), math.Inf(-1), 0.9999999, 0.99999999999, 9.9999999999)
	for _, v := range vals {
		for digits := 0; digits <= 8; digits++ {
			want := strconv.AppendFloat(nil, v, 'f', digits, 64)
			if got := appendFixed(nil, v, digits); string(got) != string(want) {
				t.Fatalf("appendFixed(%v, %d) = %q, strconv prints %q", v, digits, got, want)
			}
		}
	}
}

func FuzzAppendFixed(f *testing.F) {
	f.Add(2.675, 2)
	f.Add(0.5, 0)
	f.Fuzz(func(t *testing.T, v float64, digits int) {
		digits = int(uint(digits) % 10)
		want := strconv.AppendFloat(nil, v, 'f', digits, 64)
		if got := appendFixed([]byte("x"), v, digits); string(got[1:]) != string(want) {
			t.Fatalf("appendFixed(%v, %d) = %q, strconv prints %q", v, digits, got[1:], want)
		}
	})
}

func BenchmarkAppendFixed(b *testing.B) {
	buf := make([]byte, 0, 64)
	for i := 0; i < b.N; i++ {
		buf = appendFixed(buf[:0], float64(i%100000)*0.0137, 2)
	}
}
