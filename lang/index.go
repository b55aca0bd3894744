package lang

import (
	"fmt"
	"sort"
	"strings"

	"github.com/expr-lang/expr/ast"

	"github.com/srezc/srezc/action"
	"github.com/srezc/srezc/value"
)

// The index lists every place a declared name is defined or used, with
// what kind of thing it names, read from the analysed module: a fault
// kind and an incident may share a name and are different symbols, and a
// service is a service of one system. Uses come from where the decoder
// and the checker resolve names (labels, attributes that name
// declarations, set_config keys, expert actions, the names an expression
// reads in its scope), never from searching the text, so finding
// references and renaming follow the language's own resolution. A name is
// indexed only where its bytes in the file are the name itself (an
// expression or action string written with escapes is skipped).

// SymbolKind is what kind of thing a symbol is.
type SymbolKind uint8

const (
	SymServiceKind SymbolKind = iota + 1
	SymSystem
	SymService // Scope: its system
	SymFaultKind
	SymDistractorKind
	SymNoisePattern
	SymTool
	SymRubric
	SymMechanism // a rubric's mechanism term; names are module-wide
	SymComponent // a rubric's component term
	SymIncident
	SymSuite
	SymMutation
	SymSuiteSpec
	SymConfigKey // Scope: its service kind
	SymState     // Scope: its service kind
	SymQuantity  // a derived quantity or metric; Scope: its service kind
	SymRole      // Scope: its service kind
	SymParam     // Scope: its fault kind
)

var symbolKindNames = [...]string{"", "service kind", "system", "service", "fault kind", "distractor kind", "noise pattern",
	"tool", "rubric", "mechanism", "component", "incident", "suite", "mutation", "suite spec",
	"config key", "state", "derived quantity or metric", "role", "parameter"}

func (k SymbolKind) String() string {
	if int(k) < len(symbolKindNames) {
		return symbolKindNames[k]
	}
	return fmt.Sprintf("SymbolKind(%d)", k)
}

// Symbol is a declared thing: its kind, the declaration it belongs to
// (Scope, "" for a top-level declaration) and its name.
type Symbol struct {
	Kind  SymbolKind
	Scope string
	Name  string
}

func (s Symbol) String() string {
	if s.Scope != "" {
		return fmt.Sprintf("%s %s.%s", s.Kind, s.Scope, s.Name)
	}
	return fmt.Sprintf("%s %s", s.Kind, s.Name)
}

// Occurrence is one place a symbol's name is written: its definition
// (Def) or a use. Range covers the name's bytes, quotes excluded.
type Occurrence struct {
	Symbol
	Range Range
	Def   bool
	// Stdlib marks occurrences in the embedded standard library.
	Stdlib bool
}

// Index is a module's symbols and where they occur.
type Index struct {
	occs  []Occurrence // sorted by file, start, kind
	files map[string]*File
}

// NewIndex indexes an analysed module.
func NewIndex(m *Module) *Index {
	b := &indexer{m: m, ix: &Index{files: map[string]*File{}}}
	for _, f := range m.Files {
		b.ix.files[f.Name] = f
	}
	b.build()
	occs := b.ix.occs
	sort.SliceStable(occs, func(i, j int) bool {
		a, c := occs[i], occs[j]
		if a.Range.Filename != c.Range.Filename {
			return a.Range.Filename < c.Range.Filename
		}
		if a.Range.Start.Byte != c.Range.Start.Byte {
			return a.Range.Start.Byte < c.Range.Start.Byte
		}
		return a.Kind < c.Kind
	})
	// The same use reached twice (a fault kind's edit checked per kind it
	// applies to, with the same kind twice) is one occurrence.
	out := occs[:0]
	for i, o := range occs {
		if i > 0 && o == occs[i-1] {
			continue
		}
		out = append(out, o)
	}
	b.ix.occs = out
	return b.ix
}

