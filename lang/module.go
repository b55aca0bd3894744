package lang

import (
	"github.com/expr-lang/expr/ast"
	"github.com/srezc/srezc/action"
	"github.com/srezc/srezc/value"
)

// Decl is what every top-level declaration shares.
type Decl struct {
	Name        string
	NameRange   Range // the label
	DefRange    Range // the block header
	Description string
	// Broken is set when the declaration, or one it depends on, has an
	// error; later stages skip it.
	Broken bool
	// Stdlib marks declarations from the embedded standard library.
	Stdlib bool
}

// Expr is a runtime expression written inside an HCL string.
type Expr struct {
	Src   string
	Range Range // the string's contents, or the whole attribute when Exact is false
	// Exact is true when Src is the source bytes verbatim, so an offset in
	// Src is an offset in the file.
	Exact bool
	// Node is the type-checked expr tree, set by the checker.
	Node ast.Node
	Kind value.Kind
}

// Typed is a declared slot: config key, state, derived quantity or metric.
type Typed struct {
	Decl
	Kind      value.Kind
	Unit      string
	HasBand   bool
	Low, High float64
}

type ConfigKey struct {
	Typed
	Default value.Value
	// Aka are other names an engineer gives the setting ("connection
	// pool" for pool_size); a diagnosis may use any of them.
	Aka []string
}

type StateVar struct {
	Typed
	Initial value.Value
	Next    *Expr
	// Audited says the site's change history records changes of the
	// state, by its name, old -> new (a schema, a queue's declaration),
	// as it records config keys and deploys: a fault's change block may
	// introduce an edit of it.
	Audited bool
}

type Quantity struct {
	Typed
	Value     *Expr
	Precision int
	Metric    bool
	// Noise is how noise may move a metric's reads: "" or "fast", "slow"
	// or "none" (MetricNoiseClasses).
	Noise string
}

// MetricNoiseClasses are the values of a metric's noise attribute.
var MetricNoiseClasses = []string{"fast", "slow", "none"}

type StatusRule struct {
	Decl
	When *Expr
}

type LogRule struct {
	Decl
	Level string
	When  *Expr
	Parts []TextPart
	// Listing names the listing the line belongs to (a row of
	// pg_replication_slots, of rabbitmqctl list_queues): shown, as of the
	// current tick, by the tool of that listing, never in the log stream.
	// Empty: a log line.
	Listing string
}

// TextPart is a literal, an {expr} hole or an {@name} id of a log template.
// An id is a token a real system prints that varies line by line (a process
// id, a request id): the renderer draws it from the seed, the tick and the
// line, so logs never repeat the same id every tick and no id depends on
// the world's state.
type TextPart struct {
	Lit  string
	Hole *Expr
	ID   string
}

// LogIDs are the names an {@name} id of a log template may take.
var LogIDs = []string{"pid", "port", "req", "hex", "uuid", "mainpid"}

type Role struct {
	Decl
	Kind      string
	KindRange Range // the kind's value, or the block header
	Caller    bool
}

type Assignment struct {
	Name  string
	Range Range
	Value value.Value
}

// Operation is a remediation a service kind offers besides restart and
// rollback (renew a certificate, reload secrets, drain an instance): the
// states it sets, each to an expression over the service's state, config
// and roles read when it is applied.
type Operation struct {
	Decl
	// Aka are phrases a fix statement may use to say it was done.
	Aka []string
	// Args name what it acts on (arg.NAME in its sets), passed by its
	// tool after the service.
	Args      []string
	ArgsRange Range
	Sets      []OperationSet
}

// MaxOperationSets bounds the states one operation sets (the runtime
// applies them without allocating; engine.MaxOperationSets is the same).
const MaxOperationSets = 16

// MaxOperationArgs bounds an operation's args (engine.MaxOperationArgs is
// the same).
const MaxOperationArgs = 3

// OperationSet is one state an operation sets.
type OperationSet struct {
	Name  string
	Range Range
	Value *Expr
}

