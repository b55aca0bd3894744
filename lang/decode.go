package lang

import (
	"fmt"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/srezc/srezc/value"
	"github.com/zclconf/go-cty/cty"
)

// decoder turns one file's syntax tree into declarations. It reports every
// problem it meets and marks the declaration it is in as broken.
type decoder struct {
	file  *File
	diags Diagnostics
	// broken is the declaration being decoded; errors mark it.
	broken *Decl
}

func (d *decoder) errAt(r hcl.Range, summary, detail string) {
	rr := fromHCL(r)
	d.errRange(rr, summary, detail)
}

func (d *decoder) errRange(r Range, summary, detail string) {
	d.diags = append(d.diags, &Diagnostic{Severity: Error, Summary: summary, Detail: detail, Subject: &r})
	if d.broken != nil {
		d.broken.Broken = true
	}
}

// schema describes a block body: its attributes (required ones marked) and
// its nested block types with their label counts.
type schema struct {
	what     string
	attrs    []string
	required []string
	blocks   map[string]int
	// openAttrs accepts any attribute (fault parameters, set_config).
	openAttrs bool
}

type content struct {
	attrs  map[string]*hclsyntax.Attribute
	blocks []*hclsyntax.Block
}

func (c *content) has(name string) bool { _, ok := c.attrs[name]; return ok }

// sortedAttrs lists a body's attributes in source order: hclsyntax keeps
// them in a map.
func sortedAttrs(b *hclsyntax.Body) []*hclsyntax.Attribute {
	out := make([]*hclsyntax.Attribute, 0, len(b.Attributes))
	for _, a := range b.Attributes {
		out = append(out, a)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].SrcRange.Start.Byte < out[j].SrcRange.Start.Byte })
	return out
}

