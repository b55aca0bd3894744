package certify

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
// "Decisions already taken"). The incident is compared with counterfactual
// worlds (Spec), which the compiler builds (Incident.Worlds), at step 1,
// noise off, on the slot words each read renders
// (engine.Task.AppendReadSlots), never on text.

// alternative is a world the incident must be told apart from, and the
// reads that tell them apart (indices into derived.reads).
type alternative struct {
	name string
	hits []int
	w    *World
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
	truth    *World
	alts     []alternative
	// chosen are the reads of the informed optimum (indices), sorted.
	chosen []int
	// waits are the reads played after the writes while the world recovers.
	waits []engine.Read
	plan  []string
	// optimal is the certified optimal step count, 0 when not found.
	optimal  int
	failures []Finding
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
// the informed optimum of the incident's task.
func deriveEvidence(inc Incident) *derived {
	t, in := inc.Task(), inc.Source()
	d := &derived{alerting: -1, faulted: make([]bool, len(t.Services))}
	d.reads = allReads(t)
	for _, f := range t.Faults {
		d.faulted[f.Service] = true
	}
	truth := inc.Truth()
	tick := truth.Episode.Tick()
	d.alerting = AlertingService(truth.Task, truth.Episode.Row())
	d.truth = truth

	// Evidence per fault: the world with that fault removed.
	var removed []*Spec
	for i, fu := range in.Faults {
		removed = append(removed, &Spec{Name: fmt.Sprintf("the incident without the fault %q on %s", fu.Name, fu.Target),
			Faults: without(in.Faults, i), Distractors: in.Distractors})
	}
	// Diagnosability alternatives: the distractors as the only anomalies
	// (the faults removed; every distractor kept, since in the world where
	// one distractor explains the alert the others are still there, and
	// they are no clue to the fault), and each other fault kind that
	// applies to the alerting service in the faults' place.
	var alts []*Spec
	if len(in.Distractors) > 0 {
		var named []string
		for _, du := range in.Distractors {
			named = append(named, fmt.Sprintf("%q on %s", du.Name, du.Target))
		}
		noun := "distractor"
		if len(named) > 1 {
			noun = "distractors"
		}
		alts = append(alts, &Spec{Name: fmt.Sprintf("the %s %s alone", noun, strings.Join(named, " and ")),
			Distractors: in.Distractors})
	}
	if d.alerting >= 0 {
		for _, fu := range AlternativeFaults(inc, d.alerting) {
			alts = append(alts, &Spec{Name: fmt.Sprintf("the fault %q on %s", fu.Name, fu.Target),
				Faults: []*lang.FaultUse{fu}, Distractors: in.Distractors})
		}
	}
	// With one fault and distractors, the world without the fault is the
	// distractors-alone alternative: built once, used for both.
	shared := len(alts) > 0 && len(in.Distractors) > 0 && len(in.Faults) == 1
	specs := append([]*Spec(nil), removed...)
	if shared {
		specs = append(specs, alts[1:]...)
	} else {
		specs = append(specs, alts...)
	}
	built := inc.Worlds(truth, specs)
	altWorlds := built[len(removed):]
	if shared {
		altWorlds = append([]*World{nil}, altWorlds...)
	}
	var sole *World
	var soleEv []int
	for i := range removed {
		var ev []int
		cf := built[i]
		if cf != nil {
			ev = differing(t, d.reads, truth, cf, tick)
		}
		if len(in.Faults) == 1 {
			sole, soleEv = cf, ev
		}
		d.evidence = append(d.evidence, ev)
		// With one fault and distractors, the world without the fault is
		// the distractors-alone alternative, reported below as such.
		if len(ev) == 0 && (len(in.Faults) > 1 || len(in.Distractors) == 0) {
			fu := in.Faults[i]
			d.failures = append(d.failures, Finding{fmt.Sprintf("The fault %q on %s has no evidence: no read differs with it removed.", fu.Name, fu.Target), atFault, i})
		}
	}
	for i, spec := range alts {
		var hits []int
		alt := altWorlds[i]
		if i == 0 && shared {
			alt, hits = sole, soleEv
		} else if alt != nil {
			hits = differing(t, d.reads, truth, alt, tick)
		}
		if alt == nil {
			continue // an alternative that does not compile is no alternative
		}
		d.alts = append(d.alts, alternative{name: spec.Name, hits: hits, w: alt})
		if len(hits) == 0 {
			// Blame the blocks that should differ: the distractors when the
			// alternative is them alone, else the faults.
			at := Finding{fmt.Sprintf("The incident cannot be told apart from %s: no read differs.", spec.Name), atFault, 0}
			if len(spec.Faults) == 0 && len(spec.Distractors) > 0 {
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
		// The change history is the task's, shared by every world
		// certification compares (worlds differ in rows, not in Changes),
		// so it never separates them: not a candidate read.
		if !tl.Effect.IsRead() || tl.Effect == engine.EffectChanges {
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

// AlternativeFaults are the fault kinds, with default parameters, that
// apply to the alerting service's kind, are not a fault of the incident on
// it, and conflict with none of the incident's faults there.
func AlternativeFaults(inc Incident, svc int) []*lang.FaultUse {
	m, in, t := inc.Module(), inc.Source(), inc.Task()
	kind := t.Services[svc].Kind
	target := t.Services[svc].Name
	var out []*lang.FaultUse
	for _, fk := range m.FaultKinds {
		if fk.Broken || !slices.Contains(fk.AppliesTo, kind) || fk.FixedWhenByKind[kind] == nil {
			continue
		}
		skip := false
		for _, fu := range in.Faults {
			if fu.Name == fk.Name && fu.Target == target {
				skip = true
			}
			if fu.Target == target {
				if other := m.FaultKind(fu.Name); slices.Contains(fk.ConflictsWith, fu.Name) || (other != nil && slices.Contains(other.ConflictsWith, fk.Name)) {
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
		out = append(out, &lang.FaultUse{Decl: lang.Decl{Name: fk.Name, NameRange: in.DefRange, DefRange: in.DefRange}, Target: target, Params: params})
	}
	return out
}

// AlertingService is the first service of t, in system order, whose row
// shows a symptom: a status that is not healthy, or a metric outside its
// band; -1 when none does. At step 1 it is the service the alert is about
// (the compiler derives and conditions the alert on it) and the one whose
// alternative faults certification rules out.
func AlertingService(t *engine.Task, row []uint64) int {
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

// differing lists the reads (indices) whose rendered slots differ between
// the true world and another at the given tick.
func differing(t *engine.Task, reads []engine.Read, truth, other *World, tick int) []int {
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
func sameShown(t *engine.Task, shown []engine.Shown, a, b *World) bool {
	var fa, fb [32]byte
	for _, s := range shown {
		sa, sb, ga, gb := s.Slot, s.Slot, s.Guard, s.Guard
		if b.Slots != nil {
			sb = b.Slots[sa]
			if ga != engine.NoSlot {
				gb = b.Slots[ga]
			}
			if sb == engine.NoSlot || (ga != engine.NoSlot && gb == engine.NoSlot) {
				return false
			}
		}
		ra, rb := a.Episode.RowAt(int(s.Tick)), b.Episode.RowAt(int(s.Tick))
		if ga != engine.NoSlot && ra[ga] == 0 && rb[gb] == 0 {
			continue // the line is shown in neither world
		}
		wa, wb := ra[sa], rb[sb]
		sl := &t.Slots[sa]
		switch {
		case sl.Kind == value.String:
			if a.Task == b.Task {
				if wa != wb {
					return false
				}
			} else if stringOf(a.Task, wa) != stringOf(b.Task, wb) {
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
			if r.Effect == engine.EffectEscalate {
				continue
			}
			dup := false
			for _, x := range fixes {
				dup = dup || (x.Effect == r.Effect && x.Service == r.Service && x.Slot == r.Slot && x.Value == r.Value && x.Operation == r.Operation && slices.Equal(x.Args, r.Args))
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
	outOfReach := t.OutOfReach()
	if outOfReach {
		// Nothing to write or wait for: the reads, then the hand-over.
		resolveAct = t.Bind(toolName(t, engine.EffectEscalate), []value.Value{value.OfString(diag)})
		waits = nil
	}
	plays := 0
	// succeeds plays reads, the writes in order, n waits and the resolution.
	succeeds := func(order []int, n int) bool {
		plays++
		ep.Reset(Seed)
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
		d.failures = append(d.failures, Finding{"No combination of the faults' canonical fixes resolves the incident after the evidence reads.", atIncident, 0})
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
	if outOfReach {
		d.plan = append(d.plan, escalate(t, diag))
	} else {
		d.plan = append(d.plan, resolve(diag, fix))
	}
	d.optimal = len(d.plan)
	if d.optimal > t.Budget {
		d.failures = append(d.failures, Finding{fmt.Sprintf("The incident cannot be solved in its budget: the informed optimum takes %d steps and the budget is %d.", d.optimal, t.Budget), atBudget, 0})
	}
}

// waitReads are the reads the optimum waits with after its writes: reads
// of the faulted services that confirm recovery (status, metrics, logs),
// then the other services' status, each at most once and none already
// among the evidence reads.
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
	// A recovery that takes longer than the faulted services' reads (an
	// index build in proportion to its table) waits on, reading the
	// other services' status: what a responder watches while it drains.
	for si := range t.Services {
		if d.faulted[si] {
			continue
		}
		for ri, r := range d.reads {
			if int(r.Service) == si && t.Tools[r.Tool].Effect == engine.EffectStatus && r.Key == engine.NoSlot && !slices.Contains(d.chosen, ri) && len(d.waits) < maxWaits {
				d.waits = append(d.waits, r)
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
	if r.Effect == engine.EffectRestart || r.Effect == engine.EffectRollback {
		return t.Bind(toolName(t, r.Effect), []value.Value{svc})
	}
	if r.Effect == engine.EffectOperate {
		args := []value.Value{svc}
		for _, a := range r.Args {
			args = append(args, value.OfString(a))
		}
		return t.Bind(operationTool(t, r.Operation), args)
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
	if r.Effect == engine.EffectRollback {
		return toolName(t, engine.EffectRollback) + "(" + svc + ")", "rolled back " + svc
	}
	if r.Effect == engine.EffectEscalate {
		return toolName(t, engine.EffectEscalate) + "(...)", "escalated"
	}
	if r.Effect == engine.EffectOperate {
		op := &t.Operations[r.Operation]
		words := strings.ReplaceAll(op.Name, "_", " ")
		if len(op.Aka) > 0 {
			words = op.Aka[0]
		}
		call := operationTool(t, r.Operation) + "(" + svc
		for _, a := range r.Args {
			call += ", " + a
		}
		return call + ")", words + " on " + svc
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
func (d *derived) checkExpert(t *engine.Task) []Finding {
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
			return []Finding{{fmt.Sprintf("The expert plan takes %d steps, fewer than the informed optimum's %d: the optimum is wrong.", len(t.Expert), d.optimal), atExpert, -1}}
		}
	case len(missing) < len(d.chosen) || t.Rubric.Evidence <= 0:
		return []Finding{{fmt.Sprintf("The expert plan does not read the evidence %s, so its evidence coverage is below 1.", strings.Join(missing, ", ")), atExpert, -1}}
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
