package engine

import (
	"reflect"
	"slices"

	"github.com/srezc/srezc/srezero"
	"github.com/srezc/srezc/value"
)

// FormatVersion changes whenever the meaning or encoding of the IR changes;
// DecodeTask rejects any other version.
const FormatVersion = 11

// RendererVersion changes whenever an agent-visible rendering changes.
const RendererVersion = "obs/10"

// RubricVersion versions grading: how rewards, their components, the
// metrics and success are computed from an episode. Bump it when any of
// them changes meaning, so that results of different versions are never
// compared as if they were alike.
const RubricVersion = 7

// StrID indexes Task.Strings; ids at or past len(Task.Strings) name strings
// an agent wrote during one episode.
type StrID uint32

// SlotID indexes Task.Slots and every row.
type SlotID int32

// NoSlot marks an absent slot.
const NoSlot SlotID = -1

// SlotClass says what a slot holds.
type SlotClass uint8

const (
	ClassConfig  SlotClass = iota // an agent-visible, writable config key
	ClassState                    // hidden process state, advanced each tick
	ClassDerived                  // a derived quantity
	ClassMetric                   // an agent-visible metric
	ClassStatus                   // the service status, a string
	ClassLog                      // whether a log rule fires this tick
	ClassHole                     // a value interpolated into a log line
)

var classNames = [...]string{"config", "state", "derived", "metric", "status", "log", "hole"}

func (c SlotClass) String() string {
	if int(c) < len(classNames) {
		return classNames[c]
	}
	return "class?"
}

// Slot describes one word of every row.
type Slot struct {
	Service   int16      `json:"service"`
	Class     SlotClass  `json:"class"`
	Name      string     `json:"name"`
	Kind      value.Kind `json:"kind"`
	Unit      string     `json:"unit,omitempty"`
	Precision int8       `json:"precision,omitempty"` // decimals shown for floats; -1 = shortest exact form
	Default   uint64     `json:"default,omitempty"`   // config default word
	HasBand   bool       `json:"has_band,omitempty"`
	Low       float64    `json:"low,omitempty"`
	High      float64    `json:"high,omitempty"`
	// Noise is how noise may move a metric's reads.
	Noise MetricNoise `json:"noise,omitempty"`
}

// Assign sets a slot from a program; restarts are lists of them.
type Assign struct {
	Slot SlotID `json:"slot"`
	Code Span   `json:"code"`
}

// Service is one service instance of the incident's system.
type Service struct {
	Name      string   `json:"name"`
	Kind      string   `json:"kind"`
	Deps      []int16  `json:"deps,omitempty"`
	DepRoles  []string `json:"dep_roles,omitempty"`
	Config    []SlotID `json:"config"`
	Metrics   []SlotID `json:"metrics"`
	Status    SlotID   `json:"status"`
	Logs      []int32  `json:"logs"`
	Latency   SlotID   `json:"latency"`
	ErrorRate SlotID   `json:"error_rate"`
	// Spans are the spans its traces show beside its own (trace.go).
	Spans   []TraceSpan `json:"spans,omitempty"`
	Restart []Assign    `json:"restart,omitempty"`
	// Rollback is what redeploying the previous version sets besides the
	// version itself (the process restarts on the old build).
	Rollback []Assign `json:"rollback,omitempty"`
	// Operations are the operations its kind declares, by Task.Operations
	// index, each with what applying it sets.
	Operations []ServiceOperation `json:"operations,omitempty"`
}

// MaxOperationSets bounds the states one operation sets, so that applying
// it needs no allocation.
const MaxOperationSets = 16

// ServiceOperation is what applying an operation to one service sets.
type ServiceOperation struct {
	Op      int16    `json:"op"`
	Assigns []Assign `json:"assigns"`
}

// Operation names an operation of the task's service kinds; Aka are
// phrases a fix statement may use to say it was done.
type Operation struct {
	Name string   `json:"name"`
	Aka  []string `json:"aka,omitempty"`
}