func (d *decoder) content(b *hclsyntax.Body, defRange hcl.Range, s schema) content {
	c := content{attrs: map[string]*hclsyntax.Attribute{}}
	for _, a := range sortedAttrs(b) {
		if !s.openAttrs && !contains(s.attrs, a.Name) {
			detail := fmt.Sprintf("An argument named %q is not expected in %s.", a.Name, s.what)
			if _, isBlock := s.blocks[a.Name]; isBlock {
				detail += fmt.Sprintf(" Did you mean to define a block of type %q?", a.Name)
			} else {
				detail += didYouMean(a.Name, s.attrs)
			}
			d.errAt(a.NameRange, "Unsupported argument", detail)
			continue
		}
		c.attrs[a.Name] = a
	}
	for _, r := range s.required {
		if _, ok := c.attrs[r]; !ok {
			d.errAt(defRange, "Missing required argument", fmt.Sprintf("The argument %q is required in %s, but no definition was found.", r, s.what))
		}
	}
	blockTypes := make([]string, 0, len(s.blocks))
	for t := range s.blocks {
		blockTypes = append(blockTypes, t)
	}
	for _, blk := range b.Blocks {
		labels, ok := s.blocks[blk.Type]
		if !ok {
			detail := fmt.Sprintf("Blocks of type %q are not expected in %s.", blk.Type, s.what)
			if contains(s.attrs, blk.Type) {
				detail += fmt.Sprintf(" Did you mean to define argument %q? If so, use the equals sign to assign it a value.", blk.Type)
			} else {
				detail += didYouMean(blk.Type, blockTypes)
			}
			d.errAt(blk.TypeRange, "Unsupported block type", detail)
			continue
		}
		if len(blk.Labels) != labels {
			if len(blk.Labels) < labels {
				d.errAt(blk.OpenBraceRange, "Missing name for "+blk.Type, fmt.Sprintf("%s block needs %d label(s): its name.", capitalize(article(blk.Type)), labels))
			} else {
				d.errAt(blk.LabelRanges[labels], "Extraneous label for "+blk.Type, fmt.Sprintf("%s block takes %d label(s).", capitalize(article(blk.Type)), labels))
			}
			continue
		}
		c.blocks = append(c.blocks, blk)
	}
	return c
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (d *decoder) eval(a *hclsyntax.Attribute, ctx *hcl.EvalContext) (cty.Value, bool) {
	v, ds := a.Expr.Value(ctx)
	if ds.HasErrors() {
		for _, x := range fromHCLDiags(ds) {
			d.diags = append(d.diags, x)
		}
		if d.broken != nil {
			d.broken.Broken = true
		}
		return cty.NilVal, false
	}
	if !v.IsWhollyKnown() || v.IsNull() {
		d.errAt(a.Expr.Range(), "Invalid value", fmt.Sprintf("The argument %q needs a known, non-null value.", a.Name))
		return cty.NilVal, false
	}
	return v, true
}

// literal says v can be read as a constant: HCL's parser leaves an
// unknown value where an expression failed to parse (an operator on it is
// unknown too), and a conditional can give a typed null (true ? null : 1).
func literal(v cty.Value) bool { return v.IsWhollyKnown() && !v.IsNull() }

func (d *decoder) str(c content, name string) string {
	a, ok := c.attrs[name]
	if !ok {
		return ""
	}
	v, ok := d.eval(a, nil)
	if !ok {
		return ""
	}
	if v.Type() != cty.String {
		d.errAt(a.Expr.Range(), "Incorrect attribute value type", fmt.Sprintf("The argument %q must be a string.", name))
		return ""
	}
	return v.AsString()
}

func (d *decoder) strList(c content, name string) []string {
	a, ok := c.attrs[name]
	if !ok {
		return nil
	}
	v, ok := d.eval(a, nil)
	if !ok {
		return nil
	}
	if !v.Type().IsTupleType() && !v.Type().IsListType() {
		d.errAt(a.Expr.Range(), "Incorrect attribute value type", fmt.Sprintf("The argument %q must be a list of strings.", name))
		return nil
	}
	var out []string
	for it := v.ElementIterator(); it.Next(); {
		_, e := it.Element()
		if e.IsNull() || e.Type() != cty.String {
			d.errAt(a.Expr.Range(), "Incorrect attribute value type", fmt.Sprintf("The argument %q must be a list of strings.", name))
			return nil
		}
		out = append(out, e.AsString())
	}
	return out
}

func (d *decoder) number(c content, name string, def float64) float64 {
	a, ok := c.attrs[name]
	if !ok {
		return def
	}
	v, ok := d.eval(a, nil)
	if !ok {
		return def
	}
	if v.Type() != cty.Number {
		d.errAt(a.Expr.Range(), "Incorrect attribute value type", fmt.Sprintf("The argument %q must be a number.", name))
		return def
	}
	f, _ := v.AsBigFloat().Float64()
	return f
}

func (d *decoder) integer(c content, name string, def, lo, hi int) int {
	a, ok := c.attrs[name]
	if !ok {
		return def
	}
	val, ok := d.typedValue(a, value.Int, nil)
	if !ok {
		return def
	}
	if val.I < int64(lo) || val.I > int64(hi) {
		d.errAt(a.Expr.Range(), "Value out of range", fmt.Sprintf("The argument %q must be between %d and %d.", name, lo, hi))
		return def
	}
	return int(val.I)
}

func (d *decoder) boolean(c content, name string) bool {
	a, ok := c.attrs[name]
	if !ok {
		return false
	}
	v, ok := d.typedValue(a, value.Bool, nil)
	return ok && v.B
}

// writtenAsFloat reports whether an expression's source is a number
// literal written with a decimal point or exponent.
func (d *decoder) writtenAsFloat(e hclsyntax.Expression) bool {
	r := e.Range()
	if r.Start.Byte < 0 || r.End.Byte > len(d.file.Src) || r.Start.Byte > r.End.Byte {
		return false
	}
	src := string(d.file.Src[r.Start.Byte:r.End.Byte])
	switch e.(type) {
	case *hclsyntax.LiteralValueExpr, *hclsyntax.UnaryOpExpr:
		return strings.ContainsAny(src, ".eE")
	}
	return false
}

// typedValue evaluates an attribute as a value of kind k. Int and float are
// kept apart: an int wants an integral literal written without a point.
func (d *decoder) typedValue(a *hclsyntax.Attribute, k value.Kind, ctx *hcl.EvalContext) (value.Value, bool) {
	v, ok := d.eval(a, ctx)
	if !ok {
		return value.Value{}, false
	}
	out, msg := convertValue(v, k, d.writtenAsFloat(a.Expr))
	if msg != "" {
		d.errAt(a.Expr.Range(), "Incorrect attribute value type", fmt.Sprintf("The argument %q %s.", a.Name, msg))
		return value.Value{}, false
	}
	return out, true
}

func convertValue(v cty.Value, k value.Kind, float bool) (value.Value, string) {
	switch k {
	case value.Int:
		if v.Type() != cty.Number {
			return value.Value{}, "must be an int"
		}
		bf := v.AsBigFloat()
		if float || !bf.IsInt() {
			return value.Value{}, "must be an int, not a float (write it without a decimal point)"
		}
		i, acc := bf.Int64()
		if acc != 0 {
			return value.Value{}, "is out of the int range"
		}
		return value.OfInt(i), ""
	case value.Float:
		if v.Type() != cty.Number {
			return value.Value{}, "must be a float"
		}
		f, _ := v.AsBigFloat().Float64()
		if math.IsInf(f, 0) {
			return value.Value{}, "is out of the float range"
		}
		return value.OfFloat(f), ""
	case value.Bool:
		if v.Type() != cty.Bool {
			return value.Value{}, "must be a bool"
		}
		return value.OfBool(v.True()), ""
	case value.String:
		if v.Type() != cty.String {
			return value.Value{}, "must be a string"
		}
		return value.OfString(v.AsString()), ""
	}
	return value.Value{}, "has no type"
}

// valueList evaluates a list attribute whose elements have kind k.
func (d *decoder) valueList(a *hclsyntax.Attribute, k value.Kind) []value.Value {
	tup, isTuple := a.Expr.(*hclsyntax.TupleConsExpr)
	if !isTuple {
		d.errAt(a.Expr.Range(), "Incorrect attribute value type", fmt.Sprintf("The argument %q must be a list written as [a, b, …].", a.Name))
		return nil
	}
	var out []value.Value
	for _, e := range tup.Exprs {
		v, ds := e.Value(nil)
		if ds.HasErrors() {
			d.diags = append(d.diags, fromHCLDiags(ds)...)
			if d.broken != nil {
				d.broken.Broken = true
			}
			continue
		}
		if !literal(v) {
			d.errAt(e.Range(), "Invalid value", fmt.Sprintf("Each element of %q needs a known, non-null value.", a.Name))
			continue
		}
		x, msg := convertValue(v, k, d.writtenAsFloat(e))
		if msg != "" {
			d.errAt(e.Range(), "Incorrect attribute value type", fmt.Sprintf("Each element of %q %s.", a.Name, msg))
			continue
		}
		out = append(out, x)
	}
	return out
}

// expr reads a runtime expression: an HCL string holding expr source.
func (d *decoder) expr(c content, name string) *Expr {
	a, ok := c.attrs[name]
	if !ok {
		return nil
	}
	v, ok := d.eval(a, nil)
	if !ok {
		return nil
	}
	if v.Type() != cty.String {
		d.errAt(a.Expr.Range(), "Incorrect attribute value type", fmt.Sprintf("The argument %q must be a string holding an expression.", name))
		return nil
	}
	src := v.AsString()
	r := a.Expr.Range()
	x := &Expr{Src: src, Range: fromHCL(r)}
	if t, ok := a.Expr.(*hclsyntax.TemplateExpr); ok && len(t.Parts) == 1 && r.End.Byte-r.Start.Byte >= 2 {
		inner := d.file.Src[r.Start.Byte+1 : r.End.Byte-1]
		if string(inner) == src {
			x.Exact = true
			x.Range = rangeOf(d.file, r.Start.Byte+1, r.End.Byte-1)
		}
	}
	if strings.TrimSpace(src) == "" {
		d.errAt(r, "Empty expression", fmt.Sprintf("The argument %q needs an expression.", name))
		return nil
	}
	return x
}

// sub returns the Expr for bytes [from, to) of a parent expression's source.
func (d *decoder) sub(parent *Expr, from, to int) *Expr {
	x := &Expr{Src: parent.Src[from:to], Range: parent.Range}
	if parent.Exact {
		x.Exact = true
		x.Range = rangeOf(d.file, parent.Range.Start.Byte+from, parent.Range.Start.Byte+to)
	}
	return x
}

func (d *decoder) decl(blk *hclsyntax.Block) Decl {
	dc := Decl{DefRange: fromHCL(blk.DefRange()), Stdlib: d.file.Stdlib}
	if len(blk.Labels) > 0 {
		dc.Name = blk.Labels[0]
		dc.NameRange = fromHCL(blk.LabelRanges[0])
		if len(dc.Name) > MaxNameBytes {
			d.errAt(blk.LabelRanges[0], "Name too long", fmt.Sprintf("This name is %d bytes long; names have at most %d bytes (MaxNameBytes).", len(dc.Name), MaxNameBytes))
			dc.Broken = true
		} else if !validName(dc.Name) {
			d.errAt(blk.LabelRanges[0], "Invalid name", fmt.Sprintf("%q is not a valid name: use letters, digits and underscores, starting with a letter.", dc.Name))
			dc.Broken = true
		}
	} else {
		dc.NameRange = fromHCL(blk.TypeRange)
	}
	return dc
}

func validName(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '_':
		case c >= '0' && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}

// decodeFile decodes every top-level block of a parsed file into m.
func (d *decoder) decodeFile(body *hclsyntax.Body, m *Module) {
	c := d.content(body, body.SrcRange, schemaAt(""))
	for _, blk := range c.blocks {
		switch blk.Type {
		case "service_kind":
			m.ServiceKinds = append(m.ServiceKinds, d.serviceKind(blk))
		case "system":
			m.Systems = append(m.Systems, d.system(blk))
		case "fault_kind":
			m.FaultKinds = append(m.FaultKinds, d.faultKind(blk))
		case "distractor_kind":
			m.DistractorKinds = append(m.DistractorKinds, d.distractorKind(blk))
		case "noise_pattern":
			m.NoisePatterns = append(m.NoisePatterns, d.noisePattern(blk))
		case "benign_change":
			m.BenignChanges = append(m.BenignChanges, d.benignChange(blk))
		case "tool":
			m.Tools = append(m.Tools, d.tool(blk))
		case "rubric":
			m.Rubrics = append(m.Rubrics, d.rubric(blk))
		case "incident":
			m.Incidents = append(m.Incidents, d.incident(blk))
		case "suite":
			m.Suites = append(m.Suites, d.suite(blk))
		case "mutation":
			m.Mutations = append(m.Mutations, d.mutation(blk))
		case "suite_spec":
			m.SuiteSpecs = append(m.SuiteSpecs, d.suiteSpec(blk))
		}
	}
}

func (d *decoder) kindAttr(c content, name string) value.Kind {
	a, ok := c.attrs[name]
	if !ok {
		return value.Null
	}
	s := d.str(c, name)
	k, ok := value.ParseKind(s)
	if !ok || s == "number" {
		if s != "" {
			d.errAt(a.Expr.Range(), "Invalid type", fmt.Sprintf("%q is not a type; use int, float, bool or string.%s", s, didYouMean(s, []string{"int", "float", "bool", "string"})))
		}
		return value.Null
	}
	return k
}

func (d *decoder) band(c content, t *Typed) {
	if !c.has("low") && !c.has("high") {
		return
	}
	t.HasBand = true
	t.Low = d.number(c, "low", math.Inf(-1))
	t.High = d.number(c, "high", math.Inf(1))
	if t.Low > t.High {
		d.errAt(c.attrs["low"].Expr.Range(), "Invalid band", fmt.Sprintf("low (%g) is above high (%g).", t.Low, t.High))
	}
}

func (d *decoder) serviceKind(blk *hclsyntax.Block) *ServiceKind {
	k := &ServiceKind{Decl: d.decl(blk)}
	d.broken = &k.Decl
	defer func() { d.broken = nil }()
	c := d.content(blk.Body, blk.DefRange(), schemaAt("service_kind"))
	k.Description = d.str(c, "description")
	for _, b := range c.blocks {
		switch b.Type {
		case "role":
			rc := d.content(b.Body, b.DefRange(), schemaAt("service_kind/role"))
			r := &Role{Decl: d.decl(b), Kind: d.str(rc, "kind"), Caller: d.boolean(rc, "caller")}
			r.KindRange = r.DefRange
			if a, ok := rc.attrs["kind"]; ok {
				r.KindRange = fromHCL(a.Expr.Range())
			}
			r.Description = d.str(rc, "description")
			k.Roles = append(k.Roles, r)
		case "config":
			cc := d.content(b.Body, b.DefRange(), schemaAt("service_kind/config"))
			ck := &ConfigKey{Typed: Typed{Decl: d.decl(b), Kind: d.kindAttr(cc, "type"), Unit: d.str(cc, "unit")}, Aka: d.strList(cc, "aka")}
			ck.Description = d.str(cc, "description")
			d.band(cc, &ck.Typed)
			if a, ok := cc.attrs["default"]; ok && ck.Kind != value.Null {
				ck.Default, _ = d.typedValue(a, ck.Kind, nil)
			}
			if ck.Kind.Numeric() && !ck.HasBand {
				d.errAt(b.DefRange(), "Missing healthy band", fmt.Sprintf("The numeric config key %q needs low and high limits.", ck.Name))
			}
			if ck.HasBand && ck.Low <= ck.High && ck.Default.K.Numeric() && (ck.Default.AsFloat() < ck.Low || ck.Default.AsFloat() > ck.High) {
				d.errAt(cc.attrs["default"].Expr.Range(), "Default outside the healthy band", fmt.Sprintf("The default of %q must lie between low (%g) and high (%g).", ck.Name, ck.Low, ck.High))
			}
			k.Config = append(k.Config, ck)
		case "state":
			sc := d.content(b.Body, b.DefRange(), schemaAt("service_kind/state"))
			sv := &StateVar{Typed: Typed{Decl: d.decl(b), Kind: d.kindAttr(sc, "type"), Unit: d.str(sc, "unit")}}
			sv.Description = d.str(sc, "description")
			if a, ok := sc.attrs["initial"]; ok && sv.Kind != value.Null {
				sv.Initial, _ = d.typedValue(a, sv.Kind, nil)
			}
			sv.Next = d.expr(sc, "next")
			sv.Audited = d.boolean(sc, "audited")
			if sv.Audited && (sv.Kind != value.String || sv.Next != nil) {
				d.errRange(attrRange(sc, "audited", fromHCL(b.DefRange())), "State cannot be audited", fmt.Sprintf("The change history records a state as a setting, old -> new: %q must be a string state without next.", sv.Name))
			}
			k.States = append(k.States, sv)
		case "derived", "metric":
			qc := d.content(b.Body, b.DefRange(), schemaAt("service_kind/"+b.Type))
			q := &Quantity{Typed: Typed{Decl: d.decl(b), Kind: d.kindAttr(qc, "type"), Unit: d.str(qc, "unit")}, Metric: b.Type == "metric"}
			q.Description = d.str(qc, "description")
			q.Value = d.expr(qc, "value")
			q.Precision = d.integer(qc, "precision", -1, 0, 9) // -1: unset, shortest form
			if q.Noise = d.str(qc, "noise"); q.Noise != "" && !contains(MetricNoiseClasses, q.Noise) {
				d.errRange(attrRange(qc, "noise", fromHCL(b.DefRange())), "Unknown metric noise class", fmt.Sprintf("%q is not a noise class; use one of %s.%s", q.Noise, strings.Join(MetricNoiseClasses, ", "), didYouMean(q.Noise, MetricNoiseClasses)))
			}
			d.band(qc, &q.Typed)
			if q.Metric && q.Kind != value.Null && !q.Kind.Numeric() {
				d.errAt(qc.attrs["type"].Expr.Range(), "Invalid metric type", "A metric must be an int or a float.")
			}
			k.Derived = append(k.Derived, q)
		case "status":
			sc := d.content(b.Body, b.DefRange(), schemaAt("service_kind/status"))
			s := &StatusRule{Decl: d.decl(b), When: d.expr(sc, "when")}
			s.Description = d.str(sc, "description")
			if s.Name == "healthy" {
				d.errAt(b.LabelRanges[0], "Reserved status", `"healthy" is what a service is when no status rule matches; it needs no rule.`)
			}
			k.Statuses = append(k.Statuses, s)
		case "log":
			k.Logs = append(k.Logs, d.logRule(b))
		case "restart", "rollback":
			rc := d.content(b.Body, b.DefRange(), schemaAt("service_kind/"+b.Type))
			for _, a := range sortedAttrs(b.Body) {
				if _, ok := rc.attrs[a.Name]; !ok {
					continue
				}
				v, ok := d.eval(a, nil)
				if !ok {
					continue
				}
				// The state's type is known only after the whole block; keep
				// the literal and convert in the checker.
				as := Assignment{Name: a.Name, Range: fromHCL(a.SrcRange)}
				as.Value = ctyLiteral(v, d.writtenAsFloat(a.Expr))
				if b.Type == "rollback" {
					k.Rollback = append(k.Rollback, as)
				} else {
					k.Restart = append(k.Restart, as)
				}
			}
		case "operation":
			k.Operations = append(k.Operations, d.operation(b))
		case "trace":
			tc := d.content(b.Body, b.DefRange(), schemaAt("service_kind/trace"))
			k.Latency = d.str(tc, "latency")
			k.Errors = d.str(tc, "error_rate")
			k.TraceRng = fromHCL(b.DefRange())
			k.LatencyRng, k.ErrorsRng = k.TraceRng, k.TraceRng
			if a, ok := tc.attrs["latency"]; ok {
				k.LatencyRng = fromHCL(a.Expr.Range())
			}
			if a, ok := tc.attrs["error_rate"]; ok {
				k.ErrorsRng = fromHCL(a.Expr.Range())
			}
			for _, sb := range tc.blocks {
				k.Spans = append(k.Spans, d.traceSpan(sb))
			}
		}
	}
	return k
}

// ctyLiteral converts a constant with its natural kind, for values whose
// declared kind is checked later.
func ctyLiteral(v cty.Value, float bool) value.Value {
	switch v.Type() {
	case cty.Bool:
		return value.OfBool(v.True())
	case cty.String:
		return value.OfString(v.AsString())
	case cty.Number:
		bf := v.AsBigFloat()
		if !float && bf.IsInt() {
			if i, acc := bf.Int64(); acc == 0 {
				return value.OfInt(i)
			}
		}
		f, _ := bf.Float64()
		return value.OfFloat(f)
	}
	return value.Value{}
}

func (d *decoder) logRule(b *hclsyntax.Block) *LogRule {
	lc := d.content(b.Body, b.DefRange(), schemaAt("service_kind/log"))
	l := &LogRule{Decl: d.decl(b), Level: d.str(lc, "level"), When: d.expr(lc, "when"), Listing: d.str(lc, "listing")}
	l.Description = d.str(lc, "description")
	if a, ok := lc.attrs["level"]; ok && l.Level != "" && !contains([]string{"ERROR", "WARN", "INFO"}, l.Level) {
		d.errAt(a.Expr.Range(), "Invalid log level", fmt.Sprintf("%q is not a level; use ERROR, WARN or INFO.", l.Level))
	}
	text := d.expr(lc, "text")
	if text == nil {
		return l
	}
	src := text.Src
	lit := strings.Builder{}
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '{':
			end := strings.IndexByte(src[i:], '}')
			if end < 0 {
				sub := d.sub(text, i, len(src))
				d.errRange(sub.Range, "Unclosed hole in log text", `A "{" opens a value to interpolate; close it with "}".`)
				return l
			}
			if lit.Len() > 0 {
				l.Parts = append(l.Parts, TextPart{Lit: lit.String()})
				lit.Reset()
			}
			hole := d.sub(text, i+1, i+end)
			if name, ok := strings.CutPrefix(strings.TrimSpace(hole.Src), "@"); ok {
				if !contains(LogIDs, name) {
					d.errRange(hole.Range, "Unknown log id", fmt.Sprintf("%q is not an id a log line may draw; use one of %s.", "@"+name, "@"+strings.Join(LogIDs, ", @")))
				} else {
					l.Parts = append(l.Parts, TextPart{ID: name})
				}
			} else if strings.TrimSpace(hole.Src) == "" {
				d.errRange(d.sub(text, i, i+end+1).Range, "Empty hole in log text", `Write an expression between "{" and "}".`)
			} else {
				l.Parts = append(l.Parts, TextPart{Hole: hole})
			}
			i += end
		case '}':
			d.errRange(d.sub(text, i, i+1).Range, "Unopened hole in log text", `A "}" without a "{" before it.`)
		default:
			lit.WriteByte(src[i])
		}
	}
	if lit.Len() > 0 {
		l.Parts = append(l.Parts, TextPart{Lit: lit.String()})
	}
	return l
}

