package compiler_test

import (
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/srezc/srezc/certify"
	"github.com/srezc/srezc/compiler"
	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/lang"
)

// pairModule is the shipped suite plus a pair mutation of db_pool whose
// axes hold conflicting kinds (db_pool_too_small and db_pool_too_large
// declare a conflict; a kind conflicts with itself), a kind on another
// service, and every placement.
func pairModule(tb testing.TB, extra string) (*lang.Module, *lang.Mutation) {
	tb.Helper()
	src := `mutation "db_pairs" {
  from          = "db_pool"
  faults        = ["db_pool_too_small", "db_pool_too_large", "db_query_timeout_low"]
  second_faults = ["db_pool_too_small", "db_query_timeout_low", "web_timeout_too_low"]
  pairs         = "any"
` + extra + `}
`
	files := append(lang.ScenarioFiles(), &lang.File{Name: "pairs.srez.hcl", Src: []byte(src)})
	m, diags := lang.Analyze(files)
	if diags.HasErrors() {
		tb.Fatalf("%v", diags)
	}
	return m, m.Mutation("db_pairs")
}

// TestPairSpaceHonoursConflicts: the space never pairs kinds that cannot
// share a service on one, holds pairs on one service and on two, and
// holds a pair and its reverse once.
func TestPairSpaceHonoursConflicts(t *testing.T) {
	m, mu := pairModule(t, "")
	seen := map[string]bool{}
	same, distinct := 0, 0
	m.Space(mu, func(v *lang.Variant) bool {
		if v.Fault2 == "" {
			t.Fatalf("%s on %s: a pair mutation's variant has one fault", v.Fault, v.Target)
		}
		if v.Target == v.Target2 {
			same++
			if m.FaultsConflict(v.Fault, v.Fault2) {
				t.Errorf("%s and %s conflict, and the space pairs them on %s", v.Fault, v.Fault2, v.Target)
			}
		} else {
			distinct++
		}
		key := func(f, s string) string { return f + "|" + s }
		a, b := v.Fault+"@"+v.Target+paramText(v.Params), v.Fault2+"@"+v.Target2+paramText(v.Params2)
		if seen[key(b, a)] {
			t.Errorf("%s + %s is in the space twice, once reversed", a, b)
		}
		seen[key(a, b)] = true
		return true
	})
	if same == 0 || distinct == 0 {
		t.Errorf("%d pairs on one service and %d on two: want both", same, distinct)
	}
	if !m.FaultsConflict("db_pool_too_small", "db_pool_too_large") || !m.FaultsConflict("db_pool_too_large", "db_pool_too_small") || !m.FaultsConflict("db_query_timeout_low", "db_query_timeout_low") {
		t.Error("a declared conflict or a kind with itself does not conflict")
	}
	if m.FaultsConflict("db_pool_too_small", "db_query_timeout_low") {
		t.Error("kinds that edit different keys conflict")
	}
	if s := m.Sizes(mu); s.Pairs != len(seen) {
		t.Errorf("Sizes counts %d placed pairs; the space (no constraint) holds %d", s.Pairs, len(seen))
	}
}

func paramText(ps []lang.Field) string {
	var b strings.Builder
	for _, p := range ps {
		b.WriteString(" " + p.Name + "=" + p.Value.String())
	}
	return b.String()
}

// TestPairWhereSeesBothFaults: the constraint reads the second fault's
// kind, target and parameters.
func TestPairWhereSeesBothFaults(t *testing.T) {
	m, mu := pairModule(t, `  where = "target2 == \"web_server\" && param.size == 4"
`)
	n := 0
	m.Space(mu, func(v *lang.Variant) bool {
		n++
		if v.Target2 != "web_server" || v.Fault != "db_pool_too_small" {
			t.Errorf("%s on %s + %s on %s holds a constraint it breaks", v.Fault, v.Target, v.Fault2, v.Target2)
		}
		return true
	})
	if n != 3 { // web_timeout_too_low's three shares
		t.Errorf("%d variants hold the constraint, want 3", n)
	}
}

// TestPairVariantsCertify: a pair variant compiles with both faults and
// certifies: its derived expert plan writes to both faulty services, so
// the informed optimum fixes both (certification also ran the blind
// panel, which must lose). The output is the same for any worker count.
func TestPairVariantsCertify(t *testing.T) {
	m, mu := pairModule(t, "")
	opt := compiler.MutateOptions{Sample: 10, Seed: 3}
	emitted := 0
	want := mutationOutput(m, mu, opt)
	compiler.Mutate(m, mu, opt, func(v *compiler.Variant) {
		if v.Task == nil {
			return
		}
		emitted++
		tk := v.Task
		if len(tk.Faults) != 2 || len(v.Incident.Faults) != 2 {
			t.Fatalf("%s: %d faults compiled, want 2", v.Incident.Name, len(tk.Faults))
		}
		if !tk.Certified || v.Difficulty != "hard" {
			t.Errorf("%s: certified %v, difficulty %s", v.Incident.Name, tk.Certified, v.Difficulty)
		}
		if m.FaultsConflict(v.Fault, v.Fault2) && v.Target == v.Target2 {
			t.Errorf("%s: conflicting faults emitted", v.Incident.Name)
		}
		for _, f := range tk.Faults {
			svc := tk.Services[f.Service].Name
			if !slices.ContainsFunc(tk.Expert, func(a string) bool { return !strings.HasPrefix(a, "inspect") && strings.Contains(a, "("+svc) }) {
				t.Errorf("%s: the expert plan %q does not act on %s", v.Incident.Name, tk.Expert, svc)
			}
		}
		src := string(lang.IncidentSource(v.Incident, ""))
		if strings.Count(src, "\n  fault \"") != 2 {
			t.Errorf("%s: the written incident does not hold both fault blocks:\n%s", v.Incident.Name, src)
		}
	})
	if emitted < 5 {
		t.Errorf("%d of 10 sampled pairs certified", emitted)
	}
	old := runtime.GOMAXPROCS(1)
	defer runtime.GOMAXPROCS(old)
	opt.Workers = 3
	if got := mutationOutput(m, mu, opt); got != want {
		t.Error("3 workers on one core give other output than the default")
	}
}

