// Package compiler lowers an analysed lang.Module into engine Tasks. It is
// a table of named stages (see stages), run in order for each incident;
// each stage documents what it reads and writes of the build, and
// --dump-after names a stage to print the partly built task.
//
// compiler imports lang, engine and certify; it never imports HCL, and it
// runs the warm-up on the runtime itself so that the initial state is
// exactly what the runtime would have computed. Certification is package
// certify: the Certify and CertifyFixes stages hand it the build as a
// certify.Incident, which builds the counterfactual worlds it asks for
// (worlds.go).
package compiler

import (
	"crypto/sha256"
	"fmt"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/expr-lang/expr/ast"
	"github.com/srezc/srezc/action"
	"github.com/srezc/srezc/certify"
	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/lang"
	"github.com/srezc/srezc/value"
)

// History is the number of ticks of rows every task keeps: a metrics read's
// window (engine.MetricWindow) and the stale-metrics lag, so that with the
// default warm-up of 8 ticks an episode's first metrics read reaches back
// to the healthy world before the faults began.
const History = 16

// settleTicks run before the faults begin, so that the world is at its
// steady state when they strike.
const settleTicks = 24

type slotKey struct {
	svc   int
	class string
	name  string
}

// build is the state of compiling one incident.
type build struct {
	// alerting is the first service to show a symptom at step 1, found
	// when the alert is derived (-1: not derived).
	alerting int

	m     *lang.Module
	in    *lang.Incident
	sys   *lang.System
	kinds []*lang.ServiceKind // per service instance
	// quantityAt is each quantity's place in the order of every service's
	// quantities (quantityOrder).
	quantityAt map[slotKey]int
	rubric     *lang.Rubric
	traffic    float64
	t          *engine.Task
	diags      lang.Diagnostics

	slotIndex map[slotKey]engine.SlotID
	strings   []string
	strIndex  map[string]int
	// strConsts are code indices whose K is a provisional string id.
	strConsts []int
	// base is the row before any fault: defaults and initial states.
	base []value.Value
	// siteCfg caches siteConfig per service: base does not change once
	// the slots are laid out, and every fault kind's claims read it.
	siteCfg map[int]map[string]value.Value
	// siteSt caches siteState the same way.
	siteSt map[int]map[string]value.Value
	opt    Options
	// kindDefault is each config slot's documented default, which the site
	// configuration may override in base.
	kindDefault map[engine.SlotID]value.Value
	// edits are the fault and distractor edits of the initial state.
	edits []edit
	// findings are the certification failures with their places (Certify).
	findings []certify.Finding
	// located gives the range of a certification failure reported
	// somewhere more precise than the incident's header.
	located map[string]lang.Range
	// site are the changes applied to the site before any fault (the
	// incident's change blocks and the benign draws); pending are the
	// history's entries until LowerChanges settles them (changes.go).
	site    []siteChange
	pending []pendingChange
	// body is the task's engine.BodyHash once Certify has computed it
	// (bodyKnown): no later stage changes what it covers, so sealing the
	// task reuses it. siteHashes are the site variants' own semantic
	// hashes, sealed when each was certified (compileSites).
	body       [sha256.Size]byte
	bodyKnown  bool
	siteHashes []string
}

type edit struct {
	slot engine.SlotID
	v    value.Value
}

func (b *build) errAt(r lang.Range, summary, detail string) {
	rr := r
	b.diags = append(b.diags, &lang.Diagnostic{Severity: lang.Error, Summary: summary, Detail: detail, Subject: &rr})
}

func (b *build) emit(op engine.OpCode, a int32, k uint64) {
	b.t.Code = append(b.t.Code, engine.Op{Code: op, A: a, K: k})
}

func (b *build) intern(s string) int {
	if i, ok := b.strIndex[s]; ok {
		return i
	}
	b.strIndex[s] = len(b.strings)
	b.strings = append(b.strings, s)
	return len(b.strings) - 1
}

func (b *build) emitString(s string) {
	b.strConsts = append(b.strConsts, len(b.t.Code))
	b.emit(engine.OpConst, 0, uint64(b.intern(s)))
}

func (b *build) emitValue(v value.Value) {
	switch v.K {
	case value.String:
		b.emitString(v.S)
	default:
		w, _ := (&engine.Task{}).WordOf(v)
		b.emit(engine.OpConst, 0, w)
	}
}

func (b *build) serviceIndex(name string) int {
	for i := range b.t.Services {
		if b.t.Services[i].Name == name {
			return i
		}
	}
	return -1
}

func (b *build) roleTarget(svc int, role string) int {
	ss := b.sys.Services[svc]
	for _, r := range ss.Roles {
		if r.Role == role {
			return b.serviceIndex(r.Service)
		}
	}
	return -1
}

// Stage is one named step of compilation.
type Stage struct {
	Name string
	Run  func(*build)
}

