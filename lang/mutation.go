package lang

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/vm"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"

	"github.com/srezc/srezc/value"
)

// A mutation expands one incident along axes: fault kinds × the services
// each applies to × parameter values from their domains × a distractor
// (or none) × a noise pattern (or none), filtered by an expr constraint
// over the axes. Every variant is a whole incident: the base's system,
// rubric, budget and timing with its faults; its alert and expert plan are
// derived when it compiles (the alerting service's symptom, the certified
// informed optimum), since the base's were written for another fault.
//
// With second_faults a variant carries a pair of faults: the first from
// faults × targets, the second from second_faults × second_targets, placed
// on another service, the same one or either (pairs). A pair whose kinds
// cannot share a service (the same kind, conflicts_with either way, or an
// edit of the same config key or state) is never drawn, and a pair and its
// reverse are one variant. With cascade the fault sits on a dependency of
// another service and the variant is kept only when its alert names a
// service with no fault (the compiler checks it; the alerting service is a
// victim of the fault upstream of it).

// Mutation is a mutation block.
type Mutation struct {
	Decl
	From      string
	FromRange Range
	// Faults, Targets, Distractors and Noise are the axes as written; an
	// empty list that was not written means the default (see Space).
	Faults, Targets, Distractors, Noise []string
	FaultRanges, TargetRanges           []Range
	DistractorRanges, NoiseRanges       []Range
	HasFaults, HasTargets               bool
	FaultsRange, TargetsRange           Range
	// Parameters is "domain" (every value of each parameter's domain) or
	// "default" (each parameter's default).
	Parameters      string
	ParametersRange Range
	// ParamValues narrow a parameter's values, by name, for every fault
	// kind of the axis that has it; each value must be in its domain.
	ParamValues []*ParamValues
	Split       string
	Where       string
	WhereRange  Range
	where       *vm.Program
	// SecondFaults and SecondTargets are the pair axis as written: with
	// second_faults each variant has a second fault (see Space).
	SecondFaults, SecondTargets           []string
	SecondFaultRanges, SecondTargetRanges []Range
	HasSecondFaults, HasSecondTargets     bool
	SecondFaultsRange, SecondTargetsRange Range
	// Pairs places the second fault: PairsDistinct (the default),
	// PairsSameService or PairsAny.
	Pairs      string
	PairsRange Range
	// Cascade keeps only variants whose fault is upstream of the alerted
	// service.
	Cascade      bool
	CascadeRange Range
}

// The placements of a pair's second fault.
const (
	PairsDistinct    = "distinct"     // on another service than the first
	PairsSameService = "same_service" // on the first fault's service
	PairsAny         = "any"
)

// Multi reports whether a mutation's variants carry two faults.
func (mu *Mutation) Multi() bool { return mu.HasSecondFaults }

// ParamValues is a param block of a mutation.
type ParamValues struct {
	Decl
	Values      []value.Value
	ValueRanges []Range
}

// None marks the empty choice on the distractor and noise axes.
const None = "none"

func (d *decoder) mutation(blk *hclsyntax.Block) *Mutation {
	mu := &Mutation{Decl: d.decl(blk)}
	d.broken = &mu.Decl
	defer func() { d.broken = nil }()
	c := d.content(blk.Body, blk.DefRange(), schemaAt("mutation"))
	for _, b := range c.blocks {
		pc := d.content(b.Body, b.DefRange(), schemaAt("mutation/param"))
		pv := &ParamValues{Decl: d.decl(b)}
		if a, ok := pc.attrs["values"]; ok {
			if tup, ok := a.Expr.(*hclsyntax.TupleConsExpr); ok {
				for _, e := range tup.Exprs {
					v, ds := e.Value(nil)
					if ds.HasErrors() || v.IsNull() || !v.IsWhollyKnown() {
						d.errAt(e.Range(), "Invalid value", "Each parameter value is a literal.")
						continue
					}
					pv.Values = append(pv.Values, ctyLiteral(v, d.writtenAsFloat(e)))
					pv.ValueRanges = append(pv.ValueRanges, fromHCL(e.Range()))
				}
			} else {
				d.errAt(a.Expr.Range(), "Incorrect attribute value type", `"values" must be a list of literals.`)
			}
		}
		mu.ParamValues = append(mu.ParamValues, pv)
	}
	mu.Description = d.str(c, "description")
	mu.From, mu.FromRange = d.str(c, "from"), attrRange(c, "from", mu.DefRange)
	list := func(name string) ([]string, []Range, bool) {
		xs := d.strList(c, name)
		return xs, elemRanges(c, name, len(xs)), c.has(name)
	}
	mu.Faults, mu.FaultRanges, mu.HasFaults = list("faults")
	mu.Targets, mu.TargetRanges, mu.HasTargets = list("targets")
	mu.FaultsRange, mu.TargetsRange = attrRange(c, "faults", mu.DefRange), attrRange(c, "targets", mu.DefRange)
	mu.Distractors, mu.DistractorRanges, _ = list("distractors")
	mu.Noise, mu.NoiseRanges, _ = list("noise")
	mu.Parameters, mu.ParametersRange = d.str(c, "parameters"), attrRange(c, "parameters", mu.DefRange)
	if mu.Parameters == "" {
		mu.Parameters = "domain"
	}
	mu.Split = d.str(c, "split")
	mu.Where, mu.WhereRange = d.str(c, "where"), attrRange(c, "where", mu.DefRange)
	mu.SecondFaults, mu.SecondFaultRanges, mu.HasSecondFaults = list("second_faults")
	mu.SecondTargets, mu.SecondTargetRanges, mu.HasSecondTargets = list("second_targets")
	mu.SecondFaultsRange, mu.SecondTargetsRange = attrRange(c, "second_faults", mu.DefRange), attrRange(c, "second_targets", mu.DefRange)
	mu.Pairs, mu.PairsRange = d.str(c, "pairs"), attrRange(c, "pairs", mu.DefRange)
	if mu.Pairs == "" {
		mu.Pairs = PairsDistinct
	}
	mu.Cascade, mu.CascadeRange = d.boolean(c, "cascade"), attrRange(c, "cascade", mu.DefRange)
	return mu
}

