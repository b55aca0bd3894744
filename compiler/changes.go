package compiler

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"

	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/lang"
	"github.com/srezc/srezc/value"
)

// The change history (Task.Changes): what list_changes shows. It holds
// three kinds of entry, rendered alike: a fault's own change (a fault block
// with a change block; key, old and new value come from the fault's edit),
// the incident's further changes (change blocks), and benign changes drawn
// from the stdlib's catalog (benign_change). Explicit and benign changes
// are applied to the site before any fault, so the world shows them: a
// value that differs from the docs is no longer a fault's sign.
//
// Draws are deterministic, from the incident's id: the same incident gets
// the same history on every machine and every seed. Times and actors are
// drawn from one distribution for every entry, so neither says which
// entry introduced a fault.

// Benign draws take between minBenign and maxBenign changes per incident,
// as many as the system has keys for.
const (
	minBenign = 2
	maxBenign = 6
)

// The clock of the history: the alert fires on a weekday between
// alertEarliest and alertEarliest+alertSpread; drawn changes are made
// between minAge and maxAge minutes before it.
const (
	alertEarliest = 9 * 60
	alertSpread   = 11 * 60
	minAge        = 15
	maxAge        = 3 * 24 * 60
	dayMinutes    = 24 * 60
)

// siteChange is a change applied to the site before any fault: an
// incident's change block (use set) or a benign draw.
type siteChange struct {
	svc  int
	slot engine.SlotID
	old  value.Value
	new  value.Value
	use  *lang.ChangeUse
}

// pendingChange is an entry of the history before its time and actor are
// settled.
type pendingChange struct {
	siteChange
	fault int // -1: not a fault's
}

// changeRand is the incident's generator for one purpose: the same id and
// purpose give the same numbers everywhere.
func changeRand(id, purpose string) *rand.Rand {
	h := fnv.New64a()
	h.Write([]byte(id))
	a := h.Sum64()
	h.Write([]byte("#" + purpose))
	return rand.New(rand.NewPCG(a, h.Sum64()))
}

// drawChanges is the DrawChanges stage: it applies the incident's change
// blocks and the benign draws to the base row and records them as pending
// history entries. It runs before LowerFaults, so a fault's config.KEY
// reads the site as changed.
func (b *build) drawChanges() {
	site := b.siteIncident()
	protected := b.protectedKeys(site)
	for _, ch := range site.Changes {
		svc := b.serviceIndex(ch.Service)
		slot, ok := b.changeSlot(svc, ch.Key)
		if svc < 0 || !ok {
			continue // the checker reported it
		}
		v, ok := convertTo(ch.Value, b.t.Slots[slot].Kind)
		if !ok {
			continue
		}
		c := siteChange{svc: svc, slot: slot, old: b.base[slot], new: v, use: ch}
		if c.old == c.new {
			b.errAt(ch.ValueRange, "Change changes nothing", fmt.Sprintf("%s.%s is %s at this site already.", ch.Service, ch.Key, c.old))
			continue
		}
		b.site = append(b.site, c)
	}
	rng := changeRand(drawKey(site), "benign")
	type candidate struct {
		svc int
		bc  *lang.BenignChange
	}
	var cands []candidate
	for si := range b.sys.Services {
		for _, bc := range b.m.BenignChanges {
			if bc.Broken || !contains(bc.AppliesTo, b.kinds[si].Name) || protected[si][bc.Key] || b.conflicts(site, bc, si) {
				continue
			}
			if bc.Key == lang.DeployState {
				continue // drawn below, from a stream of their own
			}
			if _, ok := b.changeSlot(si, bc.Key); ok {
				cands = append(cands, candidate{si, bc})
			}
		}
	}
	// The incident's own changes count against the ceiling.
	want := min(minBenign+rng.IntN(maxBenign-minBenign+1), max(maxBenign-len(b.site), 0))
	rng.Shuffle(len(cands), func(i, j int) { cands[i], cands[j] = cands[j], cands[i] })
	taken := map[engine.SlotID]bool{}
	for _, c := range b.site {
		taken[c.slot] = true
	}
	drawn := 0
	for _, c := range cands {
		if drawn == want {
			break
		}
		slot, _ := b.changeSlot(c.svc, c.bc.Key)
		if taken[slot] {
			continue
		}
		if pinsKey(b.sys.Services[c.svc], c.bc.Key) {
			// The site's own setting, pinned where its relations leave
			// no room (a small volume's WAL retention): a routine change
			// of it would break the site. Skipped here, not left out of
			// the shuffle, so no other incident's draws move.
			continue
		}
		var choices []value.Value
		for _, v := range c.bc.Values {
			v, ok := convertTo(v, b.t.Slots[slot].Kind)
			// A benign value differs from the site's and from the docs,
			// so resetting it to the docs is a change, not a fix.
			if ok && v != b.base[slot] && v != b.kindDefault[slot] {
				choices = append(choices, v)
			}
		}
		if len(choices) == 0 {
			continue
		}
		taken[slot] = true
		drawn++
		b.site = append(b.site, siteChange{svc: c.svc, slot: slot, old: b.base[slot], new: choices[rng.IntN(len(choices))]})
	}
	b.drawDeploys(site, protected, maxBenign-len(b.site), taken)
	for _, c := range b.site {
		b.base[c.slot] = c.new
		b.pending = append(b.pending, pendingChange{c, -1})
	}
}

