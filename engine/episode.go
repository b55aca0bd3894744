package engine

import (
	"math"

	"github.com/srezc/srezc/record"
	"github.com/srezc/srezc/srezero"
	"github.com/srezc/srezc/value"
)

// Terminal says why an episode ended. It is grader-side: the agent sees the
// same acknowledgement for an accepted and a rejected resolution.
type Terminal uint8

const (
	NotDone Terminal = iota
	TermResolved
	TermRejected
	TermEscalated
	TermBudget
)

var terminalNames = [...]string{"", record.TerminalResolved, record.TerminalRejected, record.TerminalEscalated, record.TerminalBudget}

func (t Terminal) String() string {
	if int(t) < len(terminalNames) {
		return terminalNames[t]
	}
	return "terminal?"
}

// Observation is the structured result of one step. Rendering it (text,
// JSON) reads the episode's rows; nothing here is grader-side.
type Observation struct {
	Step      int32
	StepsLeft int32
	Tick      int32
	Tool      int16
	Service   int16
	Key       SlotID
	Err       ErrCode
	Detail    string
	Done      bool
	// Previous is the word a config write replaced.
	Previous uint64
	// RefPrevious is the value an sre_zero config write replaced (null:
	// the key was not set); see refprofile.go for Tool, Service and Key.
	RefPrevious value.Value
}

// StepResult is what Step returns: the observation, and the grader-side
// reward, which never reaches an evaluated agent.
type StepResult struct {
	Obs      Observation
	Reward   float64
	Terminal Terminal
}

// Episode is one play of a Task. Its zero value is not usable: call
// NewEpisode, then Reset.
type Episode struct {
	// base is the task the episode was made for; t is the site variant
	// the current seed plays (Task.Site), which everything reads.
	base *Task
	t    *Task
	n    int
	ring []uint64
	tick int

	seed     uint64
	step     int
	done     bool
	terminal Terminal
	// draws counts noise draws (uniform), the only use of the seed after
	// Reset: a rendering that drew none shows the same for every seed.
	draws uint64

	rec   record.EpisodeMetrics
	comp  record.Components
	found []bool
	// foundBuf backs found, sized for the largest evidence set of any
	// site; sites holds what each variant's episodes derive, built the
	// first time a seed picks it.
	foundBuf []bool
	sites    []siteBinding

	// seen holds canonical hashes of valid actions, invalid those of invalid ones.
	seen    []uint64
	invalid []uint64

	strBuf []byte
	strEnd []uint32

	restartedHealthy bool

	// Incremental ticks (incremental.go): the ring's tick state, and one
	// for the grader's look-ahead on scratch.
	ticks      tickState
	lookahead  tickState
	alwaysFull bool

	// prep is the task's shared, read-only derived data (prepared.go).
	prep *prepared

	scratch []uint64
	stack   [maxStack]uint64
	// opArgs are the words of the operation being applied's arguments
	// (OpArg).
	opArgs [MaxOperationArgs]uint64
	norm   []byte
	wordAt []int32
	text   []byte
	line   []byte
	// spans and spanDur are a trace read's nodes and their durations
	// (trace.go).
	spans   []traceNode
	spanDur []float64
	// noiseText holds one noise log line while it is written (noise.go).
	noiseText []byte
	// reader reads diagnoses (diagnose.go) in reused buffers.
	reader reader

	// rules are the task's profile's (profile.go); ref is the sre_zero
	// profile's state (package srezero), nil under native.
	rules rules
	ref   *srezero.State

	// judged are the config slots a write to which is a wrong change
	// unless undone: every config slot that is no fault's remedy.
	judged []SlotID

	// alert are the checks of the alert's condition (mitigation.go).
	alert []healthCheck
	// site is the index of the variant bound (sites).
	site int
}

// siteBinding is what an episode derives from one site variant: the
// task's prepared data, but the alert's checks of a task still being
// compiled (prepared.alertOf).
type siteBinding struct {
	prep  *prepared
	alert []healthCheck
	// watched is the look-ahead's mask (mitigation.go), found at the
	// first resolution on the variant.
	watched []uint64
}

