package compiler

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/lang"
	"github.com/srezc/srezc/value"
)

// Derived evidence, diagnosability and the informed optimum (DESIGN.md,
// "Decisions already taken").
//
// A world is the incident with some of its fault and distractor uses (or an
// alternative fault in their place). Worlds share the IR: a fault is an
// edit of the initial state, and no rule reads a fault's identity, so a
// counterfactual is the warm-up re-run, on the task's own IR, from the
// settled base row with other edits (the fast path). The fast path checks
// itself first: with the incident's own edits it must give the compiled
// task's rows exactly; if it does not, every world is compiled in full,
// without certification, from a copy of the incident (and
// TestSlotComparisonMatchesText holds the two paths equal on every world
// of every shipped incident).
//
// Worlds are compared at step 1 (one tick after Reset: a read advances the
// world one tick before it renders), noise off, on the slot words each read
// renders (engine.Task.AppendReadSlots), never on text.

// worldSpec says which uses make up a world.
type worldSpec struct {
	name        string // for diagnostics: `the fault "x" on svc`
	faults      []*lang.FaultUse
	distractors []*lang.DistractorUse
	// edits are the uses' edits, in the order lowerFaults applies them; ok
	// is false when one does not apply.
	edits []edit
	ok    bool
}

// world is a world at step 1.
type world struct {
	spec *worldSpec
	t    *engine.Task
	ep   *engine.Episode
	// slot maps the true task's slot ids to this world's; nil: identical.
	slot []engine.SlotID
}

// alternative is a world the incident must be told apart from, and the
// reads that tell them apart (indices into derived.reads).
type alternative struct {
	name string
	hits []int
	w    *world
}

// derived is what the evidence stage computes for one task.
type derived struct {
	reads []engine.Read // every read an agent can make, in rank order
	// evidence[i] lists the reads (indices) that are evidence of fault i.
	evidence [][]int
	// faulted marks the services a fault of the incident is on.
	faulted []bool
	// alerting is the first service showing a symptom at step 1, or -1.
	alerting int
	truth    *world
	alts     []alternative
	// chosen are the reads of the informed optimum (indices), sorted.
	chosen []int
	// waits are the reads played after the writes while the world recovers.
	waits []engine.Read
	plan  []string
	// optimal is the certified optimal step count, 0 when not found.
	optimal  int
	failures []finding
}

// optimumCap and optimumWork bound the hitting-set search: combinations of
// up to optimumCap reads, optimumWork of them in all, are tried exactly;
// past that a greedy cover is used (no shipped incident comes near: after
// dominated reads are dropped, one read covers every set).
const (
	optimumCap  = 6
	optimumWork = 1 << 18
)