// TextPart is a literal, a hole or an id of a log template. An id (ID not
// LogIDNone, Hole NoSlot) is drawn by the renderer from the seed, the tick
// and the line, never from state: what a real system prints that changes
// line by line (a pid, a request id).
type TextPart struct {
	Lit  string `json:"lit,omitempty"`
	Hole SlotID `json:"hole"`
	ID   LogID  `json:"id,omitempty"`
}

// LogID is the form of an id a log line draws.
type LogID uint8

const (
	LogIDNone    LogID = iota
	LogIDPid           // a process id, 1000..65535
	LogIDPort          // an ephemeral client port, 32768..60999
	LogIDReq           // a request id, 16 hex digits
	LogIDHex           // a short id, 8 hex digits
	LogIDUUID          // a UUID
	LogIDMainPid       // the service's main process id: one per episode
	logIDCount
)

var logIDNames = [logIDCount]string{"", "pid", "port", "req", "hex", "uuid", "mainpid"}

// LogIDByName is the id an {@name} of a log template names (lang.LogIDs).
func LogIDByName(name string) (LogID, bool) {
	for i, n := range logIDNames {
		if i > 0 && n == name {
			return LogID(i), true
		}
	}
	return LogIDNone, false
}

// LogRule is one line a service writes while Active holds.
type LogRule struct {
	Service int16      `json:"service"`
	Level   string     `json:"level"`
	Active  SlotID     `json:"active"`
	Parts   []TextPart `json:"parts"`
	// Listing names the listing the line is a row of; a logs tool of that
	// listing shows it as of the current tick, and the log stream never
	// does. Empty: a log line.
	Listing string `json:"listing,omitempty"`
}

// Effect is what a tool does; tools are declared in the stdlib and bound to
// one of these built-in behaviours.
type Effect uint8

const (
	EffectLogs Effect = iota
	EffectMetrics
	EffectConfig
	EffectStatus
	EffectTraces
	EffectDependencies
	// EffectChanges lists the site's recent change history (Task.Changes),
	// of one service or of all.
	EffectChanges
	EffectRestart
	EffectUpdate
	EffectEscalate
	EffectResolve
	// EffectRollback redeploys a service's previous version: the old
	// version of its newest deploy in the change history. It comes last so
	// that older IR keeps its numbering; Rank places it among the writes.
	EffectRollback
	// EffectOperate applies a named operation (Tool.Operation) that the
	// service's kind declares: a list of state assignments.
	EffectOperate
	effectCount
)

var effectNames = [...]string{"logs", "metrics", "config", "status", "traces", "dependencies", "changes", "restart", "update", "escalate", "resolve", "rollback", "operate"}

// Rank orders effects as tools are listed: reads, then writes, then the
// tools that end the episode.
func (e Effect) Rank() int {
	if e == EffectRollback || e == EffectOperate {
		return int(EffectUpdate)*2 + 1
	}
	return int(e) * 2
}

func (e Effect) String() string {
	if int(e) < len(effectNames) {
		return effectNames[e]
	}
	return "effect?"
}

// ParseEffect maps a stdlib effect name to an Effect.
func ParseEffect(s string) (Effect, bool) {
	for i, n := range effectNames {
		if n == s {
			return Effect(i), true
		}
	}
	return 0, false
}

// EffectNames lists the effects a tool may bind to.
func EffectNames() []string { return append([]string(nil), effectNames[:]...) }

// IsRead reports whether the effect only observes.
func (e Effect) IsRead() bool { return e <= EffectChanges }

// ArgType is the type of a tool argument.
type ArgType uint8

const (
	ArgService ArgType = iota
	ArgConfigKey
	ArgValue
	ArgText
	// ArgIdentifier is a name an operation acts on (a table, a column, an
	// instance, a replication slot), written as the system prints it.
	ArgIdentifier
	// ArgAddress is a client's IPv4 address, as access logs print it.
	ArgAddress
)

var argTypeNames = [...]string{"service", "config_key", "value", "text", "identifier", "ip_address"}