// Stages lists the compiler's stages in order. Order constraints: slots
// exist before anything refers to them; rules are lowered before the
// warm-up runs them; strings are finalised after every string is interned
// and before the warm-up encodes rows.
var Stages = []Stage{
	{"ResolveIncident", (*build).resolveIncident}, // reads module; writes sys, kinds, rubric, task header
	{"LayoutSlots", (*build).layoutSlots},         // writes Slots, Services, base row
	{"LowerRules", (*build).lowerRules},           // writes Code, Updates, Logs, restarts
	{"DrawChanges", (*build).drawChanges},         // writes base (the site's changes), site, pending (changes.go)
	{"LowerFaults", (*build).lowerFaults},         // writes Faults, Distractors, edits, Resolved (the author's extra conditions), pending (faults' changes)
	{"LowerChanges", (*build).lowerChanges},       // reads pending; writes Changes, AlertMinute
	{"BindTools", (*build).bindTools},             // writes Tools, Noise, vocabulary, Rubric
	{"LowerClaims", (*build).lowerClaims},         // reads Faults, vocabulary; writes Claims
	{"FinaliseStrings", (*build).finaliseStrings}, // writes Strings; remaps string words
	{"RunWarmup", (*build).runWarmup},             // writes Init, InitTick
	{"DeriveAlert", (*build).deriveAlert},         // writes AlertSlots; Alert when the incident has none (a mutation variant)
	{"BindExpert", (*build).bindExpert},           // writes Expert, Evidence, Optimal
	{"Certify", (*build).certify},                 // writes Certified, Uncertified (certification.go)
	{"CertifyFixes", (*build).certifyFixes},       // appends to Uncertified where a fixed_when disagrees with the world (certification.go)
}

// StageNames lists the stage names, for --dump-after.
func StageNames() []string {
	out := make([]string, len(Stages))
	for i, s := range Stages {
		out[i] = s.Name
	}
	return out
}

// Options tune a compilation.
type Options struct {
	// DumpAfter stops after the named stage and returns the partial task.
	DumpAfter string
	// SkipCertify leaves the Certify stage out: for tools and tests that
	// build deliberately partial worlds (a counterfactual without a fault).
	SkipCertify bool
	// KeepUncertified returns a task that fails certification, with
	// Certified false and its derived evidence and plan, beside the
	// certification errors (srezc certify explains such tasks).
	KeepUncertified bool
	// ExpertFromPlan makes the certified informed optimum the expert plan
	// of an incident that has none (a mutation variant).
	ExpertFromPlan bool
	// Cache caches certification results across compiles (nil:
	// certify every task afresh). The caller owns it: one per process, or
	// per editor session.
	Cache *certify.Cache
	// SiteFrom compiles a counterfactual of another incident (a copy with
	// other faults or distractors) on that incident's site: its change
	// blocks and benign draws, which depend on its own faults (changes.go).
	// Nil: the incident's own site.
	SiteFrom *lang.Incident
	// Site is the site variant to compile, 0 to SiteVariants-1, when the
	// incident's system draws its site (vary; sites.go). Compiling
	// variant 0 compiles the others too, as the task's Sites.
	Site int
	// siteCorner, when set, replaces the draw of a varied key's grid
	// point (a test walks the ranges' corners).
	siteCorner func(n int) int
	// oneSite compiles variant Site alone: a variant of a task. A
	// counterfactual world (SiteFrom) is always one variant's.
	oneSite bool
	// words is shared by the incidents and variants compiled together.
	words *keyWords
}

// CompileModule compiles every healthy incident of a module, in source order.
func CompileModule(m *lang.Module) ([]*engine.Task, lang.Diagnostics) {
	return CompileWith(m, Options{})
}

// CompileWith compiles with options.
func CompileWith(m *lang.Module, opt Options) ([]*engine.Task, lang.Diagnostics) {
	var healthy []*lang.Incident
	for _, in := range m.Incidents {
		if !in.Broken {
			healthy = append(healthy, in)
		}
	}
	var tasks []*engine.Task
	var diags lang.Diagnostics
	for _, r := range compileEach(m, healthy, opt) {
		diags = append(diags, r.diags...)
		if r.t != nil {
			tasks = append(tasks, r.t)
		}
	}
	return tasks, diags.Sort()
}

// compiled is what CompileIncident returned.
type compiled struct {
	t     *engine.Task
	diags lang.Diagnostics
}

// compileEach compiles the incidents of m in parallel, sharing opt's
// memos; results are in the list's order.
func compileEach(m *lang.Module, list []*lang.Incident, opt Options) []compiled {
	if opt.words == nil {
		opt.words = newKeyWords()
	}
	// Incidents compile independently (the module is only read).
	results := make([]compiled, len(list))
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < min(runtime.GOMAXPROCS(0), len(list)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				t, ds := CompileIncident(m, list[i], opt)
				results[i] = compiled{t, ds}
			}
		}()
	}
	for i := range list {
		next <- i
	}
	close(next)
	wg.Wait()
	return results
}

func newBuild(m *lang.Module, in *lang.Incident) *build {
	b := &build{alerting: -1, m: m, in: in, t: &engine.Task{Format: engine.FormatVersion, History: History},
		slotIndex: map[slotKey]engine.SlotID{}, strIndex: map[string]int{}, kindDefault: map[engine.SlotID]value.Value{}}
	b.intern(engine.StatusHealthy)
	return b
}

// CompileIncident runs the stages for one incident.
func CompileIncident(m *lang.Module, in *lang.Incident, opt Options) (*engine.Task, lang.Diagnostics) {
	if m.Profile(in) == lang.ProfileSreZero {
		return compileRef(m, in, opt)
	}
	b := newBuild(m, in)
	if opt.words == nil {
		opt.words = newKeyWords()
	}
	b.opt = opt
	for _, st := range Stages {
		st.Run(b)
		if len(b.diags) > 0 {
			return nil, b.diags
		}
		if opt.DumpAfter == st.Name {
			return b.t, b.uncertified()
		}
	}
	diags := b.uncertified()
	if !opt.oneSite && opt.SiteFrom == nil && b.varies() {
		var failed bool
		diags, failed = b.compileSites(diags)
		if failed {
			return nil, diags
		}
		b.t.ShareSites()
	}
	if err := b.t.Validate(); err != nil {
		b.errAt(in.DefRange, "Internal compiler error", err.Error())
		return nil, b.diags
	}
	// The task is final: its episodes share everything derived from it,
	// the alert's checks included.
	b.t.Prepare()
	if b.t.Hash == "" || len(b.t.Sites) > 0 {
		b.t.Hash = engine.SealHashSites(b.bodyHash(), b.t, b.siteHashes)
		for _, s := range b.t.Sites {
			s.Hash = b.t.Hash
		}
	}
	if len(diags) > 0 && !opt.KeepUncertified {
		return nil, diags
	}
	return b.t, diags
}

