package compiler

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/lang"
	"github.com/srezc/srezc/value"
)

// The evidence tests are internal: they check the derivation's parts (each
// fault's evidence, each alternative's distinguishing reads) against an
// independent computation on rendered text.

func shippedModule(t testing.TB) *lang.Module {
	t.Helper()
	m, diags := lang.Analyze(lang.ScenarioFiles())
	if diags.HasErrors() {
		t.Fatalf("suite does not analyse: %v", diags)
	}
	return m
}

// buildUpTo runs every stage before Certify, as CompileIncident does, and
// returns the build.
func buildUpTo(t testing.TB, m *lang.Module, in *lang.Incident) *build {
	t.Helper()
	b := &build{m: m, in: in, t: &engine.Task{Format: engine.FormatVersion, History: History},
		slotIndex: map[slotKey]engine.SlotID{}, strIndex: map[string]int{}, kindDefault: map[engine.SlotID]value.Value{}}
	b.intern(engine.StatusHealthy)
	for _, st := range Stages {
		if st.Name == "Certify" {
			break
		}
		st.Run(b)
		if len(b.diags) > 0 {
			t.Fatalf("%s: %v", in.Name, b.diags)
		}
	}
	return b
}

// handCounted holds the hand-counted optimum of every shipped incident.
// Incident families may add theirs from their own files (init functions),
// so authors working in parallel do not edit one table.
type handCount struct {
	steps int
	why   string
}

var handCounted = map[string]handCount{
	"cache_auth_token": {3, "inspect_logs(cache) shows the refused token, unlike the work_mem distractor and every web_server fault; one write (auth_token_valid); resolve"},
	"cascade_index":    {3, "inspect_logs(database) shows the sequential scans, unlike both distractors and every load_balancer fault; one write (the index); resolve"},
	"db_crash":         {4, "inspect_logs(database) shows the crash; one restart; one step for the queue's backlog to drain before the grader's hold; resolve"},
	"db_pool":          {3, "inspect_logs(database) shows pool timeouts, unlike the keep-alive distractor and every load_balancer fault; one write (pool_size); resolve"},
	"lb_health_check":  {3, "inspect_logs(load_balancer) shows the failing probe, unlike every other load_balancer fault; one write (health_check_path); resolve"},
	"mq_backlog":       {3, "inspect_logs(message_queue) shows one consumer and a growing backlog, unlike the metric distractor and every other queue fault; one write; resolve"},
	"two_faults":       {4, "inspect_logs(web_server) is evidence of both faults and rules out every load_balancer fault; two writes (cache_host, pool_size); resolve"},
	"web_memory_leak":  {4, "inspect_logs(web_server) shows the memory pressure, unlike the cache warning and every load_balancer fault; one restart; one read while the restarted service boots and traffic reaches it again: with mitigation judged by the world, every service healthy and every metric (request rates included) in band, that takes a tick longer than the grader's settling ticks; resolve"},
}

// TestOptimalStepsHandCounted compares each shipped incident's certified
// optimal step count with a figure counted by hand. Every incident has
// alternatives to rule out, so the optimum reads at least once; no read
// needs a partner here (one read of the faulty service's logs tells the
// world apart from every alternative); each fault's fixed_when needs its
// own write; then the resolution.
func TestOptimalStepsHandCounted(t *testing.T) {
	want := handCounted
	tasks, diags := CompileModule(shippedModule(t))
	if diags.HasErrors() {
		t.Fatalf("suite: %v", diags)
	}
	for _, tk := range tasks {
		w, ok := want[tk.ID]
		if !ok {
			t.Errorf("%s: no hand-counted optimum; count it and add it here", tk.ID)
			continue
		}
		if tk.Optimal != w.steps || len(tk.Plan) != tk.Optimal {
			t.Errorf("%s: optimal %d (plan %q), hand-counted %d: %s", tk.ID, tk.Optimal, tk.Plan, w.steps, w.why)
		}
		if len(tk.Expert) < tk.Optimal {
			t.Errorf("%s: the expert plan (%d steps) is shorter than the optimum (%d)", tk.ID, len(tk.Expert), tk.Optimal)
		}
		// The certified plan, as text, succeeds.
		if r := play(engine.NewEpisode(tk), tk.Plan); !r.Success {
			t.Errorf("%s: the certified plan %q does not succeed: %+v", tk.ID, tk.Plan, r)
		}
	}
}

