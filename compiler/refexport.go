package compiler

import (
	"fmt"
	"slices"
	"strings"

	"github.com/srezc/srezc/certify"
	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/lang"
	"github.com/srezc/srezc/value"
)

// A native incident exports to the reference's format as its world at step
// 0 (after warm-up, noise off) written into literal fixtures, with its one
// fault's canonical fix and its certified evidence set. What the format
// cannot say is an error naming the construct: several faults, a
// metastable loop, a service the reference does not have, evidence only a
// trace or dependency read shows.

// refServices are the reference's five services.
var refServices = []string{"web_server", "database", "cache", "message_queue", "load_balancer"}

// ExportNativeSreZero writes a compiled native incident as a reference task
// file. t must be in's compiled, certified task.
func ExportNativeSreZero(m *lang.Module, in *lang.Incident, t *engine.Task) ([]byte, *lang.Diagnostic) {
	fail := func(r lang.Range, format string, args ...any) *lang.Diagnostic {
		return &lang.Diagnostic{Severity: lang.Error, Summary: "Cannot export", Detail: fmt.Sprintf(format, args...), Subject: &r}
	}
	if len(in.Faults) != 1 || len(t.Faults) != 1 {
		r := in.DefRange
		if len(in.Faults) > 1 {
			r = in.Faults[1].DefRange
		}
		return nil, fail(r, "%q has %d faults; a reference task has one root cause and one fix.", in.Name, len(in.Faults))
	}
	if slices.Contains(in.Tags, "metastable") {
		return nil, fail(in.DefRange, "%q is a metastable loop; the reference's world is static and cannot hold one.", in.Name)
	}
	for _, s := range t.Services {
		if !slices.Contains(refServices, s.Name) {
			return nil, fail(in.SystemRange, "the service %q is not one of the reference's five (%s).", s.Name, strings.Join(refServices, ", "))
		}
	}
	f := &t.Faults[0]
	if len(f.Remedies) == 0 {
		return nil, fail(in.Faults[0].DefRange, "the fault %q has no remedy to export as the correct fix.", in.Faults[0].Name)
	}
	if f.Remedies[0].Effect == engine.EffectRollback {
		return nil, fail(in.Faults[0].DefRange, "the fault %q is fixed by a rollback, which the reference has no action for.", in.Faults[0].Name)
	}
	if f.Remedies[0].Effect == engine.EffectEscalate {
		return nil, fail(in.Faults[0].DefRange, "the fault %q is outside the agent's reach (escalate), which the reference cannot grade as a success.", in.Faults[0].Name)

	}
	if f.Remedies[0].Effect == engine.EffectOperate {
		return nil, fail(in.Faults[0].DefRange, "the fault %q is fixed by the operation %s, which the reference has no action for.", in.Faults[0].Name, t.Operations[f.Remedies[0].Operation].Name)
	}
	svc := t.Services[f.Service].Name
	words := strings.ReplaceAll(svc, "_", " ")
	mech := t.Mechanisms[f.Mechanism]

	spec := &lang.RefSpec{Metadata: []lang.Field{{Name: "source", Value: value.OfString("srezc")}}}
	spec.RootCause = words + " " + mech.Phrases[0]
	spec.RootCauseKeywords = []string{words}
	spec.RootCauseKeywords = append(spec.RootCauseKeywords, mech.Phrases[:min(2, len(mech.Phrases))]...)

	rem := f.Remedies[0]
	fix := &lang.RefFix{Service: svc}
	var fixAction, fixText string
	if rem.Effect == engine.EffectRestart {
		fix.Action = "restart_service"
		fix.FixKeywords = []string{"restart", words}
		fixAction, fixText = "restart_service("+svc+")", "restart "+words
	} else {
		sl := &t.Slots[rem.Slot]
		key := strings.ToUpper(sl.Name)
		v := t.ValueOf(sl.Kind, rem.Value)
		fix.Action, fix.Key, fix.HasKey, fix.Exact = "update_config", key, true, v
		keyWords := strings.ReplaceAll(sl.Name, "_", " ")
		fix.FixKeywords = []string{words, keyWords}
		fixAction = "update_config(" + svc + ", " + key + ", " + v.String() + ")"
		fixText = "set " + words + " " + keyWords + " to " + v.String()
	}
	spec.Fix = fix

	for _, r := range t.Evidence {
		tool := t.Tools[r.Tool]
		var key string
		switch tool.Effect {
		case engine.EffectLogs, engine.EffectMetrics, engine.EffectStatus:
			key = tool.Name + ":" + t.Services[r.Service].Name
		case engine.EffectConfig:
			key = tool.Name + ":" + t.Services[r.Service].Name
			if r.Key != engine.NoSlot {
				key += ":" + strings.ToUpper(t.Slots[r.Key].Name)
			}
		default:
			return nil, fail(in.DefRange, "its evidence includes %s, which the reference has no action for.", certify.ReadText(t, r))
		}
		// No description: the reference shows descriptions to agents as
		// findings, so it records the key itself.
		spec.Evidence = append(spec.Evidence, &lang.RefEvidence{Decl: lang.Decl{Name: key}})
	}

	ep := engine.NewEpisode(t)
	ep.Reset(0)
	for _, s := range ep.Snapshot() {
		st := s.Status
		fx := &lang.Fixture{Decl: lang.Decl{Name: s.Name}, Status: &st, Logs: s.Logs, HasLogs: true, HasMetrics: true, HasConfig: true,
			Dependencies: s.Dependencies, HasDeps: true}
		if fx.Logs == nil {
			fx.Logs = []string{}
		}
		if fx.Dependencies == nil {
			fx.Dependencies = []string{}
		}
		for _, mt := range s.Metrics {
			fx.Metrics = append(fx.Metrics, lang.Field{Name: mt.Name, Value: mt.Value})
		}
		for _, c := range s.Config {
			fx.Config = append(fx.Config, lang.Field{Name: strings.ToUpper(c.Name), Value: c.Value})
		}
		spec.Fixtures = append(spec.Fixtures, fx)
	}
	spec.DistractorServices = []string{}
	for i, d := range in.Distractors {
		if !slices.Contains(spec.DistractorServices, d.Target) {
			spec.DistractorServices = append(spec.DistractorServices, d.Target)
		}
		if dk := m.DistractorKind(d.Name); dk != nil {
			spec.Distractors = append(spec.Distractors, dk.Description)
		} else {
			spec.Distractors = append(spec.Distractors, fmt.Sprintf("distractor %d", i+1))
		}
	}

	// The expert in the reference's grammar: its reads the reference has,
	// then the fix and a resolution worded to match.
	var expert []string
	for _, r := range t.Evidence {
		expert = append(expert, certify.ReadText(t, r))
	}
	expert = append(expert, fixAction, "resolve_incident("+spec.RootCause+", "+fixText+")")
	out := &lang.Incident{Decl: lang.Decl{Name: in.Name}, Alert: in.Alert, Difficulty: in.Difficulty, Split: in.Split, Tags: in.Tags,
		Budget: in.Budget, Rubric: lang.ProfileSreZero, Expert: expert, Ref: spec}
	data, err := lang.ExportSreZeroTask(m, out)
	if err != nil {
		return nil, fail(in.DefRange, "%v", err)
	}
	return data, nil
}
