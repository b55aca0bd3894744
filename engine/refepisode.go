package engine

import (
	"bytes"
	"strings"

	"github.com/srezc/srezc/record"
	"github.com/srezc/srezc/value"
)

// The sre_zero episode: the reference environment's step (spec §4.3–4.7),
// matching rules (§5) and reward bookkeeping (§6), bit for bit. The
// generic Episode fields carry what both profiles share (step, done,
// terminal, the Record, which holds the reference's EpisodeMetrics); the
// rest lives in refEpisode. Nothing here runs for a native task.
//
// Floats: every reward number is computed in the reference's order of
// operations. raw_total is Python's sum() over the five components, in
// order, plus sum() over the six penalties, in order; each sum starts at
// 0 and adds left to right (CPython before 3.12, which the golden
// episodes were recorded with; 3.12's compensated float sum gives other
// bits in the last place). A penalty accumulates by adding its negative
// constant; a component is assigned, never added to.

// The action types, in the reference's order (spec §1.1).
const (
	refInspectLogs = iota
	refInspectMetrics
	refCheckStatus
	refInspectConfig
	refRestartService
	refUpdateConfig
	refResolveIncident
	refEscalate
	refActionCount
)

var refActionTypes = [refActionCount]string{
	"inspect_logs", "inspect_metrics", "check_status", "inspect_config",
	"restart_service", "update_config", "resolve_incident", "escalate",
}

// refServiceNames is the reference's closed set of services, in fixture
// order; a task's Ref.Services holds exactly these.
var refServiceNames = [...]string{"web_server", "database", "cache", "message_queue", "load_balancer"}

func refActionIndex(name string) int {
	for i, n := range refActionTypes {
		if n == name {
			return i
		}
	}
	return -1
}

// refServiceAction reports whether an action type names a service.
func refServiceAction(typ int) bool { return typ <= refUpdateConfig }

// refRestartLog is the line a restart appends to the service's logs.
const refRestartLog = "INFO service restarted by incident responder"

// Reward components and penalties, in the reference's dict order (which is
// its summation order).
const (
	refEvidence = iota
	refRootCause
	refRemediation
	refResolution
	refEfficiency
	refPartCount
)

const (
	refPenInvalid = iota
	refPenRepeatedInvalid
	refPenWrongRemediation
	refPenPremature
	refPenRestartUnrelated
	refPenRepeatedUseless
	refPenCount
)

var refPartMax = [refPartCount]float64{0.20, 0.25, 0.25, 0.20, 0.10}

var refPenValue = [refPenCount]float64{-0.05, -0.10, -0.15, -0.20, -0.10, -0.05}

// RefComponents is the reference's RewardBreakdown (spec §1.5): the
// current components and penalties, raw_total and total, shaped and
// ordered as its JSON.
type RefComponents struct {
	Components RefRewardParts `json:"components"`
	Penalties  RefPenalties   `json:"penalties"`
	RawTotal   float64        `json:"raw_total"`
	Total      float64        `json:"total"`
}

// RefRewardParts are the five components; each is set, never summed twice.
type RefRewardParts struct {
	Evidence    float64 `json:"evidence"`
	RootCause   float64 `json:"root_cause"`
	Remediation float64 `json:"remediation"`
	Resolution  float64 `json:"resolution"`
	Efficiency  float64 `json:"efficiency"`
}

// RefPenalties are the six penalties, negative, accumulated without bound.
type RefPenalties struct {
	InvalidAction           float64 `json:"invalid_action"`
	RepeatedInvalidAction   float64 `json:"repeated_invalid_action"`
	WrongRemediation        float64 `json:"wrong_remediation"`
	PrematureResolution     float64 `json:"premature_resolution"`
	RestartUnrelatedService float64 `json:"restart_unrelated_service"`
	RepeatedUselessAction   float64 `json:"repeated_useless_action"`
}

// refEvidenceKey is a relevant-evidence key split at its first two colons:
// "action_type:service[:KEY]". Keys of another shape never match.
type refEvidenceKey struct {
	typ, service, key string
	hasService        bool
	hasKey            bool
	// first is the index of the first evidence entry with the same key:
	// the reference keeps found keys in a set.
	first int
}