// At lists the occurrences whose name spans the byte offset off of a file
// (the end included, so a cursor just after a name finds it). One name may
// stand for several symbols: config.pool_size in the fixed_when of a fault
// kind that applies to two service kinds is both kinds' key.
func (ix *Index) At(file string, off int) []Occurrence {
	i := sort.Search(len(ix.occs), func(i int) bool {
		o := ix.occs[i]
		return o.Range.Filename > file || o.Range.Filename == file && o.Range.End.Byte >= off
	})
	var out []Occurrence
	for ; i < len(ix.occs); i++ {
		o := ix.occs[i]
		if o.Range.Filename != file || o.Range.Start.Byte > off {
			break
		}
		if o.Range.End.Byte >= off {
			out = append(out, o)
		}
	}
	return out
}

// Definitions are where s is declared (more than one only when it is
// declared twice, which is an error).
func (ix *Index) Definitions(s Symbol) []Occurrence {
	var out []Occurrence
	for _, o := range ix.occs {
		if o.Def && o.Symbol == s {
			out = append(out, o)
		}
	}
	return out
}

// References are the uses of s, and its definitions when withDef.
func (ix *Index) References(s Symbol, withDef bool) []Occurrence {
	var out []Occurrence
	for _, o := range ix.occs {
		if o.Symbol == s && (withDef || !o.Def) {
			out = append(out, o)
		}
	}
	return out
}

// Search lists the definitions whose name contains query, ignoring case
// (every definition for ""), sorted by name, kind and scope.
func (ix *Index) Search(query string) []Occurrence {
	q := strings.ToLower(query)
	var out []Occurrence
	for _, o := range ix.occs {
		if o.Def && strings.Contains(strings.ToLower(o.Name), q) {
			out = append(out, o)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Name != b.Name {
			return a.Name < b.Name
		}
		if a.Kind != b.Kind {
			return a.Kind < b.Kind
		}
		return a.Scope < b.Scope
	})
	return out
}

// Rename lists the edits that rename the one symbol at a file's byte
// offset to newName: every occurrence of that symbol and nothing else.
// It refuses a name that is not valid, a symbol of the stdlib (read-only
// to an author), a place that names no symbol or several, and a new name
// that its kind already declares in the same scope.
func (ix *Index) Rename(file string, off int, newName string) (Symbol, []Occurrence, error) {
	at := ix.At(file, off)
	if len(at) == 0 {
		return Symbol{}, nil, fmt.Errorf("no declared name here")
	}
	s := at[0].Symbol
	for _, o := range at[1:] {
		if o.Symbol != s {
			return Symbol{}, nil, fmt.Errorf("this name stands for several symbols (%s and %s); rename it where it is declared", s, o.Symbol)
		}
	}
	if !validName(newName) {
		return s, nil, fmt.Errorf("%q is not a valid name: use letters, digits and underscores, starting with a letter", newName)
	}
	defs := ix.Definitions(s)
	if len(defs) == 0 {
		return s, nil, fmt.Errorf("the %s is not declared", s)
	}
	for _, d := range defs {
		if d.Stdlib {
			return s, nil, fmt.Errorf("the %s is declared in the standard library, which is read-only", s)
		}
	}
	refs := ix.References(s, true)
	for _, o := range refs {
		if o.Stdlib {
			return s, nil, fmt.Errorf("the standard library uses the %s, and it is read-only", s)
		}
	}
	if newName == s.Name {
		return s, nil, nil
	}
	if len(ix.Definitions(Symbol{Kind: s.Kind, Scope: s.Scope, Name: newName})) > 0 {
		return s, nil, fmt.Errorf("a %s named %q already exists", s.Kind, newName)
	}
	return s, refs, nil
}

type indexer struct {
	m  *Module
	ix *Index
}

func (b *indexer) add(s Symbol, r Range, def bool) {
	if s.Name == "" {
		return
	}
	f := b.ix.files[r.Filename]
	b.ix.occs = append(b.ix.occs, Occurrence{Symbol: s, Range: r, Def: def, Stdlib: f != nil && f.Stdlib})
}

// text is the source of a range, or "" when it is not in the module.
func (b *indexer) text(r Range) (*File, string) {
	f := b.ix.files[r.Filename]
	if f == nil || r.Start.Byte < 0 || r.End.Byte > len(f.Src) || r.Start.Byte > r.End.Byte {
		return nil, ""
	}
	return f, string(f.Src[r.Start.Byte:r.End.Byte])
}

