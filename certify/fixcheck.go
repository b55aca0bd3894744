package certify

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/lang"
	"github.com/srezc/srezc/value"
)

// A fault's fixed_when is its author's statement of what fixes it;
// mitigation is what the world shows (engine/mitigation.go). Certification
// holds the two to agreement (DESIGN.md, "Decisions taken on 2026-11-24"):
// for every fault, with every other fault fixed the canonical way, each of
// its remedy inputs is swept over a grid of representative values, applied
// on a fork of the episode at step 0, and the world is run forward. Where
// fixed_when and the world disagree — a value the world shows healthy that
// fixed_when calls unfixed, or the reverse — the task is not certified, with
// an error at the fixed_when attribute of the fault kind (or, for a stdlib
// fault kind, which an incident's author cannot edit, at the incident's
// fault block) naming the value and what the world shows.
//
// The grid of an update_config remedy's key: for a bool both values; for a
// string the remedy's value, the documented default, the site's value, the
// faulty value and the string values of the fault kind's parameter domains;
// for a number the same plus the key's band edges, and the value of every
// config key with the same unit on the same service or a service on either
// side of one of its dependency edges (the settings it must fit: a pool
// under the server's limit, a callee's deadline under its caller's),
// together with its neighbours one step either side. A restart remedy's input is whether
// the service is restarted.
//
// The world is run forward for the task's budget (no agent can wait
// longer), then judged as the grader judges a resolution, noise off;
// fixed_when is read on the same row.

// fixFinding is one fault whose fixed_when disagrees with the world.
type fixFinding struct {
	fault  int // index into the incident's faults
	detail string
}

// fixInput is one remedy input of a fault and the values it is swept over;
// a restart's two values are noRestart and the Null value (restart done).
type fixInput struct {
	remedy int
	values []value.Value
}

// FixFinding is a fault whose fixed_when disagrees with the world, and
// where the disagreement is reported.
type FixFinding struct {
	Detail string
	At     lang.Range
}

// Fixes is the fixed_when cross-check: a finding per fault whose
// fixed_when disagrees with the world, through the cache c (nil: none).
//
// Findings are cached like certification results, by what they depend on:
// the task's behaviour (the body hash Cached computed, which holds the
// program, the faults' fixed_when and remedies and the initial state) and
// the parameter domains of the incident's fault kinds (the grid draws on
// them; they live in the source, not the task). Ranges are not cached:
// they are looked up afresh, so an edit that only moves a line is reported
// where the line now is.
func Fixes(inc Incident, c *Cache) []FixFinding {
	key := fixKey(inc)
	findings, hit := c.fixFindings(key)
	if !hit {
		findings = checkFixedWhen(inc)
		c.putFixFindings(key, findings)
	}
	var out []FixFinding
	for _, f := range findings {
		out = append(out, FixFinding{Detail: f.detail, At: fixedWhenRange(inc, f.fault)})
	}
	return out
}

func fixKey(inc Incident) string {
	m := inc.Module()
	var k strings.Builder
	k.WriteString(inc.Task().Behaviour)
	for _, fu := range inc.Source().Faults {
		k.WriteByte(0)
		k.WriteString(fu.Name)
		if fk := m.FaultKind(fu.Name); fk != nil {
			for _, p := range fk.Params {
				k.WriteByte(1)
				k.WriteString(p.Name)
				for _, v := range p.Domain {
					k.WriteByte(2)
					k.WriteString(v.K.String())
					k.WriteString(v.String())
				}
			}
		}
	}
	return k.String()
}

// fixedWhenRange is where a disagreement is reported: the fault kind's
// fixed_when, or the incident's fault block when the kind is the stdlib's.
func fixedWhenRange(inc Incident, fault int) lang.Range {
	fu := inc.Source().Faults[fault]
	fk := inc.Module().FaultKind(fu.Name)
	if fk != nil && fk.FixedWhen != nil && !strings.HasPrefix(fk.FixedWhen.Range.Filename, lang.StdlibPrefix) {
		return fk.FixedWhen.Range
	}
	return fu.DefRange
}