func (d *decoder) system(blk *hclsyntax.Block) *System {
	s := &System{Decl: d.decl(blk)}
	d.broken = &s.Decl
	defer func() { d.broken = nil }()
	c := d.content(blk.Body, blk.DefRange(), schemaAt("system"))
	s.Description = d.str(c, "description")
	if a, ok := c.attrs["traffic"]; ok {
		if v, ok := d.siteRange(a); ok {
			if v.Low <= 0 || v.High > MaxTraffic {
				d.errAt(a.Expr.Range(), "Value out of range", fmt.Sprintf(`The argument "traffic" is a range of request rates: above zero and at most %g requests per tick (MaxTraffic).`, float64(MaxTraffic)))
			} else {
				s.Traffic = &v
			}
		}
	}
	for _, b := range c.blocks {
		if b.Type == "fixture" {
			s.Fixtures = append(s.Fixtures, d.fixture(b, true))
			continue
		}
		sc := d.content(b.Body, b.DefRange(), schemaAt("system/service"))
		ss := &SystemService{Decl: d.decl(b), Kind: d.str(sc, "kind")}
		ss.Config = d.edits("system/service", sc.blocks, false)
		ss.Vary = d.vary(sc.blocks)
		ss.KindRange = ss.DefRange
		if a, ok := sc.attrs["kind"]; ok {
			ss.KindRange = fromHCL(a.Expr.Range())
		}
		if a, ok := sc.attrs["roles"]; ok {
			obj, isObj := a.Expr.(*hclsyntax.ObjectConsExpr)
			if !isObj {
				d.errAt(a.Expr.Range(), "Incorrect attribute value type", `"roles" must be an object like { database = "database" }.`)
			} else {
				for _, item := range obj.Items {
					kv, ds := item.KeyExpr.Value(nil)
					if ds.HasErrors() || kv.Type() != cty.String {
						if key, ok := item.KeyExpr.(*hclsyntax.ObjectConsKeyExpr); ok {
							if name := hcl.ExprAsKeyword(key.Wrapped); name != "" {
								kv = cty.StringVal(name)
							}
						}
					}
					vv, ds2 := item.ValueExpr.Value(nil)
					if kv == cty.NilVal || !literal(kv) || kv.Type() != cty.String || ds2.HasErrors() || !literal(vv) || vv.Type() != cty.String {
						d.errAt(item.ValueExpr.Range(), "Invalid role binding", "Each role binding is role = \"service\".")
						continue
					}
					ss.Roles = append(ss.Roles, Binding{Role: kv.AsString(), Service: vv.AsString(), Range: fromHCL(hcl.RangeBetween(item.KeyExpr.Range(), item.ValueExpr.Range()))})
				}
			}
		}
		s.Services = append(s.Services, ss)
	}
	return s
}

