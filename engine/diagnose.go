package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/srezc/srezc/value"
)

// Reading a diagnosis.
//
// A resolution's root cause is a set of asserted causes: each names a
// service and says what is wrong with it; explanations may mention any
// service without blaming it. The reader finds, in order:
//
//   - segments (lines, ";", sentences, list items), each possibly headed by
//     a service ("database: ...");
//   - clauses within a segment, which bound denials ("no evictions") and
//     effects ("..., so web_server requests timed out");
//   - mentions: services, topics (a setting or a part of a service, from
//     the stdlib's config keys and mechanisms), states ("too small",
//     "expired", "down"), phrases that name a mechanism outright, denials,
//     effect connectives, and symptom idioms that mean nothing here;
//   - claims: a state bound to the nearest topic (or service) in its
//     clause, or a mechanism phrase, each attributed to a service: the
//     segment's head, else the nearest service in the clause, else the one
//     the topic belongs to.
//
// A claim asserts the catalogue entries of its service whose topics hold
// its topic and whose states hold its state, and contradicts those whose
// Against holds it. A fault is diagnosed when a claim on its service
// asserts its own entry (or names its mechanism) and nothing on its service
// contradicts it. Scope: every service with an asserted claim must be a
// faulty service, and every entry asserted on it must be one of its faults'.
// Denied and effect claims assert nothing, and a service merely mentioned is
// never blamed. Structured answers (a JSON list of {service, what,
// explanation}) are read cause by cause with the subject fixed and the
// explanation ignored.

// Claim is one thing an answer can assert about a service: that a topic
// (a setting, or a part of the service) is in one of States. A fault's own
// claim says what its cause is; the other claims of a service are what it
// could be blamed for instead, so an answer asserting them is out of scope.
type Claim struct {
	Service int16 `json:"service"`
	// Kind is the fault kind the claim describes, or "" for a plain
	// setting (a config key no fault kind is about).
	Kind      string `json:"kind,omitempty"`
	Mechanism int16  `json:"mechanism"` // -1 for a plain setting
	// Topics are normalised phrases naming what the claim is about; ""
	// stands for the service itself ("the database is down").
	Topics  []string `json:"topics"`
	States  State    `json:"states"`
	Against State    `json:"against,omitempty"`
	// HasBand, Low and High are a numeric setting's healthy band: a value
	// an answer quotes below Low says "low", above High "high", when the
	// answer says anything more than the bare value.
	HasBand bool    `json:"has_band,omitempty"`
	Low     float64 `json:"low,omitempty"`
	High    float64 `json:"high,omitempty"`
	// Unit is the setting's declared unit ("ms", "connections"): a
	// quantity an answer gives in a unit of the same kind ("5 s", "400
	// open connections") is read as a value of it.
	Unit string `json:"unit,omitempty"`
	// Gloss are the stems of the content words of the setting's
	// description (GlossWords): an answer that names the setting by what
	// it does ("the number of processes serving requests") names it.
	Gloss []string `json:"gloss,omitempty"`
}

// DiagnosisVerdict is the reader's account of one answer, for the grader,
// the fairness corpus and `srezc certify`.
type DiagnosisVerdict struct {
	OK bool
	// Matched[i] says whether fault i was diagnosed.
	Matched []bool
	// Blamed lists the services the answer asserts a cause on, in order.
	Blamed []int16
	// Reasons explain a rejection, one line each.
	Reasons []string
	// Read lists, when explaining, what the reader took the answer to
	// assert, one line per assertion.
	Read []string
}

type lexKind uint8

const (
	lexService lexKind = iota
	lexMech
	lexTopic
	lexState
	lexNeg
	lexEffect
	lexClause
	lexIdiom
	lexNumber
)

type lexEntry struct {
	words []string
	kind  lexKind
	id    int32
	comp  bool // a comparative state ("larger than")
	// change is a change verb ("raised"): a state only when it follows a
	// passive auxiliary ("was raised") or precedes its topic.
	change bool
	// correction is a state that says what a value should be ("should
	// be"): it ends an effect ("-> should be /healthz").
	correction bool
	// causative is an effect connective that needs a cause before it
	// ("made", "causing").
	causative bool
	// adverb is an effect connective that, right after a service, is an
	// adverb of its verb instead ("the balancer then gives up").
	adverb bool
}

// diagLexicon is a task's vocabulary indexed by first word, longest
// phrase first.
type diagLexicon struct {
	byFirst map[string][]lexEntry
	// long lists, sorted, the first words of services, topics and
	// mechanism phrases long enough to be matched through a typo.
	long []string
	// longByLen[n] lists, sorted, the words of long that are n bytes long:
	// a word one typo away from w is within one byte of its length.
	longByLen [][]string
	topics    []string
	// topicClaims[topic] lists the claims holding it.
	topicClaims [][]int32
	// serviceClaims[svc] lists the claims about the service itself.
	serviceClaims [][]int32
	// owner[topic] is the only service with a claim on the topic, or -1.
	owner []int16
	// mechOwner[mechanism] is the only service with a claim of it, or -1.
	mechOwner []int16
	// claimUnit[claim] is the unit of the claim's setting, if it has one.
	claimUnit []unitScale
	// gloss maps a description stem to the settings it describes.
	gloss map[string][]glossEntry
	// topicID maps every topic phrase, other names of limits included, to
	// its topic.
	topicID map[string]int32
	// metrics are the identifiers of the system's metrics that name no
	// setting ("cert_days_to_expiry", "retries_per_s"): a reading, never a
	// setting or a part, so their words are not read.
	metrics map[string]bool
}

var comparatives = map[string]bool{
	"lower than": true, "smaller than": true, "less than": true, "fewer than": true, "shorter than": true,
	"below": true, "under": true, "larger than": true, "bigger than": true, "greater than": true,
	"higher than": true, "more than": true, "longer than": true, "exceeds": true, "exceeded": true,
	"exceeding": true, "above": true, "over": true, "twice as many": true, "twice as much": true, "twice as large": true,
	"twice as big": true, "half as many": true, "half as much": true,
}

// changeVerbs before their object say what the answer did to fix it
// ("raised pool_size to 50": the pool was too small); after a passive
// auxiliary, what happened to it ("pool_size was reduced to 10").
var changeVerbs = map[string]bool{
	"reduced": true, "lowered": true, "decreased": true, "shrunk": true, "shrank": true, "cut": true,
	"halved": true, "capped": true, "trimmed": true, "slashed": true, "dialled down": true, "dialed down": true, "raised": true, "increased": true, "bumped": true, "doubled": true,
	"tripled": true, "inflated": true, "scaled up": true, "scaled down": true, "re enabled": true, "reenabled": true,
}

func buildLexicon(t *Task) *diagLexicon {
	lx := &diagLexicon{byFirst: map[string][]lexEntry{}}
	var add func(phrase string, kind lexKind, id int32)
	add = func(phrase string, kind lexKind, id int32) {
		ws := strings.Fields(value.Fold(phrase))
		if len(ws) == 0 {
			return
		}
		if v := withoutApostrophe(ws); v != "" {
			// "doesnt serve", "arent enough": the same phrase typed
			// without its apostrophe.
			add(v, kind, id)
		}
		p := strings.Join(ws, " ")
		lx.byFirst[ws[0]] = append(lx.byFirst[ws[0]], lexEntry{words: ws, kind: kind, id: id,
			comp: kind == lexState && (comparatives[p] || changeVerbs[p]), change: kind == lexState && changeVerbs[p],
			correction: kind == lexState && corrections[p], causative: kind == lexEffect && causatives[p], adverb: kind == lexEffect && adverbEffects[p]})
		if kind == lexState && changeVerbs[p] {
			for _, aux := range [...]string{"was", "were", "been", "got", "is", "are", "has been", "had been"} {
				aw := append(strings.Fields(aux), ws...)
				lx.byFirst[aw[0]] = append(lx.byFirst[aw[0]], lexEntry{words: aw, kind: kind, id: id})
			}
		}
	}
	for i, c := range t.Components {
		for _, p := range c.Phrases {
			add(p, lexService, int32(i))
		}
	}
	topicID := map[string]int32{}
	lx.serviceClaims = make([][]int32, len(t.Services))
	lx.claimUnit = make([]unitScale, len(t.Claims))
	for ci, c := range t.Claims {
		if c.Unit != "" {
			lx.claimUnit[ci] = unitWords[value.Fold(c.Unit)]
		}
		for _, tp := range c.Topics {
			if tp == "" {
				if int(c.Service) < len(lx.serviceClaims) {
					lx.serviceClaims[c.Service] = append(lx.serviceClaims[c.Service], int32(ci))
				}
				continue
			}
			id, ok := topicID[tp]
			if !ok {
				id = int32(len(lx.topics))
				topicID[tp] = id
				lx.topics = append(lx.topics, tp)
				lx.topicClaims = append(lx.topicClaims, nil)
				lx.owner = append(lx.owner, c.Service)
				add(tp, lexTopic, id)
			}
			lx.topicClaims[id] = append(lx.topicClaims[id], int32(ci))
			if lx.owner[id] != c.Service {
				lx.owner[id] = -1
			}
		}
	}
	// "client ceiling", "request cap": a limit by any of its ordinary
	// names, unless that name is another setting's.
	for id, tp := range lx.topics {
		ws := strings.Fields(tp)
		if len(ws) < 2 || !slices.Contains(limitNouns, ws[len(ws)-1]) {
			continue
		}
		for _, n := range limitNouns {
			v := strings.Join(append(ws[:len(ws)-1:len(ws)-1], n), " ")
			if _, taken := topicID[v]; !taken {
				topicID[v] = int32(id)
				add(v, lexTopic, int32(id))
			}
		}
	}
	lx.topicID = topicID
	lx.metrics = metricIdentifiers(t)
	lx.buildGloss(t)
	lx.mechOwner = make([]int16, len(t.Mechanisms))
	for i := range lx.mechOwner {
		lx.mechOwner[i] = -2
	}
	for _, c := range t.Claims {
		if c.Mechanism >= 0 {
			switch lx.mechOwner[c.Mechanism] {
			case -2:
				lx.mechOwner[c.Mechanism] = c.Service
			case c.Service:
			default:
				lx.mechOwner[c.Mechanism] = -1
			}
		}
	}
	for i, m := range t.Mechanisms {
		if lx.mechOwner[i] == -2 {
			lx.mechOwner[i] = -1
		}
		for _, p := range m.Phrases {
			add(p, lexMech, int32(i))
		}
	}
	for _, s := range statePhrases {
		add(s.phrase, lexState, int32(s.state))
	}
	for _, p := range negations {
		id := int32(0)
		if exculpations[p] {
			id = 2
		}
		add(p, lexNeg, id)
	}
	for _, p := range verdictDenials {
		add(p, lexNeg, 1)
	}
	for _, p := range pluralVerdicts {
		add(p, lexNeg, 3)
	}
	for _, p := range effects {
		add(p, lexEffect, 0)
	}
	for _, p := range clauseWords {
		add(p, lexClause, 0)
	}
	for _, p := range symptomIdioms {
		add(p, lexIdiom, 0)
	}
	for k, es := range lx.byFirst {
		if len(k) >= minTypoLen {
			for _, e := range es {
				if e.kind <= lexTopic {
					lx.long = append(lx.long, k)
					break
				}
			}
		}
		// Longest first; among equals, the earlier kind wins: services,
		// then mechanism phrases (which say a topic and its state at
		// once), topics, states, and idioms last.
		sort.SliceStable(es, func(a, b int) bool {
			if len(es[a].words) != len(es[b].words) {
				return len(es[a].words) > len(es[b].words)
			}
			return es[a].kind < es[b].kind
		})
		lx.byFirst[k] = es
	}
	lx.indexLong()
	return lx
}

