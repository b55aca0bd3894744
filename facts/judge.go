package facts

import (
	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/eval"
	"github.com/srezc/srezc/lang"
	"github.com/srezc/srezc/record"
	"github.com/srezc/srezc/value"
)

// JudgeTruths builds the ground truth of every task from the module it
// was compiled from: each fault's service, kind and description, its
// mechanism and the rubric's description of it, its concrete detail, and
// its parameters as the incident sets them. An imported sre_zero task's
// single cause is its fix's service and the reference's root cause text.
func JudgeTruths(m *lang.Module, tasks []*engine.Task) map[string]*eval.JudgeTruth {
	out := make(map[string]*eval.JudgeTruth, len(tasks))
	for _, t := range tasks {
		jt := &eval.JudgeTruth{Hash: t.Hash, Incident: eval.JudgeIncident{Title: t.Title, Alert: t.Alert, Services: t.ServiceNames()}}
		if t.Ref != nil {
			jt.GroundTruth = []eval.JudgeCause{{Service: t.Ref.Fix.Service, MechanismDescription: t.Ref.RootCause}}
			out[t.ID] = jt
			continue
		}
		in := m.Incident(t.ID)
		var rubric *lang.Rubric
		if in != nil {
			rubric = m.Rubric(in.Rubric)
			if rubric == nil {
				rubric = m.Rubric(record.ProfileNative)
			}
		}
		for i, f := range t.Faults {
			c := eval.JudgeCause{Fault: f.Kind, Detail: f.Detail}
			if int(f.Service) < len(t.Services) {
				c.Service = t.Services[f.Service].Name
			}
			if int(f.Mechanism) < len(t.Mechanisms) {
				c.Mechanism = t.Mechanisms[f.Mechanism].Name
			}
			if rubric != nil {
				for _, mech := range rubric.Mechanisms {
					if mech.Name == c.Mechanism {
						c.MechanismDescription = mech.Description
					}
				}
			}
			if fk := m.FaultKind(f.Kind); fk != nil {
				c.FaultDescription = fk.Description
				var set map[string]value.Value
				if in != nil && i < len(in.Faults) && in.Faults[i].Name == f.Kind {
					set = in.Faults[i].Params
				}
				for _, p := range fk.Params {
					v, ok := set[p.Name]
					if !ok {
						v = p.Default
					}
					c.Parameters = append(c.Parameters, eval.JudgeParam{Name: p.Name, Value: v.String(), Description: p.Description})
				}
			}
			jt.GroundTruth = append(jt.GroundTruth, c)
		}
		out[t.ID] = jt
	}
	return out
}