// ChangedKeys are what a change introducing a fault of this kind sets:
// the config keys its edits write, DeployState for a deploy, and the
// audited states (of a kind of m it applies to) it edits. A kind with
// none comes from no change (a crash, a leak, traffic, expiry).
func (f *FaultKind) ChangedKeys(m *Module) []string {
	var out []string
	for _, e := range f.Edits {
		if !e.State || e.Name == DeployState || f.editsAudited(m, e.Name) {
			out = append(out, e.Name)
		}
	}
	return out
}

// editsAudited reports whether name is an audited state of some kind the
// fault kind applies to.
func (f *FaultKind) editsAudited(m *Module, name string) bool {
	if m == nil {
		return false
	}
	for _, kn := range f.AppliesTo {
		if k := m.ServiceKind(kn); k != nil {
			if s := k.State(name); s != nil && s.Audited {
				return true
			}
		}
	}
	return false
}

// DeployState is the string state that holds a service kind's deployed
// version: a change of it is a deploy, and a rollback restores it.
const DeployState = "version"

type ServiceKind struct {
	Decl
	Roles    []*Role
	Config   []*ConfigKey
	States   []*StateVar
	Derived  []*Quantity // derived quantities and metrics, in declared order
	Statuses []*StatusRule
	Logs     []*LogRule
	Restart  []Assignment
	// Rollback is what redeploying the previous version sets, besides
	// the deployed version (DeployState) itself.
	Rollback []Assignment
	// Operations are the named remediations a tool of effect "operate"
	// applies to a service of this kind.
	Operations []*Operation
	Latency    string
	Errors     string
	// Spans are the spans the kind's traces show beside the service's
	// own (trace/span blocks), in declared order.
	Spans []*TraceSpan
	// order is the quantities in dependency order, set by the checker.
	order    []*Quantity
	TraceRng Range
	// LatencyRng and ErrorsRng are the ranges of the trace's values.
	LatencyRng, ErrorsRng Range
}

// Span kinds, as OpenTelemetry's SpanKind names them.
const (
	// SpanClient is a call the service makes to something the system
	// does not model as a service (an external API): a leaf under the
	// service's own span.
	SpanClient = "client"
	// SpanConsumer is the work a service's consumers do on what was
	// queued: a trace of its own, linked to the service's span.
	SpanConsumer = "consumer"
)

// MaxTraceSpans bounds the spans a kind's trace block declares (span ids
// have room for them; engine.MaxTraceSpans is the same).
const MaxTraceSpans = 8

// SpanKinds are the values of a span block's kind.
var SpanKinds = []string{SpanClient, SpanConsumer}

// TraceSpan is a span declared in a service kind's trace block, beside the
// service's own span.
type TraceSpan struct {
	Decl
	Kind string // SpanClient or SpanConsumer
	// Title is the span's name as a tracing UI shows it
	// ("POST api.paylane.example/v1/authorizations").
	Title string
	// Latency, Errors, Status and Wait name quantities of the kind: the
	// span's duration, error share, status word and (consumer) the time
	// the work waited in the queue.
	Latency, Errors, Status, Wait string
	// Calls are roles of the kind whose services the span calls
	// (consumer): their spans sit under it rather than under the
	// service's own.
	Calls                                                                  []string
	KindRng, TitleRng, LatencyRng, ErrorsRng, StatusRng, WaitRng, CallsRng Range
}

// Metrics lists the agent-visible quantities.
func (k *ServiceKind) Metrics() []*Quantity {
	var out []*Quantity
	for _, q := range k.Derived {
		if q.Metric {
			out = append(out, q)
		}
	}
	return out
}

type SystemService struct {
	Decl
	Kind      string
	KindRange Range
	Roles     []Binding
	// Config is the site's configuration: values that differ from the
	// kind's defaults (set_config). They are the healthy baseline, so
	// "reset every key to its default" is not a fix.
	Config []Edit
	// Vary are the keys each site variant draws (vary): a key listed here
	// takes a value drawn from its range per variant, so no incident on
	// the system shows the same site every episode.
	Vary []VaryKey
}

