package engine_test

import (
	"encoding/json"
	"testing"

	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/internal/worldtest"
)

var suiteTasks = worldtest.Suite

type boundPlan struct {
	ep *engine.Episode
	// sites holds the expert plan of each site variant, bound; seed s
	// plays sites[s mod len(sites)] (engine.Task.Site).
	sites [][]engine.Action
}

// acts is the bound expert plan of the variant seed plays.
func (p *boundPlan) acts(seed uint64) []engine.Action {
	return p.sites[seed%uint64(len(p.sites))]
}

func boundPlans(tb testing.TB) []boundPlan {
	var out []boundPlan
	for _, tk := range suiteTasks(tb) {
		p := boundPlan{ep: engine.NewEpisode(tk)}
		for k := 0; k < tk.SiteCount(); k++ {
			var acts []engine.Action
			for _, s := range tk.Site(uint64(k)).Expert {
				acts = append(acts, bind(tb, tk, s))
			}
			p.sites = append(p.sites, acts)
		}
		out = append(out, p)
	}
	return out
}

// TestSuiteStepDoesNotAllocate: Reset, every step of every shipped expert
// plan on every site variant (resolution and grading included) and text
// rendering allocate nothing once buffers are warm.
func TestSuiteStepDoesNotAllocate(t *testing.T) {
	var buf []byte
	for _, p := range boundPlans(t) {
		for site := range p.sites {
			// Seed site+5*len(sites) plays variant site with noise other
			// than the warm-up's own seed would draw.
			seed := uint64(site + 5*len(p.sites))
			acts := p.acts(seed)
			allocs := testing.AllocsPerRun(20, func() {
				p.ep.Reset(seed)
				for i := range acts {
					r := p.ep.Step(&acts[i])
					buf = p.ep.AppendText(buf[:0], &r.Obs)
				}
			})
			if allocs != 0 {
				t.Errorf("%s, site %d: %v allocations per episode", p.ep.Task().ID, site, allocs)
			}
		}
	}
}

// warmUp plays every plan once on each of its site variants, so that what
// a task or an episode builds at its first resolution (the diagnosis
// lexicon, the look-ahead's rows and mask) is built before timing starts:
// the benchmarks measure the steady state every later episode runs in.
func warmUp(plans []boundPlan) {
	for i := range plans {
		p := &plans[i]
		for k := range p.sites {
			p.ep.Reset(uint64(k))
			acts := p.acts(uint64(k))
			for j := range acts {
				p.ep.Step(&acts[j])
			}
		}
	}
}

// BenchmarkSuiteStep plays the scripted trajectories of the whole shipped
// suite: structured observations, no rendering.
func BenchmarkSuiteStep(b *testing.B) {
	plans := boundPlans(b)
	warmUp(plans)
	b.ReportAllocs()
	b.ResetTimer()
	steps := 0
	for n := 0; steps < b.N; n++ {
		p := &plans[n%len(plans)]
		p.ep.Reset(uint64(n))
		acts := p.acts(uint64(n))
		for j := range acts {
			p.ep.Step(&acts[j])
		}
		steps += len(acts)
	}
	b.ReportMetric(float64(steps)/b.Elapsed().Seconds(), "steps/s")
}

// BenchmarkSuiteRender renders, as agent text, every read of every service
// of every shipped incident.
func BenchmarkSuiteRender(b *testing.B) {
	type rendered struct {
		ep  *engine.Episode
		obs engine.Observation
	}
	var all []rendered
	for _, tk := range suiteTasks(b) {
		ep := engine.NewEpisode(tk)
		ep.Reset(1)
		for _, text := range readActions(tk) {
			f := ep.Fork()
			a := bind(b, tk, text)
			all = append(all, rendered{f, f.Step(&a).Obs})
		}
	}
	var buf []byte
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r := &all[i%len(all)]
		buf = r.ep.AppendText(buf[:0], &r.obs)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "obs/s")
}

func BenchmarkSuiteReset(b *testing.B) {
	plans := boundPlans(b)
	warmUp(plans)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		plans[i%len(plans)].ep.Reset(uint64(i))
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "resets/s")
}

// TestJSONObservations renders every read of every service, and every
// write, escalation and invalid action, of every shipped incident as JSON:
// each must be valid, carry the same text as the text renderer, and
// allocate nothing once warm.
func TestJSONObservations(t *testing.T) {
	for _, tk := range suiteTasks(t) {
		ep := engine.NewEpisode(tk)
		ep.Reset(3)
		acts := append(readActions(tk), "inspect_config(database, pool_size)", "restart_service(cache)", "update_config(web_server, cache_host, \"x\")", "nosuch()", `escalate("help")`)
		var buf, text []byte
		for _, s := range acts {
			f := ep.Fork()
			a := bind(t, tk, s)
			r := f.Step(&a)
			buf = f.AppendJSON(buf[:0], &r.Obs)
			var v struct {
				Text    string          `json:"text"`
				Content json.RawMessage `json:"content"`
				Error   string          `json:"error"`
			}
			if err := json.Unmarshal(buf, &v); err != nil {
				t.Fatalf("%s %s: invalid JSON %v:\n%s", tk.ID, s, err, buf)
			}
			text = f.AppendText(text[:0], &r.Obs)
			if v.Text != string(text) {
				t.Errorf("%s %s: JSON text differs from the text renderer", tk.ID, s)
			}
			if v.Error == "" && len(v.Content) == 0 {
				t.Errorf("%s %s: no content:\n%s", tk.ID, s, buf)
			}
			if allocs := testing.AllocsPerRun(20, func() { buf = f.AppendJSON(buf[:0], &r.Obs) }); allocs != 0 {
				t.Errorf("%s %s: AppendJSON allocates %v times", tk.ID, s, allocs)
			}
		}
	}
}