// drawDeploys adds benign deploys, at most room, at least one where any
// service may take one: a site deploys several times a week, so a deploy
// in the history is no sign on its own. They come from a stream of their
// own, so adding deploys to the catalog left every incident's config draws
// as they were.
func (b *build) drawDeploys(site *lang.Incident, protected []map[string]bool, room int, taken map[engine.SlotID]bool) {
	rng := changeRand(drawKey(site), "deploys")
	type candidate struct {
		svc  int
		slot engine.SlotID
		vals []value.Value
	}
	var cands []candidate
	for si := range b.sys.Services {
		slot, ok := b.changeSlot(si, lang.DeployState)
		if !ok || taken[slot] || protected[si][lang.DeployState] {
			continue
		}
		var vals []value.Value
		for _, bc := range b.m.BenignChanges {
			if bc.Broken || bc.Key != lang.DeployState || !contains(bc.AppliesTo, b.kinds[si].Name) || b.conflicts(site, bc, si) {
				continue
			}
			for _, v := range bc.Values {
				if v, ok := convertTo(v, value.String); ok && v != b.base[slot] && !slices.Contains(vals, v) {
					vals = append(vals, v)
				}
			}
		}
		if len(vals) > 0 {
			cands = append(cands, candidate{si, slot, vals})
		}
	}
	if len(cands) == 0 || room <= 0 {
		return
	}
	want := min(room, 1+rng.IntN(len(cands)))
	rng.Shuffle(len(cands), func(i, j int) { cands[i], cands[j] = cands[j], cands[i] })
	for _, c := range cands[:want] {
		taken[c.slot] = true
		b.site = append(b.site, siteChange{svc: c.svc, slot: c.slot, old: b.base[c.slot], new: c.vals[rng.IntN(len(c.vals))]})
	}
}

// changeSlot is the slot a change of key sets on service svc: the config
// key, or, for lang.DeployState, the deployed version (a deploy), or an
// audited state.
func (b *build) changeSlot(svc int, key string) (engine.SlotID, bool) {
	if slot, ok := b.slotIndex[slotKey{svc, "config", key}]; ok {
		return slot, true
	}
	if key != lang.DeployState && !b.audited(svc, key) {
		return engine.NoSlot, false
	}
	slot, ok := b.slotIndex[slotKey{svc, "state", key}]
	return slot, ok && b.t.Slots[slot].Kind == value.String
}

// audited reports whether name is an audited state of service svc's kind:
// the history records its changes as it records a config key's.
func (b *build) audited(svc int, name string) bool {
	s := b.kinds[svc].State(name)
	return s != nil && s.Audited
}

// siteIncident is the incident whose site this build compiles: its own,
// or Options.SiteFrom's for a counterfactual, which must show the same
// site whatever faults it has.
// drawKey is what an incident's draws are keyed by: its draw_key, else
// its name.
func drawKey(in *lang.Incident) string {
	if in.DrawKey != "" {
		return in.DrawKey
	}
	return in.Name
}

func (b *build) siteIncident() *lang.Incident {
	if b.opt.SiteFrom != nil {
		return b.opt.SiteFrom
	}
	return b.in
}