// bodyHash is the task's engine.BodyHash, computed once.
func (b *build) bodyHash() [sha256.Size]byte {
	if !b.bodyKnown {
		b.body, b.bodyKnown = engine.BodyHash(b.t), true
	}
	return b.body
}

// NotCertified is the summary of every certification error.
const NotCertified = "Task not certified"

// uncertified reports each certification failure as an error on the part
// of the incident responsible (certify/locate.go).
func (b *build) uncertified() lang.Diagnostics {
	var out lang.Diagnostics
	seen := map[string]bool{}
	for _, f := range b.findings {
		seen[f.Text()] = true
		r := f.Range(b.in)
		out = append(out, &lang.Diagnostic{Severity: lang.Error, Summary: NotCertified, Detail: f.Text(), Subject: &r})
	}
	// Findings of later stages (CertifyFixes) carry their own ranges.
	for _, f := range b.t.Uncertified {
		if seen[f] {
			continue
		}
		r := b.in.DefRange
		if at, ok := b.located[f]; ok {
			r = at
		}
		out = append(out, &lang.Diagnostic{Severity: lang.Error, Summary: NotCertified, Detail: f, Subject: &r})
	}
	return out
}

func (b *build) resolveIncident() {
	in, m := b.in, b.m
	b.sys = m.System(in.System)
	b.rubric = m.Rubric(in.Rubric)
	if b.sys == nil || b.rubric == nil {
		b.errAt(in.DefRange, "Incident cannot compile", "Its system or rubric is missing.")
		return
	}
	for _, ss := range b.sys.Services {
		k := m.ServiceKind(ss.Kind)
		if k == nil || k.Broken {
			b.errAt(in.SystemRange, "Incident cannot compile", fmt.Sprintf("The service kind %q has errors.", ss.Kind))
			return
		}
		b.kinds = append(b.kinds, k)
	}
	b.traffic = b.drawTraffic()
	t := b.t
	t.ID, t.Title, t.Alert = in.Name, in.Title, in.Alert
	t.Difficulty, t.Split, t.Tags = in.Difficulty, in.Split, append([]string(nil), in.Tags...)
	t.Budget, t.Hold = in.Budget, in.Hold
}

func (b *build) addSlot(svc int, class engine.SlotClass, key, name string, k value.Kind, init value.Value) engine.SlotID {
	id := engine.SlotID(len(b.t.Slots))
	sl := engine.Slot{Service: int16(svc), Class: class, Name: name, Kind: k}
	if k == value.Float {
		sl.Precision = -1 // shortest exact form unless a metric says otherwise
	}
	b.t.Slots = append(b.t.Slots, sl)
	b.slotIndex[slotKey{svc, key, name}] = id
	b.base = append(b.base, init)
	return id
}

func zeroOf(k value.Kind) value.Value {
	switch k {
	case value.Int:
		return value.OfInt(0)
	case value.Float:
		return value.OfFloat(0)
	case value.Bool:
		return value.OfBool(false)
	}
	return value.OfString(engine.StatusHealthy)
}

func (b *build) layoutSlots() {
	t := b.t
	for i, ss := range b.sys.Services {
		t.Services = append(t.Services, engine.Service{Name: ss.Name, Kind: ss.Kind, Status: engine.NoSlot, Latency: engine.NoSlot, ErrorRate: engine.NoSlot})
		_ = i
	}
	for i, ss := range b.sys.Services {
		k := b.kinds[i]
		svc := &t.Services[i]
		for _, r := range k.Roles {
			if r.Caller {
				continue
			}
			svc.Deps = append(svc.Deps, int16(b.roleTarget(i, r.Name)))
			svc.DepRoles = append(svc.DepRoles, r.Name)
		}
		for _, c := range k.Config {
			id := b.addSlot(i, engine.ClassConfig, "config", c.Name, c.Kind, c.Default)
			b.kindDefault[id] = c.Default
			if c.Default.K == value.String {
				b.intern(c.Default.S)
			}
			sl := &t.Slots[id]
			sl.Unit, sl.HasBand, sl.Low, sl.High = c.Unit, c.HasBand, c.Low, c.High
			svc.Config = append(svc.Config, id)
		}
		// The site's configuration replaces defaults in the baseline; the
		// slots keep the kind's defaults as their documented default.
		for _, e := range ss.Config {
			id, ok := b.slotIndex[slotKey{i, "config", e.Name}]
			if !ok {
				continue // the checker reported it
			}
			v, d := e.Eval(lang.EditScope{Traffic: b.traffic})
			if d != nil {
				b.diags = append(b.diags, d)
				continue
			}
			if v, ok = convertTo(v, t.Slots[id].Kind); ok {
				b.base[id] = v
			}
		}
		for _, s := range k.States {
			b.addSlot(i, engine.ClassState, "state", s.Name, s.Kind, s.Initial)
		}
		b.drawSite(i, ss)
		order, _ := lang.QuantityOrder(k)
		for _, q := range order {
			class := engine.ClassDerived
			if q.Metric {
				class = engine.ClassMetric
			}
			id := b.addSlot(i, class, "quantity", q.Name, q.Kind, zeroOf(q.Kind))
			sl := &t.Slots[id]
			sl.Unit, sl.HasBand, sl.Low, sl.High, sl.Precision = q.Unit, q.HasBand, q.Low, q.High, int8(q.Precision)
			sl.Noise, _ = engine.ParseMetricNoise(q.Noise)
		}
		for _, q := range k.Derived {
			if q.Metric {
				svc.Metrics = append(svc.Metrics, b.slotIndex[slotKey{i, "quantity", q.Name}])
			}
		}
		svc.Status = b.addSlot(i, engine.ClassStatus, "status", "status", value.String, value.OfString(engine.StatusHealthy))
		if k.Latency != "" {
			svc.Latency = b.slotIndex[slotKey{i, "quantity", k.Latency}]
		}
		if k.Errors != "" {
			svc.ErrorRate = b.slotIndex[slotKey{i, "quantity", k.Errors}]
		}
		for _, sp := range k.Spans {
			svc.Spans = append(svc.Spans, b.traceSpan(i, sp))
		}
	}
}

