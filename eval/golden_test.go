package eval_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/srezc/srezc/action"
	"github.com/srezc/srezc/agents"
	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/eval"
	"github.com/srezc/srezc/lang"
	"github.com/srezc/srezc/record"
)

const tracesDir = "../testdata/traces"

// variants are the plans every shipped incident is replayed with, and what
// each must show: the expert succeeds; each near miss fails for its reason.
var variants = []struct {
	name  string
	check func(tk *engine.Task, r record.EpisodeMetrics) bool
	want  string
	// tag, when set, makes the variant required only of incidents with
	// that tag (others may still have it).
	tag string
	// optional variants are checked where an archive has them.
	optional bool
}{
	{"expert", func(tk *engine.Task, r record.EpisodeMetrics) bool { return r.Success && r.Terminal == endOf(tk) }, "success", "", false},
	{"wrong_fix", func(tk *engine.Task, r record.EpisodeMetrics) bool {
		return !r.Success && r.RootCauseIdentified && !handled(tk, r)
	}, "failure with the right diagnosis and no mitigation", "", false},
	{"wrong_diagnosis", func(tk *engine.Task, r record.EpisodeMetrics) bool {
		return !r.Success && !r.RootCauseIdentified && handled(tk, r)
	}, "failure with mitigation and a wrong diagnosis", "", false},
	{"wrong_change", func(tk *engine.Task, r record.EpisodeMetrics) bool {
		if tk.OutOfReach() {
			// Any write is the wrong change there, and nothing mitigates.
			return !r.Success && r.WrongChange && r.RootCauseIdentified && r.Terminal == record.TerminalEscalated
		}
		return !r.Success && r.WrongChange && r.RootCauseIdentified && r.Mitigated
	}, "failure from a wrong change left in place", "", false},
	{"recovered", func(tk *engine.Task, r record.EpisodeMetrics) bool { return r.Success && r.Recovered }, "success after undoing the tempting wrong change", "recovery", false},
	// The expert's plan plus an operation applied where its trigger is
	// benign state (a standby's slot during a re-clone, a queue whose
	// consumers were paused on purpose): what blind-operate does.
	{"careless_operation", func(tk *engine.Task, r record.EpisodeMetrics) bool {
		return !r.Success && r.WrongChange && r.RootCauseIdentified && r.Mitigated
	}, "failure from an operation applied to benign state", "", true},
	// The right fix and diagnosis, resolved before the world has recovered
	// at its declared rate (an index build in proportion to its table).
	{"too_soon", func(tk *engine.Task, r record.EpisodeMetrics) bool {
		return !r.Success && r.RootCauseIdentified && r.CorrectRemediationApplied && !r.Mitigated
	}, "failure from resolving before the declared recovery time", "", true},
	// Issue 18 item 4's classes. An earlier responder's change must be
	// undone along with the cause: either alone leaves the world unhealthy.
	{"cause_only", func(tk *engine.Task, r record.EpisodeMetrics) bool { return !r.Success && !r.Mitigated }, "failure: only the original cause fixed, the responder's change left", "class:responder-made-it-worse", false},
	{"responder_only", func(tk *engine.Task, r record.EpisodeMetrics) bool { return !r.Success && !r.Mitigated }, "failure: only the responder's change undone, the cause left", "class:responder-made-it-worse", false},
	// A write that hides the symptom is a wrong change even when the
	// diagnosis names the true cause.
	{"mask_only", func(tk *engine.Task, r record.EpisodeMetrics) bool {
		return !r.Success && r.WrongChange && r.RootCauseIdentified
	}, "failure from a symptom-masking write with the right diagnosis", "class:symptom-masking", false},
	// Acting on the other plausible cause, which one read rules out, is a
	// wrong change and no diagnosis.
	{"other_cause", func(tk *engine.Task, r record.EpisodeMetrics) bool {
		return !r.Success && r.WrongChange && !r.RootCauseIdentified
	}, "failure from acting on the other plausible cause", "class:two-causes-one-read", false},
}

// endOf is how the expert ends an episode of tk: resolved, or escalated
// where the fault is out of the agent's reach.
func endOf(tk *engine.Task) string {
	if tk.OutOfReach() {
		return record.TerminalEscalated
	}
	return record.TerminalResolved
}

// handled is the near misses' "mitigated": the world healthy again, or,
// out of reach, the incident handed over with nothing changed.
func handled(tk *engine.Task, r record.EpisodeMetrics) bool {
	if tk.OutOfReach() {
		return r.Terminal == record.TerminalEscalated && r.RemediationActions == 0
	}
	return r.Mitigated
}