// conflicts reports whether a fault of the site's incident on service svc
// is of a kind the benign change conflicts with.
func (b *build) conflicts(site *lang.Incident, bc *lang.BenignChange, svc int) bool {
	for _, fu := range site.Faults {
		if b.serviceIndex(fu.Target) == svc && contains(bc.ConflictsWith, fu.Name) {
			return true
		}
	}
	return false
}

// protectedKeys are, per service, the config keys no benign change may
// touch: those any fault or distractor of the incident edits, those a
// fault's remedy sets, those the incident's change blocks set, and, on
// every service, any key a fault's fixed_when or the resolved_when names
// (a relation between services reads keys of both).
func (b *build) protectedKeys(site *lang.Incident) []map[string]bool {
	out := make([]map[string]bool, len(b.sys.Services))
	for i := range out {
		out[i] = map[string]bool{}
	}
	protect := func(target, key string) {
		if si := b.serviceIndex(target); si >= 0 {
			out[si][key] = true
		}
	}
	var named []string
	for _, fu := range site.Faults {
		fk := b.m.FaultKind(fu.Name)
		if fk == nil {
			continue
		}
		for _, e := range fk.Edits {
			if !e.State || e.Name == lang.DeployState {
				protect(fu.Target, e.Name)
			}
		}
		for _, r := range fk.Remedies {
			if r.Key != "" {
				protect(fu.Target, r.Key)
			}
			if r.Effect == "rollback" {
				protect(fu.Target, lang.DeployState)
			}
		}
		if fk.FixedWhen != nil {
			named = append(named, fk.FixedWhen.Src)
		}
	}
	for _, du := range site.Distractors {
		if dk := b.m.DistractorKind(du.Name); dk != nil {
			for _, e := range dk.Edits {
				if !e.State {
					protect(du.Target, e.Name)
				}
			}
		}
	}
	for _, ch := range site.Changes {
		protect(ch.Service, ch.Key)
	}
	if site.Resolved != nil {
		named = append(named, site.Resolved.Src)
	}
	for _, src := range named {
		for _, word := range strings.FieldsFunc(src, func(r rune) bool {
			return !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
		}) {
			for si := range out {
				if b.kinds[si].ConfigKey(word) != nil || word == lang.DeployState {
					out[si][word] = true
				}
			}
		}
	}
	return out
}

// faultChange is the history entry of a fault introduced by a change: the
// fault's edit of the key, from the site's value to the fault's.
func (b *build) faultChange(fi int, fu *lang.FaultUse, fk *lang.FaultKind, svc int) {
	ch := fu.Change
	for _, e := range fk.Edits {
		deploy := e.State && (e.Name == lang.DeployState || b.audited(svc, e.Name))
		if e.State && !deploy || ch.Key != "" && e.Name != ch.Key {
			continue
		}
		ed, d := b.resolveEdit(e, svc, fu.Params, fu.NameRange)
		if d != nil {
			return // applyEdits reports it
		}
		old := b.siteConfig(svc)[e.Name]
		if deploy {
			old = b.base[ed.slot]
		}
		if old == ed.v {
			b.errAt(ch.DefRange, "Change changes nothing", fmt.Sprintf("The fault sets %s.%s to %s, the site's value already; it came from no change.", fu.Target, e.Name, old))
			return
		}
		b.pending = append(b.pending, pendingChange{siteChange{svc: svc, slot: ed.slot, old: old, new: ed.v, use: ch}, fi})
		return
	}
}

