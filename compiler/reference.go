package compiler

import (
	"strings"

	"github.com/srezc/srezc/certify"
	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/lang"
	"github.com/srezc/srezc/record"
	"github.com/srezc/srezc/srezero"
	"github.com/srezc/srezc/value"
)

// An incident under the sre_zero profile compiles to the reference's
// literal world and grading spec (srezero.Task), not to slots and
// code: its world is static fixtures and its grading the reference's own.

// compileRef compiles an sre_zero incident. Certification findings are
// warnings here, recorded on the task: the reference's own tasks must
// import whatever they fail.
func compileRef(m *lang.Module, in *lang.Incident, opt Options) (*engine.Task, lang.Diagnostics) {
	t := &engine.Task{
		Format:     engine.FormatVersion,
		ID:         in.Name,
		Title:      in.Title,
		Alert:      in.Alert,
		Difficulty: in.Difficulty,
		Split:      in.Split,
		Tags:       in.Tags,
		Budget:     in.Budget,
		Hold:       in.Hold,
		Profile:    record.ProfileSreZero,
		Ref:        refTask(m.System(in.System), in.Ref),
		Expert:     in.Expert,
		History:    2,
		InitTick:   1,
		Strings:    []string{engine.StatusHealthy},
	}
	t.Optimal = refOptimum(t.Ref)
	if opt.DumpAfter != "" {
		return t, nil
	}
	var diags lang.Diagnostics
	if err := t.Validate(); err != nil {
		r := in.DefRange
		return nil, append(diags, &lang.Diagnostic{Severity: lang.Error, Summary: "Internal compiler error", Detail: err.Error(), Subject: &r})
	}
	t.Prepare()
	if !opt.SkipCertify {
		t.Uncertified = certify.Reference(t)
		t.Certified = len(t.Uncertified) == 0
		for _, f := range t.Uncertified {
			r := in.DefRange
			diags = append(diags, &lang.Diagnostic{Severity: lang.Warning, Summary: NotCertified, Detail: f, Subject: &r})
		}
	}
	t.Hash = engine.ComputeHash(t)
	return t, diags
}

// refTask merges the incident's fixture patches into the system's
// baseline, as the reference builds a task (spec §2): status, logs and
// dependencies replace; metrics and config merge, an existing key keeping
// its place and a new one appended in patch order.
func refTask(sys *lang.System, spec *lang.RefSpec) *srezero.Task {
	r := &srezero.Task{
		RootCause:                 spec.RootCause,
		RootCauseKeywords:         spec.RootCauseKeywords,
		DistractorServices:        spec.DistractorServices,
		Distractors:               spec.Distractors,
		TerminalOnWrongResolution: spec.TerminalOnWrongResolution == nil || *spec.TerminalOnWrongResolution,
	}
	for _, f := range sys.Fixtures {
		s := srezero.Service{Name: f.Name, Logs: append([]string(nil), f.Logs...), Dependencies: append([]string(nil), f.Dependencies...),
			Metrics: refFields(nil, f.Metrics), Config: refFields(nil, f.Config)}
		if f.Status != nil {
			s.Status = *f.Status
		}
		for _, p := range spec.Fixtures {
			if p.Name != f.Name {
				continue
			}
			if p.Status != nil {
				s.Status = *p.Status
			}
			if p.HasLogs {
				s.Logs = append([]string(nil), p.Logs...)
			}
			if p.HasMetrics {
				s.Metrics = refFields(s.Metrics, p.Metrics)
			}
			if p.HasConfig {
				s.Config = refFields(s.Config, p.Config)
			}
			if p.HasDeps {
				s.Dependencies = append([]string(nil), p.Dependencies...)
			}
		}
		r.Services = append(r.Services, s)
	}
	for _, e := range spec.Evidence {
		r.Evidence = append(r.Evidence, srezero.Evidence{Key: e.Name, Description: e.Description})
	}
	if f := spec.Fix; f != nil {
		r.Fix = srezero.Fix{ActionType: f.Action, Service: f.Service, Key: f.Key, HasKey: f.HasKey, Exact: f.Exact, FixKeywords: f.FixKeywords}
		if f.MinNumeric.K != value.Null {
			r.Fix.MinNumeric, r.Fix.HasMin = f.MinNumeric.AsFloat(), true
		}
	}
	for _, p := range spec.Metadata {
		r.Metadata = append(r.Metadata, srezero.Pair{Key: p.Name, Value: p.Value.S})
	}
	return r
}

// refFields merges patch entries into base: a key already there keeps its
// place and takes the new value, a new key is appended.
func refFields(base []srezero.Field, patch []lang.Field) []srezero.Field {
	out := append([]srezero.Field(nil), base...)
next:
	for _, p := range patch {
		for i := range out {
			if out[i].Name == p.Name {
				out[i].Value = p.Value
				continue next
			}
		}
		out = append(out, srezero.Field{Name: p.Name, Value: p.Value})
	}
	return out
}

// refOptimum is the fewest steps that earn every reward component: one
// read per (action, service) of the evidence keys (an inspect_config
// without a key earns every config key of its service at once), the fix,
// and the resolution.
func refOptimum(r *srezero.Task) int {
	var reads []string
	for _, e := range r.Evidence {
		parts := strings.SplitN(e.Key, ":", 3)
		read := parts[0]
		if len(parts) > 1 {
			read += ":" + parts[1]
		}
		found := false
		for _, x := range reads {
			found = found || x == read
		}
		if !found {
			reads = append(reads, read)
		}
	}
	return len(reads) + 2
}
