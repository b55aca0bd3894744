package engine_test

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/srezc/srezc/compiler"
	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/internal/worldtest"
	"github.com/srezc/srezc/lang"
)

// The engine's tests play compiled worlds.
var (
	world = worldtest.World
	bind  = worldtest.Bind
)

// play runs text actions and returns the episode and its rendered text.
func play(t testing.TB, tk *engine.Task, seed uint64, actions ...string) (*engine.Episode, string) {
	t.Helper()
	ep := engine.NewEpisode(tk)
	ep.Reset(seed)
	var out []byte
	for _, s := range actions {
		a := bind(t, tk, s)
		r := ep.Step(&a)
		out = ep.AppendText(out, &r.Obs)
	}
	return ep, string(out)
}

func TestExpertPlansSucceed(t *testing.T) {
	for id, tk := range world(t) {
		ep, text := play(t, tk, 1, tk.Expert...)
		r := ep.Record()
		if !r.Success || r.Terminal != "resolved" {
			t.Errorf("%s: expert did not succeed: %+v\n%s", id, r, text)
		}
		if r.EvidenceCoverage != 1 {
			t.Errorf("%s: expert evidence coverage %v, want 1", id, r.EvidenceCoverage)
		}
	}
}

func TestNearMissesFail(t *testing.T) {
	tk := world(t)["pool"]
	cases := map[string][]string{
		"wrong diagnosis":   {"update_config(store, pool, 40)", `resolve_incident("frontend crashed", "raise pool")`},
		"stuffed diagnosis": {"update_config(store, pool, 40)", `resolve_incident("frontend store crash pool exhausted", "raise pool")`},
		"no fix":            {`resolve_incident("store: connection pool exhausted", "raise pool")`},
		"wrong change left": {"update_config(store, pool, 40)", "update_config(frontend, workers, 20)",
			`resolve_incident("store: connection pool exhausted", "raise pool")`},
		"pushed past high": {"update_config(store, pool, 150)", `resolve_incident("store: connection pool exhausted", "raise pool")`},
	}
	for name, actions := range cases {
		ep, text := play(t, tk, 1, actions...)
		if r := ep.Record(); r.Success {
			t.Errorf("%s: succeeded but must fail\n%s", name, text)
		}
	}
	// Undoing a wrong change recovers.
	ep, text := play(t, tk, 1, "update_config(frontend, workers, 20)", "update_config(frontend, workers, 16)",
		"update_config(store, pool, 40)", `resolve_incident("store: connection pool exhausted", "raise pool")`)
	if r := ep.Record(); !r.Success || !r.WrongChange || !r.Recovered {
		t.Errorf("undo of a wrong change: %+v\n%s", r, text)
	}
}

func TestFixChangesObservations(t *testing.T) {
	tk := world(t)["pool"]
	_, before := play(t, tk, 1, "inspect_logs(store)")
	if !strings.Contains(before, "ERROR timed out waiting") {
		t.Fatalf("faulted store shows no pool error:\n%s", before)
	}
	_, after := play(t, tk, 1, "update_config(store, pool, 40)", "check_status(store)", "check_status(store)", "check_status(store)", "inspect_logs(store)")
	last := after[strings.LastIndex(after, "[step 5/"):]
	if strings.Contains(last, "ERROR") {
		t.Errorf("error logs continue after the fix:\n%s", last)
	}
	if !strings.Contains(after, "store status: healthy") {
		t.Errorf("store never turns healthy after the fix:\n%s", after)
	}
	_, high := play(t, tk, 1, "update_config(store, pool, 150)", "check_status(store)", "check_status(store)")
	if !strings.Contains(high, "store status: degraded") {
		t.Errorf("a pool past its high limit shows no symptom:\n%s", high)
	}
}

func TestRestartOfHealthyServiceCosts(t *testing.T) {
	ep, text := play(t, world(t)["crash"], 1, "restart_service(store)", "check_status(store)", "inspect_metrics(frontend)")
	if !strings.Contains(text, "store status: restarting") {
		t.Errorf("a restarted store does not restart:\n%s", text)
	}
	if c := ep.Components(); c.Penalties >= 0 {
		t.Errorf("restarting a healthy service carries no penalty: %+v", c)
	}
	tk := world(t)["pool"]
	ep, _ = play(t, tk, 1, "update_config(store, pool, 40)", "restart_service(frontend)")
	if ep.Record().DistractorFailures != 1 {
		t.Errorf("acting on the distractor's service is not counted: %+v", ep.Record())
	}
}

func TestWritesLookAlike(t *testing.T) {
	tk := world(t)["pool"]
	_, right := play(t, tk, 1, "update_config(store, pool, 40)")
	_, wrong := play(t, tk, 1, "update_config(store, pool, 30)")
	norm := func(s string) string { return strings.NewReplacer("40", "N", "30", "N").Replace(s) }
	if norm(right) != norm(wrong) {
		t.Errorf("right and wrong writes differ:\n%s\n%s", right, wrong)
	}
	_, ok := play(t, tk, 1, "update_config(store, pool, 40)", `resolve_incident("store: connection pool exhausted", "raise pool")`)
	_, bad := play(t, tk, 1, "update_config(store, pool, 40)", `resolve_incident("frontend crashed", "raise pool")`)
	if ok != bad {
		t.Errorf("accepted and rejected resolutions differ:\n%s\n%s", ok, bad)
	}
}

