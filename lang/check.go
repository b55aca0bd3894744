package lang

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/types"

	"github.com/srezc/srezc/action"
	"github.com/srezc/srezc/value"
)

type checker struct {
	m      *Module
	files  map[string]*File
	diags  Diagnostics
	broken *Decl
	// checked are declarations an earlier analysis checked (a Base's):
	// they are not checked again. baseFirsts maps each kind (declKind's
	// what) and name to the first of them to take the name.
	checked    map[*Decl]bool
	baseFirsts map[string]map[string]*Decl
}

func (c *checker) errRange(r Range, summary, detail string) {
	rr := r
	c.diags = append(c.diags, &Diagnostic{Severity: Error, Summary: summary, Detail: detail, Subject: &rr})
	if c.broken != nil {
		c.broken.Broken = true
	}
}

func names[T interface{ decl() *Decl }](list []T) []string {
	out := make([]string, 0, len(list))
	for _, x := range list {
		out = append(out, x.decl().Name)
	}
	return out
}

// article prefixes a word with "a" or "an".
func article(w string) string {
	if w != "" && strings.ContainsRune("aeiouAEIOU", rune(w[0])) {
		return "an " + w
	}
	return "a " + w
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// unknown reports a reference to a name that does not exist.
// The summary is a fixed phrase: "parameter of service_crash" is summed up
// as "Unknown parameter".
func (c *checker) unknown(r Range, what, name string, candidates []string) {
	summary, _, _ := strings.Cut(what, " of ")
	c.errRange(r, "Unknown "+summary, fmt.Sprintf("There is no %s named %q.%s", what, name, didYouMean(name, candidates)))
}

func dupes[T interface{ decl() *Decl }](c *checker, what string, list []T) {
	seen := map[string]*Decl{}
	for _, x := range list {
		d := x.decl()
		if d.Name == "" {
			continue
		}
		if first, ok := seen[d.Name]; ok {
			c.duplicate(what, d, first)
			continue
		}
		seen[d.Name] = d
	}
}

// duplicate reports d, which takes the name first took.
func (c *checker) duplicate(what string, d, first *Decl) {
	rel := first.NameRange
	c.diags = append(c.diags, &Diagnostic{Severity: Error, Summary: "Duplicate " + what,
		Detail:  fmt.Sprintf("%s named %q was already declared at %s.", capitalize(article(what)), d.Name, first.NameRange),
		Subject: &d.NameRange, Related: &rel})
	d.Broken = true
}

// declKind is the declarations of one kind and the words diagnostics
// name the kind by.
type declKind struct {
	what  string
	decls []*Decl
}

// declKinds lists m's declarations by kind, each kind in source order.
func declKinds(m *Module) []declKind {
	return []declKind{
		{"service kind", declsOf(m.ServiceKinds)},
		{"system", declsOf(m.Systems)},
		{"fault kind", declsOf(m.FaultKinds)},
		{"distractor kind", declsOf(m.DistractorKinds)},
		{"noise pattern", declsOf(m.NoisePatterns)},
		{"benign change", declsOf(m.BenignChanges)},
		{"tool", declsOf(m.Tools)},
		{"rubric", declsOf(m.Rubrics)},
		{"incident", declsOf(m.Incidents)},
		{"suite", declsOf(m.Suites)},
		{"mutation", declsOf(m.Mutations)},
		{"suite_spec", declsOf(m.SuiteSpecs)},
	}
}

// firstByName maps each name to its first declaration in decls.
func firstByName(decls []*Decl) map[string]*Decl {
	first := map[string]*Decl{}
	for _, d := range decls {
		if _, ok := first[d.Name]; !ok && d.Name != "" {
			first[d.Name] = d
		}
	}
	return first
}

// topDupes is dupes for the top-level declarations of one kind. A
// base's declarations were checked when it was built: the names they
// took come from c.baseFirsts rather than from gathering them again for
// every analysis, which was a quarter of the analysis of a nearly empty file.
func (c *checker) topDupes(what string, decls []*Decl) {
	base := c.baseFirsts[what]
	var seen map[string]*Decl
	for _, d := range decls {
		if d.Name == "" || c.checked[d] {
			continue
		}
		first, ok := base[d.Name]
		if !ok {
			first, ok = seen[d.Name]
		}
		if ok {
			c.duplicate(what, d, first)
			continue
		}
		if seen == nil {
			seen = map[string]*Decl{}
		}
		seen[d.Name] = d
	}
}

// check runs every semantic check over a decoded module.
func (c *checker) check() {
	m := c.m
	for _, k := range declKinds(m) {
		c.topDupes(k.what, k.decls)
	}
	for _, k := range m.ServiceKinds {
		if c.checked[&k.Decl] {
			continue
		}
		c.broken = &k.Decl
		c.serviceKind(k)
	}
	for _, k := range m.ServiceKinds {
		if c.checked[&k.Decl] {
			continue
		}
		c.broken = &k.Decl
		c.serviceKindExprs(k)
	}
	for _, s := range m.Systems {
		if c.checked[&s.Decl] {
			continue
		}
		c.broken = &s.Decl
		c.system(s)
	}
	for _, t := range m.Tools {
		if c.checked[&t.Decl] {
			continue
		}
		c.broken = &t.Decl
		c.tool(t)
	}
	for _, r := range m.Rubrics {
		if c.checked[&r.Decl] {
			continue
		}
		c.broken = &r.Decl
		c.rubric(r)
	}
	for _, f := range m.FaultKinds {
		if c.checked[&f.Decl] {
			continue
		}
		c.broken = &f.Decl
		c.faultKind(f)
	}
	for _, d := range m.DistractorKinds {
		if c.checked[&d.Decl] {
			continue
		}
		c.broken = &d.Decl
		c.distractorKind(d)
	}
	for _, n := range m.NoisePatterns {
		if c.checked[&n.Decl] {
			continue
		}
		c.broken = &n.Decl
		c.noisePattern(n)
	}
	for _, bc := range m.BenignChanges {
		if c.checked[&bc.Decl] {
			continue
		}
		c.broken = &bc.Decl
		c.benignChange(bc)
	}
	for _, in := range m.Incidents {
		if c.checked[&in.Decl] {
			continue
		}
		c.broken = &in.Decl
		c.incident(in)
	}
	for _, s := range m.Suites {
		if c.checked[&s.Decl] {
			continue
		}
		c.broken = &s.Decl
		c.checkSuite(s)
	}
	for _, mu := range m.Mutations {
		if c.checked[&mu.Decl] {
			continue
		}
		c.broken = &mu.Decl
		c.checkMutation(mu)
	}
	for _, s := range m.SuiteSpecs {
		if c.checked[&s.Decl] {
			continue
		}
		c.broken = &s.Decl
		c.checkSuiteSpec(s)
	}
	c.broken = nil
}

func (c *checker) serviceKind(k *ServiceKind) {
	dupes(c, "role", k.Roles)
	dupes(c, "config key", k.Config)
	dupes(c, "state", k.States)
	dupes(c, "derived quantity or metric", k.Derived)
	dupes(c, "status", k.Statuses)
	dupes(c, "log rule", k.Logs)
	for _, r := range k.Roles {
		if r.Kind != "" && c.m.ServiceKind(r.Kind) == nil {
			c.unknown(r.KindRange, "service kind", r.Kind, names(c.m.ServiceKinds))
		}
	}
	reserved := []string{"config", "state", "traffic", "status"}
	for _, q := range k.Derived {
		if contains(reserved, q.Name) || k.Role(q.Name) != nil {
			c.errRange(q.NameRange, "Name in use", fmt.Sprintf("%q is already a role or a reserved name (%s).", q.Name, strings.Join(reserved, ", ")))
		}
	}
	for _, r := range k.Roles {
		if contains(reserved, r.Name) {
			c.errRange(r.NameRange, "Name in use", fmt.Sprintf("%q is a reserved name.", r.Name))
		}
	}
	if len(k.Rollback) > 0 {
		if s := k.State(DeployState); s == nil || s.Kind != value.String {
			c.errRange(k.Rollback[0].Range, "No deployed version", fmt.Sprintf("A kind with a rollback block needs a string state %q, the version its deploys change.", DeployState))
		}
	}
	for i := range len(k.Restart) + len(k.Rollback) {
		var as *Assignment
		if i < len(k.Restart) {
			as = &k.Restart[i]
		} else {
			as = &k.Rollback[i-len(k.Restart)]
		}
		s := k.State(as.Name)
		if s == nil {
			c.unknown(as.Range, "state", as.Name, names(k.States))
			continue
		}
		v, ok := convertKind(as.Value, s.Kind)
		if !ok {
			c.errRange(as.Range, "Incorrect value type", fmt.Sprintf("The state %q is %s; this value is %s.", as.Name, article(s.Kind.String()), article(as.Value.K.String())))
			continue
		}
		as.Value = v
	}
	dupes(c, "operation", k.Operations)
	for _, op := range k.Operations {
		if len(op.Sets) > MaxOperationSets {
			c.errRange(op.Sets[MaxOperationSets].Range, "Too many states", fmt.Sprintf("An operation sets at most %d states.", MaxOperationSets))
		}
		if len(op.Args) > MaxOperationArgs {
			c.errRange(op.ArgsRange, "Too many arguments", fmt.Sprintf("An operation takes at most %d args.", MaxOperationArgs))
		}
		for i, a := range op.Args {
			if !validName(a) || contains(op.Args[:i], a) {
				c.errRange(op.ArgsRange, "Invalid argument name", fmt.Sprintf("%q is not a name, or is listed twice: an operation's args are distinct names like table or client.", a))
			}
			for _, other := range c.m.ServiceKinds {
				if o := other.Operation(op.Name); o != nil && o != op && !slices.Equal(o.Args, op.Args) {
					c.errRange(op.ArgsRange, "Operation arguments differ", fmt.Sprintf("The operation %q of %s takes %s; every kind's %q takes the same args, since one tool applies it.", op.Name, other.Name, strings.Join(o.Args, ", "), op.Name))
				}
			}
		}
		seen := map[string]bool{}
		for _, set := range op.Sets {
			if seen[set.Name] {
				c.errRange(set.Range, "Duplicate state", fmt.Sprintf("The operation %q sets %q twice.", op.Name, set.Name))
			}
			seen[set.Name] = true
			if k.State(set.Name) == nil {
				c.unknown(set.Range, "state", set.Name, names(k.States))
			}
		}
	}
	for _, t := range []struct {
		name string
		rng  Range
	}{{k.Latency, k.LatencyRng}, {k.Errors, k.ErrorsRng}} {
		if t.name != "" && k.Quantity(t.name) == nil {
			c.unknown(t.rng, "derived quantity or metric", t.name, names(k.Derived))
		}
	}
	for _, s := range k.States {
		if s.Kind == value.Null || s.Initial.K == value.Null {
			continue
		}
	}
	c.traceSpans(k)
}

// traceSpans checks a kind's trace/span blocks: a known span kind, a
// one-line name, quantities of the kind of the right type, a consumer's
// queue wait and calls on a consumer span only, calls to roles the kind
// depends on, and at most one consumer span (a service's queued work has
// one consumer side).
func (c *checker) traceSpans(k *ServiceKind) {
	dupes(c, "span", k.Spans)
	if len(k.Spans) > MaxTraceSpans {
		c.errRange(k.Spans[MaxTraceSpans].DefRange, "Too many spans", fmt.Sprintf("A trace declares at most %d spans.", MaxTraceSpans))
	}
	var consumer *TraceSpan
	for _, sp := range k.Spans {
		switch sp.Kind {
		case SpanClient, SpanConsumer:
		case "":
			// The decoder reported a missing or mistyped kind.
		default:
			c.errRange(sp.KindRng, "Unknown span kind", fmt.Sprintf("A span's kind is %s, not %q.%s", quoteList(SpanKinds), sp.Kind, didYouMean(sp.Kind, SpanKinds)))
		}
		if sp.Kind == SpanConsumer {
			if consumer != nil {
				c.errRange(sp.KindRng, "Second consumer span", fmt.Sprintf("The kind %q already declares the consumer span %q (line %d); a service's queued work has one consumer side.", k.Name, consumer.Name, consumer.DefRange.Start.Line))
			}
			consumer = sp
		}
		if len(sp.Title) > MaxNameBytes || strings.ContainsAny(sp.Title, "\n\r") {
			c.errRange(sp.TitleRng, "Invalid span name", fmt.Sprintf("A span's name is one line of at most %d bytes (MaxNameBytes).", MaxNameBytes))
		}
		for _, q := range []struct {
			attr, name string
			rng        Range
			str        bool
		}{{"latency", sp.Latency, sp.LatencyRng, false}, {"error_rate", sp.Errors, sp.ErrorsRng, false}, {"wait", sp.Wait, sp.WaitRng, false}, {"status", sp.Status, sp.StatusRng, true}} {
			if q.name == "" {
				continue
			}
			d := k.Quantity(q.name)
			switch {
			case d == nil:
				c.unknown(q.rng, "derived quantity or metric", q.name, names(k.Derived))
			case q.str && d.Kind != value.String:
				c.errRange(q.rng, "Span status is not a string", fmt.Sprintf("A span's status names a string quantity; %q is %s.", q.name, article(d.Kind.String())))
			case !q.str && !d.Kind.Numeric():
				c.errRange(q.rng, "Span figure is not a number", fmt.Sprintf("A span's %s names an int or float quantity; %q is %s.", q.attr, q.name, article(d.Kind.String())))
			}
		}
		if sp.Kind == SpanClient {
			if sp.Wait != "" {
				c.errRange(sp.WaitRng, "Queue wait on a client span", "Only a consumer span waited in a queue; a client span is a call its service makes.")
			}
			if len(sp.Calls) > 0 {
				c.errRange(sp.CallsRng, "Calls from a client span", "A client span is a call to something outside the system and calls nothing the system models; declare the service it reaches as a role instead.")
			}
		}
		for _, r := range sp.Calls {
			switch role := k.Role(r); {
			case role == nil:
				c.unknown(sp.CallsRng, "role of "+k.Name, r, names(k.Roles))
			case role.Caller:
				c.errRange(sp.CallsRng, "Span calls a caller", fmt.Sprintf("The role %q calls this service; a span calls the services the kind depends on.", r))
			}
		}
	}
}

// quoteList writes names as "a", "b" or "c".
func quoteList(list []string) string {
	var b strings.Builder
	for i, s := range list {
		switch {
		case i == 0:
		case i == len(list)-1:
			b.WriteString(" or ")
		default:
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%q", s)
	}
	return b.String()
}

// convertKind converts a literal to a declared kind; an int literal may
// stand for a float.
func convertKind(v value.Value, k value.Kind) (value.Value, bool) {
	if v.K == k {
		return v, true
	}
	if v.K == value.Int && k == value.Float {
		return value.OfFloat(float64(v.I)), true
	}
	return value.Value{}, false
}

// scalarNames lists a kind's config keys, states, and quantities as types.
func kindScope(k *ServiceKind) (config, state types.Map, quantities types.Map) {
	config, state, quantities = types.Map{}, types.Map{}, types.Map{}
	for _, x := range k.Config {
		config[x.Name] = typeOfKind(x.Kind)
	}
	for _, x := range k.States {
		state[x.Name] = typeOfKind(x.Kind)
	}
	for _, x := range k.Derived {
		quantities[x.Name] = typeOfKind(x.Kind)
	}
	return
}

// KindEnv is the expression scope of a service kind (see docs/language.md).
func (m *Module) KindEnv(k *ServiceKind) types.Map {
	config, state, q := kindScope(k)
	env := types.Map{"config": config, "state": state, "traffic": types.Float64}
	for n, t := range q {
		env[n] = t
	}
	for _, r := range k.Roles {
		rk := m.ServiceKind(r.Kind)
		if rk == nil {
			continue
		}
		_, _, rq := kindScope(rk)
		rq["status"] = types.String
		env[r.Name] = rq
	}
	return env
}

func (c *checker) serviceKindExprs(k *ServiceKind) {
	env := newExprScope(c.m.KindEnv(k))
	for _, s := range k.States {
		if s.Next != nil && s.Kind != value.Null {
			c.checkExpr(s.Next, env, s.Kind, "next value of state "+s.Name)
		}
	}
	for _, q := range k.Derived {
		if q.Value != nil && q.Kind != value.Null {
			c.checkExpr(q.Value, env, q.Kind, "value of "+q.Name)
		}
	}
	for _, s := range k.Statuses {
		c.checkExpr(s.When, env, value.Bool, "condition of status "+s.Name)
	}
	for _, op := range k.Operations {
		opEnv := env
		if len(op.Args) > 0 {
			withArgs := types.Map{}
			for n, t := range c.m.KindEnv(k) {
				withArgs[n] = t
			}
			args := types.Map{}
			for _, a := range op.Args {
				args[a] = types.String
			}
			withArgs["arg"] = args
			opEnv = newExprScope(withArgs)
		}
		for _, set := range op.Sets {
			if s := k.State(set.Name); s != nil && s.Kind != value.Null {
				c.checkExpr(set.Value, opEnv, s.Kind, "value operation "+op.Name+" sets for state "+set.Name)
			}
		}
	}
	for _, l := range k.Logs {
		c.checkExpr(l.When, env, value.Bool, "condition of log "+l.Name)
		for _, p := range l.Parts {
			if p.Hole != nil {
				c.checkExpr(p.Hole, env, value.Null, "log hole")
			}
		}
	}
	// Derived quantities are computed in dependency order; a cycle within
	// one service has no order.
	order, cyc := computeQuantityOrder(k)
	if cyc != nil {
		c.errRange(cyc.NameRange, "Cycle in derived quantities", fmt.Sprintf("%q depends on itself through other derived quantities of %s.", cyc.Name, k.Name))
		return
	}
	k.order = order
}

// QuantityOrder sorts a kind's quantities so that each comes after those it
// reads. It returns a quantity on a cycle if there is one. The checker
// computes it once per kind; the compiler asks for it per incident.
func QuantityOrder(k *ServiceKind) ([]*Quantity, *Quantity) {
	if k.order != nil {
		return k.order, nil
	}
	return computeQuantityOrder(k)
}

func computeQuantityOrder(k *ServiceKind) ([]*Quantity, *Quantity) {
	deps := map[*Quantity][]*Quantity{}
	for _, q := range k.Derived {
		if q.Value == nil || q.Value.Node == nil {
			continue
		}
		for _, name := range BareNames(q.Value.Node) {
			if d := k.Quantity(name); d != nil {
				deps[q] = append(deps[q], d)
			}
		}
	}
	var order []*Quantity
	state := map[*Quantity]int{}
	var cyc *Quantity
	var visit func(q *Quantity)
	visit = func(q *Quantity) {
		switch state[q] {
		case 1:
			if cyc == nil {
				cyc = q
			}
			return
		case 2:
			return
		}
		state[q] = 1
		for _, d := range deps[q] {
			visit(d)
		}
		state[q] = 2
		order = append(order, q)
	}
	for _, q := range k.Derived {
		visit(q)
	}
	return order, cyc
}

// BareNames lists the identifiers an expression reads that are not the
// head of a member chain (config.x, role.x).
func BareNames(n ast.Node) []string {
	var out []string
	var walk func(n ast.Node, head bool)
	walk = func(n ast.Node, head bool) {
		switch x := n.(type) {
		case *ast.IdentifierNode:
			if !head {
				out = append(out, x.Value)
			}
		case *ast.MemberNode:
			walk(x.Node, true)
		case *ast.UnaryNode:
			walk(x.Node, false)
		case *ast.BinaryNode:
			walk(x.Left, false)
			walk(x.Right, false)
		case *ast.ConditionalNode:
			walk(x.Cond, false)
			walk(x.Exp1, false)
			walk(x.Exp2, false)
		case *ast.BuiltinNode:
			for _, a := range x.Arguments {
				walk(a, false)
			}
		case *ast.CallNode:
			for _, a := range x.Arguments {
				walk(a, false)
			}
		}
	}
	walk(n, false)
	sort.Strings(out)
	return out
}

func (c *checker) system(s *System) {
	dupes(c, "service", s.Services)
	dupes(c, "fixture", s.Fixtures)
	if len(s.Fixtures) > 0 && len(s.Services) > 0 {
		c.errRange(s.DefRange, "Mixed system", "A system has services of native kinds or literal fixtures (for the sre_zero profile), not both.")
	}
	for _, ss := range s.Services {
		if ss.Kind == "" {
			continue // a missing or non-string kind is the decoder's error
		}
		k := c.m.ServiceKind(ss.Kind)
		if k == nil {
			c.unknown(ss.KindRange, "service kind", ss.Kind, names(c.m.ServiceKinds))
			continue
		}
		c.checkEdits(ss.Config, k, nil)
		c.siteConfigInBand(ss, k)
		c.siteVary(ss, k)
		bound := map[string]bool{}
		for _, b := range ss.Roles {
			r := k.Role(b.Role)
			if r == nil {
				c.unknown(b.Range, "role", b.Role, names(k.Roles))
				continue
			}
			bound[b.Role] = true
			target := s.Service(b.Service)
			if target == nil {
				c.unknown(b.Range, "service", b.Service, names(s.Services))
				continue
			}
			if target.Kind != r.Kind {
				c.errRange(b.Range, "Wrong service kind", fmt.Sprintf("The role %q needs %s; %q is %s.", b.Role, article(r.Kind), b.Service, article(target.Kind)))
			}
		}
		for _, r := range k.Roles {
			if !bound[r.Name] {
				c.errRange(ss.DefRange, "Unbound role", fmt.Sprintf("The %s %q must bind its role %q to %s.", ss.Kind, ss.Name, r.Name, article(r.Kind)))
			}
		}
	}
}

// siteConfigInBand requires a system's configuration to be healthy: it is
// the baseline every incident starts from.
func (c *checker) siteConfigInBand(ss *SystemService, k *ServiceKind) {
	for _, e := range ss.Config {
		ck := k.ConfigKey(e.Name)
		if ck == nil || !ck.HasBand {
			continue
		}
		v, d := e.Eval(EditScope{Traffic: DefaultTraffic})
		if d != nil || !v.K.Numeric() {
			continue
		}
		if f := v.AsFloat(); f < ck.Low || f > ck.High {
			c.errRange(e.Range, "Site configuration outside the healthy band", fmt.Sprintf("%s.%s = %v lies outside its band [%g, %g]; a system's configuration is the healthy baseline.", ss.Name, e.Name, f, ck.Low, ck.High))
		}
	}
}

// siteVary checks a system service's vary entries: each names a numeric
// key or state of the kind, once, not pinned by set_config, with a range of the
// key's type inside its healthy band.
func (c *checker) siteVary(ss *SystemService, k *ServiceKind) {
	seen := map[string]bool{}
	for _, v := range ss.Vary {
		ck := k.ConfigKey(v.Name)
		if ck == nil {
			// A state drawn per site: capacity or data the site has (a
			// cache's working set), where no config key says it.
			if st := k.State(v.Name); st != nil {
				ck = &ConfigKey{Typed: st.Typed}
			}
		}
		if ck == nil {
			c.unknown(v.Range, "config key or state of "+k.Name, v.Name, append(names(k.Config), names(k.States)...))
			continue
		}
		if seen[v.Name] {
			c.errRange(v.Range, "Duplicate varied key", fmt.Sprintf("%s.%s varies twice.", ss.Name, v.Name))
			continue
		}
		seen[v.Name] = true
		for _, e := range ss.Config {
			if e.Name == v.Name {
				c.errRange(v.Range, "Key both pinned and varied", fmt.Sprintf("set_config pins %s.%s; a key either keeps one site value or varies. Remove one of the two.", ss.Name, v.Name))
			}
		}
		switch ck.Kind {
		case value.Int:
			if v.Low != math.Trunc(v.Low) || v.High != math.Trunc(v.High) {
				c.errRange(v.ValueRange, "Incorrect value type", fmt.Sprintf("%q is an int: its range needs whole numbers.", v.Name))
				continue
			}
		case value.Float:
		default:
			c.errRange(v.Range, "Key cannot vary", fmt.Sprintf("%q is a %s; only numeric keys vary.", v.Name, ck.Kind))
			continue
		}
		if ck.HasBand && (v.Low < ck.Low || v.High > ck.High) {
			c.errRange(v.ValueRange, "Site range outside the healthy band", fmt.Sprintf("%s.%s varies over [%g, %g], outside its band [%g, %g]; every site a system draws is a healthy baseline.", ss.Name, v.Name, v.Low, v.High, ck.Low, ck.High))
		}
	}
}

var effectNames = []string{"logs", "metrics", "config", "status", "traces", "dependencies", "changes", "restart", "update", "escalate", "resolve", "rollback", "operate"}
var argTypes = []string{"service", "config_key", "value", "text", "identifier", "ip_address"}

// isNameType reports whether a tool argument type is passed to an
// operation (an operation's args).
func isNameType(t string) bool { return t == "identifier" || t == "ip_address" }

var noiseEffects = []string{"spike", "jitter", "stale", "phantom_restart", "health_check_flap", "retry", "warning"}

func (c *checker) tool(t *Tool) {
	if t.Effect != "" && !contains(effectNames, t.Effect) {
		c.errRange(t.EffectRng, "Unknown effect", fmt.Sprintf("%q is not a tool effect; use one of %s.%s", t.Effect, strings.Join(effectNames, ", "), didYouMean(t.Effect, effectNames)))
	}
	dupes(c, "argument", t.Args)
	optional := false
	for _, a := range t.Args {
		if !contains(argTypes, a.Type) {
			c.errRange(a.TypeRng, "Unknown argument type", fmt.Sprintf("%q is not an argument type; use one of %s.%s", a.Type, strings.Join(argTypes, ", "), didYouMean(a.Type, argTypes)))
		}
		if optional && !a.Optional {
			c.errRange(a.NameRange, "Required argument after an optional one", "Arguments bind by position, so the optional ones come last.")
		}
		optional = optional || a.Optional
	}
	// The runtime acts on the service named first, and an update needs its
	// key and value; engine.Task.Validate checks the same.
	required := func(i int, typ string) bool {
		return i < len(t.Args) && t.Args[i].Type == typ && !t.Args[i].Optional
	}
	if t.Listing != "" && t.Effect != "logs" {
		c.errRange(t.ListingRng, "Listing on a tool that does not read logs", fmt.Sprintf("Only a tool with the effect \"logs\" shows a listing; this one's effect is %q.", t.Effect))
	} else if t.Listing != "" && !c.listingWritten(t.Listing) {
		c.errRange(t.ListingRng, "Unknown listing", fmt.Sprintf("No service kind writes rows of the listing %q.", t.Listing))
	}
	if t.Effect != "operate" && t.Operation != "" {
		c.errRange(t.OperationRng, "Operation on a tool that does not operate", fmt.Sprintf("Only a tool with the effect \"operate\" applies an operation; this one's effect is %q.", t.Effect))
	}
	switch t.Effect {
	case "", "escalate", "resolve":
	case "operate":
		if t.Operation == "" {
			c.errRange(t.EffectRng, "Missing operation", `A tool with the effect "operate" names the service kinds' operation it applies: add operation = "NAME".`)
		} else if ops := c.operationNames(); !contains(ops, t.Operation) {
			c.unknown(t.OperationRng, "operation of any service kind", t.Operation, ops)
		}
		if len(t.Args) == 0 || !required(0, "service") {
			c.errRange(t.EffectRng, "Signature does not fit the effect", `A tool with the effect "operate" takes a service, not optional: the service the operation is applied to, then the operation's args.`)
			break
		}
		want := c.operationArgs(t.Operation)
		var got []string
		bad := false
		for i, a := range t.Args[1:] {
			if !isNameType(a.Type) || a.Optional {
				bad = true
				c.errRange(a.TypeRng, "Signature does not fit the effect", `After the service, a tool with the effect "operate" takes only its operation's args, each an identifier or an ip_address, none optional.`)
			}
			if i < len(want) && a.Name != want[i] {
				c.errRange(a.NameRange, "Argument is not the operation's", fmt.Sprintf("The operation %q takes %s, in that order; this argument is %q.", t.Operation, strings.Join(want, ", "), a.Name))
			}
			got = append(got, a.Name)
		}
		if !bad && len(got) != len(want) {
			c.errRange(t.EffectRng, "Signature does not fit the effect", fmt.Sprintf("The operation %q takes %d args (%s); the tool passes it %d.", t.Operation, len(want), strings.Join(want, ", "), len(got)))
		}
	case "changes":
		if len(t.Args) != 1 || t.Args[0].Type != "service" || !t.Args[0].Optional {
			c.errRange(t.EffectRng, "Signature does not fit the effect", `A tool with the effect "changes" takes one optional service: the history of that service, or of every service.`)
		}
	case "update":
		if !required(0, "service") || !required(1, "config_key") || !required(2, "value") {
			c.errRange(t.EffectRng, "Signature does not fit the effect", `A tool with the effect "update" takes a service, a config_key and a value, in that order and none optional.`)
		}
	default:
		for _, a := range t.Args {
			if isNameType(a.Type) {
				c.errRange(a.TypeRng, "Argument type does not fit the effect", fmt.Sprintf("Only a tool with the effect \"operate\" takes an %s: it names what the operation acts on.", a.Type))
			}
		}
		if contains(effectNames, t.Effect) && !required(0, "service") {
			c.errRange(t.EffectRng, "Signature does not fit the effect", fmt.Sprintf("A tool with the effect %q acts on a service: its first argument must be a service, not optional.", t.Effect))
		}
	}
}

// operationNames lists every operation some service kind declares, sorted.
func (c *checker) operationNames() []string {
	var out []string
	for _, k := range c.m.ServiceKinds {
		for _, op := range k.Operations {
			if !contains(out, op.Name) {
				out = append(out, op.Name)
			}
		}
	}
	sort.Strings(out)
	return out
}

// operationArgs is the args of the named operation, as the first kind
// declaring it lists them (operationsAgree checks the others).
func (c *checker) operationArgs(op string) []string {
	for _, k := range c.m.ServiceKinds {
		if o := k.Operation(op); o != nil {
			return o.Args
		}
	}
	return nil
}

// toolApplies reports whether some tool applies the named operation.
func (c *checker) toolApplies(op string) bool {
	for _, t := range c.m.Tools {
		if t.Effect == "operate" && t.Operation == op {
			return true
		}
	}
	return false
}

func (c *checker) rubric(r *Rubric) {
	if r.Profile == ProfileSreZero && (len(r.Weights)+len(r.Penalties)+len(r.Components)+len(r.Mechanisms) > 0) {
		c.errRange(r.DefRange, "Weights under sre_zero", "The sre_zero profile grades exactly as the reference does: its weights, penalties and matching are fixed, so the rubric declares none.")
	}
	dupes(c, "component", r.Components)
	dupes(c, "mechanism", r.Mechanisms)
	for _, comp := range r.Components {
		if c.m.ServiceKind(comp.Name) == nil {
			c.unknown(comp.NameRange, "service kind", comp.Name, names(c.m.ServiceKinds))
		}
	}
	// A mechanism phrase may name a part ("cache host"): the grader matches
	// mechanisms first and masks their words before looking for components.
	// A phrase that is only a component phrase would blame nothing, though.
	for _, mech := range r.Mechanisms {
		for _, p := range mech.Phrases {
			np := NormalizePhrase(p)
			for _, comp := range r.Components {
				for _, cp := range comp.Phrases {
					if np == NormalizePhrase(cp) {
						c.errRange(mech.NameRange, "Ambiguous phrase", fmt.Sprintf("The mechanism phrase %q is also a phrase of component %s; a diagnosis naming it would not name %s.", p, comp.Name, comp.Name))
					}
				}
			}
		}
	}
}

// NormalizePhrase case-folds a phrase with value.Fold, the fold the
// engine applies to agent text, and turns punctuation runs into single
// spaces.
func NormalizePhrase(s string) string {
	// Most phrases are ASCII, and many already normal (compiling reads
	// every vocabulary phrase once per site variant): those take no rune
	// decoding and, when normal, no allocation.
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return normalizePhraseRunes(s)
		}
	}
	if isNormalASCII(s) {
		return s
	}
	b := make([]byte, 0, len(s))
	space := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' {
			b = append(b, c)
			space = false
		} else if !space {
			b = append(b, ' ')
			space = true
		}
	}
	if n := len(b); n > 0 && b[n-1] == ' ' {
		b = b[:n-1]
	}
	return string(b)
}

