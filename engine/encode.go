package engine

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"sort"
	"strconv"

	"github.com/srezc/srezc/internal/snapshot"

	"github.com/srezc/srezc/record"
	"github.com/srezc/srezc/value"
)

// A compiled task file is the line "srezc-ir <FormatVersion> <hash>\n"
// followed by the task as JSON (no maps anywhere in Task, so encoding/json
// writes fields in declaration order). The hash is the task's semantic hash
// (ComputeHash), which DecodeTask recomputes from the decoded task.
const irMagic = "srezc-ir"

// EncodeTask writes a task in the versioned IR format, setting its Hash.
func EncodeTask(t *Task) ([]byte, error) {
	hash := ComputeHash(t)
	c := *t
	c.Hash = ""
	if len(t.Sites) > 0 {
		// Every variant carries the task's hash, and the program and
		// layout it shares with the task; the file holds them once.
		c.Sites = make([]*Task, len(t.Sites))
		for i, s := range t.Sites {
			cs := *s
			cs.Hash = ""
			cs.omitShared(t)
			c.Sites[i] = &cs
		}
	}
	body, err := json.Marshal(&c)
	if err != nil {
		return nil, err
	}
	t.Hash = hash
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s %d %s\n", irMagic, FormatVersion, t.Hash)
	b.Write(body)
	b.WriteByte('\n')
	return b.Bytes(), nil
}

// DecodeTask reads a task written by EncodeTask, checks its version and
// hash, and validates every index so that running it cannot panic.
func DecodeTask(data []byte) (*Task, error) {
	line, body, ok := bytes.Cut(data, []byte{'\n'})
	if !ok {
		return nil, errors.New("not a srezc IR file: missing header line")
	}
	var magic, hash string
	var version int
	if _, err := fmt.Sscanf(string(line), "%s %d %s", &magic, &version, &hash); err != nil || magic != irMagic {
		return nil, errors.New("not a srezc IR file: bad header")
	}
	if version != FormatVersion {
		return nil, fmt.Errorf("IR format version %d, this srezc reads version %d: recompile the task", version, FormatVersion)
	}
	var t Task
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&t); err != nil {
		return nil, fmt.Errorf("IR body: %v", err)
	}
	if dec.More() {
		return nil, errors.New("IR body: data after the task")
	}
	for _, s := range t.Sites {
		if s != nil {
			s.inheritShared(&t)
		}
	}
	if ComputeHash(&t) != hash {
		return nil, errors.New("IR hash mismatch: the file is corrupt or was edited")
	}
	t.Hash = hash
	for _, s := range t.Sites {
		if s != nil {
			s.Hash = hash
		}
	}
	t.ShareSites()
	if err := t.Validate(); err != nil {
		return nil, err
	}
	t.Prepare()
	return &t, nil
}

// omitShared drops from a site variant's copy what it holds equal to its
// task and is never empty in a native task; inheritShared restores it.
func (s *Task) omitShared(t *Task) {
	if slices.Equal(s.Code, t.Code) {
		s.Code = nil
	}
	if slices.Equal(s.Updates, t.Updates) {
		s.Updates = nil
	}
	if slices.Equal(s.Slots, t.Slots) {
		s.Slots = nil
	}
	if slices.Equal(s.Strings, t.Strings) {
		s.Strings = nil
	}
	if reflect.DeepEqual(s.Services, t.Services) {
		s.Services = nil
	}
	if reflect.DeepEqual(s.Tools, t.Tools) {
		s.Tools = nil
	}
	if reflect.DeepEqual(s.Logs, t.Logs) {
		s.Logs = nil
	}
	if reflect.DeepEqual(s.Components, t.Components) {
		s.Components = nil
	}
	if reflect.DeepEqual(s.Mechanisms, t.Mechanisms) {
		s.Mechanisms = nil
	}
}

