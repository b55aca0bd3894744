package engine

import (
	"math/rand/v2"
	"testing"
)

// TestTypoLookupMatchesLinearScan: the length-bucketed lookup returns what
// a scan of every long word in sorted order returns, for words one, two
// or no edits away from lexicon words and for unrelated ones.
func TestTypoLookupMatchesLinearScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	letters := "abcdeilnorst"
	// Words of neighbouring lengths that both match: the sorted order's
	// first wins.
	lx := &diagLexicon{long: []string{"certificates", "certificate"}}
	lx.indexLong()
	if got := lx.typoOf([]byte("certificatex")); got != "certificate" {
		t.Fatalf("typoOf(certificatex) = %q, want certificate", got)
	}
	word := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = letters[rng.IntN(len(letters))]
		}
		return string(b)
	}
	linear := func(lx *diagLexicon, w []byte) string {
		if len(w) < minTypoLen-1 {
			return ""
		}
		for _, k := range lx.long {
			if d := len(k) - len(w); d >= -1 && d <= 1 && oneTypo(w, k) {
				return k
			}
		}
		return ""
	}
	edit := func(w string) string {
		b := []byte(w)
		switch i := rng.IntN(len(b)); rng.IntN(4) {
		case 0:
			b[i] = letters[rng.IntN(len(letters))]
		case 1:
			b = append(b[:i], b[i+1:]...)
		case 2:
			b = append(b[:i], append([]byte{letters[rng.IntN(len(letters))]}, b[i:]...)...)
		default:
			if i+1 < len(b) {
				b[i], b[i+1] = b[i+1], b[i]
			}
		}
		return string(b)
	}
	matched := 0
	for round := 0; round < 200; round++ {
		// A two-letter alphabet makes words of neighbouring lengths
		// match the same query.
		letters = "abcdeilnorst"
		if round%2 == 0 {
			letters = "ab"
		}
		lx := &diagLexicon{}
		for i := 0; i < 40; i++ {
			lx.long = append(lx.long, word(minTypoLen+rng.IntN(5)))
		}
		lx.indexLong()
		for q := 0; q < 200; q++ {
			w := lx.long[rng.IntN(len(lx.long))]
			for e := rng.IntN(3); e > 0; e-- {
				w = edit(w)
			}
			if rng.IntN(5) == 0 {
				w = word(minTypoLen - 2 + rng.IntN(8))
			}
			got, want := lx.typoOf([]byte(w)), linear(lx, []byte(w))
			if got != want {
				t.Fatalf("typoOf(%q) = %q, the scan finds %q", w, got, want)
			}
			if got != "" {
				matched++
			}
		}
	}
	if matched < 1000 {
		t.Fatalf("only %d of 40000 queries matched a word: the test does not exercise the lookup", matched)
	}
}
