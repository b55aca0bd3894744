package srezero

import (
	"bytes"
	"strings"

	"github.com/srezc/srezc/record"
	"github.com/srezc/srezc/value"
)

// The reference's step (spec §4.3–4.7), matching rules (§5) and reward
// bookkeeping (§6), bit for bit. engine keeps what both profiles share
// (the step count, whether the episode is over and why, the
// EpisodeMetrics it records); the rest lives in State.
//
// Floats: every reward number is computed in the reference's order of
// operations. raw_total is Python's sum() over the five components, in
// order, plus sum() over the six penalties, in order; each sum starts at
// 0 and adds left to right (CPython before 3.12, which the golden
// episodes were recorded with; 3.12's compensated float sum gives other
// bits in the last place). A penalty accumulates by adding its negative
// constant; a component is assigned, never added to.

// RestartLog is the line a restart appends to the service's logs.
const RestartLog = "INFO service restarted by incident responder"

// Reward components and penalties, in the reference's dict order (which is
// its summation order).
const (
	partEvidence = iota
	partRootCause
	partRemediation
	partResolution
	partEfficiency
	partCount
)

const (
	penInvalid = iota
	penRepeatedInvalid
	penWrongRemediation
	penPremature
	penRestartUnrelated
	penRepeatedUseless
	penCount
)

var partMax = [partCount]float64{0.20, 0.25, 0.25, 0.20, 0.10}

var penValue = [penCount]float64{-0.05, -0.10, -0.15, -0.20, -0.10, -0.05}

// Breakdown is the reference's RewardBreakdown (spec §1.5): the current
// components and penalties, raw_total and total, shaped and ordered as
// its JSON.
type Breakdown struct {
	Components RewardParts `json:"components"`
	Penalties  Penalties   `json:"penalties"`
	RawTotal   float64     `json:"raw_total"`
	Total      float64     `json:"total"`
}

// RewardParts are the five components; each is set, never summed twice.
type RewardParts struct {
	Evidence    float64 `json:"evidence"`
	RootCause   float64 `json:"root_cause"`
	Remediation float64 `json:"remediation"`
	Resolution  float64 `json:"resolution"`
	Efficiency  float64 `json:"efficiency"`
}

// Penalties are the six penalties, negative, accumulated without bound.
type Penalties struct {
	InvalidAction           float64 `json:"invalid_action"`
	RepeatedInvalidAction   float64 `json:"repeated_invalid_action"`
	WrongRemediation        float64 `json:"wrong_remediation"`
	PrematureResolution     float64 `json:"premature_resolution"`
	RestartUnrelatedService float64 `json:"restart_unrelated_service"`
	RepeatedUselessAction   float64 `json:"repeated_useless_action"`
}

// evidenceKey is a relevant-evidence key split at its first two colons:
// "action_type:service[:KEY]". Keys of another shape never match.
type evidenceKey struct {
	typ, service, key string
	hasService        bool
	hasKey            bool
	// first is the index of the first evidence entry with the same key:
	// the reference keeps found keys in a set.
	first int
}

// State is an sre_zero episode's own state: the world as the agent's
// writes and restarts left it, and the reward bookkeeping.
type State struct {
	task   *Task
	budget int

	keys []evidenceKey
	// found is indexed by an entry's first index; order lists the entries
	// in the order they were found (the order of known_findings).
	found  []bool
	nFound int
	order  []int32

	// The world: a restarted service is healthy and has one restart line
	// per restart after its fixture logs; config starts as the fixture's
	// and has room for one new key per step (a write never allocates).
	restarts []int32
	config   [][]Field

	remediated bool
	parts      [partCount]float64
	pens       [penCount]float64

	// seen and invalid hold the canonical forms of the valid and the
	// invalid actions so far, for repetition. Budgets are small, so a
	// linear scan beats a map and keeps the state ordered.
	seen, invalid []string

	m matcher

	// upper and text are scratch for upper-cased keys and normalised text.
	upper, text []byte
}