// traceSpan lowers a span of a service kind's trace block for service i.
func (b *build) traceSpan(i int, sp *lang.TraceSpan) engine.TraceSpan {
	slot := func(name string) engine.SlotID {
		if name == "" {
			return engine.NoSlot
		}
		if id, ok := b.slotIndex[slotKey{i, "quantity", name}]; ok {
			return id
		}
		return engine.NoSlot // the checker reported it
	}
	out := engine.TraceSpan{Kind: engine.SpanClient, Name: sp.Title, Latency: slot(sp.Latency), ErrorRate: slot(sp.Errors), Status: slot(sp.Status), Wait: slot(sp.Wait)}
	if sp.Kind == lang.SpanConsumer {
		out.Kind = engine.SpanConsumer
	}
	for _, r := range sp.Calls {
		if d := b.roleTarget(i, r); d >= 0 {
			out.Calls = append(out.Calls, int16(d))
		}
	}
	return out
}

func (b *build) lowerExpr(x *lang.Expr, s *scope, want value.Kind) (engine.Span, bool) {
	sp, err := s.lower(x, want)
	if err != nil {
		b.errAt(x.Range, "Cannot compile expression", err.msg)
		return sp, false
	}
	return sp, true
}

func (b *build) lowerRules() {
	t := b.t
	// State updates first: they read only the previous row.
	for i := range b.sys.Services {
		k := b.kinds[i]
		for _, s := range k.States {
			if s.Next == nil {
				continue
			}
			sp, ok := b.lowerExpr(s.Next, &scope{b: b, svc: i, prevAll: true}, s.Kind)
			if ok {
				t.Updates = append(t.Updates, engine.Assign{Slot: b.slotIndex[slotKey{i, "state", s.Name}], Code: sp})
			}
		}
	}
	// Quantities of every service, in one order across services, so that
	// every read of a tick agrees: a service reading another's quantity
	// through a role sees this tick's value, not the last tick's.
	order := b.quantityOrder()
	for _, q := range order {
		sc := &scope{b: b, svc: q.svc, at: b.quantityAt[slotKey{q.svc, "quantity", q.q.Name}]}
		if sp, ok := b.lowerExpr(q.q.Value, sc, q.q.Kind); ok {
			t.Updates = append(t.Updates, engine.Assign{Slot: b.slotIndex[slotKey{q.svc, "quantity", q.q.Name}], Code: sp})
		}
	}
	for i := range b.sys.Services {
		k := b.kinds[i]
		sc := &scope{b: b, svc: i, at: len(order)}
		// Status: the first matching rule wins, else healthy; built as a
		// chain of selects from the last rule back.
		start := int32(len(t.Code))
		ok := true
		for _, st := range k.Statuses {
			_, err := sc.node(st.When.Node)
			if err != nil {
				b.errAt(st.When.Range, "Cannot compile expression", err.msg)
				ok = false
				break
			}
			b.emitString(st.Name)
		}
		if ok {
			b.emitString(engine.StatusHealthy)
			for range k.Statuses {
				b.emit(engine.OpSelect, 0, 0)
			}
			t.Updates = append(t.Updates, engine.Assign{Slot: t.Services[i].Status, Code: engine.Span{Start: start, End: int32(len(t.Code))}})
		}
		for _, l := range k.Logs {
			active := b.addSlot(i, engine.ClassLog, "log", l.Name, value.Bool, value.OfBool(false))
			if sp, ok := b.lowerExpr(l.When, sc, value.Bool); ok {
				t.Updates = append(t.Updates, engine.Assign{Slot: active, Code: sp})
			}
			rule := engine.LogRule{Service: int16(i), Level: l.Level, Active: active, Listing: l.Listing}
			for hi, p := range l.Parts {
				if p.ID != "" {
					id, _ := engine.LogIDByName(p.ID) // lang checked the name
					rule.Parts = append(rule.Parts, engine.TextPart{Hole: engine.NoSlot, ID: id})
					continue
				}
				if p.Hole == nil {
					rule.Parts = append(rule.Parts, engine.TextPart{Lit: p.Lit, Hole: engine.NoSlot})
					continue
				}
				hole := b.addSlot(i, engine.ClassHole, "hole", fmt.Sprintf("%s#%d", l.Name, hi), p.Hole.Kind, zeroOf(p.Hole.Kind))
				if sp, ok := b.lowerExpr(p.Hole, sc, p.Hole.Kind); ok {
					t.Updates = append(t.Updates, engine.Assign{Slot: hole, Code: sp})
				}
				if p.Hole.Kind == value.Float {
					t.Slots[hole].Precision = 1
				}
				rule.Parts = append(rule.Parts, engine.TextPart{Hole: hole})
			}
			t.Services[i].Logs = append(t.Services[i].Logs, int32(len(t.Logs)))
			t.Logs = append(t.Logs, rule)
		}
		for _, as := range k.Restart {
			slot := b.slotIndex[slotKey{i, "state", as.Name}]
			start := int32(len(t.Code))
			b.emitValue(as.Value)
			t.Services[i].Restart = append(t.Services[i].Restart, engine.Assign{Slot: slot, Code: engine.Span{Start: start, End: int32(len(t.Code))}})
		}
		for _, as := range k.Rollback {
			slot := b.slotIndex[slotKey{i, "state", as.Name}]
			start := int32(len(t.Code))
			b.emitValue(as.Value)
			t.Services[i].Rollback = append(t.Services[i].Rollback, engine.Assign{Slot: slot, Code: engine.Span{Start: start, End: int32(len(t.Code))}})
		}
		for _, op := range k.Operations {
			so := engine.ServiceOperation{Op: b.operationIndex(op.Name)}
			for _, set := range op.Sets {
				st := k.State(set.Name)
				if st == nil {
					continue
				}
				if sp, ok := b.lowerExpr(set.Value, &scope{b: b, svc: i, prevAll: true, opArgs: op.Args}, st.Kind); ok {
					so.Assigns = append(so.Assigns, engine.Assign{Slot: b.slotIndex[slotKey{i, "state", set.Name}], Code: sp})
				}
			}
			t.Services[i].Operations = append(t.Services[i].Operations, so)
		}
	}
}

