package compiler

import (
	"github.com/srezc/srezc/certify"
	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/lang"
	"github.com/srezc/srezc/value"
)

// The compiler's side of certification (package certify): the build is a
// certify.Incident, and builds the counterfactual worlds certification
// compares the incident with.
//
// A world is the incident with some of its fault and distractor uses (or an
// alternative fault in their place). Worlds share the IR: a fault is an
// edit of the initial state, and no rule reads a fault's identity, so a
// counterfactual is the warm-up re-run, on the task's own IR, from the
// settled base row with other edits (the fast path). The fast path checks
// itself first: with the incident's own edits it must give the compiled
// task's rows exactly; if it does not, every world is compiled in full,
// without certification, from a copy of the incident (and
// TestFastWorldsMatchCompiled holds the two paths equal on every world
// of every shipped incident). Worlds are built at step 1 (one tick after
// Reset: a read advances the world one tick before it renders).

// Module, Source, Task and Base show certification the build.
func (b *build) Module() *lang.Module                { return b.m }
func (b *build) Source() *lang.Incident              { return b.in }
func (b *build) Task() *engine.Task                  { return b.t }
func (b *build) Base(slot engine.SlotID) value.Value { return b.base[slot] }

// Truth is the compiled task itself at step 1.
func (b *build) Truth() *certify.World {
	ep := engine.NewEpisode(b.t)
	ep.Reset(certify.Seed)
	ep.Advance()
	return &certify.World{Task: b.t, Episode: ep}
}

// Worlds builds every spec's world at step 1 (nil: it does not compile),
// sharing one settled base state.
func (b *build) Worlds(truth *certify.World, specs []*certify.Spec) []*certify.World {
	w := &worlds{b: b}
	own := &worldSpec{Spec: &certify.Spec{Name: "the incident", Faults: b.in.Faults, Distractors: b.in.Distractors}}
	ws := make([]*worldSpec, len(specs))
	for i, s := range specs {
		ws[i] = &worldSpec{Spec: s}
	}
	w.prepare(truth, own, ws)
	out := make([]*certify.World, len(ws))
	for i, s := range ws {
		out[i] = w.build(s)
	}
	return out
}

// worldSpec is a spec with its edits evaluated.
type worldSpec struct {
	*certify.Spec
	// edits are the uses' edits, in the order lowerFaults applies them; ok
	// is false when one does not apply.
	edits []edit
	ok    bool
}

// worlds builds worlds for one task, sharing the settled base state.
type worlds struct {
	b *build
	// base is the task with the base row as its history and, past the
	// task's own strings, the strings only other worlds' edits write (the
	// runtime compares strings by id within the table and by text past it,
	// and nothing on the tick path looks a string up, so an unsorted tail
	// is sound here; base never leaves certification).
	base    engine.Task
	extra   map[string]int
	settled *engine.Episode // the base row after the settle ticks
	slow    bool            // the fast path failed its self-check
}

// prepare evaluates every spec's edits, settles the base state, and checks
// that the fast path, given the incident's own uses, reproduces the true
// world; if not, every world is compiled in full.
func (w *worlds) prepare(truth *certify.World, own *worldSpec, specs []*worldSpec) {
	b, t := w.b, w.b.t
	w.extra = map[string]int{}
	var tail []string
	for _, spec := range append([]*worldSpec{own}, specs...) {
		spec.edits, spec.ok = b.specEdits(spec)
		for _, e := range spec.edits {
			if e.v.K != value.String {
				continue
			}
			if _, ok := t.StringID(e.v.S); ok {
				continue
			}
			if _, ok := w.extra[e.v.S]; !ok {
				w.extra[e.v.S] = len(t.Strings) + len(tail)
				tail = append(tail, e.v.S)
			}
		}
	}
	// As runWarmup: every history row is the base row, then the world
	// settles before the edits.
	n := len(t.Slots)
	row := make([]uint64, n)
	for i, v := range b.base {
		wd, ok := t.WordOf(v)
		if !ok {
			w.slow = true
			return
		}
		row[i] = wd
	}
	w.base = *t
	if len(tail) > 0 {
		w.base.Strings = append(append([]string(nil), t.Strings...), tail...)
	}
	w.base.InitTick = t.History - 1
	w.base.Init = make([]uint64, 0, t.History*n)
	for i := 0; i < t.History; i++ {
		w.base.Init = append(w.base.Init, row...)
	}
	w.settled = engine.NewEpisode(&w.base)
	w.settled.Reset(0)
	for i := 0; i < settleTicks; i++ {
		w.settled.Advance()
	}
	fast := w.fast(own)
	w.slow = fast == nil || !equalRows(fast.Episode, truth.Episode, t.History)
}