// indexLong sorts long and buckets it by length.
func (lx *diagLexicon) indexLong() {
	sort.Strings(lx.long)
	lx.longByLen = nil
	for _, k := range lx.long {
		for len(lx.longByLen) <= len(k) {
			lx.longByLen = append(lx.longByLen, nil)
		}
		lx.longByLen[len(k)] = append(lx.longByLen[len(k)], k)
	}
}

// withoutApostrophe joins a contraction the tokenizer split ("doesn t")
// into the form typed without an apostrophe ("doesnt"); "" when the
// phrase has none. "can t" is left alone: "cant" is a word.
func withoutApostrophe(ws []string) string {
	joined := false
	out := make([]string, 0, len(ws))
	for i := 0; i < len(ws); i++ {
		if i+1 < len(ws) && ws[i+1] == "t" && strings.HasSuffix(ws[i], "n") && ws[i] != "can" {
			out = append(out, ws[i]+"t")
			i++
			joined = true
			continue
		}
		out = append(out, ws[i])
	}
	if !joined {
		return ""
	}
	return strings.Join(out, " ")
}

// minTypoLen is the shortest word matched through one typo: shorter words
// have too many neighbours ("pool" and "poll").
const minTypoLen = 7

// typoOf finds the long lexicon word w is one typo away from (a letter
// added, dropped, changed, or two swapped), or "".
func (lx *diagLexicon) typoOf(w []byte) string {
	if len(w) < minTypoLen-1 {
		return ""
	}
	// The first match in long's sorted order: the smallest of each
	// length's first match.
	best := ""
	for n := len(w) - 1; n <= len(w)+1; n++ {
		if n >= len(lx.longByLen) {
			break
		}
		for _, k := range lx.longByLen[n] {
			if best != "" && k >= best {
				break
			}
			if oneTypo(w, k) {
				best = k
				break
			}
		}
	}
	return best
}

// oneTypo reports whether a and b differ by exactly one edit or one
// transposition of neighbours.
func oneTypo(a []byte, b string) bool {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	if i == len(a) && i == len(b) {
		return false
	}
	switch {
	case len(a) == len(b):
		if string(a[i+1:]) == b[i+1:] {
			return true // a changed letter
		}
		return i+1 < len(a) && a[i] == b[i+1] && a[i+1] == b[i] && string(a[i+2:]) == b[i+2:]
	case len(a)+1 == len(b):
		return string(a[i:]) == b[i+1:] // a dropped letter
	case len(a) == len(b)+1:
		return string(a[i+1:]) == b[i:] // an added letter
	}
	return false
}

// token is a word or a mark of the answer, after folding: a word is
// norm[start:end].
type token struct {
	start, end int32
	punct      byte // 0 for a word; ',' for a clause break, '.' for a segment break, ':' for a head mark
	ident      bool // part of an identifier written with '_' (max_connections)
	// field is a name written right before '=' ("active=6/6"): a log
	// field's name, not a word of the sentence.
	field bool
	// dash marks a part of a compound written with '-' ("app-role");
	// dashLast its last part.
	dash, dashLast bool
	// metric marks a part of a metric's name ("cert_days_to_expiry"): a
	// reading, whose words name no setting or part and say no state.
	metric bool
}

// reader holds the buffers one reading reuses, so an episode's grader
// allocates nothing once they are warm.
type reader struct {
	norm      []byte
	toks      []token
	items     []item
	heads     []int16 // per segment: its head service, or -1
	asserted  []assertion
	matched   []bool
	contra    []bool
	blamedSvc []bool
	blamed    []int16
	// lastArrow is the clause after the answer's last "->", or -1.
	lastArrow int
	wasEff    []bool
	// tokInfo[i] is where token i sits (gloss.go).
	tokInfo    []tokInfo
	glossScore []uint8
	glossFirst []int32
	glossMark  []int32
	// glossTouched lists the settings a clause's words scored.
	glossTouched []int32
	glossNamed   []bool
	phrase       []byte
	glossStems   []string
	stems        map[string]string
	// metrics is the lexicon's: identifiers read as one opaque word.
	metrics map[string]bool
	// droppedVersion says the last word flushed was a version, dropped:
	// an arrow after it ("v4.3.0 -> v4.4.0") goes with it.
	droppedVersion bool
}

// tokInfo is a token's place in the answer as scan found it: its segment,
// clause and word index, whether it is denied or an effect, and whether it
// is a mark, a number or part of a name (of a service, setting, part or
// mechanism).
type tokInfo struct {
	seg, cl, word int32
	neg, eff      bool
	covered       bool
}

// tokenize folds text into words and marks. Identifiers joined by '_'
// split into words (pool_size reads as "pool size"); host names and paths
// (cache-old.internal, /healthz, web-2) stay single opaque words, so their
// parts are never read as services.
func (r *reader) tokenize(text string) {
	r.norm, r.toks = r.norm[:0], r.toks[:0]
	r.droppedVersion = false
	wStart := -1 // start of the current word in norm
	opaque, hasDash := false, false
	quoted := false // inside "...": a quoted log line is one clause of its segment
	listItem := 0   // the number of the last list item seen ("1)")
	var prev rune
	for i := 0; i < len(text); {
		c, n := rune(text[i]), 1
		if c >= utf8.RuneSelf {
			c, n = utf8.DecodeRuneInString(text[i:])
		}
		next := rune(0)
		if i+n < len(text) {
			if next = rune(text[i+n]); next >= utf8.RuneSelf {
				next, _ = utf8.DecodeRuneInString(text[i+n:])
			}
		}
		inWord := wStart >= 0
		if !inWord && c >= '0' && c <= '9' && (prev == 0 || prev == ' ' || prev == '(' || prev == '\n') {
			// "1) db autovac off 2) mq dedup off", "(2) ...": a list
			// item's number starts a segment; only 1 and then each next
			// number do, so "max_connections (20)" stays a value.
			j, n := i, 0
			for j < len(text) && j-i < 2 && text[j] >= '0' && text[j] <= '9' {
				n = n*10 + int(text[j]-'0')
				j++
			}
			if j < len(text) && text[j] == ')' && (j+1 == len(text) || text[j+1] == ' ') && (n == 1 || n == listItem+1) {
				listItem = n
				r.mark('.')
				prev = ')'
				i = j + 1
				continue
			}
		}
		if c < utf8.RuneSelf && ('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
			// The common case, without the Unicode tables.
			if !inWord {
				wStart, opaque, hasDash = len(r.norm), false, false
			}
			r.norm = append(r.norm, byte(value.FoldRune(c)))
			prev = c
			i++
			continue
		}
		switch {
		case isWordRune(c):
			if !inWord {
				wStart, opaque, hasDash = len(r.norm), false, false
			}
			r.norm = utf8.AppendRune(r.norm, value.FoldRune(c))
			if unicode.IsDigit(c) && hasDash {
				opaque = true // web-2, db-01
			}
		case c == '_' && inWord && isWordRune(next):
			r.norm = append(r.norm, '_')
		case c == '%' && inWord && unicode.IsDigit(prev):
			r.norm = append(r.norm, '%') // 95%: a quantity in percent
		case c == '-' && inWord && isWordRune(next):
			r.norm = append(r.norm, '-')
			hasDash = true
		case c == '.' && inWord && isWordRune(next) && bytes.IndexByte(r.norm[wStart:], '_') >= 0 && !unicode.IsDigit(next):
			// web_server.cache_host: a path of identifiers reads as words.
			r.norm = append(r.norm, '_')
		case c == '.' && inWord && isWordRune(next):
			// A host name, a version or a decimal stays one word.
			r.norm = append(r.norm, '.')
			if !unicode.IsDigit(prev) || !unicode.IsDigit(next) {
				opaque = true
			}
		case c == ':' && inWord && unicode.IsDigit(prev) && unicode.IsDigit(next):
			// A clock time (16:05) is one opaque word, never two values.
			r.norm = append(r.norm, ':')
			opaque = true
		case c == '/' && !inWord && isWordRune(next):
			// A path (/healthz) is one opaque word; "expired/rotated"
			// is two.
			wStart, opaque, hasDash = len(r.norm), true, false
			r.norm = append(r.norm, '/')
		case c == '/' && inWord && opaque:
			r.norm = append(r.norm, '/')
		default:
			r.flush(wStart, opaque)
			if c == '=' && inWord && len(r.toks) > 0 {
				r.toks[len(r.toks)-1].field = true
			}
			wStart = -1
			switch {
			case c == '-' && prev == ' ' && next == ' ':
				r.mark(',') // a dash between clauses
			case c == '+' && prev == ' ' && next == ' ':
				r.mark('.') // "pg autovac off + mq dedup off": causes listed
			case c == '-' && (prev == 0 || prev == '\n'):
				r.mark('.') // a list item
			case c == '"' || c == '“' || c == '”':
				quoted = !quoted
				r.mark(',')
			case quoted && (c == '.' || c == ';' || c == ':' || c == '!' || c == '?'):
				r.mark(',')
			case c == '.' || c == ';' || c == '\n' || c == '!' || c == '?' || c == '•':
				r.mark('.')
			case c == ':' && !(unicode.IsDigit(prev) && unicode.IsDigit(next)):
				r.mark(':')
			case (c == '<' || c == '>') && prev == ' ' && next == ' ':
				// "200rps < 420rps": a comparison, read as the words.
				w := "below"
				if c == '>' {
					w = "above"
				}
				start := len(r.norm)
				r.norm = append(r.norm, w...)
				r.flush(start, false)
			case (c == '→' || c == '>' && prev == '-') && r.droppedVersion:
				// "v4.3.0 -> v4.4.0": an upgrade, dropped with its versions.
			case (c == '→' || c == '>' && prev == '-') && r.transitionAt(text[i+n:]):
				// "max_connections 300 -> 20", "true → false": a change
				// history's old and new value, read as "300 to 20".
				start := len(r.norm)
				r.norm = append(r.norm, "to"...)
				r.flush(start, false)
			case c == '→' || c == '>' && prev == '-' || c == '>' && prev == '=':
				r.mark('>') // "index disabled -> seq scans": what follows is an effect
			case c == ',' || c == '—' || c == '–':
				// Parentheses hold an aside about the same thing
				// ("cache_host (decommissioned)"), so they do not end a
				// clause.
				r.mark(',')
			case c == '\'' || c == '’':
				// Possessives vanish ("database's" is "database");
				// contractions split ("isn't" is "isn t", as the phrases
				// are written).
				if (next == 's' || next == 'S') && i+n+1 <= len(text) {
					after, _ := utf8.DecodeRuneInString(text[i+n+1:])
					if i+n+1 >= len(text) || !isWordRune(after) {
						i += n + 1
						prev = 's'
						continue
					}
				}
			}
		}
		prev = c
		i += n
	}
	r.flush(wStart, opaque)
}