// maxVaryBound bounds a varied key's range, so every draw is finite and
// converts to an int exactly.
const maxVaryBound = 1e15

// vary reads a system service's vary blocks: each attribute is a key and
// its range, two literal numbers, the lower first.
func (d *decoder) vary(blocks []*hclsyntax.Block) []VaryKey {
	var out []VaryKey
	for _, b := range blocks {
		if b.Type != "vary" {
			continue
		}
		d.content(b.Body, b.DefRange(), schemaAt("system/service/vary"))
		for _, a := range sortedAttrs(b.Body) {
			if v, ok := d.siteRange(a); ok {
				out = append(out, v)
			}
		}
	}
	return out
}

// siteRange reads a [LOW, HIGH] range a site draws from: two numbers,
// finite, the lower first.
func (d *decoder) siteRange(a *hclsyntax.Attribute) (VaryKey, bool) {
	v, ds := a.Expr.Value(nil)
	ok := !ds.HasErrors() && literal(v) && (v.Type().IsTupleType() || v.Type().IsListType()) && v.LengthInt() == 2
	var bounds [2]float64
	if ok {
		for i, e := range v.AsValueSlice() {
			if !literal(e) || e.Type() != cty.Number {
				ok = false
				break
			}
			bounds[i], _ = e.AsBigFloat().Float64()
		}
	}
	if !ok {
		d.errAt(a.Expr.Range(), "Invalid range", fmt.Sprintf("%q must be a range [LOW, HIGH] of two numbers.", a.Name))
		return VaryKey{}, false
	}
	if math.Abs(bounds[0]) > maxVaryBound || math.Abs(bounds[1]) > maxVaryBound {
		d.errAt(a.Expr.Range(), "Value out of range", fmt.Sprintf("The range of %q must lie within ±%g.", a.Name, float64(maxVaryBound)))
		return VaryKey{}, false
	}
	if !(bounds[0] < bounds[1]) {
		d.errAt(a.Expr.Range(), "Invalid range", fmt.Sprintf("The range of %q must have its lower bound first and below the upper: [%g, %g].", a.Name, bounds[0], bounds[1]))
		return VaryKey{}, false
	}
	return VaryKey{Name: a.Name, Low: bounds[0], High: bounds[1], Range: fromHCL(a.SrcRange), ValueRange: fromHCL(a.Expr.Range())}, true
}

func (d *decoder) edits(parent string, blocks []*hclsyntax.Block, state bool) []Edit {
	var out []Edit
	for _, b := range blocks {
		if (b.Type != "set_state" && b.Type != "set_config") || (b.Type == "set_state") != state {
			continue
		}
		d.content(b.Body, b.DefRange(), schemaAt(parent+"/"+b.Type))
		for _, a := range sortedAttrs(b.Body) {
			a := a
			file := d.file
			refs := editRefs(a.Expr)
			out = append(out, Edit{
				State: state, Name: a.Name, Range: fromHCL(a.SrcRange),
				Eval: func(sc EditScope) (value.Value, *Diagnostic) {
					return evalEdit(file, a, refs, sc)
				},
			})
		}
	}
	return out
}

// editFunctions are the functions an edit may call: enough to state a
// value against the site (a whole number of workers for a share of its
// traffic) and no more.
var editFunctions = map[string]function.Function{
	"floor": stdlib.FloorFunc,
	"ceil":  stdlib.CeilFunc,
	"min":   stdlib.MinFunc,
	"max":   stdlib.MaxFunc,
}