// checkFixedWhen sweeps every fault's remedy inputs (see the top of the
// file) and returns a finding per fault whose fixed_when disagrees with
// the world at some value.
func checkFixedWhen(inc Incident) []fixFinding {
	t := inc.Task()
	restartTool, updateTool := toolName(t, engine.EffectRestart), toolName(t, engine.EffectUpdate)
	// The remedies are steps; the waiting that follows is idle ticks, which
	// no budget counts. The margin covers the other faults' remedies.
	open := *t
	open.Budget = t.Budget + 8
	var out []fixFinding
	for fi := range t.Faults {
		base := engine.NewEpisode(&open)
		base.Reset(Seed)
		for fj := range t.Faults {
			if fj != fi {
				applyRemedies(base, fj, -1, value.Value{}, restartTool, updateTool)
			}
		}
		var bad []string
		first := ""
		for _, in := range fixInputs(inc, fi) {
			for _, v := range in.values {
				ep := base.Fork()
				applyRemedies(ep, fi, in.remedy, v, restartTool, updateTool)
				for k := 0; k < t.Budget; k++ {
					ep.Advance()
				}
				fixed := ep.FaultFixed(fi)
				healthy := ep.Mitigated()
				if fixed == healthy {
					continue
				}
				what := inputText(t, &t.Faults[fi].Remedies[in.remedy], v)
				bad = append(bad, what)
				if first == "" {
					first = disagreement(ep, what, fixed, healthy)
				}
			}
		}
		if first == "" {
			continue
		}
		fu := inc.Source().Faults[fi]
		detail := fmt.Sprintf("The fault %q on %s: fixed_when disagrees with the world: %s", fu.Name, fu.Target, first)
		if len(bad) > 1 {
			detail += fmt.Sprintf(" It disagrees at %d values in all: %s.", len(bad), strings.Join(bad, ", "))
		}
		out = append(out, fixFinding{fault: fi, detail: detail})
	}
	return out
}

// applyRemedies applies fault fi's canonical remedies, except that remedy
// swept takes the value v (a nil-kind value: the restart is not done).
func applyRemedies(ep *engine.Episode, fi, swept int, v value.Value, restartTool, updateTool string) {
	t := ep.Task()
	for ri, r := range t.Faults[fi].Remedies {
		svc := value.OfString(t.Services[r.Service].Name)
		var a engine.Action
		switch r.Effect {
		case engine.EffectRestart:
			if ri == swept && v.K != value.Null {
				continue
			}
			a = t.Bind(restartTool, []value.Value{svc})
		case engine.EffectRollback:
			if ri == swept && v.K != value.Null {
				continue
			}
			a = t.Bind(toolName(t, engine.EffectRollback), []value.Value{svc})
		case engine.EffectOperate:
			if ri == swept && v.K != value.Null {
				continue
			}
			args := []value.Value{svc}
			for _, x := range r.Args {
				args = append(args, value.OfString(x))
			}
			a = t.Bind(operationTool(t, r.Operation), args)
		case engine.EffectUpdate:
			x := t.ValueOf(t.Slots[r.Slot].Kind, r.Value)
			if ri == swept {
				x = v
			}
			a = t.Bind(updateTool, []value.Value{svc, value.OfString(t.Slots[r.Slot].Name), x})
		default:
			continue
		}
		ep.Step(&a)
	}
}

// noRestart marks the swept restart as not done (any non-Null value
// would; this one is never a config value, since restarts have no key).
var noRestart = value.Value{K: value.Bool}

// fixInputs lists fault fi's remedy inputs and their grids.
func fixInputs(inc Incident, fi int) []fixInput {
	t := inc.Task()
	f := &t.Faults[fi]
	var params []*lang.Param
	if fk := inc.Module().FaultKind(inc.Source().Faults[fi].Name); fk != nil {
		params = fk.Params
	}
	var out []fixInput
	for ri, r := range f.Remedies {
		switch r.Effect {
		case engine.EffectRestart, engine.EffectRollback, engine.EffectOperate:
			out = append(out, fixInput{remedy: ri, values: []value.Value{noRestart, {}}})
		case engine.EffectUpdate:
			out = append(out, fixInput{remedy: ri, values: grid(inc, r, params)})
		}
	}
	return out
}