// NewEpisode allocates an episode's buffers for t. It does not Reset; until
// it does, the episode is on t's first site variant (t itself).
func NewEpisode(t *Task) *Episode {
	n := len(t.Slots)
	evidence := len(t.Evidence)
	for _, s := range t.Sites {
		evidence = max(evidence, len(s.Evidence))
	}
	e := &Episode{
		base:     t,
		n:        n,
		ring:     make([]uint64, t.History*n),
		foundBuf: make([]bool, evidence),
		sites:    make([]siteBinding, t.SiteCount()),
		seen:     make([]uint64, 0, t.Budget+1),
		invalid:  make([]uint64, 0, t.Budget+1),
		ticks:    newTickState(t),
		norm:     make([]byte, 0, 256),
		rules:    rulesFor(t),
	}
	e.bindSite(0)
	e.rules.start(e)
	return e
}

// bindSite makes the episode play site variant k of its task.
func (e *Episode) bindSite(k int) {
	t := e.base
	if k > 0 {
		t = e.base.Sites[k-1]
	}
	b := &e.sites[k]
	if b.prep == nil {
		p := preparedFor(t)
		b.prep, b.alert = p, p.alert
		if p.alertOf != alertIDOf(t) {
			b.alert = alertChecks(t)
		}
	}
	e.t, e.prep, e.alert, e.judged, e.site = t, b.prep, b.alert, b.prep.judged, k
	e.found = e.foundBuf[:len(t.Evidence)]
}

// siteOf is the variant index an episode of seed plays (Task.Site).
func (e *Episode) siteOf(seed uint64) int {
	return int(seed % uint64(len(e.sites)))
}

// Task is the compiled task the episode plays.
func (e *Episode) Task() *Task { return e.t }

// Reset starts the episode over with a seed. The seed picks the site
// variant (Task.Site) and draws the noise: the state at step 0 is that
// variant's compiled initial state.
func (e *Episode) Reset(seed uint64) {
	e.bindSite(e.siteOf(seed))
	t := e.t
	// Rows before the initial tick are read from t.Init (row), so only
	// the initial row, which actions write, is copied.
	h := t.History
	copy(e.ring[(t.InitTick%h)*e.n:], t.Init[(h-1)*e.n:h*e.n])
	e.tick = t.InitTick
	e.ticks.changed = append(e.ticks.changed[:0], e.prep.initChanged...)
	e.ticks.full = e.prep.initFull
	e.seed = seed
	e.step = 0
	e.done = false
	e.terminal = NotDone
	e.rec = record.EpisodeMetrics{OptimalSteps: t.Optimal}
	e.comp = record.Components{}
	clear(e.found)
	e.seen = e.seen[:0]
	e.invalid = e.invalid[:0]
	e.strBuf = e.strBuf[:0]
	e.strEnd = e.strEnd[:0]
	e.restartedHealthy = false
	e.rules.reset(e)
}

// Fork returns an independent copy of the episode at its current step.
func (e *Episode) Fork() *Episode {
	f := *e
	f.ring = append([]uint64(nil), e.ring...)
	f.foundBuf = append([]bool(nil), e.foundBuf...)
	f.found = f.foundBuf[:len(e.found)]
	f.sites = append([]siteBinding(nil), e.sites...)
	f.seen = append(make([]uint64, 0, cap(e.seen)), e.seen...)
	f.invalid = append(make([]uint64, 0, cap(e.invalid)), e.invalid...)
	f.strBuf = append([]byte(nil), e.strBuf...)
	f.strEnd = append([]uint32(nil), e.strEnd...)
	f.scratch, f.lookahead = nil, tickState{}
	f.ticks = e.ticks.clone()
	f.norm = make([]byte, 0, cap(e.norm))
	f.noiseText = nil
	f.spans, f.spanDur = nil, nil
	f.wordAt = make([]int32, 0, cap(e.wordAt))
	f.reader = reader{}
	e.rules.fork(e, &f)
	return &f
}

// Seed, StepCount, Tick, Done and Terminal describe where the episode is.
func (e *Episode) Seed() uint64       { return e.seed }
func (e *Episode) StepCount() int     { return e.step }
func (e *Episode) Tick() int          { return e.tick }
func (e *Episode) Done() bool         { return e.done }
func (e *Episode) Terminal() Terminal { return e.terminal }