// quiet is a copy of t without noise.
func quiet(t *engine.Task) *engine.Task {
	q := *t
	q.Noise = nil
	return &q
}

// renderAt renders, noise off, what read r shows as the first step.
func renderAt(t *engine.Task, r engine.Read) []byte {
	q := quiet(t)
	ep := engine.NewEpisode(q)
	ep.Reset(certSeed)
	a := bindRead(q, r)
	res := ep.Step(&a)
	return ep.AppendText(nil, &res.Obs)
}

// TestEvidenceDiffersWithFaultRemoved: each shipped incident's evidence set
// is non-empty, and every read in it renders different text (noise off)
// with some fault removed, the world compiled in full from a copy of the
// incident.
func TestEvidenceDiffersWithFaultRemoved(t *testing.T) {
	m := shippedModule(t)
	for _, in := range m.Incidents {
		tk, diags := CompileIncident(m, in, Options{})
		if diags.HasErrors() {
			t.Fatalf("%s: %v", in.Name, diags)
		}
		if len(tk.Evidence) == 0 {
			t.Errorf("%s: empty evidence set", in.Name)
		}
		var removed []*engine.Task
		for i := range in.Faults {
			x := *in
			x.Faults = without(in.Faults, i)
			cf, ds := CompileIncident(m, &x, Options{SkipCertify: true})
			if ds.HasErrors() {
				t.Fatalf("%s without fault %d: %v", in.Name, i, ds)
			}
			removed = append(removed, cf)
		}
		for _, r := range tk.Evidence {
			differs := false
			for _, cf := range removed {
				differs = differs || !bytes.Equal(renderAt(tk, r), renderAt(cf, r))
			}
			if !differs {
				t.Errorf("%s: evidence %s renders the same with every fault removed", in.Name, ReadText(tk, r))
			}
		}
	}
}

// TestSlotComparisonMatchesText: for every shipped incident and every world
// the derivation builds (each fault removed, each alternative), the fast
// path (the warm-up re-run on the task's own IR) gives exactly the rows of
// the world compiled in full, and a read differs on the slots it renders
// exactly when its text differs, noise off. This holds AppendReadSlots to
// the renderer.
func TestSlotComparisonMatchesText(t *testing.T) {
	m := shippedModule(t)
	for _, in := range m.Incidents {
		b := buildUpTo(t, m, in)
		d := b.deriveEvidence()
		if len(d.failures) > 0 {
			t.Errorf("%s: %q", in.Name, texts(d.failures))
		}
		w := &worlds{b: b}
		truth := w.trueWorld()
		var specs []*worldSpec
		var want [][]int
		for i := range in.Faults {
			specs = append(specs, &worldSpec{name: "without fault", faults: without(in.Faults, i), distractors: in.Distractors})
			want = append(want, d.evidence[i])
		}
		if len(in.Distractors) > 0 {
			specs = append(specs, &worldSpec{name: "the distractors alone", distractors: in.Distractors})
		}
		if d.alerting >= 0 {
			for _, fu := range b.alternativeFaults(d.alerting) {
				specs = append(specs, &worldSpec{name: "fault " + fu.Name, faults: []*lang.FaultUse{fu}, distractors: in.Distractors})
			}
		}
		for _, a := range d.alts {
			want = append(want, a.hits)
		}
		if len(want) != len(specs) {
			t.Fatalf("%s: %d worlds, %d derived", in.Name, len(specs), len(want))
		}
		w.prepare(truth, specs)
		if w.slow {
			t.Errorf("%s: the fast path does not reproduce the compiled task", in.Name)
		}
		tick := truth.ep.Tick()
		for si, spec := range specs {
			fast, full := w.fast(spec), w.compiled(spec)
			if fast == nil || full == nil {
				t.Fatalf("%s, %s: fast %v, compiled %v", in.Name, spec.name, fast != nil, full != nil)
			}
			if !sameWorldRows(fast, full, b.t.History) {
				t.Errorf("%s, %s: the fast path's rows differ from the compiled world's", in.Name, spec.name)
			}
			var textDiff []int
			for ri, r := range d.reads {
				if !bytes.Equal(renderAt(b.t, r), renderAt(full.t, r)) {
					textDiff = append(textDiff, ri)
				}
			}
			if got := differing(b.t, d.reads, truth, full, tick); !slices.Equal(got, textDiff) {
				t.Errorf("%s, %s: slots differ on %v, text on %v", in.Name, spec.name, names(b.t, d.reads, got), names(b.t, d.reads, textDiff))
			}
			if !slices.Equal(want[si], textDiff) {
				t.Errorf("%s, %s: derived %v, text differs on %v", in.Name, spec.name, names(b.t, d.reads, want[si]), names(b.t, d.reads, textDiff))
			}
		}
	}
}