func TestInvalidActionsAreCounted(t *testing.T) {
	tk := world(t)["pool"]
	ep, text := play(t, tk, 1, "inspect_logs(queue)", "frobnicate()", "inspect_logs(", "update_config(store, pool, 40.0)", "inspect_logs(queue)")
	r := ep.Record()
	if r.InvalidActions != 5 || r.RepeatedActions != 1 || ep.Done() {
		t.Errorf("invalid actions: %+v\n%s", r, text)
	}
}

func TestDeterminismAndSnapshots(t *testing.T) {
	tk := world(t)["pool"]
	actions := append([]string{"inspect_metrics(store)", "inspect_traces(frontend)", "check_dependencies(frontend)"}, tk.Expert...)
	_, a := play(t, tk, 7, actions...)
	_, b := play(t, tk, 7, actions...)
	if a != b {
		t.Fatal("same seed and actions gave different observations")
	}
	// Snapshot after two steps, restore into a fresh episode, finish: same bytes.
	ep := engine.NewEpisode(tk)
	ep.Reset(7)
	var out []byte
	for _, s := range actions[:2] {
		x := bind(t, tk, s)
		r := ep.Step(&x)
		out = ep.AppendText(out, &r.Obs)
	}
	snap := ep.MarshalState(nil)
	fork := ep.Fork()
	ep2 := engine.NewEpisode(tk)
	if err := ep2.RestoreState(snap); err != nil {
		t.Fatal(err)
	}
	for _, e := range []*engine.Episode{ep2, fork} {
		o := append([]byte(nil), out...)
		for _, s := range actions[2:] {
			x := bind(t, tk, s)
			r := e.Step(&x)
			o = e.AppendText(o, &r.Obs)
		}
		if string(o) != a {
			t.Errorf("restored or forked episode diverged:\n%s\nwant\n%s", o, a)
		}
	}
	if err := ep2.RestoreState(snap[:len(snap)-3]); err == nil {
		t.Error("a truncated snapshot was accepted")
	}
}

func TestStepDoesNotAllocate(t *testing.T) {
	tk := world(t)["pool"]
	acts := make([]engine.Action, 0, len(tk.Expert)+2)
	for _, s := range append([]string{"inspect_metrics(store)", "inspect_logs(store)"}, tk.Expert...) {
		acts = append(acts, bind(t, tk, s))
	}
	ep := engine.NewEpisode(tk)
	var buf []byte
	allocs := testing.AllocsPerRun(200, func() {
		ep.Reset(3)
		for i := range acts {
			r := ep.Step(&acts[i])
			buf = ep.AppendText(buf[:0], &r.Obs)
		}
	})
	if allocs != 0 {
		t.Errorf("Reset+Step+render allocated %v times per episode", allocs)
	}
}

func TestIRRoundTrip(t *testing.T) {
	for id, tk := range world(t) {
		data, err := engine.EncodeTask(tk)
		if err != nil {
			t.Fatal(err)
		}
		back, err := engine.DecodeTask(data)
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		again, _ := engine.EncodeTask(back)
		if !bytes.Equal(data, again) {
			t.Errorf("%s: decode(encode(ir)) differs", id)
		}
		bad := bytes.Replace(data, []byte(`"budget":`), []byte(`"budget":1`), 1)
		if _, err := engine.DecodeTask(bad); err == nil {
			t.Errorf("%s: an edited IR file was accepted", id)
		}
	}
	if _, err := os.Stat("../testdata/world/std.srez.hcl"); err != nil {
		t.Fatal(err)
	}
}

func BenchmarkStep(b *testing.B) {
	tk := world(b)["pool"]
	var acts []engine.Action
	for _, s := range tk.Expert {
		acts = append(acts, bind(b, tk, s))
	}
	ep := engine.NewEpisode(tk)
	b.ReportAllocs()
	b.ResetTimer()
	steps := 0
	for i := 0; i < b.N; {
		ep.Reset(uint64(i))
		for j := range acts {
			ep.Step(&acts[j])
			i++
			steps++
		}
	}
	b.ReportMetric(float64(steps)/b.Elapsed().Seconds(), "steps/s")
}

func BenchmarkReset(b *testing.B) {
	tk := world(b)["pool"]
	ep := engine.NewEpisode(tk)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		ep.Reset(uint64(i))
	}
}

func BenchmarkRenderText(b *testing.B) {
	tk := world(b)["pool"]
	a := bind(b, tk, "inspect_metrics(store)")
	ep := engine.NewEpisode(tk)
	ep.Reset(1)
	r := ep.Step(&a)
	var buf []byte
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		buf = ep.AppendText(buf[:0], &r.Obs)
	}
}

func BenchmarkCompile(b *testing.B) {
	std, _ := lang.ReadPaths([]string{"../testdata/world/std.srez.hcl"})
	files, _ := lang.ReadPaths([]string{"../testdata/world/incidents"})
	m, _ := lang.AnalyzeWith(std, files)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		compiler.CompileIncident(m, m.Incident("pool"), compiler.Options{SkipCertify: true})
	}
}