// isNormalASCII reports whether the ASCII phrase s is its own
// normal form: lower-case letters and digits in words one space apart.
func isNormalASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == ' ' {
			if i == 0 || i == len(s)-1 || s[i-1] == ' ' {
				return false
			}
		} else if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// normalizePhraseRunes is NormalizePhrase for any text.
func normalizePhraseRunes(s string) string {
	var b strings.Builder
	space := true
	for _, r := range s {
		r = value.FoldRune(r)
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r >= 0x80 {
			b.WriteRune(r)
			space = false
		} else if !space {
			b.WriteByte(' ')
			space = true
		}
	}
	return strings.TrimSpace(b.String())
}

func (c *checker) appliesTo(list []string, ranges []Range, r Range) {
	for i, k := range list {
		if c.m.ServiceKind(k) == nil {
			c.unknown(elemRange(ranges, i, r), "service kind", k, names(c.m.ServiceKinds))
		}
	}
}

// elemRange is ranges[i], or r when the list has no ranges.
func elemRange(ranges []Range, i int, r Range) Range {
	if i < len(ranges) {
		return ranges[i]
	}
	return r
}

func (c *checker) faultKind(f *FaultKind) {
	c.appliesTo(f.AppliesTo, f.AppliesRanges, f.AppliesRange)
	dupes(c, "parameter", f.Params)
	for i, other := range f.ConflictsWith {
		if c.m.FaultKind(other) == nil {
			c.unknown(elemRange(f.ConflictsRanges, i, f.DefRange), "fault kind", other, names(c.m.FaultKinds))
		}
	}
	var allMechs []string
	for _, r := range c.m.Rubrics {
		for _, mech := range r.Mechanisms {
			allMechs = append(allMechs, mech.Name)
		}
	}
	if f.Mechanism != "" && !slices.Contains(allMechs, f.Mechanism) {
		c.unknown(f.MechRange, "mechanism", f.Mechanism, allMechs)
	}
	for i, m := range f.AlsoMechanisms {
		switch {
		case !slices.Contains(allMechs, m):
			c.unknown(elemRange(f.AlsoRanges, i, f.DefRange), "mechanism", m, allMechs)
		case m == f.Mechanism:
			c.errRange(elemRange(f.AlsoRanges, i, f.DefRange), "Mechanism named twice", fmt.Sprintf("%q is the fault kind's own mechanism already.", m))
		}
	}
	for i, m := range f.SymptomMechanisms {
		switch {
		case !slices.Contains(allMechs, m):
			c.unknown(elemRange(f.SymptomRanges, i, f.DefRange), "mechanism", m, allMechs)
		case m == f.Mechanism || slices.Contains(f.AlsoMechanisms, m):
			c.errRange(elemRange(f.SymptomRanges, i, f.DefRange), "Mechanism named twice", fmt.Sprintf("%q already diagnoses the fault kind: a symptom mechanism is one a diagnosis may only mention.", m))
		}
	}
	params := types.Map{}
	defaults := map[string]value.Value{}
	for _, p := range f.Params {
		params[p.Name] = typeOfKind(p.Kind)
		defaults[p.Name] = p.Default
		for _, v := range p.Domain {
			if v.K != p.Kind {
				c.errRange(p.DefRange, "Invalid domain", fmt.Sprintf("The domain of %q holds %s; the parameter is %s.", p.Name, article(v.K.String()), article(p.Kind.String())))
			}
		}
	}
	f.FixedWhenByKind = map[string]*Expr{}
	for _, kname := range f.AppliesTo {
		k := c.m.ServiceKind(kname)
		if k == nil || k.Broken {
			continue
		}
		if f.Link != "" {
			switch role := k.Role(f.Link); {
			case role == nil:
				c.unknown(f.LinkRange, "role of "+kname, f.Link, names(k.Roles))
			case role.Caller:
				c.errRange(f.LinkRange, "Link from a caller", fmt.Sprintf("The role %q of %q names a service that calls it; a link fault runs from its target, the client, to a service the target calls.", f.Link, kname))
			}
		}
		c.checkEdits(f.Edits, k, defaults)
		for _, r := range f.Remedies {
			if r.Effect == "rollback" && (k.State(DeployState) == nil || len(k.Rollback) == 0) {
				c.errRange(r.Range, "Nothing to roll back", fmt.Sprintf("The service kind %q has no deployed version to roll back: it needs a string state %q and a rollback block.", kname, DeployState))
			}
			if r.Effect == "operate" && r.Operation != "" {
				on := k
				if r.Role != "" {
					role := k.Role(r.Role)
					if role == nil {
						c.unknown(r.RoleRange, "role of "+kname, r.Role, names(k.Roles))
						continue
					}
					if on = c.m.ServiceKind(role.Kind); on == nil {
						continue
					}
				}
				if o := on.Operation(r.Operation); o == nil {
					c.unknown(r.OperationRange, "operation of "+on.Name, r.Operation, names(on.Operations))
				} else if !c.toolApplies(r.Operation) {
					c.errRange(r.OperationRange, "No tool applies the operation", fmt.Sprintf("No tool with the effect \"operate\" applies %q, so no agent could perform this remedy.", r.Operation))
				} else if len(r.Args) != len(o.Args) {
					rng := r.ArgsRange
					c.errRange(rng, "Remedy arguments do not fit the operation", fmt.Sprintf("The operation %q takes %d args (%s); this remedy gives %d.", r.Operation, len(o.Args), strings.Join(o.Args, ", "), len(r.Args)))
				}
			}
			if r.Effect != "update_config" || r.Key == "" {
				continue
			}
			ck := k.ConfigKey(r.Key)
			if ck == nil {
				c.unknown(r.KeyRange, "config key of "+kname, r.Key, names(k.Config))
				continue
			}
			if r.Value.K != value.Null {
				if _, ok := convertKind(r.Value, ck.Kind); !ok {
					c.errRange(r.Range, "Incorrect value type", fmt.Sprintf("The key %q is %s; the remedy's value is %s.", r.Key, article(ck.Kind.String()), article(r.Value.K.String())))
				}
			}
		}
		if f.FixedWhen != nil {
			env := c.m.KindEnv(k)
			env["param"] = params
			x := *f.FixedWhen
			before := len(c.diags)
			if c.checkExpr(&x, newExprScope(env), value.Bool, "fixed_when condition") {
				f.FixedWhenByKind[kname] = &x
			}
			if len(f.AppliesTo) > 1 {
				// The same source is checked once per kind; say which.
				for _, d := range c.diags[before:] {
					d.Detail += fmt.Sprintf(" (checked against the service kind %q)", kname)
				}
			}
		}
	}
}