// sameWorldRows compares two worlds' rows over the history, strings by text.
func sameWorldRows(a, b *world, h int) bool {
	t := a.t
	for k := a.ep.Tick() - h + 1; k <= a.ep.Tick(); k++ {
		ra, rb := a.ep.RowAt(k), b.ep.RowAt(k)
		for i := range ra {
			j := i
			if b.slot != nil {
				j = int(b.slot[i])
			}
			if t.Slots[i].Kind == value.String {
				if stringOf(a.t, ra[i]) != stringOf(b.t, rb[j]) {
					return false
				}
			} else if ra[i] != rb[j] {
				return false
			}
		}
	}
	return true
}

func names(t *engine.Task, reads []engine.Read, idx []int) []string {
	var out []string
	for _, i := range idx {
		out = append(out, ReadText(t, reads[i]))
	}
	return out
}

// weakPool is db_pool with a distractor kind whose edit is the fault's own:
// the distractor alone looks exactly like the incident.
func weakPool(t *testing.T) (*lang.Module, *lang.Incident) {
	m := shippedModule(t)
	var in *lang.Incident
	for _, x := range m.Incidents {
		if x.Name == "db_pool" {
			in = x
		}
	}
	fu := in.Faults[0]
	fk := m.FaultKind(fu.Name)
	twin := &lang.DistractorKind{Decl: lang.Decl{Name: "pool_twin"}, AppliesTo: fk.AppliesTo}
	for _, e := range fk.Edits {
		e := e
		eval := e.Eval
		e.Eval = func(map[string]value.Value) (value.Value, *lang.Diagnostic) { return eval(fu.Params) }
		twin.Edits = append(twin.Edits, e)
	}
	m2 := *m
	m2.DistractorKinds = append(append([]*lang.DistractorKind(nil), m.DistractorKinds...), twin)
	in2 := *in
	in2.Distractors = append(append([]*lang.DistractorUse(nil), in.Distractors...), &lang.DistractorUse{Decl: lang.Decl{Name: "pool_twin"}, Target: fu.Target})
	return &m2, &in2
}