func (s *Task) inheritShared(t *Task) {
	if len(s.Code) == 0 {
		s.Code = t.Code
	}
	if len(s.Updates) == 0 {
		s.Updates = t.Updates
	}
	if len(s.Slots) == 0 {
		s.Slots = t.Slots
	}
	if len(s.Strings) == 0 {
		s.Strings = t.Strings
	}
	if len(s.Services) == 0 {
		s.Services = t.Services
	}
	if len(s.Tools) == 0 {
		s.Tools = t.Tools
	}
	if len(s.Logs) == 0 {
		s.Logs = t.Logs
	}
	if len(s.Components) == 0 {
		s.Components = t.Components
	}
	if len(s.Mechanisms) == 0 {
		s.Mechanisms = t.Mechanisms
	}
}

// validateSites checks that every site variant is a valid task of the same
// shape: an episode sizes its buffers and binds actions by the task it was
// made for, and plays whichever variant its seed picks.
func (t *Task) validateSites() error {
	for i, s := range t.Sites {
		switch {
		case s == nil:
			return fmt.Errorf("site %d is missing", i+1)
		case len(s.Sites) > 0:
			return fmt.Errorf("site %d has sites of its own", i+1)
		case t.Profile != s.Profile || t.Profile == record.ProfileSreZero:
			return fmt.Errorf("site %d: only native tasks vary their site", i+1)
		case s.ID != t.ID || s.Budget != t.Budget || s.History != t.History || s.InitTick != t.InitTick || len(s.Updates) != len(t.Updates):
			return fmt.Errorf("site %d differs from the task in id, budget, history or program shape", i+1)
		case !slices.Equal(s.Slots, t.Slots) || !slices.Equal(s.Strings, t.Strings):
			return fmt.Errorf("site %d differs from the task in slots or strings", i+1)
		case !reflect.DeepEqual(s.Services, t.Services) || !reflect.DeepEqual(s.Tools, t.Tools):
			return fmt.Errorf("site %d differs from the task in services or tools", i+1)
		}
		if err := s.Validate(); err != nil {
			return fmt.Errorf("site %d: %v", i+1, err)
		}
	}
	return nil
}