// VaryKey is a config key or a state a site draws from [Low, High] (a
// vary entry), or a system's traffic range.
type VaryKey struct {
	Name      string
	Low, High float64
	// Range is the whole entry; ValueRange its [LOW, HIGH].
	Range, ValueRange Range
}

// Binding binds a role of a kind to a service of a system.
type Binding struct {
	Role    string
	Service string
	Range   Range
}

type System struct {
	Decl
	Services []*SystemService
	// Fixtures make a fixture system: services given by literal
	// observations, for incidents under the sre_zero profile (reference.go).
	Fixtures []*Fixture
	// Traffic is the range the system's sites draw their client request
	// rate from (traffic = [LOW, HIGH]); nil: 300 requests/s. An incident
	// that sets traffic pins it.
	Traffic *VaryKey
}

type Param struct {
	Decl
	Kind    value.Kind
	Default value.Value
	Domain  []value.Value
}

type Remedy struct {
	Effect string // "restart_service", "update_config", "rollback" or "operate"
	Key    string
	// Operation is the service kind's operation an "operate" remedy applies.
	Operation      string
	OperationRange Range
	// Role, on an "operate" remedy, names the target's role whose service
	// the operation is applied to (the stale side of a rotated secret);
	// empty: the target itself.
	Role      string
	RoleRange Range
	// Args are an "operate" remedy's arguments after the service.
	Args      []string
	ArgsRange Range
	Value     value.Value // null: the site's value before the fault
	Range     Range
	KeyRange  Range
}

// Edit is a set_config or set_state entry whose value may read param.NAME.
type Edit struct {
	State bool
	Name  string
	Range Range
	// Eval computes the value in a scope: lang built it from the HCL
	// expression so the compiler needs no HCL.
	Eval func(EditScope) (value.Value, *Diagnostic)
}

// EditScope is what an edit's value may read: the parameters
// (param.NAME), the target's configuration and state before any fault
// (config.KEY, state.NAME: the site's values, so a fault can be stated
// against the site it lands on, "the limit set below this site's pool",
// "a ceiling at 80% of this site's working set") and the site's client
// request rate (traffic: "workers for 80% of this site's traffic"), with
// the functions floor, ceil, min and max.
type EditScope struct {
	Params, Config, State map[string]value.Value
	Traffic               float64
}

// DefaultTraffic is the client request rate of an incident that neither
// sets one nor runs on a system that draws one, and the rate edits are
// checked at.
const DefaultTraffic = 300

type FaultKind struct {
	Decl
	AppliesTo    []string
	AppliesRange Range
	// AppliesRanges and ConflictsRanges hold each list element's range.
	AppliesRanges   []Range
	ConflictsWith   []string
	ConflictsRanges []Range
	Mechanism       string
	MechRange       Range
	// AlsoMechanisms are other mechanisms a diagnosis may name for it:
	// what the fault does, where its own mechanism says why.
	AlsoMechanisms []string
	AlsoRanges     []Range
	// SymptomMechanisms are mechanisms a diagnosis may assert of the
	// target as what the fault did to it ("it crashed", "it will not
	// start"): neither wrong nor, alone, a diagnosis.
	SymptomMechanisms []string
	SymptomRanges     []Range
	Detail            string
	Params            []*Param
	Edits             []Edit
	FixedWhen         *Expr
	// Link names a role of the target's kind: the fault is on the network
	// path from the target (the client) to the service bound to that role
	// (the server). Its symptoms show on the client; a diagnosis may name
	// either end.
	Link      string
	LinkRange Range
	// FixedWhenByKind holds fixed_when checked against each kind it applies to.
	FixedWhenByKind map[string]*Expr
	Remedies        []Remedy
}

type DistractorKind struct {
	Decl
	AppliesTo     []string
	AppliesRange  Range
	AppliesRanges []Range // each element's range
	Edits         []Edit
}

type NoisePattern struct {
	Decl
	Effect    string
	EffectRng Range
	Rate      float64
	RateRng   Range
	Magnitude float64
	Lag       int
}

type ToolArg struct {
	Decl
	Type     string
	TypeRng  Range
	Optional bool
}