// quoted records a use or definition written as a string or label:
// r holds exactly "name" (or name, for a bare label).
func (b *indexer) quoted(s Symbol, r Range, def bool) {
	f, t := b.text(r)
	switch {
	case f == nil || s.Name == "":
	case t == `"`+s.Name+`"`:
		b.add(s, rangeOf(f, r.Start.Byte+1, r.End.Byte-1), def)
	case t == s.Name:
		b.add(s, r, def)
	}
}

// leading records a use written at the start of r: an attribute's name.
func (b *indexer) leading(s Symbol, r Range) {
	f, t := b.text(r)
	if f == nil || s.Name == "" || !strings.HasPrefix(t, s.Name) || len(t) > len(s.Name) && isNameByte(t[len(s.Name)]) {
		return
	}
	b.add(s, rangeOf(f, r.Start.Byte, r.Start.Byte+len(s.Name)), false)
}

// trailing records a use written as the "name" that ends r.
func (b *indexer) trailing(s Symbol, r Range) {
	f, t := b.text(r)
	if f == nil || s.Name == "" || !strings.HasSuffix(t, `"`+s.Name+`"`) {
		return
	}
	b.add(s, rangeOf(f, r.End.Byte-1-len(s.Name), r.End.Byte-1), false)
}

func isNameByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func (b *indexer) build() {
	m := b.m
	top := func(k SymbolKind, d *Decl) { b.quoted(Symbol{Kind: k, Name: d.Name}, d.NameRange, true) }
	for _, k := range m.ServiceKinds {
		b.serviceKind(k)
	}
	for _, s := range m.Systems {
		b.system(s)
	}
	for _, f := range m.FaultKinds {
		b.faultKind(f)
	}
	for _, dk := range m.DistractorKinds {
		top(SymDistractorKind, &dk.Decl)
		b.appliesTo(dk.AppliesTo, dk.AppliesRanges)
		b.edits(dk.Edits, dk.AppliesTo)
	}
	for _, n := range m.NoisePatterns {
		top(SymNoisePattern, &n.Decl)
	}
	for _, bc := range m.BenignChanges {
		b.appliesTo(bc.AppliesTo, bc.AppliesRanges)
	}
	for _, t := range m.Tools {
		top(SymTool, &t.Decl)
	}
	for _, r := range m.Rubrics {
		top(SymRubric, &r.Decl)
		for _, t := range r.Mechanisms {
			b.quoted(Symbol{Kind: SymMechanism, Name: t.Name}, t.NameRange, true)
		}
		for _, t := range r.Components {
			b.quoted(Symbol{Kind: SymComponent, Name: t.Name}, t.NameRange, true)
		}
	}
	for _, in := range m.Incidents {
		b.incident(in)
	}
	for _, s := range m.Suites {
		top(SymSuite, &s.Decl)
		for _, list := range SuiteLists {
			b.list(SymIncident, s.Lists[list], s.ListRanges[list])
		}
	}
	for _, mu := range m.Mutations {
		b.mutation(mu)
	}
	for _, ss := range m.SuiteSpecs {
		top(SymSuiteSpec, &ss.Decl)
		for i, name := range ss.Mutations {
			b.quoted(Symbol{Kind: SymMutation, Name: name}, elemRange(ss.MutationRanges, i, Range{}), false)
		}
	}
}