// checkEdits evaluates set_config/set_state with the default parameters so
// that a misspelt key or a wrong type is reported on the fault kind itself.
func (c *checker) checkEdits(edits []Edit, k *ServiceKind, params map[string]value.Value) {
	for _, e := range edits {
		var kind value.Kind
		if e.State {
			s := k.State(e.Name)
			if s == nil {
				c.unknown(e.Range, "state of "+k.Name, e.Name, names(k.States))
				continue
			}
			kind = s.Kind
		} else {
			ck := k.ConfigKey(e.Name)
			if ck == nil {
				c.unknown(e.Range, "config key of "+k.Name, e.Name, names(k.Config))
				continue
			}
			kind = ck.Kind
		}
		v, d := e.Eval(EditScope{Params: params, Config: k.Defaults(), State: k.Initials(), Traffic: DefaultTraffic})
		if d != nil {
			c.diags = append(c.diags, d)
			if c.broken != nil {
				c.broken.Broken = true
			}
			continue
		}
		if _, ok := convertKind(v, kind); !ok {
			c.errRange(e.Range, "Incorrect value type", fmt.Sprintf("%q is %s; this value is %s.", e.Name, article(kind.String()), article(v.K.String())))
		}
	}
}

func (c *checker) distractorKind(d *DistractorKind) {
	c.appliesTo(d.AppliesTo, d.AppliesRanges, d.AppliesRange)
	for _, kname := range d.AppliesTo {
		if k := c.m.ServiceKind(kname); k != nil && !k.Broken {
			c.checkEdits(d.Edits, k, nil)
		}
	}
}