// matcher holds the task's matching needles, normalised once, as
// bytes: converting a long string for bytes.Contains would allocate.
type matcher struct {
	rootCause []byte
	keywords  [][]byte
	need      int

	fixKeywords [][]byte
	// The canonical fallback's pieces (spec §5.2).
	serviceNeedles [][]byte
	fixKeyUpper    string
	keyNorm        []byte
	keyTokens      [][]byte
	keyAliases     [][]byte
	exactText      []byte
}

// New makes the state of an episode of t with the given step budget, at
// step 0.
func New(rt *Task, budget int) *State {
	budget = max(budget, 0)
	r := &State{task: rt, budget: budget}
	r.keys = make([]evidenceKey, len(rt.Evidence))
	for i, ev := range rt.Evidence {
		k := &r.keys[i]
		k.first = i
		for j := 0; j < i; j++ {
			if rt.Evidence[j].Key == ev.Key {
				k.first = j
				break
			}
		}
		typ, rest, ok := strings.Cut(ev.Key, ":")
		k.typ = typ
		if ok {
			k.hasService = true
			k.service, k.key, k.hasKey = strings.Cut(rest, ":")
		}
	}
	r.found = make([]bool, len(rt.Evidence))
	r.order = make([]int32, 0, len(rt.Evidence))
	r.restarts = make([]int32, len(rt.Services))
	r.config = make([][]Field, len(rt.Services))
	for i := range rt.Services {
		n := len(rt.Services[i].Config)
		r.config[i] = make([]Field, n, n+budget)
	}
	r.seen = make([]string, 0, budget+1)
	r.invalid = make([]string, 0, budget+1)
	r.m = newMatcher(rt)
	r.upper = make([]byte, 0, 64)
	r.text = make([]byte, 0, 256)
	r.Reset()
	return r
}

func newMatcher(rt *Task) matcher {
	m := matcher{rootCause: appendNormalized(nil, rt.RootCause)}
	for _, k := range rt.RootCauseKeywords {
		m.keywords = append(m.keywords, appendNormalized(nil, k))
	}
	// need = max(1, ceil(n/2))
	m.need = max(1, (len(rt.RootCauseKeywords)+1)/2)
	f := &rt.Fix
	for _, k := range f.FixKeywords {
		m.fixKeywords = append(m.fixKeywords, appendNormalized(nil, k))
	}
	m.serviceNeedles = append(m.serviceNeedles, appendNormalized(nil, f.Service))
	for _, a := range serviceAliases {
		if a.service == f.Service {
			m.serviceNeedles = append(m.serviceNeedles, byteStrings(a.aliases)...)
		}
	}
	m.fixKeyUpper = string(appendPyUpper(nil, f.Key))
	m.keyNorm = appendNormalized(nil, f.Key)
	for _, tok := range bytes.Split(m.keyNorm, []byte(" ")) {
		if len(tok) > 0 && string(tok) != "enabled" && string(tok) != "valid" {
			m.keyTokens = append(m.keyTokens, tok)
		}
	}
	for _, a := range keyAliases {
		if a.key == string(m.keyNorm) {
			m.keyAliases = byteStrings(a.aliases)
		}
	}
	if f.Exact.K != value.Null {
		m.exactText = appendNormalized(nil, value.PyStr(f.Exact))
	}
	return m
}

func byteStrings(ss []string) [][]byte {
	out := make([][]byte, len(ss))
	for i, s := range ss {
		out[i] = []byte(s)
	}
	return out
}

// The fix-text fallback's alias tables (spec §5.2), as the reference has
// them: several keys are stale and match no task's key (§14 item 3).
var serviceAliases = [...]struct {
	service string
	aliases []string
}{
	{"web_server", []string{"web server", "web", "api"}},
	{"database", []string{"database", "db"}},
	{"cache", []string{"cache"}},
	{"message_queue", []string{"message queue", "queue", "mq"}},
	{"load_balancer", []string{"load balancer", "balancer", "lb"}},
}

