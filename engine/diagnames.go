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
	"errors": true, "erroring": true, "crashes": true, "dies": true, "exits": true, "aborts": true, "panics": true}

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

// A component outside the site (a payment provider, a mail relay) is
// diagnosed by saying how it answers its callers: a mechanism whose
// `states` hold "failing" is asserted by any of its parts' names (product,
// role noun) with a status said of it, after ("PayLane answers 503", "the
// card processor is slow", "the relay refuses") or before ("a slow
// provider", "503s from PayLane", "an outage at the relay"). The names are
// the stdlib's (`about`); only the English is here. A host name alone
// ("api.paylane.example answered 503") does not name the party: it is how
// the site's own log lines name it, and a pasted line is no diagnosis.

// statusWords, said of a component, say it fails its callers.
var statusWords = map[string]bool{"fails": true, "fail": true, "failing": true, "failed": true, "errors": true,
	"erroring": true, "slow": true, "degraded": true, "unreachable": true, "unavailable": true, "flaky": true,
	"down": true, "refuses": true, "refusing": true, "refused": true, "rejects": true, "rejecting": true,
	"rejected": true, "defers": true, "deferring": true, "deferred": true, "throttling": true, "struggling": true,
	"outage": true, "outages": true, "timing": true, "times": true, "timed": true, "lagging": true, "broken": true,
	"dies": true, "died": true, "exits": true, "exited": true, "crashes": true, "crashed": true, "aborts": true}

// stepVerbs before "at", "on" or "during" and a part say the part fails
// ("exits on boot", "rejects it at startup", "dies at each start").
var stepVerbs = map[string]bool{"dies": true, "died": true, "exits": true, "exited": true, "crashes": true,
	"crashed": true, "aborts": true, "fails": true, "failed": true, "rejects": true, "rejected": true,
	"refuses": true, "refused": true, "panics": true}

// replyVerbs take what a component answers with ("answers 503", "returns
// errors", "responds slowly").
var replyVerbs = map[string]bool{"answers": true, "answering": true, "answered": true, "answer": true,
	"returns": true, "returning": true, "returned": true, "return": true, "responds": true, "responding": true,
	"responded": true, "respond": true, "replies": true, "replying": true, "replied": true, "sends": true,
	"sending": true, "gives": true, "giving": true, "throws": true, "throwing": true, "comes": true,
	"coming": true, "came": true, "takes": true, "taking": true, "took": true}

// replyFillers may stand between a reply verb and what it answers with
// ("comes back with intermittent HTTP 503s").
var replyFillers = map[string]bool{"with": true, "back": true, "a": true, "an": true, "only": true, "mostly": true,
	"intermittent": true, "intermittently": true, "partial": true, "some": true, "many": true, "lots": true,
	"of": true, "http": true, "smtp": true, "status": true, "code": true, "codes": true, "the": true,
	"around": true, "about": true, "over": true, "up": true, "to": true, "several": true}

// replyFaults are what a failing component answers with.
var replyFaults = map[string]bool{"errors": true, "error": true, "failures": true, "failure": true,
	"timeouts": true, "slowly": true, "slow": true, "late": true, "4xx": true, "5xx": true, "4xxs": true,
	"5xxs": true, "temporary": true, "refusals": true, "rejections": true, "seconds": true}

// statusNouns before "from"/"at"/"on" and a component say it fails ("an
// outage at the relay", "503s from PayLane").
var statusNouns = map[string]bool{"outage": true, "outages": true, "errors": true, "error": true,
	"failures": true, "timeouts": true, "slowness": true, "rejections": true, "refusals": true,
	"problem": true, "problems": true, "issue": true, "issues": true, "incident": true, "degradation": true}

// componentModifiers may stand before a component's name ("the slow
// external payment provider").
var componentModifiers = map[string]bool{"the": true, "a": true, "an": true, "our": true, "their": true,
	"its": true, "external": true, "third": true, "party": true, "upstream": true, "partial": true,
	"intermittent": true, "some": true}

// isErrorCode reports whether w is an error status: 4xx or 5xx, as a
// number ("503", "421", "503s") or a class ("5xx").
func isErrorCode(w string) bool {
	w = strings.TrimSuffix(w, "s")
	if len(w) != 3 || (w[0] != '4' && w[0] != '5') {
		return false
	}
	return w[1:] == "xx" || w[1] >= '0' && w[1] <= '9' && w[2] >= '0' && w[2] <= '9'
}

// failingTopic reports whether a claim on topic id holds StateFailing.
func failingTopic(t *Task, lx *diagLexicon, id int32) bool {
	for _, ci := range lx.topicClaims[id] {
		if t.Claims[ci].States&StateFailing != 0 {
			return true
		}
	}
	return false
}