// editRefs are the names an edit's expression reads under each root
// (param, config, state): the scope it is evaluated in holds only those,
// since an edit is evaluated for every service and site a task compiles
// and the scope's whole config and state would cost far more than the
// expression. A root read whole maps to nil.
func editRefs(e hclsyntax.Expression) map[string][]string {
	refs := map[string][]string{}
	for _, tr := range e.Variables() {
		root := tr.RootName()
		names, seen := refs[root]
		if seen && names == nil {
			continue
		}
		attr, ok := hcl.TraverseAttr{}, false
		if len(tr) > 1 {
			attr, ok = tr[1].(hcl.TraverseAttr)
		}
		if !ok {
			refs[root] = nil
			continue
		}
		if !slices.Contains(names, attr.Name) {
			refs[root] = append(names, attr.Name)
		}
	}
	return refs
}

// editObject is the object a root of an edit's scope stands for: the
// values the edit reads (all of them where it reads the root whole).
func editObject(vals map[string]value.Value, refs map[string][]string, root string) cty.Value {
	if refs == nil {
		return ctyObject(vals)
	}
	names, read := refs[root]
	if !read {
		return cty.EmptyObjectVal
	}
	if names == nil {
		return ctyObject(vals)
	}
	picked := make(map[string]value.Value, len(names))
	for _, n := range names {
		if v, ok := vals[n]; ok {
			picked[n] = v
		}
	}
	return ctyObject(picked)
}

// evalEdit evaluates an edit's HCL expression in its scope; refs are
// editRefs of the expression (nil: the whole scope).
func evalEdit(f *File, a *hclsyntax.Attribute, refs map[string][]string, sc EditScope) (value.Value, *Diagnostic) {
	floatParam := false
	params, config := sc.Params, sc.Config
	ctx := &hcl.EvalContext{
		Variables: map[string]cty.Value{"param": editObject(params, refs, "param"), "config": editObject(config, refs, "config"),
			"state": editObject(sc.State, refs, "state"), "traffic": cty.NumberFloatVal(sc.Traffic)},
		Functions: editFunctions,
	}
	v, ds := a.Expr.Value(ctx)
	if ds.HasErrors() && refs != nil {
		// The whole scope, so that the error's suggestions are the same.
		return evalEdit(f, a, nil, sc)
	}
	if ds.HasErrors() {
		return value.Value{}, fromHCLDiags(ds)[0]
	}
	if !v.IsWhollyKnown() || v.IsNull() {
		r := fromHCL(a.Expr.Range())
		return value.Value{}, &Diagnostic{Severity: Error, Summary: "Invalid value", Detail: "The value must be known and not null.", Subject: &r}
	}
	// A traversal of a float parameter or key stays a float.
	if st, ok := a.Expr.(*hclsyntax.ScopeTraversalExpr); ok && len(st.Traversal) == 2 {
		if attr, ok := st.Traversal[1].(hcl.TraverseAttr); ok {
			src := params
			switch st.Traversal.RootName() {
			case "config":
				src = config
			case "state":
				src = sc.State
			}
			floatParam = src[attr.Name].K == value.Float
		}
	}
	d := &decoder{file: f}
	return ctyLiteral(v, floatParam || d.writtenAsFloat(a.Expr)), nil
}

// ctyObject is an HCL object of named values, in name order.
func ctyObject(vals map[string]value.Value) cty.Value {
	if len(vals) == 0 {
		return cty.EmptyObjectVal
	}
	names := make([]string, 0, len(vals))
	for n := range vals {
		names = append(names, n)
	}
	sort.Strings(names)
	out := map[string]cty.Value{}
	for _, n := range names {
		switch p := vals[n]; p.K {
		case value.Int:
			out[n] = cty.NumberIntVal(p.I)
		case value.Float:
			out[n] = cty.NumberFloatVal(p.F)
		case value.Bool:
			out[n] = cty.BoolVal(p.B)
		case value.String:
			out[n] = cty.StringVal(p.S)
		}
	}
	return cty.ObjectVal(out)
}

func (d *decoder) faultKind(blk *hclsyntax.Block) *FaultKind {
	f := &FaultKind{Decl: d.decl(blk)}
	d.broken = &f.Decl
	defer func() { d.broken = nil }()
	c := d.content(blk.Body, blk.DefRange(), schemaAt("fault_kind"))
	f.Description = d.str(c, "description")
	f.AppliesTo = d.strList(c, "applies_to")
	if a, ok := c.attrs["applies_to"]; ok {
		f.AppliesRange = fromHCL(a.Expr.Range())
	}
	f.AppliesRanges = elemRanges(c, "applies_to", len(f.AppliesTo))
	f.ConflictsWith = d.strList(c, "conflicts_with")
	f.ConflictsRanges = elemRanges(c, "conflicts_with", len(f.ConflictsWith))
	f.Mechanism = d.str(c, "mechanism")
	if a, ok := c.attrs["mechanism"]; ok {
		f.MechRange = fromHCL(a.Expr.Range())
	}
	f.AlsoMechanisms = d.strList(c, "also_mechanisms")
	f.AlsoRanges = elemRanges(c, "also_mechanisms", len(f.AlsoMechanisms))
	f.SymptomMechanisms = d.strList(c, "symptom_mechanisms")
	f.SymptomRanges = elemRanges(c, "symptom_mechanisms", len(f.SymptomMechanisms))

	f.Link = d.str(c, "link")
	if a, ok := c.attrs["link"]; ok {
		f.LinkRange = fromHCL(a.Expr.Range())
	}
	f.Detail = d.str(c, "detail")
	f.FixedWhen = d.expr(c, "fixed_when")
	for _, b := range c.blocks {
		switch b.Type {
		case "param":
			pc := d.content(b.Body, b.DefRange(), schemaAt("fault_kind/param"))
			p := &Param{Decl: d.decl(b), Kind: d.kindAttr(pc, "type")}
			p.Description = d.str(pc, "description")
			if p.Kind != value.Null {
				if a, ok := pc.attrs["default"]; ok {
					p.Default, _ = d.typedValue(a, p.Kind, nil)
				}
				if a, ok := pc.attrs["domain"]; ok {
					p.Domain = d.valueList(a, p.Kind)
				}
			}
			f.Params = append(f.Params, p)
		case "remedy":
			rc := d.content(b.Body, b.DefRange(), schemaAt("fault_kind/remedy"))
			r := Remedy{Effect: b.Labels[0], Key: d.str(rc, "key"), Operation: d.str(rc, "operation"), Range: fromHCL(b.DefRange())}
			if a, ok := rc.attrs["key"]; ok {
				r.KeyRange = fromHCL(a.Expr.Range())
			}
			r.OperationRange = attrRange(rc, "operation", r.Range)
			r.Role, r.RoleRange = d.str(rc, "role"), attrRange(rc, "role", r.Range)
			r.Args, r.ArgsRange = d.strList(rc, "args"), attrRange(rc, "args", r.Range)
			if a, ok := rc.attrs["value"]; ok {
				if v, ok := d.eval(a, nil); ok {
					r.Value = ctyLiteral(v, d.writtenAsFloat(a.Expr))
				}
			}
			switch r.Effect {
			case "restart_service":
				if rc.has("key") || rc.has("value") || rc.has("operation") || rc.has("role") {
					d.errAt(b.DefRange(), "Unexpected arguments", "A restart_service remedy takes no key, value or operation.")
				}
			case "rollback":
				if rc.has("key") || rc.has("value") || rc.has("operation") || rc.has("role") {
					d.errAt(b.DefRange(), "Unexpected arguments", "A rollback remedy takes no key, value or operation: it restores the version before the fault's deploy.")
				}
			case "update_config":
				if !rc.has("key") {
					d.errAt(b.DefRange(), "Missing required argument", `An update_config remedy needs "key".`)
				}
				if rc.has("operation") || rc.has("role") {
					d.errAt(b.DefRange(), "Unexpected arguments", "An update_config remedy takes no operation or role.")
				}
			case "operate":
				if !rc.has("operation") {
					d.errAt(b.DefRange(), "Missing required argument", `An operate remedy needs "operation": the target kind's operation it applies.`)
				}
				if rc.has("key") || rc.has("value") {
					d.errAt(b.DefRange(), "Unexpected arguments", "An operate remedy takes no key or value: its operation says what it sets.")
				}
			case "escalate":
				if rc.has("key") || rc.has("value") || rc.has("operation") || rc.has("role") {
					d.errAt(b.DefRange(), "Unexpected arguments", "An escalate remedy takes no key, value, operation or role: the fault is outside the agent's reach.")
				}
			default:
				d.errAt(b.LabelRanges[0], "Unknown remedy", fmt.Sprintf("%q is not a remedy; use restart_service, update_config, rollback, operate or escalate.%s", r.Effect, didYouMean(r.Effect, []string{"restart_service", "update_config", "rollback", "operate", "escalate"})))
			}
			if r.Effect != "operate" && rc.has("args") {
				d.errAt(b.DefRange(), "Unexpected arguments", "Only an operate remedy takes args: the arguments of its operation's tool.")
			}
			f.Remedies = append(f.Remedies, r)
		}
	}
	f.Edits = append(d.edits("fault_kind", c.blocks, false), d.edits("fault_kind", c.blocks, true)...)
	if len(f.Remedies) == 0 {
		d.errAt(blk.DefRange(), "Missing remedy", "A fault kind needs at least one remedy block.")
	}
	for _, r := range f.Remedies {
		if r.Effect == "escalate" && len(f.Remedies) > 1 {
			// A fault the agent can fix is not one it must hand over.
			d.errRange(r.Range, "Conflicting remedies", "An escalate remedy must be the fault kind's only remedy: a fault outside the agent's reach has no fix the agent applies.")
			break
		}
	}
	return f
}

