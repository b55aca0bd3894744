package compiler

import (
	"slices"
	"testing"

	"github.com/srezc/srezc/certify"
	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/lang"
	"github.com/srezc/srezc/value"
)

// stuckTicks is how long a world is left after its fixes before it is
// judged: far past the grader's hold, so "does not recover" means stuck,
// not slow.
const stuckTicks = 60

// TestMetastableIncidents checks what the tag "metastable" promises, on the
// dynamics alone (not on fixed_when, which a partial fix fails trivially):
// some fault (the constraint) shows no symptom on its own; the other faults
// (the triggers) do; fixing every trigger and leaving the constraint leaves
// the system unhealthy however long it runs; fixing everything heals it.
func TestMetastableIncidents(t *testing.T) {
	m := shippedModule(t)
	found := 0
	for _, in := range m.Incidents {
		if !slices.Contains(in.Tags, "metastable") {
			continue
		}
		found++
		t.Run(in.Name, func(t *testing.T) {
			var triggers, constraints []int
			for i := range in.Faults {
				alone := *in
				alone.Faults = in.Faults[i : i+1]
				alone.Distractors = nil
				tk, diags := CompileIncident(m, &alone, Options{SkipCertify: true, SiteFrom: in})
				if len(diags) > 0 {
					t.Fatalf("the incident with only the fault %q: %v", in.Faults[i].Name, diags)
				}
				if healthyAfter(tk, nil, 0) {
					constraints = append(constraints, i)
				} else {
					triggers = append(triggers, i)
				}
			}
			if len(constraints) == 0 || len(triggers) == 0 {
				t.Fatalf("triggers %v, constraints %v: a metastable incident needs a latent constraint and a trigger", triggers, constraints)
			}
			tk, diags := CompileIncident(m, in, Options{SkipCertify: true})
			if len(diags) > 0 {
				t.Fatal(diags)
			}
			if healthyAfter(tk, triggers, stuckTicks) {
				t.Errorf("fixing the triggers %v alone heals it: the loop does not sustain itself", faultNames(in, triggers))
			}
			if !healthyAfter(tk, append(triggers, constraints...), stuckTicks) {
				t.Errorf("fixing every fault does not heal it within %d ticks", stuckTicks)
			}
		})
	}
	if found == 0 {
		t.Fatal("no shipped incident is tagged metastable")
	}
}

// healthyAfter applies the canonical remedies of the given faults at step
// 0, lets the world run for the given ticks, and reports whether every
// service is healthy with every metric in band.
func healthyAfter(tk *engine.Task, fixed []int, ticks int) bool {
	ep := engine.NewEpisode(tk)
	ep.Reset(1)
	for _, fi := range fixed {
		for _, r := range tk.Faults[fi].Remedies {
			a := remedyAction(tk, r)
			ep.Step(&a)
		}
	}
	for i := 0; i < ticks; i++ {
		ep.Advance()
	}
	return certify.AlertingService(tk, ep.Row()) < 0
}

// remedyAction is a fault's canonical remedy as an action.
func remedyAction(t *engine.Task, r engine.Remedy) engine.Action {
	tool := func(e engine.Effect) string {
		for _, tl := range t.Tools {
			if tl.Effect == e {
				return tl.Name
			}
		}
		return ""
	}
	svc := value.OfString(t.Services[r.Service].Name)
	switch r.Effect {
	case engine.EffectRestart:
		return t.Bind(tool(engine.EffectRestart), []value.Value{svc})
	case engine.EffectOperate:
		for _, tl := range t.Tools {
			if tl.Effect == engine.EffectOperate && tl.Operation == r.Operation {
				return t.Bind(tl.Name, []value.Value{svc})
			}
		}
	}
	sl := &t.Slots[r.Slot]
	return t.Bind(tool(engine.EffectUpdate), []value.Value{svc, value.OfString(sl.Name), t.ValueOf(sl.Kind, r.Value)})
}

func faultNames(in *lang.Incident, idx []int) []string {
	var out []string
	for _, i := range idx {
		out = append(out, in.Faults[i].Name)
	}
	return out
}
