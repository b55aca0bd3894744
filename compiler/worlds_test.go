package compiler

import (
	"testing"

	"github.com/srezc/srezc/certify"
	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/lang"
	"github.com/srezc/srezc/value"
)

func shippedModule(t testing.TB) *lang.Module {
	t.Helper()
	m, diags := lang.Analyze(lang.ScenarioFiles())
	if diags.HasErrors() {
		t.Fatalf("suite does not analyse: %v", diags)
	}
	return m
}

// TestFastWorldsMatchCompiled: for every shipped incident and every world
// certification compares it with (each fault removed, the distractors
// alone, each alternative fault), the fast path (the warm-up re-run on the
// task's own IR) passes its self-check and gives exactly the rows of the
// world compiled in full. (That reads differ on slots exactly when their
// text differs is certify.TestSlotComparisonMatchesText.)
func TestFastWorldsMatchCompiled(t *testing.T) {
	m := shippedModule(t)
	for _, in := range m.Incidents {
		inc, diags := Prepare(m, in)
		if diags.HasErrors() {
			t.Fatalf("%s: %v", in.Name, diags)
		}
		b := inc.(*build)
		truth := b.Truth()
		var specs []*worldSpec
		for i := range in.Faults {
			others := append(append([]*lang.FaultUse(nil), in.Faults[:i]...), in.Faults[i+1:]...)
			specs = append(specs, &worldSpec{Spec: &certify.Spec{Name: "without fault", Faults: others, Distractors: in.Distractors}})
		}
		if len(in.Distractors) > 0 {
			specs = append(specs, &worldSpec{Spec: &certify.Spec{Name: "the distractors alone", Distractors: in.Distractors}})
		}
		if alerting := certify.AlertingService(truth.Task, truth.Episode.Row()); alerting >= 0 {
			for _, fu := range certify.AlternativeFaults(b, alerting) {
				specs = append(specs, &worldSpec{Spec: &certify.Spec{Name: "fault " + fu.Name, Faults: []*lang.FaultUse{fu}, Distractors: in.Distractors}})
			}
		}
		w := &worlds{b: b}
		own := &worldSpec{Spec: &certify.Spec{Name: "the incident", Faults: in.Faults, Distractors: in.Distractors}}
		w.prepare(truth, own, specs)
		if w.slow {
			t.Errorf("%s: the fast path does not reproduce the compiled task", in.Name)
		}
		for _, spec := range specs {
			fast, full := w.fast(spec), w.compiled(spec)
			if fast == nil || full == nil {
				t.Fatalf("%s, %s: fast %v, compiled %v", in.Name, spec.Name, fast != nil, full != nil)
			}
			if !sameWorldRows(fast, full, b.t.History) {
				t.Errorf("%s, %s: the fast path's rows differ from the compiled world's", in.Name, spec.Name)
			}
		}
	}
}

// sameWorldRows compares two worlds' rows over the history, strings by text.
func sameWorldRows(a, b *certify.World, h int) bool {
	t := a.Task
	for k := a.Episode.Tick() - h + 1; k <= a.Episode.Tick(); k++ {
		ra, rb := a.Episode.RowAt(k), b.Episode.RowAt(k)
		for i := range ra {
			j := i
			if b.Slots != nil {
				j = int(b.Slots[i])
			}
			if t.Slots[i].Kind == value.String {
				if stringOf(a.Task, ra[i]) != stringOf(b.Task, rb[j]) {
					return false
				}
			} else if ra[i] != rb[j] {
				return false
			}
		}
	}
	return true
}

func stringOf(t *engine.Task, w uint64) string {
	if w < uint64(len(t.Strings)) {
		return t.Strings[w]
	}
	return ""
}