// Validate checks every id and span of a task, and that every program keeps
// its stack within bounds and leaves one word.
func (t *Task) Validate() error {
	n := len(t.Slots)
	slotOK := func(s SlotID) bool { return s >= 0 && int(s) < n }
	svcOK := func(s int16) bool { return s >= 0 && int(s) < len(t.Services) }
	if t.Format != FormatVersion {
		return fmt.Errorf("task format %d, want %d", t.Format, FormatVersion)
	}
	if err := t.validateSites(); err != nil {
		return err
	}
	switch t.Profile {
	case record.ProfileSreZero:
		return t.validateRef()
	case "", record.ProfileNative:
		if t.Ref != nil {
			return errors.New("a native task has no ref data")
		}
	default:
		return fmt.Errorf("unknown profile %q", t.Profile)
	}
	if t.History < 2 || t.History > 64 {
		return fmt.Errorf("history %d out of range", t.History)
	}
	if t.InitTick < t.History-1 || t.InitTick > 1<<20 {
		return fmt.Errorf("init tick %d out of range", t.InitTick)
	}
	if len(t.Init) != t.History*n {
		return fmt.Errorf("init has %d words, want %d", len(t.Init), t.History*n)
	}
	if len(t.Baseline) != 0 && len(t.Baseline) != n {
		return fmt.Errorf("baseline has %d words, want %d", len(t.Baseline), n)
	}
	if t.Budget < 1 || t.Budget > 10000 || t.Hold < 0 || t.Hold > 1000 {
		return errors.New("budget or hold out of range")
	}
	for i := 1; i < len(t.Strings); i++ {
		if t.Strings[i-1] >= t.Strings[i] {
			return errors.New("strings are not sorted and unique")
		}
	}
	if _, ok := t.StringID(StatusHealthy); !ok {
		return errors.New("strings lack the healthy status")
	}
	for i := range t.Slots {
		if !svcOK(t.Slots[i].Service) {
			return fmt.Errorf("slot %d: bad service", i)
		}
		if t.Slots[i].Noise >= metricNoiseCount {
			return fmt.Errorf("slot %d: bad noise class", i)
		}
	}
	checkSpan := func(what string, sp Span) error {
		if sp.Start < 0 || sp.End < sp.Start || int(sp.End) > len(t.Code) {
			return fmt.Errorf("%s: code span out of range", what)
		}
		depth := 0
		for _, op := range t.Code[sp.Start:sp.End] {
			if op.Code >= OpCount {
				return fmt.Errorf("%s: unknown opcode %d", what, op.Code)
			}
			if (op.Code == OpLoad || op.Code == OpLoadPrev) && !slotOK(SlotID(op.A)) {
				return fmt.Errorf("%s: load of slot %d out of range", what, op.A)
			}
			if op.Code == OpArg && (op.A < 0 || op.A >= MaxOperationArgs) {
				return fmt.Errorf("%s: operation argument %d out of range", what, op.A)
			}
			pop, push := stackEffect(op.Code)
			if depth < pop {
				return fmt.Errorf("%s: stack underflow", what)
			}
			depth += push - pop
			if depth > maxStack {
				return fmt.Errorf("%s: stack deeper than %d", what, maxStack)
			}
		}
		if depth != 1 {
			return fmt.Errorf("%s: program leaves %d words", what, depth)
		}
		return nil
	}
	for i, u := range t.Updates {
		if !slotOK(u.Slot) {
			return fmt.Errorf("update %d: bad slot", i)
		}
		if err := checkSpan("update "+strconv.Itoa(i), u.Code); err != nil {
			return err
		}
	}
	if err := checkSpan("resolved_when", t.Resolved); err != nil {
		return err
	}
	for _, s := range t.AlertSlots {
		if !slotOK(s) {
			return errors.New("alert slot out of range")
		}
	}
	for i := range t.Services {
		s := &t.Services[i]
		if len(s.Deps) != len(s.DepRoles) {
			return fmt.Errorf("service %d: deps and roles differ", i)
		}
		for _, d := range s.Deps {
			if !svcOK(d) {
				return fmt.Errorf("service %d: bad dependency", i)
			}
		}
		for _, group := range [][]SlotID{s.Config, s.Metrics} {
			for _, c := range group {
				if !slotOK(c) {
					return fmt.Errorf("service %d: bad slot", i)
				}
			}
		}
		for _, sl := range []SlotID{s.Status, s.Latency, s.ErrorRate} {
			if sl != NoSlot && !slotOK(sl) {
				return fmt.Errorf("service %d: bad slot", i)
			}
		}
		if s.Status == NoSlot {
			return fmt.Errorf("service %d: no status", i)
		}
		if len(s.Spans) > MaxTraceSpans {
			return fmt.Errorf("service %d: more than %d spans", i, MaxTraceSpans)
		}
		for _, sp := range s.Spans {
			if sp.Kind != SpanClient && sp.Kind != SpanConsumer {
				return fmt.Errorf("service %d: bad span kind", i)
			}
			for _, sl := range []SlotID{sp.Latency, sp.ErrorRate, sp.Status, sp.Wait} {
				if sl != NoSlot && !slotOK(sl) {
					return fmt.Errorf("service %d: bad span slot", i)
				}
			}
			if sp.Status != NoSlot && t.Slots[sp.Status].Kind != value.String {
				return fmt.Errorf("service %d: span status is not a string", i)
			}
			for _, d := range sp.Calls {
				if !svcOK(d) {
					return fmt.Errorf("service %d: bad span call", i)
				}
			}
		}
		for _, l := range s.Logs {
			if l < 0 || int(l) >= len(t.Logs) {
				return fmt.Errorf("service %d: bad log rule", i)
			}
		}
		for _, a := range s.Restart {
			if !slotOK(a.Slot) {
				return fmt.Errorf("service %d: bad restart slot", i)
			}
			if err := checkSpan("restart", a.Code); err != nil {
				return err
			}
		}
		for _, a := range s.Rollback {
			if !slotOK(a.Slot) {
				return fmt.Errorf("service %d: bad rollback slot", i)
			}
			if err := checkSpan("rollback", a.Code); err != nil {
				return err
			}
		}
		for _, op := range s.Operations {
			if op.Op < 0 || int(op.Op) >= len(t.Operations) || len(op.Assigns) > MaxOperationSets {
				return fmt.Errorf("service %d: bad operation", i)
			}
			for _, a := range op.Assigns {
				if !slotOK(a.Slot) {
					return fmt.Errorf("service %d: bad operation slot", i)
				}
				if err := checkSpan("operation", a.Code); err != nil {
					return err
				}
			}
		}
	}
	for i := range t.Logs {
		l := &t.Logs[i]
		if !slotOK(l.Active) || !svcOK(l.Service) {
			return fmt.Errorf("log %d: bad slot", i)
		}
		for _, p := range l.Parts {
			if p.Hole != NoSlot && !slotOK(p.Hole) {
				return fmt.Errorf("log %d: bad hole", i)
			}
			if p.ID >= logIDCount || (p.ID != LogIDNone && p.Hole != NoSlot) {
				return fmt.Errorf("log %d: bad id", i)
			}
		}
	}
	if len(t.Services) > math.MaxInt16 || len(t.Tools) > math.MaxInt16 {
		return errors.New("too many services or tools")
	}
	for i := range t.Tools {
		if t.Tools[i].Effect >= effectCount {
			return fmt.Errorf("tool %d: bad effect", i)
		}
		if op := t.Tools[i].Operation; op < 0 || (t.Tools[i].Effect == EffectOperate && int(op) >= len(t.Operations)) {
			return fmt.Errorf("tool %d: bad operation", i)
		}
		if err := t.Tools[i].checkSignature(); err != nil {
			return fmt.Errorf("tool %d: %v", i, err)
		}
	}
	if len(t.Components) != len(t.Services) {
		return errors.New("components must name the services in order")
	}
	for i := range t.Faults {
		f := &t.Faults[i]
		for _, m := range f.Also {
			if m < 0 || int(m) >= len(t.Mechanisms) {
				return fmt.Errorf("fault %d: bad also-mechanism %d", i, m)
			}
		}
		for _, m := range f.Shows {
			if m < 0 || int(m) >= len(t.Mechanisms) {
				return fmt.Errorf("fault %d: bad symptom mechanism %d", i, m)
			}
		}
		for _, s := range f.Link {
			if !svcOK(s) || s == f.Service {
				return fmt.Errorf("fault %d: bad link end %d", i, s)
			}
		}
		if !svcOK(f.Service) || f.Mechanism < 0 || int(f.Mechanism) >= len(t.Mechanisms) {
			return fmt.Errorf("fault %d: bad service or mechanism", i)
		}
		if err := checkSpan("fixed_when", f.Fixed); err != nil {
			return err
		}
		for _, r := range f.Remedies {
			if !svcOK(r.Service) || ((r.Effect == EffectUpdate || r.Effect == EffectRollback) && !slotOK(r.Slot)) || (r.Effect == EffectOperate && (r.Operation < 0 || int(r.Operation) >= len(t.Operations))) {
				return fmt.Errorf("fault %d: bad remedy", i)
			}
		}
	}
	for i, c := range t.Claims {
		if !svcOK(c.Service) || c.Mechanism < -1 || int(c.Mechanism) >= len(t.Mechanisms) || c.States >= 1<<stateCount || c.Against >= 1<<stateCount {
			return fmt.Errorf("claim %d: bad service, mechanism or state", i)
		}
	}
	if t.AlertMinute < 0 || t.AlertMinute >= MinutesPerWeek {
		return errors.New("alert minute out of range")
	}
	for i, c := range t.Changes {
		if !svcOK(c.Service) || !slotOK(c.Slot) || (t.Slots[c.Slot].Class != ClassConfig && !(t.Slots[c.Slot].Class == ClassState && t.Slots[c.Slot].Kind == value.String)) || t.Slots[c.Slot].Service != c.Service ||
			c.Minute < 0 || c.Minute >= MinutesPerWeek || c.Fault < -1 || int(c.Fault) >= len(t.Faults) {
			return fmt.Errorf("change %d: bad service, slot, minute or fault", i)
		}
		if k := t.Slots[c.Slot].Kind; k == value.String && (c.Old >= uint64(len(t.Strings)) || c.New >= uint64(len(t.Strings))) {
			return fmt.Errorf("change %d: bad string", i)
		}
	}
	for _, d := range t.Distractors {
		if !svcOK(d) {
			return errors.New("bad distractor service")
		}
	}
	for _, no := range t.Noise {
		if no.Effect >= noiseCount || (no.Service != -1 && !svcOK(no.Service)) || no.Lag < 0 || int(no.Lag) >= t.History {
			return errors.New("bad noise")
		}
		if math.IsNaN(no.Rate) || math.IsNaN(no.Magnitude) {
			return errors.New("bad noise")
		}
	}
	for _, r := range t.Evidence {
		if r.Tool < 0 || int(r.Tool) >= len(t.Tools) || !svcOK(r.Service) || (r.Key != NoSlot && !slotOK(r.Key)) {
			return errors.New("bad evidence read")
		}
	}
	return nil
}