// IsName reports whether an argument of the type is passed to an
// operation (Action.Names).
func (a ArgType) IsName() bool { return a == ArgIdentifier || a == ArgAddress }

// MaxOperationArgs bounds the identifiers and addresses an operation
// takes (Action.Names, OpArg).
const MaxOperationArgs = 3

func (a ArgType) String() string {
	if int(a) < len(argTypeNames) {
		return argTypeNames[a]
	}
	return "arg?"
}

// ParseArgType maps a stdlib argument type name to an ArgType.
func ParseArgType(s string) (ArgType, bool) {
	for i, n := range argTypeNames {
		if n == s {
			return ArgType(i), true
		}
	}
	return 0, false
}

// ToolArg is one parameter of a tool.
type ToolArg struct {
	Name     string  `json:"name"`
	Type     ArgType `json:"type"`
	Optional bool    `json:"optional,omitempty"`
	Doc      string  `json:"doc,omitempty"`
}

// Tool is one action an agent may take.
type Tool struct {
	Name   string    `json:"name"`
	Effect Effect    `json:"effect"`
	Args   []ToolArg `json:"args"`
	Doc    string    `json:"doc,omitempty"`
	// Operation is the Task.Operations index an EffectOperate tool applies.
	Operation int16 `json:"operation,omitempty"`
	// Listing is the listing an EffectLogs tool shows instead of the log
	// stream (LogRule.Listing); empty: the stream.
	Listing string `json:"listing,omitempty"`
}

// Remedy is one canonical fix of a fault: a restart of its service, a
// config key set to a value, or a rollback of its service's deploy (Slot:
// the deployed version).
type Remedy struct {
	Effect  Effect `json:"effect"`
	Service int16  `json:"service"`
	Slot    SlotID `json:"slot"`
	Value   uint64 `json:"value"`
	// Operation is the Task.Operations index an EffectOperate remedy applies.
	Operation int16 `json:"operation,omitempty"`
	// Args are the identifiers and addresses an EffectOperate remedy passes
	// its operation, in the tool's order: the right table, client or
	// instance. Only that call is the remedy.
	Args []string `json:"args,omitempty"`
}

// Change is one entry of the site's recent change history, which a tool
// with EffectChanges lists newest first (Task.Changes is kept in that
// order): a config key of a service set from Old to New (slot words) by
// Actor at Minute. Fault is grader-side and never rendered: the index of
// the fault the change introduced, -1 for a benign change, so a fault's
// change is shown exactly as a benign one is.
type Change struct {
	// Minute is the minute of the week (0: Monday 00:00) it was made; a
	// change is at most a week older than the alert (Task.AlertMinute).
	Minute  int32  `json:"minute"`
	Actor   string `json:"actor"`
	Service int16  `json:"service"`
	Slot    SlotID `json:"slot"`
	Old     uint64 `json:"old"`
	New     uint64 `json:"new"`
	Fault   int16  `json:"fault"`
}

// DeployState is the name of the string state that holds a service's
// deployed version (lang.DeployState, which the compiler lowers under
// this name): a change of it is a deploy, which rollback undoes. A change
// of another state (an audited one: a schema, a queue's declaration) is
// listed by the state's name and no rollback undoes it.
const DeployState = "version"

// IsDeploy reports whether a change history entry is a deploy.
func (t *Task) IsDeploy(c *Change) bool {
	sl := &t.Slots[c.Slot]
	return sl.Class != ClassConfig && sl.Name == DeployState
}

// MinutesPerWeek is the span of the change history's clock.
const MinutesPerWeek = 7 * 24 * 60

// Age is how many minutes before the alert a change was made, in (0, a
// week].
func (t *Task) Age(c *Change) int {
	age := (int(t.AlertMinute) - int(c.Minute)) % MinutesPerWeek
	if age <= 0 {
		age += MinutesPerWeek
	}
	return age
}