// serviceQuantity is a derived quantity of one service instance.
type serviceQuantity struct {
	svc int
	q   *lang.Quantity
}

// quantityOrder sorts every service's quantities so that each comes after
// the quantities it reads, its own service's and, through roles, other
// services'; it records each one's position in b.quantityAt. Services are
// visited in system order and each kind's quantities in their own order,
// so the result is deterministic. A read that would close a cycle across
// services is left out of the order: that read sees the last tick (a
// service kind's own quantities have no cycle; lang checks that).
func (b *build) quantityOrder() []serviceQuantity {
	// The order is a function of the system and its services' kinds,
	// which the module fixes: it is computed once per system.
	w, key := b.opt.words, systemKey{b.m, b.sys}
	if w != nil {
		w.mu.Lock()
		o, ok := w.orders[key]
		w.mu.Unlock()
		if ok {
			b.quantityAt = o.at
			return o.order
		}
	}
	order := b.orderQuantities()
	if w != nil {
		w.mu.Lock()
		w.orders[key] = quantityOrdering{order, b.quantityAt}
		w.mu.Unlock()
	}
	return order
}

// orderQuantities is quantityOrder computed afresh.
func (b *build) orderQuantities() []serviceQuantity {
	var order []serviceQuantity
	b.quantityAt = map[slotKey]int{}
	const (
		unseen = iota
		visiting
		done
	)
	state := map[slotKey]int{}
	var visit func(svc int, q *lang.Quantity)
	visit = func(svc int, q *lang.Quantity) {
		key := slotKey{svc, "quantity", q.Name}
		if state[key] != unseen {
			return
		}
		state[key] = visiting
		k := b.kinds[svc]
		if q.Value != nil && q.Value.Node != nil {
			for _, name := range lang.BareNames(q.Value.Node) {
				if d := k.Quantity(name); d != nil {
					visit(svc, d)
				}
			}
			for _, p := range memberPaths(q.Value.Node) {
				if len(p) != 2 {
					continue
				}
				role := b.roleTarget(svc, p[0])
				if role < 0 {
					continue
				}
				if d := b.kinds[role].Quantity(p[1]); d != nil && state[slotKey{role, "quantity", d.Name}] != visiting {
					visit(role, d)
				}
			}
		}
		state[key] = done
		b.quantityAt[key] = len(order)
		order = append(order, serviceQuantity{svc, q})
	}
	for i := range b.sys.Services {
		kindOrder, _ := lang.QuantityOrder(b.kinds[i])
		for _, q := range kindOrder {
			visit(i, q)
		}
	}
	return order
}

// memberPaths are the dotted paths an expression reads (lb.forwarded_rps
// as ["lb", "forwarded_rps"]).
func memberPaths(n ast.Node) [][]string {
	var out [][]string
	ast.Find(n, func(x ast.Node) bool {
		if m, ok := x.(*ast.MemberNode); ok {
			if p, ok := memberPath(m, nil); ok {
				out = append(out, p)
			}
		}
		return false
	})
	return out
}

// operationIndex is the Task.Operations index of a named operation,
// added on first use with the phrases the module's kinds give it.
func (b *build) operationIndex(name string) int16 {
	t := b.t
	for i := range t.Operations {
		if t.Operations[i].Name == name {
			return int16(i)
		}
	}
	op := engine.Operation{Name: name}
	for _, k := range b.m.ServiceKinds {
		if d := k.Operation(name); d != nil {
			for _, p := range d.Aka {
				if np := lang.NormalizePhrase(p); !slices.Contains(op.Aka, np) {
					op.Aka = append(op.Aka, np)
				}
			}
		}
	}
	t.Operations = append(t.Operations, op)
	return int16(len(t.Operations) - 1)
}

// emitHealthy pushes whether every service is healthy.
func (b *build) emitHealthy() {
	for i := range b.t.Services {
		b.emit(engine.OpLoad, int32(b.t.Services[i].Status), 0)
		b.emitString(engine.StatusHealthy)
		b.emit(engine.OpEqS, 0, 0)
		if i > 0 {
			b.emit(engine.OpAnd, 0, 0)
		}
	}
	if len(b.t.Services) == 0 {
		b.emit(engine.OpConst, 0, 1)
	}
}

