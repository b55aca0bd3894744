package engine_test

import (
	"encoding/json"
	"maps"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/srezc/srezc/engine"
)

// quiet is tk with every site variant's noise off.
func quiet(tk *engine.Task) *engine.Task {
	q := *tk
	q.Noise = nil
	q.Sites = nil
	for _, s := range tk.Sites {
		c := *s
		c.Noise = nil
		q.Sites = append(q.Sites, &c)
	}
	return &q
}

type metricsContent struct {
	Content struct {
		Metrics []struct {
			Name     string     `json:"name"`
			Baseline *float64   `json:"baseline"`
			Values   []*float64 `json:"values"`
		} `json:"metrics"`
	} `json:"content"`
}

func metricsJSON(t *testing.T, tk *engine.Task, ep *engine.Episode, svc string) metricsContent {
	t.Helper()
	f := ep.Fork()
	a := bind(t, tk, "inspect_metrics("+svc+")")
	r := f.Step(&a)
	var mc metricsContent
	if err := json.Unmarshal(f.AppendJSON(nil, &r.Obs), &mc); err != nil {
		t.Fatal(err)
	}
	return mc
}

// noiseBounds are how far noise may move a metric of class c from its real
// value v (relative), given the task's patterns on service svc: jitter's
// amplitude (a tenth on slow gauges), and a latency's largest spike.
func noiseBounds(tk *engine.Task, svc int16, sl *engine.Slot) (down, up float64, lag int) {
	down, up = 1, 1
	for _, n := range tk.Noise {
		if n.Service >= 0 && n.Service != svc {
			continue
		}
		switch n.Effect {
		case engine.NoiseJitter:
			amp := n.Magnitude
			if sl.Noise == engine.MetricNoiseSlow {
				amp /= 10
			}
			if sl.Noise != engine.MetricNoiseNone {
				down, up = down*(1-amp), up*(1+amp)
			}
		case engine.NoiseSpike:
			if sl.Noise == engine.MetricNoiseFast && sl.Unit == "ms" && n.Magnitude > 1 {
				up *= n.Magnitude
			}
		case engine.NoiseStale:
			lag += int(n.Lag)
		}
	}
	return down, up, lag
}