func isWordRune(c rune) bool { return unicode.IsLetter(c) || unicode.IsDigit(c) }

// transitionAt reports whether an arrow with rest after it stands between
// two values: the last word is a number or a truth value, and so is the
// next.
func (r *reader) transitionAt(rest string) bool {
	n := len(r.toks)
	if n == 0 || r.toks[n-1].punct != 0 {
		return false
	}
	if w := r.norm[r.toks[n-1].start:r.toks[n-1].end]; !(w[0] >= '0' && w[0] <= '9' || slices.Contains(truthValues, string(w))) {
		return false
	}
	rest = strings.TrimLeft(rest, " ")
	end := strings.IndexFunc(rest, func(c rune) bool { return !isWordRune(c) && c != '.' })
	if end < 0 {
		end = len(rest)
	}
	next := strings.TrimRight(rest[:end], ".")
	return next != "" && (next[0] >= '0' && next[0] <= '9' || slices.ContainsFunc(truthValues, func(v string) bool { return strings.EqualFold(next, v) }))
}

// truthValues are the values a flag is shown with.
var truthValues = []string{"true", "false", "on", "off", "enabled", "disabled"}

// flush ends the word started at norm[start:], splitting an identifier at
// '_' and '-' unless it is opaque.
func (r *reader) flush(start int, opaque bool) {
	if start < 0 || start >= len(r.norm) {
		return
	}
	end := len(r.norm)
	if isVersion(r.norm[start:end]) {
		// "release v4.4.0 fails", "stale v17 secret": a version is a
		// modifier of the noun before it, read as if absent.
		r.norm = r.norm[:start]
		r.droppedVersion = true
		return
	}
	r.droppedVersion = false
	ident := bytes.IndexByte(r.norm[start:end], '_') >= 0
	if opaque {
		r.toks = append(r.toks, token{start: int32(start), end: int32(end)})
		return
	}
	metric := ident && r.metrics[string(r.norm[start:end])]
	s := start
	dashed := !ident && bytes.IndexByte(r.norm[start:end], '-') >= 0
	for i := start; i <= end; i++ {
		if i == end || r.norm[i] == '_' || r.norm[i] == '-' {
			if i > s {
				// An identifier's parts are its name's (max_conn).
				if long, ok := shorthand[string(r.norm[s:i])]; ok && !ident {
					r.expand(long)
				} else {
					r.toks = append(r.toks, token{start: int32(s), end: int32(i), ident: ident, metric: metric, dash: dashed, dashLast: dashed && i == end})
				}
			}
			s = i + 1
		}
	}
}

// expand appends the words of long, a shorthand's full form, as tokens:
// their text goes after the answer's own in norm, which tokens index.
func (r *reader) expand(long []string) {
	for _, w := range long {
		at := len(r.norm)
		r.norm = append(r.norm, w...)
		r.toks = append(r.toks, token{start: int32(at), end: int32(len(r.norm))})
	}
}

func (r *reader) mark(p byte) {
	if n := len(r.toks); n > 0 && r.toks[n-1].punct != 0 {
		if p == '.' || (p == ':' || p == '>') && r.toks[n-1].punct == ',' {
			r.toks[n-1].punct = p
		}
		return
	}
	r.toks = append(r.toks, token{punct: p})
}

// item is one lexicon match in the answer.
type item struct {
	kind   lexKind
	id     int32
	comp   bool
	change bool
	pos    int  // word index of the first word
	end    int  // word index of the last word
	prep   bool // a service after "on", "in", "at", "of" or "for" ("dedup disabled on the queue")
	// callee is a service named as the one called ("upstream=database"),
	// never the subject of what its caller logged.
	callee bool
	seg    int
	cl     int // clause index
	neg    bool
	eff    bool
	ident  bool    // written as an identifier (max_connections)
	num    float64 // a lexNumber's value
	// A lexNumber's unit: its dimension, its value in the dimension's base
	// unit, and whether it is said as a limit ("only 20 connections").
	dim   dimension
	base  float64
	limit bool
	tok   int32 // the token it starts at
	// unitTok is the token of a lexNumber's unit word ("6 connections"),
	// or -1.
	unitTok int32
}

// DiagnoseText reads an answer against the task and explains the verdict;
// the episode's grader uses the same reader without the explanations.
func (t *Task) DiagnoseText(text string) DiagnosisVerdict {
	var r reader
	return r.read(t, preparedFor(t).lexiconOf(t), text, true)
}

// assertion is one claim attributed to a service: a catalogue entry
// asserted or contradicted, or a mechanism named.
type assertion struct {
	svc         int16
	claim       int32 // -1 when mech
	mech        int32 // -1 unless a mechanism phrase
	contradicts bool
	head        bool // a stated cause: blames svc, asserts nothing
}

type structuredCause struct {
	Service     string `json:"service"`
	What        string `json:"what"`
	Explanation string `json:"explanation"`
}

// structuredCauses reads the tool-calling form: a JSON list of causes, or
// an object holding one under "causes".
func structuredCauses(text string) ([]structuredCause, bool) {
	s := strings.TrimSpace(text)
	if len(s) < 2 || (s[0] != '[' && s[0] != '{') {
		return nil, false
	}
	var list []structuredCause
	if s[0] == '[' {
		if json.Unmarshal([]byte(s), &list) != nil {
			return nil, false
		}
	} else {
		var obj struct {
			Causes []structuredCause `json:"causes"`
		}
		if json.Unmarshal([]byte(s), &obj) != nil || obj.Causes == nil {
			return nil, false
		}
		list = obj.Causes
	}
	for _, c := range list {
		if c.Service == "" {
			return nil, false
		}
	}
	return list, true
}

// read grades text; explain fills the verdict's reasons (and allocates).
// The verdict's slices alias the reader's buffers.
func (r *reader) read(t *Task, lx *diagLexicon, text string, explain bool) DiagnosisVerdict {
	r.asserted = r.asserted[:0]
	var v DiagnosisVerdict
	r.matched = resize(r.matched, len(t.Faults))
	r.contra = resize(r.contra, len(t.Faults))
	r.blamedSvc = resize(r.blamedSvc, len(t.Services))
	r.blamed = r.blamed[:0]
	v.Matched = r.matched
	if len(t.Faults) == 0 {
		v.Reasons = append(v.Reasons, "the task has no fault to diagnose")
		return v
	}
	unknown := false
	if causes, ok := structuredCauses(text); ok {
		for _, c := range causes {
			svc := r.serviceByName(t, lx, c.Service)
			if svc < 0 {
				unknown = true
				if explain {
					v.Reasons = append(v.Reasons, "a cause names no service of the system: "+strings.TrimSpace(c.Service))
				}
				continue
			}
			r.readClaims(t, lx, c.What, svc)
		}
	} else {
		r.readClaims(t, lx, text, -1)
	}
	v = r.decide(t, v, explain)
	if explain {
		for _, a := range r.asserted {
			svc := t.Services[a.svc].Name
			switch {
			case a.head:
				v.Read = append(v.Read, svc+": stated as a cause")
			case a.mech >= 0:
				v.Read = append(v.Read, svc+": "+t.Mechanisms[a.mech].Name+" (named)")
			default:
				c := &t.Claims[a.claim]
				what := c.Kind
				if what == "" {
					what = "setting " + c.Topics[0]
				}
				verb := "asserts "
				if a.contradicts {
					verb = "contradicts "
				}
				v.Read = append(v.Read, svc+": "+verb+what)
			}
		}
	}
	if unknown {
		v.OK = false
	}
	return v
}

func resize(b []bool, n int) []bool {
	if cap(b) < n {
		b = make([]bool, n)
	}
	b = b[:n]
	clear(b)
	return b
}

func (r *reader) serviceByName(t *Task, lx *diagLexicon, name string) int16 {
	if i := t.ServiceIndex(strings.TrimSpace(name)); i >= 0 {
		return int16(i)
	}
	r.metrics = lx.metrics
	r.tokenize(name)
	r.scan(lx)
	for _, it := range r.items {
		if it.kind == lexService {
			return int16(it.id)
		}
	}
	return -1
}