// lowerChanges is the LowerChanges stage: it settles every pending entry's
// time and actor and writes the history, newest first, and the alert's
// time.
func (b *build) lowerChanges() {
	t := b.t
	rng := changeRand(drawKey(b.siteIncident()), "clock")
	day := rng.IntN(5) // Monday to Friday
	alert := alertEarliest + rng.IntN(alertSpread)
	// The alert fires after every change written for its own day, and soon
	// after the latest of them: an alert that cites "the 02:40 migration"
	// or "the 14:05 rollout" is raised within the hour, not at the next
	// business hour.
	var late *pendingChange
	for i := range b.pending {
		p := &b.pending[i]
		if p.use != nil && p.use.At.Set && (p.use.At.Day < 0 || p.use.At.Day == day) && (late == nil || p.use.At.Minute > late.use.At.Minute) {
			late = p
		}
	}
	if late != nil {
		alert = min(late.use.At.Minute+minAge+rng.IntN(60), dayMinutes-1)
		if late.use.At.Minute >= alert {
			b.errAt(late.use.AtRange, "Change too late", "A change on the alert's day must be made before the alert, and this one leaves it no time before midnight; make it earlier.")
			return
		}
	}
	t.AlertMinute = int32(day*dayMinutes + alert)
	t.Changes = t.Changes[:0]
	for i := range b.pending {
		p := &b.pending[i]
		c := engine.Change{Service: int16(p.svc), Slot: p.slot, Old: b.word(p.old), New: b.word(p.new), Fault: int16(p.fault)}
		if p.use != nil && p.use.At.Set {
			d := p.use.At.Day
			if d < 0 {
				d = day
			}
			c.Minute = int32(d*dayMinutes + p.use.At.Minute)
		} else {
			age := minAge + rng.IntN(maxAge-minAge+1)
			c.Minute = int32(((int(t.AlertMinute)-age)%engine.MinutesPerWeek + engine.MinutesPerWeek) % engine.MinutesPerWeek)
		}
		if p.use != nil && p.use.Actor != "" {
			c.Actor = p.use.Actor
		} else {
			pool := b.actorPool(b.kinds[p.svc].Name)
			if len(pool) == 0 {
				pool = []string{"ops"}
			}
			c.Actor = pool[rng.IntN(len(pool))]
		}
		t.Changes = append(t.Changes, c)
	}
	b.benignAfterFault(rng)
	sort.SliceStable(t.Changes, func(i, j int) bool {
		ai, aj := t.Age(&t.Changes[i]), t.Age(&t.Changes[j])
		if ai != aj {
			return ai < aj
		}
		return t.Changes[i].Slot < t.Changes[j].Slot
	})
}

// minAfterAge is the youngest a benign change made after a fault's may
// be: someone touched the site minutes before the page.
const minAfterAge = 5

// benignAfterFault moves one benign change (drawn, not pinned) to after the
// newest fault's change when that would otherwise be the newest entry, so
// "roll back the latest change" is no answer: which change broke the site
// is for the evidence to say, not the order of the list.
func (b *build) benignAfterFault(rng *rand.Rand) {
	t := b.t
	newest, faultAge := -1, 0
	for i := range t.Changes {
		if a := t.Age(&t.Changes[i]); newest < 0 || a < t.Age(&t.Changes[newest]) {
			newest = i
		}
	}
	if newest < 0 || t.Changes[newest].Fault < 0 {
		return
	}
	faultAge = t.Age(&t.Changes[newest])
	if faultAge <= minAfterAge {
		return
	}
	var movable []int
	for i := range b.pending {
		if p := &b.pending[i]; p.fault < 0 && p.use == nil {
			movable = append(movable, i)
		}
	}
	if len(movable) == 0 {
		return
	}
	i := movable[rng.IntN(len(movable))]
	age := minAfterAge + rng.IntN(faultAge-minAfterAge)
	t.Changes[i].Minute = int32(((int(t.AlertMinute)-age)%engine.MinutesPerWeek + engine.MinutesPerWeek) % engine.MinutesPerWeek)
}

// actorPool is who changes a service kind: the actors of every benign
// change that applies to it (else of every benign change), sorted, each
// once. A fault's change draws from the same pool as the benign ones.
func (b *build) actorPool(kind string) []string {
	seen := map[string]bool{}
	var out []string
	add := func(all bool) {
		for _, bc := range b.m.BenignChanges {
			if bc.Broken || !all && !contains(bc.AppliesTo, kind) {
				continue
			}
			for _, a := range bc.Actors {
				if !seen[a] {
					seen[a] = true
					out = append(out, a)
				}
			}
		}
	}
	add(false)
	if len(out) == 0 {
		add(true)
	}
	sort.Strings(out)
	return out
}

// pinsKey reports whether a system service pins a config key (set_config).
func pinsKey(ss *lang.SystemService, key string) bool {
	for _, e := range ss.Config {
		if e.Name == key {
			return true
		}
	}
	return false
}