// checkSignature checks what Step and the renderer rely on when a call
// binds: every effect but escalate and resolve acts on the service given as
// the first, required, argument, and an update takes a required service,
// config key and value, in that order.
func (tl *Tool) checkSignature() error {
	names := 0
	for _, a := range tl.Args {
		if a.Type > ArgAddress {
			return errors.New("bad argument type")
		}
		if a.Type.IsName() {
			names++
			if tl.Effect != EffectOperate || a.Optional {
				return errors.New("only an operate tool takes identifiers or addresses, none optional")
			}
		}
	}
	if names > MaxOperationArgs {
		return errors.New("too many operation arguments")
	}
	required := func(i int, typ ArgType) bool {
		return i < len(tl.Args) && tl.Args[i].Type == typ && !tl.Args[i].Optional
	}
	switch tl.Effect {
	case EffectEscalate, EffectResolve:
	case EffectChanges:
		if len(tl.Args) != 1 || tl.Args[0].Type != ArgService || !tl.Args[0].Optional {
			return errors.New("a change history tool takes one optional service")
		}
	case EffectUpdate:
		if !required(0, ArgService) || !required(1, ArgConfigKey) || !required(2, ArgValue) {
			return errors.New("an update tool takes a service, a config key and a value")
		}
	case EffectOperate:
		if !required(0, ArgService) || len(tl.Args) != 1+names {
			return errors.New("an operate tool takes a service, then only identifiers and addresses")
		}
	default:
		if !required(0, ArgService) {
			return errors.New("the first argument must be a required service")
		}
	}
	return nil
}