func (b *indexer) serviceKind(k *ServiceKind) {
	b.quoted(Symbol{Kind: SymServiceKind, Name: k.Name}, k.NameRange, true)
	in := func(kind SymbolKind, name string) Symbol { return Symbol{Kind: kind, Scope: k.Name, Name: name} }
	for _, r := range k.Roles {
		b.quoted(in(SymRole, r.Name), r.NameRange, true)
		b.quoted(Symbol{Kind: SymServiceKind, Name: r.Kind}, r.KindRange, false)
	}
	for _, c := range k.Config {
		b.quoted(in(SymConfigKey, c.Name), c.NameRange, true)
	}
	for _, s := range k.States {
		b.quoted(in(SymState, s.Name), s.NameRange, true)
	}
	for _, q := range k.Derived {
		b.quoted(in(SymQuantity, q.Name), q.NameRange, true)
	}
	for _, a := range append(k.Restart[:len(k.Restart):len(k.Restart)], k.Rollback...) {
		b.leading(in(SymState, a.Name), a.Range)
	}
	for _, op := range k.Operations {
		for _, set := range op.Sets {
			b.leading(in(SymState, set.Name), set.Range)
		}
	}
	b.quoted(in(SymQuantity, k.Latency), k.LatencyRng, false)
	b.quoted(in(SymQuantity, k.Errors), k.ErrorsRng, false)
	for _, sp := range k.Spans {
		for _, q := range []struct {
			name string
			rng  Range
		}{{sp.Latency, sp.LatencyRng}, {sp.Errors, sp.ErrorsRng}, {sp.Status, sp.StatusRng}, {sp.Wait, sp.WaitRng}} {
			b.quoted(in(SymQuantity, q.name), q.rng, false)
		}
		b.names(in(SymRole, ""), sp.Calls, sp.CallsRng)
	}
	scope := kindExprScope{b: b, m: b.m, k: k}
	for _, s := range k.States {
		scope.expr(s.Next)
	}
	for _, q := range k.Derived {
		scope.expr(q.Value)
	}
	for _, s := range k.Statuses {
		scope.expr(s.When)
	}
	for _, op := range k.Operations {
		for _, set := range op.Sets {
			scope.expr(set.Value)
		}
	}
	for _, l := range k.Logs {
		scope.expr(l.When)
		for _, p := range l.Parts {
			scope.expr(p.Hole)
		}
	}
}

func (b *indexer) system(s *System) {
	b.quoted(Symbol{Kind: SymSystem, Name: s.Name}, s.NameRange, true)
	svc := func(name string) Symbol { return Symbol{Kind: SymService, Scope: s.Name, Name: name} }
	for _, ss := range s.Services {
		b.quoted(svc(ss.Name), ss.NameRange, true)
		b.quoted(Symbol{Kind: SymServiceKind, Name: ss.Kind}, ss.KindRange, false)
		for _, bnd := range ss.Roles {
			// A binding is role = "service"; the role may be quoted.
			role := Symbol{Kind: SymRole, Scope: ss.Kind, Name: bnd.Role}
			if f, t := b.text(bnd.Range); strings.HasPrefix(t, `"`+bnd.Role+`"`) {
				b.add(role, rangeOf(f, bnd.Range.Start.Byte+1, bnd.Range.Start.Byte+1+len(bnd.Role)), false)
			} else {
				b.leading(role, bnd.Range)
			}
			b.trailing(svc(bnd.Service), bnd.Range)
		}
		for _, e := range ss.Config {
			b.leading(Symbol{Kind: SymConfigKey, Scope: ss.Kind, Name: e.Name}, e.Range)
		}
		for _, v := range ss.Vary {
			sym := Symbol{Kind: SymConfigKey, Scope: ss.Kind, Name: v.Name}
			if k := b.m.ServiceKind(ss.Kind); k != nil && k.ConfigKey(v.Name) == nil && k.State(v.Name) != nil {
				sym.Kind = SymState
			}
			b.leading(sym, v.Range)
		}
	}
	for _, f := range s.Fixtures {
		b.quoted(svc(f.Name), f.NameRange, true)
	}
}

func (b *indexer) appliesTo(kinds []string, ranges []Range) {
	for i, k := range kinds {
		b.quoted(Symbol{Kind: SymServiceKind, Name: k}, elemRange(ranges, i, Range{}), false)
	}
}

// edits records set_config and set_state keys, which name a key of each
// service kind the fault or distractor applies to that has it.
func (b *indexer) edits(edits []Edit, kinds []string) {
	for _, e := range edits {
		for _, kn := range kinds {
			k := b.m.ServiceKind(kn)
			if k == nil {
				continue
			}
			switch {
			case e.State && k.State(e.Name) != nil:
				b.leading(Symbol{Kind: SymState, Scope: kn, Name: e.Name}, e.Range)
			case !e.State && k.ConfigKey(e.Name) != nil:
				b.leading(Symbol{Kind: SymConfigKey, Scope: kn, Name: e.Name}, e.Range)
			}
		}
	}
}