func (c *checker) noisePattern(n *NoisePattern) {
	if n.Effect != "" && !contains(noiseEffects, n.Effect) {
		c.errRange(n.EffectRng, "Unknown noise effect", fmt.Sprintf("%q is not a noise effect; use one of %s.%s", n.Effect, strings.Join(noiseEffects, ", "), didYouMean(n.Effect, noiseEffects)))
	}
	if n.Rate < 0 || n.Rate > 1 {
		c.errRange(n.RateRng, "Invalid rate", "A noise rate is a chance between 0 and 1.")
	}
}

// IncidentEnv is the scope of resolved_when.
func (m *Module) IncidentEnv(s *System) types.Map {
	env := types.Map{"healthy": types.Bool, "fixed": types.Bool}
	for _, ss := range s.Services {
		k := m.ServiceKind(ss.Kind)
		if k == nil {
			continue
		}
		config, state, q := kindScope(k)
		q["config"] = config
		q["state"] = state
		q["status"] = types.String
		env[ss.Name] = q
	}
	return env
}

func (c *checker) incident(in *Incident) {
	m := c.m
	sys := m.System(in.System)
	if in.System != "" && sys == nil {
		c.unknown(in.SystemRange, "system", in.System, names(m.Systems))
	}
	if sys != nil && sys.Broken {
		in.Broken = true
	}
	if r := m.Rubric(in.Rubric); r == nil {
		c.unknown(in.RubricRange, "rubric", in.Rubric, names(m.Rubrics))
	}
	profile := m.Profile(in)
	if profile != "" {
		c.checkRefIncident(in, sys, profile)
	}
	if profile == ProfileSreZero {
		return
	}
	if len(in.Faults) == 0 && profile == ProfileNative {
		c.errRange(in.DefRange, "Missing fault", "An incident needs at least one fault block.")
	}
	targetKind := func(target string, r Range) *ServiceKind {
		if sys == nil || target == "" {
			// An empty target is the decoder's error already.
			return nil
		}
		ss := sys.Service(target)
		if ss == nil {
			c.unknown(r, "service", target, names(sys.Services))
			return nil
		}
		return m.ServiceKind(ss.Kind)
	}
	for i, fu := range in.Faults {
		fk := m.FaultKind(fu.Name)
		if fk == nil {
			c.unknown(fu.NameRange, "fault kind", fu.Name, names(m.FaultKinds))
			continue
		}
		if fk.Broken {
			in.Broken = true
		}
		k := targetKind(fu.Target, fu.TRange)
		if k != nil && !contains(fk.AppliesTo, k.Name) {
			c.errRange(fu.TRange, "Fault does not apply", fmt.Sprintf("The fault kind %q applies to %s, not to %q (%s).", fu.Name, strings.Join(fk.AppliesTo, ", "), fu.Target, article(k.Name)))
		}
		if k != nil && fu.Peer != "" {
			c.checkLinkTarget(fu, fk, sys)
		}
		for name, v := range fu.Params {
			r, ok := fu.ParamRanges[name]
			if !ok {
				r = fu.DefRange
			}
			p := fk.Param(name)
			if p == nil {
				c.unknown(r, "parameter of "+fu.Name, name, names(fk.Params))
				continue
			}
			cv, ok := convertKind(v, p.Kind)
			if !ok {
				c.errRange(r, "Incorrect parameter type", fmt.Sprintf("The parameter %q is %s; %s is %s.", name, article(p.Kind.String()), v, article(v.K.String())))
				continue
			}
			fu.Params[name] = cv
			if lo, hi, ok := domainBounds(p); ok && (cv.AsFloat() < lo || cv.AsFloat() > hi) {
				c.errRange(r, "Parameter outside its domain", fmt.Sprintf("%s is outside the domain of %q of %s, %s..%s.", cv, name, fu.Name, boundText(p.Kind, lo), boundText(p.Kind, hi)))
			}
		}
		for _, p := range fk.Params {
			if _, ok := fu.Params[p.Name]; !ok {
				fu.Params[p.Name] = p.Default
			}
		}
		for _, other := range in.Faults[:i] {
			if other.Target == fu.Target && (other.Name == fu.Name || contains(fk.ConflictsWith, other.Name)) {
				c.errRange(fu.NameRange, "Conflicting faults", fmt.Sprintf("%q conflicts with %q on %q.", fu.Name, other.Name, fu.Target))
			}
		}
	}
	for _, du := range in.Distractors {
		dk := m.DistractorKind(du.Name)
		if dk == nil {
			c.unknown(du.NameRange, "distractor kind", du.Name, names(m.DistractorKinds))
			continue
		}
		for _, fu := range in.Faults {
			if fu.Target == du.Target && du.Target != "" {
				c.errRange(du.TRange, "Distractor on a faulty service", fmt.Sprintf("%q has a fault; a distractor must sit on a service that is not at fault.", du.Target))
			}
		}
		k := targetKind(du.Target, du.TRange)
		if k != nil && !contains(dk.AppliesTo, k.Name) {
			c.errRange(du.TRange, "Distractor does not apply", fmt.Sprintf("The distractor kind %q applies to %s, not to %s.", du.Name, strings.Join(dk.AppliesTo, ", "), article(k.Name)))
		}
	}
	for _, nu := range in.Noise {
		if m.NoisePattern(nu.Name) == nil {
			c.unknown(nu.NameRange, "noise pattern", nu.Name, names(m.NoisePatterns))
		}
		if nu.Target != "" {
			targetKind(nu.Target, nu.TRange)
		}
	}
	c.incidentChanges(in, sys)
	if in.Resolved != nil && sys != nil {
		c.checkExpr(in.Resolved, newExprScope(m.IncidentEnv(sys)), value.Bool, "resolved_when condition")
	}
	in.ExpertCalls = make([]*action.Call, len(in.Expert))
	for i, act := range in.Expert {
		call, d := parseAction(strings.ReplaceAll(act, SiteValue, sitePlaceholder))
		if d == nil {
			in.ExpertCalls[i] = &call
		}
		if d != nil {
			r := in.ExpertRange[i]
			if d.Subject != nil {
				r = c.actionRange(r, act, *d.Subject)
			}
			c.errRange(r, "Invalid expert action", d.Detail)
			continue
		}
		var tool *Tool
		for _, t := range m.Tools {
			if t.Name == call.Tool {
				tool = t
			}
		}
		if tool == nil {
			c.unknown(c.actionRange(in.ExpertRange[i], act, call.ToolRange), "tool", call.Tool, names(m.Tools))
			continue
		}
		c.expertArgs(in.ExpertRange[i], act, &call, tool, sys)
	}
}