// Components are the reward parts so far; an sre_zero episode's are its
// breakdown mapped onto them (RefComponents has the reference's own).
func (e *Episode) Components() record.Components { return e.rules.components(e) }

// Record is the episode's grader-side record so far.
func (e *Episode) Record() record.EpisodeMetrics { return e.rules.record(e) }

// row is the slot vector at tick k, which must be within the ring. The
// warm-up's rows (before the initial tick) are the task's own: no episode
// changes them, so Reset does not copy them.
func (e *Episode) row(k int) []uint64 {
	t := e.t
	if k < t.InitTick {
		i := (k - t.InitTick + t.History - 1) * e.n
		return t.Init[i : i+e.n : i+e.n]
	}
	i := (k % t.History) * e.n
	return e.ring[i : i+e.n : i+e.n]
}

// Row is the current row; callers must not modify it.
func (e *Episode) Row() []uint64 { return e.row(e.tick) }

// RowAt is the row at tick k, clamped into the ring.
func (e *Episode) RowAt(k int) []uint64 {
	oldest := e.tick - e.t.History + 1
	if k < oldest {
		k = oldest
	}
	if k > e.tick {
		k = e.tick
	}
	return e.row(k)
}

// advanceRing moves a ring forward one tick and returns the new tick.
// A nil mask runs every update; otherwise only those whose bit is set
// (the grader's look-ahead, which needs only what its checks read).
func (e *Episode) advanceRing(ring []uint64, tick int, s *tickState, mask []uint64) int {
	return e.advanceRows(ring, e.t.History, tick, s, mask)
}

// advanceRows is advanceRing over a ring of h rows.
func (e *Episode) advanceRows(ring []uint64, h, tick int, s *tickState, mask []uint64) int {
	ci := (tick % h) * e.n
	cur := ring[ci : ci+e.n : ci+e.n]
	tick++
	ni := (tick % h) * e.n
	next := ring[ni : ni+e.n : ni+e.n]
	copy(next, cur)
	e.advance(next, cur, s, mask)
	return tick
}

// Advance moves the world one tick without an action; the grader's idle
// ticks and tests use it.
func (e *Episode) Advance() {
	e.tick = e.advanceRing(e.ring, e.tick, &e.ticks, nil)
}

func clamp(x, lo, hi float64) float64 {
	if x < lo {
		return lo
	}
	if x > hi {
		return hi
	}
	return x
}

// Step plays one action. It never panics on a bound Action and never
// allocates. A nil action is an invalid one.
func (e *Episode) Step(a *Action) StepResult {
	if a == nil {
		return e.rules.step(e, unbound)
	}
	return e.rules.step(e, *a)
}

// unbound stands for a nil Action: it carries no sre_zero parse either.
var unbound = Action{Tool: -1, Service: -1, Key: NoSlot, Err: ErrSyntax}

