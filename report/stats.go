package report

import (
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"
)

// Confidence is the coverage of every interval in the report.
const Confidence = 0.95

// Interval is a percentile-bootstrap confidence interval around a point
// estimate.
type Interval struct {
	Value float64 `json:"value"`
	Low   float64 `json:"low"`
	High  float64 `json:"high"`
}

// bootstrap resamples clusters (tasks) with replacement: each of samples
// draws len(clusters) cluster indices and hands them to stat, which
// returns one value per statistic. It returns, per statistic, the
// percentile interval around point.
//
// The generator is PCG seeded with (seed, FNV-64a of label), so each
// statistic has its own reproducible stream: adding a model to a report
// does not move another model's interval.
func bootstrap(label string, seed uint64, samples, clusters int, point []float64, stat func(draw []int) []float64) []Interval {
	out := make([]Interval, len(point))
	for i, p := range point {
		out[i] = Interval{Value: round6(p), Low: round6(p), High: round6(p)}
	}
	if clusters == 0 || samples < 1 {
		return out
	}
	h := fnv.New64a()
	h.Write([]byte(label))
	rng := rand.New(rand.NewPCG(seed, h.Sum64()))
	values := make([][]float64, len(point))
	for i := range values {
		values[i] = make([]float64, 0, samples)
	}
	draw := make([]int, clusters)
	for range samples {
		for j := range draw {
			draw[j] = rng.IntN(clusters)
		}
		for i, v := range stat(draw) {
			values[i] = append(values[i], v)
		}
	}
	alpha := (1 - Confidence) / 2
	for i := range out {
		slices.Sort(values[i])
		out[i].Low = round6(quantile(values[i], alpha))
		out[i].High = round6(quantile(values[i], 1-alpha))
	}
	return out
}

// quantile is the p-quantile of sorted xs by linear interpolation between
// order statistics (Hyndman and Fan's type 7, R's default). The explicit
// float64 conversion keeps arm64 from fusing the multiply-add, so every
// platform gets the same bits.
func quantile(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	h := float64(len(xs)-1) * p
	lo := int(math.Floor(h))
	if lo >= len(xs)-1 {
		return xs[len(xs)-1]
	}
	frac := h - float64(lo)
	return xs[lo] + float64(frac*(xs[lo+1]-xs[lo]))
}

// passHatK is tau-bench's pass^k for one task: the probability that k
// episodes drawn without replacement from its n all succeed, C(c,k)/C(n,k),
// computed as a product so it cannot overflow. It needs k ≤ n.
func passHatK(n, c, k int) float64 {
	p := 1.0
	for i := range k {
		p *= float64(c-i) / float64(n-i)
	}
	return math.Max(0, p)
}

// round6 rounds to 6 decimals, as record.Metrics prints: enough for any
// rate and marks, and the same digits whatever the order of summation.
func round6(f float64) float64 {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return f
	}
	return math.Round(f*1e6) / 1e6
}

// Distribution summarises per-episode values (quantiles as quantile
// computes them).
type Distribution struct {
	Mean   float64 `json:"mean"`
	Median float64 `json:"median"`
	P95    float64 `json:"p95"`
}

func distribution(xs []float64) Distribution {
	if len(xs) == 0 {
		return Distribution{}
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	sum := 0.0
	for _, x := range s {
		sum += x
	}
	return Distribution{Mean: round6(sum / float64(len(s))), Median: round6(quantile(s, 0.5)), P95: round6(quantile(s, 0.95))}
}