type Tool struct {
	Decl
	Effect    string
	EffectRng Range
	// Operation is the operation an "operate" tool applies to its service.
	Operation    string
	OperationRng Range
	// Listing is the listing a "logs" tool shows instead of the log
	// stream: the lines of that listing its service writes now.
	Listing    string
	ListingRng Range
	Args       []*ToolArg
}

type Term struct {
	Decl
	Phrases []string
	// About and States (mechanisms only) say what a diagnosis asserts
	// when it names the mechanism in its own words: a part of the service
	// ("certificate", "process"; none means the service itself) in one of
	// the states ("expired", "down"). A fault whose detail is a config key
	// is also about that key, in the state its edit puts it.
	About       []string
	States      []string
	StatesRange Range
}

type Rubric struct {
	Decl
	// Profile is "native" (the default) or "sre_zero", whose grading is
	// the reference's and takes no weights, penalties or vocabulary.
	Profile      string
	ProfileRange Range
	Weights      map[string]float64
	Penalties    map[string]float64
	Components   []*Term
	Mechanisms   []*Term
}

// FaultUse is a fault of an incident.
type FaultUse struct {
	Decl   // Name is the fault kind
	Target string
	TRange Range
	// Peer is the server end of a link fault written "CLIENT -> SERVER";
	// Target is then the client. Empty for a fault on one service.
	Peer   string
	Params map[string]value.Value
	// ParamRanges holds the range of each parameter's attribute.
	ParamRanges map[string]Range
	// Change marks the fault as introduced by a config change, which the
	// change history lists; nil: the fault came from no change.
	Change *ChangeUse
}

// ChangeUse is a change of an incident's recent history: a fault's
// (FaultUse.Change: the key, old and new values come from the fault's own
// edit, so an author never writes the answer twice) or one the incident
// declares (Incident.Changes: Service, Key and Value say what changed).
type ChangeUse struct {
	DefRange Range
	// At is when, unset (At.Set false) when the compiler draws it.
	At      ChangeTime
	AtRange Range
	// Actor is who made it; "" when the compiler draws one.
	Actor      string
	ActorRange Range
	// Key is the config key changed; on a fault's change, "" unless the
	// fault edits several config keys.
	Key          string
	KeyRange     Range
	Service      string
	ServiceRange Range
	Value        value.Value
	ValueRange   Range
}

// ChangeTime is a wall-clock time of the audit trail: a minute of a day,
// and a weekday (0 Mon … 6 Sun) or -1 for the alert's day.
type ChangeTime struct {
	Set    bool
	Day    int
	Minute int
}

// Weekdays are the day names a change time may start with.
var Weekdays = []string{"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"}

// BenignChange is a harmless tuning change of the stdlib's catalog: a key
// of some service kinds and healthy values it may take.
type BenignChange struct {
	Decl
	AppliesTo     []string
	AppliesRange  Range
	AppliesRanges []Range
	Key           string
	KeyRange      Range
	Values        []value.Value
	ValuesRange   Range
	Actors        []string
	ActorsRange   Range
	// ConflictsWith are fault kinds beside which, on the same service,
	// the change is never drawn: it would mask or worsen their symptoms.
	ConflictsWith   []string
	ConflictsRanges []Range
}

type DistractorUse struct {
	Decl
	Target string
	TRange Range
}

type NoiseUse struct {
	Decl
	Target    string
	TRange    Range
	Rate      *float64
	Magnitude *float64
	Lag       *int
}