// scan matches the lexicon over the tokens, longest phrase first, and
// marks each match's segment, clause, denial and effect.
func (r *reader) scan(lx *diagLexicon) {
	r.items = r.items[:0]
	r.tokInfo = r.tokInfo[:0]
	r.lastArrow = -1
	seg, cl := 0, 0
	neg, eff := false, false
	wordIdx := 0
	toks := r.toks
	for i := 0; i < len(toks); {
		tk := toks[i]
		if tk.punct != 0 {
			if tk.punct == '.' {
				seg++
			}
			if tk.punct == ':' {
				r.items = append(r.items, item{kind: lexClause, id: 1, pos: wordIdx, end: wordIdx - 1, seg: seg, cl: cl})
			}
			cl++
			neg, eff = false, tk.punct == '>'
			if tk.punct == '>' {
				r.lastArrow = cl
			}
			r.tokInfo = append(r.tokInfo, tokInfo{seg: int32(seg), cl: int32(cl), word: int32(wordIdx), neg: neg, eff: eff, covered: true})
			i++
			continue
		}
		entries := lx.byFirst[string(r.norm[tk.start:tk.end])]
		from := 0
		if entries == nil && tk.end-tk.start >= minTypoLen-1 {
			// "certiifcate", "repilca": one typo in a long word.
			if k := lx.typoOf(r.norm[tk.start:tk.end]); k != "" {
				entries, from = lx.byFirst[k], 1
			}
		}
		best, span := -1, 0
		if w := r.norm[tk.start]; w >= '0' && w <= '9' && entries != nil {
			// "500 ms" is a quantity, not the status code "500".
			if _, ok := unitWords[r.word(i+1)]; ok {
				entries = nil
			}
		}
		for k := range entries {
			if tk.field && entries[k].kind > lexTopic && len(entries[k].words) == 1 {
				continue // "active=6/6" says no state
			}
			if tk.metric && (entries[k].kind == lexTopic || entries[k].kind == lexState) {
				continue
			}
			if entries[k].kind == lexService && tk.field && len(entries[k].words) == 1 {
				continue // "app=jobs-worker": a log field's name, not the web tier
			}
			if entries[k].kind == lexService && !r.headOfCompound(lx, i+len(entries[k].words)-1) {
				continue // "the db app-role password": "app" modifies "role"
			}
			if (from == 0 || entries[k].kind <= lexTopic) && r.matchWordsFrom(i, entries[k].words, from, entries[k].kind == lexState || entries[k].kind == lexTopic) {
				best = k
				break
			}
			// "DNS for db.internal failing", "DNS resolution for
			// db.internal failing": a host name the phrase is about may
			// stand between two of its words.
			if ws := entries[k].words; entries[k].kind == lexMech && from == 0 && len(ws) >= 2 {
				found := false
				for s := 1; s < len(ws) && !found; s++ {
					if !r.matchWords(i, ws[:s]) {
						break
					}
					if gap := r.hostGap(i + s); gap > 0 && r.matchWords(i+s+gap, ws[s:]) {
						best, span, found = k, gap, true
					}
				}
				if found {
					break
				}
			}
		}
		if best < 0 {
			w := r.norm[tk.start:tk.end]
			x, suffix, ok := readNumber(w)
			if !ok && len(w) >= 3 && len(w) <= 8 && w[0] >= 'e' && w[0] <= 't' {
				x, ok = numberWords[string(w)]
				if _, unit := unitWords[r.word(i+1)]; !ok && string(w) == "one" && (scarce[r.word(i-1)] || unit) {
					x, ok = 1, true // "only one consumer" counts
				}
			}
			if ok {
				it := item{kind: lexNumber, num: x, pos: wordIdx, end: wordIdx, seg: seg, cl: cl, neg: neg, eff: eff, tok: int32(i), unitTok: -1}
				r.quantity(lx, &it, i, suffix)
				r.items = append(r.items, it)
			}
			r.tokInfo = append(r.tokInfo, tokInfo{seg: int32(seg), cl: int32(cl), word: int32(wordIdx), neg: neg, eff: eff, covered: ok})
			i++
			wordIdx++
			continue
		}
		e := &entries[best]
		n := len(e.words) + span
		it := item{kind: e.kind, id: e.id, comp: e.comp, change: e.change, pos: wordIdx, end: wordIdx + n - 1, seg: seg, cl: cl, ident: tk.ident, tok: int32(i)}
		if e.kind == lexService {
			it.prep = r.afterPreposition(i)
			it.callee = i > 0 && calleeMarks[r.word(i-1)]
		}
		if e.correction {
			eff = false
		}
		switch e.kind {
		case lexNeg:
			neg = true
		case lexEffect:
			// "the balancer then gives up after ...": an adverb between
			// a subject and its verb tells what the subject did next.
			adverb := e.adverb && len(r.items) > 0 && r.items[len(r.items)-1].kind == lexService && r.items[len(r.items)-1].end == wordIdx-1
			// "Then at 15:10 the pool was cut": opening a sentence, it
			// tells what happened next, not what an earlier cause did.
			adverb = adverb || e.adverb && (i == 0 || toks[i-1].punct == '.')
			// "Since then the cache refuses its config", "from then on":
			// after a preposition of time it is a time, not an effect.
			adverb = adverb || e.adverb && timePrepositions[r.word(i-1)]
			eff = !adverb && (!e.causative || r.causeBefore(seg))
		case lexClause:
			cl++
			neg, eff = false, false
			it.cl = cl
		}
		it.neg, it.eff = neg, eff
		if e.kind != lexEffect {
			r.items = append(r.items, it)
		}
		named := e.kind == lexService || e.kind == lexTopic || e.kind == lexMech
		for j := 0; j < n; j++ {
			r.tokInfo = append(r.tokInfo, tokInfo{seg: int32(seg), cl: int32(it.cl), word: int32(wordIdx + j), neg: neg, eff: eff, covered: named})
		}
		i += n
		wordIdx += n
	}
	// "evictions 0", "0 evictions": a count of zero denies what it counts.
	for k := range r.items {
		if r.items[k].kind != lexNumber || r.items[k].num != 0 {
			continue
		}
		for _, j := range [...]int{k - 1, k + 1} {
			if j >= 0 && j < len(r.items) && r.items[j].cl == r.items[k].cl && abs(r.items[j].pos-r.items[k].pos) <= 1 &&
				(r.items[j].kind == lexMech || r.items[j].kind == lexTopic) {
				r.items[j].neg = true
			}
		}
	}
	// "Not the cause: load_balancer - ...", "Ruled out: the cache":
	// a denial heading its segment denies all of it.
	for k, d := range r.items {
		if d.kind == lexNeg && (k == 0 || r.items[k-1].seg != d.seg) && k+1 < len(r.items) && r.items[k+1].kind == lexClause && r.items[k+1].id == 1 && r.items[k+1].pos == d.end+1 && r.items[k+1].seg == d.seg {
			for j := k + 1; j < len(r.items) && r.items[j].seg == d.seg; j++ {
				r.items[j].neg = true
			}
		}
	}
	for _, d := range r.items {
		if d.kind == lexNeg && d.id >= 1 {
			// "the keep-alive is short but not the issue", "work_mem is
			// high, within range": a verdict alone in its clause judges
			// the clause before it in its sentence.
			// "..., but neither explains the scans": a plural verdict
			// judges every clause before it in its sentence.
			spill := d.cl > 0 && !r.clauseHasSubject(d.cl)
			for k := range r.items {
				if c := r.items[k].cl; c == d.cl || spill && (c == d.cl-1 || d.id == 3 && c < d.cl) && r.items[k].seg == d.seg {
					r.items[k].neg = true
				}
			}
		}
	}
}

// opensCause reports whether item k is the first word of a stated cause:
// of a structured cause's text, or right after a segment head's ':'.
func (r *reader) opensCause(k int, fixed int16) bool {
	it := r.items[k]
	if fixed >= 0 {
		return it.pos == 0
	}
	return k > 0 && r.items[k-1].kind == lexClause && r.items[k-1].id == 1 && r.items[k-1].pos == it.pos
}

// clauseHasSubject reports whether clause cl names something a verdict
// could be about: a service, a setting or part, a mechanism or a state.
func (r *reader) clauseHasSubject(cl int) bool {
	for _, o := range r.items {
		if o.cl == cl && (o.kind == lexService || o.kind == lexTopic || o.kind == lexMech || o.kind == lexState) {
			return true
		}
	}
	return false
}

// readNumber reads the number a word starts with ("40ms", "2.5", "300",
// "95%") and the unit after it; "web-2" and host names are not numbers.
func readNumber(w []byte) (float64, []byte, bool) {
	if len(w) == 0 || w[0] < '0' || w[0] > '9' {
		return 0, nil, false
	}
	x, frac, seenDot := 0.0, 0.1, false
	for i, c := range w {
		switch {
		case c >= '0' && c <= '9' && !seenDot:
			x = x*10 + float64(c-'0')
		case c >= '0' && c <= '9':
			x += frac * float64(c-'0')
			frac /= 10
		case c == '.' && !seenDot:
			seenDot = true
		case c >= 'a' && c <= 'z' || c == '%':
			return x, w[i:], true // a unit: 40ms, 30s, 2gb, 95%
		default:
			return 0, nil, false
		}
	}
	return x, nil, true
}

// word is token i's text, or "" for a mark or past the end.
func (r *reader) word(i int) string {
	if i < 0 || i >= len(r.toks) || r.toks[i].punct != 0 {
		return ""
	}
	return string(r.norm[r.toks[i].start:r.toks[i].end])
}

// quantity finds the unit of the number at token i ("200 ms", "40ms",
// "400 open connections") and whether it is said as a limit.
func (r *reader) quantity(lx *diagLexicon, it *item, i int, suffix []byte) {
	u, ok := unitWords[string(suffix)]
	next := i + 1
	if len(suffix) == 0 {
		if w := r.word(i + 1); (w == "req" || w == "requests") && (r.word(i+2) == "s" || r.word(i+2) == "sec") {
			u, ok, next = unitWords["rps"], true, i+3 // 420 req/s
			it.unitTok = int32(i + 1)
		} else if w == "of" && i+2 < len(r.toks) {
			// "admitted 200 of 420 req/s": both in the unit given last.
			if x, suf, isNum := readNumber([]byte(r.word(i + 2))); isNum && x > 0 {
				var whole item
				r.quantity(lx, &whole, i+2, suf)
				if whole.dim != dimNone {
					u, ok, next = unitScale{whole.dim, whole.base / x}, true, i+1
				}
			}
		} else if u, ok = unitWords[w]; ok {
			next = i + 2
			it.unitTok = int32(i + 1)
		} else if w != "" && onlyIdioms(lx.byFirst[w]) {
			// One describing word between: "400 open connections", "a few
			// hundred client connections".
			if u, ok = unitWords[r.word(i+2)]; ok {
				next = i + 3
				it.unitTok = int32(i + 2)
			}
		}
	}
	if !ok {
		return
	}
	if u.dim != dimPercent && r.word(next) == "of" && next != i+1 {
		return // "5 minutes of load": a duration, not a setting
	}
	it.dim, it.base = u.dim, it.num*u.scale
	if u.dim == dimPercent && r.word(next) == "of" && shareWords[r.word(next+1)] {
		it.limit = true // "95% of the traffic": a backend's share
		return
	}
	// Three words back, articles not counted ("only hold a few hundred");
	// an identifier's words (max_workers) are a name, not a limit.
	for j, n := i-1, 0; j >= 0 && n < 3 && r.toks[j].punct == 0; j-- {
		w := r.word(j)
		if limitWords[w] && !r.toks[j].ident {
			it.limit = true
			return
		}
		if w != "a" && w != "an" && w != "the" {
			n++
		}
	}
}

// sameDimension reports whether two units measure the same thing; workers
// and consumers both count processes ("only three workers pull jobs off
// the queue" are its consumers).
func sameDimension(a, b dimension) bool {
	if a == dimConsumers {
		a = dimWorkers
	}
	if b == dimConsumers {
		b = dimWorkers
	}
	return a == b
}

// onlyIdioms reports whether a word's lexicon entries, if any, are all
// symptom idioms: such a word may stand between a number and its unit.
func onlyIdioms(es []lexEntry) bool {
	for _, e := range es {
		if e.kind != lexIdiom {
			return false
		}
	}
	return true
}

// causeBefore reports whether segment seg already names a service, a
// setting, a state or a mechanism: a causative ("made") leads from it.
func (r *reader) causeBefore(seg int) bool {
	for _, o := range r.items {
		if o.seg == seg && (o.kind == lexService || o.kind == lexTopic || o.kind == lexState || o.kind == lexMech) {
			return true
		}
	}
	return false
}

// afterPreposition reports whether the word at token i follows "on",
// "in", "at", "of" or "for", perhaps with "the" between.
func (r *reader) afterPreposition(i int) bool {
	for j, seen := i-1, 0; j >= 0 && seen < 2; j, seen = j-1, seen+1 {
		tk := r.toks[j]
		if tk.punct != 0 {
			return false
		}
		switch string(r.norm[tk.start:tk.end]) {
		case "on", "in", "at", "of", "for", "inside", "within":
			return true
		case "the", "its", "our":
			continue
		}
		return false
	}
	return false
}

func (r *reader) matchWords(i int, words []string) bool { return r.matchWordsFrom(i, words, 0, false) }

// matchWordsFrom matches words at token i, trusting the first from of them;
// typo lets one long word after the first be one typo away.
func (r *reader) matchWordsFrom(i int, words []string, from int, typo bool) bool {
	if i+len(words) > len(r.toks) {
		return false
	}
	typoUsed := !typo
	for k := from; k < len(words); k++ {
		w := words[k]
		tk := r.toks[i+k]
		if tk.punct != 0 {
			return false
		}
		if got := r.norm[tk.start:tk.end]; string(got) != w {
			// "before the worker finshes it": one typo in a long word
			// after the first, which anchors the phrase.
			if typoUsed || k == 0 || len(w) < minTypoLen-1 || !oneTypo(got, w) {
				return false
			}
			typoUsed = true
		}
	}
	return true
}