// specEdits evaluates a spec's edits in the order lowerFaults applies them.
func (b *build) specEdits(spec *worldSpec) ([]edit, bool) {
	var edits []edit
	for _, fu := range spec.Faults {
		fk := b.m.FaultKind(fu.Name)
		svc := b.serviceIndex(fu.Target)
		if fk == nil || svc < 0 {
			return nil, false
		}
		es, ok := b.editsOf(fk.Edits, svc, fu.Params)
		if !ok {
			return nil, false
		}
		edits = append(edits, es...)
	}
	for _, du := range spec.Distractors {
		dk := b.m.DistractorKind(du.Name)
		svc := b.serviceIndex(du.Target)
		if dk == nil || svc < 0 {
			return nil, false
		}
		es, ok := b.editsOf(dk.Edits, svc, nil)
		if !ok {
			return nil, false
		}
		edits = append(edits, es...)
	}
	return edits, true
}

func equalRows(a, b *engine.Episode, h int) bool {
	if a.Tick() != b.Tick() {
		return false
	}
	for k := a.Tick() - h + 1; k <= a.Tick(); k++ {
		ra, rb := a.RowAt(k), b.RowAt(k)
		for i := range ra {
			if ra[i] != rb[i] {
				return false
			}
		}
	}
	return true
}

// build returns a world at step 1, or nil when it does not compile.
func (w *worlds) build(spec *worldSpec) *certify.World {
	if !w.slow {
		if x := w.fast(spec); x != nil {
			return x
		}
	}
	return w.compiled(spec)
}

// fast re-runs the warm-up on the task's own IR, from the settled base,
// with the spec's edits; nil when an edit does not apply.
func (w *worlds) fast(spec *worldSpec) *certify.World {
	if !spec.ok || w.settled == nil {
		return nil
	}
	t := w.b.t
	ep := w.settled.Fork()
	for _, e := range spec.edits {
		wd, ok := t.WordOf(e.v)
		if !ok {
			id, known := w.extra[e.v.S]
			if e.v.K != value.String || !known {
				return nil
			}
			wd = uint64(id)
		}
		ep.Poke(e.slot, wd)
	}
	for i := 0; i < w.b.in.Warmup; i++ {
		ep.Advance()
	}
	ep.Advance() // step 1
	return &certify.World{Task: &w.base, Episode: ep}
}

// editsOf evaluates edits of a service as applyEdits does, without
// reporting: ok is false if any does not apply.
func (b *build) editsOf(edits []lang.Edit, svc int, params map[string]value.Value) ([]edit, bool) {
	var out []edit
	for _, e := range edits {
		ed, d := b.resolveEdit(e, svc, params, lang.Range{})
		if d != nil {
			return nil, false
		}
		out = append(out, ed)
	}
	return out, true
}

// compiled compiles the world in full from a copy of the incident, without
// certification, and maps its slots onto the true task's.
func (w *worlds) compiled(spec *worldSpec) *certify.World {
	b, t := w.b, w.b.t
	in := *b.in
	in.Faults, in.Distractors, in.Expert, in.ExpertRange = spec.Faults, spec.Distractors, nil, nil
	ct, diags := CompileIncident(b.m, &in, Options{SkipCertify: true, SiteFrom: b.siteIncident(), Site: b.opt.Site, oneSite: true})
	if ct == nil || diags.HasErrors() {
		return nil
	}
	x := &certify.World{Task: ct}
	if !sameLayout(t, ct) {
		index := map[[3]string]engine.SlotID{}
		for i, sl := range ct.Slots {
			index[slotName(ct, &sl)] = engine.SlotID(i)
		}
		x.Slots = make([]engine.SlotID, len(t.Slots))
		for i := range t.Slots {
			s, ok := index[slotName(t, &t.Slots[i])]
			if !ok {
				s = engine.NoSlot
			}
			x.Slots[i] = s
		}
	}
	x.Episode = engine.NewEpisode(ct)
	x.Episode.Reset(certify.Seed)
	x.Episode.Advance()
	return x
}

func slotName(t *engine.Task, sl *engine.Slot) [3]string {
	return [3]string{t.Services[sl.Service].Name, sl.Class.String(), sl.Name}
}

func sameLayout(a, b *engine.Task) bool {
	if len(a.Slots) != len(b.Slots) || len(a.Services) != len(b.Services) {
		return false
	}
	for i := range a.Slots {
		x, y := &a.Slots[i], &b.Slots[i]
		if x.Service != y.Service || x.Class != y.Class || x.Name != y.Name || x.Kind != y.Kind {
			return false
		}
	}
	return true
}