type Incident struct {
	Decl
	Title       string
	Alert       string
	Difficulty  string
	Split       string
	Tags        []string
	Budget      int
	BudgetRange Range // the budget's value; certification points here when a plan overruns it
	System      string
	SystemRange Range
	Rubric      string
	RubricRange Range
	Traffic     float64
	// TrafficSet says the incident pins traffic; else its sites draw it
	// from the system's range, if it declares one.
	TrafficSet bool
	// DrawKey is what the incident's drawn content (site values and
	// traffic, benign changes, drawn deploys and change times) is keyed by;
	// empty: its name. A generated variant keys it by the axes that shape
	// the world, so variants differing only in axes that change nothing
	// compile to one behaviour, and a held-out variant by its secret.
	DrawKey     string
	Warmup      int
	Hold        int
	Faults      []*FaultUse
	Distractors []*DistractorUse
	Noise       []*NoiseUse
	// Changes are the further changes the incident declares (change
	// blocks), in source order.
	Changes     []*ChangeUse
	Resolved    *Expr
	Expert      []string
	ExpertRange []Range
	// ExpertCalls are the expert actions as the checker parsed them (nil
	// where one does not parse), for the index.
	ExpertCalls []*action.Call
	File        string
	// Ref holds what an incident under the sre_zero profile declares
	// (reference.go); nil when it declares none of it.
	Ref *RefSpec
}

// Module is a checked set of files plus the stdlib.
type Module struct {
	Files           []*File
	ServiceKinds    []*ServiceKind
	Systems         []*System
	FaultKinds      []*FaultKind
	DistractorKinds []*DistractorKind
	NoisePatterns   []*NoisePattern
	BenignChanges   []*BenignChange
	Tools           []*Tool
	Rubrics         []*Rubric
	Incidents       []*Incident
	Suites          []*Suite
	Mutations       []*Mutation
	SuiteSpecs      []*SuiteSpec
	// embedded loads the embedded default (scenarios and mutations) when a
	// name the module does not declare is looked up as a mutation or a
	// mutation's base; nil when the module was analysed against another
	// standard library, or is the embedded default itself.
	embedded func() *Module
}

// File is one source file.
type File struct {
	Name   string
	Src    []byte
	Stdlib bool
	// index maps Src's byte offsets to lines and columns; see lines.
	index *fileIndex
}

func findDecl[T interface{ decl() *Decl }](list []T, name string) T {
	var zero T
	for _, x := range list {
		if x.decl().Name == name {
			return x
		}
	}
	return zero
}

func (d *Decl) decl() *Decl { return d }

func (m *Module) ServiceKind(name string) *ServiceKind { return findDecl(m.ServiceKinds, name) }
func (m *Module) System(name string) *System           { return findDecl(m.Systems, name) }
func (m *Module) FaultKind(name string) *FaultKind     { return findDecl(m.FaultKinds, name) }
func (m *Module) DistractorKind(name string) *DistractorKind {
	return findDecl(m.DistractorKinds, name)
}
func (m *Module) NoisePattern(name string) *NoisePattern { return findDecl(m.NoisePatterns, name) }
func (m *Module) Suite(name string) *Suite               { return findDecl(m.Suites, name) }
func (m *Module) SuiteSpec(name string) *SuiteSpec       { return findDecl(m.SuiteSpecs, name) }
func (m *Module) Rubric(name string) *Rubric             { return findDecl(m.Rubrics, name) }
func (m *Module) Incident(name string) *Incident         { return findDecl(m.Incidents, name) }

// Mutation is the module's mutation of that name, else the embedded
// default's: a module may name the embedded mutations (in a suite_spec,
// with srezc mutate --mutation) without copying them, and its own
// declaration of a name shadows the embedded one.
func (m *Module) Mutation(name string) *Mutation {
	if mu := findDecl(m.Mutations, name); mu != nil || m.embedded == nil {
		return mu
	}
	return findDecl(m.embedded().Mutations, name)
}

// MutationBase is the incident a mutation varies. A mutation of the module
// names its base among the module's incidents, else the embedded default's
// (so "from = \"mq_backlog\"" works in any folder, and a local mq_backlog
// shadows the embedded one). An embedded mutation keeps the embedded base
// it was written for, whatever the module declares.
func (m *Module) MutationBase(mu *Mutation) *Incident {
	if m.embedded == nil {
		return m.Incident(mu.From)
	}
	// Compared by position, not pointer: srezc mutate overrides a
	// copy's axes.
	if own := findDecl(m.Mutations, mu.Name); own == nil || own.DefRange != mu.DefRange {
		return m.embedded().Incident(mu.From)
	}
	if in := m.Incident(mu.From); in != nil {
		return in
	}
	return m.embedded().Incident(mu.From)
}

