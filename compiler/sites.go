package compiler

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/lang"
	"github.com/srezc/srezc/value"
)

// Sites drawn per seed. A system may declare, per service, config keys
// that its sites draw (vary { KEY = [LOW, HIGH] }): an incident on such a
// system compiles SiteVariants times, each variant drawing every such key
// from its range, and an episode's seed picks the variant it plays
// (engine.Task.Site). Each variant is a whole task: its warm-up, change
// history (a fault's change replaces the drawn value), remedies that
// restore the site's value, expert plan ($before resolved), evidence,
// informed optimum and certification are its own. Draws come from the
// incident's draw key (its draw_key, else its id) and the variant's index,
// never from the seed, the clock or map order, so compiling is
// deterministic.

// SiteVariants is how many site variants a task of a varying system has.
// Every variant is compiled and certified; more variants cost compile time
// in proportion, not step time.
const SiteVariants = 4

// varies reports whether the incident's system draws any key.
func (b *build) varies() bool {
	if b.drawsTraffic() {
		return true
	}
	for _, ss := range b.sys.Services {
		if len(ss.Vary) > 0 {
			return true
		}
	}
	return false
}

// drawsTraffic reports whether the incident's sites draw their traffic:
// its system declares a range and the incident does not pin it.
func (b *build) drawsTraffic() bool {
	return b.sys != nil && b.sys.Traffic != nil && !b.in.TrafficSet
}

// drawTraffic is the client request rate of variant b.opt.Site: the
// incident's, or drawn from its system's range.
func (b *build) drawTraffic() float64 { return b.trafficOf(b.opt.Site) }

// trafficOf is the client request rate of variant site.
func (b *build) trafficOf(site int) float64 {
	if !b.drawsTraffic() {
		return b.in.Traffic
	}
	rng := changeRand(drawKey(b.siteIncident()), fmt.Sprintf("site %d traffic", site))
	intN := rng.IntN
	if b.opt.siteCorner != nil {
		intN = b.opt.siteCorner
	}
	return drawIn(intN, b.sys.Traffic.Low, b.sys.Traffic.High, true)
}

// drawSite writes service svc's drawn keys and states of variant
// b.opt.Site into the base row. Its config and state slots must exist.
func (b *build) drawSite(svc int, ss *lang.SystemService) {
	if len(ss.Vary) == 0 {
		return
	}
	rng := changeRand(drawKey(b.siteIncident()), fmt.Sprintf("site %d %s", b.opt.Site, ss.Name))
	for _, v := range ss.Vary {
		id, ok := b.slotIndex[slotKey{svc, "config", v.Name}]
		if !ok {
			id, ok = b.slotIndex[slotKey{svc, "state", v.Name}]
		}
		if !ok {
			continue // the checker reported it
		}
		kind := b.t.Slots[id].Kind
		intN := rng.IntN
		if b.opt.siteCorner != nil {
			intN = b.opt.siteCorner
		}
		x := drawIn(intN, v.Low, v.High, kind == value.Int)
		switch kind {
		case value.Int:
			b.base[id] = value.OfInt(int64(x))
		case value.Float:
			b.base[id] = value.OfFloat(x)
		}
	}
}

// drawIn draws a value of [lo, hi] on a grid a site's operators would
// pick: multiples of a tenth of the range's order of magnitude (3000 to
// 6000 in steps of 100; 1536 to 2200 in steps of 10 from 1540; 16 to 40
// in steps of 1), whole numbers for an int.
func drawIn(intN func(int) int, lo, hi float64, whole bool) float64 {
	span := hi - lo
	step := math.Pow(10, math.Floor(math.Log10(span))-1)
	if whole && step < 1 {
		step = 1
	}
	first := math.Ceil(lo/step-1e-9) * step
	n := int(math.Floor((hi-first)/step + 1e-9))
	x := first + float64(intN(n+1))*step
	if whole {
		x = math.Round(x)
	} else {
		x = math.Round(x/step) * step
	}
	return min(x, hi)
}