// Fault is grader-side: nothing here is rendered to an agent.
type Fault struct {
	Kind      string `json:"kind"`
	Service   int16  `json:"service"`
	Mechanism int16  `json:"mechanism"`
	// Also are other mechanisms a diagnosis may name for it: what it
	// does where Mechanism says why ("the release leaks memory").
	Also []int16 `json:"also,omitempty"`
	// Shows are mechanisms a diagnosis may assert of the fault's service
	// as what the fault did to it ("it crashed": the volume was full):
	// asserting one is not wrong, and diagnoses nothing.
	Shows []int16 `json:"shows,omitempty"`

	// Link holds the server end of a fault on the network path from
	// Service (the client) to it: a diagnosis may name either end.
	Link     []int16  `json:"link,omitempty"`
	Detail   string   `json:"detail,omitempty"`
	Fixed    Span     `json:"fixed"`
	Remedies []Remedy `json:"remedies"`
}

// OutOfReach reports whether every fault of the task is outside the
// agent's reach: its only remedy is to escalate (an external dependency,
// another team's link or host). Such a task succeeds by escalating with
// the right cause, and every write is a wrong change.
func (t *Task) OutOfReach() bool {
	if len(t.Faults) == 0 {
		return false
	}
	for i := range t.Faults {
		rs := t.Faults[i].Remedies
		if len(rs) != 1 || rs[0].Effect != EffectEscalate {
			return false
		}
	}
	return true
}

// Term is one entry of the closed diagnosis vocabulary. Phrases are
// normalised (lower case, words separated by single spaces).
type Term struct {
	Name    string   `json:"name"`
	Phrases []string `json:"phrases"`
}

// NoiseEffect is a built-in noise behaviour.
type NoiseEffect uint8

const (
	NoiseSpike NoiseEffect = iota
	NoiseJitter
	NoiseStale
	NoisePhantomRestart
	// NoiseHealthCheckFlap: a load balancer's health check of a backend
	// fails once and passes again the next tick, without the backend
	// leaving rotation.
	NoiseHealthCheckFlap
	// NoiseRetry: a client retries a request once and it succeeds.
	NoiseRetry
	// NoiseWarning: a routine warning the service prints whatever its
	// state (a deprecation, a client's stray statement).
	NoiseWarning
	noiseCount
)

var noiseNames = [...]string{"spike", "jitter", "stale", "phantom_restart", "health_check_flap", "retry", "warning"}

// MetricNoise is how noise may move a metric's reads.
type MetricNoise uint8

const (
	// MetricNoiseFast: jitter at the pattern's amplitude; a latency (a
	// metric in ms) also takes spikes.
	MetricNoiseFast MetricNoise = iota
	// MetricNoiseSlow: a gauge that moves slowly (disk or memory use),
	// jittered at a tenth of the amplitude and never spiked.
	MetricNoiseSlow
	// MetricNoiseNone: a value the system knows exactly (a count of
	// backends, a certificate's days left); noise never moves it.
	MetricNoiseNone
	metricNoiseCount
)

var metricNoiseNames = [...]string{"fast", "slow", "none"}

// ParseMetricNoise maps a metric's noise attribute ("" is fast).
func ParseMetricNoise(s string) (MetricNoise, bool) {
	if s == "" {
		return MetricNoiseFast, true
	}
	for i, n := range metricNoiseNames {
		if n == s {
			return MetricNoise(i), true
		}
	}
	return 0, false
}

func (n NoiseEffect) String() string {
	if int(n) < len(noiseNames) {
		return noiseNames[n]
	}
	return "noise?"
}

// ParseNoiseEffect maps a stdlib noise effect name to a NoiseEffect.
func ParseNoiseEffect(s string) (NoiseEffect, bool) {
	for i, n := range noiseNames {
		if n == s {
			return NoiseEffect(i), true
		}
	}
	return 0, false
}

// NoiseEffectNames lists the noise behaviours.
func NoiseEffectNames() []string { return append([]string(nil), noiseNames[:]...) }

// Noise changes only what tools show, never a slot.
type Noise struct {
	Effect    NoiseEffect `json:"effect"`
	Service   int16       `json:"service"` // -1: every service
	Rate      float64     `json:"rate"`    // chance per tick and metric
	Magnitude float64     `json:"magnitude"`
	Lag       int32       `json:"lag,omitempty"`
}