const (
	bindBefore = 7 // words a state may follow its topic by
	bindAfter  = 4 // words a state may precede its topic by
)

// readClaims reads text into assertions; fixed >= 0 fixes the subject (a
// structured cause).
func (r *reader) readClaims(t *Task, lx *diagLexicon, text string, fixed int16) {
	r.metrics = lx.metrics
	r.tokenize(text)
	r.scan(lx)
	items := r.items
	nseg := 1
	if n := len(items); n > 0 {
		nseg = items[n-1].seg + 1
	}
	r.heads = r.heads[:0]
	for i := 0; i < nseg; i++ {
		r.heads = append(r.heads, -1)
	}
	// Segment heads: a service mention that opens its segment and is
	// followed by ':' before any other item ("database: ...", "1. DB:").
	for k, it := range items {
		if it.kind != lexService || it.neg || r.heads[it.seg] >= 0 {
			continue
		}
		first := true
		for j := k - 1; j >= 0 && items[j].seg == it.seg; j-- {
			if items[j].kind != lexIdiom {
				first = false
			}
		}
		// The ':' follows the service closely: "Load on the database is
		// coming from two places:" introduces, it does not head.
		if first && k+1 < len(items) && items[k+1].seg == it.seg && items[k+1].kind == lexClause && items[k+1].id == 1 && items[k+1].pos-it.end <= 3 {
			r.heads[it.seg] = int16(it.id)
		}
	}
	// A list of causes, each opening with its service ("database
	// autovacuum disabled; message_queue dedup disabled; web_server
	// publishing too many jobs"): every item that says something is wrong
	// states its service as a cause, as a head would.
	if fixed < 0 {
		listed := 0
		for seg := range r.heads {
			if r.heads[seg] < 0 && r.opensWithClaim(seg) >= 0 {
				listed++
			}
		}
		if listed >= 2 {
			for seg := range r.heads {
				if r.heads[seg] < 0 {
					r.heads[seg] = r.opensWithClaim(seg)
				}
			}
		}
	}
	r.limitOnTopics(lx)
	r.hostOfTopics(lx)
	r.glossTopics(lx, fixed)
	items = r.items
	// A cause stated as one ("load_balancer: queueing requests", a
	// structured cause) blames its service whatever it says, unless it
	// denies it ("web_server: not at fault, only a victim").
	if fixed >= 0 {
		if !r.denies(-1) {
			r.asserted = append(r.asserted, assertion{svc: fixed, claim: -1, mech: -1, head: true})
		}
	} else {
		for seg, h := range r.heads {
			if h >= 0 && !r.denies(seg) {
				r.asserted = append(r.asserted, assertion{svc: h, claim: -1, mech: -1, head: true})
			}
		}
	}
	for k, it := range items {
		if !it.neg && !it.eff {
			r.claimAt(t, lx, k, fixed)
		}
	}
	// "error rate 25% -> 5xx from web_server -> only six workers
	// configured": a chain written from the symptom back to its cause, with
	// nothing asserted before its last arrow, ends at the cause.
	if r.lastArrow >= 0 && !r.assertsAny() {
		last := -1
		for k := range items {
			if items[k].cl >= r.lastArrow {
				last = items[k].seg
				break
			}
		}
		wasEff := r.wasEff[:0]
		for k := range items {
			wasEff = append(wasEff, items[k].eff)
			if items[k].seg == last {
				items[k].eff = false // the chain's links name its subjects
			}
		}
		r.wasEff = wasEff
		for k := range items {
			if items[k].cl >= r.lastArrow && wasEff[k] && !items[k].neg {
				r.claimAt(t, lx, k, fixed)
			}
		}
	}
}

// assertsAny reports whether anything but a stated cause was asserted.
func (r *reader) assertsAny() bool {
	for _, a := range r.asserted {
		if !a.head {
			return true
		}
	}
	return false
}

// claimAt reads item k (neither denied nor an effect) into assertions.
func (r *reader) claimAt(t *Task, lx *diagLexicon, k int, fixed int16) {
	items := r.items
	it := items[k]
	switch it.kind {
	case lexNumber:
		if !r.valueClaim(t, lx, k, fixed) && it.dim != dimNone {
			r.quantityClaim(t, lx, k, fixed)
		}
	case lexTopic:
		if r.failsAfter(lx, int(it.tok)+it.end-it.pos+1) || r.failsAtPart(int(it.tok)) {
			// "the consumer release fails invoice jobs", "the provider is
			// failing": a part that fails is in its fault's state.
			svc := r.attribute(t, lx, k, lx.owner[it.id], fixed)
			for _, ci := range lx.topicClaims[it.id] {
				if c := &t.Claims[ci]; (c.Service == svc || svc == eachOwner) && isPart(c) {
					r.appendClaim(t, c.Service, ci, c.States&(StateDown|StateWrong))
				}
			}
		}
		if failingTopic(t, lx, it.id) && !r.componentCleared(lx, it.id) && (r.statusAfter(lx, int(it.tok)+it.end-it.pos+1) || r.statusBefore(int(it.tok))) {
			// "PayLane answers 503", "a slow card processor": an outside
			// party said to fail its callers.
			svc := r.attribute(t, lx, k, lx.owner[it.id], fixed)
			for _, ci := range lx.topicClaims[it.id] {
				if c := &t.Claims[ci]; c.Service == svc || svc == eachOwner {
					r.appendClaim(t, c.Service, ci, StateFailing)
				}
			}
		}
		// "health_check_path=/status (web serves /healthz)": a path or
		// host quoted for a setting, with more said, says it is wrong.
		if lit := r.literalAt(int(it.tok) + it.end - it.pos + 1); lit != 0 && (it.ident || lit == '/') && r.saysMore() {
			svc := r.attribute(t, lx, k, lx.owner[it.id], fixed)
			for _, ci := range lx.topicClaims[it.id] {
				if c := &t.Claims[ci]; (c.Service == svc || svc == eachOwner) && c.States&StateWrong != 0 {
					r.appendClaim(t, c.Service, ci, StateWrong)
				}
			}
		}
	case lexMech:
		if svc := r.attribute(t, lx, k, lx.mechOwner[it.id], fixed); svc >= 0 {
			r.asserted = append(r.asserted, assertion{svc: svc, claim: -1, mech: it.id})
		}
	case lexState:
		if r.slowedDown(it) {
			return
		}
		if next := int(it.tok) + it.end - it.pos + 1; it.comp && !it.change && next < len(r.toks) && (r.toks[next].field || r.literalAt(next) != 0) {
			// "under app=jobs-worker", "over api.example": where, not how
			// much.
			return
		}
		// "autovacuum_enabled true -> false": the old value, then the new.
		if onOff := StateOn | StateOff; State(it.id)&onOff != 0 && k+1 < len(items) && items[k+1].kind == lexState &&
			State(items[k+1].id) == State(it.id)^onOff && items[k+1].pos == it.end+2 && r.word(int(it.tok)+it.end-it.pos+1) == "to" {
			return
		}
		// Bind to a topic in the clause: the nearest before the state
		// ("the pool is too small"), else the nearest after it ("an
		// undersized pool"); failing both, a service ("the database is
		// down").
		bj := r.bindState(t, lx, k)
		if bj < 0 {
			// "web_server: down", a structured cause {"what": "down"}:
			// a bare state after a stated cause is about the service.
			svc := fixed
			if svc < 0 {
				svc = r.heads[it.seg]
			}
			if svc >= 0 && r.opensCause(k, fixed) {
				for _, ci := range lx.serviceClaims[svc] {
					r.appendClaim(t, svc, ci, State(it.id))
				}
			}
			return
		}
		after := items[bj].pos > it.pos
		st := State(it.id)
		if it.change && after && !r.fixVerb(k) {
			// "the 17:30 change lowered max_connections to 20": a change
			// verb with a subject before it says what happened.
			after = false
		}
		if it.change && !after && items[bj].cl != it.cl {
			// "pool_size=10, raised to 50" describes the fix without
			// saying which way the value was wrong.
			return
		}
		if it.comp && after {
			// "the working set is larger than max memory": the thing
			// after a comparative is on the other side of it. ("less
			// than consumers need": a demand, not the setting.)
			if needWords[r.word(int(items[bj].tok)+items[bj].end-items[bj].pos+1)] {
				return
			}
			st = st.Opposite()
			if st == 0 {
				return
			}
		}
		o := items[bj]
		if o.kind == lexTopic && it.comp && !it.change && r.comparesReading(lx, k, o.id) {
			return
		}
		if o.kind == lexService {
			svc := int16(o.id)
			if fixed >= 0 {
				svc = fixed
			}
			n := len(r.asserted)
			for _, ci := range lx.serviceClaims[svc] {
				r.appendClaim(t, svc, ci, st)
			}
			if len(r.asserted) == n && st == StateWrong && !o.neg && !r.clearedElsewhere(svc, it.cl) {
				// "the cache is broken": a vague cause, but a cause.
				r.asserted = append(r.asserted, assertion{svc: svc, claim: -1, mech: -1, head: true})
			}
			return
		}
		svc := r.attribute(t, lx, bj, lx.owner[o.id], fixed)
		if st == statePersists {
			r.persists(t, lx, o.id, svc)
			return
		}
		for _, ci := range lx.topicClaims[o.id] {
			// A setting named by its identifier on no service, that
			// several have and not one faulty one, is asserted on
			// each that has it.
			if c := &t.Claims[ci]; c.Service == svc || svc == eachOwner {
				r.appendClaim(t, c.Service, ci, st)
			}
		}
	}
}

// persists asserts that a change to the setting topic names on svc is
// still in place ("the canary weighting was never reverted"): that the
// setting is what is wrong, in whichever way a fault there has it, or,
// where no fault is, that a setting nobody broke is (which blames svc).
func (r *reader) persists(t *Task, lx *diagLexicon, topic int32, svc int16) {
	plain := int32(-1)
	for _, ci := range lx.topicClaims[topic] {
		c := &t.Claims[ci]
		if c.Service != svc && svc != eachOwner {
			continue
		}
		if faultOfKind(t, c.Service, ci) >= 0 {
			r.asserted = append(r.asserted, assertion{svc: c.Service, claim: ci, mech: -1})
			return
		}
		if plain < 0 && c.Kind == "" {
			plain = ci
		}
	}
	if plain >= 0 {
		r.asserted = append(r.asserted, assertion{svc: t.Claims[plain].Service, claim: plain, mech: -1})
	}
}

// slowedDown reports whether state item it is the "down" of "slow the web
// tier down", a slowdown rather than a process that is down.
func (r *reader) slowedDown(it item) bool {
	if it.end != it.pos || r.word(int(it.tok)) != "down" {
		return false
	}
	for j := int(it.tok) - 1; j >= 0 && j >= int(it.tok)-5; j-- {
		if slowingVerbs[r.word(j)] {
			return true
		}
	}
	return false
}