// Episode state snapshot: magic, version, task hash, then the fields in a
// fixed order as little-endian words.
const stateMagic = "srezc-state"

// MarshalState appends the episode's complete state, enough for
// RestoreState to continue it on any machine.
func (e *Episode) MarshalState(b []byte) []byte {
	b = append(b, stateMagic...)
	b = binary.LittleEndian.AppendUint32(b, FormatVersion)
	b = binary.AppendUvarint(b, uint64(len(e.t.Hash)))
	b = append(b, e.t.Hash...)
	u := func(x uint64) { b = binary.AppendUvarint(b, x) }
	f := func(x float64) { b = binary.LittleEndian.AppendUint64(b, math.Float64bits(x)) }
	flag := func(x bool) { u(b2w(x)) }
	u(uint64(e.tick))
	u(e.seed)
	u(uint64(e.step))
	flag(e.done)
	u(uint64(e.terminal))
	flag(e.restartedHealthy)
	r := &e.rec
	for _, x := range []int{r.TotalSteps, r.InvalidActions, r.RepeatedActions, r.EvidenceActions, r.RemediationActions,
		r.CorrectServiceRemediations, r.CorrectRemediations, r.WrongRemediations, r.DistractorFailures,
		r.PrematureResolutions, r.StepsToResolution, r.OptimalSteps} {
		u(uint64(x))
	}
	for _, x := range []bool{r.RootCauseIdentified, r.FixIdentified, r.CorrectRemediationApplied, r.Success,
		r.Diagnosed, r.Mitigated, r.WrongChange, r.Recovered} {
		flag(x)
	}
	f(r.FinalReward)
	c := &e.comp
	for _, x := range []float64{c.Evidence, c.Diagnosis, c.Mitigation, c.Resolution, c.Efficiency, c.Penalties} {
		f(x)
	}
	u(uint64(len(e.found)))
	for _, x := range e.found {
		flag(x)
	}
	for _, list := range [][]uint64{e.seen, e.invalid} {
		u(uint64(len(list)))
		for _, x := range list {
			b = binary.LittleEndian.AppendUint64(b, x)
		}
	}
	u(uint64(len(e.strEnd)))
	for _, x := range e.strEnd {
		u(uint64(x))
	}
	u(uint64(len(e.strBuf)))
	b = append(b, e.strBuf...)
	// The ring in its own order, each position holding the row of the
	// tick it stands for in the window (row), so a snapshot does not
	// depend on what an earlier episode left in unused positions.
	u(uint64(len(e.ring)))
	h := e.t.History
	for p := 0; p < h; p++ {
		k := e.tick - (e.tick-p)%h
		for _, w := range e.row(k) {
			b = binary.LittleEndian.AppendUint64(b, w)
		}
	}
	return e.rules.marshal(e, b)
}

