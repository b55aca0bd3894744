package agents

import (
	"math"
	"slices"
	"sort"
	"strings"
)

// The log-words adversary: it reads every service's logs and matches the
// warnings and errors against the published words of each mechanism (its
// description and its fault kinds' names and descriptions).

// afterLogs takes the (service, mechanism) pairs from the best match
// down and applies the first one's documented remedy that it can: a
// rollback when the docs give the mechanism's faults one, a restart
// when no config key is called by the mechanism, else reset those of its
// keys on the service that are out of their band (log-words-docs: that
// differ from their documented default). A pair with none to reset gives
// way to the next, while the budget lasts.
func (b *Blind) afterLogs() {
	b.tryMatches(b.logMatches())
}

func (b *Blind) tryMatches(ms []logMatch) {
	if len(ms) == 0 {
		return
	}
	s, mech := ms[0].service, ms[0].mech
	if mech.Escalate {
		// The docs say only escalation answers it: keep it as the
		// hand-over, should no match below give a fix to apply.
		if b.handover == "" {
			b.handover = s + ": " + mech.Wording
		}
		b.tryMatches(ms[1:])
		return
	}
	keys := b.mechanismKeys(s, mech)
	if mech.RollBack {
		b.queue = append(b.queue, move{action: "rollback(" + s + ")", write: true,
			cause: s + ": " + mech.Wording, change: "rolled back " + s})
		return
	}
	if len(keys) == 0 {
		b.queue = append(b.queue, move{action: "restart_service(" + s + ")", write: true,
			cause: s + ": " + mech.Wording, change: "restarted " + s})
		return
	}
	apply := func() {
		n := len(b.queue)
		for _, kd := range keys {
			if v, ok := b.configs[s][kd.Name]; ok && b.wrong(kd, v) {
				m := b.reset(s, kd, v)
				m.cause = s + ": " + mech.Wording + " (" + kd.Name + " was " + v + ")"
				b.queue = append(b.queue, m)
			}
		}
		if len(b.queue) == n {
			b.tryMatches(ms[1:])
		}
	}
	if _, ok := b.configs[s]; ok {
		apply()
		return
	}
	b.queue = append(b.queue, move{action: "inspect_config(" + s + ")", reserve: 1})
	b.then = func() {
		if b.lastTool == "inspect_config" && b.lastService == s {
			b.configs[s] = b.config
			apply()
		}
	}
}

// logMatch is a service whose logs match a mechanism's published words.
type logMatch struct {
	service string
	mech    MechanismDoc
	score   float64
}

// mechanismKeys are the config keys of s's kind that a fault called mech
// sets.
func (b *Blind) mechanismKeys(s string, mech MechanismDoc) []KeyDoc {
	var out []KeyDoc
	for _, kd := range b.k.Keys[b.k.ServiceKinds[s]] {
		if mech.Wording != "" && (kd.Mechanism == mech.Wording || kd.Below == mech.Wording || kd.Above == mech.Wording) {
			out = append(out, kd)
		}
	}
	return out
}

// logMatches scores every (service, mechanism of its kind) by the words
// of the service's warning and error lines found in the mechanism's
// published text, each word weighted by how few mechanisms use it and
// twice for an error line; best first, ties to the earlier service and
// mechanism, pairs that match nothing left out.
func (b *Blind) logMatches() []logMatch {
	docs := b.k.words()
	df := map[string]int{} // how many mechanisms' docs each log word matches
	var out []logMatch
	for _, s := range b.intro.Services {
		weight := map[string]float64{}
		var logWords []string
		for _, line := range b.logs[s] {
			w := 1.0
			if strings.HasPrefix(line, "ERROR ") {
				w = 2
			}
			for _, word := range words(line) {
				if _, seen := weight[word]; !seen {
					logWords = append(logWords, word)
				}
				weight[word] = max(weight[word], w)
			}
		}
		kind := b.k.ServiceKinds[s]
		for i, m := range b.k.Mechanisms {
			if !slices.Contains(m.Kinds, kind) {
				continue
			}
			score := 0.0
			for _, w := range logWords {
				if !matchesAny(w, docs[i]) {
					continue
				}
				n, ok := df[w]
				if !ok {
					for _, d := range docs {
						if matchesAny(w, d) {
							n++
						}
					}
					df[w] = n
				}
				score += weight[w] * math.Log(float64(len(docs)+1)/float64(n))
			}
			if score > 0 {
				out = append(out, logMatch{s, m, score})
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].score > out[j].score })
	return out
}

// logLines keeps the WARN and ERROR lines of a logs observation, with
// their level and without their tick and time ("t=38 14:05:12.345 ERROR
// ..."), once each.
func logLines(obs string) []string {
	var out []string
	seen := map[string]bool{}
	for _, line := range strings.Split(obs, "\n") {
		f := strings.Fields(line)
		if len(f) > 1 && strings.HasPrefix(f[0], "t=") && strings.Count(f[1], ":") == 2 {
			f = f[1:]
		}
		if len(f) < 3 || (f[1] != "WARN" && f[1] != "ERROR") {
			continue
		}
		text := strings.Join(f[1:], " ")
		if !seen[text] {
			seen[text] = true
			out = append(out, text)
		}
	}
	return out
}

// words are the content words of a text: lowered, split at anything not
// a letter, words under four letters and common words dropped.
// words are the words of each of k's mechanisms' published text.
func (k *Knowledge) words() [][]string {
	k.mechanismWordsOnce.Do(func() {
		k.mechanismWords = make([][]string, len(k.Mechanisms))
		for i, m := range k.Mechanisms {
			k.mechanismWords[i] = words(m.Text)
		}
	})
	return k.mechanismWords
}

func words(text string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return r < 'a' || r > 'z' }) {
		if len(w) >= 4 && !stopWords[w] {
			out = append(out, w)
		}
	}
	return out
}

var stopWords = map[string]bool{"after": true, "also": true, "been": true, "before": true, "every": true,
	"from": true, "have": true, "into": true, "last": true, "more": true, "most": true, "only": true,
	"over": true, "than": true, "that": true, "their": true, "them": true, "then": true, "there": true,
	"they": true, "this": true, "what": true, "when": true, "which": true, "while": true, "with": true,
	"does": true, "each": true, "some": true, "under": true, "until": true, "were": true, "will": true}

// matchesAny says whether w matches a word of doc: one is a prefix of the
// other (so "pooled" matches "pool", "waiting" matches "wait").
func matchesAny(w string, doc []string) bool {
	for _, d := range doc {
		if strings.HasPrefix(w, d) || strings.HasPrefix(d, w) {
			return true
		}
	}
	return false
}
