package engine

import (
	"math"
	"sync"
)

// prepared is what every episode of a task derives from it and never
// changes: the incremental-tick index, the noise keys, the health checks
// and, at the first resolution, the diagnosis reader's lexicon. Prepare
// computes it once; episodes of a prepared task share it instead of each
// deriving its own, which cost more than playing a short episode.
type prepared struct {
	deps                depIndex
	slotKey, serviceKey []uint64
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
	// of identifies the program it was derived from, so a copy of the task
	// whose program was changed does not use it.
	of progID
}

type progID struct {
	code                       *Op
	updates                    *Assign
	slots                      *Slot
	init                       *uint64
	nCode, nUpd, nSlots, nInit int
	initTick                   int
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
	for _, s := range t.Sites {
		s.Prepare()
	}
	if t.prepared != nil && t.prepared.of == progOf(t) {
		return
	}
	t.prepared = prepare(t)
}

func prepare(t *Task) *prepared {
	p := &prepared{deps: buildDeps(t), of: progOf(t)}
	p.slotKey, p.serviceKey = noiseKeys(t)
	p.health = healthChecks(t)
	if id, ok := t.StringID(StatusHealthy); ok {
		p.healthyWord = uint64(id)
	} else {
		p.healthyWord = math.MaxUint64 // no status can be healthy
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
	return prepare(t)
}
