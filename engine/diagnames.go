package engine

import (
	"slices"
	"strings"

	"github.com/srezc/srezc/value"
)

// Settings named by a phrase around another name: "a ceiling on how many
// clients" is the client ceiling, "the cache at an old name" the caller's
// cache host. The settings are the stdlib's; only the English is here.

// limitOnTopics reads "a ceiling on how many clients it lets in", "the cap
// the web tier puts on the number of requests" as "client ceiling",
// "request cap": a limit noun, then within a few words "how many X" or
// "number of X", names the limit on X where the stdlib has one by that
// name.
func (r *reader) limitOnTopics(lx *diagLexicon) {
	for i := range r.toks {
		if r.toks[i].punct != 0 || r.tokInfo[i].covered || !slices.Contains(limitNouns, r.word(i)) {
			continue
		}
		for j := i + 1; j < len(r.toks) && j <= i+6 && r.toks[j].punct == 0; j++ {
			w, next := r.word(j), r.word(j+1)
			if !(w == "how" && next == "many" || w == "number" && next == "of") || j+2 >= len(r.toks) || r.toks[j+2].punct != 0 {
				continue
			}
			x := r.norm[r.toks[j+2].start:r.toks[j+2].end]
			id, ok := r.limitTopic(lx, x, r.word(i))
			if !ok && len(x) > 1 && x[len(x)-1] == 's' {
				id, ok = r.limitTopic(lx, x[:len(x)-1], r.word(i))
			}
			if ok {
				// "how many" names what is limited here; it says no state.
				r.items = slices.DeleteFunc(r.items, func(x item) bool {
					return x.kind == lexState && int(x.tok) >= j && int(x.tok) <= j+2
				})
				r.insertTopic(i, id)
			}
			break
		}
	}
}

// limitTopic is the topic named "x noun" ("client ceiling"), if any.
func (r *reader) limitTopic(lx *diagLexicon, x []byte, noun string) (int32, bool) {
	r.phrase = append(append(append(r.phrase[:0], x...), ' '), noun...)
	id, ok := lx.topicID[string(r.phrase)]
	return id, ok
}

// hostOfTopics reads "looking for the cache at an old name", "the cache
// under a name that isn't in DNS", "the cache at cache-old.internal" as the
// cache's host setting, the caller's: a service, then within a few linking
// words a host noun or a host name, names the setting "SERVICE host" where
// the stdlib has one by that name.
func (r *reader) hostOfTopics(lx *diagLexicon) {
	for k := 0; k < len(r.items); k++ {
		svc := r.items[k]
		if svc.kind != lexService {
			continue
		}
		first := int(svc.tok) + svc.end - svc.pos + 1
		for i := first; i < len(r.toks) && i <= first+3 && r.toks[i].punct == 0 && !r.tokInfo[i].covered; i++ {
			w := r.word(i)
			// "the cache at cache-old.internal": a host name names it too.
			if !hostNouns[w] && r.literalAt(i) != '.' {
				if hostLinks[w] {
					continue
				}
				break
			}
			r.phrase = r.phrase[:0]
			for j := int(svc.tok); j < first; j++ {
				r.phrase = append(append(r.phrase, r.norm[r.toks[j].start:r.toks[j].end]...), ' ')
			}
			r.phrase = append(r.phrase, "host"...)
			if id, ok := lx.topicID[string(r.phrase)]; ok {
				r.insertTopic(i, id)
			}
			break
		}
	}
}

// isVersion reports whether w is a version ("v4.4.0", "v17", "2.14.1"):
// a "v" and a number, or three or more dotted numbers. A decimal
// ("2.5") is a value, not a version.
func isVersion(w []byte) bool {
	if len(w) > 1 && w[0] == 'v' && w[1] >= '0' && w[1] <= '9' {
		w = w[1:]
		for _, c := range w {
			if !(c >= '0' && c <= '9' || c == '.') {
				return false
			}
		}
		return w[len(w)-1] != '.'
	}
	dots := 0
	for _, c := range w {
		switch {
		case c == '.':
			dots++
		case c < '0' || c > '9':
			return false
		}
	}
	return dots >= 2 && w[0] != '.' && w[len(w)-1] != '.'
}