// SiteValue, written as the value of an expert's config write
// ("update_config(database, pool_size, $before)"), stands for the site's
// value of that key before the incident's faults: the value the fault's
// change replaced, which the change history shows. The compiler resolves it
// per site variant, so the expert restores what each drawn site had.
const SiteValue = "$before"

// sitePlaceholder is what SiteValue parses as: a bare word of the same
// length, so every range of the parsed action stays where it was written.
const sitePlaceholder = "_before"

// IsSiteValue reports whether a parsed expert argument is SiteValue.
func IsSiteValue(a action.Arg) bool {
	return a.Bare && a.Value.K == value.String && a.Value.S == sitePlaceholder
}

// expertArgs checks an expert action's arguments against its tool and the
// incident's system, as the runtime will bind them, so a typo in a service
// or key gets the same located did-you-mean as anywhere else in the file.
func (c *checker) expertArgs(str Range, act string, call *action.Call, tool *Tool, sys *System) {
	required := 0
	var sig []string
	for _, a := range tool.Args {
		if !a.Optional {
			required++
		}
		sig = append(sig, a.Name)
	}
	if d := call.Order(sig); d != nil {
		c.errRange(c.actionRange(str, act, *d.Subject), "Invalid expert action", d.Detail)
		return
	}
	if len(call.Args) < required || len(call.Args) > len(tool.Args) {
		want := fmt.Sprintf("%d argument", required)
		if required != len(tool.Args) {
			want = fmt.Sprintf("%d or %d argument", required, len(tool.Args))
		}
		if len(tool.Args) != 1 {
			want += "s"
		}
		c.errRange(c.actionRange(str, act, call.Range), "Invalid expert action",
			fmt.Sprintf("%s takes %s (%s); this call has %d.", tool.Name, want, strings.Join(sig, ", "), len(call.Args)))
		return
	}
	if sys == nil || len(sys.Fixtures) > 0 {
		return
	}
	var kind *ServiceKind
	var key *ConfigKey
	for j, arg := range call.Args {
		r := c.actionRange(str, act, arg.Range)
		switch tool.Args[j].Type {
		case "service":
			ss := (*SystemService)(nil)
			if arg.Value.K == value.String {
				ss = sys.Service(arg.Value.S)
			}
			if ss == nil {
				c.unknown(r, "service of the system "+sys.Name, arg.Value.String(), names(sys.Services))
				return
			}
			kind = c.m.ServiceKind(ss.Kind)
		case "config_key":
			if kind == nil {
				return
			}
			for _, k := range kind.Config {
				if arg.Value.K == value.String && k.Name == arg.Value.S {
					key = k
				}
			}
			if key == nil {
				c.unknown(r, "config key of "+kind.Name, arg.Value.String(), names(kind.Config))
				return
			}
		case "value":
			if IsSiteValue(arg) {
				if tool.Effect != "update" {
					c.errRange(r, "Invalid expert action", fmt.Sprintf("%s stands for the site's value of the key a config write sets; %s writes no config.", SiteValue, tool.Name))
				}
				continue
			}
			if key != nil && arg.Value.K != key.Kind {
				c.errRange(r, "Incorrect value type", fmt.Sprintf("%s is %s; %s is %s.", key.Name, article(key.Kind.String()), arg.Value, article(arg.Value.K.String())))
			}
		}
	}
}

