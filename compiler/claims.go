package compiler

import (
	"fmt"
	"strings"
	"sync"

	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/lang"
	"github.com/srezc/srezc/record"
	"github.com/srezc/srezc/value"
)

// lowerClaims writes the task's claim catalogue: for every service, what an
// answer may assert about it. Each fault kind that applies to the service's
// kind contributes the claim of its detail key (the key's words and
// other names, in the state its edit puts the key: below its remedy is
// "low", a disabled flag "off", a changed host "wrong") and the claim of
// its mechanism's declared parts and states; every other config key
// contributes a plain claim, so that asserting a setting nobody broke
// blames its service. The incident's own faults use their own parameters.
func (b *build) lowerClaims() {
	t := b.t
	if t.Profile == record.ProfileSreZero {
		return
	}
	for si := range b.kinds {
		k := b.kinds[si]
		covered := map[string]engine.State{}
		for _, fk := range b.m.FaultKinds {
			if !contains(fk.AppliesTo, k.Name) {
				continue
			}
			params := defaultParams(fk)
			for _, fu := range b.in.Faults {
				if fu.Name == fk.Name && b.serviceIndex(fu.Target) == si {
					for n, v := range fu.Params {
						params[n] = v
					}
				}
			}
			mech := b.mechanismIndex(fk.Mechanism)
			if mech < 0 {
				continue
			}
			kindName := b.sameCauseKind(fk, k, si)
			var detailSt engine.State
			if ck := k.ConfigKey(fk.Detail); ck != nil {
				if st := b.detailState(fk, si, ck, params); st != 0 {
					detailSt = st
					c := engine.Claim{Service: int16(si), Kind: kindName, Mechanism: int16(mech),
						States: st, Against: st.Opposite()}
					c.HasBand, c.Low, c.High, c.Unit = ck.HasBand, ck.Low, ck.High, ck.Unit
					c.Topics, c.Gloss = b.opt.words.of(ck)
					t.Claims = append(t.Claims, c)
					covered[ck.Name] |= st
				}
			}
			// A relation's other side: a key a remedy sets besides the
			// detail asserts the same fault the other way ("the pool is
			// over the limit" as well as "the limit is under the pool").
			for _, r := range fk.Remedies {
				ck := k.ConfigKey(r.Key)
				if r.Effect != "update_config" || r.Key == fk.Detail || ck == nil {
					continue
				}
				if st := detailSt.Opposite(); st != 0 {
					c := engine.Claim{Service: int16(si), Kind: kindName, Mechanism: int16(mech),
						States: st, Against: st.Opposite()}
					c.HasBand, c.Low, c.High, c.Unit = ck.HasBand, ck.Low, ck.High, ck.Unit
					c.Topics, c.Gloss = b.opt.words.of(ck)
					t.Claims = append(t.Claims, c)
					covered[ck.Name] |= st
				}
			}
			mt := b.rubric.Mechanisms[mech]
			var st engine.State
			for _, s := range mt.States {
				x, ok := engine.ParseState(s)
				if !ok {
					b.errAt(mt.StatesRange, "Unknown state", fmt.Sprintf("%q is not a state; states are %s.", s, strings.Join(engine.StateNames(), ", ")))
					continue
				}
				st |= x
			}
			if st != 0 {
				topics := []string{}
				for _, a := range mt.About {
					// "itself" is the service: "the database is down".
					if a == "itself" {
						a = ""
					}
					topics = appendUnique(topics, lang.NormalizePhrase(a))
				}
				t.Claims = append(t.Claims, engine.Claim{Service: int16(si), Kind: kindName, Mechanism: int16(mech), Topics: topics, States: st})
			}
		}
		for _, ck := range k.Config {
			var st engine.State
			switch {
			case ck.Kind.Numeric() && covered[ck.Name] == 0:
				// "the keep-alive is misconfigured" blames a setting no
				// fault is about; on a setting a fault is about, "wrong"
				// says no direction, so it asserts nothing.
				st = engine.StateLow | engine.StateHigh | engine.StateWrong
			case ck.Kind.Numeric():
				st = engine.StateLow | engine.StateHigh
			case ck.Kind == value.Bool:
				st = engine.StateOff | engine.StateOn
			default:
				st = engine.StateWrong
			}
			st &^= covered[ck.Name]
			if st != 0 {
				c := engine.Claim{Service: int16(si), Mechanism: -1, States: st}
				c.HasBand, c.Low, c.High, c.Unit = ck.HasBand, ck.Low, ck.High, ck.Unit
				c.Topics, c.Gloss = b.opt.words.of(ck)
				t.Claims = append(t.Claims, c)
			}
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func defaultParams(fk *lang.FaultKind) map[string]value.Value {
	p := map[string]value.Value{}
	for _, pr := range fk.Params {
		p[pr.Name] = pr.Default
	}
	return p
}

// detailState is the state fk's edit puts its detail key in, measured
// against the remedy's value (or the key's default): the direction a
// diagnosis must assert.
func (b *build) detailState(fk *lang.FaultKind, si int, ck *lang.ConfigKey, params map[string]value.Value) engine.State {
	var set value.Value
	found := false
	for _, e := range fk.Edits {
		if !e.State && e.Name == ck.Name && e.Eval != nil {
			v, d := e.Eval(b.editScope(si, params))
			if d == nil {
				set, found = v, true
			}
		}
	}
	if !found {
		return 0
	}
	good, ok := b.siteConfig(si)[ck.Name]
	if !ok {
		good = ck.Default
	}
	for _, r := range fk.Remedies {
		if r.Effect == "update_config" && r.Key == ck.Name && r.Value.K != value.Null {
			good = r.Value
		}
	}
	switch {
	case set.K.Numeric() && good.K.Numeric():
		switch {
		case set.AsFloat() < good.AsFloat():
			return engine.StateLow
		case set.AsFloat() > good.AsFloat():
			return engine.StateHigh
		}
	case set.K == value.Bool:
		if set.B {
			return engine.StateOn
		}
		return engine.StateOff
	case set.K == value.String:
		return engine.StateWrong
	}
	return 0
}

// unitWords are suffixes of key names that say how a value is measured or
// that it is a flag, not what it is about: idle_timeout_ms is about the
// "idle timeout", read_replica_enabled about the "read replica".
var unitWords = map[string]bool{"ms": true, "s": true, "sec": true, "seconds": true, "mb": true, "gb": true, "kb": true,
	"pct": true, "percent": true, "rps": true, "h": true, "m": true, "enabled": true, "valid": true, "bytes": true}

// keyTopics are the phrases naming a config key: its name read as words,
// those words without a unit suffix, and its declared other names.
func keyTopics(ck *lang.ConfigKey) []string {
	full := lang.NormalizePhrase(ck.Name)
	topics := []string{full}
	ws := strings.Fields(full)
	for len(ws) > 1 && unitWords[ws[len(ws)-1]] {
		ws = ws[:len(ws)-1]
	}
	topics = appendUnique(topics, strings.Join(ws, " "))
	for _, a := range ck.Aka {
		topics = appendUnique(topics, lang.NormalizePhrase(a))
	}
	return topics
}

// keyWords remembers each config key's topics and description gloss.
// Both are pure functions of the module's text, and stemming and phrase
// normalising were a third of compiling an incident; every incident and
// site variant compiled from one module shares them (Options.words).
// Claims only read the shared slices.
type keyWords struct {
	mu sync.Mutex
	m  map[*lang.ConfigKey][2][]string
	// orders memoises quantityOrder per system: every incident on a
	// system, and each of its site variants, orders the same quantities.
	orders map[systemKey]quantityOrdering
}

// systemKey names a system of a module.
type systemKey struct {
	m   *lang.Module
	sys *lang.System
}

// quantityOrdering is quantityOrder's result, shared read-only.
type quantityOrdering struct {
	order []serviceQuantity
	at    map[slotKey]int
}

func newKeyWords() *keyWords {
	return &keyWords{m: map[*lang.ConfigKey][2][]string{}, orders: map[systemKey]quantityOrdering{}}
}

// of returns ck's topics and gloss; a nil memo computes them afresh.
func (w *keyWords) of(ck *lang.ConfigKey) (topics, gloss []string) {
	if w == nil {
		return keyTopics(ck), engine.GlossWords(ck.Description)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	e, ok := w.m[ck]
	if !ok {
		e = [2][]string{keyTopics(ck), engine.GlossWords(ck.Description)}
		w.m[ck] = e
	}
	return e[0], e[1]
}

// sameCauseKind names the fault kind whose claim fk's words make on
// service si: fk's own, unless a fault of the incident on si has the same
// mechanism and declares fk as its conflict, another form of the same
// cause (an index a failed build left INVALID, and an index disabled by
// its key). Answers cannot tell such kinds apart by their words, so the
// sibling's words assert the incident's fault rather than blame a fault
// that is not there. A sibling that moves a number (workers too few, too
// many) differs by direction, which words do tell apart: it keeps its own.
func (b *build) sameCauseKind(fk *lang.FaultKind, k *lang.ServiceKind, si int) string {
	if ck := k.ConfigKey(fk.Detail); ck != nil && ck.Kind.Numeric() {
		return fk.Name
	}
	for _, fu := range b.in.Faults {
		if fu.Name == fk.Name || b.serviceIndex(fu.Target) != si {
			continue
		}
		own := b.m.FaultKind(fu.Name)
		if own != nil && own.Mechanism == fk.Mechanism && contains(own.ConflictsWith, fk.Name) {
			return own.Name
		}
	}
	return fk.Name
}