// stepNative is Step under the native profile.
func (e *Episode) stepNative(a *Action) StepResult {
	t := e.t
	if e.done {
		return StepResult{Obs: Observation{Step: int32(e.step), Tick: int32(e.tick), Tool: -1, Service: -1, Key: NoSlot, Err: ErrEpisodeDone, Done: true}, Terminal: e.terminal}
	}
	raw0 := e.comp.Raw()
	e.step++
	e.rec.TotalSteps++
	obs := Observation{Tool: a.Tool, Service: a.Service, Key: a.Key, Err: a.Err, Detail: a.Detail}
	if a.Err != OK || a.Tool < 0 || int(a.Tool) >= len(t.Tools) {
		if obs.Err == OK {
			obs.Err = ErrUnknownTool
		}
		e.countInvalid(a.Canon)
		e.Advance()
	} else {
		effect := t.Tools[a.Tool].Effect
		repeated := contains(e.seen, a.Canon)
		if !repeated {
			e.seen = append(e.seen, a.Canon)
		}
		newEvidence := false
		switch effect {
		case EffectRestart:
			e.restart(int(a.Service))
			e.Advance()
		case EffectUpdate:
			obs.Previous = e.Row()[a.Key]
			e.update(a)
			e.Advance()
		case EffectRollback:
			e.rollback(int(a.Service))
			e.Advance()
		case EffectOperate:
			e.operate(int(a.Service), t.Tools[a.Tool].Operation, &a.Names)
			e.Advance()
		case EffectEscalate:
			e.escalate(a)
		case EffectResolve:
			e.resolve(a)
		default:
			e.Advance()
			newEvidence = e.noteEvidence(a)
		}
		if repeated && !newEvidence && effect != EffectResolve && effect != EffectEscalate {
			e.rec.RepeatedActions++
			e.comp.Penalties += t.Rubric.RepeatedUselessAction
		}
	}
	if !e.done && e.step >= t.Budget {
		e.finish(TermBudget)
	}
	obs.Step = int32(e.step)
	obs.StepsLeft = int32(max(0, t.Budget-e.step))
	obs.Tick = int32(e.tick)
	obs.Done = e.done
	return StepResult{Obs: obs, Reward: roundReward(clamp(e.comp.Raw()-raw0, -1, 1)), Terminal: e.terminal}
}

// roundReward drops float noise from summing components (0.049999… for
// 0.05), so rewards print as authored; 1e-9 is far below any weight.
func roundReward(r float64) float64 { return math.Round(r*1e9) / 1e9 }

func contains(s []uint64, x uint64) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

func (e *Episode) countInvalid(canon uint64) {
	e.rec.InvalidActions++
	if contains(e.invalid, canon) {
		e.rec.RepeatedActions++
		e.comp.Penalties += e.t.Rubric.RepeatedInvalidAction
		return
	}
	if len(e.invalid) < cap(e.invalid) {
		e.invalid = append(e.invalid, canon)
	}
	e.comp.Penalties += e.t.Rubric.InvalidAction
}

func (e *Episode) finish(term Terminal) {
	e.done = true
	e.terminal = term
	e.rules.creditEvidence(e, term)
	e.rec.FinalReward = roundReward(clamp(e.comp.Raw(), 0, 1))
	if e.rec.WrongChange && e.wrongChanges() == 0 {
		e.rec.Recovered = true
	}
}

func (e *Episode) noteEvidence(a *Action) bool {
	t := e.t
	isConfig := t.Tools[a.Tool].Effect == EffectConfig
	fresh := false
	for i, r := range t.Evidence {
		if e.found[i] || r.Service != a.Service {
			continue
		}
		if r.Tool == a.Tool && (r.Key == a.Key || (isConfig && a.Key == NoSlot)) {
			e.found[i] = true
			fresh = true
		}
	}
	if fresh {
		e.rec.EvidenceActions++
		e.comp.Evidence = t.Rubric.Evidence * e.coverage()
	}
	return fresh
}

func (e *Episode) coverage() float64 {
	if len(e.found) == 0 {
		return 1
	}
	n := 0
	for _, f := range e.found {
		if f {
			n++
		}
	}
	return float64(n) / float64(len(e.found))
}

func (e *Episode) isDistractor(svc int16) bool {
	for _, d := range e.t.Distractors {
		if d == svc {
			return true
		}
	}
	return false
}

func (e *Episode) isFaultService(svc int16) bool {
	for i := range e.t.Faults {
		if e.t.Faults[i].Service == svc {
			return true
		}
	}
	return false
}

// isRemedyService reports whether a fault's remedy acts on svc, which an
// operation on a role (the stale side of a rotated secret) may put
// beside the fault's own service.
func (e *Episode) isRemedyService(svc int16) bool {
	for i := range e.t.Faults {
		for _, r := range e.t.Faults[i].Remedies {
			if r.Service == svc {
				return true
			}
		}
	}
	return false
}

func (e *Episode) healthy(row []uint64, svc int) bool {
	st := e.t.Services[svc].Status
	if st == NoSlot {
		return true
	}
	id, ok := e.t.StringID(StatusHealthy)
	return ok && row[st] == uint64(id)
}

