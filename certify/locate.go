package certify

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/srezc/srezc/action"
	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/lang"
	"github.com/srezc/srezc/record"
	"github.com/srezc/srezc/value"
)

// A certification failure is reported where an author fixes it: on the
// expert action, the budget, the fault or distractor block, or the rubric
// responsible, not on the incident's first line. A finding carries that
// place as a locus into the incident, resolved to a source range only when
// diagnostics are made (certification results are cached per semantic
// hash, so they hold no ranges).

// where names the part of an incident a finding is about.
type where uint8

const (
	atIncident   where = iota
	atBudget           // the budget attribute
	atExpert           // expert action i, or the whole plan when i < 0
	atFault            // fault block i
	atDistractor       // distractor block i
	atRubric           // the rubric attribute
)

// Finding is one certification failure and the part of the incident it is
// about.
type Finding struct {
	text  string
	where where
	i     int
}

// Text is the failure as a certification error states it.
func (f Finding) Text() string { return f.text }

func texts(fs []Finding) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.text
	}
	return out
}

// Range is the source range of a finding's locus in the incident; a locus
// the incident does not have (a mutation variant's derived plan) falls back
// to the incident's header.
func (f Finding) Range(in *lang.Incident) lang.Range {
	switch f.where {
	case atBudget:
		if in.BudgetRange.Filename != "" {
			return in.BudgetRange
		}
	case atExpert:
		if n := len(in.ExpertRange); n > 0 {
			if f.i >= 0 && f.i < n {
				return in.ExpertRange[f.i]
			}
			r := in.ExpertRange[0]
			r.End = in.ExpertRange[n-1].End
			return r
		}
	case atFault:
		if f.i >= 0 && f.i < len(in.Faults) {
			return in.Faults[f.i].DefRange
		}
	case atDistractor:
		if f.i >= 0 && f.i < len(in.Distractors) {
			return in.Distractors[f.i].DefRange
		}
	case atRubric:
		if in.RubricRange.Filename != "" {
			return in.RubricRange
		}
	}
	return in.DefRange
}

// explainExpert replays an expert plan that does not succeed and names the
// action, attribute or block responsible, with the numbers: the budget it
// overruns, the write whose value misses its fault's fix range, the wrong
// change, the diagnosis that does not match.
func explainExpert(t *engine.Task, r record.EpisodeMetrics) Finding {
	const prefix = "The expert plan does not succeed: "
	if r.Terminal == engine.TermBudget.String() {
		return Finding{fmt.Sprintf("%sit needs %d steps, the budget is %d.", prefix, len(t.Expert), t.Budget), atBudget, 0}
	}
	ep := engine.NewEpisode(t)
	ep.Reset(Seed)
	lastWrite := map[engine.SlotID]int{}
	var restarts []int
	resolveAt := -1
	var unfixed *Finding
	var unhealthy string
	for i, text := range t.Expert {
		if ep.Done() {
			break
		}
		a := action.Bind(t, text)
		if a.Err == engine.OK {
			switch t.Tools[a.Tool].Effect {
			case engine.EffectUpdate:
				lastWrite[a.Key] = i
			case engine.EffectRestart, engine.EffectRollback, engine.EffectOperate:
				restarts = append(restarts, i)
			case engine.EffectResolve, engine.EffectEscalate:
				resolveAt = i
				unfixed = whyUnfixed(t, ep, lastWrite, restarts)
				unhealthy = unhealthyServices(t, ep)
			}
		}
		ep.Step(&a)
	}
	last := len(t.Expert) - 1
	switch {
	case resolveAt < 0:
		return Finding{fmt.Sprintf("%sit ends without %s.", prefix, toolName(t, engine.EffectResolve)), atExpert, last}
	case !r.Mitigated && unfixed != nil:
		unfixed.text = prefix + unfixed.text
		return *unfixed
	case !r.Mitigated:
		// fixed_when and the world disagree: the author's statement is
		// where to look, on the first fault (its kind's fixed_when).
		state := "resolved_when fails within the grader's ticks"
		if unhealthy != "" {
			state = unhealthy
		}
		return Finding{fmt.Sprintf("%severy fault's fixed_when holds when it resolves, but the world is not mitigated (%s): the fixed_when of %q says fixed where the world is not.", prefix, state, t.Faults[0].Kind), atFault, 0}
	case !r.Diagnosed:
		return Finding{fmt.Sprintf("%sthe diagnosis does not match the root cause (%s).", prefix, rootCauses(t)), atExpert, resolveAt}
	case r.WrongChange:
		if f, ok := wrongChange(t, ep, lastWrite); ok {
			f.text = prefix + f.text
			return f
		}
	}
	for _, i := range restarts {
		a := action.Bind(t, t.Expert[i])
		if !isFaultService(t, a.Service) {
			return Finding{fmt.Sprintf("%sit restarts %s, which no fault touches.", prefix, t.Services[a.Service].Name), atExpert, i}
		}
	}
	return Finding{fmt.Sprintf("%s%s.", prefix, WhyFailed(r)), atExpert, resolveAt}
}