// grid is the representative values of a remedy's key, sorted, each once.
func grid(inc Incident, r engine.Remedy, params []*lang.Param) []value.Value {
	t := inc.Task()
	sl := &t.Slots[r.Slot]
	k := sl.Kind
	var vs []value.Value
	add := func(v value.Value) {
		if v, ok := convertTo(v, k); ok && v.K == k && !slices.ContainsFunc(vs, v.Equal) {
			vs = append(vs, v)
		}
	}
	if k == value.Bool {
		return []value.Value{value.OfBool(false), value.OfBool(true)}
	}
	add(t.ValueOf(k, r.Value))
	add(t.ValueOf(k, sl.Default))
	add(inc.Base(r.Slot))
	add(t.ValueOf(k, t.Row()[r.Slot]))
	for _, p := range params {
		for _, v := range p.Domain {
			add(v)
		}
	}
	if k == value.Int || k == value.Float {
		if sl.HasBand {
			add(number(k, sl.Low))
			add(number(k, sl.High))
		}
		for si, svc := range t.Services {
			if !adjacent(t, int(r.Service), si) {
				continue
			}
			for _, c := range svc.Config {
				o := &t.Slots[c]
				if c == r.Slot || o.Unit == "" || o.Unit != sl.Unit || (o.Kind != value.Int && o.Kind != value.Float) {
					continue
				}
				x := t.ValueOf(o.Kind, t.Row()[c]).AsFloat()
				step := 1.0
				if k == value.Float {
					step = math.Max(math.Abs(x)*0.01, 0.001)
				}
				for _, y := range []float64{x - step, x, x + step} {
					if y >= 0 {
						add(number(k, y))
					}
				}
			}
		}
	}
	slices.SortFunc(vs, func(a, b value.Value) int {
		switch {
		case a.Less(b):
			return -1
		case b.Less(a):
			return 1
		}
		return 0
	})
	return vs
}

// adjacent reports whether services a and b are the same or one calls the
// other: the settings a fix must fit are its own service's and those of
// the services on either side of a dependency edge.
func adjacent(t *engine.Task, a, b int) bool {
	return a == b || slices.Contains(t.Services[a].Deps, int16(b)) || slices.Contains(t.Services[b].Deps, int16(a))
}

func number(k value.Kind, x float64) value.Value {
	if k == value.Int {
		return value.OfInt(int64(math.Round(x)))
	}
	return value.OfFloat(x)
}

// inputText names a swept input: "pool_size = 200", "restarting database".
func inputText(t *engine.Task, r *engine.Remedy, v value.Value) string {
	if r.Effect == engine.EffectRestart {
		if v.K == value.Null {
			return "restarting " + t.Services[r.Service].Name
		}
		return "not restarting " + t.Services[r.Service].Name
	}
	if r.Effect == engine.EffectRollback {
		if v.K == value.Null {
			return "rolling back " + t.Services[r.Service].Name
		}
		return "not rolling back " + t.Services[r.Service].Name
	}
	if r.Effect == engine.EffectOperate {
		op := t.Operations[r.Operation].Name
		if v.K == value.Null {
			return "applying " + op + " to " + t.Services[r.Service].Name
		}
		return "not applying " + op + " to " + t.Services[r.Service].Name
	}
	text := v.String()
	if v.K == value.String {
		text = strconv.Quote(v.S)
	}
	return t.Slots[r.Slot].Name + " = " + text
}

// disagreement says what the world shows for one input.
func disagreement(ep *engine.Episode, what string, fixed, healthy bool) string {
	if healthy {
		return what + " satisfies the world (all services healthy, no metric out of band, the alert's condition gone, through the grader's window) but fixed_when says unfixed."
	}
	return what + " leaves the world unhealthy (" + worldShows(ep) + ") but fixed_when says fixed."
}

// worldShows describes the first anomaly the grader's window meets after
// the current tick, on a fork.
func worldShows(ep *engine.Episode) string {
	t := ep.Task()
	f := ep.Fork()
	for k := 0; k < 2*max(t.Hold, 1); k++ {
		f.Advance()
		bad := f.AppendAnomalies(nil)
		if len(bad) == 0 {
			continue
		}
		row := f.Row()
		var parts []string
		for _, s := range bad {
			sl := &t.Slots[s]
			name := t.Services[sl.Service].Name + "." + sl.Name
			v := t.ValueOf(sl.Kind, row[s])
			if sl.Class == engine.ClassStatus {
				parts = append(parts, name+" is "+v.String())
				continue
			}
			parts = append(parts, fmt.Sprintf("%s = %s, outside %s to %s", name, v.String(),
				strconv.FormatFloat(sl.Low, 'f', -1, 64), strconv.FormatFloat(sl.High, 'f', -1, 64)))
		}
		if len(parts) > 3 {
			parts = append(parts[:3], fmt.Sprintf("%d more", len(bad)-3))
		}
		return strings.Join(parts, "; ")
	}
	return "the incident's resolved_when does not hold"
}

// convertTo converts a value to a slot's kind as the compiler does: an int
// widens to a float; any other mismatch is not converted.
func convertTo(v value.Value, k value.Kind) (value.Value, bool) {
	if v.K == k {
		return v, true
	}
	if v.K == value.Int && k == value.Float {
		return value.OfFloat(float64(v.I)), true
	}
	return v, false
}
