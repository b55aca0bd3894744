package lsp

import (
	"math/rand/v2"
	"testing"

	"github.com/srezc/srezc/lang"
)

// assistAll runs every request that reads a document at an offset, on a
// document state an editor can produce mid-typing, with the module and
// index of its analysis. None may panic.
func assistAll(m *lang.Module, ix *lang.Index, file, text string, off int) {
	completion(m, text, off)
	hover(m, ix, file, text, off)
	hover(m, nil, file, text, off)
	for _, o := range ix.At(file, off) {
		ix.Definitions(o.Symbol)
		ix.References(o.Symbol, true)
	}
	ix.Rename(file, off, "renamed")
	nameAt(text, off)
	positionOf(text, off)
	offsetOf(text, positionOf(text, off))
	lang.Format("doc.srez.hcl", []byte(text))
	lang.CursorAt([]byte(text), off)
}

// TestMidTypingStates: every shipped scenario, cut at random points and
// with random text typed into it (seeded), gets an answer from every
// request at every cut, and its analysis finishes.
func TestMidTypingStates(t *testing.T) {
	m, _ := lang.Analyze(nil)
	rng := rand.New(rand.NewPCG(1, 2))
	typed := []string{"{", "}", `"`, "=", "\n", "fault \"", "target = \"", "é🚀", "[", "]", ",", "#"}
	for _, f := range lang.ScenarioFiles() {
		src := string(f.Src)
		for k := 0; k < 6; k++ {
			cut := rng.IntN(len(src) + 1)
			state := src[:cut] + typed[rng.IntN(len(typed))] + src[cut:]
			if k%3 == 0 {
				state = src[:cut] // the file being written from the top
			}
			sm, _ := lang.Analyze([]*lang.File{{Name: f.Name, Src: []byte(state)}})
			ix := lang.NewIndex(sm)
			for _, off := range []int{0, cut, len(state) / 2, len(state)} {
				assistAll(m, ix, f.Name, state, min(off, len(state)))
				assistAll(sm, ix, f.Name, state, min(off, len(state)))
			}
		}
	}
}

// FuzzAssist: no document and offset make a request panic.
func FuzzAssist(f *testing.F) {
	for _, sf := range lang.ScenarioFiles()[:5] {
		f.Add(sf.Src, uint16(len(sf.Src)/2))
	}
	// The module is the stdlib's, analysed once, so an input costs what a
	// keystroke's requests do (TestMidTypingStates indexes broken files).
	m, _ := lang.Analyze(nil)
	ix := lang.NewIndex(m)
	f.Fuzz(func(t *testing.T, src []byte, at uint16) {
		off := int(at)
		if off > len(src) {
			off = len(src)
		}
		assistAll(m, ix, "doc.srez.hcl", string(src), off)
	})
}