// statusAfter reports whether the words from token i say the component
// named before them fails its callers. A host name, a name the lexicon
// does not know ("the payment provider PayLane") or an appositive ("PayLane,
// the card provider, returns 503") may stand between; a path may not ("POST
// /v1/charges answered 503" is a request a log line reports).
func (r *reader) statusAfter(lx *diagLexicon, i int) bool {
	for n := 0; n < 2 && i < len(r.toks) && r.toks[i].punct == 0 && !statusWords[r.word(i)] && !replyVerbs[r.word(i)]; n++ {
		if w := r.word(i); (w == "at" || w == "on") && r.literalAt(i+1) == '.' {
			i++ // "the relay at mx-out.example answers 421"
		} else if lit := r.literalAt(i); lit == '/' || lit == 0 && lx.byFirst[w] != nil {
			break
		}
		i++
	}
	if i < len(r.toks) && r.toks[i].punct == ',' && componentModifiers[r.word(i+1)] {
		// ", the card provider,": an aside naming it again.
		for j := i + 2; j < len(r.toks) && j <= i+6; j++ {
			if r.toks[j].punct == ',' {
				i = j + 1
				break
			}
			if r.toks[j].punct != 0 {
				break
			}
		}
	}
	for n := 0; n < 2; n++ {
		switch r.word(i) {
		case "is", "are", "was", "were", "keeps", "kept", "now", "also", "still", "itself", "has", "have", "been", "started", "very", "really":
			i++
		}
	}
	w := r.word(i)
	switch {
	case isErrorCode(w):
		return true // "PayLane 503s", "postwell 421"
	case statusWords[w]:
		// "the provider is slow", "the relay refuses"; "the provider
		// fails nothing" says it does not.
		return r.word(i+1) != "nothing" && r.word(i+1) != "no"
	case replyVerbs[w]:
		for n := 0; n < 3 && replyFillers[r.word(i+1)]; n++ {
			i++
		}
		x := r.word(i + 1)
		if isErrorCode(x) || replyFaults[x] {
			return true
		}
		// "takes 6 s", "answers in 4800 ms": a reply measured in seconds.
		if x == "in" {
			x = r.word(i + 2)
			i++
		}
		if i+1 >= len(r.toks) || r.toks[i+1].punct != 0 {
			return false
		}
		if v, suffix, ok := readNumber(r.norm[r.toks[i+1].start:r.toks[i+1].end]); ok && v > 0 {
			u := string(suffix)
			if u == "" {
				u = r.word(i + 2)
			}
			if s, ok := unitWords[u]; ok && s.dim == dimTime && v*s.scale >= 1000 {
				return true
			}
		}
	}
	return false
}

// statusBefore reports whether the words before token i, where a
// component's name starts, say it fails its callers ("a slow provider",
// "503s from PayLane", "a partial outage at the relay").
func (r *reader) statusBefore(i int) bool {
	j := i - 1
	for n := 0; n < 3 && j >= 0 && componentModifiers[r.word(j)]; n++ {
		j--
	}
	w := r.word(j)
	if j >= 0 && r.toks[j].punct == 0 && (w == "slow" || w == "failing" || w == "degraded" || w == "flaky" || w == "unreachable" || w == "struggling") {
		return true
	}
	if w != "from" && w != "at" && w != "on" && w != "by" && w != "during" {
		return false
	}
	j--

	for n := 0; n < 2 && j >= 0 && componentModifiers[r.word(j)]; n++ {
		j--
	}
	if j < 0 || r.toks[j].punct != 0 {
		return false
	}
	w = r.word(j)
	return statusNouns[w] || isErrorCode(w)
}

// componentCleared reports whether the answer says elsewhere that the
// component topic id names is fine, by any of its names ("PayLane is fine
// ... the charges the provider rejects"): what it then does is not a
// failure of its own.
func (r *reader) componentCleared(lx *diagLexicon, id int32) bool {
	for _, o := range r.items {
		if o.kind != lexTopic || !o.neg || !slices.Equal(lx.topicClaims[o.id], lx.topicClaims[id]) {
			continue
		}
		for _, d := range r.items {
			if d.kind == lexNeg && d.id >= 1 && d.cl == o.cl {
				return true
			}
		}
	}
	return false
}

// failsAtPart reports whether the words before token i, where a part's
// name starts, say something fails at it ("exits on boot", "the
// application rejects it at startup", "dies at each start").
func (r *reader) failsAtPart(i int) bool {
	j := i - 1
	for n := 0; n < 2 && (r.word(j) == "the" || r.word(j) == "its" || r.word(j) == "their"); n++ {
		j--
	}
	switch r.word(j) {
	case "at", "on", "during":
	default:
		return false
	}
	j--
	if r.word(j) == "it" || r.word(j) == "them" {
		j--
	}
	return stepVerbs[r.word(j)]
}