// plans returns each variant's actions for a task from its trace archive.
// archivedPlans reads tk's trace archive (testdata/traces/ID.txtar) and
// returns its plans.
func archivedPlans(t *testing.T, tk *engine.Task) map[string][]string {
	t.Helper()
	ar, err := txtar.ParseFile(filepath.Join(tracesDir, tk.ID+".txtar"))
	if err != nil {
		t.Fatal(err)
	}
	return plans(t, tk, ar)
}

func plans(t *testing.T, tk *engine.Task, ar *txtar.Archive) map[string][]string {
	// The expert of the site variant seed 1 plays (playPlan's seed).
	out := map[string][]string{"expert": tk.Site(1).Expert}
	for _, f := range ar.Files {
		if name, ok := strings.CutSuffix(f.Name, ".actions"); ok {
			var lines []string
			for _, l := range strings.Split(strings.TrimSpace(string(f.Data)), "\n") {
				lines = append(lines, strings.TrimSpace(l))
			}
			out[name] = lines
		}
	}
	return out
}

func playPlan(tk *engine.Task, plan []string) eval.Episode {
	return eval.Play(tk, agents.NewScripted(plan), 0, 1, true)
}

// TestGoldenTraces replays every shipped incident's expert plan and near
// misses and compares the traces (observations, rewards, records) with the
// committed goldens; SREZC_UPDATE=1 rewrites them.
func TestGoldenTraces(t *testing.T) {
	update := os.Getenv("SREZC_UPDATE") == "1"
	for _, tk := range suite(t) {
		t.Run(tk.ID, func(t *testing.T) {
			path := filepath.Join(tracesDir, tk.ID+".txtar")
			ar, err := txtar.ParseFile(path)
			if err != nil {
				t.Fatalf("every shipped incident needs near misses in %s: %v", path, err)
			}
			ps := plans(t, tk, ar)
			changed := false
			for _, v := range variants {
				plan, ok := ps[v.name]
				if !ok {
					if !v.optional && (v.tag == "" || slices.Contains(tk.Tags, v.tag)) {
						t.Errorf("%s: no %s.actions section", path, v.name)
					}
					continue
				}
				ep := playPlan(tk, plan)
				if !v.check(tk, ep.Record) {
					t.Errorf("%s: want %s, got %+v", v.name, v.want, ep.Record)
				}
				golden := "out/" + v.name + ".jsonl"
				var have []byte
				idx := -1
				for i, f := range ar.Files {
					if f.Name == golden {
						have, idx = f.Data, i
					}
				}
				trace := ep.AppendTrace(nil)
				if bytes.Equal(have, trace) {
					continue
				}
				if update {
					if idx < 0 {
						ar.Files = append(ar.Files, txtar.File{Name: golden, Data: trace})
					} else {
						ar.Files[idx].Data = trace
					}
					changed = true
					continue
				}
				t.Errorf("%s: trace differs from %s in %s (SREZC_UPDATE=1 rewrites):\n%s", v.name, golden, path, firstDiff(have, trace))
			}
			if changed {
				sort.SliceStable(ar.Files, func(i, j int) bool {
					return strings.HasPrefix(ar.Files[j].Name, "out/") && !strings.HasPrefix(ar.Files[i].Name, "out/")
				})
				if err := os.WriteFile(path, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

func firstDiff(a, b []byte) string {
	al, bl := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	for i := 0; i < len(al) || i < len(bl); i++ {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			return "line " + itoa(i+1) + ":\n  want " + x + "\n  got  " + y
		}
	}
	return "(no difference)"
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

// forbidden is what no agent-visible text may contain: incident ids, fault
// kind names and every accepted diagnosis wording (mechanism phrases).
// Config key and metric names are the schema, shown whatever the fault, and
// are masked before the check.
type leakRules struct {
	words    []string // normalised phrases
	keyNames []string
}

func rules(t *testing.T) leakRules {
	m, diags := lang.Analyze(lang.ScenarioFiles())
	if diags.HasErrors() {
		t.Fatal("suite does not analyse")
	}
	var r leakRules
	for _, in := range m.Incidents {
		r.words = append(r.words, lang.NormalizePhrase(in.Name))
	}
	for _, fk := range m.FaultKinds {
		r.words = append(r.words, lang.NormalizePhrase(fk.Name))
	}
	for _, rb := range m.Rubrics {
		for _, mech := range rb.Mechanisms {
			for _, p := range mech.Phrases {
				r.words = append(r.words, lang.NormalizePhrase(p))
			}
		}
	}
	for _, k := range m.ServiceKinds {
		for _, c := range k.Config {
			r.keyNames = append(r.keyNames, c.Name)
		}
		for _, q := range k.Metrics() {
			r.keyNames = append(r.keyNames, q.Name)
		}
	}
	// A tool's name is the same in every incident's tool list and in the
	// acknowledgement of the call the agent typed: it tells nothing about
	// this incident ("terminate_idle_transactions" is published, like
	// "drop_replication_slot"), so it is masked as keys are.
	for _, tl := range m.Tools {
		r.keyNames = append(r.keyNames, tl.Name)
	}
	// Longest first, so a key that contains another is masked whole.
	sort.Slice(r.keyNames, func(i, j int) bool { return len(r.keyNames[i]) > len(r.keyNames[j]) })
	return r
}

func (r leakRules) find(text string) string {
	for _, k := range r.keyNames {
		text = strings.ReplaceAll(text, k, " ")
	}
	hay := " " + lang.NormalizePhrase(text) + " "
	for _, w := range r.words {
		if strings.Contains(hay, " "+w+" ") {
			return w
		}
	}
	return ""
}

// TestNothingAgentVisibleLeaks reads every log template of the stdlib and
// every intro and observation along the expert, near-miss and random
// traces of every shipped incident.
func TestNothingAgentVisibleLeaks(t *testing.T) {
	lr := rules(t)
	m, _ := lang.Analyze(lang.ScenarioFiles())
	for _, k := range m.ServiceKinds {
		for _, l := range k.Logs {
			for _, p := range l.Parts {
				if w := lr.find(p.Lit); w != "" {
					t.Errorf("%s: log %s template %q gives away %q", k.Name, l.Name, p.Lit, w)
				}
			}
		}
	}
	for _, tk := range suite(t) {
		var eps []eval.Episode
		for _, plan := range archivedPlans(t, tk) {
			eps = append(eps, playPlan(tk, plan))
		}
		for seed := uint64(1); seed <= 20; seed++ {
			eps = append(eps, eval.Play(tk, agents.NewRandom(seed), 0, seed, true))
		}
		for _, ep := range eps {
			for _, s := range ep.Steps {
				if w := lr.find(s.Intro + "\n" + s.Observation); w != "" {
					t.Errorf("%s: after %q the agent sees %q:\n%s", tk.ID, s.Action, w, s.Observation)
				}
			}
		}
	}
}

// TestWritesAreAcknowledgedAlike checks that the immediate result of a
// right and a wrong write differ only in the values the agent wrote.
func TestWritesAreAcknowledgedAlike(t *testing.T) {
	for _, tk := range suite(t) {
		var right string
		for _, a := range tk.Expert {
			if strings.HasPrefix(a, "update_config(") {
				right = a
				break
			}
		}
		if right == "" {
			continue
		}
		args := strings.Split(strings.TrimSuffix(strings.TrimPrefix(right, "update_config("), ")"), ", ")
		wrong := "update_config(" + args[0] + ", " + args[1] + ", " + wrongValue(args[2]) + ")"
		obs := func(text string) string {
			ep := engine.NewEpisode(tk)
			ep.Reset(1)
			a := action.Bind(tk, text)
			r := ep.Step(&a)
			return string(ep.AppendText(nil, &r.Obs))
		}
		ro, wo := obs(right), obs(wrong)
		// The written value follows "set to " (a bare value such as 1 also
		// occurs in "[step 1/12]").
		mask := func(s, v string) string {
			return strings.Replace(s, "set to "+strings.Trim(v, `"`), "set to VALUE", 1)
		}
		if mask(ro, args[2]) != mask(wo, wrongValue(args[2])) {
			t.Errorf("%s: right and wrong writes are told apart:\n%s\n%s", tk.ID, ro, wo)
		}
		if strings.Contains(ro, "Invalid") {
			t.Errorf("%s: expert write rejected: %s", tk.ID, ro)
		}
	}
}

func wrongValue(v string) string {
	switch {
	case v == "true":
		return "false"
	case v == "false":
		return "true"
	case strings.HasPrefix(v, `"`):
		return `"wrong.example"`
	}
	return v + "1"
}