// opensWithClaim is the service segment seg opens with, when the segment
// goes on to assert a state or a mechanism in its first clause, or -1.
func (r *reader) opensWithClaim(seg int) int16 {
	svc, cl := int16(-1), -1
	for _, o := range r.items {
		if o.seg != seg {
			continue
		}
		switch {
		case svc < 0 && o.kind == lexIdiom:
		case svc < 0 && o.kind == lexService && !o.neg && !o.eff:
			svc, cl = int16(o.id), o.cl
		case svc < 0:
			return -1
		case o.cl != cl:
			return -1
		case o.neg:
			return -1
		case (o.kind == lexState || o.kind == lexMech) && !o.eff:
			return svc
		}
	}
	return -1
}

// clearedElsewhere reports whether the answer, outside clause cl, says
// service svc is fine ("The cache itself is fine"): a vague complaint
// about it ("lookups fail with 'no such host'") then blames nobody.
func (r *reader) clearedElsewhere(svc int16, cl int) bool {
	for _, o := range r.items {
		if o.kind != lexService || int16(o.id) != svc || o.cl == cl || !o.neg {
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

// denies reports whether segment seg (every segment when -1) holds a
// denial.
func (r *reader) denies(seg int) bool {
	for _, o := range r.items {
		if (seg < 0 || o.seg == seg) && o.kind == lexNeg && o.id >= 1 {
			return true
		}
	}
	return false
}

// fixVerb reports whether the change verb at item k opens its clause or
// follows "I" or "we": the answer says what it did ("raised pool_size to
// 50"), so the value was wrong the other way.
func (r *reader) fixVerb(k int) bool {
	it := r.items[k]
	// Count the words of the clause before the verb.
	w := -1
	for i, n := 0, 0; i < len(r.toks); i++ {
		if r.toks[i].punct != 0 {
			if n <= it.pos {
				w = -1
			}
			continue
		}
		if n == it.pos {
			break
		}
		if w < 0 {
			w = 0
		}
		w++
		switch string(r.norm[r.toks[i].start:r.toks[i].end]) {
		case "i", "we", "then", "and", "so", "fix", "fixed", "by", "after":
			w = 0
		}
		n++
	}
	if w > 0 {
		return false
	}
	// "the worker pool, cut to 8 workers by the rollout": a verb with its
	// agent after it is a passive, not what the answer did.
	n := 0
	for _, tk := range r.toks {
		if tk.punct != 0 {
			if n > it.pos {
				break
			}
			continue
		}
		if n > it.end && string(r.norm[tk.start:tk.end]) == "by" {
			return false
		}
		n++
	}
	return true
}

// valueWords may stand between a setting and the value quoted for it
// ("max_connections was cut to 20", "a pool of 10").
var valueWords = map[string]bool{"is": true, "was": true, "are": true, "were": true, "of": true, "at": true, "to": true,
	"set": true, "now": true, "just": true, "still": true, "from": true, "only": true, "left": true, "a": true,
	"cut": true, "lowered": true, "raised": true, "reduced": true, "dropped": true, "increased": true, "been": true,
	"has": true, "had": true, "currently": true, "configured": true, "down": true, "up": true, "went": true, "go": true, "goes": true}

// valueWordsBetween reports whether every word strictly between word
// indexes a and b is a value word.
func (r *reader) valueWordsBetween(a, b int) bool {
	n := 0
	for _, tk := range r.toks {
		if tk.punct != 0 {
			continue
		}
		if n > a && n < b && !valueWords[string(r.norm[tk.start:tk.end])] {
			return false
		}
		n++
	}
	return true
}

// valueClaim reads a quoted value ("query_timeout_ms=20", "a TTL of 30
// s") as a state when it lies outside its setting's healthy band and the
// segment says more than the bare value ("..., so statements are
// cancelled"); a bare value ("max_connections was set to 20") claims
// nothing.
func (r *reader) valueClaim(t *Task, lx *diagLexicon, k int, fixed int16) bool {
	items := r.items
	it := items[k]
	tj := -1
	for j := k - 1; j >= 0 && items[j].cl == it.cl && it.pos-items[j].end <= 4; j-- {
		if items[j].kind != lexTopic && !(items[j].kind == lexState && items[j].change) {
			break
		}
		if items[j].kind == lexTopic {
			if r.valueWordsBetween(items[j].end, it.pos) {
				tj = j
			}
			break
		}
	}
	if tj < 0 && k+1 < len(items) && items[k+1].kind == lexTopic && items[k+1].cl == it.cl && items[k+1].pos == it.pos+1 {
		tj = k + 1 // "8 workers"
	}
	if tj < 0 {
		tj = r.pronounTopic(k)
	}
	if tj < 0 {
		return false
	}
	if tj == k+1 && it.num == 0 {
		// "0 consumers on jobs.audit-export": a count of none says there
		// are none of them there, not what a setting is.
		return true
	}
	if tj == k-1 && items[tj].end == it.pos-1 && ordinalNouns[r.word(int(it.tok)-1)] && !(k+1 < len(items) && items[k+1].kind == lexNumber && items[k+1].pos <= it.pos+2) {
		// "attempt 9", "retry 3 of 5": which one, not how many.
		return true
	}
	// "max_connections 300 -> 20", "from 8 to 3": a change's old and new
	// values say which way it moved; after a fix verb ("raised pool_size
	// 6 -> 50") they say how it was put right, so the fault lies the
	// other way.
	if k+1 < len(items) {
		if nx := items[k+1]; nx.kind == lexNumber && nx.cl == it.cl && nx.pos-it.end <= 3 && r.word(int(nx.tok)-1) == "to" &&
			nx.num != it.num && sameDimension(nx.dim, it.dim) {
			st := StateLow
			if nx.num > it.num {
				st = StateHigh
			}
			if r.fixedBefore(tj) || r.word(int(nx.tok)-2) == "back" {
				// "from 1 back to 8": put back.
				st = st.Opposite()
			}
			svc := r.attribute(t, lx, tj, lx.owner[items[tj].id], fixed)
			for _, ci := range lx.topicClaims[items[tj].id] {
				if c := &t.Claims[ci]; c.Service == svc || svc == eachOwner {
					r.appendClaim(t, c.Service, ci, st)
				}
			}
			return true
		}
	}
	// "max_connections=1500 (was 6000)", "consumer_concurrency=3 (normal
	// 8)": a value beside the one it replaced says which way it moved,
	// wherever both lie in the band.
	for j := k + 1; j < len(items) && items[j].seg == it.seg && items[j].pos-it.pos <= 4; j++ {
		ref := items[j]
		if ref.kind != lexNumber || !referenceWords[r.word(int(ref.tok)-1)] || ref.num == it.num || ref.dim != it.dim {
			continue
		}
		st := StateLow
		if it.num > ref.num {
			st = StateHigh
		}
		svc := r.attribute(t, lx, tj, lx.owner[items[tj].id], fixed)
		for _, ci := range lx.topicClaims[items[tj].id] {
			if c := &t.Claims[ci]; c.Service == svc || svc == eachOwner {
				r.appendClaim(t, c.Service, ci, st)
			}
		}
		return true
	}
	// A structured cause's "what" is what went wrong, so a value there is
	// said to be wrong.
	if fixed >= 0 || r.saysMore() || scarce[r.word(int(it.tok)-1)] {
		r.topicValue(t, lx, k, tj, r.attribute(t, lx, tj, lx.owner[items[tj].id], fixed))
	}
	return true
}

// fixedBefore reports whether a fix verb of the answer's own opens the
// clause of item j ("raised pool_size 6 -> 50", "restored max_connections
// 20 -> 300").
func (r *reader) fixedBefore(j int) bool {
	for i := int(r.items[j].tok) - 1; i >= 0 && r.toks[i].punct == 0; i-- {
		if restoreWords[string(r.norm[r.toks[i].start:r.toks[i].end])] {
			return true
		}
	}
	for i := j - 1; i >= 0 && r.items[i].cl == r.items[j].cl; i-- {
		if r.items[i].kind == lexState && r.items[i].change {
			return r.fixVerb(i)
		}
	}
	return false
}

// pronounTopic is the setting a pronoun before number item k stands for
// ("the statement deadline: it is set to 20 ms", "the pool, which is
// only 10"): the nearest setting before it in its sentence, or -1.
func (r *reader) pronounTopic(k int) int {
	it := r.items[k]
	i := int(it.tok) - 1
	for i >= 0 && valueWords[r.word(i)] {
		i--
	}
	if !pronouns[r.word(i)] {
		return -1
	}
	for j := k - 1; j >= 0 && r.items[j].seg == it.seg && it.pos-r.items[j].end <= bindBefore+3; j-- {
		if o := r.items[j]; o.kind == lexTopic && !o.eff && !o.neg {
			return j
		}
	}
	return -1
}

// literalAt reports whether token i is a path ('/': "/status") or a host
// name ('.': "cache-old.internal"), or 0.
func (r *reader) literalAt(i int) byte {
	if i < 0 || i >= len(r.toks) || r.toks[i].punct != 0 {
		return 0
	}
	w := r.norm[r.toks[i].start:r.toks[i].end]
	if w[0] == '/' {
		return '/'
	}
	if dot := bytes.IndexByte(w, '.'); dot > 0 && dot < len(w)-1 && !unicode.IsDigit(rune(w[0])) {
		return '.'
	}
	return 0
}

// saysMore reports whether the answer says anything beyond bare values.
func (r *reader) saysMore() bool {
	if r.lastArrow >= 0 {
		return true // "cache ttl 10s -> db x3": the value is said to cause something
	}
	for _, o := range r.items {
		if o.kind == lexState || o.kind == lexMech || o.kind == lexIdiom {
			return true
		}
	}
	return false
}

// topicValue asserts the value of number item k on the setting topic item
// tj names on svc, low or high against its band, in the setting's unit
// when the answer gives one ("an idle timeout of 5 s" is 5000 ms).
func (r *reader) topicValue(t *Task, lx *diagLexicon, k, tj int, svc int16) {
	it := r.items[k]
	for _, ci := range lx.topicClaims[r.items[tj].id] {
		c := &t.Claims[ci]
		if (c.Service != svc && svc != eachOwner) || !c.HasBand {
			continue
		}
		r.bandClaim(t, lx, c.Service, ci, it)
	}
}

// bandClaim asserts claim ci low or high when quantity it lies outside the
// claim's band.
func (r *reader) bandClaim(t *Task, lx *diagLexicon, svc int16, ci int32, it item) {
	c := &t.Claims[ci]
	x := it.num
	u := lx.claimUnit[ci]
	if it.dim != dimNone && u.dim != dimNone && !sameDimension(u.dim, it.dim) {
		// "memory 27%" is a reading, not the setting's value in MB.
		return
	}
	if it.dim != dimNone && u.dim == it.dim && u.scale > 0 {
		x = it.base / u.scale
	}
	if countDims[u.dim] && x != math.Trunc(x) {
		// "workers 0.40": a share or a utilisation, not a count.
		return
	}
	switch {
	case x < c.Low:
		r.appendClaim(t, svc, ci, StateLow)
	case x > c.High:
		r.appendClaim(t, svc, ci, StateHigh)
	}
}

// quantityClaim reads a quantity no setting name stands beside: with a
// setting of its unit in its clause ("jobs become visible again after two
// seconds", "retrying jobs forty times") it is that setting's value; said
// as a limit ("the database only accepts 20 connections", "the balancer
// closes connections after 5 s") it is the value of the setting of its
// unit on its subject's service that it lies outside the band of (the
// nearest to it, when several do).
func (r *reader) quantityClaim(t *Task, lx *diagLexicon, k int, fixed int16) {
	items := r.items
	it := items[k]
	if fixed < 0 && !r.saysMore() && !scarce[r.word(int(it.tok)-1)] {
		return
	}
	tj, bestD := -1, 1<<30
	for j, o := range items {
		if o.kind != lexTopic || o.cl != it.cl || o.neg || o.eff {
			continue
		}
		for _, ci := range lx.topicClaims[o.id] {
			if lx.claimUnit[ci].dim == it.dim && t.Claims[ci].HasBand {
				if d := abs(o.pos - it.pos); d < bestD {
					tj, bestD = j, d
				}
				break
			}
		}
	}
	if tj >= 0 {
		r.topicValue(t, lx, k, tj, r.attribute(t, lx, tj, lx.owner[items[tj].id], fixed))
		return
	}
	if !it.limit {
		return
	}
	if it.dim == dimPercent && !r.shareOfBackend(it) {
		return
	}
	svc := r.subject(k, fixed)
	if svc < 0 && !r.namesService() {
		// "admitted 200 of 420 req/s": with no service named, the limit
		// is the faulty service's, if only one has a setting in its unit.
		svc = onlyFaultyWithUnit(t, lx, it.dim)
	}
	if svc >= 0 {
		r.limitValue(t, lx, it, svc)
		// "the database and the balancer both only accept 20 connections"
		for j := k - 1; j >= 0 && items[j].cl == it.cl; j-- {
			if o := items[j]; o.kind == lexService && !o.eff && !o.neg && int16(o.id) != svc && fixed < 0 && r.heads[it.seg] < 0 {
				r.limitValue(t, lx, it, int16(o.id))
			}
		}
	}
}

// namesService reports whether the answer names any service.
func (r *reader) namesService() bool {
	for _, o := range r.items {
		if o.kind == lexService {
			return true
		}
	}
	return false
}

// onlyFaultyWithUnit is the only faulty service with a banded setting in
// dimension dim, or -1.
func onlyFaultyWithUnit(t *Task, lx *diagLexicon, dim dimension) int16 {
	only := int16(-1)
	for ci := range t.Claims {
		c := &t.Claims[ci]
		if !c.HasBand || lx.claimUnit[ci].dim != dim || !faultOn(t, c.Service) || c.Service == only {
			continue
		}
		if only >= 0 {
			return -1
		}
		only = c.Service
	}
	return only
}

// limitValue asserts quantity it, said as a limit, on the setting of its
// unit on svc it lies outside the band of.
func (r *reader) limitValue(t *Task, lx *diagLexicon, it item, svc int16) {
	// The setting: of the quantity's unit, on svc, with the value outside
	// its band; of several, one a word of whose name the answer uses near
	// the quantity ("closes idle connections after 2 s"), then the one
	// whose band's middle is nearest.
	best, bestFar, bestNamed := int32(-1), 0.0, false
	for ci := range t.Claims {
		c := &t.Claims[ci]
		u := lx.claimUnit[ci]
		if c.Service != svc || !c.HasBand || u.dim != it.dim || u.scale <= 0 {
			continue
		}
		x := it.base / u.scale
		if x >= c.Low && x <= c.High || x <= 0 || c.Low <= 0 {
			continue
		}
		far := math.Abs(math.Log(x / math.Sqrt(c.Low*c.High)))
		named := len(c.Topics) > 0 && r.namedNear(int(it.tok), c.Topics[0], it.unitTok)
		if best < 0 || named && !bestNamed || named == bestNamed && far < bestFar {
			best, bestFar, bestNamed = int32(ci), far, named
		}
	}
	if best < 0 {
		return
	}
	key := t.Claims[best].Topics[0]
	for ci := range t.Claims {
		if c := &t.Claims[ci]; c.Service == svc && c.HasBand && len(c.Topics) > 0 && c.Topics[0] == key {
			r.bandClaim(t, lx, svc, int32(ci), it)
		}
	}
}

// namedNear reports whether a word of four letters or more of the
// setting name key stands within eight tokens of token tok, in its
// sentence, other than the quantity's own unit word at unitTok ("only
// 6 connections" names no setting).
func (r *reader) namedNear(tok int, key string, unitTok int32) bool {
	for len(key) > 0 {
		n := strings.IndexByte(key, ' ')
		if n < 0 {
			n = len(key)
		}
		if w := key[:n]; len(w) >= 4 {
			for _, step := range [...]int{-1, 1} {
				for j, d := tok+step, 1; d <= 8 && j >= 0 && j < len(r.toks) && r.toks[j].punct != '.'; j, d = j+step, d+1 {
					if r.word(j) == w && int32(j) != unitTok {
						return true
					}
				}
			}
		}
		if n == len(key) {
			break
		}
		key = key[n+1:]
	}
	return false
}

// subject finds the service a quantity is said of: the structured cause's,
// the segment's head, the nearest before it in its segment, then the
// nearest after it in its clause.
func (r *reader) subject(k int, fixed int16) int16 {
	if fixed >= 0 {
		return fixed
	}
	items := r.items
	it := items[k]
	if h := r.heads[it.seg]; h >= 0 {
		return h
	}
	for j := k - 1; j >= 0 && items[j].seg == it.seg; j-- {
		if o := items[j]; o.kind == lexService && !o.eff && !o.neg && !o.callee {
			return int16(o.id)
		}
	}
	for j := k + 1; j < len(items) && items[j].cl == it.cl; j++ {
		if o := items[j]; o.kind == lexService && !o.eff && !o.neg && !o.callee {
			return int16(o.id)
		}
	}
	return -1
}

// eachOwner attributes a claim to every service that has its topic.
const eachOwner = -2

// attribute finds the service item k is about: the structured cause's,
// the segment's head, the nearest service in its clause (one that has the
// setting, if any does: "redis rejects the app's auth token"), the nearest
// before it in its segment, the one its topic belongs to, the nearest after
// it in its segment, or the only service the answer names. A setting named
// by its identifier and no service ("max_connections cut to 20"), that
// several services have, is the faulty one's when only one of them is
// faulty, else each one's (eachOwner).
func (r *reader) attribute(t *Task, lx *diagLexicon, k int, topicOwner, fixed int16) int16 {
	if fixed >= 0 {
		return fixed
	}
	items := r.items
	it := items[k]
	if h := r.heads[it.seg]; h >= 0 {
		return h
	}
	for _, o := range items {
		// "gives up on the database too quickly" is the caller's timeout:
		// the service after the preposition must have the setting.
		if o.kind == lexService && o.prep && o.cl == it.cl && !o.eff && o.pos > it.end && o.pos-it.end <= 4 &&
			(it.kind != lexTopic || hasTopic(t, lx, int16(o.id), it.id)) {
			return int16(o.id)
		}
	}
	best, bestD, bestHas := int16(-1), 1<<30, false
	for _, o := range items {
		if o.kind != lexService || o.cl != it.cl || o.eff || o.neg && !it.neg {
			continue
		}
		d := abs(o.pos - it.pos)
		if o.pos > it.pos {
			d += 2 // prefer the subject before the claim
		}
		has := it.kind == lexTopic && hasTopic(t, lx, int16(o.id), it.id)
		if has && !bestHas || has == bestHas && d < bestD {
			best, bestD, bestHas = int16(o.id), d, has
		}
	}
	if best >= 0 {
		return best
	}
	if topicOwner >= 0 {
		// "…, and the pool was cut to 10": a setting only one service has
		// is that service's, whatever the sentence named before.
		return topicOwner
	}
	for j := k - 1; j >= 0 && items[j].seg == it.seg; j-- {
		if items[j].kind == lexService && !items[j].eff && !items[j].neg {
			return int16(items[j].id)
		}
	}
	for j := k + 1; j < len(items) && items[j].seg == it.seg; j++ {
		if items[j].kind == lexService && !items[j].eff && !items[j].neg {
			return int16(items[j].id)
		}
	}
	only := int16(-1)
	for _, o := range items {
		if o.kind == lexService && !o.neg {
			if only >= 0 && only != int16(o.id) {
				return -1
			}
			only = int16(o.id)
		}
	}
	if only >= 0 {
		return only
	}
	// An answer that names no service at all ("the connection ceiling is
	// too low") is about the system at hand: a setting or mechanism several
	// services have is the faulty one's when only one of them is faulty.
	faulty, several := int16(-1), false
	consider := func(svc int16) {
		if faultOn(t, svc) && svc != faulty {
			several = several || faulty >= 0
			faulty = svc
		}
	}
	switch it.kind {
	case lexTopic:
		for _, ci := range lx.topicClaims[it.id] {
			consider(t.Claims[ci].Service)
		}
	case lexMech:
		for ci := range t.Claims {
			if int32(t.Claims[ci].Mechanism) == it.id {
				consider(t.Claims[ci].Service)
			}
		}
		// A link's fault has no claims (no setting names it): "resolver
		// failures" is the fault's own service's, the link's client end.
		for i := range t.Faults {
			if f := &t.Faults[i]; int32(f.Mechanism) == it.id && len(f.Link) > 0 {
				consider(f.Service)
			}
		}
	}
	switch {
	case faulty >= 0 && !several:
		return faulty
	case it.kind == lexTopic && it.ident:
		// A setting named by its identifier that several faulty services
		// have, or none, is asserted on each that has it.
		return eachOwner
	}
	return -1
}

// hasTopic reports whether service svc has a claim on topic id.
func hasTopic(t *Task, lx *diagLexicon, svc int16, id int32) bool {
	for _, ci := range lx.topicClaims[id] {
		if t.Claims[ci].Service == svc {
			return true
		}
	}
	return false
}

func (r *reader) bindState(t *Task, lx *diagLexicon, k int) int {
	items := r.items
	it := items[k]
	// "the proxy worker exited": a state goes with a part that can be in
	// it (or in its opposite), passing over one that cannot.
	fits := func(o item) bool {
		if o.kind != lexTopic || State(it.id) == statePersists {
			return true
		}
		st := State(it.id)
		for _, ci := range lx.topicClaims[o.id] {
			if c := &t.Claims[ci]; (c.States|c.Against)&(st|st.Opposite()) != 0 {
				return true
			}
		}
		return false
	}
	// "queries take longer than that": a state right after the symptom it
	// describes is about that symptom, not a setting further back.
	// ("the web tier never served": an idiom naming a service's part is
	// not a symptom.)
	symptomBefore := k > 0 && items[k-1].kind == lexIdiom && items[k-1].cl == it.cl && it.pos-items[k-1].end <= 2 &&
		!(k > 1 && items[k-2].kind == lexService && items[k-1].pos == items[k-2].end+1)
	if State(it.id) == statePersists {
		// "WAL retention was bumped for a replica rebuild and never put
		// back": what was never put back is the clause's subject.
		for j := range items {
			if o := items[j]; j < k && o.cl == it.cl && o.kind == lexTopic && !o.eff && !o.neg {
				return j
			}
		}
		// "nobody restored the number of request workers": else its
		// object, however long the phrase that names it.
		for j := k + 1; j < len(items) && items[j].cl == it.cl && items[j].pos-it.end <= bindBefore; j++ {
			if o := items[j]; o.kind == lexTopic && !o.eff && !o.neg {
				return j
			}
		}
		return nearestInClause(items, k, lexTopic, fits)
	}
	// "too many clients already (server limit 20)": a state that
	// qualifies the symptom right after it says nothing of a setting
	// after it or outside its clause.
	qualifiesSymptom := State(it.id)&^(StateLow|StateHigh) == 0 &&
		k+1 < len(items) && items[k+1].kind == lexIdiom && items[k+1].cl == it.cl && items[k+1].pos == it.end+1
	if it.comp && !it.change && !symptomBefore {
		// "set max_connections to 20, below the pool's 50": a comparative
		// is about what precedes it.
		for j := k - 1; j >= 0 && items[j].seg == it.seg && it.pos-items[j].end <= bindBefore+2; j-- {
			if items[j].kind == lexTopic && !items[j].eff && !items[j].neg && fits(items[j]) {
				return j
			}
		}
	}
	if j := nearestInClause(items, k, lexTopic, fits); j >= 0 && (!qualifiesSymptom || j < k) {
		return j
	}
	// "it's oversized": the pronoun takes up the setting denied before.
	be := r.word(int(it.tok) - 1)
	pronounBefore := be == "it" || r.word(int(it.tok)-2) == "it" && (be == "s" || be == "is" || be == "was")
	if State(it.id) != StateDown && !qualifiesSymptom && !symptomBefore {
		// "pool_size=10, far too small", "the balancer probes /status,
		// web_server answers 404": a state with no topic in its clause
		// goes with the nearest topic before it in its segment.
		for j := k - 1; j >= 0 && items[j].seg == it.seg && it.pos-items[j].end <= bindBefore+3; j-- {
			// "Not an undersized pool: it's oversized": the denial of an
			// earlier clause does not keep its setting from this one.
			if o := items[j]; o.kind == lexTopic && !o.eff && (!o.neg || o.cl != it.cl && pronounBefore) && fits(o) {
				return j
			}
		}
	}
	return nearestInClause(items, k, lexService, fits)
}

// nearestInClause finds the item of kind nearest to item k in its clause:
// the nearest before it within bindBefore words, else the nearest after it
// within bindAfter.
func nearestInClause(items []item, k int, kind lexKind, fits func(item) bool) int {
	it := items[k]
	before, after := -1, -1
	for j, o := range items {
		if o.cl != it.cl || o.kind != kind || o.eff || !fits(o) {
			continue
		}
		if o.pos < it.pos && it.pos-o.end <= bindBefore {
			before = j // the last one before is the nearest
		}
		if o.pos > it.end && o.pos-it.end <= bindAfter && after < 0 {
			after = j
		}
	}
	if before >= 0 {
		return before
	}
	return after
}

func (r *reader) appendClaim(t *Task, svc int16, ci int32, st State) {
	c := &t.Claims[ci]
	switch {
	case c.States&st != 0:
		r.asserted = append(r.asserted, assertion{svc: svc, claim: ci, mech: -1})
	case c.Against&st != 0:
		r.asserted = append(r.asserted, assertion{svc: svc, claim: ci, mech: -1, contradicts: true})
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// faultOfKind is the fault on svc of the kind claim ci describes, or -1.
func faultOfKind(t *Task, svc int16, ci int32) int {
	c := &t.Claims[ci]
	if c.Kind == "" {
		return -1
	}
	for i := range t.Faults {
		f := &t.Faults[i]
		if f.Service != svc && !actsOnOtherSide(f, svc) {
			continue
		}
		// What a fault also does may be said in its own words, but not as
		// a numeric setting out of band: "the disk is full" describes a
		// slot retaining WAL, "wal_keep_size_gb too high" blames a key.
		if c.Kind == f.Kind || c.Mechanism >= 0 && !c.HasBand && slices.Contains(f.Also, c.Mechanism) {
			return i
		}
		// Two fault kinds that say the same of the same setting ("the
		// limit is too low", set to a number or set under the pool) are
		// one diagnosis: asserting the twin's claim asserts this one's.
		for cj := range t.Claims {
			if d := &t.Claims[cj]; d.Service == svc && d.Kind == f.Kind && sameClaim(c, d) {
				return i
			}
		}
	}
	return -1
}

// sameClaim reports whether two claims assert the same thing: the same
// mechanism, in the same states, about the same topics.
func sameClaim(a, b *Claim) bool {
	return a.Mechanism == b.Mechanism && a.States == b.States && a.Against == b.Against && slices.Equal(a.Topics, b.Topics)
}

// showsOn reports whether a fault on svc shows mechanism m: what it did
// to the service, which a diagnosis may say beside the cause.
func showsOn(t *Task, svc, m int16) bool {
	for i := range t.Faults {
		if f := &t.Faults[i]; f.Service == svc && slices.Contains(f.Shows, m) {
			return true
		}
	}
	return false
}

func faultOn(t *Task, svc int16) bool {
	for i := range t.Faults {
		if t.Faults[i].Service == svc || slices.Contains(t.Faults[i].Link, svc) || actsOnOtherSide(&t.Faults[i], svc) {
			return true
		}
	}
	return false
}

// actsOnOtherSide reports whether a fault's operation remedy acts on svc,
// another service than the fault's own: the stale side of a secret
// rotated on one side. Saying that side holds the fault's defect (a
// stale password) diagnoses it, and blames no uninvolved service.
func actsOnOtherSide(f *Fault, svc int16) bool {
	if f.Service == svc {
		return false
	}
	for _, r := range f.Remedies {
		if r.Effect == EffectOperate && r.Service == svc {
			return true
		}
	}
	return false
}

// decide applies localisation, characterisation and scope.
func (r *reader) decide(t *Task, v DiagnosisVerdict, explain bool) DiagnosisVerdict {
	ok := true
	for _, a := range r.asserted {
		switch {
		case a.head:
			r.blamedSvc[a.svc] = true
		case a.mech >= 0:
			hit := false
			for i := range t.Faults {
				if f := &t.Faults[i]; (f.Service == a.svc || slices.Contains(f.Link, a.svc)) && (int32(f.Mechanism) == a.mech || slices.Contains(f.Also, int16(a.mech))) {
					r.matched[i] = true
					hit = true
				}
			}
			hit = hit || showsOn(t, a.svc, int16(a.mech))
			r.blamedSvc[a.svc] = true
			if !hit {
				ok = false
				if explain {
					v.Reasons = append(v.Reasons, "asserts "+t.Mechanisms[a.mech].Name+" on "+t.Services[a.svc].Name+", which no fault there is")
				}
			}
		case a.contradicts:
			if i := faultOfKind(t, a.svc, a.claim); i >= 0 {
				r.contra[i] = true
				if explain {
					v.Reasons = append(v.Reasons, "contradicts "+t.Faults[i].Kind+" on "+t.Services[a.svc].Name+" (the wrong direction or setting)")
				}
			}
		default:
			r.blamedSvc[a.svc] = true
			if i := faultOfKind(t, a.svc, a.claim); i >= 0 {
				r.matched[i] = true
				continue
			}
			if c := &t.Claims[a.claim]; c.Mechanism >= 0 && !c.HasBand && showsOn(t, a.svc, c.Mechanism) {
				continue
			}
			ok = false
			if explain {
				c := &t.Claims[a.claim]
				what := c.Kind
				if what == "" {
					what = "its setting " + strings.Join(c.Topics, "/")
				}
				v.Reasons = append(v.Reasons, "asserts "+what+" on "+t.Services[a.svc].Name+", which is not a fault there")
			}
		}
	}
	for i := range t.Faults {
		if r.contra[i] {
			r.matched[i] = false
		}
		if !r.matched[i] {
			ok = false
			if explain && !r.contra[i] {
				v.Reasons = append(v.Reasons, "does not diagnose "+t.Faults[i].Kind+" on "+t.Services[t.Faults[i].Service].Name)
			}
		}
	}
	for svc := range r.blamedSvc {
		if !r.blamedSvc[svc] {
			continue
		}
		r.blamed = append(r.blamed, int16(svc))
		if !faultOn(t, int16(svc)) {
			ok = false
			if explain {
				v.Reasons = append(v.Reasons, "blames "+t.Services[svc].Name+", which is not at fault")
			}
		}
	}
	v.Matched, v.Blamed, v.OK = r.matched, r.blamed, ok
	return v
}

// lexicons caches diagnosis lexicons by vocabulary: every task of a suite
// built on one stdlib shares most of it, and certification reads answers on
// many copies of one task.
var lexicons sync.Map // vocabulary key -> *diagLexicon

func lexiconFor(t *Task) *diagLexicon {
	var key strings.Builder
	for _, c := range t.Components {
		key.WriteString(c.Name)
		key.WriteByte(0)
		for _, p := range c.Phrases {
			key.WriteString(p)
			key.WriteByte(1)
		}
	}
	key.WriteByte(2)
	for _, m := range t.Mechanisms {
		for _, p := range m.Phrases {
			key.WriteString(p)
			key.WriteByte(1)
		}
		key.WriteByte(0)
	}
	key.WriteByte(2)
	for _, c := range t.Claims {
		fmt.Fprintf(&key, "%d\x00%s\x00%d\x00%d\x00%d\x00%s\x00", c.Service, c.Kind, c.Mechanism, c.States, c.Against, c.Unit)
		for _, tp := range c.Topics {
			key.WriteString(tp)
			key.WriteByte(1)
		}
		for _, g := range c.Gloss {
			key.WriteString(g)
			key.WriteByte(3)
		}
	}
	key.WriteByte(2)
	for i := range t.Slots {
		if t.Slots[i].Class == ClassMetric || t.Slots[i].Class == ClassConfig {
			fmt.Fprintf(&key, "%d%s\x00", t.Slots[i].Class, t.Slots[i].Name)
		}
	}
	k := key.String()
	if lx, ok := lexicons.Load(k); ok {
		return lx.(*diagLexicon)
	}
	lx, _ := lexicons.LoadOrStore(k, buildLexicon(t))
	return lx.(*diagLexicon)
}

// comparesReading reports whether comparative state item k compares a
// quantity of another kind than setting topic's ("retries above 40/s": a
// rate, where the retry limit counts attempts): it is said of a reading,
// not of the setting.
func (r *reader) comparesReading(lx *diagLexicon, k int, topic int32) bool {
	if k+1 >= len(r.items) {
		return false
	}
	n := r.items[k+1]
	if n.kind != lexNumber || n.cl != r.items[k].cl || n.pos != r.items[k].end+1 || n.dim == dimNone {
		return false
	}
	for _, ci := range lx.topicClaims[topic] {
		if u := lx.claimUnit[ci]; u.dim == dimNone || sameDimension(u.dim, n.dim) {
			return false
		}
	}
	return true
}
