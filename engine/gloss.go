package engine

import (
	"slices"
	"strings"

	"github.com/kljensen/snowball/english"

	"github.com/srezc/srezc/value"
)

// Reading a setting named by what it does.
//
// Engineers often name a setting by its function rather than its key: "the
// number of processes the web tier runs to serve requests" is max_workers,
// "how long a delivered job stays hidden from other consumers" is the
// visibility timeout. The stdlib already says what each setting does, in
// its description; the compiler keeps the stems of that description's
// content words as the setting's gloss. A clause that names no setting,
// part or mechanism, but shares at least minGlossOverlap stems with one
// setting's gloss, and more than with any other setting's of the services
// it can be about, names that setting there, as its key would.

// minGlossOverlap is the fewest distinct description stems a clause must
// share with a setting to name it: one word ("requests", "connections") is
// shared by too many settings to say which.
const minGlossOverlap = 2

// glossStopWords are words that say nothing of what a setting does,
// beyond English's own stop words.
var glossStopWords = map[string]bool{
	"whether": true, "also": true, "one": true, "two": true, "three": true, "may": true, "used": true,
	"use": true, "rest": true, "let": true, "lets": true, "set": true, "every": true, "much": true,
	"many": true, "long": true, "get": true, "gets": true, "make": true, "makes": true,
}