// operation reads a service kind's operation: its set block's attributes
// are expressions, kept in source order.
func (d *decoder) traceSpan(blk *hclsyntax.Block) *TraceSpan {
	sp := &TraceSpan{Decl: d.decl(blk)}
	c := d.content(blk.Body, blk.DefRange(), schemaAt("service_kind/trace/span"))
	rng := func(name string) Range {
		if a, ok := c.attrs[name]; ok {
			return fromHCL(a.Expr.Range())
		}
		return sp.DefRange
	}
	sp.Kind, sp.KindRng = d.str(c, "kind"), rng("kind")
	sp.Title, sp.TitleRng = d.str(c, "name"), rng("name")
	sp.Latency, sp.LatencyRng = d.str(c, "latency"), rng("latency")
	sp.Errors, sp.ErrorsRng = d.str(c, "error_rate"), rng("error_rate")
	sp.Status, sp.StatusRng = d.str(c, "status"), rng("status")
	sp.Wait, sp.WaitRng = d.str(c, "wait"), rng("wait")
	sp.Calls, sp.CallsRng = d.strList(c, "calls"), rng("calls")
	return sp
}

func (d *decoder) operation(blk *hclsyntax.Block) *Operation {
	op := &Operation{Decl: d.decl(blk)}
	c := d.content(blk.Body, blk.DefRange(), schemaAt("service_kind/operation"))
	op.Description = d.str(c, "description")
	op.Aka = d.strList(c, "aka")
	op.Args, op.ArgsRange = d.strList(c, "args"), attrRange(c, "args", op.DefRange)
	sets := 0
	for _, b := range c.blocks {
		sets++
		if sets > 1 {
			d.errAt(b.DefRange(), "Duplicate set block", "An operation has one set block.")
			continue
		}
		sc := d.content(b.Body, b.DefRange(), schemaAt("service_kind/operation/set"))
		for _, a := range sortedAttrs(b.Body) {
			if _, ok := sc.attrs[a.Name]; !ok {
				continue
			}
			x := d.expr(sc, a.Name)
			if x == nil {
				continue
			}
			op.Sets = append(op.Sets, OperationSet{Name: a.Name, Range: fromHCL(a.SrcRange), Value: x})
		}
	}
	if len(op.Sets) == 0 {
		d.errAt(blk.DefRange(), "Operation sets nothing", "An operation needs a set block with at least one state.")
	}
	return op
}

func (d *decoder) distractorKind(blk *hclsyntax.Block) *DistractorKind {
	k := &DistractorKind{Decl: d.decl(blk)}
	d.broken = &k.Decl
	defer func() { d.broken = nil }()
	c := d.content(blk.Body, blk.DefRange(), schemaAt("distractor_kind"))
	k.Description = d.str(c, "description")
	k.AppliesTo = d.strList(c, "applies_to")
	if a, ok := c.attrs["applies_to"]; ok {
		k.AppliesRange = fromHCL(a.Expr.Range())
	}
	k.AppliesRanges = elemRanges(c, "applies_to", len(k.AppliesTo))
	k.Edits = append(d.edits("distractor_kind", c.blocks, false), d.edits("distractor_kind", c.blocks, true)...)
	return k
}

func (d *decoder) benignChange(blk *hclsyntax.Block) *BenignChange {
	k := &BenignChange{Decl: d.decl(blk)}
	d.broken = &k.Decl
	defer func() { d.broken = nil }()
	c := d.content(blk.Body, blk.DefRange(), schemaAt("benign_change"))
	k.Description = d.str(c, "description")
	k.AppliesTo = d.strList(c, "applies_to")
	k.AppliesRange = attrRange(c, "applies_to", k.DefRange)
	k.AppliesRanges = elemRanges(c, "applies_to", len(k.AppliesTo))
	k.Key = d.str(c, "key")
	k.KeyRange = attrRange(c, "key", k.DefRange)
	k.Actors = d.strList(c, "actors")
	k.ActorsRange = attrRange(c, "actors", k.DefRange)
	k.ConflictsWith = d.strList(c, "conflicts_with")
	k.ConflictsRanges = elemRanges(c, "conflicts_with", len(k.ConflictsWith))
	k.ValuesRange = attrRange(c, "values", k.DefRange)
	if a, ok := c.attrs["values"]; ok {
		// Typed by the checker against each kind's key.
		k.Values = d.literalList(a)
	}
	return k
}

// literalList evaluates a list attribute of literals whose type the
// checker decides.
func (d *decoder) literalList(a *hclsyntax.Attribute) []value.Value {
	tup, isTuple := a.Expr.(*hclsyntax.TupleConsExpr)
	if !isTuple {
		d.errAt(a.Expr.Range(), "Incorrect attribute value type", fmt.Sprintf("The argument %q must be a list written as [a, b, …].", a.Name))
		return nil
	}
	var out []value.Value
	for _, e := range tup.Exprs {
		v, ds := e.Value(nil)
		if ds.HasErrors() || !literal(v) || !(v.Type() == cty.Number || v.Type() == cty.String || v.Type() == cty.Bool) {
			d.errAt(e.Range(), "Invalid value", fmt.Sprintf("Each element of %q must be a number, a string or a bool.", a.Name))
			continue
		}
		out = append(out, ctyLiteral(v, d.writtenAsFloat(e)))
	}
	return out
}