// TestNoiseKeepsMetricsWithinBounds is the property: on every tick a read
// shows, along the expert plan of every shipped incident on every site
// variant, a metric read with noise lies within what noise may do to its
// real value (read with noise off): a value the system knows exactly is
// exact, a slow gauge moves by a tenth of the jitter, only latencies
// spike and by at most the pattern's magnitude, and nothing leaves its
// natural range (no negative rate, no share above 1, no percentage above
// 100). It also checks that the noise shown is really there: some
// incident shows a spike, and no spike in the suite is more than 50%.
func TestNoiseKeepsMetricsWithinBounds(t *testing.T) {
	_, tasks := shipped(t)
	ids := make([]string, 0, len(tasks))
	for id := range tasks {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	checked, moved := 0, 0
	for _, id := range ids {
		tk := tasks[id]
		qt := quiet(tk)
		for seed := uint64(0); seed < uint64(tk.SiteCount())+2; seed++ {
			noisy, real := engine.NewEpisode(tk), engine.NewEpisode(qt)
			noisy.Reset(seed)
			real.Reset(seed)
			plan := append([]string{""}, tk.Site(seed).Expert...)
			for _, act := range plan {
				if act != "" {
					if b := bind(t, tk, act); tk.Tools[b.Tool].Effect == engine.EffectResolve || tk.Tools[b.Tool].Effect == engine.EffectEscalate {
						break
					}
					noisy.Step(ptr(bind(t, tk, act)))
					real.Step(ptr(bind(t, qt, act)))
				}
				for si, s := range tk.Services {
					got, want := metricsJSON(t, tk, noisy, s.Name), metricsJSON(t, qt, real, s.Name)
					for mi, m := range got.Content.Metrics {
						sl := &tk.Slots[s.Metrics[mi]]
						down, up, lag := noiseBounds(tk, int16(si), sl)
						slack := 1.0
						if sl.Precision > 0 {
							slack = math.Pow(10, -float64(sl.Precision))
						}
						for j, v := range m.Values {
							if v == nil || j < lag {
								continue
							}
							w := want.Content.Metrics[mi].Values[j-lag]
							if w == nil {
								continue
							}
							checked++
							lo, hi := math.Min(*w*down, *w*up), math.Max(*w*down, *w*up)
							if *v != *w {
								moved++
							}
							where := func() string {
								return id + " seed " + strconv.FormatUint(seed, 10) + " after " + strings.TrimSpace(act) + ": " + s.Name + "." + m.Name
							}
							switch {
							case *v < lo-slack || *v > hi+slack:
								t.Errorf("%s: shows %g at point %d, real %g; noise may move it only within [%g, %g]", where(), *v, j, *w, lo, hi)
							case *w >= 0 && *v < 0, sl.Unit == "ratio" && *w <= 1 && *v > 1, sl.Unit == "%" && *w <= 100 && *v > 100:
								t.Errorf("%s: shows %g at point %d (real %g), outside its natural range", where(), *v, j, *w)
							}
						}
					}
				}
			}
		}
	}
	if checked == 0 || moved == 0 {
		t.Fatalf("checked %d points, noise moved %d: the property tested nothing", checked, moved)
	}
	t.Logf("%d metric points checked, %d moved by noise", checked, moved)
}

func ptr[T any](v T) *T { return &v }

// TestMetricsShowHistoryWithBaseline: the first metrics read of every
// shipped incident shows 12 points and a baseline per metric, and reaches
// back before the faults began: its oldest point, noise off, is the
// baseline on every metric of every service.
func TestMetricsShowHistoryWithBaseline(t *testing.T) {
	_, tasks := shipped(t)
	for id, tk := range tasks {
		qt := quiet(tk)
		ep := engine.NewEpisode(qt)
		ep.Reset(1)
		for _, s := range tk.Services {
			mc := metricsJSON(t, qt, ep, s.Name)
			for _, m := range mc.Content.Metrics {
				if len(m.Values) != engine.MetricWindow || m.Baseline == nil {
					t.Fatalf("%s %s.%s: %d points, baseline %v; want %d and a baseline", id, s.Name, m.Name, len(m.Values), m.Baseline, engine.MetricWindow)
				}
				if m.Values[0] == nil || *m.Values[0] != *m.Baseline {
					t.Errorf("%s %s.%s: oldest point %v, baseline %g: the window does not reach back before the fault", id, s.Name, m.Name, m.Values[0], *m.Baseline)
				}
			}
		}
	}
}

// noiseLines are the noise log lines of a logs read (the lines a quiet
// twin of the episode does not show), with digits masked.
func noiseLines(t *testing.T, tk, qt *engine.Task, ep, qep *engine.Episode, svc string) []string {
	t.Helper()
	mask := func(text string) map[string]int {
		out := map[string]int{}
		for _, l := range strings.Split(text, "\n") {
			if strings.HasPrefix(l, "  t=") {
				_, rest, _ := strings.Cut(l[4:], " ") // the tick
				_, rest, _ = strings.Cut(rest, " ")   // the time
				out[digitTokens.ReplaceAllString(rest, "#")]++
			}
		}
		return out
	}
	quietLines := mask(observe(t, qt, qep, "inspect_logs("+svc+")"))
	var out []string
	for l, n := range mask(observe(t, tk, ep, "inspect_logs("+svc+")")) {
		if n > quietLines[l] {
			out = append(out, l)
		}
	}
	sort.Strings(out)
	return out
}

// TestNoiseLinesStayAfterTheFix: noise is drawn from the seed and the
// tick, never the state, so the noise lines a service prints over a run of
// ticks before the fix are, as a set, the ones it prints over as many
// ticks after it: a noise line does not vanish with the fault. Checked on
// every shipped incident the expert fixes, over 24 ticks each side.
func TestNoiseLinesStayAfterTheFix(t *testing.T) {
	_, tasks := shipped(t)
	for id, tk := range tasks {
		if tk.OutOfReach() {
			continue
		}
		qt := quiet(tk)
		collect := func(ep, qep *engine.Episode) map[string]bool {
			seen := map[string]bool{}
			for i := 0; i < 24; i++ {
				for _, s := range tk.Services {
					for _, l := range noiseLines(t, tk, qt, ep, qep, s.Name) {
						seen[s.Name+": "+l] = true
					}
				}
				ep.Advance()
				qep.Advance()
			}
			return seen
		}
		sick, qsick := engine.NewEpisode(tk), engine.NewEpisode(qt)
		sick.Reset(1)
		qsick.Reset(1)
		before := collect(sick, qsick)
		fixed, qfixed := engine.NewEpisode(tk), engine.NewEpisode(qt)
		fixed.Reset(1)
		qfixed.Reset(1)
		for _, a := range tk.Expert {
			b := bind(t, tk, a)
			if e := tk.Tools[b.Tool].Effect; e == engine.EffectUpdate || e == engine.EffectRestart || e == engine.EffectRollback || e == engine.EffectOperate {
				step(t, tk, fixed, a)
				step(t, qt, qfixed, a)
			}
		}
		after := collect(fixed, qfixed)
		for l := range before {
			if !after[l] {
				t.Errorf("%s: noise line gone after the fix: %s", id, l)
			}
		}
		if len(before) == 0 {
			t.Errorf("%s: no noise line in 24 ticks", id)
		}
	}
}

// TestJitterKeepsRelationsAmongMetrics is the property that jitter, drawn
// per service and unit, keeps what a real exporter's counters keep: on
// every read along the expert plan of every shipped incident and site
// variant, a load balancer's refused, timed-out and other 5xx shares add
// up to its 5xx share and stay under its failed share, and a web tier's
// 504 share stays under its 5xx share (to the rounding shown). A share is
// never shown above 1, so where jitter would lift the largest past 1 the
// sum is not checked.
func TestJitterKeepsRelationsAmongMetrics(t *testing.T) {
	_, tasks := shipped(t)
	checked := 0
	for _, id := range slices.Sorted(maps.Keys(tasks)) {
		tk := tasks[id]
		for seed := uint64(0); seed < uint64(tk.SiteCount()); seed++ {
			ep := engine.NewEpisode(tk)
			ep.Reset(seed)
			plan := append([]string{""}, tk.Site(seed).Expert...)
			for _, act := range plan {
				if act != "" {
					b := bind(t, tk, act)
					if e := tk.Tools[b.Tool].Effect; e == engine.EffectResolve || e == engine.EffectEscalate {
						break
					}
					ep.Step(&b)
				}
				for _, s := range tk.Services {
					mc := metricsJSON(t, tk, ep, s.Name)
					shown := map[string]float64{}
					for _, m := range mc.Content.Metrics {
						if n := len(m.Values); n > 0 && m.Values[n-1] != nil {
							shown[m.Name] = *m.Values[n-1]
						}
					}
					where := id + " seed " + strconv.FormatUint(seed, 10) + " after " + strings.TrimSpace(act) + ": " + s.Name
					if all, ok := shown["http_5xx_rate"]; ok {
						parts := shown["refused_503_rate"] + shown["timeout_504_rate"] + shown["other_5xx_rate"]
						if all < 0.95 && math.Abs(parts-all) > 0.002 {
							t.Errorf("%s: refused + timed out + other 5xx = %g, http_5xx_rate %g", where, parts, all)
						}
						if failed := shown["client_error_rate"]; all > failed+0.001 {
							t.Errorf("%s: http_5xx_rate %g above client_error_rate %g", where, all, failed)
						}
						checked++
					}
					if e504, ok := shown["error_rate_504"]; ok {
						if e5 := shown["error_rate_5xx"]; e504 > e5+0.001 {
							t.Errorf("%s: error_rate_504 %g above error_rate_5xx %g", where, e504, e5)
						}
						checked++
					}
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no read showed a 5xx split: the property tested nothing")
	}
	t.Logf("%d reads checked", checked)
}