// whyUnfixed names the first fault (task fault i is fault block i: the
// compiler lowers the blocks in order, one task fault each) whose fixed_when does not hold on ep's
// current row, and the expert's write responsible: the last write to one
// of its remedy keys, with the fix range that value misses; or the fault's
// block when the plan never writes its keys.
func whyUnfixed(t *engine.Task, ep *engine.Episode, lastWrite map[engine.SlotID]int, restarts []int) *Finding {
	for fi := range t.Faults {
		if ep.FaultFixed(fi) {
			continue
		}
		f := &t.Faults[fi]
		name := fmt.Sprintf("%q on %s", f.Kind, t.Services[f.Service].Name)
		for _, rm := range f.Remedies {
			if rm.Effect != engine.EffectUpdate {
				continue
			}
			i, ok := lastWrite[rm.Slot]
			if !ok {
				continue
			}
			sl := &t.Slots[rm.Slot]
			got := valueText(t, sl, ep.Row()[rm.Slot])
			if rng, ok := fixRange(t, ep, fi, rm); ok {
				return &Finding{fmt.Sprintf("%s is outside the fix range %s of the fault %s, so that fault is not fixed when the plan resolves.", got, rng, name), atExpert, i}
			}
			return &Finding{fmt.Sprintf("setting %s to %s does not fix the fault %s: its fixed_when does not hold when the plan resolves.", sl.Name, got, name), atExpert, i}
		}
		var how []string
		for _, rm := range f.Remedies {
			text, _ := remedyText(t, rm)
			how = append(how, text)
		}
		return &Finding{fmt.Sprintf("it never fixes the fault %s: its fixed_when does not hold when the plan resolves (a canonical fix is %s).", name, strings.Join(how, " or ")), atFault, fi}
	}
	return nil
}

// fixRange is the interval of values of a remedy's key that make the fault's
// fixed_when hold on ep's current row, other keys as they are, found by
// bisection from the canonical fix value outwards (fixed_when conditions
// are ranges: "x >= 20 && x <= 150"). ok is false when the canonical value
// itself does not fix the fault on this row, or the key is not numeric.
func fixRange(t *engine.Task, ep *engine.Episode, fi int, rm engine.Remedy) (string, bool) {
	sl := &t.Slots[rm.Slot]
	fixed := func(w uint64) bool { return ep.FaultFixedWith(fi, rm.Slot, w) }
	if !fixed(rm.Value) {
		return "", false
	}
	switch sl.Kind {
	case value.Int:
		const far = int64(1) << 40
		at := int64(rm.Value)
		edge := func(dir int64) (int64, bool) {
			if fixed(uint64(at + dir*far)) {
				return 0, false
			}
			in, out := at, at+dir*far // fixed at in, not at out
			for (out-in)*dir > 1 {
				mid := in + (out-in)/2
				if fixed(uint64(mid)) {
					in = mid
				} else {
					out = mid
				}
			}
			return in, true
		}
		lo, hasLo := edge(-1)
		hi, hasHi := edge(1)
		return rangeText(strconv.FormatInt(lo, 10), hasLo, strconv.FormatInt(hi, 10), hasHi), true
	case value.Float:
		const far = 1e15
		at := math.Float64frombits(rm.Value)
		edge := func(dir float64) (float64, bool) {
			if fixed(math.Float64bits(at + dir*far)) {
				return 0, false
			}
			in, out := at, at+dir*far
			for k := 0; k < 200 && in != out; k++ {
				mid := in + (out-in)/2
				if mid == in || mid == out {
					break
				}
				if fixed(math.Float64bits(mid)) {
					in = mid
				} else {
					out = mid
				}
			}
			return in, true
		}
		lo, hasLo := edge(-1)
		hi, hasHi := edge(1)
		short := func(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }
		return rangeText(short(lo), hasLo, short(hi), hasHi), true
	}
	return "", false
}

func rangeText(lo string, hasLo bool, hi string, hasHi bool) string {
	switch {
	case hasLo && hasHi:
		return lo + ".." + hi
	case hasLo:
		return "(at least " + lo + ")"
	case hasHi:
		return "(at most " + hi + ")"
	}
	return "(any value)"
}

// wrongChange finds a config key the plan leaves changed that no fault's
// remedy sets, and the action that last wrote it.
func wrongChange(t *engine.Task, ep *engine.Episode, lastWrite map[engine.SlotID]int) (Finding, bool) {
	init, row := t.Row(), ep.Row()
	slots := make([]engine.SlotID, 0, len(lastWrite))
	for s := range lastWrite {
		slots = append(slots, s)
	}
	sort.Slice(slots, func(a, b int) bool { return lastWrite[slots[a]] < lastWrite[slots[b]] })
	for _, s := range slots {
		if row[s] == init[s] || isRemedySlot(t, s) {
			continue
		}
		sl := &t.Slots[s]
		return Finding{fmt.Sprintf("it leaves %s of %s changed from %s to %s, a wrong change: no fault's remedy sets that key.",
			sl.Name, t.Services[sl.Service].Name, valueText(t, sl, init[s]), valueText(t, sl, row[s])), atExpert, lastWrite[s]}, true
	}
	return Finding{}, false
}

// rootCauses lists each fault's service and mechanism, as ids.
func rootCauses(t *engine.Task) string {
	var out []string
	for _, f := range t.Faults {
		mech := ""
		if int(f.Mechanism) < len(t.Mechanisms) {
			mech = t.Mechanisms[f.Mechanism].Name
		}
		out = append(out, t.Services[f.Service].Name+": "+mech)
	}
	return strings.Join(out, "; ")
}

func isFaultService(t *engine.Task, svc int16) bool {
	for _, f := range t.Faults {
		if f.Service == svc {
			return true
		}
	}
	return false
}

// unhealthyServices lists the services whose status is not healthy on ep's
// current row, as "kv_main is degraded".
func unhealthyServices(t *engine.Task, ep *engine.Episode) string {
	row := ep.Row()
	var out []string
	for _, sv := range t.Services {
		if sv.Status == engine.NoSlot {
			continue
		}
		if st := stringOf(t, row[sv.Status]); st != engine.StatusHealthy {
			out = append(out, sv.Name+" is "+st)
		}
	}
	return strings.Join(out, ", ")
}