// emitFixed pushes whether every fault's fixed_when holds.
func (b *build) emitFixed() *lowerError {
	b.emit(engine.OpConst, 0, 1)
	for _, fu := range b.in.Faults {
		fk := b.m.FaultKind(fu.Name)
		svc := b.serviceIndex(fu.Target)
		x := fk.FixedWhenByKind[b.kinds[svc].Name]
		if x == nil {
			return &lowerError{nil, "fixed_when of " + fu.Name + " did not check"}
		}
		if _, err := (&scope{b: b, svc: svc, params: fu.Params}).node(x.Node); err != nil {
			return err
		}
		b.emit(engine.OpAnd, 0, 0)
	}
	return nil
}

func (b *build) mechanismIndex(name string) int {
	for i, m := range b.rubric.Mechanisms {
		if m.Name == name {
			return i
		}
	}
	return -1
}

func (b *build) lowerFaults() {
	t := b.t
	for _, fu := range b.in.Faults {
		fk := b.m.FaultKind(fu.Name)
		svc := b.serviceIndex(fu.Target)
		k := b.kinds[svc]
		mech := b.mechanismIndex(fk.Mechanism)
		if mech < 0 {
			b.errAt(fu.NameRange, "Unknown mechanism", fmt.Sprintf("The rubric %q has no mechanism %q.", b.rubric.Name, fk.Mechanism))
			continue
		}
		f := engine.Fault{Kind: fk.Name, Service: int16(svc), Mechanism: int16(mech), Detail: fk.Detail}
		for _, name := range fk.AlsoMechanisms {
			if m := b.mechanismIndex(name); m >= 0 {
				f.Also = append(f.Also, int16(m))
			}
		}
		for _, name := range fk.SymptomMechanisms {
			if m := b.mechanismIndex(name); m >= 0 {
				f.Shows = append(f.Shows, int16(m))
			}
		}
		if fk.Link != "" {
			if peer := b.roleTarget(svc, fk.Link); peer >= 0 {
				f.Link = []int16{int16(peer)}
			}
		}
		x := fk.FixedWhenByKind[k.Name]
		if x == nil {
			b.errAt(fu.NameRange, "Fault cannot compile", "Its fixed_when condition has errors.")
			continue
		}
		sp, ok := b.lowerExpr(x, &scope{b: b, svc: svc, params: fu.Params}, value.Bool)
		if !ok {
			continue
		}
		f.Fixed = sp
		for _, r := range fk.Remedies {
			switch r.Effect {
			case "restart_service":
				f.Remedies = append(f.Remedies, engine.Remedy{Effect: engine.EffectRestart, Service: int16(svc), Slot: engine.NoSlot})
			case "rollback":
				slot := b.slotIndex[slotKey{svc, "state", lang.DeployState}]
				f.Remedies = append(f.Remedies, engine.Remedy{Effect: engine.EffectRollback, Service: int16(svc), Slot: slot})
			case "escalate":
				f.Remedies = append(f.Remedies, engine.Remedy{Effect: engine.EffectEscalate, Service: int16(svc), Slot: engine.NoSlot})
			case "operate":
				on := svc
				if r.Role != "" {
					on = b.roleTarget(svc, r.Role)
				}
				f.Remedies = append(f.Remedies, engine.Remedy{Effect: engine.EffectOperate, Service: int16(on), Slot: engine.NoSlot, Operation: b.operationIndex(r.Operation), Args: b.remedyArgs(fu, r)})
			case "update_config":
				slot := b.slotIndex[slotKey{svc, "config", r.Key}]
				v := r.Value
				if v.K == value.Null {
					// Back to the site's value before the fault: what the
					// fault's change replaced, drawn per site variant.
					v = b.base[slot]
				}
				v, _ = convertTo(v, t.Slots[slot].Kind)
				f.Remedies = append(f.Remedies, engine.Remedy{Effect: engine.EffectUpdate, Service: int16(svc), Slot: slot, Value: b.word(v)})
			}
		}
		t.Faults = append(t.Faults, f)
		if fu.Change != nil {
			b.faultChange(len(t.Faults)-1, fu, fk, svc)
		}
		b.applyEdits(fk.Edits, svc, fu.Params, fu.NameRange)
	}
	for _, du := range b.in.Distractors {
		dk := b.m.DistractorKind(du.Name)
		svc := b.serviceIndex(du.Target)
		t.Distractors = append(t.Distractors, int16(svc))
		b.applyEdits(dk.Edits, svc, nil, du.NameRange)
	}
	start := int32(len(t.Code))
	if b.in.Resolved != nil {
		if _, err := (&scope{b: b, svc: -1}).node(b.in.Resolved.Node); err != nil {
			b.errAt(b.in.Resolved.Range, "Cannot compile expression", err.msg)
			return
		}
	} else {
		// Mitigation is what the world shows (engine/mitigation.go); an
		// author's resolved_when only adds to it.
		b.emit(engine.OpConst, 0, 1)
	}
	t.Resolved = engine.Span{Start: start, End: int32(len(t.Code))}
}

// word encodes a value; strings get provisional ids, remapped later.
func (b *build) word(v value.Value) uint64 {
	if v.K == value.String {
		return uint64(b.intern(v.S))
	}
	w, _ := (&engine.Task{}).WordOf(v)
	return w
}

func convertTo(v value.Value, k value.Kind) (value.Value, bool) {
	if v.K == k {
		return v, true
	}
	if v.K == value.Int && k == value.Float {
		return value.OfFloat(float64(v.I)), true
	}
	return v, false
}

func (b *build) applyEdits(edits []lang.Edit, svc int, params map[string]value.Value, r lang.Range) {
	for _, e := range edits {
		ed, d := b.resolveEdit(e, svc, params, r)
		if d != nil {
			b.diags = append(b.diags, d)
			continue
		}
		b.edits = append(b.edits, ed)
	}
}