func (b *indexer) faultKind(f *FaultKind) {
	b.quoted(Symbol{Kind: SymFaultKind, Name: f.Name}, f.NameRange, true)
	for _, p := range f.Params {
		b.quoted(Symbol{Kind: SymParam, Scope: f.Name, Name: p.Name}, p.NameRange, true)
	}
	b.appliesTo(f.AppliesTo, f.AppliesRanges)
	for i, other := range f.ConflictsWith {
		b.quoted(Symbol{Kind: SymFaultKind, Name: other}, elemRange(f.ConflictsRanges, i, Range{}), false)
	}
	b.quoted(Symbol{Kind: SymMechanism, Name: f.Mechanism}, f.MechRange, false)
	b.edits(f.Edits, f.AppliesTo)
	for _, kn := range f.AppliesTo {
		k := b.m.ServiceKind(kn)
		if k == nil {
			continue
		}
		for _, r := range f.Remedies {
			if r.Key != "" && k.ConfigKey(r.Key) != nil {
				b.quoted(Symbol{Kind: SymConfigKey, Scope: kn, Name: r.Key}, r.KeyRange, false)
			}
		}
		if x := f.FixedWhenByKind[kn]; x != nil {
			scope := kindExprScope{b: b, m: b.m, k: k, fault: f}
			scope.expr(x)
		}
	}
}

func (b *indexer) incident(in *Incident) {
	b.quoted(Symbol{Kind: SymIncident, Name: in.Name}, in.NameRange, true)
	b.quoted(Symbol{Kind: SymSystem, Name: in.System}, in.SystemRange, false)
	b.quoted(Symbol{Kind: SymRubric, Name: in.Rubric}, in.RubricRange, false)
	sys := b.m.System(in.System)
	service := func(name string, r Range) {
		if sys != nil {
			b.quoted(Symbol{Kind: SymService, Scope: sys.Name, Name: name}, r, false)
		}
	}
	for _, fu := range in.Faults {
		b.quoted(Symbol{Kind: SymFaultKind, Name: fu.Name}, fu.NameRange, false)
		service(fu.Target, fu.TRange)
		if fk := b.m.FaultKind(fu.Name); fk != nil {
			for name, r := range fu.ParamRanges {
				if fk.Param(name) != nil {
					b.leading(Symbol{Kind: SymParam, Scope: fk.Name, Name: name}, r)
				}
			}
		}
	}
	for _, du := range in.Distractors {
		b.quoted(Symbol{Kind: SymDistractorKind, Name: du.Name}, du.NameRange, false)
		service(du.Target, du.TRange)
	}
	for _, nu := range in.Noise {
		b.quoted(Symbol{Kind: SymNoisePattern, Name: nu.Name}, nu.NameRange, false)
		service(nu.Target, nu.TRange)
	}
	if ref := in.Ref; ref != nil {
		for _, f := range ref.Fixtures {
			service(f.Name, f.NameRange)
		}
		for i, name := range ref.DistractorServices {
			service(name, elemRange(ref.DistractorRanges, i, Range{}))
		}
		if ref.Fix != nil {
			service(ref.Fix.Service, ref.Fix.ServiceRange)
		}
	}
	if sys != nil {
		scope := incidentExprScope{b: b, m: b.m, sys: sys}
		scope.expr(in.Resolved)
		for i, act := range in.Expert {
			if i < len(in.ExpertRange) && i < len(in.ExpertCalls) && in.ExpertCalls[i] != nil {
				b.expert(act, in.ExpertCalls[i], in.ExpertRange[i], sys)
			}
		}
	}
}

// expert records the tool, services and config keys of an expert action
// written verbatim in its string, as the checker parsed it.
func (b *indexer) expert(act string, call *action.Call, r Range, sys *System) {
	f, t := b.text(r)
	if f == nil || t != `"`+act+`"` {
		return
	}
	at := func(sub action.Range) Range {
		return rangeOf(f, r.Start.Byte+1+sub.Start.Byte, r.Start.Byte+1+sub.End.Byte)
	}
	b.quoted(Symbol{Kind: SymTool, Name: call.Tool}, at(call.ToolRange), false)
	var tool *Tool
	for _, x := range b.m.Tools {
		if x.Name == call.Tool {
			tool = x
		}
	}
	if tool == nil {
		return
	}
	var kind string
	for j, arg := range call.Args {
		if j >= len(tool.Args) || arg.Value.K != value.String {
			return
		}
		switch tool.Args[j].Type {
		case "service":
			ss := sys.Service(arg.Value.S)
			if ss == nil {
				return
			}
			kind = ss.Kind
			b.quoted(Symbol{Kind: SymService, Scope: sys.Name, Name: ss.Name}, at(arg.Range), false)
		case "config_key":
			if k := b.m.ServiceKind(kind); k != nil && k.ConfigKey(arg.Value.S) != nil {
				b.quoted(Symbol{Kind: SymConfigKey, Scope: kind, Name: arg.Value.S}, at(arg.Range), false)
			}
		}
	}
}