// IsEmbedded reports whether an incident or mutation the module resolved
// comes from the embedded default rather than from the module's files.
func (m *Module) IsEmbedded(d *Decl) bool {
	if m.embedded == nil {
		return false
	}
	for _, x := range m.decls() {
		if x == d {
			return false
		}
	}
	return true
}

// EmbeddedNames are the names of the embedded default's incidents and
// mutations a module may use as bases; none when the module cannot.
func (m *Module) EmbeddedNames() (incidents, mutations []string) {
	if m.embedded == nil {
		return nil, nil
	}
	e := m.embedded()
	return names(e.Incidents), MutationNames(e)
}

// Names of a kind's items, used for did-you-mean and completion.
func (k *ServiceKind) ConfigKey(name string) *ConfigKey { return findDecl(k.Config, name) }

// Defaults are the kind's documented config values by key: what config.KEY
// reads in an edit checked against the kind rather than a site.
func (k *ServiceKind) Defaults() map[string]value.Value {
	out := make(map[string]value.Value, len(k.Config))
	for _, ck := range k.Config {
		out[ck.Name] = ck.Default
	}
	return out
}

// Initials are the kind's states at their initial values.
func (k *ServiceKind) Initials() map[string]value.Value {
	out := make(map[string]value.Value, len(k.States))
	for _, s := range k.States {
		out[s.Name] = s.Initial
	}
	return out
}

func (k *ServiceKind) State(name string) *StateVar { return findDecl(k.States, name) }
func (k *ServiceKind) Operation(name string) *Operation {
	return findDecl(k.Operations, name)
}

// deployKey is the kind's deployed version seen as a key a change may
// set (a deploy), or nil when key names no such state: a string state
// DeployState, with no band.
func (k *ServiceKind) deployKey(key string) *ConfigKey {
	s := k.State(key)
	if key != DeployState || s == nil || s.Kind != value.String {
		return nil
	}
	return &ConfigKey{Typed: s.Typed, Default: s.Initial}
}
func (k *ServiceKind) Quantity(name string) *Quantity { return findDecl(k.Derived, name) }
func (k *ServiceKind) Role(name string) *Role         { return findDecl(k.Roles, name) }
func (s *System) Service(name string) *SystemService  { return findDecl(s.Services, name) }
func (f *FaultKind) Param(name string) *Param         { return findDecl(f.Params, name) }

// NamedDecl is a declaration with what kind of thing it declares.
type NamedDecl struct {
	Kind string
	Decl *Decl
}

// AllDecls lists every top-level declaration of the module, in kind order
// and source order within a kind.
func (m *Module) AllDecls() []NamedDecl {
	var out []NamedDecl
	add := func(kind string, ds []*Decl) {
		for _, d := range ds {
			out = append(out, NamedDecl{kind, d})
		}
	}
	add("service_kind", declsOf(m.ServiceKinds))
	add("system", declsOf(m.Systems))
	add("fault_kind", declsOf(m.FaultKinds))
	add("distractor_kind", declsOf(m.DistractorKinds))
	add("noise_pattern", declsOf(m.NoisePatterns))
	add("benign_change", declsOf(m.BenignChanges))
	add("tool", declsOf(m.Tools))
	add("rubric", declsOf(m.Rubrics))
	add("incident", declsOf(m.Incidents))
	add("suite", declsOf(m.Suites))
	add("mutation", declsOf(m.Mutations))
	add("suite_spec", declsOf(m.SuiteSpecs))
	return out
}

// Decls are the top-level declarations named name.
func (m *Module) Decls(name string) []*Decl {
	var out []*Decl
	for _, d := range m.AllDecls() {
		if d.Decl.Name == name {
			out = append(out, d.Decl)
		}
	}
	return out
}

func declsOf[T interface{ decl() *Decl }](list []T) []*Decl {
	out := make([]*Decl, len(list))
	for i, x := range list {
		out[i] = x.decl()
	}
	return out
}