var keyAliases = [...]struct {
	key     string
	aliases []string
}{
	{"db pool size", []string{"connection pool", "pool size", "database pool"}},
	{"timeout ms", []string{"timeout"}},
	{"ttl seconds", []string{"ttl", "time to live"}},
	{"memory limit mb", []string{"memory limit"}},
	{"consumer concurrency", []string{"consumer concurrency", "consumers"}},
	{"health check path", []string{"health check"}},
	{"query timeout ms", []string{"query timeout"}},
	{"max connections", []string{"connection limit", "connections"}},
	{"retry limit", []string{"retry limit", "retries"}},
	{"sticky sessions", []string{"sticky sessions", "session affinity"}},
	{"visibility timeout seconds", []string{"visibility timeout"}},
	{"rate limit rps", []string{"rate limit"}},
	{"autovacuum enabled", []string{"autovacuum"}},
	{"compression enabled", []string{"compression"}},
	{"max in flight", []string{"in flight"}},
	{"idle timeout seconds", []string{"idle timeout"}},
	{"cache host", []string{"cache host"}},
	{"read replica enabled", []string{"read replica", "replica"}},
	{"backend weight canary", []string{"backend weight", "canary weight"}},
	{"auth token valid", []string{"auth token", "token"}},
	{"index enabled", []string{"index"}},
}

var (
	restartWords = byteStrings([]string{"restart", "restarted", "reboot", "recover", "bring back"})
	enableWords  = byteStrings([]string{"enable", "enabled", "true", "valid"})
	disableWords = byteStrings([]string{"disable", "disabled", "false"})
)

// Reset is the reference's reset(): a fresh copy of the fixture world and
// cleared bookkeeping.
func (r *State) Reset() {
	clear(r.found)
	r.nFound = 0
	r.order = r.order[:0]
	clear(r.restarts)
	for i := range r.config {
		src := r.task.Services[i].Config
		r.config[i] = r.config[i][:len(src)]
		copy(r.config[i], src)
	}
	r.remediated = false
	r.parts = [partCount]float64{}
	r.pens = [penCount]float64{}
	clear(r.seen[:cap(r.seen)])
	r.seen = r.seen[:0]
	clear(r.invalid[:cap(r.invalid)])
	r.invalid = r.invalid[:0]
}

// Fork returns an independent copy of the state.
func (r *State) Fork() *State {
	f := *r
	f.found = append([]bool(nil), r.found...)
	f.order = append(make([]int32, 0, cap(r.order)), r.order...)
	f.restarts = append([]int32(nil), r.restarts...)
	f.config = make([][]Field, len(r.config))
	for i, c := range r.config {
		f.config[i] = append(make([]Field, 0, cap(c)), c...)
	}
	f.seen = append(make([]string, 0, cap(r.seen)), r.seen...)
	f.invalid = append(make([]string, 0, cap(r.invalid)), r.invalid...)
	f.upper, f.text = nil, nil
	return &f
}

// raw is the reference's raw_score(): sum(components) + sum(penalties).
func (r *State) raw() float64 {
	c := 0.0
	for _, x := range r.parts {
		c += x
	}
	p := 0.0
	for _, x := range r.pens {
		p += x
	}
	return c + p
}

// Coverage is the share of the relevant evidence found so far.
func (r *State) Coverage() float64 {
	return float64(r.nFound) / float64(max(1, len(r.keys)))
}