// compileSites compiles the task's other site variants and attaches them
// as its Sites. A variant's diagnostics are the task's, each saying which
// variant it is about, except where an earlier variant already has an
// error at the same place: the same error on another draw (its numbers
// may differ) is reported once, as the root an author fixes first. failed
// reports a variant that did not compile.
func (b *build) compileSites(diags lang.Diagnostics) (lang.Diagnostics, bool) {
	t := b.t
	seen := map[string]bool{}
	at := map[lang.Range]bool{}
	for _, d := range diags {
		seen[d.Detail] = true
		if d.Subject != nil {
			at[*d.Subject] = true
		}
	}
	for k := 1; k < SiteVariants; k++ {
		opt := b.opt
		opt.Site, opt.oneSite, opt.DumpAfter, opt.KeepUncertified = k, true, "", true
		st, ds := CompileIncident(b.m, b.in, opt)
		for _, d := range ds {
			if seen[d.Detail] || d.Subject != nil && at[*d.Subject] {
				continue
			}
			seen[d.Detail] = true
			if d.Subject != nil {
				at[*d.Subject] = true
			}
			c := *d
			c.Detail = fmt.Sprintf("On site variant %d of %d (%s): %s", k+1, SiteVariants, b.siteText(st, k), d.Detail)
			diags = append(diags, &c)
			if st != nil && d.Summary == NotCertified {
				t.Uncertified = append(t.Uncertified, c.Detail)
				t.Certified = false
			}
		}
		if st == nil {
			return diags, true
		}
		// The variant's Hash is its own until the task's replaces it.
		b.siteHashes = append(b.siteHashes, st.Hash)
		t.Sites = append(t.Sites, st)
	}
	return diags, false
}

// siteText names variant site's drawn values, for a diagnostic.
func (b *build) siteText(st *engine.Task, site int) string {
	if st == nil {
		return "it did not compile"
	}
	var out []string
	if b.drawsTraffic() {
		out = append(out, fmt.Sprintf("traffic = %g", b.trafficOf(site)))
	}
	row := st.Row()
	for i, ss := range b.sys.Services {
		for _, v := range ss.Vary {
			id := st.ConfigSlot(i, v.Name)
			if id == engine.NoSlot {
				id = stateSlot(st, i, v.Name)
			}
			if id != engine.NoSlot {
				// Drawn keys are site tuning, which no warm-up tick moves
				// unless a fault's edit did.
				out = append(out, fmt.Sprintf("%s.%s = %s", ss.Name, v.Name, st.ValueOf(st.Slots[id].Kind, row[id])))
			}
		}
	}
	return strings.Join(out, ", ")
}

// stateSlot finds a state of a service.
func stateSlot(t *engine.Task, service int, name string) engine.SlotID {
	for id, sl := range t.Slots {
		if int(sl.Service) == service && sl.Class == engine.ClassState && sl.Name == name {
			return engine.SlotID(id)
		}
	}
	return engine.NoSlot
}

// expertText resolves lang.SiteValue in expert action i: the value of a
// config write written as $before is the site's value of that key before
// the faults, in this variant.
func (b *build) expertText(i int, text string) string {
	if !strings.Contains(text, lang.SiteValue) || i >= len(b.in.ExpertCalls) || b.in.ExpertCalls[i] == nil {
		return text
	}
	call := b.in.ExpertCalls[i]
	for j, arg := range call.Args {
		if !lang.IsSiteValue(arg) || j < 2 || call.Args[0].Value.K != value.String || call.Args[1].Value.K != value.String {
			continue
		}
		svc := b.serviceIndex(call.Args[0].Value.S)
		slot, ok := b.slotIndex[slotKey{svc, "config", call.Args[1].Value.S}]
		start, end := arg.Range.Start.Byte, arg.Range.End.Byte
		if svc < 0 || !ok || start < 0 || end > len(text) || text[start:end] != lang.SiteValue {
			continue
		}
		return text[:start] + actionValue(b.base[slot]) + text[end:]
	}
	return text
}

