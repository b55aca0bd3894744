package certify

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/lang"
)

// Logs show what happened, never why (issue 19). Beyond the diagnosis
// phrases the leak lint already forbids everywhere, a log template may not
// explain: no wording that says what a setting should be or that it is too
// low or too high, no "because" clause, no "due to" naming a setting, no
// advice ("consider", "increase"), and no paraphrase of what the docs
// publish about the failure: a mechanism's description, a fault kind's
// name or description, or the description of a config key of the
// service's kind. A paraphrase is two adjacent content words of the log
// ("keys expiring before reuse": expir, reuse) that are adjacent content
// words of the published text ("Entries expire before they are reused"),
// each compared by its first five letters. A real system's own message
// that says "due to" (PostgreSQL's "canceling statement due to statement
// timeout") is allowed verbatim; appending the setting or its value is not.

// explanatoryPhrases compare a setting with what it should be, or advise.
var explanatoryPhrases = []string{
	"should be", "should have", "ought to", "too low", "too high", "too small", "too large",
	"too short", "too few", "consider", "please", "you should", "to compensate", "in order to",
	"instead of", "caused by", "the cause", "as a result", "which means", "this means",
}

// upstreamDueTo are real systems' messages whose "due to" names a setting;
// each is allowed exactly as that system prints it.
var upstreamDueTo = []string{
	"canceling statement due to statement timeout", // PostgreSQL src/backend/tcop/postgres.c
}

// publishedText is what the embedded standard library publishes: each
// mechanism's and fault kind's description (with the fault kind's name),
// and each service kind's config keys' descriptions and names.
type publishedText struct {
	mechanisms  map[string]string   // mechanism name -> description
	mechanismOf map[string]string   // fault kind name -> its mechanism
	faults      map[string][]string // service kind -> "name: description" of the fault kinds applying to it
	keys        map[string][]string // service kind -> config key descriptions and akas
}

var stdlibPublished = sync.OnceValue(func() *publishedText {
	p := &publishedText{mechanisms: map[string]string{}, mechanismOf: map[string]string{}, faults: map[string][]string{}, keys: map[string][]string{}}
	m, _ := lang.Analyze(nil)
	if m == nil {
		return p
	}
	for _, r := range m.Rubrics {
		for _, t := range r.Mechanisms {
			p.mechanisms[t.Name] = t.Description
		}
	}
	for _, f := range m.FaultKinds {
		p.mechanismOf[f.Name] = f.Mechanism
		for _, k := range f.AppliesTo {
			p.faults[k] = append(p.faults[k], strings.ReplaceAll(f.Name, "_", " ")+": "+f.Description)
		}
	}
	for _, k := range m.ServiceKinds {
		for _, c := range k.Config {
			p.keys[k.Name] = append(p.keys[k.Name], c.Description)
			p.keys[k.Name] = append(p.keys[k.Name], c.Aka...)
		}
	}
	return p
})

// stemBigrams lists each pair of adjacent content words of text, each
// word cut to its first five letters: "expir reuse".
func stemBigrams(text string) []string {
	var out []string
	prev := ""
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return r < 'a' || r > 'z' }) {
		if len(w) < 4 || wordingStopWords[w] {
			continue
		}
		w = w[:min(len(w), 5)]
		if prev != "" {
			out = append(out, prev+" "+w)
		}
		prev = w
	}
	return out
}

// kindBigrams maps each word pair of the published descriptions a log of
// the service kind could paraphrase (its fault kinds', their mechanisms',
// its config keys') to the first description holding it. It is built once
// per kind: every log template of every task is checked against the same
// descriptions, and splitting them afresh was most of certification's time.
func kindBigrams(kind string) map[string]string {
	if v, ok := kindBigramMemo.Load(kind); ok {
		return v.(map[string]string)
	}
	pub := stdlibPublished()
	out := map[string]string{}
	add := func(name, text string) {
		for _, bg := range stemBigrams(text) {
			if _, ok := out[bg]; !ok {
				out[bg] = name
			}
		}
	}
	for _, f := range pub.faults[kind] {
		name, _, _ := strings.Cut(f, ":")
		add("the description of fault kind "+strings.ReplaceAll(name, " ", "_"), f)
		if m := pub.mechanismOf[strings.ReplaceAll(name, " ", "_")]; m != "" {
			add("the description of mechanism "+m, pub.mechanisms[m])
		}
	}
	for _, k := range pub.keys[kind] {
		add("the description of a "+kind+" config key", k)
	}
	kindBigramMemo.Store(kind, out)
	return out
}

// kindBigramMemo holds one map per service kind of the embedded stdlib.
var kindBigramMemo sync.Map

var wordingStopWords = map[string]bool{"after": true, "also": true, "been": true, "before": true, "every": true,
	"from": true, "have": true, "into": true, "last": true, "more": true, "most": true, "only": true,
	"over": true, "than": true, "that": true, "their": true, "them": true, "then": true, "there": true,
	"they": true, "this": true, "what": true, "when": true, "which": true, "while": true, "with": true,
	"does": true, "each": true, "some": true, "under": true, "until": true, "were": true, "will": true,
	"whether": true, "used": true, "uses": true}