// Read is one observation an agent can make: a read tool on a service and,
// for inspect_config, a key.
type Read struct {
	Tool    int16  `json:"tool"`
	Service int16  `json:"service"`
	Key     SlotID `json:"key"`
}

// Rubric holds the reward weights and penalties of the native profile.
type Rubric struct {
	Name string `json:"name"`

	Evidence   float64 `json:"evidence"`
	Diagnosis  float64 `json:"diagnosis"`
	Mitigation float64 `json:"mitigation"`
	Resolution float64 `json:"resolution"`
	Efficiency float64 `json:"efficiency"`

	InvalidAction         float64 `json:"invalid_action"`
	RepeatedInvalidAction float64 `json:"repeated_invalid_action"`
	RepeatedUselessAction float64 `json:"repeated_useless_action"`
	WrongChange           float64 `json:"wrong_change"`
	RestartHealthy        float64 `json:"restart_healthy"`
	DistractorAction      float64 `json:"distractor_action"`
	PrematureResolution   float64 `json:"premature_resolution"`
}

// Task is one compiled incident.
type Task struct {
	Format     int      `json:"format"`
	ID         string   `json:"id"`
	Title      string   `json:"title"`
	Alert      string   `json:"alert"`
	Difficulty string   `json:"difficulty"`
	Split      string   `json:"split"`
	Tags       []string `json:"tags,omitempty"`
	Budget     int      `json:"budget"`
	Hold       int      `json:"hold"`

	Strings  []string  `json:"strings"`
	Slots    []Slot    `json:"slots"`
	Services []Service `json:"services"`
	Code     []Op      `json:"code"`
	Updates  []Assign  `json:"updates"`
	Logs     []LogRule `json:"logs"`
	Tools    []Tool    `json:"tools"`
	// Operations names the operations tools and service kinds refer to.
	Operations []Operation `json:"operations,omitempty"`
	// Resolved is the author's resolved_when, which adds conditions to
	// mitigation (mitigation.go); without one it is the constant true.
	Resolved Span `json:"resolved"`
	// AlertSlots are the slots whose symptom raised the alert: the
	// alerting service's status and banded metrics that were anomalous
	// at step 1 (compiler, DeriveAlert). The alert's condition holds
	// while any of them is anomalous (SlotAnomalous).
	AlertSlots []SlotID `json:"alert_slots,omitempty"`

	Faults []Fault `json:"faults"`
	// AlertMinute is when the alert fired, a minute of the week; Changes
	// is the site's recent change history before it, newest first.
	AlertMinute int32    `json:"alert_minute,omitempty"`
	Changes     []Change `json:"changes,omitempty"`
	Distractors []int16  `json:"distractors,omitempty"`
	Noise       []Noise  `json:"noise,omitempty"`
	Components  []Term   `json:"components"`
	Mechanisms  []Term   `json:"mechanisms"`
	// Claims are what a diagnosis may assert about each service
	// (diagnose.go).
	Claims []Claim `json:"claims,omitempty"`
	Rubric Rubric  `json:"rubric"`

	Expert   []string `json:"expert"`
	Evidence []Read   `json:"evidence"`
	Optimal  int      `json:"optimal"`
	// Plan is the certified informed optimum as text actions: the
	// evidence reads, the fewest canonical fixes, any reads the world
	// needs to recover before the grader's hold, and the resolution.
	Plan []string `json:"plan,omitempty"`

	// Certified is the compiler's verdict (package certify); the
	// reasons are listed when it is false.
	Certified   bool     `json:"certified"`
	Uncertified []string `json:"uncertified,omitempty"`

	// Profile is the rubric profile ("" or ProfileNative, or
	// ProfileSreZero); Ref holds the sre_zero world and grading spec
	// (package srezero) and is nil under native.
	Profile string        `json:"profile,omitempty"`
	Ref     *srezero.Task `json:"ref,omitempty"`

	History  int      `json:"history"` // rows kept in the ring
	InitTick int      `json:"init_tick"`
	Init     []uint64 `json:"init"` // History rows, oldest first, ending at InitTick
	// Baseline is the site's settled fault-free row, before the faults'
	// edits: what its metrics read at this hour on a normal day. Metrics
	// reads show it beside their window; empty in tasks without a warm-up.
	Baseline []uint64 `json:"baseline,omitempty"`

	// Sites are the task's other site variants: the same incident compiled
	// on other draws of its system's site (capacity and tuning drawn within
	// the system's declared ranges), each complete with its own initial
	// state, change history, remedies, expert plan and certification, and
	// the same slots, strings, services and tools. Site(seed) picks the one
	// an episode plays; the task itself is variant 0. Empty when the
	// system draws nothing.
	Sites []*Task `json:"sites,omitempty"`

	Hash string `json:"hash,omitempty"`
	// Behaviour is the hex BodyHash the compiler sealed Hash with: the same
	// for tasks that differ only in id. Not part of the IR.
	Behaviour string `json:"-"`

	prepared *prepared // see Prepare; not part of the IR
}