// GlossWords are the stems of the content words of description's first
// clause, sorted, each once: the words a setting's gloss is matched by. The
// first clause says what the setting is; what follows ("before it evicts
// keys", "; further connections are refused", "(used during
// migrations)") says what happens, in the words an answer uses for
// symptoms.
func GlossWords(description string) []string {
	first := value.Fold(description)
	if i := strings.IndexAny(first, ";:("); i >= 0 {
		first = first[:i]
	}
	if i := strings.Index(first, " before "); i >= 0 {
		first = first[:i]
	}
	var out []string
	for _, w := range strings.FieldsFunc(first, func(c rune) bool { return !isWordRune(c) }) {
		if s := glossStem(w); s != "" && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	slices.Sort(out)
	return out
}

// glossStem is w's stem, or "" when w is not a content word: a stop word,
// a number, or shorter than three letters.
func glossStem(w string) string {
	if len(w) < 3 || english.IsStopWord(w) || glossStopWords[w] || w[0] >= '0' && w[0] <= '9' {
		return ""
	}
	return english.Stem(w, false)
}

// stem is glossStem of w, remembered so that a warm reader allocates
// nothing: stemming builds strings.
func (r *reader) stem(w []byte) string {
	if s, ok := r.stems[string(w)]; ok {
		return s
	}
	if r.stems == nil || len(r.stems) >= maxRememberedStems {
		r.stems = map[string]string{}
	}
	k := string(w)
	s := glossStem(k)
	r.stems[k] = s
	return s
}

// maxRememberedStems bounds a reader's memory of stems.
const maxRememberedStems = 4096

// glossEntry is a setting a stem belongs to the gloss of: its topic on
// one service.
type glossEntry struct {
	topic int32
	svc   int16
}

// buildGloss indexes the claims' glosses by stem. A service's own name in
// a gloss ("second web backend") needs no care: the answer's service
// names are read as services, never as gloss words.
func (lx *diagLexicon) buildGloss(t *Task) {
	for _, c := range t.Claims {
		if len(c.Gloss) == 0 || len(c.Topics) == 0 {
			continue
		}
		e := glossEntry{topic: lx.topicID[c.Topics[0]], svc: c.Service}
		for _, s := range c.Gloss {
			if lx.gloss == nil {
				lx.gloss = map[string][]glossEntry{}
			}
			if !slices.Contains(lx.gloss[s], e) {
				lx.gloss[s] = append(lx.gloss[s], e)
			}
		}
	}
}

// glossTopics adds, to each clause that names no setting, part or
// mechanism, the setting its words describe, as a topic item at the first
// word they share with its gloss.
func (r *reader) glossTopics(lx *diagLexicon, fixed int16) {
	if len(lx.gloss) == 0 {
		return
	}
	n := len(lx.topics)
	if cap(r.glossScore) < n {
		r.glossScore, r.glossFirst, r.glossMark = make([]uint8, n), make([]int32, n), make([]int32, n)
	}
	score, first, mark := r.glossScore[:n], r.glossFirst[:n], r.glossMark[:n]
	info := r.tokInfo
	if len(info) == 0 {
		return
	}
	// named[cl]: clause cl names a setting, a part or a mechanism, denies
	// something, or gives a quantity (which the reader reads by its unit:
	// "only accept 20 connections").
	named := resize(r.glossNamed, int(info[len(info)-1].cl)+1)
	r.glossNamed = named
	for _, it := range r.items {
		if it.cl < len(named) && (it.kind == lexTopic || it.kind == lexMech || it.kind == lexNeg || it.neg || it.kind == lexNumber && it.dim != dimNone) {
			named[it.cl] = true
		}
	}
	for a := 0; a < len(info); {
		b := a
		for b < len(info) && info[b].cl == info[a].cl {
			b++
		}
		cl, seg := info[a].cl, info[a].seg
		if named[cl] || info[a].neg || info[a].eff {
			a = b
			continue
		}
		r.glossStems = r.glossStems[:0]
		touched := r.glossTouched[:0]
		for i := a; i < b; i++ {
			tk := r.toks[i]
			if tk.punct != 0 || info[i].covered || info[i].neg || info[i].eff {
				continue
			}
			s := r.stem(r.norm[tk.start:tk.end])
			if s == "" || slices.Contains(r.glossStems, s) {
				continue
			}
			r.glossStems = append(r.glossStems, s)
			// mark[topic] is the last stem counted for it, so a setting
			// described on two services counts a stem once.
			stem := int32(len(r.glossStems))
			for _, e := range lx.gloss[s] {
				if mark[e.topic] == stem || !r.glossMayBeAbout(e.svc, seg, fixed) {
					continue
				}
				mark[e.topic] = stem
				if score[e.topic] == 0 {
					first[e.topic] = int32(i)
					touched = append(touched, e.topic)
				}
				score[e.topic]++
			}
		}
		best, second := int32(-1), uint8(0)
		for _, id := range touched {
			switch sc := score[id]; {
			case best < 0 || sc > score[best]:
				if best >= 0 {
					second = score[best]
				}
				best = id
			case sc > second:
				second = sc
			}
		}
		top := uint8(0)
		if best >= 0 {
			top = score[best]
		}
		// Leave score and mark clear for the next clause.
		for _, id := range touched {
			score[id], mark[id] = 0, 0
		}
		r.glossTouched = touched
		if top >= minGlossOverlap && top > second {
			r.insertTopic(int(first[best]), best)
		}
		a = b
	}
}

// glossMayBeAbout reports whether a setting of svc can be what a clause
// of segment seg describes: the stated cause's service, else a service
// the segment names, else, when it names none, any.
func (r *reader) glossMayBeAbout(svc int16, seg int32, fixed int16) bool {
	if fixed >= 0 {
		return svc == fixed
	}
	if int(seg) < len(r.heads) && r.heads[seg] >= 0 {
		return svc == r.heads[seg]
	}
	named := false
	for _, it := range r.items {
		if it.seg == int(seg) && it.kind == lexService && !it.callee && !it.neg {
			if int16(it.id) == svc {
				return true
			}
			named = true
		}
	}
	return !named
}

// insertTopic adds a topic item for setting id at token i, which the
// answer names by other words than the setting's own.
func (r *reader) insertTopic(i int, id int32) {
	info := r.tokInfo[i]
	it := item{kind: lexTopic, id: id, pos: int(info.word), end: int(info.word), seg: int(info.seg), cl: int(info.cl), neg: info.neg, eff: info.eff, tok: int32(i), unitTok: -1}
	at, _ := slices.BinarySearchFunc(r.items, it.pos, func(x item, pos int) int { return x.pos - pos })
	r.items = slices.Insert(r.items, at, it)
	r.tokInfo[i].covered = true
}