// whereEnv is the constraint's environment: the axes of one variant.
// A single-fault variant's fault2, target2 and kind2 are "" and its param2
// is empty.
func whereEnv(v *Variant) map[string]any {
	params := func(fs []Field) map[string]any {
		out := map[string]any{}
		for _, p := range fs {
			switch p.Value.K {
			case value.Int:
				out[p.Name] = int(p.Value.I)
			case value.Float:
				out[p.Name] = p.Value.F
			case value.Bool:
				out[p.Name] = p.Value.B
			default:
				out[p.Name] = p.Value.S
			}
		}
		return out
	}
	return map[string]any{"fault": v.Fault, "target": v.Target, "kind": v.Kind, "distractor": v.Distractor,
		"distractor_target": v.DistractorTarget, "noise": v.Noise, "param": params(v.Params),
		"fault2": v.Fault2, "target2": v.Target2, "kind2": v.Kind2, "param2": params(v.Params2), "cascade": v.Cascade}
}

// checkMutation checks a mutation's axes against the module and compiles
// its constraint.
func (c *checker) checkMutation(mu *Mutation) {
	m := c.m
	errorsBefore := len(c.diags)
	base := m.MutationBase(mu)
	if base == nil {
		embedded, _ := m.EmbeddedNames()
		if embedded == nil {
			c.unknown(mu.FromRange, "incident", mu.From, names(m.Incidents))
			return
		}
		c.errRange(mu.FromRange, "Unknown incident", fmt.Sprintf("There is no incident named %q in the module or the embedded default (srezc export scenarios writes the embedded incidents).%s",
			mu.From, didYouMean(mu.From, append(names(m.Incidents), embedded...))))
		return
	}
	if m.Profile(base) != ProfileNative {
		c.errRange(mu.FromRange, "Mutation of an sre_zero incident", fmt.Sprintf("%q is a literal reference task; mutation varies native faults.", mu.From))
		return
	}
	sys := m.System(base.System)
	if sys == nil {
		return
	}
	if mu.HasFaults && len(mu.Faults) == 0 {
		c.errRange(mu.FaultsRange, "Empty axis", "The faults axis lists no fault kind, so the mutation has no variant.")
	}
	if mu.HasTargets && len(mu.Targets) == 0 {
		c.errRange(mu.TargetsRange, "Empty axis", "The targets axis lists no service, so the mutation has no variant.")
	}
	for i, f := range mu.Faults {
		fk := m.FaultKind(f)
		if fk == nil {
			c.unknown(mu.FaultRanges[i], "fault kind", f, names(m.FaultKinds))
			continue
		}
		if mu.HasTargets {
			applies := false
			for _, t := range mu.Targets {
				if ss := sys.Service(t); ss != nil && slices.Contains(fk.AppliesTo, ss.Kind) {
					applies = true
				}
			}
			if !applies {
				c.errRange(mu.FaultRanges[i], "Fault applies to no target", fmt.Sprintf("The fault kind %q applies to %s, and no listed target is one.", f, strings.Join(fk.AppliesTo, ", ")))
			}
		}
	}
	for i, t := range mu.Targets {
		if sys.Service(t) == nil {
			c.unknown(mu.TargetRanges[i], "service", t, names(sys.Services))
		}
	}
	c.checkPairAxis(mu, sys)
	for i, dk := range mu.Distractors {
		if dk != None && m.DistractorKind(dk) == nil {
			c.unknown(mu.DistractorRanges[i], "distractor kind", dk, append(names(m.DistractorKinds), None))
		}
	}
	for i, n := range mu.Noise {
		if n != None && m.NoisePattern(n) == nil {
			c.unknown(mu.NoiseRanges[i], "noise pattern", n, append(names(m.NoisePatterns), None))
		}
	}
	dupes(c, "param", mu.ParamValues)
	for _, pv := range mu.ParamValues {
		if len(pv.Values) == 0 {
			c.errRange(pv.NameRange, "Empty axis", fmt.Sprintf("The param %q lists no value, so the mutation has no variant.", pv.Name))
		}
		found := false
		for _, f := range append(mu.faults(m, base), mu.SecondFaults...) {
			fk := m.FaultKind(f)
			if fk == nil {
				continue
			}
			p := fk.Param(pv.Name)
			if p == nil {
				continue
			}
			found = true
			for i, v := range pv.Values {
				cv, ok := convertKind(v, p.Kind)
				if !ok || len(p.Domain) > 0 && !slices.ContainsFunc(p.Domain, cv.Equal) {
					c.errRange(pv.ValueRanges[i], "Value outside the domain", fmt.Sprintf("%s is not in the domain of %s.%s (%s).", v, f, pv.Name, valueList(p.Domain)))
				} else {
					pv.Values[i] = cv
				}
			}
		}
		if !found {
			c.errRange(pv.NameRange, "Unknown parameter", fmt.Sprintf("No fault kind of the axis has a parameter named %q.", pv.Name))
		}
	}
	if !slices.Contains([]string{"domain", "default"}, mu.Parameters) {
		c.errRange(mu.ParametersRange, "Invalid parameters", fmt.Sprintf("%q is not a parameters choice; use domain or default.", mu.Parameters))
	}
	if mu.Split != "" && !slices.Contains([]string{"train", "dev", "test"}, mu.Split) {
		c.errRange(mu.DefRange, "Invalid split", fmt.Sprintf("%q is not a split; use train, dev or test.", mu.Split))
	}
	if mu.Where != "" {
		sample := Variant{Params: nil}
		prog, err := expr.Compile(mu.Where, expr.Env(whereEnv(&sample)), expr.AsBool(), expr.AllowUndefinedVariables())
		if err != nil {
			c.errRange(mu.WhereRange, "Invalid constraint", fmt.Sprintf("The where constraint does not compile: %v", firstLine(err.Error())))
			return
		}
		mu.where = prog
	}
	if len(c.diags) > errorsBefore {
		return // the space of a broken mutation means nothing
	}
	viable := false
	m.Space(mu, func(v *Variant) bool {
		viable = true
		return false
	})
	if !viable {
		r := mu.WhereRange
		switch {
		case mu.Where != "":
		case mu.Cascade:
			r = mu.CascadeRange
		default:
			r = mu.DefRange
		}
		c.errRange(r, "Unsatisfiable mutation", "No combination of the axes is viable: every one is ruled out by applicability, conflicts or the where constraint.")
	}
}

