// Package certify proves a compiled task sound before anyone runs a model
// on it: the expert plan succeeds, no answer-blind policy of the exploit
// panel does, every rubric item can be earned or incurred, every fault has
// evidence and the incident can be told apart from its alternatives (with
// the informed optimum that follows), each fault's fixed_when agrees with
// the world, and nothing an agent reads gives the answer away.
//
// certify imports lang, engine and value, never the compiler: the compiler
// runs certification as its Certify and CertifyFixes stages and hands it
// the incident, with the counterfactual worlds only the compiler can
// build, through the Incident interface. Results are cached in a Cache the
// caller owns; the package keeps no certification state of its own.
package certify

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/srezc/srezc/action"
	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/record"
	"github.com/srezc/srezc/value"
)

// Outcomes do not depend on the seed: a seed draws only rendering noise,
// and grading reads rows, never rendered text. So each policy is played
// once; TestCertificationIsSeedFree checks the premise on every shipped
// incident.

// exploit is one answer-blind policy of the panel.
type exploit struct {
	name string
	plan []string
}

// Certificate is a task's certification result.
type Certificate struct {
	Failures []string // empty when certified
	// findings are the failures with the part of the incident each is
	// about, in the order of Failures.
	findings []Finding
	// Closest is the exploit with the highest final reward, and why it failed.
	Closest, ClosestWhy string
	ClosestReward       float64
	Panel               []PanelResult
}

// PanelResult is how one exploit fared.
type PanelResult struct {
	Name   string
	Plan   []string
	Record record.EpisodeMetrics
}

// Cached certifies the incident through the cache c (nil: no cache): it
// applies the result to the task, seals its hash, and returns the result.
// body is the task's body hash before certification (engine.BodyHash).
//
// Certification results are cached by semantic hash: the task as it stands
// before certification (which fixes everything the runtime plays), plus the
// source of every file declaring a fault or distractor kind (the
// diagnosability alternatives come from those).
func Cached(inc Incident, c *Cache, body [sha256.Size]byte) Result {
	t := inc.Task()
	key := certKey(inc, body)
	r, hit := c.result(key)
	if !hit {
		if c != nil {
			c.fresh.Add(1)
		}
		r = Afresh(inc, false)
		r.Apply(t)
		// The task is final now; its hash goes in the cache, so a hit
		// hashes nothing more than the key.
		r.hash = engine.SealHash(body, t)
		c.putResult(key, r)
	}
	r.Apply(t)
	return r
}

// adaptiveFindings plays the adaptive panel on the incident's task and
// returns a finding per policy that wins, but for a known exploit of a
// shipped incident when excusable (never for a mutation variant).
func adaptiveFindings(inc Incident, excusable bool) []Finding {
	t := inc.Task()
	excusable = excusable && IsShipped(inc.Module(), inc.Source())
	var out []Finding
	for _, r := range PlayAdversaries(t, Knowledge(inc.Module()), false) {
		if !r.Won() {
			continue
		}
		if _, known := KnownReason(t.ID, r.Policy); known && excusable {
			continue
		}
		out = append(out, r.finding())
	}
	return out
}

// Afresh runs every rule. Derived evidence and the informed optimum
// come first: the expert and the panel are then graded against the
// certified evidence set and optimal step count. With expertFromPlan, an
// incident without an expert plan (a mutation variant) gets the informed
// optimum as its expert.
func Afresh(inc Incident, expertFromPlan bool) Result {
	t := inc.Task()
	d := deriveEvidence(inc)
	var derived []string
	if len(t.Expert) == 0 && expertFromPlan {
		d.apply(t)
		t.Expert = append([]string(nil), t.Plan...)
		derived = t.Expert
	}
	failures := append(d.failures, d.checkExpert(t)...)
	failures = append(failures, checkChanges(inc)...)
	d.apply(t)
	overBudget := false
	for _, f := range failures {
		overBudget = overBudget || f.where == atBudget
	}
	for _, f := range certifyTask(t, false).findings {
		if overBudget && f.where == atBudget {
			continue // the expert overruns a budget the optimum already does: one root error
		}
		failures = append(failures, f)
	}
	failures = append(failures, adaptiveFindings(inc, !expertFromPlan)...)
	return Result{evidence: t.Evidence, optimal: t.Optimal, plan: t.Plan, failures: failures, expert: derived}
}

// Result is a task's certification: what it writes on the task, and the
// failures found.
type Result struct {
	evidence []engine.Read
	optimal  int
	plan     []string
	failures []Finding
	hash     string // the certified task's semantic hash
	// expert is the plan made the expert of an incident without one
	// (Afresh's expertFromPlan); nil otherwise.
	expert []string
}