func (b *indexer) mutation(mu *Mutation) {
	b.quoted(Symbol{Kind: SymMutation, Name: mu.Name}, mu.NameRange, true)
	b.quoted(Symbol{Kind: SymIncident, Name: mu.From}, mu.FromRange, false)
	for i, name := range mu.Faults {
		b.quoted(Symbol{Kind: SymFaultKind, Name: name}, elemRange(mu.FaultRanges, i, Range{}), false)
	}
	if base := b.m.MutationBase(mu); base != nil {
		for i, name := range mu.Targets {
			b.quoted(Symbol{Kind: SymService, Scope: base.System, Name: name}, elemRange(mu.TargetRanges, i, Range{}), false)
		}
	}
	for i, name := range mu.Distractors {
		if name != None {
			b.quoted(Symbol{Kind: SymDistractorKind, Name: name}, elemRange(mu.DistractorRanges, i, Range{}), false)
		}
	}
	for i, name := range mu.Noise {
		if name != None {
			b.quoted(Symbol{Kind: SymNoisePattern, Name: name}, elemRange(mu.NoiseRanges, i, Range{}), false)
		}
	}
	// A param block narrows the parameter of that name of every fault kind
	// on the axis.
	kinds := mu.Faults
	if !mu.HasFaults {
		kinds = names(b.m.FaultKinds)
	}
	for _, pv := range mu.ParamValues {
		for _, kn := range kinds {
			if fk := b.m.FaultKind(kn); fk != nil && fk.Param(pv.Name) != nil {
				b.quoted(Symbol{Kind: SymParam, Scope: kn, Name: pv.Name}, pv.NameRange, false)
			}
		}
	}
}

// list records the elements of a list of names whose element ranges were
// not kept: each "name" found in order inside the list's source.
func (b *indexer) list(k SymbolKind, names []string, r Range) {
	b.names(Symbol{Kind: k}, names, r)
}

// names records the uses of names quoted in the list written at r, each
// a symbol like of.
func (b *indexer) names(of Symbol, names []string, r Range) {
	f, t := b.text(r)
	if f == nil {
		return
	}
	from := 0
	for _, name := range names {
		i := strings.Index(t[from:], `"`+name+`"`)
		if i < 0 {
			return
		}
		start := r.Start.Byte + from + i + 1
		of.Name = name
		b.add(of, rangeOf(f, start, start+len(name)), false)
		from += i + len(name) + 2
	}
}

// exprName is one name of a member chain in an expression: its text and
// its byte span in the expression's source.
type exprName struct {
	name     string
	from, to int
}

// chains calls visit with every chain of names an expression reads:
// a bare name, or a name and its members (web.config.pool_size).
func chains(n ast.Node, src string, visit func([]exprName)) {
	span := func(n ast.Node) (int, int) {
		l := n.Location()
		return runeToByte(src, l.From), runeToByte(src, l.To)
	}
	var chainOf func(n ast.Node) ([]exprName, bool)
	chainOf = func(n ast.Node) ([]exprName, bool) {
		switch x := n.(type) {
		case *ast.IdentifierNode:
			from, to := span(x)
			return []exprName{{x.Value, from, to}}, true
		case *ast.MemberNode:
			p, ok := x.Property.(*ast.StringNode)
			if !ok {
				return nil, false
			}
			head, ok := chainOf(x.Node)
			if !ok {
				return nil, false
			}
			from, to := span(p)
			return append(head, exprName{p.Value, from, to}), true
		}
		return nil, false
	}
	var walk func(n ast.Node)
	walk = func(n ast.Node) {
		if c, ok := chainOf(n); ok {
			visit(c)
			return
		}
		switch x := n.(type) {
		case *ast.MemberNode:
			walk(x.Node)
		case *ast.UnaryNode:
			walk(x.Node)
		case *ast.BinaryNode:
			walk(x.Left)
			walk(x.Right)
		case *ast.ConditionalNode:
			walk(x.Cond)
			walk(x.Exp1)
			walk(x.Exp2)
		case *ast.BuiltinNode:
			for _, a := range x.Arguments {
				walk(a)
			}
		case *ast.CallNode:
			for _, a := range x.Arguments {
				walk(a)
			}
		}
	}
	walk(n)
}