// checkPairAxis checks the second fault's axis, its placement and the
// cascade choice.
func (c *checker) checkPairAxis(mu *Mutation, sys *System) {
	m := c.m
	if !slices.Contains([]string{PairsDistinct, PairsSameService, PairsAny}, mu.Pairs) {
		c.errRange(mu.PairsRange, "Invalid pairs", fmt.Sprintf("%q is not a placement of the second fault; use distinct, same_service or any.", mu.Pairs))
	}
	if !mu.HasSecondFaults {
		for _, attr := range []struct {
			set  bool
			name string
			r    Range
		}{{mu.HasSecondTargets, "second_targets", mu.SecondTargetsRange}, {mu.Pairs != PairsDistinct, "pairs", mu.PairsRange}} {
			if attr.set {
				c.errRange(attr.r, "Second fault axis missing", fmt.Sprintf("%s places a second fault, and the mutation lists no second_faults.", attr.name))
			}
		}
		return
	}
	if len(mu.SecondFaults) == 0 {
		c.errRange(mu.SecondFaultsRange, "Empty axis", "The second_faults axis lists no fault kind, so the mutation has no variant.")
	}
	if mu.HasSecondTargets && len(mu.SecondTargets) == 0 {
		c.errRange(mu.SecondTargetsRange, "Empty axis", "The second_targets axis lists no service, so the mutation has no variant.")
	}
	for i, t := range mu.SecondTargets {
		if sys.Service(t) == nil {
			c.unknown(mu.SecondTargetRanges[i], "service", t, names(sys.Services))
		}
	}
	for i, f := range mu.SecondFaults {
		fk := m.FaultKind(f)
		if fk == nil {
			c.unknown(mu.SecondFaultRanges[i], "fault kind", f, names(m.FaultKinds))
			continue
		}
		if mu.HasSecondTargets && !slices.ContainsFunc(mu.SecondTargets, func(t string) bool {
			ss := sys.Service(t)
			return ss != nil && slices.Contains(fk.AppliesTo, ss.Kind)
		}) {
			c.errRange(mu.SecondFaultRanges[i], "Fault applies to no target", fmt.Sprintf("The fault kind %q applies to %s, and no listed second target is one.", f, strings.Join(fk.AppliesTo, ", ")))
		}
	}
	if mu.Pairs != PairsSameService {
		return
	}
	// On one service, a kind that conflicts with every kind of the other
	// axis is a pair the author meant and the space never holds.
	base := m.MutationBase(mu)
	firsts := mu.faults(m, base)
	for i, f := range firsts {
		if m.FaultKind(f) == nil || i >= len(mu.FaultRanges) {
			continue
		}
		if !slices.ContainsFunc(mu.SecondFaults, func(g string) bool { return m.FaultKind(g) != nil && !m.FaultsConflict(f, g) }) {
			c.errRange(mu.FaultRanges[i], "Conflicting pair", fmt.Sprintf("%q cannot share a service with any second fault (%s): the same kind, a declared conflict or an edit of the same key.", f, strings.Join(mu.SecondFaults, ", ")))
		}
	}
	for i, g := range mu.SecondFaults {
		if m.FaultKind(g) == nil {
			continue
		}
		if !slices.ContainsFunc(firsts, func(f string) bool { return m.FaultKind(f) != nil && !m.FaultsConflict(f, g) }) {
			c.errRange(mu.SecondFaultRanges[i], "Conflicting pair", fmt.Sprintf("%q cannot share a service with any first fault (%s): the same kind, a declared conflict or an edit of the same key.", g, strings.Join(firsts, ", ")))
		}
	}
}