// resolveEdit finds an edit's slot and evaluates its value for a service;
// r is where to report an edit the service has no slot for.
func (b *build) resolveEdit(e lang.Edit, svc int, params map[string]value.Value, r lang.Range) (edit, *lang.Diagnostic) {
	class := "config"
	if e.State {
		class = "state"
	}
	slot, ok := b.slotIndex[slotKey{svc, class, e.Name}]
	if !ok {
		return edit{}, &lang.Diagnostic{Severity: lang.Error, Summary: "Edit does not apply", Detail: fmt.Sprintf("%s has no %s %q.", b.t.Services[svc].Name, class, e.Name), Subject: &r}
	}
	v, d := e.Eval(b.editScope(svc, params))
	if d != nil {
		return edit{}, d
	}
	if v, ok = convertTo(v, b.t.Slots[slot].Kind); !ok {
		rng := e.Range
		return edit{}, &lang.Diagnostic{Severity: lang.Error, Summary: "Incorrect value type", Detail: fmt.Sprintf("%q is a %s.", e.Name, b.t.Slots[slot].Kind), Subject: &rng}
	}
	return edit{slot, v}, nil
}

// siteConfig is service svc's configuration before any fault: the kind's
// defaults with the system's site tuning over them, which config.KEY reads
// in a fault's or distractor's edits.
func (b *build) siteConfig(svc int) map[string]value.Value {
	if out, ok := b.siteCfg[svc]; ok {
		return out
	}
	out := map[string]value.Value{}
	for _, id := range b.t.Services[svc].Config {
		out[b.t.Slots[id].Name] = b.base[id]
	}
	if b.siteCfg == nil {
		b.siteCfg = map[int]map[string]value.Value{}
	}
	b.siteCfg[svc] = out
	return out
}

// siteState is service svc's state before any fault: the site's.
func (b *build) siteState(svc int) map[string]value.Value {
	if out, ok := b.siteSt[svc]; ok {
		return out
	}
	out := map[string]value.Value{}
	for id, sl := range b.t.Slots {
		if int(sl.Service) == svc && sl.Class == engine.ClassState {
			out[sl.Name] = b.base[id]
		}
	}
	if b.siteSt == nil {
		b.siteSt = map[int]map[string]value.Value{}
	}
	b.siteSt[svc] = out
	return out
}

// editScope is what a fault's edit on service svc reads: its parameters
// and the site.
func (b *build) editScope(svc int, params map[string]value.Value) lang.EditScope {
	return lang.EditScope{Params: params, Config: b.siteConfig(svc), State: b.siteState(svc), Traffic: b.traffic}
}

func (b *build) bindTools() {
	t := b.t
	for _, tl := range b.m.Tools {
		if tl.Broken {
			continue
		}
		eff, _ := engine.ParseEffect(tl.Effect)
		rt := engine.Tool{Name: tl.Name, Effect: eff, Doc: tl.Description, Listing: tl.Listing}
		if eff == engine.EffectOperate {
			rt.Operation = b.operationIndex(tl.Operation)
		}
		for _, a := range tl.Args {
			at, _ := engine.ParseArgType(a.Type)
			rt.Args = append(rt.Args, engine.ToolArg{Name: a.Name, Type: at, Optional: a.Optional, Doc: a.Description})
		}
		t.Tools = append(t.Tools, rt)
	}
	sort.SliceStable(t.Tools, func(i, j int) bool { return t.Tools[i].Effect.Rank() < t.Tools[j].Effect.Rank() })
	for _, nu := range b.in.Noise {
		np := b.m.NoisePattern(nu.Name)
		eff, _ := engine.ParseNoiseEffect(np.Effect)
		n := engine.Noise{Effect: eff, Service: -1, Rate: np.Rate, Magnitude: np.Magnitude, Lag: int32(np.Lag)}
		if nu.Target != "" {
			n.Service = int16(b.serviceIndex(nu.Target))
		}
		if nu.Rate != nil {
			n.Rate = *nu.Rate
		}
		if nu.Magnitude != nil {
			n.Magnitude = *nu.Magnitude
		}
		if nu.Lag != nil {
			n.Lag = int32(*nu.Lag)
		}
		if int(n.Lag) >= History-engine.MetricWindow {
			n.Lag = int32(History - engine.MetricWindow - 1)
		}
		t.Noise = append(t.Noise, n)
	}
	for i, ss := range b.sys.Services {
		term := engine.Term{Name: ss.Name, Phrases: []string{lang.NormalizePhrase(ss.Name)}}
		for _, c := range b.rubric.Components {
			if c.Name == b.kinds[i].Name {
				for _, p := range c.Phrases {
					term.Phrases = appendUnique(term.Phrases, lang.NormalizePhrase(p))
				}
			}
		}
		t.Components = append(t.Components, term)
	}
	for _, mch := range b.rubric.Mechanisms {
		term := engine.Term{Name: mch.Name, Phrases: []string{lang.NormalizePhrase(mch.Name)}}
		for _, p := range mch.Phrases {
			term.Phrases = appendUnique(term.Phrases, lang.NormalizePhrase(p))
		}
		t.Mechanisms = append(t.Mechanisms, term)
	}
	w, p := b.rubric.Weights, b.rubric.Penalties
	t.Rubric = engine.Rubric{Name: b.rubric.Name,
		Evidence: w["evidence"], Diagnosis: w["diagnosis"], Mitigation: w["mitigation"], Resolution: w["resolution"], Efficiency: w["efficiency"],
		InvalidAction: p["invalid_action"], RepeatedInvalidAction: p["repeated_invalid_action"], RepeatedUselessAction: p["repeated_useless_action"],
		WrongChange: p["wrong_change"], RestartHealthy: p["restart_healthy"], DistractorAction: p["distractor_action"], PrematureResolution: p["premature_resolution"]}
}