// SiteCount is how many site variants the task has: itself and Sites.
func (t *Task) SiteCount() int { return 1 + len(t.Sites) }

// Site is the site variant an episode of seed plays: variant seed mod
// SiteCount, where 0 is t itself. Every variant carries t's Hash.
func (t *Task) Site(seed uint64) *Task {
	if len(t.Sites) == 0 {
		return t
	}
	k := seed % uint64(1+len(t.Sites))
	if k == 0 {
		return t
	}
	return t.Sites[k-1]
}

// ShareSites makes every site variant share with the task the parts they
// hold equal (program, slots, strings, services, tools, vocabulary), so a
// variant costs memory, and an episode switching variants costs cache, only
// for what differs: its initial state, history, remedies and plans. Call
// it before Prepare.
func (t *Task) ShareSites() {
	for _, s := range t.Sites {
		if s == nil {
			continue
		}
		share(&s.Code, t.Code)
		share(&s.Updates, t.Updates)
		share(&s.Slots, t.Slots)
		share(&s.Strings, t.Strings)
		share(&s.AlertSlots, t.AlertSlots)
		shareDeep(&s.Logs, t.Logs)
		shareDeep(&s.Services, t.Services)
		shareDeep(&s.Tools, t.Tools)
		shareDeep(&s.Noise, t.Noise)
		shareDeep(&s.Components, t.Components)
		shareDeep(&s.Mechanisms, t.Mechanisms)
		shareDeep(&s.Claims, t.Claims)
	}
}

func share[S ~[]E, E comparable](dst *S, src S) {
	if slices.Equal(*dst, src) {
		*dst = src
	}
}

func shareDeep[S ~[]E, E any](dst *S, src S) {
	if reflect.DeepEqual(*dst, src) {
		*dst = src
	}
}

// StatusHealthy is the status word every service kind uses for health.
const StatusHealthy = "healthy"

// ServiceIndex finds a service by name.
func (t *Task) ServiceIndex(name string) int {
	for i := range t.Services {
		if t.Services[i].Name == name {
			return i
		}
	}
	return -1
}

// ToolIndex finds a tool by name.
func (t *Task) ToolIndex(name string) int {
	for i := range t.Tools {
		if t.Tools[i].Name == name {
			return i
		}
	}
	return -1
}

// ConfigSlot finds a config key of a service.
func (t *Task) ConfigSlot(service int, key string) SlotID {
	if service < 0 || service >= len(t.Services) {
		return NoSlot
	}
	for _, s := range t.Services[service].Config {
		if t.Slots[s].Name == key {
			return s
		}
	}
	return NoSlot
}

