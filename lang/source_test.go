package lang

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/agext/levenshtein"

	"github.com/apparentlymart/go-textseg/v15/textseg"
)

// naivePos is the position mapping the line index replaced: it counts
// from the start of the file for each offset.
func naivePos(src []byte, off int) Pos {
	line := 1 + bytes.Count(src[:off], []byte{'\n'})
	seg := src[bytes.LastIndexByte(src[:off], '\n')+1 : off]
	col := 1
	for len(seg) > 0 {
		adv, _, err := textseg.ScanGraphemeClusters(seg, true)
		if err != nil || adv <= 0 {
			adv = 1
		}
		seg = seg[adv:]
		col++
	}
	return Pos{Line: line, Column: col, Byte: off}
}

// TestLineIndex: the index gives the same line and column as counting
// from the start, at every offset that starts a grapheme cluster, over
// ASCII, accents written as combining marks, emoji with joiners, flags,
// CR LF, tabs and invalid UTF-8.
func TestLineIndex(t *testing.T) {
	pieces := []string{"a", "bc", " ", "\t", "\n", "\r\n", "é", "e\u0301", "👩‍👩‍👧", "🇫🇷", "\xff", "日本", "{x}", "\n\n",
		"\r", "\u0301", "#\ufe0f\u20e3", "x\u200d", "\xcc"}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		var b bytes.Buffer
		for range rng.IntN(60) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		src := b.Bytes()
		idx := newLineIndex(src)
		for off := 0; off <= len(src); off++ {
			naive := naivePos(src, off)
			got := idx.pos(src, off)
			boundary := off == len(src) || src[off] == '\n' || off == 0 || src[off-1] == '\n'
			if !boundary {
				// Only compare where a cluster starts: inside one, the
				// old count depended on how the cut bytes segmented.
				line := src[bytes.LastIndexByte(src[:off], '\n')+1:]
				for p := 0; p < len(line); {
					adv, _, _ := textseg.ScanGraphemeClusters(line[p:], true)
					if adv <= 0 {
						adv = 1
					}
					if len(src)-len(line)+p == off {
						boundary = true
					}
					p += adv
				}
			}
			if boundary && got != naive {
				t.Fatalf("%q at %d: got %+v, want %+v", src, off, got, naive)
			}
		}
	}
}

// sortedSuggest is the suggestion as first written: every distance in
// full, over the sorted candidates.
func sortedSuggest(name string, candidates []string) string {
	sorted := append([]string(nil), candidates...)
	sort.Strings(sorted)
	best, bestD := "", 1<<30
	for _, c := range sorted {
		if d := levenshtein.Distance(name, c, nil); d < bestD {
			best, bestD = c, d
		}
	}
	limit := 2
	if len(name) >= 9 {
		limit = 3
	}
	if bestD <= limit {
		return best
	}
	return ""
}

// TestSuggestBoundedAgrees: cutting distances short and skipping
// candidates by length picks what the full computation picks, ties and
// non-ASCII names included.
func TestSuggestBoundedAgrees(t *testing.T) {
	letters := []string{"a", "b", "c", "_", "é", "日", "x"}
	rng := rand.New(rand.NewPCG(3, 4))
	word := func() string {
		var b strings.Builder
		for range rng.IntN(12) {
			b.WriteString(letters[rng.IntN(len(letters))])
		}
		return b.String()
	}
	for range 20000 {
		name := word()
		candidates := make([]string, rng.IntN(8))
		for i := range candidates {
			candidates[i] = word()
			if rng.IntN(3) == 0 && len(name) > 0 {
				// A near miss of name.
				r := []rune(name)
				r[rng.IntN(len(r))] = 'z'
				candidates[i] = string(r)
			}
		}
		if got, want := suggest(name, candidates), sortedSuggest(name, candidates); got != want {
			t.Fatalf("suggest(%q, %q) = %q, want %q", name, candidates, got, want)
		}
	}
}

// TestLineClustersAsTextseg: a line's clusters, found with a shortcut
// between ASCII bytes, are those textseg gives, over random bytes.
func TestLineClustersAsTextseg(t *testing.T) {
	alphabet := []byte("ab \t\r\n#*09\x80\xcc\x81\xe2\x80\x8d\xef\xb8\x8f\xff")
	rng := rand.New(rand.NewPCG(5, 6))
	for range 3000 {
		src := make([]byte, rng.IntN(40))
		for i := range src {
			src[i] = alphabet[rng.IntN(len(alphabet))]
		}
		idx := newLineIndex(src)
		for line, start := range idx.starts {
			end := len(src)
			if line+1 < len(idx.starts) {
				end = idx.starts[line+1] - 1
			}
			var want []int
			if !isASCII(src[start:end]) {
				for off := start; off < end; {
					want = append(want, off)
					adv, _, err := textseg.ScanGraphemeClusters(src[off:end], true)
					if err != nil || adv <= 0 {
						adv = 1
					}
					off += adv
				}
			}
			if got := idx.lineClusters(src, line); !slices.Equal(got, want) {
				t.Fatalf("%q line %d: clusters %v, want %v", src, line, got, want)
			}
		}
	}
}