// actionRange maps a range inside an expert action to the file when the
// HCL string holding the action is its source verbatim (no escapes);
// otherwise it keeps the whole string.
func (c *checker) actionRange(str Range, act string, sub action.Range) Range {
	f := c.files[str.Filename]
	start, end := str.Start.Byte, str.End.Byte
	if f == nil || start < 0 || end > len(f.Src) || end-start != len(act)+2 || string(f.Src[start+1:end-1]) != act {
		return str
	}
	if sub.Start.Byte < 0 || sub.Start.Byte > sub.End.Byte || sub.End.Byte > len(act) {
		return str
	}
	return rangeOf(f, start+1+sub.Start.Byte, start+1+sub.End.Byte)
}

// domainBounds is the numeric range a parameter's domain spans: the values
// mutation draws are its samples, and an author may pick any value between
// them, but not outside (a negative consumer count would render as
// "completing -34/s"). Strings and bools have no range.
func domainBounds(p *Param) (lo, hi float64, ok bool) {
	if p.Kind != value.Int && p.Kind != value.Float {
		return 0, 0, false
	}
	for i, v := range p.Domain {
		x := v.AsFloat()
		if i == 0 || x < lo {
			lo = x
		}
		if i == 0 || x > hi {
			hi = x
		}
	}
	return lo, hi, len(p.Domain) > 0
}