func appendUnique(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

// finaliseStrings sorts the string table so lookups are binary searches,
// and remaps every provisional string id.
func (b *build) finaliseStrings() {
	t := b.t
	for i, v := range b.base {
		if v.K == value.String {
			b.intern(v.S)
		}
		_ = i
	}
	for _, e := range b.edits {
		if e.v.K == value.String {
			b.intern(e.v.S)
		}
	}
	sorted := append([]string(nil), b.strings...)
	sort.Strings(sorted)
	remap := make([]uint64, len(b.strings))
	for i, s := range b.strings {
		remap[i] = uint64(sort.SearchStrings(sorted, s))
	}
	for _, ci := range b.strConsts {
		t.Code[ci].K = remap[t.Code[ci].K]
	}
	for fi := range t.Faults {
		for ri := range t.Faults[fi].Remedies {
			r := &t.Faults[fi].Remedies[ri]
			if r.Slot != engine.NoSlot && t.Slots[r.Slot].Kind == value.String {
				r.Value = remap[r.Value]
			}
		}
	}
	for ci := range t.Changes {
		c := &t.Changes[ci]
		if t.Slots[c.Slot].Kind == value.String {
			c.Old, c.New = remap[c.Old], remap[c.New]
		}
	}
	t.Strings = sorted
	for i := range t.Slots {
		if t.Slots[i].Class == engine.ClassConfig {
			w, _ := t.WordOf(b.kindDefault[engine.SlotID(i)])
			t.Slots[i].Default = w
		}
	}
}

// runWarmup settles the fault-free world, applies the faults' edits, and
// runs the warm-up ticks, all on the runtime, storing the last History rows.
func (b *build) runWarmup() {
	t := b.t
	n := len(t.Slots)
	row := make([]uint64, n)
	for i, v := range b.base {
		w, ok := t.WordOf(v)
		if !ok {
			b.errAt(b.in.DefRange, "Internal compiler error", "an initial value has no word")
			return
		}
		row[i] = w
	}
	t.InitTick = History - 1
	t.Init = make([]uint64, 0, History*n)
	for i := 0; i < History; i++ {
		t.Init = append(t.Init, row...)
	}
	t.Budget = max(t.Budget, 1)
	if t.Resolved.End == 0 {
		b.emit(engine.OpConst, 0, 1)
		t.Resolved = engine.Span{Start: int32(len(t.Code) - 1), End: int32(len(t.Code))}
	}
	// The program is final from here on: episodes of this task, the
	// warm-up's and certification's, share its derived data.
	t.Prepare()
	ep := engine.NewEpisode(t)
	ep.Reset(0)
	for i := 0; i < settleTicks; i++ {
		ep.Advance()
	}
	t.Baseline = append([]uint64(nil), ep.Row()...)
	for _, e := range b.edits {
		w, _ := t.WordOf(e.v)
		ep.Poke(e.slot, w)
	}
	for i := 0; i < b.in.Warmup; i++ {
		ep.Advance()
	}
	t.Init = ep.History()
	t.InitTick = ep.Tick()
	t.Prepare() // again: the initial state is part of what episodes share
}

// bindExpert records the expert plan. Until certification computes the
// informed optimum, the evidence set is the expert's reads and the optimal
// step count is the plan's length.
func (b *build) bindExpert() {
	t := b.t
	t.Expert = make([]string, len(b.in.Expert))
	for i, text := range b.in.Expert {
		t.Expert[i] = b.expertText(i, text)
	}
	t.Optimal = len(t.Expert)
	for i, text := range t.Expert {
		a := action.Bind(t, text)
		if a.Err == engine.ErrSyntax {
			continue // the front end reported it at its exact bytes
		}
		if a.Err != engine.OK {
			b.errAt(b.in.ExpertRange[i], "Invalid expert action", a.Err.String())
			continue
		}
		// A read of no service (list_changes()) is no evidence read: those
		// name a service.
		if t.Tools[a.Tool].Effect.IsRead() && a.Service >= 0 {
			r := engine.Read{Tool: a.Tool, Service: a.Service, Key: a.Key}
			dup := false
			for _, x := range t.Evidence {
				dup = dup || x == r
			}
			if !dup {
				t.Evidence = append(t.Evidence, r)
			}
		}
	}
}

// remedyArgs are an operate remedy's arguments with each {param.NAME} hole
// filled from the fault's parameters ("web-{param.instance}" names the
// instance the fault made bad), so the right call follows each variant.
func (b *build) remedyArgs(fu *lang.FaultUse, r lang.Remedy) []string {
	if len(r.Args) == 0 {
		return nil
	}
	out := make([]string, len(r.Args))
	for i, a := range r.Args {
		for {
			start := strings.Index(a, "{param.")
			if start < 0 {
				break
			}
			end := strings.IndexByte(a[start:], '}')
			if end < 0 {
				b.errAt(r.ArgsRange, "Bad remedy argument", fmt.Sprintf("%q opens a {param.NAME} hole it does not close.", r.Args[i]))
				break
			}
			name := a[start+len("{param.") : start+end]
			v, ok := fu.Params[name]
			if !ok {
				b.errAt(r.ArgsRange, "Bad remedy argument", fmt.Sprintf("%q names a parameter %q the fault kind does not declare.", r.Args[i], name))
				break
			}
			a = a[:start] + v.String() + a[start+end+1:]
		}
		out[i] = a
	}
	return out
}
