package engine

import (
	"math"
	"slices"
	"sync"
)

// prepared is what every episode of a task derives from it and never
// changes: the incremental-tick index, the noise keys, the health checks
// and, at the first resolution, the diagnosis reader's lexicon. Prepare
// computes it once; episodes of a prepared task share it instead of each
// deriving its own, which cost more than playing a short episode.
type prepared struct {
	deps depIndex
	fast []fastUpdate // each update's fast path (fastpath.go)
	// fused holds the updates' programs with fused instructions
	// (fused.go), update i's at fusedSpan[i].
	fused                 []Op
	fusedSpan             []Span
	jitterKey, serviceKey []uint64
	// lexicon is the diagnosis reader's vocabulary (diagnose.go), found
	// when an episode first resolves: most episodes of an unprepared task
	// (certification's counterfactual worlds) never do.
	lexOnce sync.Once
	lexicon *diagLexicon
	// initChanged and initFull are the tick state every Reset starts from.
	// A compiled task's last initial row was ticked from the one before
	// (InitTick has moved past the first ring), so the slots that differ
	// are the last tick's changes; forcing them is harmless and covers a
	// warm-up of zero ticks, whose last row holds poked edits. Rows that
	// were never ticked (the compiler's own settling) need a full tick.
	initChanged []int32
	initFull    bool
	// health are the checks of a healthy world (mitigation.go), and
	// healthyWord the healthy status's word.
	health      []healthCheck
	healthyWord uint64
	// alert are the checks of the alert's condition and judged the config
	// slots a write to which is judged (episode.go), as of the AlertSlots
	// alertOf identifies: the compiler writes AlertSlots after the warm-up
	// has prepared the task, so an episode checks alertOf and derives its
	// own while they differ.
	alert   []healthCheck
	alertOf alertID
	judged  []SlotID
	// of identifies the program it was derived from, so a copy of the task
	// whose program was changed does not use it.
	of progID
}

// alertID identifies a task's AlertSlots.
type alertID struct {
	first *SlotID
	n     int
}

func alertIDOf(t *Task) alertID {
	if len(t.AlertSlots) == 0 {
		return alertID{}
	}
	return alertID{&t.AlertSlots[0], len(t.AlertSlots)}
}

type progID struct {
	code                       *Op
	updates                    *Assign
	slots                      *Slot
	init                       *uint64
	nCode, nUpd, nSlots, nInit int
	initTick                   int
}

// sameProgram reports whether two programs are the same slices, whatever
// their initial states.
func (a progID) sameProgram(b progID) bool {
	return a.code == b.code && a.updates == b.updates && a.slots == b.slots && a.nCode == b.nCode && a.nUpd == b.nUpd && a.nSlots == b.nSlots
}

func progOf(t *Task) progID {
	id := progID{nCode: len(t.Code), nUpd: len(t.Updates), nSlots: len(t.Slots), nInit: len(t.Init), initTick: t.InitTick}
	if len(t.Init) > 0 {
		id.init = &t.Init[0]
	}
	if len(t.Code) > 0 {
		id.code = &t.Code[0]
	}
	if len(t.Updates) > 0 {
		id.updates = &t.Updates[0]
	}
	if len(t.Slots) > 0 {
		id.slots = &t.Slots[0]
	}
	return id
}

// Prepare derives t's shared episode data. Call it once the program is
// final and before episodes run concurrently (the compiler and DecodeTask
// do); it is not safe to call while episodes of t are being created.
func (t *Task) Prepare() {
	if t.prepared == nil || t.prepared.of != progOf(t) {
		t.prepared = prepare(t, nil)
	}
	t.prepared.bindAlert(t)
	for _, s := range t.Sites {
		if s.prepared == nil || s.prepared.of != progOf(s) {
			s.prepared = prepare(s, t.prepared)
		}
		s.prepared.bindAlert(s)
	}
}