// refEpisode is an sre_zero episode's own state.
type refEpisode struct {
	task *RefTask

	keys []refEvidenceKey
	// found is indexed by an entry's first index; order lists the entries
	// in the order they were found (the order of known_findings).
	found  []bool
	nFound int
	order  []int32

	// The world: a restarted service is healthy and has one restart line
	// per restart after its fixture logs; config starts as the fixture's
	// and has room for one new key per step (a write never allocates).
	restarts []int32
	config   [][]RefField

	remediated bool
	parts      [refPartCount]float64
	pens       [refPenCount]float64

	// seen and invalid hold the canonical forms of the valid and the
	// invalid actions so far, for repetition. Budgets are small, so a
	// linear scan beats a map and keeps the state ordered.
	seen, invalid []string

	m refMatcher

	// upper and text are scratch for upper-cased keys and normalised text.
	upper, text []byte
}

// refMatcher holds the task's matching needles, normalised once, as
// bytes: converting a long string for bytes.Contains would allocate.
type refMatcher struct {
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

func newRefEpisode(t *Task) *refEpisode {
	rt := t.Ref
	r := &refEpisode{task: rt}
	r.keys = make([]refEvidenceKey, len(rt.Evidence))
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
	budget := max(t.Budget, 0)
	r.restarts = make([]int32, len(rt.Services))
	r.config = make([][]RefField, len(rt.Services))
	for i := range rt.Services {
		n := len(rt.Services[i].Config)
		r.config[i] = make([]RefField, n, n+budget)
	}
	r.seen = make([]string, 0, budget+1)
	r.invalid = make([]string, 0, budget+1)
	r.m = newRefMatcher(rt)
	r.upper = make([]byte, 0, 64)
	r.text = make([]byte, 0, 256)
	return r
}

func newRefMatcher(rt *RefTask) refMatcher {
	m := refMatcher{rootCause: appendNormalized(nil, rt.RootCause)}
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
	for _, a := range refServiceAliases {
		if a.service == f.Service {
			m.serviceNeedles = append(m.serviceNeedles, refBytes(a.aliases)...)
		}
	}
	m.fixKeyUpper = string(appendPyUpper(nil, f.Key))
	m.keyNorm = appendNormalized(nil, f.Key)
	for _, tok := range bytes.Split(m.keyNorm, []byte(" ")) {
		if len(tok) > 0 && string(tok) != "enabled" && string(tok) != "valid" {
			m.keyTokens = append(m.keyTokens, tok)
		}
	}
	for _, a := range refKeyAliases {
		if a.key == string(m.keyNorm) {
			m.keyAliases = refBytes(a.aliases)
		}
	}
	if f.Exact.K != value.Null {
		m.exactText = appendNormalized(nil, value.PyStr(f.Exact))
	}
	return m
}

func refBytes(ss []string) [][]byte {
	out := make([][]byte, len(ss))
	for i, s := range ss {
		out[i] = []byte(s)
	}
	return out
}

// The fix-text fallback's alias tables (spec §5.2), as the reference has
// them: several keys are stale and match no task's key (§14 item 3).
var refServiceAliases = [...]struct {
	service string
	aliases []string
}{
	{"web_server", []string{"web server", "web", "api"}},
	{"database", []string{"database", "db"}},
	{"cache", []string{"cache"}},
	{"message_queue", []string{"message queue", "queue", "mq"}},
	{"load_balancer", []string{"load balancer", "balancer", "lb"}},
}

var refKeyAliases = [...]struct {
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
	refRestartWords = refBytes([]string{"restart", "restarted", "reboot", "recover", "bring back"})
	refEnableWords  = refBytes([]string{"enable", "enabled", "true", "valid"})
	refDisableWords = refBytes([]string{"disable", "disabled", "false"})
)

// reset is the reference's reset(): a fresh copy of the fixture world and
// cleared bookkeeping.
func (r *refEpisode) reset() {
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
	r.parts = [refPartCount]float64{}
	r.pens = [refPenCount]float64{}
	clear(r.seen[:cap(r.seen)])
	r.seen = r.seen[:0]
	clear(r.invalid[:cap(r.invalid)])
	r.invalid = r.invalid[:0]
}

func (r *refEpisode) fork() *refEpisode {
	f := *r
	f.found = append([]bool(nil), r.found...)
	f.order = append(make([]int32, 0, cap(r.order)), r.order...)
	f.restarts = append([]int32(nil), r.restarts...)
	f.config = make([][]RefField, len(r.config))
	for i, c := range r.config {
		f.config[i] = append(make([]RefField, 0, cap(c)), c...)
	}
	f.seen = append(make([]string, 0, cap(r.seen)), r.seen...)
	f.invalid = append(make([]string, 0, cap(r.invalid)), r.invalid...)
	f.upper, f.text = nil, nil
	return &f
}

// raw is the reference's raw_score(): sum(components) + sum(penalties).
func (r *refEpisode) raw() float64 {
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

func (r *refEpisode) coverage() float64 {
	return float64(r.nFound) / float64(max(1, len(r.keys)))
}

// RefComponents returns the reference's reward breakdown so far; the zero
// value for a native episode.
func (e *Episode) RefComponents() RefComponents {
	r := e.ref
	if r == nil {
		return RefComponents{}
	}
	raw := r.raw()
	return RefComponents{
		Components: RefRewardParts{
			Evidence:    r.parts[refEvidence],
			RootCause:   r.parts[refRootCause],
			Remediation: r.parts[refRemediation],
			Resolution:  r.parts[refResolution],
			Efficiency:  r.parts[refEfficiency],
		},
		Penalties: RefPenalties{
			InvalidAction:           r.pens[refPenInvalid],
			RepeatedInvalidAction:   r.pens[refPenRepeatedInvalid],
			WrongRemediation:        r.pens[refPenWrongRemediation],
			PrematureResolution:     r.pens[refPenPremature],
			RestartUnrelatedService: r.pens[refPenRestartUnrelated],
			RepeatedUselessAction:   r.pens[refPenRepeatedUseless],
		},
		RawTotal: raw,
		Total:    clamp(raw, 0, 1),
	}
}

// nativeComponents maps the breakdown onto the native Components, so
// code written for either profile reads an sre_zero episode's parts.
func (r *refEpisode) nativeComponents() record.Components {
	p := 0.0
	for _, x := range r.pens {
		p += x
	}
	return record.Components{
		Evidence:   r.parts[refEvidence],
		Diagnosis:  r.parts[refRootCause],
		Mitigation: r.parts[refRemediation],
		Resolution: r.parts[refResolution],
		Efficiency: r.parts[refEfficiency],
		Penalties:  p,
	}
}

// KnownFindings is the reference's known_findings (grader-side: srezc
// never shows it): the descriptions of the evidence found, in the order
// found, each text once.
func (e *Episode) KnownFindings() []string {
	r := e.ref
	if r == nil {
		return nil
	}
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

// RefWorld is a copy of the world as it stands (the reference's
// current_state() services): status, logs, metrics and config of each
// service. Grader-side and for tests; it allocates.
func (e *Episode) RefWorld() []RefService {
	r := e.ref
	if r == nil {
		return nil
	}
	out := make([]RefService, len(r.task.Services))
	for i := range out {
		s := &r.task.Services[i]
		out[i] = RefService{
			Name:         s.Name,
			Status:       r.status(i),
			Metrics:      append([]RefField(nil), s.Metrics...),
			Config:       append([]RefField(nil), r.config[i]...),
			Dependencies: append([]string(nil), s.Dependencies...),
		}
		out[i].Logs = append([]string(nil), s.Logs...)
		for k := int32(0); k < r.restarts[i]; k++ {
			out[i].Logs = append(out[i].Logs, refRestartLog)
		}
	}
	return out
}

func (r *refEpisode) status(svc int) string {
	if r.restarts[svc] > 0 {
		return StatusHealthy
	}
	return r.task.Services[svc].Status
}

// configIndex finds a key, as typed (case-sensitive), in a service's
// config; -1 if it is not set.
func (r *refEpisode) configIndex(svc int, key string) int {
	for i := range r.config[svc] {
		if r.config[svc][i].Name == key {
			return i
		}
	}
	return -1
}

func (r *refEpisode) serviceIndex(name string) int {
	for i := range r.task.Services {
		if r.task.Services[i].Name == name {
			return i
		}
	}
	return -1
}

// Observation.Key values for an sre_zero inspect_config: NoSlot is the
// whole config; refKeyUnset a key that is not set (Detail holds it as
// typed); otherwise the key's index in the service's config.
const refKeyUnset SlotID = -2

// refCheck validates a parsed action as the reference does after parsing
// (spec §4.1 step 6, §4.4 step 3): it returns the action type and service
// indices, or an error code and message. A nil or hand-built action never
// panics; it fails like a parse error.
func (r *refEpisode) check(ra *RefAction) (typ, svc int, code ErrCode, msg string) {
	if ra == nil {
		return -1, -1, ErrSyntax, refErrUnbound
	}
	if ra.Err != "" {
		return -1, -1, RefErrCode(ra.Err), ra.Err
	}
	typ = refActionIndex(ra.Type)
	switch {
	case typ < 0:
		return -1, -1, ErrUnknownTool, "Unknown action: " + ra.Type
	case typ == refUpdateConfig && ra.Value.K == value.Null:
		return -1, -1, ErrArity, "update_config requires key and value."
	case typ == refResolveIncident && (ra.RootCause == "" || ra.Fix == ""):
		return -1, -1, ErrEmptyText, "resolve_incident requires root_cause and fix."
	case typ == refEscalate && ra.Reason == "":
		return -1, -1, ErrEmptyText, "escalate requires a reason."
	}
	svc = -1
	if refServiceAction(typ) {
		if svc = r.serviceIndex(ra.Service); svc < 0 {
			return typ, -1, ErrUnknownService, ra.Service
		}
	}
	return typ, svc, OK, ""
}

// refErrUnbound is the error of an Action that carries no sre_zero parse.
const refErrUnbound = "Action must be parsed by the sre_zero grammar."

// RefErrCode classifies one of the reference's parse error messages, so
// generic code can count and name sre_zero errors like native ones.
func RefErrCode(msg string) ErrCode {
	switch {
	case msg == "":
		return OK
	case strings.HasPrefix(msg, "Unknown action: "):
		return ErrUnknownTool
	case msg == "resolve_incident requires root_cause and fix." || msg == "escalate requires a reason.":
		return ErrEmptyText
	case strings.HasSuffix(msg, " argument.") || strings.HasSuffix(msg, " arguments.") ||
		strings.HasSuffix(msg, " requires a service.") || msg == "update_config requires key and value.":
		return ErrArity
	}
	return ErrSyntax
}

// BindRef makes an Action of an action parsed by the sre_zero grammar.
// Step reads only ra; the other fields let generic code count, name and
// tell apart invalid actions as it does native ones. ra must not change
// afterwards.
func (t *Task) BindRef(ra *RefAction) Action {
	a := Action{Tool: -1, Service: -1, Key: NoSlot, Ref: ra}
	if t.Ref == nil {
		a.Err, a.Detail = ErrSyntax, refErrUnbound
		return a
	}
	r := refEpisode{task: t.Ref}
	typ, svc, code, msg := r.check(ra)
	a.Tool, a.Service, a.Err = int16(typ), int16(svc), code
	if code != OK {
		a.Detail = msg
	}
	if ra != nil {
		a.Canon = hashString(offset64, ra.Canonical)
	}
	return a
}

// stepRef is Step for an sre_zero task: the reference's step(), in its
// order of operations (spec §4.4).
func (e *Episode) stepRef(a *Action) StepResult {
	r := e.ref
	budget := e.t.Budget
	if e.done {
		return StepResult{Obs: Observation{Step: int32(e.step), StepsLeft: int32(max(0, budget-e.step)), Tick: int32(e.tick), Tool: -1, Service: -1, Key: NoSlot, Err: ErrEpisodeDone, Done: true}, Terminal: e.terminal}
	}
	raw0 := r.raw()
	var ra *RefAction
	if a != nil {
		ra = a.Ref
	}
	// A task that goes on after a rejected resolution goes on after an
	// accepted one too: ending there would tell the agent its resolution
	// was accepted. From then on the grade is final: the world still
	// answers the agent, but what it does is not graded (the record and
	// the reward's parts are put back after the step).
	final := e.rec.Success
	var rec record.EpisodeMetrics
	var parts [refPartCount]float64
	var pens [refPenCount]float64
	if final {
		rec, parts, pens = e.rec, r.parts, r.pens
	}
	e.step++
	e.rec.TotalSteps++
	obs := Observation{Tool: -1, Service: -1, Key: NoSlot}
	term := NotDone
	typ, svc, code, msg := r.check(ra)
	if code != OK {
		obs.Tool, obs.Err, obs.Detail = int16(typ), code, msg
		canon := ""
		if ra != nil {
			canon = ra.Canonical
		}
		e.refInvalid(canon)
	} else {
		obs.Tool, obs.Service = int16(typ), int16(svc)
		repeated := containsString(r.seen, ra.Canonical)
		if !repeated && len(r.seen) < cap(r.seen) {
			r.seen = append(r.seen, ra.Canonical)
		}
		switch typ {
		case refInspectConfig:
			if ra.HasKey {
				if k := r.configIndex(svc, ra.Key); k >= 0 {
					obs.Key = SlotID(k)
				} else {
					obs.Key, obs.Detail = refKeyUnset, ra.Key
				}
			}
		case refRestartService:
			e.refRestart(svc, ra)
		case refUpdateConfig:
			obs.Key, obs.RefPrevious = e.refUpdate(svc, ra)
		case refResolveIncident:
			if !final {
				term = e.refResolve(ra)
			}
		case refEscalate:
			e.done = true
			term = TermEscalated
		}
		fresh := svc >= 0 && !final && e.refEvidence(typ, svc, ra)
		if repeated && !fresh && typ != refResolveIncident && typ != refEscalate {
			e.rec.RepeatedActions++
			r.pens[refPenRepeatedUseless] += refPenValue[refPenRepeatedUseless]
		}
	}
	if !e.done && e.step >= budget {
		e.done = true
		if term == NotDone {
			term = TermBudget
		}
	}
	if final {
		e.rec, r.parts, r.pens = rec, parts, pens
	}
	raw := r.raw()
	if e.done {
		if e.rec.Success {
			// Escalating or running out of budget after an accepted
			// resolution does not undo it.
			term = TermResolved
		}
		e.terminal = term
		e.rec.FinalReward = clamp(raw, 0, 1)
	}
	obs.Step = int32(e.step)
	obs.StepsLeft = int32(max(0, budget-e.step))
	obs.Tick = int32(e.tick)
	obs.Done = e.done
	// Unrounded, as the reference reports it: the golden rewards carry
	// the last-place bits of the difference.
	return StepResult{Obs: obs, Reward: clamp(raw-raw0, -1, 1), Terminal: e.terminal}
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// refInvalid is the reference's _record_invalid_action bookkeeping; the
// step was counted already.
func (e *Episode) refInvalid(canon string) {
	r := e.ref
	e.rec.InvalidActions++
	if containsString(r.invalid, canon) {
		e.rec.RepeatedActions++
		r.pens[refPenRepeatedInvalid] += refPenValue[refPenRepeatedInvalid]
		return
	}
	if len(r.invalid) < cap(r.invalid) {
		r.invalid = append(r.invalid, canon)
	}
	r.pens[refPenInvalid] += refPenValue[refPenInvalid]
}

// refRemediation counts a restart or a config write and grades it.
func (e *Episode) refRemediation(svc int, correct bool, restart bool) {
	r := e.ref
	fix := &r.task.Fix
	name := r.task.Services[svc].Name
	e.rec.RemediationActions++
	if name == fix.Service {
		e.rec.CorrectServiceRemediations++
	}
	if correct {
		r.remediated = true
		e.rec.CorrectRemediations++
		e.rec.CorrectRemediationApplied = true
		r.parts[refRemediation] = refPartMax[refRemediation]
		return
	}
	e.rec.WrongRemediations++
	if containsString(r.task.DistractorServices, name) {
		e.rec.DistractorFailures++
	}
	r.pens[refPenWrongRemediation] += refPenValue[refPenWrongRemediation]
	if restart && name != fix.Service {
		r.pens[refPenRestartUnrelated] += refPenValue[refPenRestartUnrelated]
	}
}

// refRestart heals the service whether or not the restart is the fix.
func (e *Episode) refRestart(svc int, ra *RefAction) {
	r := e.ref
	r.restarts[svc]++
	e.refRemediation(svc, r.remediates(refRestartService, svc, ra), true)
}

// refUpdate writes the key as typed, even when the write is wrong, and
// returns where it now is in the config and what it replaced (null when
// it was not set). The reference matches the fix on the upper-cased key
// but writes the key as typed, so a lower-case key adds an entry and
// leaves the real one as it was (§14 item 2).
func (e *Episode) refUpdate(svc int, ra *RefAction) (SlotID, value.Value) {
	r := e.ref
	prev := value.Value{}
	k := r.configIndex(svc, ra.Key)
	if k >= 0 {
		prev = r.config[svc][k].Value
		r.config[svc][k].Value = ra.Value
	} else {
		r.config[svc] = append(r.config[svc], RefField{Name: ra.Key, Value: ra.Value})
		k = len(r.config[svc]) - 1
	}
	e.refRemediation(svc, r.remediates(refUpdateConfig, svc, ra), false)
	return SlotID(k), prev
}

// remediates is the reference's CorrectFix.matches_action (spec §5.3).
func (r *refEpisode) remediates(typ, svc int, ra *RefAction) bool {
	fix := &r.task.Fix
	if refActionTypes[typ] != fix.ActionType || r.task.Services[svc].Name != fix.Service {
		return false
	}
	switch typ {
	case refRestartService:
		return true
	case refUpdateConfig:
	default:
		return false
	}
	if fix.HasKey {
		r.upper = appendPyUpper(r.upper[:0], ra.Key)
		if string(r.upper) != r.m.fixKeyUpper {
			return false
		}
	}
	if fix.Exact.K != value.Null {
		return value.PyEqual(ra.Value, fix.Exact)
	}
	if fix.HasMin {
		f, ok := value.PyFloatOf(ra.Value)
		return ok && f >= fix.MinNumeric
	}
	return true
}

// refResolve grades a resolution (spec §4.5, §5.1–5.2) and returns its
// terminal reason. Evidence is not required for success.
func (e *Episode) refResolve(ra *RefAction) Terminal {
	r := e.ref
	rootOK := r.rootCauseMatches(ra.RootCause)
	fixOK := r.fixTextMatches(ra.Fix)
	if rootOK {
		e.rec.RootCauseIdentified = true
		e.rec.Diagnosed = true
		r.parts[refRootCause] = refPartMax[refRootCause]
	}
	if fixOK {
		e.rec.FixIdentified = true
	}
	if rootOK && fixOK && r.remediated {
		r.parts[refResolution] = refPartMax[refResolution]
		if b := e.t.Budget; b > 0 {
			r.parts[refEfficiency] = refPartMax[refEfficiency] * max(0.0, float64(b-e.step)/float64(b))
		}
		e.rec.Success = true
		e.rec.StepsToResolution = e.step
		if !r.task.TerminalOnWrongResolution {
			// See stepRef: the agent cannot tell this from a rejection.
			return NotDone
		}
		e.done = true
		return TermResolved
	}
	e.rec.PrematureResolutions++
	r.pens[refPenPremature] += refPenValue[refPenPremature]
	if r.task.TerminalOnWrongResolution {
		e.done = true
		return TermRejected
	}
	return NotDone
}

// rootCauseMatches is the reference's matches_root_cause: the whole root
// cause, or enough of its keywords, as substrings of the normalised text.
func (r *refEpisode) rootCauseMatches(text string) bool {
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
func (r *refEpisode) fixTextMatches(text string) bool {
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
		return containsAny(t, refRestartWords)
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
		return containsAny(t, refEnableWords)
	case exact.K == value.Bool:
		return containsAny(t, refDisableWords)
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

// refEvidence records the evidence an action with a service earns (spec
// §4.6) and reports whether any was new. Candidate keys are the action's
// "type:service" and, for inspect_config, "inspect_config:service:KEY"
// with the key upper-cased, or, without a key, every relevant key of the
// service's config. The upper-cased key earns the evidence although the
// config lookup is case-sensitive (§14 item 1).
func (e *Episode) refEvidence(typ, svc int, ra *RefAction) bool {
	r := e.ref
	typeName := refActionTypes[typ]
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
	if typ == refInspectConfig {
		if ra.HasKey {
			r.upper = appendPyUpper(r.upper[:0], ra.Key)
		}
		for i := range r.keys {
			k := &r.keys[i]
			if k.typ != typeName || !k.hasKey || k.service != svcName {
				continue
			}
			if !ra.HasKey {
				mark(i)
			} else if k.key == string(r.upper) {
				mark(i)
				break
			}
		}
	}
	if fresh {
		e.rec.EvidenceActions++
		total := float64(max(1, len(r.keys)))
		r.parts[refEvidence] = refPartMax[refEvidence] * min(1.0, float64(r.nFound)/total)
	}
	return fresh
}

// recordRef is Record for an sre_zero episode.
func (e *Episode) recordRef() record.EpisodeMetrics {
	rec := e.rec
	rec.EvidenceCoverage = e.ref.coverage()
	rec.Mitigated = rec.CorrectRemediationApplied
	rec.Terminal = e.terminal.String()
	return rec
}