// metricIdentifiers lists, folded, the names of the system's metrics that
// are not also a config key's: an answer quoting one quotes a reading.
func metricIdentifiers(t *Task) map[string]bool {
	config := map[string]bool{}
	for i := range t.Slots {
		if t.Slots[i].Class == ClassConfig {
			config[value.Fold(t.Slots[i].Name)] = true
		}
	}
	out := map[string]bool{}
	for i := range t.Slots {
		if n := value.Fold(t.Slots[i].Name); t.Slots[i].Class == ClassMetric && strings.IndexByte(n, '_') > 0 && !config[n] {
			out[n] = true
		}
	}
	return out
}

// headOfCompound reports whether a service name ending at token last may
// name the service: outside a compound written with '-', at its end, or
// before a part that only says which side of it ("web-tier", "db-side").
// Elsewhere in a compound it modifies another noun ("app-role",
// "db-migration").
func (r *reader) headOfCompound(lx *diagLexicon, last int) bool {
	if last >= len(r.toks) || !r.toks[last].dash || r.toks[last].dashLast {
		return true
	}
	next := lx.byFirst[r.word(last+1)]
	return next != nil && onlyIdioms(next)
}

// failVerbs say that their subject fails, with no word of why.
var failVerbs = map[string]bool{"fails": true, "fail": true, "failing": true, "raises": true, "raising": true,
	"errors": true, "erroring": true, "crashes": true}

// failsAfter reports whether the words from token i say their subject
// fails ("fails", "is failing", "keeps raising").
func (r *reader) failsAfter(lx *diagLexicon, i int) bool {
	// "the provider api.paylane.example fails", "the build deployed
	// yesterday fails": a few words the lexicon does not know may stand
	// between ("a service was misconfigured and failing" says no more than
	// its states).
	for n := 0; n < 3 && i < len(r.tokInfo) && r.toks[i].punct == 0 && !r.tokInfo[i].covered && !failVerbs[r.word(i)]; n++ {
		if r.literalAt(i) == 0 && lx.byFirst[r.word(i)] != nil {
			break
		}
		i++
	}
	switch r.word(i) {
	case "is", "are", "keeps", "kept", "now", "also", "still":
		i++
	}
	// "the release raises nothing": it does not fail.
	return failVerbs[r.word(i)] && r.word(i+1) != "nothing" && r.word(i+1) != "no"
}

// isPart reports whether claim c is about a part of its service a fault
// kind's mechanism names ("release", "payment provider", "startup"), not a
// setting, and a part that can be down or wrong: a part of it that fails
// is in its fault's state.
func isPart(c *Claim) bool {
	// The service itself ("the service is failing") is too vague a part.
	return c.Kind != "" && c.Mechanism >= 0 && !c.HasBand && len(c.Gloss) == 0 && c.Unit == "" && c.States&(StateDown|StateWrong) != 0 &&
		!slices.Contains(c.Topics, "")
}

// shareOfBackend reports whether a share of the traffic ("95% of requests")
// is said of a backend: its sentence names one and nothing else in its
// clause (a setting, a part, a mechanism) is said to send it. A client's
// share ("one address, 90% of all requests") is not a weight.
func (r *reader) shareOfBackend(it item) bool {
	for _, o := range r.items {
		if o.cl == it.cl && !o.neg && (o.kind == lexTopic || o.kind == lexMech) {
			return false
		}
	}
	for i := range r.toks {
		if i < len(r.tokInfo) && int(r.tokInfo[i].seg) == it.seg && r.toks[i].punct == 0 {
			w := r.word(i)
			if backendWords[w] || strings.IndexByte(w, '-') > 0 && w[len(w)-1] >= '0' && w[len(w)-1] <= '9' {
				return true
			}
		}
	}
	return false
}

// hostGap is the number of tokens from i that name a host the phrase
// around them is about: a host name, perhaps after "for", "of", "on" or
// "to" ("DNS for db.internal failing"); 0 if none.
func (r *reader) hostGap(i int) int {
	switch r.word(i) {
	case "for", "of", "on", "to":
		if r.literalAt(i+1) == '.' {
			return 2
		}
		return 0
	}
	if r.literalAt(i) == '.' {
		return 1
	}
	return 0
}