// change decodes a change block: a fault's (path incident/fault/change) or
// an incident's (incident/change).
func (d *decoder) change(b *hclsyntax.Block, path string) *ChangeUse {
	c := d.content(b.Body, b.DefRange(), schemaAt(path))
	ch := &ChangeUse{DefRange: fromHCL(b.DefRange())}
	ch.Actor = d.str(c, "actor")
	ch.ActorRange = attrRange(c, "actor", ch.DefRange)
	if a, ok := c.attrs["actor"]; ok && strings.TrimSpace(ch.Actor) == "" {
		d.errAt(a.Expr.Range(), "Invalid value", `The argument "actor" must name who made the change.`)
	}
	ch.Key = d.str(c, "key")
	ch.KeyRange = attrRange(c, "key", ch.DefRange)
	ch.Service = d.str(c, "service")
	ch.ServiceRange = attrRange(c, "service", ch.DefRange)
	if a, ok := c.attrs["value"]; ok {
		ch.ValueRange = fromHCL(a.Expr.Range())
		if v, ok := d.eval(a, nil); ok {
			if v.Type() == cty.Number || v.Type() == cty.String || v.Type() == cty.Bool {
				ch.Value = ctyLiteral(v, d.writtenAsFloat(a.Expr))
			} else {
				d.errAt(a.Expr.Range(), "Incorrect attribute value type", `The argument "value" must be a number, a string or a bool.`)
			}
		}
	}
	ch.AtRange = attrRange(c, "at", ch.DefRange)
	if a, ok := c.attrs["at"]; ok {
		before := len(d.diags)
		s := d.str(c, "at")
		if at, ok := ParseChangeTime(s); ok {
			ch.At = at
		} else if len(d.diags) == before {
			d.errAt(a.Expr.Range(), "Invalid change time", fmt.Sprintf("%q is not a time of the audit trail; write \"HH:MM\" (the alert's day) or \"DAY HH:MM\" with DAY one of %s.", s, strings.Join(Weekdays, ", ")))
		}
	}
	return ch
}

// ParseChangeTime reads "HH:MM" or "DAY HH:MM" (DAY one of Weekdays).
func ParseChangeTime(s string) (ChangeTime, bool) {
	at := ChangeTime{Set: true, Day: -1}
	if day, rest, ok := strings.Cut(s, " "); ok {
		at.Day = -1
		for i, w := range Weekdays {
			if w == day {
				at.Day = i
			}
		}
		if at.Day < 0 {
			return ChangeTime{}, false
		}
		s = rest
	}
	if len(s) != 5 || s[2] != ':' {
		return ChangeTime{}, false
	}
	digit := func(c byte) (int, bool) { return int(c - '0'), c >= '0' && c <= '9' }
	h1, ok1 := digit(s[0])
	h2, ok2 := digit(s[1])
	m1, ok3 := digit(s[3])
	m2, ok4 := digit(s[4])
	h, m := h1*10+h2, m1*10+m2
	if !ok1 || !ok2 || !ok3 || !ok4 || h > 23 || m > 59 {
		return ChangeTime{}, false
	}
	at.Minute = h*60 + m
	return at, true
}

func (d *decoder) noisePattern(blk *hclsyntax.Block) *NoisePattern {
	n := &NoisePattern{Decl: d.decl(blk)}
	d.broken = &n.Decl
	defer func() { d.broken = nil }()
	c := d.content(blk.Body, blk.DefRange(), schemaAt("noise_pattern"))
	n.Description = d.str(c, "description")
	n.Effect = d.str(c, "effect")
	n.EffectRng = attrRange(c, "effect", n.DefRange)
	n.Rate = d.number(c, "rate", 0)
	n.RateRng = attrRange(c, "rate", n.DefRange)
	n.Magnitude = d.number(c, "magnitude", 0)
	n.Lag = d.integer(c, "lag", 0, 0, 6)
	return n
}

func (d *decoder) tool(blk *hclsyntax.Block) *Tool {
	t := &Tool{Decl: d.decl(blk)}
	d.broken = &t.Decl
	defer func() { d.broken = nil }()
	c := d.content(blk.Body, blk.DefRange(), schemaAt("tool"))
	t.Description = d.str(c, "description")
	t.Effect = d.str(c, "effect")
	t.EffectRng = attrRange(c, "effect", t.DefRange)
	t.Operation = d.str(c, "operation")
	t.OperationRng = attrRange(c, "operation", t.DefRange)
	t.Listing, t.ListingRng = d.str(c, "listing"), attrRange(c, "listing", t.DefRange)
	for _, b := range c.blocks {
		ac := d.content(b.Body, b.DefRange(), schemaAt("tool/arg"))
		a := &ToolArg{Decl: d.decl(b), Type: d.str(ac, "type"), Optional: d.boolean(ac, "optional")}
		a.TypeRng = attrRange(ac, "type", a.DefRange)
		a.Description = d.str(ac, "description")
		t.Args = append(t.Args, a)
	}
	return t
}

var weightNames = []string{"evidence", "diagnosis", "mitigation", "resolution", "efficiency"}
var penaltyNames = []string{"invalid_action", "repeated_invalid_action", "repeated_useless_action", "wrong_change", "restart_healthy", "distractor_action", "premature_resolution"}

func (d *decoder) rubric(blk *hclsyntax.Block) *Rubric {
	r := &Rubric{Decl: d.decl(blk), Weights: map[string]float64{}, Penalties: map[string]float64{}}
	d.broken = &r.Decl
	defer func() { d.broken = nil }()
	c := d.content(blk.Body, blk.DefRange(), schemaAt("rubric"))
	r.Description = d.str(c, "description")
	r.Profile, r.ProfileRange = d.str(c, "profile"), attrRange(c, "profile", r.DefRange)
	if r.Profile == "" {
		r.Profile = ProfileNative
	}
	if profiles := []string{ProfileNative, ProfileSreZero}; !contains(profiles, r.Profile) {
		d.errRange(r.ProfileRange, "Unknown profile", fmt.Sprintf("%q is not a rubric profile; use %s or %s.%s", r.Profile, ProfileNative, ProfileSreZero, didYouMean(r.Profile, profiles)))
	}
	for _, b := range c.blocks {
		switch b.Type {
		case "weights", "penalties":
			names, into := weightNames, r.Weights
			if b.Type == "penalties" {
				names, into = penaltyNames, r.Penalties
			}
			wc := d.content(b.Body, b.DefRange(), schemaAt("rubric/"+b.Type))
			for _, n := range names {
				if wc.has(n) {
					into[n] = d.number(wc, n, 0)
				}
			}
		case "component", "mechanism":
			tc := d.content(b.Body, b.DefRange(), schemaAt("rubric/"+b.Type))
			t := &Term{Decl: d.decl(b), Phrases: d.strList(tc, "phrases"), About: d.strList(tc, "about"), States: d.strList(tc, "states")}
			t.StatesRange = attrRange(tc, "states", t.DefRange)
			t.Description = d.str(tc, "description")
			if b.Type == "component" {
				r.Components = append(r.Components, t)
			} else {
				r.Mechanisms = append(r.Mechanisms, t)
			}
		}
	}
	return r
}