// bindAlert derives the alert's checks afresh when AlertSlots changed.
func (p *prepared) bindAlert(t *Task) {
	if p.alertOf != alertIDOf(t) || p.alert == nil && len(t.AlertSlots) > 0 {
		p.alert, p.alertOf = alertChecks(t), alertIDOf(t)
	}
}

// prepare derives t's shared data; like, when it was derived from the
// same program (a site variant sharing its task's code and slots, see
// ShareSites), lends what depends on the program alone.
func prepare(t *Task, like *prepared) *prepared {
	p := &prepared{of: progOf(t)}
	if like != nil && like.of.sameProgram(p.of) {
		p.deps, p.jitterKey, p.serviceKey, p.health, p.fast = like.deps, like.jitterKey, like.serviceKey, like.health, like.fast
		p.fused, p.fusedSpan = like.fused, like.fusedSpan
	} else {
		p.deps = buildDeps(t)
		p.fast = fastUpdates(t)
		p.fused, p.fusedSpan = fusedUpdates(t)
		p.jitterKey, p.serviceKey = noiseKeys(t)
		p.health = healthChecks(t)
	}
	if id, ok := t.StringID(StatusHealthy); ok {
		p.healthyWord = uint64(id)
	} else {
		p.healthyWord = math.MaxUint64 // no status can be healthy
	}
	p.alert, p.alertOf = alertChecks(t), alertIDOf(t)
	for si := range t.Slots {
		if t.Slots[si].Class == ClassConfig && !isRemedySlot(t, SlotID(si)) {
			p.judged = append(p.judged, SlotID(si))
		}
	}
	// A deployed version that no fault's rollback restores is judged too:
	// rolling back a benign deploy is a wrong change.
	for i := range t.Changes {
		s := t.Changes[i].Slot
		if t.IsDeploy(&t.Changes[i]) && !isRemedySlot(t, s) && !slices.Contains(p.judged, s) {
			p.judged = append(p.judged, s)
		}
	}
	// What an operation leaves changed is judged as a config write is,
	// unless a fault's remedy applies an operation setting it on that
	// service. Process state a restart resets and state that evolves by
	// its own rule are not: they do not stay as the operation left them.
	for svc := range t.Services {
		s := &t.Services[svc]
		for _, so := range s.Operations {
			for _, as := range so.Assigns {
				if slices.Contains(p.judged, as.Slot) || assignsSlot(s.Restart, as.Slot) || assignsSlot(t.Updates, as.Slot) || operationRemedySets(t, svc, as.Slot) {
					continue
				}
				p.judged = append(p.judged, as.Slot)
			}
		}
	}
	h, n := t.History, len(t.Slots)
	p.initFull = h < 2 || t.InitTick < h || len(t.Init) < h*n
	if !p.initFull {
		cur, before := t.Init[(h-1)*n:h*n], t.Init[(h-2)*n:(h-1)*n]
		for i := range cur {
			if cur[i] != before[i] {
				p.initChanged = append(p.initChanged, int32(i)|forced)
			}
		}
	}
	return p
}

func assignsSlot(as []Assign, s SlotID) bool {
	for _, a := range as {
		if a.Slot == s {
			return true
		}
	}
	return false
}

// operationRemedySets reports whether a fault's remedy applies, to svc, an
// operation that sets slot s.
func operationRemedySets(t *Task, svc int, s SlotID) bool {
	for _, so := range t.Services[svc].Operations {
		if isOperationRemedy(t, svc, so.Op, nil) && assignsSlot(so.Assigns, s) {
			return true
		}
	}
	return false
}

// lexiconOf returns the task's diagnosis lexicon, finding it once.
func (p *prepared) lexiconOf(t *Task) *diagLexicon {
	p.lexOnce.Do(func() { p.lexicon = lexiconFor(t) })
	return p.lexicon
}

// preparedFor returns t's shared data, deriving it afresh when t was not
// prepared or its program changed since.
func preparedFor(t *Task) *prepared {
	if p := t.prepared; p != nil && p.of == progOf(t) {
		return p
	}
	return prepare(t, nil)
}