// deriveEvidence computes derived evidence, checks diagnosability and finds
// the informed optimum of the task being built.
func (b *build) deriveEvidence() *derived {
	t := b.t
	d := &derived{alerting: -1, faulted: make([]bool, len(t.Services))}
	d.reads = allReads(t)
	for _, f := range t.Faults {
		d.faulted[f.Service] = true
	}
	w := &worlds{b: b}
	truth := w.trueWorld()
	tick := truth.ep.Tick()
	d.alerting = alertingService(truth)
	d.truth = truth

	// Evidence per fault: the world with that fault removed.
	var removed []*worldSpec
	for i, fu := range b.in.Faults {
		removed = append(removed, &worldSpec{name: fmt.Sprintf("the incident without the fault %q on %s", fu.Name, fu.Target),
			faults: without(b.in.Faults, i), distractors: b.in.Distractors})
	}
	// Diagnosability alternatives: the distractors as the only anomalies
	// (the faults removed; every distractor kept, since in the world where
	// one distractor explains the alert the others are still there, and
	// they are no clue to the fault), and each other fault kind that
	// applies to the alerting service in the faults' place.
	var alts []*worldSpec
	if len(b.in.Distractors) > 0 {
		var named []string
		for _, du := range b.in.Distractors {
			named = append(named, fmt.Sprintf("%q on %s", du.Name, du.Target))
		}
		noun := "distractor"
		if len(named) > 1 {
			noun = "distractors"
		}
		alts = append(alts, &worldSpec{name: fmt.Sprintf("the %s %s alone", noun, strings.Join(named, " and ")),
			distractors: b.in.Distractors})
	}
	if d.alerting >= 0 {
		for _, fu := range b.alternativeFaults(d.alerting) {
			alts = append(alts, &worldSpec{name: fmt.Sprintf("the fault %q on %s", fu.Name, fu.Target),
				faults: []*lang.FaultUse{fu}, distractors: b.in.Distractors})
		}
	}
	w.prepare(truth, append(append([]*worldSpec(nil), removed...), alts...))

	// With one fault and distractors, the world without the fault is the
	// distractors-alone alternative: built once, used for both.
	var sole *world
	var soleEv []int
	for i, spec := range removed {
		var ev []int
		cf := w.build(spec)
		if cf != nil {
			ev = differing(t, d.reads, truth, cf, tick)
		}
		if len(b.in.Faults) == 1 {
			sole, soleEv = cf, ev
		}
		d.evidence = append(d.evidence, ev)
		// With one fault and distractors, the world without the fault is
		// the distractors-alone alternative, reported below as such.
		if len(ev) == 0 && (len(b.in.Faults) > 1 || len(b.in.Distractors) == 0) {
			fu := b.in.Faults[i]
			d.failures = append(d.failures, finding{fmt.Sprintf("The fault %q on %s has no evidence: no read differs with it removed.", fu.Name, fu.Target), atFault, i})
		}
	}
	for i, spec := range alts {
		var alt *world
		var hits []int
		if i == 0 && len(b.in.Distractors) > 0 && len(b.in.Faults) == 1 {
			alt, hits = sole, soleEv
		} else if alt = w.build(spec); alt != nil {
			hits = differing(t, d.reads, truth, alt, tick)
		}
		if alt == nil {
			continue // an alternative that does not compile is no alternative
		}
		d.alts = append(d.alts, alternative{name: spec.name, hits: hits, w: alt})
		if len(hits) == 0 {
			// Blame the blocks that should differ: the distractors when the
			// alternative is them alone, else the faults.
			at := finding{fmt.Sprintf("The incident cannot be told apart from %s: no read differs.", spec.name), atFault, 0}
			if len(spec.faults) == 0 && len(spec.distractors) > 0 {
				at.where = atDistractor
			}
			d.failures = append(d.failures, at)
		}
	}

	d.chosen = d.hittingSet()
	sort.Ints(d.chosen) // rank order is tool, service, key: deterministic
	d.findWrites(t)
	return d
}

// allReads lists every read an agent can make, in rank order: tool order,
// then service order; a config tool lists each key before the whole
// configuration.
func allReads(t *engine.Task) []engine.Read {
	var out []engine.Read
	for ti := range t.Tools {
		tl := &t.Tools[ti]
		if !tl.Effect.IsRead() {
			continue
		}
		keyed := false
		for _, a := range tl.Args {
			keyed = keyed || a.Type == engine.ArgConfigKey
		}
		for si := range t.Services {
			if tl.Effect == engine.EffectConfig && keyed {
				for _, c := range t.Services[si].Config {
					out = append(out, engine.Read{Tool: int16(ti), Service: int16(si), Key: c})
				}
			}
			out = append(out, engine.Read{Tool: int16(ti), Service: int16(si), Key: engine.NoSlot})
		}
	}
	return out
}

func without[T any](list []T, i int) []T {
	return append(append([]T(nil), list[:i]...), list[i+1:]...)
}

// alternativeFaults are the fault kinds, with default parameters, that
// apply to the alerting service's kind, are not a fault of the incident on
// it, and conflict with none of the incident's faults there.
func (b *build) alternativeFaults(svc int) []*lang.FaultUse {
	kind := b.kinds[svc].Name
	target := b.t.Services[svc].Name
	var out []*lang.FaultUse
	for _, fk := range b.m.FaultKinds {
		if fk.Broken || !slices.Contains(fk.AppliesTo, kind) || fk.FixedWhenByKind[kind] == nil {
			continue
		}
		skip := false
		for _, fu := range b.in.Faults {
			if fu.Name == fk.Name && fu.Target == target {
				skip = true
			}
			if fu.Target == target {
				if other := b.m.FaultKind(fu.Name); slices.Contains(fk.ConflictsWith, fu.Name) || (other != nil && slices.Contains(other.ConflictsWith, fk.Name)) {
					skip = true
				}
			}
		}
		if skip {
			continue
		}
		params := map[string]value.Value{}
		for _, p := range fk.Params {
			params[p.Name] = p.Default
		}
		out = append(out, &lang.FaultUse{Decl: lang.Decl{Name: fk.Name, NameRange: b.in.DefRange, DefRange: b.in.DefRange}, Target: target, Params: params})
	}
	return out
}