func (d *decoder) incident(blk *hclsyntax.Block) *Incident {
	in := &Incident{Decl: d.decl(blk), File: d.file.Name}
	d.broken = &in.Decl
	defer func() { d.broken = nil }()
	c := d.content(blk.Body, blk.DefRange(), schemaAt("incident"))
	in.Ref = d.refIncident(c)
	in.Description = d.str(c, "description")
	in.Title = d.str(c, "title")
	in.Alert = d.str(c, "alert")
	in.Difficulty = d.str(c, "difficulty")
	in.Split = d.str(c, "split")
	in.Tags = d.strList(c, "tags")
	in.Budget = d.integer(c, "budget", 10, 1, 1000)
	in.System = d.str(c, "system")
	in.Rubric = d.str(c, "rubric")
	if in.Rubric == "" {
		in.Rubric = "native"
	}
	for _, p := range []struct {
		name string
		rng  *Range
	}{{"system", &in.SystemRange}, {"rubric", &in.RubricRange}, {"budget", &in.BudgetRange}} {
		if a, ok := c.attrs[p.name]; ok {
			*p.rng = fromHCL(a.Expr.Range())
		} else {
			*p.rng = in.DefRange
		}
	}
	in.Traffic = d.traffic(c)
	_, in.TrafficSet = c.attrs["traffic"]
	in.DrawKey = d.str(c, "draw_key")
	in.Warmup = d.integer(c, "warmup", 8, 0, 1000)
	in.Hold = d.integer(c, "hold", 3, 0, 100)
	in.Resolved = d.expr(c, "resolved_when")
	for _, pair := range []struct {
		attr string
		ok   []string
		val  string
	}{{"difficulty", []string{"easy", "medium", "hard"}, in.Difficulty}, {"split", []string{"train", "dev", "test"}, in.Split}} {
		if a, ok := c.attrs[pair.attr]; ok && pair.val != "" && !contains(pair.ok, pair.val) {
			d.errAt(a.Expr.Range(), "Invalid "+pair.attr, fmt.Sprintf("%q is not a %s; use one of %s.%s", pair.val, pair.attr, strings.Join(pair.ok, ", "), didYouMean(pair.val, pair.ok)))
		}
	}
	if a, ok := c.attrs["expert"]; ok {
		if tup, ok := a.Expr.(*hclsyntax.TupleConsExpr); ok {
			for _, e := range tup.Exprs {
				v, ds := e.Value(nil)
				if ds.HasErrors() || !literal(v) || v.Type() != cty.String {
					d.errAt(e.Range(), "Incorrect attribute value type", "Each expert step is a string holding a text action.")
					continue
				}
				in.Expert = append(in.Expert, v.AsString())
				in.ExpertRange = append(in.ExpertRange, fromHCL(e.Range()))
			}
		} else {
			d.errAt(a.Expr.Range(), "Incorrect attribute value type", `"expert" must be a list of text actions.`)
		}
	}
	for _, b := range c.blocks {
		switch b.Type {
		case "fault":
			fc := d.content(b.Body, b.DefRange(), schemaAt("incident/fault"))
			fu := &FaultUse{Decl: d.decl(b), Params: map[string]value.Value{}, ParamRanges: map[string]Range{}}
			fu.Target, fu.TRange = d.target(fc, b)
			if client, server, ok := strings.Cut(fu.Target, "->"); ok {
				fu.Target, fu.Peer = strings.TrimSpace(client), strings.TrimSpace(server)
			}
			for _, a := range sortedAttrs(b.Body) {
				if a.Name == "target" {
					continue
				}
				if v, ok := d.eval(a, nil); ok {
					fu.Params[a.Name] = ctyLiteral(v, d.writtenAsFloat(a.Expr))
					fu.ParamRanges[a.Name] = fromHCL(a.SrcRange)
				}
			}
			for _, cb := range fc.blocks {
				if fu.Change != nil {
					d.errAt(cb.DefRange(), "Duplicate change", "A fault came from at most one change; this fault already has a change block.")
					continue
				}
				fu.Change = d.change(cb, "incident/fault/change")
			}
			in.Faults = append(in.Faults, fu)
		case "change":
			in.Changes = append(in.Changes, d.change(b, "incident/change"))
		case "distractor":
			dc := d.content(b.Body, b.DefRange(), schemaAt("incident/distractor"))
			du := &DistractorUse{Decl: d.decl(b)}
			du.Target, du.TRange = d.target(dc, b)
			in.Distractors = append(in.Distractors, du)
		case "noise":
			nc := d.content(b.Body, b.DefRange(), schemaAt("incident/noise"))
			nu := &NoiseUse{Decl: d.decl(b)}
			if nc.has("target") {
				nu.Target, nu.TRange = d.target(nc, b)
			}
			if nc.has("rate") {
				x := d.number(nc, "rate", 0)
				nu.Rate = &x
			}
			if nc.has("magnitude") {
				x := d.number(nc, "magnitude", 0)
				nu.Magnitude = &x
			}
			if nc.has("lag") {
				x := d.integer(nc, "lag", 0, 0, 6)
				nu.Lag = &x
			}
			in.Noise = append(in.Noise, nu)
		}
	}
	d.duplicateUses(in)
	return in
}

// MaxTraffic is the largest request rate an incident may declare, per
// tick; the shipped incidents use 300 to 500.
const MaxTraffic = 1e6

// traffic reads an incident's request rate: a finite number above zero
// and at most MaxTraffic. A literal too small for a float64 (1e-400) reads
// as zero and one too large as +Inf; either used to reach certification,
// which reported it at 1:1.
func (d *decoder) traffic(c content) float64 {
	const def = DefaultTraffic
	a, ok := c.attrs["traffic"]
	if !ok {
		return def
	}
	v, ok := d.eval(a, nil)
	if !ok {
		return def
	}
	if v.Type() != cty.Number {
		d.errAt(a.Expr.Range(), "Incorrect attribute value type", `The argument "traffic" must be a number.`)
		return def
	}
	bf := v.AsBigFloat()
	f, _ := bf.Float64()
	switch {
	case bf.Sign() <= 0:
		d.errAt(a.Expr.Range(), "Value out of range", `The argument "traffic" is a request rate: it must be above zero.`)
	case f == 0:
		d.errAt(a.Expr.Range(), "Value out of range", `The argument "traffic" is too small to be represented: it would be zero.`)
	case math.IsInf(f, 0) || f > MaxTraffic:
		d.errAt(a.Expr.Range(), "Value out of range", fmt.Sprintf(`The argument "traffic" must be at most %g requests per tick (MaxTraffic).`, float64(MaxTraffic)))
	default:
		return f
	}
	return def
}

// duplicateUses reports a distractor or noise block that repeats an
// earlier one of the same incident: the same kind on the same target
// (noise without a target covers every service). The runtime would apply
// both, stacking their effects, which no author means by writing a block
// twice; the same kind on another target is a different block.
func (d *decoder) duplicateUses(in *Incident) {
	type use struct{ what, kind, target string }
	first := map[use]Range{}
	seen := func(u use, r Range) {
		what := u.what
		if u.kind == "" {
			return
		}
		if at, ok := first[u]; ok {
			target := "every service"
			if u.target != "" {
				target = fmt.Sprintf("%q", u.target)
			}
			rel := at
			d.diags = append(d.diags, &Diagnostic{Severity: Error, Summary: "Duplicate " + what,
				Detail:  fmt.Sprintf("%s %q on %s was already declared at %s; each would apply, so their effects would stack.", capitalize(article(what)), u.kind, target, at),
				Subject: &r, Related: &rel})
			in.Broken = true
			return
		}
		first[u] = r
	}
	for _, du := range in.Distractors {
		seen(use{"distractor", du.Name, du.Target}, du.DefRange)
	}
	for _, nu := range in.Noise {
		seen(use{"noise", nu.Name, nu.Target}, nu.DefRange)
	}
}

// elemRanges returns the range of each of n elements of a list attribute
// read by strList: the elements' own ranges when it is written as [a, b],
// else the whole value's range for each.
func elemRanges(c content, name string, n int) []Range {
	a, ok := c.attrs[name]
	if !ok || n == 0 {
		return nil
	}
	out := make([]Range, n)
	tup, isTuple := a.Expr.(*hclsyntax.TupleConsExpr)
	for i := range out {
		if isTuple && len(tup.Exprs) == n {
			out[i] = fromHCL(tup.Exprs[i].Range())
		} else {
			out[i] = fromHCL(a.Expr.Range())
		}
	}
	return out
}

// attrRange is the range of an attribute's value, or def when it is absent.
func attrRange(c content, name string, def Range) Range {
	if a, ok := c.attrs[name]; ok {
		return fromHCL(a.Expr.Range())
	}
	return def
}

func (d *decoder) target(c content, b *hclsyntax.Block) (string, Range) {
	a, ok := c.attrs["target"]
	if !ok {
		d.errAt(b.DefRange(), "Missing required argument", fmt.Sprintf(`The argument "target" is required in %s block, but no definition was found.`, article(b.Type)))
		return "", fromHCL(b.DefRange())
	}
	before := len(d.diags)
	name := d.str(c, "target")
	if name == "" && len(d.diags) == before {
		d.errAt(a.Expr.Range(), "Invalid value", `The argument "target" must name a service.`)
	}
	return name, fromHCL(a.Expr.Range())
}