// StringID finds a task string; Strings is sorted so this is a binary search.
func (t *Task) StringID(s string) (StrID, bool) {
	lo, hi := 0, len(t.Strings)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if t.Strings[m] < s {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(t.Strings) && t.Strings[lo] == s {
		return StrID(lo), true
	}
	return 0, false
}

// WordOf encodes a value as a slot word of kind k, interning task strings.
// It reports false for a string the task does not hold.
func (t *Task) WordOf(v value.Value) (uint64, bool) {
	switch v.K {
	case value.Int:
		return uint64(v.I), true
	case value.Float:
		return f2w(v.F), true
	case value.Bool:
		return b2w(v.B), true
	case value.String:
		id, ok := t.StringID(v.S)
		return uint64(id), ok
	}
	return 0, false
}

// ValueOf decodes a slot word of kind k holding a task string.
func (t *Task) ValueOf(k value.Kind, w uint64) value.Value {
	switch k {
	case value.Int:
		return value.OfInt(int64(w))
	case value.Float:
		return value.OfFloat(w2f(w))
	case value.Bool:
		return value.OfBool(w != 0)
	case value.String:
		if int(w) < len(t.Strings) {
			return value.OfString(t.Strings[w])
		}
	}
	return value.Value{}
}

// Row returns the initial row at tick InitTick.
func (t *Task) Row() []uint64 {
	n := len(t.Slots)
	return t.Init[(t.History-1)*n : t.History*n]
}

// Shown is one slot value a read renders: the slot's word at a tick, shown
// only while Guard is true at that tick (a log line's hole, guarded by the
// line's Active slot; NoSlot: always shown), a float with Digits decimals
// (-1: the shortest form, every bit shows).
type Shown struct {
	Slot   SlotID
	Guard  SlotID
	Tick   int32
	Digits int8
}

// AppendReadSlots appends what read r renders, noise off, when the current
// tick is tick: the slots the renderer (render.go) reads, and at which
// ticks. Certification compares worlds on these words rather than on text.
func (t *Task) AppendReadSlots(dst []Shown, r Read, tick int) []Shown {
	if r.Tool < 0 || int(r.Tool) >= len(t.Tools) || r.Service < 0 || int(r.Service) >= len(t.Services) {
		return dst
	}
	s := &t.Services[r.Service]
	digits := func(sl SlotID) int8 {
		if p := t.Slots[sl].Precision; p >= 0 && t.Slots[sl].Kind == value.Float {
			return p
		}
		return -1
	}
	at := func(sl SlotID, k int, d int8) Shown { return Shown{Slot: sl, Guard: NoSlot, Tick: int32(k), Digits: d} }
	status := func(dst []Shown, svc int) []Shown {
		if st := t.Services[svc].Status; st != NoSlot {
			dst = append(dst, at(st, tick, -1))
		}
		return dst
	}
	switch t.Tools[r.Tool].Effect {
	case EffectLogs:
		listing := t.Tools[r.Tool].Listing
		first := tick - logWindow + 1
		if listing != "" {
			first = tick // a listing shows the current tick's rows
		}
		for k := first; k <= tick; k++ {
			for _, li := range s.Logs {
				lr := &t.Logs[li]
				if lr.Listing != listing {
					continue
				}
				dst = append(dst, at(lr.Active, k, -1))
				for _, p := range lr.Parts {
					if p.Hole != NoSlot {
						dst = append(dst, Shown{Slot: p.Hole, Guard: lr.Active, Tick: int32(k), Digits: digits(p.Hole)})
					}
				}
			}
		}
	case EffectMetrics:
		for _, m := range s.Metrics {
			for k := tick - metricWindow + 1; k <= tick; k++ {
				dst = append(dst, at(m, k, digits(m)))
			}
		}
	case EffectConfig:
		for _, c := range s.Config {
			if r.Key == NoSlot || r.Key == c {
				dst = append(dst, at(c, tick, digits(c)))
			}
		}
	case EffectStatus:
		dst = status(dst, int(r.Service))
	case EffectTraces:
		dst = t.appendTraceReadSlots(dst, int(r.Service), tick, status, at)
	case EffectDependencies:
		for _, d := range s.Deps {
			dst = status(dst, int(d))
		}
	}
	return dst
}