func boundText(k value.Kind, x float64) string {
	if k == value.Int {
		return value.OfInt(int64(x)).String()
	}
	return value.OfFloat(x).String()
}

// benignChange checks a catalog entry against every kind it applies to:
// the key exists, and every value has the key's type and lies in its band
// (a benign change keeps the site healthy).
func (c *checker) benignChange(bc *BenignChange) {
	// An empty list is reported unless decoding it failed already.
	if len(bc.Values) == 0 && !bc.Broken {
		c.errRange(bc.ValuesRange, "Missing values", "A benign change needs at least one value.")
	}
	if len(bc.Actors) == 0 && !bc.Broken {
		c.errRange(bc.ActorsRange, "Missing actors", "A benign change needs at least one actor.")
	}
	c.appliesTo(bc.AppliesTo, bc.AppliesRanges, bc.AppliesRange)
	for i, f := range bc.ConflictsWith {
		if c.m.FaultKind(f) == nil {
			c.unknown(elemRange(bc.ConflictsRanges, i, bc.DefRange), "fault kind", f, names(c.m.FaultKinds))
		}
	}
	for _, a := range bc.Actors {
		if strings.TrimSpace(a) == "" {
			c.errRange(bc.ActorsRange, "Invalid value", "Each actor must name someone.")
		}
	}
	for _, kn := range bc.AppliesTo {
		k := c.m.ServiceKind(kn)
		if k == nil || bc.Key == "" {
			continue
		}
		ck := k.ConfigKey(bc.Key)
		if ck == nil {
			ck = k.deployKey(bc.Key)
		}
		if ck == nil {
			c.unknown(bc.KeyRange, "config key of "+k.Name, bc.Key, names(k.Config))
			continue
		}
		for i, v := range bc.Values {
			if msg := c.changeValue(ck, v, &bc.Values[i]); msg != "" {
				c.errRange(bc.ValuesRange, "Invalid benign value", fmt.Sprintf("%s of %s: %s", v, k.Name, msg))
			}
		}
	}
}