// actionValue writes a value as the action grammar reads it.
func actionValue(v value.Value) string {
	switch v.K {
	case value.Int:
		return strconv.FormatInt(v.I, 10)
	case value.Float:
		return strconv.FormatFloat(v.F, 'f', -1, 64)
	case value.Bool:
		return strconv.FormatBool(v.B)
	}
	return strconv.Quote(v.S)
}

// SourceExpert is a task's expert plan as an incident's source would write
// it: a config write whose value differs between the site variants (each
// restores its drawn site's value) is written with lang.SiteValue, so the
// incident compiled from that source restores per variant too. Mutation
// and suite generation write derived experts back through it.
//
// Where the sites' optima differ in their reads (a site whose evidence
// needs another read, or whose recovery needs another step after a write),
// one plan must serve every site: between each pair of its writes (and
// before the first, and before the resolution) it makes the longest run of
// reads any site's optimum makes there, plus any other site's reads not in
// it, so it covers each site's evidence, waits as long as the slowest, and
// is no shorter than any site's optimum (shorter would certify as a wrong
// optimum there). Sites whose writes differ keep site 1's plan, literal
// values included.
func SourceExpert(t *engine.Task) []string {
	plans := [][]string{t.Expert}
	for _, s := range t.Sites {
		plans = append(plans, s.Expert)
	}
	first := planSegments(t, t.Expert)
	merged := make([]segment, len(first))
	copy(merged, first)
	for _, p := range plans[1:] {
		segs := planSegments(t, p)
		if len(segs) != len(first) {
			return append([]string(nil), t.Expert...) // writes of other shapes: keep the literal values
		}
		for i, sg := range segs {
			if i > 0 && i < len(segs)-1 && writePrefix(sg.act) != writePrefix(first[i].act) {
				return append([]string(nil), t.Expert...)
			}
			if len(sg.reads) > len(merged[i].reads) {
				merged[i].reads = append(append([]string(nil), sg.reads...), missing(merged[i].reads, sg.reads)...)
			} else {
				merged[i].reads = append(append([]string(nil), merged[i].reads...), missing(sg.reads, merged[i].reads)...)
			}
		}
	}
	var out []string
	for i, sg := range merged {
		if i > 0 {
			out = append(out, sg.act)
		}
		out = append(out, sg.reads...)
	}
	for i, text := range out {
		if !strings.HasPrefix(text, "update_config(") || !strings.HasSuffix(text, ")") {
			continue
		}
		comma := strings.LastIndex(text, ",")
		differs := false
		for _, p := range plans[1:] {
			for _, other := range p {
				if other != text && comma > 0 && strings.LastIndex(other, ",") == comma && other[:comma] == text[:comma] {
					differs = true
				}
			}
		}
		if differs {
			out[i] = text[:comma] + ", " + lang.SiteValue + ")"
		}
	}
	return out
}

// A segment of a plan is an action that is not a read (none for the first
// segment) and the reads that follow it.
type segment struct {
	act   string
	reads []string
}

// planSegments parts a plan at each action that is not a read: the reads
// before the first write, then each write or the closing action with the
// reads after it.
func planSegments(t *engine.Task, plan []string) []segment {
	segs := []segment{{}}
	for _, text := range plan {
		name, _, _ := strings.Cut(text, "(")
		read := false
		for i := range t.Tools {
			if t.Tools[i].Name == name {
				read = t.Tools[i].Effect.IsRead()
			}
		}
		if read {
			segs[len(segs)-1].reads = append(segs[len(segs)-1].reads, text)
		} else {
			segs = append(segs, segment{act: text})
		}
	}
	return segs
}

// missing lists the reads of xs that have lists none of.
func missing(xs, have []string) []string {
	var out []string
	for _, x := range xs {
		if !slices.Contains(have, x) && !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}

// writePrefix is a write without the value it writes.
func writePrefix(text string) string {
	if strings.HasPrefix(text, "update_config(") {
		if comma := strings.LastIndex(text, ","); comma > 0 {
			return text[:comma]
		}
	}
	return text
}