// Findings are the certification failures with the parts of the incident
// they are about; empty when the task is certified.
func (r Result) Findings() []Finding { return r.failures }

// Apply writes the result on the task: Evidence, Optimal, Plan, Certified,
// Uncertified, Hash, and Expert when it was derived.
func (r Result) Apply(t *engine.Task) {
	t.Evidence = append([]engine.Read(nil), r.evidence...)
	t.Optimal = r.optimal
	t.Plan = append([]string(nil), r.plan...)
	t.Certified = len(r.failures) == 0
	t.Uncertified = texts(r.failures)
	if r.expert != nil {
		t.Expert = append([]string(nil), r.expert...)
	}
	t.Hash = r.hash
}

// certKey is the cache key of the incident's task.
func certKey(inc Incident, body [sha256.Size]byte) string {
	m := inc.Module()
	files := map[string]bool{}
	for _, k := range m.FaultKinds {
		files[k.DefRange.Filename] = true
	}
	for _, k := range m.DistractorKinds {
		files[k.DefRange.Filename] = true
	}
	sum := sha256.New()
	sum.Write(body[:])
	// The adaptive panel plays with the module's documentation, and a
	// shipped incident's known exploits are excused.
	docs := docsOf(m)
	sum.Write(docs.digest[:])
	if IsShipped(m, inc.Source()) {
		sum.Write([]byte{1})
	}
	// The id is outside the body, but the leak lint reads it.
	sum.Write([]byte(inc.Task().ID))
	sum.Write([]byte{0})
	for _, f := range m.Files {
		if files[f.Name] {
			sum.Write([]byte{0})
			sum.Write([]byte(f.Name))
			sum.Write([]byte{0})
			sum.Write(f.Src)
		}
	}
	return hex.EncodeToString(sum.Sum(nil))
}

// Certify plays the expert plan and the exploit panel on t, every policy,
// for a report.
func Certify(t *engine.Task) *Certificate { return certifyTask(t, true) }

// certifyTask is Certify; without full it skips the policies that cannot
// pass (certainlyFails), which only a report needs played.
func certifyTask(t *engine.Task, full bool) *Certificate {
	if t.Profile == record.ProfileSreZero {
		return certifyRefTask(t)
	}
	if len(t.Sites) > 0 {
		// One site variant, the task itself: every episode below must play
		// it whatever its seed (each variant is certified as its own task
		// when it compiles).
		one := *t
		one.Sites = nil
		t = &one
	}
	c := &Certificate{ClosestReward: math.Inf(-1)}
	panel := exploits(t)
	// The panel ignores the budget: it gets one step more than its longest
	// plan (not an unbounded budget: an episode sizes buffers by it).
	open := *t
	for _, x := range panel {
		open.Budget = max(open.Budget, len(x.plan)+1)
	}
	var unreachable []Finding
	if len(t.Expert) == 0 {
		c.findings = append(c.findings, Finding{"The incident has no expert plan.", atIncident, 0})
	} else {
		expert := engine.NewEpisode(t)
		if r := play(expert, t.Expert); !r.Success {
			// What the plan then fails to earn follows from this one
			// error; reachability is reported for plans that succeed.
			c.findings = append(c.findings, explainExpert(t, r))
		} else {
			unreachable = reachability(t, expert.Components())
		}
	}
	// One episode, reset per policy: Reset restores everything a policy
	// can touch, and allocating an episode per policy cost more than
	// playing it.
	ep := engine.NewEpisode(&open)
	for _, x := range panel {
		if !full && certainlyFails(t, x.plan) {
			continue
		}
		r := play(ep, x.plan)
		c.Panel = append(c.Panel, PanelResult{Name: x.name, Plan: x.plan, Record: r})
		if r.Success {
			c.findings = append(c.findings, Finding{fmt.Sprintf("The answer-blind policy %q succeeds: %s.", x.name, strings.Join(x.plan, "; ")), atIncident, 0})
			continue
		}
		if r.FinalReward > c.ClosestReward {
			c.Closest, c.ClosestReward, c.ClosestWhy = x.name, r.FinalReward, WhyFailed(r)
		}
	}
	c.findings = append(c.findings, unreachable...)
	for _, l := range leakLint(t) {
		c.findings = append(c.findings, Finding{l, atIncident, 0})
	}
	c.Failures = texts(c.findings)
	return c
}