// fixedCount is how many faults hold their fixed_when on a row.
func (e *Episode) fixedCount(row []uint64) int {
	n := 0
	for i := range e.t.Faults {
		f := &e.t.Faults[i]
		if e.eval(e.t.Code[f.Fixed.Start:f.Fixed.End], row, row) != 0 {
			n++
		}
	}
	return n
}

func (e *Episode) beginRemediation(svc int16) {
	e.rec.RemediationActions++
	if e.t.OutOfReach() {
		// Nothing the agent may change is at fault: every write is a
		// wrong change (DESIGN: escalation can be right).
		e.rec.WrongChange = true
		e.comp.Penalties += e.t.Rubric.WrongChange
	}
	if e.isFaultService(svc) || e.isRemedyService(svc) {
		e.rec.CorrectServiceRemediations++
	}
	if e.isDistractor(svc) {
		e.rec.DistractorFailures++
		e.comp.Penalties += e.t.Rubric.DistractorAction
	}
}

func (e *Episode) restart(svc int) {
	t := e.t
	row := e.Row()
	e.beginRemediation(int16(svc))
	before := e.fixedCount(row)
	wasHealthy := e.healthy(row, svc)
	code := t.Code
	for _, as := range t.Services[svc].Restart {
		row[as.Slot] = e.eval(code[as.Code.Start:as.Code.End], row, row)
		e.ticks.force(as.Slot)
	}
	correct := false
	for i := range t.Faults {
		for _, r := range t.Faults[i].Remedies {
			if r.Effect == EffectRestart && int(r.Service) == svc {
				correct = true
			}
		}
	}
	if e.fixedCount(row) > before {
		correct = true
	}
	if wasHealthy {
		e.restartedHealthy = true
		e.comp.Penalties += t.Rubric.RestartHealthy
	}
	e.judgeRemediation(correct && !wasHealthy)
}

// rollback redeploys the version a service ran before its newest deploy
// in the change history; with no deploy there, the current version is
// redeployed, which only restarts the process.
func (e *Episode) rollback(svc int) {
	t := e.t
	row := e.Row()
	e.beginRemediation(int16(svc))
	before := e.fixedCount(row)
	wasHealthy := e.healthy(row, svc)
	wrongBefore := e.wrongChanges()
	redeployed := false
	for i := range t.Changes {
		c := &t.Changes[i]
		if int(c.Service) == svc && t.IsDeploy(c) {
			// Changes are newest first: the first deploy is the newest.
			redeployed = row[c.Slot] != c.Old
			row[c.Slot] = c.Old
			e.ticks.force(c.Slot)
			break
		}
	}
	code := t.Code
	for _, as := range t.Services[svc].Rollback {
		row[as.Slot] = e.eval(code[as.Code.Start:as.Code.End], row, row)
		e.ticks.force(as.Slot)
	}
	correct := e.fixedCount(row) > before
	for i := range t.Faults {
		for _, r := range t.Faults[i].Remedies {
			if r.Effect == EffectRollback && int(r.Service) == svc {
				correct = true
			}
		}
	}
	if e.wrongChanges() > wrongBefore && !t.OutOfReach() {
		e.rec.WrongChange = true
		e.comp.Penalties += t.Rubric.WrongChange
	}
	if wasHealthy && !redeployed {
		e.restartedHealthy = true
		e.comp.Penalties += t.Rubric.RestartHealthy
	}
	e.judgeRemediation(correct && (redeployed || !wasHealthy))
}