// exprUse records a name of an expression written verbatim in its file.
func (b *indexer) exprUse(x *Expr, s Symbol, n exprName) {
	if !x.Exact || n.to <= n.from {
		return
	}
	f := b.ix.files[x.Range.Filename]
	if f == nil {
		return
	}
	start := x.Range.Start.Byte + n.from
	if start+len(n.name) > len(f.Src) || string(f.Src[start:start+len(n.name)]) != n.name {
		return
	}
	b.add(s, rangeOf(f, start, start+len(n.name)), false)
}

// kindExprScope resolves the names of a service kind's expressions as KindEnv
// does (and a fault kind's fixed_when, which adds param.NAME).
type kindExprScope struct {
	b     *indexer
	m     *Module
	k     *ServiceKind
	fault *FaultKind
}

func (s kindExprScope) expr(x *Expr) {
	if x == nil || x.Node == nil {
		return
	}
	in := func(kind SymbolKind, scope, name string) Symbol { return Symbol{Kind: kind, Scope: scope, Name: name} }
	chains(x.Node, x.Src, func(c []exprName) {
		head := c[0]
		switch {
		case len(c) >= 2 && head.name == "config" && s.k.ConfigKey(c[1].name) != nil:
			s.b.exprUse(x, in(SymConfigKey, s.k.Name, c[1].name), c[1])
		case len(c) >= 2 && head.name == "state" && s.k.State(c[1].name) != nil:
			s.b.exprUse(x, in(SymState, s.k.Name, c[1].name), c[1])
		case len(c) >= 2 && head.name == "param" && s.fault != nil && s.fault.Param(c[1].name) != nil:
			s.b.exprUse(x, in(SymParam, s.fault.Name, c[1].name), c[1])
		case s.k.Role(head.name) != nil:
			r := s.k.Role(head.name)
			s.b.exprUse(x, in(SymRole, s.k.Name, r.Name), head)
			if rk := s.m.ServiceKind(r.Kind); rk != nil && len(c) >= 2 && rk.Quantity(c[1].name) != nil {
				s.b.exprUse(x, in(SymQuantity, rk.Name, c[1].name), c[1])
			}
		case s.k.Quantity(head.name) != nil:
			s.b.exprUse(x, in(SymQuantity, s.k.Name, head.name), head)
		}
	})
}

// incidentExprScope resolves the names of resolved_when as IncidentEnv does:
// SERVICE.NAME, SERVICE.config.KEY, SERVICE.state.NAME.
type incidentExprScope struct {
	b   *indexer
	m   *Module
	sys *System
}

func (s incidentExprScope) expr(x *Expr) {
	if x == nil || x.Node == nil {
		return
	}
	chains(x.Node, x.Src, func(c []exprName) {
		ss := s.sys.Service(c[0].name)
		if ss == nil {
			return
		}
		s.b.exprUse(x, Symbol{Kind: SymService, Scope: s.sys.Name, Name: ss.Name}, c[0])
		k := s.m.ServiceKind(ss.Kind)
		if k == nil || len(c) < 2 {
			return
		}
		switch {
		case len(c) >= 3 && c[1].name == "config" && k.ConfigKey(c[2].name) != nil:
			s.b.exprUse(x, Symbol{Kind: SymConfigKey, Scope: k.Name, Name: c[2].name}, c[2])
		case len(c) >= 3 && c[1].name == "state" && k.State(c[2].name) != nil:
			s.b.exprUse(x, Symbol{Kind: SymState, Scope: k.Name, Name: c[2].name}, c[2])
		case k.Quantity(c[1].name) != nil:
			s.b.exprUse(x, Symbol{Kind: SymQuantity, Scope: k.Name, Name: c[1].name}, c[1])
		}
	})
}