// WhyFailed says why a played policy failed, as the grader judged it.
func WhyFailed(r record.EpisodeMetrics) string {
	var why []string
	if !r.Mitigated {
		why = append(why, "the world was not healthy through the grader's ticks")
	}
	if !r.Diagnosed {
		why = append(why, "the diagnosis did not match")
	}
	if r.WrongChange {
		why = append(why, "a wrong change was left in place")
	}
	if len(why) == 0 {
		why = append(why, "a healthy service was restarted")
	}
	return strings.Join(why, "; ")
}

// play runs text actions from the certification seed and returns the
// record; actions after the end are ignored.
func play(ep *engine.Episode, plan []string) record.EpisodeMetrics {
	t := ep.Task()
	ep.Reset(Seed)
	for _, text := range plan {
		if ep.Done() {
			break
		}
		a := action.Bind(t, text)
		ep.Step(&a)
	}
	return ep.Record()
}

// The blind diagnoses: nothing, a generic guess, and every mechanism of
// the vocabulary asserted on every service (each service as a stated cause:
// "SERVICE: crashed, memory leak, ..."), which blames the uninvolved.
func blindDiagnoses(t *engine.Task) [][2]string {
	var mechs []string
	for _, m := range t.Mechanisms {
		if len(m.Phrases) > 0 {
			mechs = append(mechs, m.Phrases[0])
		}
	}
	var causes []string
	for _, c := range t.Components {
		name := c.Name
		if len(c.Phrases) > 0 {
			name = c.Phrases[0]
		}
		causes = append(causes, name+": "+strings.Join(mechs, ", "))
	}
	return [][2]string{
		{"unknown", "unknown"},
		{"generic", "a service was misconfigured and failing"},
		{"stuffed", strings.Join(causes, "; ")},
	}
}

// trueDiagnosis names every fault's service and mechanism, as the expert
// would.
func trueDiagnosis(t *engine.Task) string {
	var parts []string
	for _, f := range t.Faults {
		comp, mech := t.Services[f.Service].Name, ""
		if int(f.Service) < len(t.Components) && len(t.Components[f.Service].Phrases) > 0 {
			comp = t.Components[f.Service].Phrases[0]
		}
		if int(f.Mechanism) < len(t.Mechanisms) && len(t.Mechanisms[f.Mechanism].Phrases) > 0 {
			mech = t.Mechanisms[f.Mechanism].Phrases[0]
		}
		parts = append(parts, comp+": "+mech)
	}
	return strings.Join(parts, "; ")
}

func resolve(diag, fix string) string {
	return "resolve_incident(" + strconv.Quote(diag) + ", " + strconv.Quote(fix) + ")"
}

// escalate is the hand-over with diag as its reason.
func escalate(t *engine.Task, diag string) string {
	return toolName(t, engine.EffectEscalate) + "(" + strconv.Quote(diag) + ")"
}

func toolName(t *engine.Task, e engine.Effect) string {
	for _, tl := range t.Tools {
		if tl.Effect == e {
			return tl.Name
		}
	}
	return ""
}

// operationTool names the tool that applies operation op.
func operationTool(t *engine.Task, op int16) string {
	for _, tl := range t.Tools {
		if tl.Effect == engine.EffectOperate && tl.Operation == op {
			return tl.Name
		}
	}
	return ""
}

// exploits lists the panel exactly as DESIGN.md tables it.
func exploits(t *engine.Task) []exploit {
	restart, update := toolName(t, engine.EffectRestart), toolName(t, engine.EffectUpdate)
	truth := trueDiagnosis(t)
	var out []exploit
	// (1) Blind mitigation, true diagnosis.
	if restart != "" {
		var plan []string
		for _, s := range t.Services {
			plan = append(plan, restart+"("+s.Name+")")
		}
		out = append(out, exploit{"restart every service", append(plan, resolve(truth, "restarted every service"))})
	}
	if update != "" {
		for _, s := range t.Services {
			for _, mode := range []string{"band maximum", "band minimum", "default"} {
				var plan []string
				for _, c := range s.Config {
					sl := &t.Slots[c]
					if v, ok := blanketValue(t, sl, mode); ok {
						plan = append(plan, update+"("+s.Name+", "+sl.Name+", "+v+")")
					}
				}
				if len(plan) > 0 {
					out = append(out, exploit{"every key of " + s.Name + " to its " + mode, append(plan, resolve(truth, "reset "+s.Name+" configuration"))})
				}
			}
		}
	}
	// (2) True mitigation, blind diagnosis: the expert's writes, and the
	// reads after the first of them, which give the world the time it
	// needs to show the fix (mitigation is what the world shows).
	var writes []string
	for _, a := range t.Expert {
		act := action.Bind(t, a)
		if act.Err != engine.OK {
			continue
		}
		eff := t.Tools[act.Tool].Effect
		if eff == engine.EffectResolve || eff == engine.EffectEscalate || (eff.IsRead() && len(writes) == 0) {
			continue
		}
		writes = append(writes, a)
	}
	for _, d := range blindDiagnoses(t) {
		out = append(out, exploit{"expert's writes, " + d[0] + " diagnosis", append(append([]string(nil), writes...), resolve(d[1], "applied the fix"))})
	}
	// (3) Resolve at once.
	for _, d := range blindDiagnoses(t) {
		out = append(out, exploit{"resolve at once, " + d[0] + " diagnosis", []string{resolve(d[1], "none")}})
	}
	// (4) Hand over at once: where escalating is the right end, only the
	// right cause may make it succeed.
	if toolName(t, engine.EffectEscalate) != "" {
		for _, d := range blindDiagnoses(t) {
			out = append(out, exploit{"escalate at once, " + d[0] + " diagnosis", []string{escalate(t, d[1])}})
		}
	}
	return out
}