// Breakdown returns the reference's reward breakdown so far.
func (r *State) Breakdown() Breakdown {
	raw := r.raw()
	return Breakdown{
		Components: RewardParts{
			Evidence:    r.parts[partEvidence],
			RootCause:   r.parts[partRootCause],
			Remediation: r.parts[partRemediation],
			Resolution:  r.parts[partResolution],
			Efficiency:  r.parts[partEfficiency],
		},
		Penalties: Penalties{
			InvalidAction:           r.pens[penInvalid],
			RepeatedInvalidAction:   r.pens[penRepeatedInvalid],
			WrongRemediation:        r.pens[penWrongRemediation],
			PrematureResolution:     r.pens[penPremature],
			RestartUnrelatedService: r.pens[penRestartUnrelated],
			RepeatedUselessAction:   r.pens[penRepeatedUseless],
		},
		RawTotal: raw,
		Total:    clamp(raw, 0, 1),
	}
}

// Components maps the breakdown onto the native Components, so code
// written for either profile reads an sre_zero episode's parts.
func (r *State) Components() record.Components {
	p := 0.0
	for _, x := range r.pens {
		p += x
	}
	return record.Components{
		Evidence:   r.parts[partEvidence],
		Diagnosis:  r.parts[partRootCause],
		Mitigation: r.parts[partRemediation],
		Resolution: r.parts[partResolution],
		Efficiency: r.parts[partEfficiency],
		Penalties:  p,
	}
}

// KnownFindings is the reference's known_findings (grader-side: srezc
// never shows it): the descriptions of the evidence found, in the order
// found, each text once.
func (r *State) KnownFindings() []string {
	var out []string
	for _, i := range r.order {
		d := r.task.Evidence[i].Description
		dup := false
		for _, o := range out {
			dup = dup || o == d
		}
		if !dup {
			out = append(out, d)
		}
	}
	return out
}

// World is a copy of the world as it stands (the reference's
// current_state() services): status, logs, metrics and config of each
// service. Grader-side and for tests; it allocates.
func (r *State) World() []Service {
	out := make([]Service, len(r.task.Services))
	for i := range out {
		s := &r.task.Services[i]
		out[i] = Service{
			Name:         s.Name,
			Status:       r.status(i),
			Metrics:      append([]Field(nil), s.Metrics...),
			Config:       append([]Field(nil), r.config[i]...),
			Dependencies: append([]string(nil), s.Dependencies...),
		}
		out[i].Logs = append([]string(nil), s.Logs...)
		for k := int32(0); k < r.restarts[i]; k++ {
			out[i].Logs = append(out[i].Logs, RestartLog)
		}
	}
	return out
}

// clamp keeps x's bits when it is in range (a -0 stays -0), as engine's does.
func clamp(x, lo, hi float64) float64 {
	if x < lo {
		return lo
	}
	if x > hi {
		return hi
	}
	return x
}

func (r *State) status(svc int) string {
	if r.restarts[svc] > 0 {
		return StatusHealthy
	}
	return r.task.Services[svc].Status
}

// StatusHealthy is a restarted service's status.
const StatusHealthy = "healthy"

// configIndex finds a key, as typed (case-sensitive), in a service's
// config; -1 if it is not set.
func (r *State) configIndex(svc int, key string) int {
	for i := range r.config[svc] {
		if r.config[svc][i].Name == key {
			return i
		}
	}
	return -1
}

// Outcome.Key values for an inspect_config or update_config besides a
// key's index in the service's config: KeyWhole shows the whole config,
// KeyUnset a key that is not set (Outcome.Detail holds it as typed).
const (
	KeyWhole = -1
	KeyUnset = -2
)

// End says why an episode ended, in engine's order of its terminal
// reasons.
type End uint8

const (
	Open End = iota
	Resolved
	Rejected
	Escalated
	Budget
)

// Outcome is what one step did, for engine to show and record: the
// action's type and service (-1 when it has none), why it was invalid,
// which config entry it showed or wrote and what a write replaced (null:
// it was not set), and whether the episode is over, why, and the step's
// reward.
type Outcome struct {
	Type, Service int
	Code          Code
	Detail        string
	Key           int
	Previous      value.Value
	Done          bool
	End           End
	Reward        float64
}