// TestIndistinguishableDistractorFails: a distractor whose observable
// effect is the fault's is a diagnosability failure, reported as such and
// as the only derivation failure.
func TestIndistinguishableDistractorFails(t *testing.T) {
	m, in := weakPool(t)
	d := buildUpTo(t, m, in).deriveEvidence()
	want := `The incident cannot be told apart from the distractors "web_short_keepalive" on web_server and "pool_twin" on database alone: no read differs.`
	if len(d.failures) != 1 || d.failures[0].text != want || d.failures[0].where != atDistractor {
		t.Errorf("failures = %q, want [%q]", texts(d.failures), want)
	}
	_, diags := CompileIncident(m, in, Options{})
	found := false
	for _, dg := range diags {
		found = found || (dg.Summary == "Task not certified" && dg.Detail == want)
	}
	if !found {
		t.Errorf("the compiler does not report %q: %v", want, diags)
	}
}

// TestExpertMissingEvidenceReported: an expert that reads some but not all
// of the certified evidence is told which reads it misses.
func TestExpertMissingEvidenceReported(t *testing.T) {
	m := shippedModule(t)
	var in *lang.Incident
	for _, x := range m.Incidents {
		if x.Name == "two_faults" {
			in = x
		}
	}
	b := buildUpTo(t, m, in)
	d := b.deriveEvidence()
	// Pretend the certified evidence also holds a read the expert skips.
	extra := slices.IndexFunc(d.reads, func(r engine.Read) bool {
		return ReadText(b.t, r) == "check_status(cache)"
	})
	d.chosen = append(d.chosen, extra)
	got := d.checkExpert(b.t)
	if len(got) != 1 || !strings.Contains(got[0].text, "does not read the evidence check_status(cache)") {
		t.Errorf("checkExpert = %q", texts(got))
	}
}

// TestReadSlotsDoNotAllocate: listing a read's slots into a warm buffer
// allocates nothing.
func TestReadSlotsDoNotAllocate(t *testing.T) {
	m := shippedModule(t)
	b := buildUpTo(t, m, m.Incidents[0])
	reads := allReads(b.t)
	buf := make([]engine.Shown, 0, 1024)
	if n := testing.AllocsPerRun(20, func() {
		for _, r := range reads {
			buf = b.t.AppendReadSlots(buf[:0], r, b.t.InitTick+1)
		}
	}); n != 0 {
		t.Errorf("AppendReadSlots allocates %v times", n)
	}
}

// BenchmarkDeriveEvidence is the evidence, diagnosability and optimum part
// of certification, per shipped incident.
func BenchmarkDeriveEvidence(b *testing.B) {
	m := shippedModule(b)
	var builds []*build
	for _, in := range m.Incidents {
		builds = append(builds, buildUpTo(b, m, in))
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		builds[i%len(builds)].deriveEvidence()
	}
}

// TestHittingSetIsExact: where a greedy cover would take three reads (the
// read that tells most alternatives apart first), the search finds the two
// that suffice; ties go to the better-ranked reads.
func TestHittingSetIsExact(t *testing.T) {
	const x, y, z = 0, 1, 2
	d := &derived{
		reads:   make([]engine.Read, 3),
		faulted: []bool{false},
		alts: []alternative{
			{name: "1", hits: []int{x, y}}, {name: "2", hits: []int{x, y}},
			{name: "3", hits: []int{x, z}}, {name: "4", hits: []int{x, z}},
			{name: "5", hits: []int{y}}, {name: "6", hits: []int{z}},
		},
	}
	if got := d.hittingSet(); !slices.Equal(got, []int{y, z}) {
		t.Errorf("hitting set %v, want [%d %d]", got, y, z)
	}
	d.alts = []alternative{{name: "1", hits: []int{x, y}}, {name: "2", hits: []int{y, z}}}
	if got := d.hittingSet(); !slices.Equal(got, []int{y}) {
		t.Errorf("hitting set %v, want [%d]", got, y)
	}
	// Evidence of a fault ranks first among equals.
	d.alts = []alternative{{name: "1", hits: []int{x, z}}}
	d.evidence = [][]int{{z}}
	if got := d.hittingSet(); !slices.Equal(got, []int{z}) {
		t.Errorf("hitting set %v, want [%d]", got, z)
	}
}