// FaultsConflict reports whether faults of kinds a and b cannot share a
// service: the same kind, a conflict either declares, or an edit of the
// same config key or state (one would overwrite the other's change).
func (m *Module) FaultsConflict(a, b string) bool {
	if a == b {
		return true
	}
	fa, fb := m.FaultKind(a), m.FaultKind(b)
	if fa == nil || fb == nil {
		return false
	}
	if slices.Contains(fa.ConflictsWith, b) || slices.Contains(fb.ConflictsWith, a) {
		return true
	}
	for _, e := range fa.Edits {
		if slices.ContainsFunc(fb.Edits, func(o Edit) bool { return o.Name == e.Name }) {
			return true
		}
	}
	return false
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// Variant is one point of a mutation's space.
type Variant struct {
	Fault  string
	Target string
	Kind   string // the target's service kind
	Params []Field
	// Distractor is a distractor kind or None; DistractorTarget its
	// service.
	Distractor, DistractorTarget string
	Noise                        string
	// Fault2, Target2, Kind2 and Params2 are a pair's second fault; empty
	// for a single fault.
	Fault2, Target2, Kind2 string
	Params2                []Field
	// Cascade: the alert must name a service with no fault.
	Cascade bool
}

// Key is a variant's stable identity: the same axes give the same key
// whatever else the space holds.
func (v *Variant) Key() string {
	var b strings.Builder
	b.WriteString(v.Fault + "|" + v.Target + "|")
	for _, p := range v.Params {
		b.WriteString(p.Name + "=" + p.Value.String() + ";")
	}
	b.WriteString("|" + v.Distractor + "@" + v.DistractorTarget + "|" + v.Noise)
	// A single fault's key is what it was before pairs and cascades.
	if v.Fault2 != "" {
		b.WriteString("|+" + v.Fault2 + "|" + v.Target2 + "|")
		for _, p := range v.Params2 {
			b.WriteString(p.Name + "=" + p.Value.String() + ";")
		}
	}
	if v.Cascade {
		b.WriteString("|cascade")
	}
	sum := sha256.Sum256([]byte(b.String()))
	return hex.EncodeToString(sum[:4])
}

// VariantDrawKey is what a variant's drawn content (its sites, benign
// changes, change times) is keyed by: the mutation and every axis but the
// parameters. Variants that differ only in a parameter value that does
// not reach the world then compile to one behaviour, and dedup makes them
// one task; variants with another fault, target, distractor or noise draw
// sites of their own, so a site on which a blind policy happens to win
// takes out one group of parameter values, not every variant of a fault.
func (mu *Mutation) VariantDrawKey(v *Variant) string {
	key := mu.Name + ":" + v.Fault + "@" + v.Target
	if v.Distractor != None && v.Distractor != "" {
		key += "+" + v.Distractor + "@" + v.DistractorTarget
	}
	if v.Noise != None && v.Noise != "" {
		key += "~" + v.Noise
	}
	if v.Fault2 != "" {
		key += "&" + v.Fault2 + "@" + v.Target2
	}
	if v.Cascade {
		key += "|cascade"
	}
	return key
}

// VariantName is the id of the variant's incident.
func (mu *Mutation) VariantName(v *Variant) string { return mu.Name + "_" + v.Key() }

// AxisSizes are the sizes of a mutation's axes before the constraint.
type AxisSizes struct {
	Faults, Targets, Params, Distractors, Noise int
	// SecondFaults, SecondTargets and SecondParams count the second
	// fault's axis as the first's are counted; Pairs the placed pairs of
	// the two (with parameters) that no conflict rules out, each pair and
	// its reverse once. Zero for a single-fault mutation.
	SecondFaults, SecondTargets, SecondParams, Pairs int
}

func (mu *Mutation) faults(m *Module, base *Incident) []string {
	if mu.HasFaults {
		return mu.Faults
	}
	var out []string
	for _, f := range base.Faults {
		if !slices.Contains(out, f.Name) {
			out = append(out, f.Name)
		}
	}
	return out
}

func orNone(xs []string) []string {
	if len(xs) == 0 {
		return []string{None}
	}
	return xs
}

// placement is one fault of a variant: a kind on a service with one
// assignment of its parameters; index orders placements as the first
// axis enumerates them.
type placement struct {
	fault  string
	target *SystemService
	params []Field
	index  int
}

// placements lists an axis's faults on their services with their
// parameters, in the space's order: faults as listed, services in the
// system's order, parameter values in domain order.
func (mu *Mutation) placements(m *Module, sys *System, faults, targets []string, hasTargets bool) []placement {
	var out []placement
	for _, f := range faults {
		fk := m.FaultKind(f)
		if fk == nil {
			continue
		}
		for _, ss := range sys.Services {
			if !slices.Contains(fk.AppliesTo, ss.Kind) || hasTargets && !slices.Contains(targets, ss.Name) {
				continue
			}
			if mu.Cascade && !isDependency(m, sys, ss.Name) {
				continue
			}
			for _, params := range mu.paramCombos(fk) {
				out = append(out, placement{fault: f, target: ss, params: params, index: len(out)})
			}
		}
	}
	return out
}

// isDependency reports whether another service of the system depends on
// the named one (binds it to a role that is not a caller's).
func isDependency(m *Module, sys *System, name string) bool {
	for _, ss := range sys.Services {
		k := m.ServiceKind(ss.Kind)
		if ss.Name == name || k == nil {
			continue
		}
		for _, b := range ss.Roles {
			if r := k.Role(b.Role); b.Service == name && r != nil && !r.Caller {
				return true
			}
		}
	}
	return false
}

// faultPairs calls yield for each fault of a single-fault mutation (with
// a nil second), or each placed pair of a pair mutation that no conflict
// rules out, in the space's order, until yield returns false. When the
// reverse of a pair (its second fault first) came earlier, reverse holds
// it, so that the constraint can decide which of the two stands.
func (m *Module) faultPairs(mu *Mutation, sys *System, yield func(first, second *placement, reverse *[2]*placement) bool) {
	base := m.MutationBase(mu)
	firsts := mu.placements(m, sys, mu.faults(m, base), mu.Targets, mu.HasTargets)
	if !mu.Multi() {
		for i := range firsts {
			if !yield(&firsts[i], nil, nil) {
				return
			}
		}
		return
	}
	seconds := mu.placements(m, sys, mu.SecondFaults, mu.SecondTargets, mu.HasSecondTargets)
	same := func(a, b *placement) bool {
		return a.fault == b.fault && a.target == b.target && slices.EqualFunc(a.params, b.params, func(x, y Field) bool { return x.Name == y.Name && x.Value.Equal(y.Value) })
	}
	find := func(in []placement, p *placement) *placement {
		for i := range in {
			if same(&in[i], p) {
				return &in[i]
			}
		}
		return nil
	}
	for i := range firsts {
		a := &firsts[i]
		for j := range seconds {
			b := &seconds[j]
			sameService := a.target == b.target
			if sameService && (mu.Pairs == PairsDistinct || m.FaultsConflict(a.fault, b.fault)) || !sameService && mu.Pairs == PairsSameService {
				continue
			}
			var reverse *[2]*placement
			if ra, rb := find(firsts, b), find(seconds, a); ra != nil && rb != nil && ra.index < a.index {
				reverse = &[2]*placement{ra, rb}
			}
			if !yield(a, b, reverse) {
				return
			}
		}
	}
}

// Space calls yield for every viable variant, in a fixed order (faults as
// listed, targets in the system's order, parameter values in domain order,
// then a pair's second fault in the same order, then distractors and
// noise as listed), until yield returns false. A variant is viable when
// its faults apply to their targets and do not conflict, its distractor
// sits on a service without a fault, and the constraint holds; a pair
// whose reverse is viable and comes first is that variant, not another.
func (m *Module) Space(mu *Mutation, yield func(v *Variant) bool) {
	base := m.MutationBase(mu)
	if base == nil {
		return
	}
	sys := m.System(base.System)
	if sys == nil {
		return
	}
	holds := func(v *Variant) bool {
		if mu.where == nil {
			return true
		}
		out, err := expr.Run(mu.where, whereEnv(v))
		return err == nil && out == true
	}
	variant := func(a, b *placement) Variant {
		v := Variant{Fault: a.fault, Target: a.target.Name, Kind: a.target.Kind, Params: a.params, Cascade: mu.Cascade}
		if b != nil {
			v.Fault2, v.Target2, v.Kind2, v.Params2 = b.fault, b.target.Name, b.target.Kind, b.params
		}
		return v
	}
	m.faultPairs(mu, sys, func(a, b *placement, reverse *[2]*placement) bool {
		for _, dk := range orNone(mu.Distractors) {
			placements := []string{""}
			if dk != None {
				placements = nil
				if k := m.DistractorKind(dk); k != nil {
					for _, other := range sys.Services {
						if other != a.target && (b == nil || other != b.target) && slices.Contains(k.AppliesTo, other.Kind) {
							placements = append(placements, other.Name)
						}
					}
				}
			}
			for _, dt := range placements {
				for _, n := range orNone(mu.Noise) {
					v := variant(a, b)
					v.Distractor, v.DistractorTarget, v.Noise = dk, dt, n
					if !holds(&v) {
						continue
					}
					if reverse != nil {
						rv := variant(reverse[0], reverse[1])
						rv.Distractor, rv.DistractorTarget, rv.Noise = dk, dt, n
						if holds(&rv) {
							continue // the reverse stood: the same incident
						}
					}
					if !yield(&v) {
						return false
					}
				}
			}
		}
		return true
	})
}

// paramCombos lists a fault kind's parameter assignments: the product of
// the values in declaration order, each parameter's values being the
// mutation's param block, or its domain, or its default alone.
func (mu *Mutation) paramCombos(fk *FaultKind) [][]Field {
	combos := [][]Field{nil}
	for _, p := range fk.Params {
		vals := p.Domain
		if mu.Parameters == "default" || len(vals) == 0 {
			vals = []value.Value{p.Default}
		}
		for _, pv := range mu.ParamValues {
			if pv.Name == p.Name {
				vals = nil
				for _, v := range pv.Values {
					if cv, ok := convertKind(v, p.Kind); ok && (len(p.Domain) == 0 || slices.ContainsFunc(p.Domain, cv.Equal)) {
						vals = append(vals, cv)
					}
				}
			}
		}
		var next [][]Field
		for _, c := range combos {
			for _, v := range vals {
				next = append(next, append(append([]Field(nil), c...), Field{Name: p.Name, Value: v}))
			}
		}
		combos = next
	}
	return combos
}

// Sizes counts each axis as the space enumerates it: fault kinds, fault ×
// target pairs, parameter assignments over those pairs, the same for a
// pair's second fault and the placed pairs of the two, and the choices of
// distractor placement and noise.
func (m *Module) Sizes(mu *Mutation) AxisSizes {
	var s AxisSizes
	base := m.MutationBase(mu)
	if base == nil {
		return s
	}
	sys := m.System(base.System)
	s.Noise = len(orNone(mu.Noise))
	if sys == nil {
		return s
	}
	count := func(faults, targets []string, hasTargets bool, kinds, placed, params *int) {
		for _, f := range faults {
			fk := m.FaultKind(f)
			if fk == nil {
				continue
			}
			*kinds++
			for _, ss := range sys.Services {
				if slices.Contains(fk.AppliesTo, ss.Kind) && (!hasTargets || slices.Contains(targets, ss.Name)) && (!mu.Cascade || isDependency(m, sys, ss.Name)) {
					*placed++
					*params += len(mu.paramCombos(fk))
				}
			}
		}
	}
	count(mu.faults(m, base), mu.Targets, mu.HasTargets, &s.Faults, &s.Targets, &s.Params)
	if mu.Multi() {
		count(mu.SecondFaults, mu.SecondTargets, mu.HasSecondTargets, &s.SecondFaults, &s.SecondTargets, &s.SecondParams)
		m.faultPairs(mu, sys, func(_, _ *placement, reverse *[2]*placement) bool {
			if reverse == nil {
				s.Pairs++
			}
			return true
		})
	}
	for _, dk := range orNone(mu.Distractors) {
		if dk == None {
			s.Distractors++
		} else if k := m.DistractorKind(dk); k != nil {
			for _, ss := range sys.Services {
				if slices.Contains(k.AppliesTo, ss.Kind) {
					s.Distractors++
				}
			}
		}
	}
	return s
}

// VariantIncident builds the incident of a variant: the base's system,
// rubric, budget, traffic and timing, with the variant's fault,
// distractor and noise, no alert and no expert plan (the compiler derives
// both).
func (m *Module) VariantIncident(mu *Mutation, v *Variant) *Incident {
	base := m.MutationBase(mu)
	in := &Incident{Decl: Decl{Name: mu.VariantName(v), DefRange: mu.DefRange, NameRange: mu.NameRange}, File: mu.DefRange.Filename,
		Difficulty: base.Difficulty, Split: base.Split, Budget: base.Budget, BudgetRange: base.BudgetRange, System: base.System, SystemRange: base.SystemRange,
		Rubric: base.Rubric, RubricRange: base.RubricRange, Traffic: base.Traffic, TrafficSet: base.TrafficSet, Warmup: base.Warmup, Hold: base.Hold,
		Tags: []string{v.Target}, DrawKey: mu.VariantDrawKey(v)}
	if v.Fault2 != "" && v.Target2 != v.Target {
		in.Tags = append(in.Tags, v.Target2)
	}
	in.Tags = append(in.Tags, "mutated")
	if v.Fault2 != "" {
		in.Tags = append(in.Tags, "multi-fault")
	}
	if v.Cascade {
		in.Tags = append(in.Tags, "cascade")
	}
	if mu.Split != "" {
		in.Split = mu.Split
	}
	use := func(kind, target string, params []Field) *FaultUse {
		fu := &FaultUse{Decl: Decl{Name: kind, DefRange: mu.DefRange, NameRange: mu.DefRange}, Target: target, TRange: mu.DefRange,
			Params: map[string]value.Value{}, ParamRanges: map[string]Range{}}
		for _, p := range params {
			fu.Params[p.Name] = p.Value
		}
		fu.Change = variantChange(m, base, kind, mu.DefRange)
		return fu
	}
	in.Faults = []*FaultUse{use(v.Fault, v.Target, v.Params)}
	if v.Fault2 != "" {
		in.Faults = append(in.Faults, use(v.Fault2, v.Target2, v.Params2))
	}
	if v.Distractor != None && v.Distractor != "" {
		in.Distractors = []*DistractorUse{{Decl: Decl{Name: v.Distractor, DefRange: mu.DefRange}, Target: v.DistractorTarget, TRange: mu.DefRange}}
	}
	if v.Noise != None && v.Noise != "" {
		in.Noise = []*NoiseUse{{Decl: Decl{Name: v.Noise, DefRange: mu.DefRange}}}
		in.Tags = append(in.Tags, "noisy")
	}
	return in
}

// variantChange is the change that introduced a variant's fault of kind
// kind: the base's change for a fault of that kind, else the base's first
// fault change (the variant keeps the base's story of what changed when),
// else, for a kind a rollback fixes, a change whose time and actor the
// compiler draws (the history must hold the deploy a rollback undoes). A
// kind that edits no config key and deploys nothing comes from no change.
func variantChange(m *Module, base *Incident, kind string, at Range) *ChangeUse {
	fk := m.FaultKind(kind)
	if fk == nil {
		return nil
	}
	edited := fk.ChangedKeys(m)
	if len(edited) == 0 {
		return nil
	}
	var from *ChangeUse
	for _, fu := range base.Faults {
		if fu.Change != nil && (from == nil || fu.Name == kind) {
			from = fu.Change
			if fu.Name == kind {
				break
			}
		}
	}
	ch := &ChangeUse{DefRange: at, AtRange: at, ActorRange: at, KeyRange: at, ServiceRange: at, ValueRange: at}
	switch {
	case from != nil:
		ch.At, ch.Actor = from.At, from.Actor
		if slices.Contains(edited, from.Key) {
			ch.Key = from.Key
		}
	case !slices.ContainsFunc(fk.Remedies, func(r Remedy) bool { return r.Effect == "rollback" }):
		return nil
	}
	if ch.Key == "" && len(edited) > 1 {
		ch.Key = edited[0]
	}
	return ch
}

// String writes a change time as the language reads it: "HH:MM", or
// "DAY HH:MM" on another day.
func (t ChangeTime) String() string {
	hm := fmt.Sprintf("%02d:%02d", t.Minute/60, t.Minute%60)
	if t.Day >= 0 && t.Day < len(Weekdays) {
		return Weekdays[t.Day] + " " + hm
	}
	return hm
}

// IncidentSource writes an incident as formatted source: what srezc mutate
// emits for a variant, with its derived alert, difficulty and expert plan.
func IncidentSource(in *Incident, comment string) []byte {
	f := hclwrite.NewEmptyFile()
	body := f.Body()
	if comment != "" {
		body.AppendUnstructuredTokens(hclwrite.Tokens{{Type: hclsyntax.TokenComment, Bytes: []byte("# " + comment + "\n")}})
	}
	b := body.AppendNewBlock("incident", []string{in.Name}).Body()
	if in.Title != "" {
		b.SetAttributeValue("title", cty.StringVal(in.Title))
	}
	b.SetAttributeValue("alert", cty.StringVal(in.Alert))
	b.SetAttributeValue("difficulty", cty.StringVal(in.Difficulty))
	b.SetAttributeValue("split", cty.StringVal(in.Split))
	if len(in.Tags) > 0 {
		b.SetAttributeValue("tags", strList(in.Tags))
	}
	b.SetAttributeRaw("budget", valueTokens(value.OfInt(int64(in.Budget))))
	b.SetAttributeValue("system", cty.StringVal(in.System))
	if in.Rubric != ProfileNative {
		b.SetAttributeValue("rubric", cty.StringVal(in.Rubric))
	}
	if in.TrafficSet || in.Traffic != 300 {
		b.SetAttributeRaw("traffic", valueTokens(value.OfFloat(in.Traffic)))
	}
	if in.DrawKey != "" {
		b.SetAttributeValue("draw_key", cty.StringVal(in.DrawKey))
	}
	if in.Warmup != 8 {
		b.SetAttributeRaw("warmup", valueTokens(value.OfInt(int64(in.Warmup))))
	}
	if in.Hold != 3 {
		b.SetAttributeRaw("hold", valueTokens(value.OfInt(int64(in.Hold))))
	}
	for _, fu := range in.Faults {
		b.AppendNewline()
		fb := b.AppendNewBlock("fault", []string{fu.Name}).Body()
		fb.SetAttributeValue("target", cty.StringVal(fu.Target))
		names := make([]string, 0, len(fu.Params))
		for n := range fu.Params {
			names = append(names, n)
		}
		slices.Sort(names)
		for _, n := range names {
			fb.SetAttributeRaw(n, valueTokens(fu.Params[n]))
		}
		if ch := fu.Change; ch != nil {
			cb := fb.AppendNewBlock("change", nil).Body()
			if ch.At.Set {
				cb.SetAttributeValue("at", cty.StringVal(ch.At.String()))
			}
			if ch.Actor != "" {
				cb.SetAttributeValue("actor", cty.StringVal(ch.Actor))
			}
			if ch.Key != "" {
				cb.SetAttributeValue("key", cty.StringVal(ch.Key))
			}
		}
	}
	for _, du := range in.Distractors {
		b.AppendNewline()
		b.AppendNewBlock("distractor", []string{du.Name}).Body().SetAttributeValue("target", cty.StringVal(du.Target))
	}
	for _, nu := range in.Noise {
		b.AppendNewline()
		b.AppendNewBlock("noise", []string{nu.Name})
	}
	b.AppendNewline()
	setLines(b, "expert", in.Expert)
	return formatGenerated(in.Name+Ext, f.Bytes())
}

// valueTokens writes a typed value as a literal that reads back as the
// same kind: a float keeps its decimal point.
func valueTokens(v value.Value) hclwrite.Tokens {
	switch v.K {
	case value.String:
		return hclwrite.TokensForValue(cty.StringVal(v.S))
	case value.Bool:
		return hclwrite.TokensForValue(cty.BoolVal(v.B))
	}
	lit := v.String()
	var toks hclwrite.Tokens
	if strings.HasPrefix(lit, "-") {
		toks = append(toks, &hclwrite.Token{Type: hclsyntax.TokenMinus, Bytes: []byte("-")})
		lit = lit[1:]
	}
	return append(toks, &hclwrite.Token{Type: hclsyntax.TokenNumberLit, Bytes: []byte(lit)})
}

func valueList(vs []value.Value) string {
	var parts []string
	for _, v := range vs {
		parts = append(parts, v.String())
	}
	if len(parts) == 0 {
		return "no domain"
	}
	return "domain " + strings.Join(parts, ", ")
}

// SuiteSpec is a suite_spec block: which mutations generate a suite, how
// many tasks, the split and difficulty shares, and the seed.
type SuiteSpec struct {
	Decl
	Mutations      []string
	MutationRanges []Range
	Tasks          int
	Seed           int
	// Splits and Mix are shares by name (train/dev/test, easy/medium/hard).
	Splits, Mix map[string]float64
	SplitsRange Range
	MixRange    Range
	// Reserve is the held-out partition: variants for which it holds are
	// emitted only with the secret seed whose SHA-256 is SecretHash, into
	// the test split.
	Reserve         string
	ReserveRange    Range
	reserve         *vm.Program
	SecretHash      string
	SecretHashRange Range
	// NearDuplicates caps the tasks of one band: the same mutation, faults,
	// targets and evidence, parameters within NearBand of each other.
	NearDuplicates int
}

// DefaultNearDuplicates is a suite_spec's near_duplicates when it sets
// none: one task a band, so a suite does not fill up with restatements of
// one incident that differ in a parameter no agent would tell apart.
const DefaultNearDuplicates = 1

// Reserved reports whether a spec holds a variant back for its held-out
// test split.
func (s *SuiteSpec) Reserved(v *Variant) bool {
	if s.reserve == nil {
		return false
	}
	out, err := expr.Run(s.reserve, whereEnv(v))
	return err == nil && out == true
}

// SecretMatches reports whether secret is the spec's secret seed.
func (s *SuiteSpec) SecretMatches(secret string) bool {
	sum := sha256.Sum256([]byte(secret))
	return s.SecretHash != "" && hex.EncodeToString(sum[:]) == strings.ToLower(s.SecretHash)
}

// Reserving lists the suite specs that reserve part of a mutation's space.
func (m *Module) Reserving(mu *Mutation) []*SuiteSpec {
	var out []*SuiteSpec
	for _, s := range m.SuiteSpecs {
		if s.reserve != nil && slices.Contains(s.Mutations, mu.Name) {
			out = append(out, s)
		}
	}
	return out
}

func (d *decoder) suiteSpec(blk *hclsyntax.Block) *SuiteSpec {
	s := &SuiteSpec{Decl: d.decl(blk), Splits: map[string]float64{}, Mix: map[string]float64{}}
	d.broken = &s.Decl
	defer func() { d.broken = nil }()
	c := d.content(blk.Body, blk.DefRange(), schemaAt("suite_spec"))
	s.Reserve, s.ReserveRange = d.str(c, "reserve"), attrRange(c, "reserve", s.DefRange)
	s.SecretHash, s.SecretHashRange = d.str(c, "secret_hash"), attrRange(c, "secret_hash", s.DefRange)
	s.Description = d.str(c, "description")
	s.Mutations = d.strList(c, "mutations")
	s.MutationRanges = elemRanges(c, "mutations", len(s.Mutations))
	s.Tasks = d.integer(c, "tasks", 0, 1, 1_000_000)
	s.Seed = d.integer(c, "seed", 1, 0, 1<<31-1)
	s.NearDuplicates = d.integer(c, "near_duplicates", DefaultNearDuplicates, 1, 1_000_000)
	for _, p := range []struct {
		name  string
		into  map[string]float64
		rng   *Range
		keys  []string
		share []float64
	}{{"splits", s.Splits, &s.SplitsRange, []string{"train", "dev", "test"}, []float64{0.5, 0.25, 0.25}},
		{"mix", s.Mix, &s.MixRange, []string{"easy", "medium", "hard"}, []float64{11.0 / 40, 16.0 / 40, 13.0 / 40}}} {
		*p.rng = attrRange(c, p.name, s.DefRange)
		a, ok := c.attrs[p.name]
		if !ok {
			for i, k := range p.keys {
				p.into[k] = p.share[i]
			}
			continue
		}
		obj, isObj := a.Expr.(*hclsyntax.ObjectConsExpr)
		if !isObj {
			d.errAt(a.Expr.Range(), "Incorrect attribute value type", fmt.Sprintf("%q must be an object like { %s = 0.5 }.", p.name, p.keys[0]))
			continue
		}
		total := 0.0
		for _, item := range obj.Items {
			k := ""
			if key, ok := item.KeyExpr.(*hclsyntax.ObjectConsKeyExpr); ok {
				k = hcl.ExprAsKeyword(key.Wrapped)
			}
			v, ds := item.ValueExpr.Value(nil)
			if k == "" || !slices.Contains(p.keys, k) || ds.HasErrors() || !literal(v) || v.Type() != cty.Number {
				d.errAt(item.KeyExpr.Range(), "Invalid share", fmt.Sprintf("Each entry of %q is one of %s = a number.", p.name, strings.Join(p.keys, ", ")))
				continue
			}
			f, _ := v.AsBigFloat().Float64()
			if f < 0 {
				d.errAt(item.ValueExpr.Range(), "Invalid share", "A share cannot be negative.")
				continue
			}
			p.into[k] = f
			total += f
		}
		if total <= 0 {
			d.errAt(a.Expr.Range(), "Invalid share", fmt.Sprintf("The shares of %q add up to nothing.", p.name))
		}
	}
	return s
}

func (c *checker) checkSuiteSpec(s *SuiteSpec) {
	if len(s.Mutations) == 0 {
		c.errRange(s.DefRange, "Empty axis", "The suite_spec lists no mutation.")
	}
	for i, n := range s.Mutations {
		mu := c.m.Mutation(n)
		if mu == nil {
			_, embedded := c.m.EmbeddedNames()
			c.unknown(s.MutationRanges[i], "mutation", n, append(MutationNames(c.m), embedded...))
			continue
		}
		if own := c.m.Incident(mu.From); own != nil && c.m.IsEmbedded(&mu.Decl) {
			r := s.MutationRanges[i]
			c.diags = append(c.diags, &Diagnostic{Severity: Warning, Subject: &r, Summary: "Embedded mutation over a shadowed base", Detail: fmt.Sprintf("The embedded mutation %q varies the embedded incident %q, not this module's %q (%s): a module's names shadow the embedded default's only in its own declarations. Copy the mutation into the module (srezc export scenarios) to vary yours.",
				n, mu.From, mu.From, own.DefRange)})
		}
	}
	if s.Reserve != "" {
		prog, err := expr.Compile(s.Reserve, expr.Env(whereEnv(&Variant{})), expr.AsBool(), expr.AllowUndefinedVariables())
		if err != nil {
			c.errRange(s.ReserveRange, "Invalid constraint", fmt.Sprintf("The reserve constraint does not compile: %v", firstLine(err.Error())))
		} else {
			s.reserve = prog
		}
		if s.SecretHash == "" {
			c.errRange(s.ReserveRange, "Reserve without a secret", "A reserved partition needs secret_hash, the SHA-256 of the secret seed that may generate it.")
		}
	}
	if s.SecretHash != "" {
		if b, err := hex.DecodeString(s.SecretHash); err != nil || len(b) != sha256.Size {
			c.errRange(s.SecretHashRange, "Invalid secret_hash", "secret_hash is the SHA-256 of the secret seed, 64 hexadecimal digits.")
		}
	}
}

// MutationNames lists the module's mutations, for suggestions.
func MutationNames(m *Module) []string {
	var out []string
	for _, mu := range m.Mutations {
		out = append(out, mu.Name)
	}
	return out
}