// operate applies an operation to a service: the assignments its kind
// declares, or nothing where its kind has no such operation (the tool
// acknowledges it all the same). It is correct when a fault's remedy is
// that operation on that service, or when it fixes a fault. What it leaves
// changed is judged as a config write is (prepared.judged); applied to a
// healthy service where it is no remedy and changes nothing judged, it is a
// needless operation, penalised as a restart of a healthy service.
func (e *Episode) operate(svc int, op int16, names *[MaxOperationArgs]string) {
	t := e.t
	row := e.Row()
	for i := range names {
		e.opArgs[i] = 0
		if names[i] != "" {
			e.opArgs[i] = e.word(value.OfString(names[i]))
		}
	}
	e.beginRemediation(int16(svc))
	before := e.fixedCount(row)
	wasHealthy := e.healthy(row, svc)
	wrongBefore := e.wrongChanges()
	code := t.Code
	for i := range t.Services[svc].Operations {
		so := &t.Services[svc].Operations[i]
		if so.Op != op {
			continue
		}
		// Every value is computed from the row before the operation, so
		// the order of its assignments does not matter.
		var vals [MaxOperationSets]uint64
		for j, as := range so.Assigns {
			vals[j] = e.eval(code[as.Code.Start:as.Code.End], row, row)
		}
		for j, as := range so.Assigns {
			row[as.Slot] = vals[j]
			e.ticks.force(as.Slot)
		}
	}
	correct := e.fixedCount(row) > before || isOperationRemedy(t, svc, op, names)
	wrong := e.wrongChanges() > wrongBefore
	if wrong {
		e.rec.WrongChange = true
		e.comp.Penalties += t.Rubric.WrongChange
	}
	if wasHealthy && !correct && !wrong {
		e.restartedHealthy = true
		e.comp.Penalties += t.Rubric.RestartHealthy
	}
	e.judgeRemediation(correct)
}

// isOperationRemedy reports whether some fault's remedy applies op to svc
// with these arguments; nil names match any.
func isOperationRemedy(t *Task, svc int, op int16, names *[MaxOperationArgs]string) bool {
	for i := range t.Faults {
		for _, r := range t.Faults[i].Remedies {
			if r.Effect == EffectOperate && int(r.Service) == svc && r.Operation == op && (names == nil || sameArgs(r.Args, names)) {
				return true
			}
		}
	}
	return false
}

// sameArgs reports whether an operation's arguments are a remedy's.
func sameArgs(want []string, names *[MaxOperationArgs]string) bool {
	for i := range names {
		w := ""
		if i < len(want) {
			w = want[i]
		}
		if names[i] != w {
			return false
		}
	}
	return true
}

func (e *Episode) judgeRemediation(correct bool) {
	if correct {
		e.rec.CorrectRemediations++
	} else {
		e.rec.WrongRemediations++
	}
	if e.fixedCount(e.Row()) == len(e.t.Faults) {
		e.rec.CorrectRemediationApplied = true
	}
}

func (e *Episode) update(a *Action) {
	t := e.t
	row := e.Row()
	e.beginRemediation(a.Service)
	before := e.fixedCount(row)
	wrongBefore := e.wrongChanges()
	row[a.Key] = e.word(a.Value)
	e.ticks.force(a.Key)
	wrongAfter := e.wrongChanges()
	if wrongAfter > wrongBefore && !t.OutOfReach() {
		e.rec.WrongChange = true
		e.comp.Penalties += t.Rubric.WrongChange
	}
	e.judgeRemediation(e.fixedCount(row) > before || isUpdateRemedy(t, a.Service, a.Key, row[a.Key]))
}

// isUpdateRemedy reports whether writing w to slot on svc is some fault's
// update remedy. A fault that needs a write and a restart (a memory
// ceiling above the host: lower it, then start the killed process) is not
// fixed by the write alone, which is still a right step.
func isUpdateRemedy(t *Task, svc int16, slot SlotID, w uint64) bool {
	for i := range t.Faults {
		for _, r := range t.Faults[i].Remedies {
			if r.Effect == EffectUpdate && r.Service == svc && r.Slot == slot && r.Value == w {
				return true
			}
		}
	}
	return false
}

// word encodes a value for a slot, keeping strings the task does not know
// in the episode's own string buffer.
func (e *Episode) word(v value.Value) uint64 {
	if w, ok := e.t.WordOf(v); ok {
		return w
	}
	if v.K != value.String {
		return 0
	}
	for i := range e.strEnd {
		if e.episodeString(i) == v.S {
			return uint64(len(e.t.Strings) + i)
		}
	}
	e.strBuf = append(e.strBuf, v.S...)
	e.strEnd = append(e.strEnd, uint32(len(e.strBuf)))
	return uint64(len(e.t.Strings) + len(e.strEnd) - 1)
}