// RestoreState replaces the episode's state with a snapshot taken by
// MarshalState on an episode of the same task.
func (e *Episode) RestoreState(data []byte) error {
	if !bytes.HasPrefix(data, []byte(stateMagic)) || len(data) < len(stateMagic)+4 {
		return errors.New("not a srezc episode state")
	}
	data = data[len(stateMagic):]
	if binary.LittleEndian.Uint32(data) != FormatVersion {
		return errors.New("episode state from another IR format version")
	}
	r := &snapshot.Reader{B: data[4:]}
	hash := string(r.Bytes(r.Len(128)))
	if r.Err == nil && hash != e.t.Hash {
		return errors.New("episode state belongs to another task")
	}
	f := func() float64 { return math.Float64frombits(r.Word()) }
	flag := func() bool { return r.Uvarint() != 0 }
	var s Episode = *e
	s.tick = int(r.Uvarint())
	s.seed = r.Uvarint()
	// The seed picks the site variant the snapshot was played on.
	s.bindSite(s.siteOf(s.seed))
	s.step = r.Len(e.t.Budget)
	s.done = flag()
	s.terminal = Terminal(r.Len(int(TermBudget)))
	s.restartedHealthy = flag()
	rec := record.EpisodeMetrics{}
	for _, p := range []*int{&rec.TotalSteps, &rec.InvalidActions, &rec.RepeatedActions, &rec.EvidenceActions,
		&rec.RemediationActions, &rec.CorrectServiceRemediations, &rec.CorrectRemediations, &rec.WrongRemediations,
		&rec.DistractorFailures, &rec.PrematureResolutions, &rec.StepsToResolution, &rec.OptimalSteps} {
		*p = r.Len(1 << 30)
	}
	for _, p := range []*bool{&rec.RootCauseIdentified, &rec.FixIdentified, &rec.CorrectRemediationApplied,
		&rec.Success, &rec.Diagnosed, &rec.Mitigated, &rec.WrongChange, &rec.Recovered} {
		*p = flag()
	}
	rec.FinalReward = f()
	s.rec = rec
	c := record.Components{}
	for _, p := range []*float64{&c.Evidence, &c.Diagnosis, &c.Mitigation, &c.Resolution, &c.Efficiency, &c.Penalties} {
		*p = f()
	}
	s.comp = c
	if r.Len(len(s.found)) != len(s.found) && r.Err == nil {
		r.Err = errors.New("state snapshot has a different evidence set")
	}
	found := make([]bool, len(s.found))
	for i := range found {
		found[i] = flag()
	}
	lists := [2][]uint64{}
	for i := range lists {
		k := r.Len(e.t.Budget + 1)
		l := make([]uint64, k, e.t.Budget+1)
		for j := range l {
			l[j] = r.Word()
		}
		lists[i] = l
	}
	strEnd := make([]uint32, r.Len(e.t.Budget+1))
	last := uint64(0)
	for i := range strEnd {
		x := r.Uvarint()
		if x < last && r.Err == nil {
			r.Err = errors.New("state snapshot has bad strings")
		}
		last = x
		strEnd[i] = uint32(x)
	}
	strBuf := append([]byte(nil), r.Bytes(r.Len(1<<24))...)
	if r.Err == nil && last > uint64(len(strBuf)) {
		r.Err = errors.New("state snapshot has bad strings")
	}
	if r.Len(len(e.ring)) != len(e.ring) && r.Err == nil {
		r.Err = errors.New("state snapshot has a different ring size")
	}
	ring := make([]uint64, len(e.ring))
	for i := range ring {
		ring[i] = r.Word()
	}
	e.rules.restore(e, &s, r)
	if r.Err == nil && len(r.B) != 0 {
		r.Err = errors.New("state snapshot has trailing bytes")
	}
	if r.Err == nil && s.tick < s.t.InitTick {
		r.Err = errors.New("state snapshot tick out of range")
	}
	if r.Err != nil {
		return r.Err
	}
	s.foundBuf = append([]bool(nil), e.foundBuf...)
	copy(s.foundBuf, found)
	s.found = s.foundBuf[:len(found)]
	s.seen, s.invalid, s.strEnd, s.strBuf = lists[0], lists[1], strEnd, strBuf
	copy(e.ring, ring)
	s.ring = e.ring
	*e = s
	e.ticks.changed = e.ticks.changed[:0]
	e.ticks.full = true
	return nil
}