// alertingService is the first service, in system order, that shows a
// symptom at step 1: a status that is not healthy, or a metric outside its
// band.
func alertingService(w *world) int {
	t := w.t
	row := w.ep.Row()
	for si := range t.Services {
		s := &t.Services[si]
		if s.Status != engine.NoSlot && int(row[s.Status]) < len(t.Strings) && t.Strings[row[s.Status]] != engine.StatusHealthy {
			return si
		}
		for _, m := range s.Metrics {
			sl := &t.Slots[m]
			if !sl.HasBand {
				continue
			}
			var v float64
			switch sl.Kind {
			case value.Int:
				v = float64(int64(row[m]))
			case value.Float:
				v = math.Float64frombits(row[m])
			default:
				continue
			}
			if v < sl.Low || v > sl.High {
				return si
			}
		}
	}
	return -1
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

// trueWorld is the compiled task itself at step 1.
func (w *worlds) trueWorld() *world {
	t := w.b.t
	ep := engine.NewEpisode(t)
	ep.Reset(certSeed)
	ep.Advance()
	return &world{spec: &worldSpec{name: "the incident", faults: w.b.in.Faults, distractors: w.b.in.Distractors}, t: t, ep: ep}
}

// prepare evaluates every spec's edits, settles the base state, and checks
// that the fast path reproduces the true world; if not, every world is
// compiled in full.
func (w *worlds) prepare(truth *world, specs []*worldSpec) {
	b, t := w.b, w.b.t
	w.extra = map[string]int{}
	var tail []string
	for _, spec := range append([]*worldSpec{truth.spec}, specs...) {
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
	fast := w.fast(truth.spec)
	w.slow = fast == nil || !equalRows(fast.ep, truth.ep, t.History)
}

// specEdits evaluates a spec's edits in the order lowerFaults applies them.
func (b *build) specEdits(spec *worldSpec) ([]edit, bool) {
	var edits []edit
	for _, fu := range spec.faults {
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
	for _, du := range spec.distractors {
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
func (w *worlds) build(spec *worldSpec) *world {
	if !w.slow {
		if x := w.fast(spec); x != nil {
			return x
		}
	}
	return w.compiled(spec)
}

// fast re-runs the warm-up on the task's own IR, from the settled base,
// with the spec's edits; nil when an edit does not apply.
func (w *worlds) fast(spec *worldSpec) *world {
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
	return &world{spec: spec, t: &w.base, ep: ep}
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

// compileWorld is CompileIncident, set in init: a stage that named it
// directly would make Stages refer to itself.
var compileWorld func(*lang.Module, *lang.Incident, Options) (*engine.Task, lang.Diagnostics)

func init() { compileWorld = CompileIncident }

// compiled compiles the world in full from a copy of the incident, without
// certification, and maps its slots onto the true task's.
func (w *worlds) compiled(spec *worldSpec) *world {
	b, t := w.b, w.b.t
	in := *b.in
	in.Faults, in.Distractors, in.Expert, in.ExpertRange = spec.faults, spec.distractors, nil, nil
	ct, diags := compileWorld(b.m, &in, Options{SkipCertify: true})
	if ct == nil || diags.HasErrors() {
		return nil
	}
	x := &world{spec: spec, t: ct}
	if !sameLayout(t, ct) {
		index := map[[3]string]engine.SlotID{}
		for i, sl := range ct.Slots {
			index[slotName(ct, &sl)] = engine.SlotID(i)
		}
		x.slot = make([]engine.SlotID, len(t.Slots))
		for i := range t.Slots {
			s, ok := index[slotName(t, &t.Slots[i])]
			if !ok {
				s = engine.NoSlot
			}
			x.slot[i] = s
		}
	}
	x.ep = engine.NewEpisode(ct)
	x.ep.Reset(certSeed)
	x.ep.Advance()
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

// differing lists the reads (indices) whose rendered slots differ between
// the true world and another at the given tick.
func differing(t *engine.Task, reads []engine.Read, truth, other *world, tick int) []int {
	var out []int
	var buf []engine.Shown
	for i, r := range reads {
		buf = t.AppendReadSlots(buf[:0], r, tick)
		if !sameShown(t, buf, truth, other) {
			out = append(out, i)
		}
	}
	return out
}

// sameShown compares the listed slot values of two worlds.
func sameShown(t *engine.Task, shown []engine.Shown, a, b *world) bool {
	var fa, fb [32]byte
	for _, s := range shown {
		sa, sb, ga, gb := s.Slot, s.Slot, s.Guard, s.Guard
		if b.slot != nil {
			sb = b.slot[sa]
			if ga != engine.NoSlot {
				gb = b.slot[ga]
			}
			if sb == engine.NoSlot || (ga != engine.NoSlot && gb == engine.NoSlot) {
				return false
			}
		}
		ra, rb := a.ep.RowAt(int(s.Tick)), b.ep.RowAt(int(s.Tick))
		if ga != engine.NoSlot && ra[ga] == 0 && rb[gb] == 0 {
			continue // the line is shown in neither world
		}
		wa, wb := ra[sa], rb[sb]
		sl := &t.Slots[sa]
		switch {
		case sl.Kind == value.String:
			if a.t == b.t {
				if wa != wb {
					return false
				}
			} else if stringOf(a.t, wa) != stringOf(b.t, wb) {
				return false
			}
		case wa == wb:
		case sl.Kind == value.Float && s.Digits >= 0:
			x := strconv.AppendFloat(fa[:0], math.Float64frombits(wa), 'f', int(s.Digits), 64)
			y := strconv.AppendFloat(fb[:0], math.Float64frombits(wb), 'f', int(s.Digits), 64)
			if string(x) != string(y) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

func stringOf(t *engine.Task, w uint64) string {
	if w < uint64(len(t.Strings)) {
		return t.Strings[w]
	}
	return ""
}

// hittingSet is an exact minimum set of reads that tells the true world
// apart from every alternative and holds evidence of every fault:
// iterative deepening over combinations in rank order, so the first cover
// found is the preferred one among the smallest. Reads that are evidence of a fault rank first, then reads of a
// service a fault is on (an author's evidence is the faulty service's own
// output, not a far symptom), then tool order, then service order.
func (d *derived) hittingSet() []int {
	// The sets to hit: each alternative's distinguishing reads, and each
	// fault's evidence (the evidence set holds evidence of every fault).
	var sets [][]int
	for _, a := range d.alts {
		if len(a.hits) > 0 {
			sets = append(sets, a.hits)
		}
	}
	for _, ev := range d.evidence {
		if len(ev) > 0 {
			sets = append(sets, ev)
		}
	}
	if len(sets) == 0 {
		return nil
	}
	words := (len(sets) + 63) / 64
	masks := make([][]uint64, len(d.reads))
	for si, set := range sets {
		for _, r := range set {
			if masks[r] == nil {
				masks[r] = make([]uint64, words)
			}
			masks[r][si/64] |= 1 << (si % 64)
		}
	}
	isEvidence := make([]bool, len(d.reads))
	for _, ev := range d.evidence {
		for _, r := range ev {
			isEvidence[r] = true
		}
	}
	var cand []int
	for r := range d.reads {
		if masks[r] != nil {
			cand = append(cand, r)
		}
	}
	// Rank: evidence of a fault first, then reads of a faulted service,
	// then the base order (tool, service, key).
	rank := func(r int) int {
		n := 0
		if !isEvidence[r] {
			n += 2
		}
		if !d.faulted[d.reads[r].Service] {
			n++
		}
		return n
	}
	sort.SliceStable(cand, func(i, j int) bool { return rank(cand[i]) < rank(cand[j]) })
	// Drop a read whose alternatives a better-ranked read already covers.
	var kept []int
	for _, r := range cand {
		dominated := false
		for _, k := range kept {
			if subset(masks[r], masks[k]) {
				dominated = true
				break
			}
		}
		if !dominated {
			kept = append(kept, r)
		}
	}
	full := make([]uint64, words)
	for si := range sets {
		full[si/64] |= 1 << (si % 64)
	}
	acc := make([][]uint64, optimumCap+1)
	for i := range acc {
		acc[i] = make([]uint64, words)
	}
	idx := make([]int, optimumCap)
	work := optimumWork
	for k := 1; k <= min(optimumCap, len(kept)) && work > 0; k++ {
		if combos(kept, masks, full, acc, idx, 0, 0, k, &work) {
			out := make([]int, k)
			for i := range out {
				out[i] = kept[idx[i]]
			}
			return out
		}
	}
	// Past the cap: a greedy cover, in rank order.
	var out []int
	covered := make([]uint64, words)
	for !subset(full, covered) {
		best, gain := -1, 0
		for _, r := range kept {
			g := 0
			for wi := range covered {
				g += bits.OnesCount64(masks[r][wi] &^ covered[wi])
			}
			if g > gain {
				best, gain = r, g
			}
		}
		out = append(out, best)
		for wi := range covered {
			covered[wi] |= masks[best][wi]
		}
	}
	return out
}

// combos tries the k-combinations of kept starting at position from, depth
// chosen so far; acc[depth] holds the union of the chosen masks. Each
// complete combination costs one unit of work; it stops when none is left.
func combos(kept []int, masks [][]uint64, full []uint64, acc [][]uint64, idx []int, from, depth, k int, work *int) bool {
	if depth == k {
		*work--
		return subset(full, acc[depth])
	}
	if *work <= 0 {
		return false
	}
	for i := from; i <= len(kept)-(k-depth); i++ {
		idx[depth] = i
		m := masks[kept[i]]
		for wi := range m {
			acc[depth+1][wi] = acc[depth][wi] | m[wi]
		}
		if combos(kept, masks, full, acc, idx, i+1, depth+1, k, work) {
			return true
		}
	}
	return false
}

func subset(a, b []uint64) bool {
	for i := range a {
		if a[i]&^b[i] != 0 {
			return false
		}
	}
	return true
}

// maxWaits bounds the idle steps the optimum may need between its last
// write and the resolution (a backlog that must drain first).
const maxWaits = 8

// maxPlays bounds the episodes the search for writes plays.
const maxPlays = 4096

// findWrites searches the canonical fixes for the fewest writes that,
// after the chosen reads, let a resolution with the true diagnosis succeed;
// where the world needs time to recover, the fewest waiting reads follow
// the writes.
func (d *derived) findWrites(t *engine.Task) {
	var fixes []engine.Remedy
	for _, f := range t.Faults {
		for _, r := range f.Remedies {
			dup := false
			for _, x := range fixes {
				dup = dup || x == r
			}
			if !dup {
				fixes = append(fixes, r)
			}
		}
	}
	var reads []engine.Action
	for _, r := range d.chosen {
		reads = append(reads, bindRead(t, d.reads[r]))
	}
	waits := d.waitReads(t)
	open := *t
	open.Budget = max(t.Budget, len(reads)+len(fixes)+len(waits)+1)
	ep := engine.NewEpisode(&open)
	diag := trueDiagnosis(t)
	resolveAct := t.Bind(toolName(t, engine.EffectResolve), []value.Value{value.OfString(diag), value.OfString("applied the fix")})
	plays := 0
	// succeeds plays reads, the writes in order, n waits and the resolution.
	succeeds := func(order []int, n int) bool {
		plays++
		ep.Reset(certSeed)
		for i := range reads {
			ep.Step(&reads[i])
		}
		for _, j := range order {
			a := bindRemedy(t, fixes[j])
			ep.Step(&a)
		}
		for i := 0; i < n; i++ {
			ep.Step(&waits[i])
		}
		a := resolveAct
		ep.Step(&a)
		return ep.Record().Success
	}
	var best []int
	bestWaits := -1
	pick := make([]int, 0, len(fixes))
	var choose func(from, k int) bool
	choose = func(from, k int) bool {
		if len(pick) == k {
			return permute(pick, 0, func(order []int) bool {
				for n := 0; n <= len(waits); n++ {
					if succeeds(order, n) {
						best, bestWaits = append([]int(nil), order...), n
						return true
					}
				}
				return plays > maxPlays
			})
		}
		for i := from; i < len(fixes); i++ {
			pick = append(pick, i)
			if choose(i+1, k) {
				return true
			}
			pick = pick[:len(pick)-1]
		}
		return false
	}
	for k := 0; k <= len(fixes) && bestWaits < 0 && plays <= maxPlays; k++ {
		choose(0, k)
	}
	if bestWaits < 0 {
		d.failures = append(d.failures, finding{"No combination of the faults' canonical fixes resolves the incident after the evidence reads.", atIncident, 0})
		return
	}
	for _, r := range d.chosen {
		d.plan = append(d.plan, ReadText(t, d.reads[r]))
	}
	var said []string
	for _, j := range best {
		text, what := remedyText(t, fixes[j])
		d.plan = append(d.plan, text)
		said = append(said, what)
	}
	for i := 0; i < bestWaits; i++ {
		d.plan = append(d.plan, ReadText(t, d.waits[i]))
	}
	fix := strings.Join(said, "; ")
	if fix == "" {
		fix = "no change was needed"
	}
	d.plan = append(d.plan, resolve(diag, fix))
	d.optimal = len(d.plan)
	if d.optimal > t.Budget {
		d.failures = append(d.failures, finding{fmt.Sprintf("The incident cannot be solved in its budget: the informed optimum takes %d steps and the budget is %d.", d.optimal, t.Budget), atBudget, 0})
	}
}

// waitReads are the reads the optimum waits with after its writes: reads
// of the faulted services that confirm recovery (status, metrics, logs),
// each at most once and none already among the evidence reads.
func (d *derived) waitReads(t *engine.Task) []engine.Action {
	d.waits = d.waits[:0]
	for _, eff := range []engine.Effect{engine.EffectStatus, engine.EffectMetrics, engine.EffectLogs, engine.EffectTraces, engine.EffectDependencies} {
		for si := range t.Services {
			if !d.faulted[si] {
				continue
			}
			for ri, r := range d.reads {
				if int(r.Service) != si || t.Tools[r.Tool].Effect != eff || r.Key != engine.NoSlot || slices.Contains(d.chosen, ri) {
					continue
				}
				if len(d.waits) < maxWaits {
					d.waits = append(d.waits, r)
				}
			}
		}
	}
	out := make([]engine.Action, len(d.waits))
	for i, r := range d.waits {
		out[i] = bindRead(t, r)
	}
	return out
}

// permute calls f with each ordering of s (in place), stopping when f
// returns true.
func permute(s []int, i int, f func([]int) bool) bool {
	if i >= len(s)-1 {
		return f(s)
	}
	for j := i; j < len(s); j++ {
		s[i], s[j] = s[j], s[i]
		done := permute(s, i+1, f)
		s[i], s[j] = s[j], s[i]
		if done {
			return true
		}
	}
	return false
}

func bindRead(t *engine.Task, r engine.Read) engine.Action {
	args := []value.Value{value.OfString(t.Services[r.Service].Name)}
	if r.Key != engine.NoSlot {
		args = append(args, value.OfString(t.Slots[r.Key].Name))
	}
	return t.Bind(t.Tools[r.Tool].Name, args)
}

func bindRemedy(t *engine.Task, r engine.Remedy) engine.Action {
	svc := value.OfString(t.Services[r.Service].Name)
	if r.Effect == engine.EffectRestart {
		return t.Bind(toolName(t, engine.EffectRestart), []value.Value{svc})
	}
	sl := &t.Slots[r.Slot]
	return t.Bind(toolName(t, engine.EffectUpdate), []value.Value{svc, value.OfString(sl.Name), t.ValueOf(sl.Kind, r.Value)})
}

// ReadText writes a read as the text action an agent would type.
func ReadText(t *engine.Task, r engine.Read) string {
	s := t.Tools[r.Tool].Name + "(" + t.Services[r.Service].Name
	if r.Key != engine.NoSlot {
		s += ", " + t.Slots[r.Key].Name
	}
	return s + ")"
}

// remedyText is a fix as a text action, and in words for the resolution.
func remedyText(t *engine.Task, r engine.Remedy) (action, words string) {
	svc := t.Services[r.Service].Name
	if r.Effect == engine.EffectRestart {
		return toolName(t, engine.EffectRestart) + "(" + svc + ")", "restarted " + svc
	}
	sl := &t.Slots[r.Slot]
	v := valueText(t, sl, r.Value)
	return toolName(t, engine.EffectUpdate) + "(" + svc + ", " + sl.Name + ", " + v + ")", "set " + sl.Name + " to " + strings.Trim(v, `"`)
}

// valueText is a slot word as an action argument.
func valueText(t *engine.Task, sl *engine.Slot, w uint64) string {
	switch sl.Kind {
	case value.Int:
		return strconv.FormatInt(int64(w), 10)
	case value.Float:
		return floatText(math.Float64frombits(w))
	case value.Bool:
		return strconv.FormatBool(w != 0)
	}
	return strconv.Quote(stringOf(t, w))
}

// covers reports whether an agent's read x counts as evidence read e, as
// the runtime's noteEvidence does: a whole-configuration read covers each
// of its keys.
func covers(t *engine.Task, x, e engine.Read) bool {
	if x.Tool != e.Tool || x.Service != e.Service {
		return false
	}
	return x.Key == e.Key || (t.Tools[x.Tool].Effect == engine.EffectConfig && x.Key == engine.NoSlot)
}

// checkExpert checks a hand-written expert plan against the optimum: it
// reads every evidence read (its coverage is 1) and, doing so, is no
// shorter than the optimum (shorter would mean the optimum is wrong). An
// expert that reads none of the evidence under a rubric that weights it is
// left to the reachability check, which reports it once.
func (d *derived) checkExpert(t *engine.Task) []finding {
	if len(t.Expert) == 0 || d.optimal == 0 {
		return nil
	}
	// Before apply, t.Evidence still holds the expert's reads (BindExpert).
	var missing []string
	for _, r := range d.chosen {
		e := d.reads[r]
		found := false
		for _, x := range t.Evidence {
			found = found || covers(t, x, e)
		}
		if !found {
			missing = append(missing, ReadText(t, e))
		}
	}
	switch {
	case len(missing) == 0:
		if len(t.Expert) < d.optimal {
			return []finding{{fmt.Sprintf("The expert plan takes %d steps, fewer than the informed optimum's %d: the optimum is wrong.", len(t.Expert), d.optimal), atExpert, -1}}
		}
	case len(missing) < len(d.chosen) || t.Rubric.Evidence <= 0:
		return []finding{{fmt.Sprintf("The expert plan does not read the evidence %s, so its evidence coverage is below 1.", strings.Join(missing, ", ")), atExpert, -1}}
	}
	return nil
}

// apply records the evidence set, the optimal step count and the plan on
// the task.
func (d *derived) apply(t *engine.Task) {
	if d.optimal == 0 {
		return
	}
	t.Evidence = t.Evidence[:0:0]
	for _, r := range d.chosen {
		t.Evidence = append(t.Evidence, d.reads[r])
	}
	t.Optimal = d.optimal
	t.Plan = d.plan
}

// deriveAlert writes the alert of an incident that has none, as monitoring
// would word it: the alerting service's first symptom at step 1 (a status
// that is not healthy, or the first metric out of its band). It names what
// is observed, never a cause; with no symptom the incident is an error.
//
// Every incident, its alert authored or derived, also gets the alert's
// condition (bindAlertCondition), which mitigation requires gone.
func (b *build) deriveAlert() {
	t := b.t
	ep := engine.NewEpisode(t)
	ep.Reset(0)
	ep.Advance()
	si := alertingService(&world{t: t, ep: ep})
	bindAlertCondition(t, si, ep.Row())
	if t.Alert != "" {
		return
	}
	b.alerting = si
	if si < 0 {
		// Nothing to alert on: such a variant is no incident.
		b.errAt(b.in.DefRange, "No symptom to alert on", "No service shows a symptom at step 1 (a status other than healthy, or a metric out of its band), so there is no alert to derive.")
		return
	}
	s := &t.Services[si]
	row := ep.Row()
	if s.Status != engine.NoSlot && t.Strings[row[s.Status]] != engine.StatusHealthy {
		t.Alert = fmt.Sprintf("%s reports status %s.", s.Name, t.Strings[row[s.Status]])
		return
	}
	for _, m := range s.Metrics {
		sl := &t.Slots[m]
		if !sl.HasBand || sl.Kind != value.Int && sl.Kind != value.Float {
			continue
		}
		v := t.ValueOf(sl.Kind, row[m]).AsFloat()
		if v < sl.Low || v > sl.High {
			digits := max(int(sl.Precision), 0)
			unit := ""
			if sl.Unit != "" {
				unit = " " + sl.Unit
			}
			t.Alert = fmt.Sprintf("%s: %s is %s%s, outside its normal range of %s to %s.", s.Name, sl.Name,
				strconv.FormatFloat(v, 'f', digits, 64), unit, strconv.FormatFloat(sl.Low, 'f', -1, 64), strconv.FormatFloat(sl.High, 'f', -1, 64))
			return
		}
	}
}