// TestCascadeAlertsOnAVictim: a cascade variant's fault sits upstream of
// the alerted service: every emitted variant's alert names a service
// without a fault, and a variant whose alert names the faulty one is
// rejected with the reason.
func TestCascadeAlertsOnAVictim(t *testing.T) {
	src := `mutation "db_cascade" {
  from    = "db_pool"
  faults  = ["db_pool_too_small", "db_query_timeout_low"]
  cascade = true
}
mutation "queue_cascade" {
  from    = "mq_backlog"
  faults  = ["mq_consumer_concurrency_low"]
  cascade = true
}
mutation "relay_cascade" {
  from       = "db_pool"
  faults     = ["mail_relay_outage"]
  parameters = "default"
  cascade    = true
}
`
	files := append(lang.ScenarioFiles(), &lang.File{Name: "cascade.srez.hcl", Src: []byte(src)})
	m, diags := lang.Analyze(files)
	if diags.HasErrors() {
		t.Fatalf("%v", diags)
	}
	emitted, rejected := 0, 0
	for _, name := range []string{"db_cascade", "queue_cascade", "relay_cascade"} {
		compiler.Mutate(m, m.Mutation(name), compiler.MutateOptions{}, func(v *compiler.Variant) {
			if !v.Cascade {
				t.Fatalf("%s is not marked a cascade", v.Incident.Name)
			}
			if v.Task == nil {
				if slices.ContainsFunc(v.Reasons, func(r string) bool { return strings.HasPrefix(r, "Not a cascade") }) {
					rejected++
				}
				return
			}
			emitted++
			// The alert's wording is drawn; the service it is about is
			// the one whose symptom it reports.
			ep := engine.NewEpisode(v.Task)
			ep.Reset(0)
			ep.Advance()
			if s := certify.AlertingService(v.Task, ep.Row()); s < 0 || v.Task.Services[s].Name == v.Target {
				t.Errorf("%s: the alert %q is about the faulty %s", v.Incident.Name, v.Task.Alert, v.Target)
			}
		})
	}
	if emitted == 0 {
		t.Error("no cascade certified")
	}
	if rejected == 0 {
		// A relay outage shows on the queue itself (its publishes are
		// refused) before the web tier sees anything.
		t.Error("no variant alerting on its faulty service was rejected as not a cascade")
	}
}

// TestWrittenVariantsCertifyOnEverySite: a variant written as source (its
// expert through SourceExpert, as mutate -o and suite build write it)
// certifies again on every site variant, also where the sites' optima
// differ in shape (a site whose recovery needs one more step after the
// writes): the written plan serves every site.
func TestWrittenVariantsCertifyOnEverySite(t *testing.T) {
	src := `mutation "queue_consumers" {
  from   = "mq_backlog"
  faults = ["mq_consumer_concurrency_low", "mq_visibility_timeout_low"]
  noise  = ["none", "retries"]
}
mutation "queue_pair" {
  from          = "mq_backlog"
  faults        = ["mq_consumer_concurrency_low"]
  second_faults = ["mq_visibility_timeout_low"]
  pairs         = "same_service"
}
mutation "storage" {
  from       = "mq_backlog"
  faults     = ["db_index_disabled", "db_index_invalid", "db_xmin_horizon_held", "db_replication_slot_outage"]
  parameters = "default"
}
`
	files := append(lang.ScenarioFiles(), &lang.File{Name: "queue.srez.hcl", Src: []byte(src)})
	m, diags := lang.Analyze(files)
	if diags.HasErrors() {
		t.Fatalf("%v", diags)
	}
	written, shapes := 0, 0
	for _, name := range []string{"queue_consumers", "queue_pair", "storage"} {
		compiler.Mutate(m, m.Mutation(name), compiler.MutateOptions{}, func(v *compiler.Variant) {
			if v.Task == nil {
				return
			}
			for _, s := range v.Task.Sites {
				if len(s.Expert) != len(v.Task.Expert) {
					shapes++
					break
				}
			}
			in := *v.Incident
			in.Alert, in.Expert, in.Difficulty = v.Task.Alert, compiler.SourceExpert(v.Task), v.Difficulty
			text := lang.IncidentSource(&in, "")
			m2, diags := lang.Analyze([]*lang.File{{Name: "v.srez.hcl", Src: text}})
			if diags.HasErrors() {
				t.Fatalf("%s: the written incident does not analyse: %v\n%s", in.Name, diags, text)
			}
			tasks, cd := compiler.CompileWith(m2, compiler.Options{})
			if cd.HasErrors() || len(tasks) != 1 {
				t.Fatalf("%s: the written incident does not compile: %v", in.Name, cd)
			}
			written++
			if !tasks[0].Certified {
				t.Errorf("%s: written and compiled again, it does not certify: %q\n%s", in.Name, tasks[0].Uncertified, text)
			}
		})
	}
	if shapes == 0 {
		t.Error("no variant's site optima differ in shape: the test checks nothing it did not before")
	}
	if written < 15 {
		t.Errorf("%d variants written", written)
	}
}
