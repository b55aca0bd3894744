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
// rubric, budget and timing with one fault; its alert and expert plan are
// derived when it compiles (the alerting service's symptom, the certified
// informed optimum), since the base's were written for another fault.

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
}

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
	return mu
}

// whereEnv is the constraint's environment: the axes of one variant.
func whereEnv(v *Variant) map[string]any {
	params := map[string]any{}
	for _, p := range v.Params {
		switch p.Value.K {
		case value.Int:
			params[p.Name] = int(p.Value.I)
		case value.Float:
			params[p.Name] = p.Value.F
		case value.Bool:
			params[p.Name] = p.Value.B
		default:
			params[p.Name] = p.Value.S
		}
	}
	return map[string]any{"fault": v.Fault, "target": v.Target, "kind": v.Kind, "distractor": v.Distractor,
		"distractor_target": v.DistractorTarget, "noise": v.Noise, "param": params}
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
		for _, f := range mu.faults(m, base) {
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
		if mu.Where == "" {
			r = mu.DefRange
		}
		c.errRange(r, "Unsatisfiable mutation", "No combination of the axes is viable: every one is ruled out by applicability, conflicts or the where constraint.")
	}
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
	return key
}

// VariantName is the id of the variant's incident.
func (mu *Mutation) VariantName(v *Variant) string { return mu.Name + "_" + v.Key() }

// AxisSizes are the sizes of a mutation's axes before the constraint.
type AxisSizes struct {
	Faults, Targets, Params, Distractors, Noise int
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

// Space calls yield for every viable variant, in a fixed order (faults as
// listed, targets in the system's order, parameter values in domain order,
// then distractors and noise as listed), until yield returns false. A
// variant is viable when its fault applies to its target, its distractor to
// a service without the fault, and the constraint holds.
func (m *Module) Space(mu *Mutation, yield func(v *Variant) bool) {
	base := m.MutationBase(mu)
	if base == nil {
		return
	}
	sys := m.System(base.System)
	if sys == nil {
		return
	}
	for _, f := range mu.faults(m, base) {
		fk := m.FaultKind(f)
		if fk == nil {
			continue
		}
		for _, ss := range sys.Services {
			if !slices.Contains(fk.AppliesTo, ss.Kind) || mu.HasTargets && !slices.Contains(mu.Targets, ss.Name) {
				continue
			}
			for _, params := range mu.paramCombos(fk) {
				for _, dk := range orNone(mu.Distractors) {
					placements := []string{""}
					if dk != None {
						placements = nil
						if k := m.DistractorKind(dk); k != nil {
							for _, other := range sys.Services {
								if other.Name != ss.Name && slices.Contains(k.AppliesTo, other.Kind) {
									placements = append(placements, other.Name)
								}
							}
						}
					}
					for _, dt := range placements {
						for _, n := range orNone(mu.Noise) {
							v := &Variant{Fault: f, Target: ss.Name, Kind: ss.Kind, Params: params, Distractor: dk, DistractorTarget: dt, Noise: n}
							if mu.where != nil {
								out, err := expr.Run(mu.where, whereEnv(v))
								if err != nil || out != true {
									continue
								}
							}
							if !yield(v) {
								return
							}
						}
					}
				}
			}
		}
	}
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
// target pairs, parameter assignments over those pairs, and the choices of
// distractor placement and noise.
func (m *Module) Sizes(mu *Mutation) AxisSizes {
	var s AxisSizes
	base := m.MutationBase(mu)
	if base == nil {
		return s
	}
	sys := m.System(base.System)
	s.Noise = len(orNone(mu.Noise))
	for _, f := range mu.faults(m, base) {
		fk := m.FaultKind(f)
		if fk == nil || sys == nil {
			continue
		}
		s.Faults++
		for _, ss := range sys.Services {
			if slices.Contains(fk.AppliesTo, ss.Kind) && (!mu.HasTargets || slices.Contains(mu.Targets, ss.Name)) {
				s.Targets++
				s.Params += len(mu.paramCombos(fk))
			}
		}
	}
	for _, dk := range orNone(mu.Distractors) {
		if dk == None {
			s.Distractors++
		} else if k := m.DistractorKind(dk); k != nil && sys != nil {
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
		Tags: []string{v.Target, "mutated"}, DrawKey: mu.VariantDrawKey(v)}
	if mu.Split != "" {
		in.Split = mu.Split
	}
	fu := &FaultUse{Decl: Decl{Name: v.Fault, DefRange: mu.DefRange, NameRange: mu.DefRange}, Target: v.Target, TRange: mu.DefRange,
		Params: map[string]value.Value{}, ParamRanges: map[string]Range{}}
	for _, p := range v.Params {
		fu.Params[p.Name] = p.Value
	}
	fu.Change = variantChange(m, base, v.Fault, mu.DefRange)
	in.Faults = []*FaultUse{fu}
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