// Step is the reference's step(), in its order of operations (spec
// §4.4), for an episode not yet over: step is the step number it plays
// (from 1), rec the episode's record, which it updates, and o receives
// what the step did (an out parameter: the step is on the hot path and
// the outcome is copied once, into engine's Observation).
func (r *State) Step(a *Action, step int, rec *record.EpisodeMetrics, o *Outcome) {
	budget := r.budget
	raw0 := r.raw()
	// A task that goes on after a rejected resolution goes on after an
	// accepted one too: ending there would tell the agent its resolution
	// was accepted. From then on the grade is final: the world still
	// answers the agent, but what it does is not graded (the record and
	// the reward's parts are put back after the step).
	final := rec.Success
	var saved record.EpisodeMetrics
	var parts [partCount]float64
	var pens [penCount]float64
	if final {
		saved, parts, pens = *rec, r.parts, r.pens
	}
	rec.TotalSteps++
	*o = Outcome{Type: -1, Service: -1, Key: KeyWhole}
	typ, svc, code, msg := r.task.Check(a)
	if code != OK {
		o.Type, o.Code, o.Detail = typ, code, msg
		canon := ""
		if a != nil {
			canon = a.Canonical
		}
		r.invalidAction(canon, rec)
	} else {
		o.Type, o.Service = typ, svc
		repeated := containsString(r.seen, a.Canonical)
		if !repeated && len(r.seen) < cap(r.seen) {
			r.seen = append(r.seen, a.Canonical)
		}
		switch typ {
		case InspectConfig:
			if a.HasKey {
				if k := r.configIndex(svc, a.Key); k >= 0 {
					o.Key = k
				} else {
					o.Key, o.Detail = KeyUnset, a.Key
				}
			}
		case RestartService:
			r.restart(svc, a, rec)
		case UpdateConfig:
			o.Key, o.Previous = r.update(svc, a, rec)
		case ResolveIncident:
			if !final {
				o.Done, o.End = r.resolve(a, step, rec)
			}
		case Escalate:
			o.Done, o.End = true, Escalated
		}
		fresh := svc >= 0 && !final && r.evidence(typ, svc, a, rec)
		if repeated && !fresh && typ != ResolveIncident && typ != Escalate {
			rec.RepeatedActions++
			r.pens[penRepeatedUseless] += penValue[penRepeatedUseless]
		}
	}
	if !o.Done && step >= budget {
		o.Done = true
		if o.End == Open {
			o.End = Budget
		}
	}
	if final {
		*rec, r.parts, r.pens = saved, parts, pens
	}
	raw := r.raw()
	if o.Done {
		if rec.Success {
			// Escalating or running out of budget after an accepted
			// resolution does not undo it.
			o.End = Resolved
		}
		rec.FinalReward = clamp(raw, 0, 1)
	}
	// Unrounded, as the reference reports it: the golden rewards carry
	// the last-place bits of the difference.
	o.Reward = clamp(raw-raw0, -1, 1)
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// invalidAction is the reference's _record_invalid_action bookkeeping;
// the step was counted already.
func (r *State) invalidAction(canon string, rec *record.EpisodeMetrics) {
	rec.InvalidActions++
	if containsString(r.invalid, canon) {
		rec.RepeatedActions++
		r.pens[penRepeatedInvalid] += penValue[penRepeatedInvalid]
		return
	}
	if len(r.invalid) < cap(r.invalid) {
		r.invalid = append(r.invalid, canon)
	}
	r.pens[penInvalid] += penValue[penInvalid]
}

// remediation counts a restart or a config write and grades it.
func (r *State) remediation(svc int, correct bool, restart bool, rec *record.EpisodeMetrics) {
	fix := &r.task.Fix
	name := r.task.Services[svc].Name
	rec.RemediationActions++
	if name == fix.Service {
		rec.CorrectServiceRemediations++
	}
	if correct {
		r.remediated = true
		rec.CorrectRemediations++
		rec.CorrectRemediationApplied = true
		r.parts[partRemediation] = partMax[partRemediation]
		return
	}
	rec.WrongRemediations++
	if containsString(r.task.DistractorServices, name) {
		rec.DistractorFailures++
	}
	r.pens[penWrongRemediation] += penValue[penWrongRemediation]
	if restart && name != fix.Service {
		r.pens[penRestartUnrelated] += penValue[penRestartUnrelated]
	}
}

// restart heals the service whether or not the restart is the fix.
func (r *State) restart(svc int, a *Action, rec *record.EpisodeMetrics) {
	r.restarts[svc]++
	r.remediation(svc, r.remediates(RestartService, svc, a), true, rec)
}

// update writes the key as typed, even when the write is wrong, and
// returns where it now is in the config and what it replaced (null when
// it was not set). The reference matches the fix on the upper-cased key
// but writes the key as typed, so a lower-case key adds an entry and
// leaves the real one as it was (§14 item 2).
func (r *State) update(svc int, a *Action, rec *record.EpisodeMetrics) (int, value.Value) {
	prev := value.Value{}
	k := r.configIndex(svc, a.Key)
	if k >= 0 {
		prev = r.config[svc][k].Value
		r.config[svc][k].Value = a.Value
	} else {
		r.config[svc] = append(r.config[svc], Field{Name: a.Key, Value: a.Value})
		k = len(r.config[svc]) - 1
	}
	r.remediation(svc, r.remediates(UpdateConfig, svc, a), false, rec)
	return k, prev
}

// remediates is the reference's CorrectFix.matches_action (spec §5.3).
func (r *State) remediates(typ, svc int, a *Action) bool {
	fix := &r.task.Fix
	if ActionTypes[typ] != fix.ActionType || r.task.Services[svc].Name != fix.Service {
		return false
	}
	switch typ {
	case RestartService:
		return true
	case UpdateConfig:
	default:
		return false
	}
	if fix.HasKey {
		r.upper = appendPyUpper(r.upper[:0], a.Key)
		if string(r.upper) != r.m.fixKeyUpper {
			return false
		}
	}
	if fix.Exact.K != value.Null {
		return value.PyEqual(a.Value, fix.Exact)
	}
	if fix.HasMin {
		f, ok := value.PyFloatOf(a.Value)
		return ok && f >= fix.MinNumeric
	}
	return true
}

// resolve grades a resolution (spec §4.5, §5.1–5.2) and returns whether
// it ends the episode and why. Evidence is not required for success.
func (r *State) resolve(a *Action, step int, rec *record.EpisodeMetrics) (bool, End) {
	rootOK := r.rootCauseMatches(a.RootCause)
	fixOK := r.fixTextMatches(a.Fix)
	if rootOK {
		rec.RootCauseIdentified = true
		rec.Diagnosed = true
		r.parts[partRootCause] = partMax[partRootCause]
	}
	if fixOK {
		rec.FixIdentified = true
	}
	if rootOK && fixOK && r.remediated {
		r.parts[partResolution] = partMax[partResolution]
		if b := r.budget; b > 0 {
			r.parts[partEfficiency] = partMax[partEfficiency] * max(0.0, float64(b-step)/float64(b))
		}
		rec.Success = true
		rec.StepsToResolution = step
		if !r.task.TerminalOnWrongResolution {
			// See Step: the agent cannot tell this from a rejection.
			return false, Open
		}
		return true, Resolved
	}
	rec.PrematureResolutions++
	r.pens[penPremature] += penValue[penPremature]
	if r.task.TerminalOnWrongResolution {
		return true, Rejected
	}
	return false, Open
}

// rootCauseMatches is the reference's matches_root_cause: the whole root
// cause, or enough of its keywords, as substrings of the normalised text.
func (r *State) rootCauseMatches(text string) bool {
	r.text = appendNormalized(r.text[:0], text)
	t := r.text
	if bytes.Contains(t, r.m.rootCause) {
		return true
	}
	n := 0
	for _, k := range r.m.keywords {
		if bytes.Contains(t, k) {
			n++
		}
	}
	return n >= r.m.need
}

// fixTextMatches is the reference's fix-text rule: every fix keyword, or
// the canonical fallback (spec §5.2). min_numeric_value is never checked.
func (r *State) fixTextMatches(text string) bool {
	m := &r.m
	if len(m.fixKeywords) == 0 {
		return true
	}
	r.text = appendNormalized(r.text[:0], text)
	t := r.text
	if containsAll(t, m.fixKeywords) {
		return true
	}
	if !containsAny(t, m.serviceNeedles) {
		return false
	}
	switch r.task.Fix.ActionType {
	case "restart_service":
		return containsAny(t, restartWords)
	case "update_config":
	default:
		return false
	}
	keyOK := bytes.Contains(t, m.keyNorm) || containsAll(t, m.keyTokens) || containsAny(t, m.keyAliases)
	if !keyOK {
		return false
	}
	exact := r.task.Fix.Exact
	switch {
	case exact.K == value.Null:
		return true
	case bytes.Contains(t, m.exactText):
		return true
	case exact.K == value.Bool && exact.B:
		return containsAny(t, enableWords)
	case exact.K == value.Bool:
		return containsAny(t, disableWords)
	}
	return false
}

func containsAll(hay []byte, needles [][]byte) bool {
	for _, n := range needles {
		if !bytes.Contains(hay, n) {
			return false
		}
	}
	return true
}

func containsAny(hay []byte, needles [][]byte) bool {
	for _, n := range needles {
		if bytes.Contains(hay, n) {
			return true
		}
	}
	return false
}

// partEvidence records the evidence an action with a service earns (spec
// §4.6) and reports whether any was new. Candidate keys are the action's
// "type:service" and, for inspect_config, "inspect_config:service:KEY"
// with the key upper-cased, or, without a key, every relevant key of the
// service's config. The upper-cased key earns the evidence although the
// config lookup is case-sensitive (§14 item 1).
// evidence records the evidence an action with a service earns (spec
// §4.6) and reports whether any was new. Candidate keys are the action's
// "type:service" and, for inspect_config, "inspect_config:service:KEY"
// with the key upper-cased, or, without a key, every relevant key of the
// service's config. The upper-cased key earns the evidence although the
// config lookup is case-sensitive (§14 item 1).
func (r *State) evidence(typ, svc int, a *Action, rec *record.EpisodeMetrics) bool {
	typeName := ActionTypes[typ]
	svcName := r.task.Services[svc].Name
	fresh := false
	mark := func(i int) {
		i = r.keys[i].first
		if !r.found[i] {
			r.found[i] = true
			r.nFound++
			r.order = append(r.order, int32(i))
			fresh = true
		}
	}
	for i := range r.keys {
		k := &r.keys[i]
		if k.typ == typeName && k.hasService && !k.hasKey && k.service == svcName {
			mark(i)
			break
		}
	}
	if typ == InspectConfig {
		if a.HasKey {
			r.upper = appendPyUpper(r.upper[:0], a.Key)
		}
		for i := range r.keys {
			k := &r.keys[i]
			if k.typ != typeName || !k.hasKey || k.service != svcName {
				continue
			}
			if !a.HasKey {
				mark(i)
			} else if k.key == string(r.upper) {
				mark(i)
				break
			}
		}
	}
	if fresh {
		rec.EvidenceActions++
		total := float64(max(1, len(r.keys)))
		r.parts[partEvidence] = partMax[partEvidence] * min(1.0, float64(r.nFound)/total)
	}
	return fresh
}