// changeValue converts v to the key's type into *out and reports what is
// wrong with it as a changed value ("" when nothing is): a type mismatch,
// or a number outside the key's healthy band.
func (c *checker) changeValue(ck *ConfigKey, v value.Value, out *value.Value) string {
	cv, ok := convertKind(v, ck.Kind)
	if !ok {
		return fmt.Sprintf("%q is %s; this value is %s.", ck.Name, article(ck.Kind.String()), article(v.K.String()))
	}
	if ck.HasBand && cv.K.Numeric() && (cv.AsFloat() < ck.Low || cv.AsFloat() > ck.High) {
		return fmt.Sprintf("it lies outside the healthy band of %q, [%g, %g].", ck.Name, ck.Low, ck.High)
	}
	*out = cv
	return ""
}

// incidentChanges checks an incident's change blocks: a fault's change
// names a config key the fault edits, and a further change sets a healthy
// value of a key no fault of the incident edits or remedies.
func (c *checker) incidentChanges(in *Incident, sys *System) {
	m := c.m
	// faultKeys are the "service.key" pairs the faults edit or remedy.
	faultKeys := map[string]string{}
	for _, fu := range in.Faults {
		fk := m.FaultKind(fu.Name)
		if fk == nil {
			continue
		}
		edited := fk.ChangedKeys(m)
		for _, e := range fk.Edits {
			if !e.State {
				faultKeys[fu.Target+"."+e.Name] = fu.Name
			}
		}
		for _, r := range fk.Remedies {
			if r.Key != "" {
				faultKeys[fu.Target+"."+r.Key] = fu.Name
			}
		}
		ch := fu.Change
		if ch == nil {
			for _, r := range fk.Remedies {
				if r.Effect == "rollback" {
					c.errRange(fu.NameRange, "Rollback without a deploy", fmt.Sprintf("The fault kind %q is fixed by a rollback, which restores the version before the fault's deploy; give the fault a change block so the history holds that deploy.", fu.Name))
					break
				}
			}
			continue
		}
		switch {
		case len(edited) == 0:
			c.errRange(ch.DefRange, "Fault from no change", fmt.Sprintf("The fault kind %q edits no config key or audited state and deploys no version, so no change introduced it: crashes, leaks, traffic and expiry come from no change. Remove the change block.", fu.Name))
		case ch.Key != "" && !contains(edited, ch.Key):
			c.errRange(ch.KeyRange, "Change on a key the fault does not touch", fmt.Sprintf("The fault kind %q edits %s, not %q.", fu.Name, strings.Join(edited, ", "), ch.Key))
		case ch.Key == "" && len(edited) > 1:
			c.errRange(ch.DefRange, "Ambiguous change", fmt.Sprintf("The fault kind %q edits %s; say which key the change set with key = \"...\".", fu.Name, strings.Join(edited, ", ")))
		}
	}
	seen := map[string]bool{}
	for _, ch := range in.Changes {
		if sys == nil || ch.Service == "" || ch.Key == "" {
			continue
		}
		ss := sys.Service(ch.Service)
		if ss == nil {
			c.unknown(ch.ServiceRange, "service", ch.Service, names(sys.Services))
			continue
		}
		k := m.ServiceKind(ss.Kind)
		if k == nil {
			continue
		}
		ck := k.ConfigKey(ch.Key)
		if ck == nil {
			ck = k.deployKey(ch.Key)
		}
		if ck == nil {
			c.unknown(ch.KeyRange, "config key of "+k.Name, ch.Key, names(k.Config))
			continue
		}
		pair := ch.Service + "." + ch.Key
		if fault, ok := faultKeys[pair]; ok {
			c.errRange(ch.KeyRange, "Change on a fault's key", fmt.Sprintf("%s is the key of the fault %q; mark the fault with a change block instead, so the history derives it from the fault.", pair, fault))
			continue
		}
		if seen[pair] {
			c.errRange(ch.KeyRange, "Duplicate change", fmt.Sprintf("%s is already changed by an earlier change block of this incident.", pair))
			continue
		}
		seen[pair] = true
		if ch.Value.K != value.Null {
			if msg := c.changeValue(ck, ch.Value, &ch.Value); msg != "" {
				c.errRange(ch.ValueRange, "Invalid change value", msg)
			}
		}
	}
}

// checkLinkTarget checks a fault target written "CLIENT -> SERVER": the
// fault kind must be on a link, and SERVER must be the service the
// client's system binds to the kind's link role.
func (c *checker) checkLinkTarget(fu *FaultUse, fk *FaultKind, sys *System) {
	if fk.Link == "" {
		c.errRange(fu.TRange, "Not a link fault", fmt.Sprintf("The fault kind %q is on one service, not on the path between two; write its target as one service (%q).", fu.Name, fu.Target))
		return
	}
	ss := sys.Service(fu.Target)
	if ss == nil {
		return
	}
	bound := ""
	for _, b := range ss.Roles {
		if b.Role == fk.Link {
			bound = b.Service
		}
	}
	if bound != fu.Peer {
		if sys.Service(fu.Peer) == nil {
			c.unknown(fu.TRange, "service", fu.Peer, names(sys.Services))
			return
		}
		c.errRange(fu.TRange, "Wrong link", fmt.Sprintf("%q runs on the path from %q to the service its %q role is bound to, %q, not to %q.", fu.Name, fu.Target, fk.Link, bound, fu.Peer))
	}
}

// listingWritten reports whether some service kind writes rows of the
// named listing.
func (c *checker) listingWritten(name string) bool {
	for _, k := range c.m.ServiceKinds {
		for _, l := range k.Logs {
			if l.Listing == name {
				return true
			}
		}
	}
	return false
}
