package runtime

import (
	"sort"
	"strings"
)

// prepared is what every episode of a task derives from it and never
// changes: the incremental-tick index, the noise keys and the vocabulary's
// phrase index. Prepare computes
// it once; episodes of a prepared task share it instead of each deriving
// its own, which cost more than playing a short episode.
type prepared struct {
	deps                depIndex
	slotKey, serviceKey []uint64
	// mechanisms and components index the vocabulary's phrases by their
	// first word, for the grader.
	mechanisms, components phraseIndex
	// of identifies the program it was derived from, so a copy of the task
	// whose program was changed does not use it.
	of progID
}

type progID struct {
	code                *Op
	updates             *Assign
	slots               *Slot
	nCode, nUpd, nSlots int
}

func progOf(t *Task) progID {
	id := progID{nCode: len(t.Code), nUpd: len(t.Updates), nSlots: len(t.Slots)}
	if len(t.Code) > 0 {
		id.code = &t.Code[0]
	}
	if len(t.Updates) > 0 {
		id.updates = &t.Updates[0]
	}
	if len(t.Slots) > 0 {
		id.slots = &t.Slots[0]
	}
	return id
}

// Prepare derives t's shared episode data. Call it once the program is
// final and before episodes run concurrently (the compiler and DecodeTask
// do); it is not safe to call while episodes of t are being created.
func (t *Task) Prepare() {
	if t.prepared != nil && t.prepared.of == progOf(t) {
		return
	}
	t.prepared = prepare(t)
}

func prepare(t *Task) *prepared {
	p := &prepared{deps: buildDeps(t), of: progOf(t)}
	p.slotKey, p.serviceKey = noiseKeys(t)
	p.mechanisms, p.components = indexPhrases(t.Mechanisms), indexPhrases(t.Components)
	return p
}

// preparedFor returns t's shared data, deriving it afresh when t was not
// prepared or its program changed since.
func preparedFor(t *Task) *prepared {
	if p := t.prepared; p != nil && p.of == progOf(t) {
		return p
	}
	return prepare(t)
}

// phraseIndex maps a first word to the phrases starting with it, longest
// first, each with its term's index.
type phraseIndex map[string][]phraseRef

type phraseRef struct {
	term   int32
	phrase string
}

func indexPhrases(terms []Term) phraseIndex {
	idx := phraseIndex{}
	for i, term := range terms {
		for _, p := range term.Phrases {
			if p == "" {
				continue
			}
			first, _, _ := strings.Cut(p, " ")
			idx[first] = append(idx[first], phraseRef{int32(i), p})
		}
	}
	for _, refs := range idx {
		sort.SliceStable(refs, func(a, b int) bool { return len(refs[a].phrase) > len(refs[b].phrase) })
	}
	return idx
}