// blanketValue is the text of a config value for a blanket edit: numeric
// keys to their band maximum or minimum, or any key to its default.
func blanketValue(t *engine.Task, sl *engine.Slot, mode string) (string, bool) {
	if mode == "default" {
		switch sl.Kind {
		case value.Int:
			return strconv.FormatInt(int64(sl.Default), 10), true
		case value.Float:
			return floatText(math.Float64frombits(sl.Default)), true
		case value.Bool:
			return strconv.FormatBool(sl.Default != 0), true
		case value.String:
			if int(sl.Default) < len(t.Strings) {
				return strconv.Quote(t.Strings[sl.Default]), true
			}
		}
		return "", false
	}
	if !sl.HasBand {
		return "", false
	}
	v := sl.High
	if mode == "band minimum" {
		v = sl.Low
	}
	switch sl.Kind {
	case value.Int:
		return strconv.FormatInt(int64(v), 10), true
	case value.Float:
		return floatText(v), true
	}
	return "", false
}

func floatText(f float64) string {
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.ContainsAny(s, ".eE") {
		s += ".0"
	}
	return s
}

// reachability checks that every rubric item with a weight can be earned:
// c holds what the expert plan earned.
func reachability(t *engine.Task, c record.Components) []Finding {
	var out []Finding
	for _, x := range []struct {
		name         string
		weight, have float64
	}{
		{"evidence", t.Rubric.Evidence, c.Evidence},
		{"diagnosis", t.Rubric.Diagnosis, c.Diagnosis},
		{"mitigation", t.Rubric.Mitigation, c.Mitigation},
		{"resolution", t.Rubric.Resolution, c.Resolution},
		{"efficiency", t.Rubric.Efficiency, c.Efficiency},
	} {
		if x.weight > 0 && x.have <= 0 {
			out = append(out, Finding{fmt.Sprintf("The rubric item %q cannot be earned: the expert plan earns nothing for it.", x.name), atRubric, 0})
		}
	}
	return out
}

// certainlyFails reports whether a plan leaves a config key outside every
// fault's remedies changed from its initial value: success forbids that
// (a wrong change), so such a plan fails whatever the world does. Most of
// the panel's blanket edits are such plans.
func certainlyFails(t *engine.Task, plan []string) bool {
	init := t.Row()
	final := map[engine.SlotID]uint64{}
	for _, text := range plan {
		a := action.Bind(t, text)
		if a.Err != engine.OK || a.Tool < 0 || int(a.Tool) >= len(t.Tools) {
			continue
		}
		switch t.Tools[a.Tool].Effect {
		case engine.EffectRestart, engine.EffectRollback, engine.EffectOperate:
			return false // a restart or rollback block may write keys: play it
		case engine.EffectUpdate:
		default:
			continue
		}
		w, ok := t.WordOf(a.Value)
		if !ok {
			continue // a string the task has never seen: leave it to play
		}
		final[a.Key] = w
	}
	for s, w := range final {
		if int(s) < len(init) && w != init[s] && !isRemedySlot(t, s) {
			return true
		}
	}
	return false
}

func isRemedySlot(t *engine.Task, s engine.SlotID) bool {
	for i := range t.Faults {
		for _, r := range t.Faults[i].Remedies {
			if r.Slot == s {
				return true
			}
		}
	}
	return false
}