// logWording checks the literal text of log rule lr for explanation.
func (l *leakLinter) logWording(where func() string, lr *engine.LogRule) {
	t := l.t
	kind := ""
	if lr.Service >= 0 && int(lr.Service) < len(t.Services) {
		kind = t.Services[lr.Service].Kind
	}
	var lits []string
	for _, p := range lr.Parts {
		if p.Hole == engine.NoSlot && p.ID == engine.LogIDNone {
			lits = append(lits, l.maskSchema(p.Lit))
		}
	}
	var what []string
	for _, lit := range lits {
		norm := " " + strings.Join(strings.FieldsFunc(strings.ToLower(lit), func(r rune) bool { return (r < 'a' || r > 'z') && (r < '0' || r > '9') }), " ") + " "
		for _, p := range explanatoryPhrases {
			if strings.Contains(norm, " "+p+" ") {
				what = append(what, fmt.Sprintf("the explanatory wording %q", p))
			}
		}
		// "because" states a cause; "because:" (PgBouncer's "closing
		// because: query_wait_timeout") heads a reason code.
		low := strings.ToLower(lit)
		for i := strings.Index(low, "because"); i >= 0; {
			if end := i + len("because"); end >= len(low) || low[end] != ':' {
				what = append(what, `the explanatory wording "because"`)
				break
			}
			j := strings.Index(low[i+1:], "because")
			if j < 0 {
				break
			}
			i += 1 + j
		}
		if i := strings.Index(low, "due to "); i >= 0 && !slices.ContainsFunc(upstreamDueTo, func(u string) bool {
			j := strings.Index(low, u)
			return j >= 0 && j <= i && i < j+len(u) && !l.namesSettingAfter(low[j+len(u):], kind)
		}) {
			what = append(what, `the explanatory wording "due to"`)
		}
	}
	sources := kindBigrams(kind)
	for _, lit := range lits {
		low := strings.ToLower(lit)
		for _, u := range upstreamDueTo {
			low = strings.ReplaceAll(low, u, "|")
		}
		for _, bg := range stemBigrams(low) {
			if systemTerms[bg] {
				continue
			}
			if name, ok := sources[bg]; ok {
				what = append(what, fmt.Sprintf("%q, words of %s", bg, name))
			}
		}
	}
	for _, w := range what {
		if l.reported["wording "+w] {
			continue
		}
		l.reported["wording "+w] = true
		l.failures = append(l.failures, fmt.Sprintf("Leak: %s explains instead of showing: %s.", where(), w))
	}
}

// namesSettingAfter says whether the text after an upstream message names
// a setting of the kind (a config key or one of its names) or quotes a
// value in parentheses: "(20ms)".
func (l *leakLinter) namesSettingAfter(rest, kind string) bool {
	rest = strings.TrimSpace(rest)
	if strings.HasPrefix(rest, "(") {
		return true
	}
	for _, k := range stdlibPublished().keys[kind] {
		if k != "" && !strings.Contains(k, " ") && strings.Contains(rest, k) {
			return true
		}
	}
	return false
}

// systemTerms are pairs of words the real systems' own messages use, which
// the published descriptions happen to share; a log may print them.
var systemTerms = map[string]bool{
	"conne serve": true, // PgBouncer src/server.c: "new connection to server"
	"timeo state": true, // PostgreSQL: "... statement timeout" then its "STATEMENT:" field
	"backe serve": true, // HAProxy src/backend.c: "backend %s has no server available!"
	"evict keys":  true, // Redis src/server.c INFO field "evicted_keys"
	"clien conne": true, // Redis src/server.c: "%lu clients connected (%lu replicas)"
	"worke proce": true, // gunicorn arbiter.py: "Exception in worker process"
	"maxme polic": true, // Redis src/config.c: "Invalid maxmemory policy"
	"host name":   true, // libpq fe-connect.c: "could not translate host name \"%s\" to address: %s"
	"name resol":  true, // glibc gai_strerror(EAI_AGAIN): "Temporary failure in name resolution"
	"order index": true, // PostgreSQL vacuumlazy.c: "automatic vacuum of table \"%s.%s.%s\": index scans: %d" on orders
}

// maskSchema blanks the config key and metric names in a log literal (the
// schema, shown whatever the fault), so "pool_size" is not read as the
// words "pool size"; the blank breaks word adjacency.
func (l *leakLinter) maskSchema(lit string) string {
	b := []byte(lit)
	for i := 0; i < len(b); {
		if !isIdentByte(b[i]) {
			i++
			continue
		}
		j := i
		for j < len(b) && isIdentByte(b[j]) {
			j++
		}
		if l.schema[string(b[i:j])] || l.t.ServiceIndex(string(b[i:j])) >= 0 {
			for k := i; k < j; k++ {
				b[k] = '|'
			}
		}
		i = j
	}
	return string(b)
}