func (e *Episode) episodeString(i int) string {
	start := uint32(0)
	if i > 0 {
		start = e.strEnd[i-1]
	}
	return string(e.strBuf[start:e.strEnd[i]])
}

// String is the text of a string word.
func (e *Episode) String(id StrID) string {
	if int(id) < len(e.t.Strings) {
		return e.t.Strings[id]
	}
	i := int(id) - len(e.t.Strings)
	if i < len(e.strEnd) {
		return e.episodeString(i)
	}
	return ""
}

func (e *Episode) sameString(a, b StrID) bool {
	if a == b {
		return true
	}
	n := StrID(len(e.t.Strings))
	if a < n && b < n {
		return false
	}
	return e.String(a) == e.String(b)
}

// wrongChanges counts config keys that differ from the initial state and
// that no fault's remedy targets.
func (e *Episode) wrongChanges() int {
	row := e.Row()
	init := e.t.Row()
	n := 0
	for _, si := range e.judged {
		if row[si] != init[si] {
			n++
		}
	}
	return n
}

func isRemedySlot(t *Task, s SlotID) bool {
	for i := range t.Faults {
		for _, r := range t.Faults[i].Remedies {
			if r.Slot == s {
				return true
			}
		}
	}
	return false
}

// succeed records a successful end at this step: resolution, and
// efficiency against the certified optimum.
func (e *Episode) succeed() {
	t, r := e.t, &e.t.Rubric
	e.rec.Success = true
	e.rec.StepsToResolution = e.step
	e.comp.Resolution = r.Resolution
	eff := 1.0
	if e.step > 0 && t.Optimal > 0 {
		eff = min(1, float64(t.Optimal)/float64(e.step))
	}
	e.comp.Efficiency = r.Efficiency * eff
}

// escalate hands the incident over. Where the faults are out of the
// agent's reach (Task.OutOfReach) that is the right end: it succeeds when
// the reason diagnoses them as resolve_incident's root cause would be read
// and nothing was changed. Anywhere else it ends the episode unresolved.
func (e *Episode) escalate(a *Action) {
	t := e.t
	if !t.OutOfReach() {
		e.finish(TermEscalated)
		return
	}
	r := &t.Rubric
	if e.diagnose(a.Text[0]) {
		e.rec.RootCauseIdentified = true
		e.rec.Diagnosed = true
		e.comp.Diagnosis = r.Diagnosis
		if e.rec.RemediationActions == 0 {
			// Handing over is the mitigation within reach; the world
			// itself stays unhealthy, so Mitigated stays false.
			e.comp.Mitigation = r.Mitigation
			e.succeed()
		}
	}
	e.finish(TermEscalated)
}

func (e *Episode) resolve(a *Action) {
	t := e.t
	r := &t.Rubric
	mitigated := e.mitigated()
	diagnosed := e.diagnose(a.Text[0])
	fixNamed := e.namesFix(a.Text[1])
	specific := !e.restartedHealthy && e.wrongChanges() == 0
	if diagnosed {
		e.rec.RootCauseIdentified = true
		e.rec.Diagnosed = true
		e.comp.Diagnosis = r.Diagnosis
	}
	if fixNamed {
		e.rec.FixIdentified = true
	}
	if mitigated {
		e.rec.Mitigated = true
		e.rec.CorrectRemediationApplied = true
		e.comp.Mitigation = r.Mitigation
	}
	if mitigated && diagnosed && specific {
		e.succeed()
		e.finish(TermResolved)
		return
	}
	e.rec.PrematureResolutions++
	e.comp.Penalties += r.PrematureResolution
	e.finish(TermRejected)
}

// Poke sets a slot of the current row. The compiler uses it to inject the
// faults' edits before the warm-up; agents never reach it.
func (e *Episode) Poke(s SlotID, w uint64) { e.Row()[s] = w; e.ticks.force(s) }

// History returns a copy of the ring's rows, oldest first, ending at the
// current tick.
func (e *Episode) History() []uint64 {
	h := e.t.History
	out := make([]uint64, 0, h*e.n)
	for k := e.tick - h + 1; k <= e.tick; k++ {
		out = append(out, e.row(k)...)
	}
	return out
}
