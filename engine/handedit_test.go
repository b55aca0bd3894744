package engine_test

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/srezc/srezc/compiler"
	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/lang"
	"github.com/srezc/srezc/value"
)

// readActions are every read tool on every service of a task.
func readActions(tk *engine.Task) []string {
	var out []string
	for _, s := range tk.Services {
		for _, tool := range []string{"inspect_logs", "inspect_metrics", "inspect_config", "check_status", "inspect_traces", "check_dependencies"} {
			out = append(out, tool+"("+s.Name+")")
		}
	}
	return out
}

// observeAll renders, on forks of ep, what every read would show now.
func observeAll(t *testing.T, tk *engine.Task, ep *engine.Episode, reads []string) []byte {
	var out []byte
	for _, r := range reads {
		f := ep.Fork()
		a := bind(t, tk, r)
		res := f.Step(&a)
		out = f.AppendText(out, &res.Obs)
	}
	return out
}

// TestFaultsAreOnlyEdits replaces each fault of each shipped incident by a
// hand edit of the same config and state (a distractor kind carrying the
// fault's edits) and checks that every observation an agent could make, at
// every step of the expert plan, is byte-identical: no symptom rule reads a
// fault's identity.
func TestFaultsAreOnlyEdits(t *testing.T) {
	m, diags := lang.Analyze(lang.ScenarioFiles())
	if diags.HasErrors() {
		t.Fatal("suite does not analyse")
	}
	for _, in := range m.Incidents {
		orig, ds := compiler.CompileIncident(m, in, compiler.Options{})
		if ds.HasErrors() {
			t.Fatalf("%s: %v", in.Name, ds)
		}
		for i, fu := range in.Faults {
			fk := m.FaultKind(fu.Name)
			if slices.ContainsFunc(fk.Remedies, func(r lang.Remedy) bool { return r.Effect == "rollback" }) {
				// A rollback restores the version the change history
				// gives, and the history is the task's: the fault's deploy
				// entry is not part of an edit (engine/rollback_test.go
				// covers a bad deploy's world).
				continue
			}
			params := fu.Params
			hand := &lang.DistractorKind{Decl: lang.Decl{Name: "hand_edit"}, AppliesTo: fk.AppliesTo}
			for _, e := range fk.Edits {
				e := e
				eval := e.Eval
				e.Eval = func(sc lang.EditScope) (value.Value, *lang.Diagnostic) { sc.Params = params; return eval(sc) }
				hand.Edits = append(hand.Edits, e)
			}
			m2 := *m
			m2.DistractorKinds = append(append([]*lang.DistractorKind(nil), m.DistractorKinds...), hand)
			in2 := *in
			in2.Faults = append(append([]*lang.FaultUse(nil), in.Faults[:i]...), in.Faults[i+1:]...)
			in2.Distractors = append(append([]*lang.DistractorUse(nil), in.Distractors...), &lang.DistractorUse{Decl: lang.Decl{Name: "hand_edit"}, Target: fu.Target})
			reads := readActions(orig)
			for _, seed := range []uint64{1, 2} {
				// The same site, the variant the seed picks: its benign
				// draws depend on the incident's own faults.
				site := int(seed % uint64(orig.SiteCount()))
				edited, ds := compiler.CompileIncident(&m2, &in2, compiler.Options{SkipCertify: true, SiteFrom: in, Site: site})
				if ds.HasErrors() {
					t.Fatalf("%s without %s: %v", in.Name, fu.Name, ds)
				}
				// The site's clock is the change history's, which is the
				// task's, not an edit (list_changes is not compared): a
				// change pinned to the alert's day moves the alert, and log
				// lines are stamped from it (renderer obs/7).
				edited.AlertMinute = orig.AlertMinute
				a, b := engine.NewEpisode(orig), engine.NewEpisode(edited)
				a.Reset(seed)
				b.Reset(seed)
				for step, text := range append([]string{""}, orig.Site(seed).Expert...) {
					if text != "" {
						x, y := bind(t, orig, text), bind(t, edited, text)
						ra, rb := a.Step(&x), b.Step(&y)
						// The expert's own list_changes shows the task's
						// history, which a hand edit has no entry in.
						if oa, ob := a.AppendText(nil, &ra.Obs), b.AppendText(nil, &rb.Obs); !strings.HasPrefix(text, "list_changes(") && !bytes.Equal(oa, ob) {
							t.Fatalf("%s, fault %s as a hand edit, seed %d, step %d %s:\nfault:\n%s\nhand edit:\n%s", in.Name, fu.Name, seed, step, text, oa, ob)
						}
					}
					if a.Done() {
						break
					}
					if oa, ob := observeAll(t, orig, a, reads), observeAll(t, edited, b, reads); !bytes.Equal(oa, ob) {
						t.Fatalf("%s, fault %s as a hand edit, seed %d, before step %d: observations differ:\n%s", in.Name, fu.Name, seed, step+1, firstLineDiff(oa, ob))
					}
				}
			}
		}
	}
}

func firstLineDiff(a, b []byte) string {
	al, bl := bytes.Split(a, []byte("\n")), bytes.Split(b, []byte("\n"))
	for i := range min(len(al), len(bl)) {
		if !bytes.Equal(al[i], bl[i]) {
			return "fault:     " + string(al[i]) + "\nhand edit: " + string(bl[i])
		}
	}
	return "lengths differ"
}