// SuiteHash is the semantic hash of a suite: SHA-256 over its tasks' ids
// and hashes, sorted by id, so it does not depend on file names or order.
func SuiteHash(tasks []*Task) string {
	lines := make([]string, len(tasks))
	for i, t := range tasks {
		lines[i] = t.ID + " " + t.Hash + "\n"
	}
	sort.Strings(lines)
	h := sha256.New()
	for _, l := range lines {
		h.Write([]byte(l))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// A compiled suite file is the line "srezc-suite <FormatVersion> <suite
// hash> <n>\n" followed by n tasks, each as EncodeTask writes it (two
// lines). It is everything a server needs to run the suite, with no
// sources beside it.
const suiteMagic = "srezc-suite"

// EncodeSuite writes tasks as one compiled suite file, in their order.
func EncodeSuite(tasks []*Task) ([]byte, error) {
	var b bytes.Buffer
	bodies := make([][]byte, len(tasks))
	for i, t := range tasks {
		data, err := EncodeTask(t)
		if err != nil {
			return nil, fmt.Errorf("task %s: %v", t.ID, err)
		}
		bodies[i] = data
	}
	fmt.Fprintf(&b, "%s %d %s %d\n", suiteMagic, FormatVersion, SuiteHash(tasks), len(tasks))
	for _, d := range bodies {
		b.Write(d)
	}
	return b.Bytes(), nil
}

// IsSuite reports whether data starts like a compiled suite file.
func IsSuite(data []byte) bool { return bytes.HasPrefix(data, []byte(suiteMagic+" ")) }

// DecodeSuite reads a compiled suite file: every task is decoded and
// checked as DecodeTask does, and the suite hash must match.
func DecodeSuite(data []byte) ([]*Task, error) {
	line, rest, ok := bytes.Cut(data, []byte{'\n'})
	if !ok {
		return nil, errors.New("not a srezc suite file: missing header line")
	}
	var magic, hash string
	var version, n int
	if _, err := fmt.Sscanf(string(line), "%s %d %s %d", &magic, &version, &hash, &n); err != nil || magic != suiteMagic || n < 0 {
		return nil, errors.New("not a srezc suite file: bad header")
	}
	if version != FormatVersion {
		return nil, fmt.Errorf("suite format version %d, this srezc reads version %d: recompile the suite", version, FormatVersion)
	}
	tasks := make([]*Task, 0, min(n, 1<<16))
	for i := 0; i < n; i++ {
		head, after, ok1 := bytes.Cut(rest, []byte{'\n'})
		body, next, ok2 := bytes.Cut(after, []byte{'\n'})
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("suite file: task %d of %d is missing", i+1, n)
		}
		t, err := DecodeTask(append(append(append([]byte{}, head...), '\n'), append(body, '\n')...))
		if err != nil {
			return nil, fmt.Errorf("suite file: task %d: %v", i+1, err)
		}
		tasks = append(tasks, t)
		rest = next
	}
	if len(bytes.TrimSpace(rest)) > 0 {
		return nil, errors.New("suite file: data after the last task")
	}
	if SuiteHash(tasks) != hash {
		return nil, errors.New("suite file: suite hash mismatch: the file is corrupt or was edited")
	}
	return tasks, nil
}
