package lang

import (
	"bytes"
	"math/rand/v2"
	"testing"

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
	pieces := []string{"a", "bc", " ", "\t", "\n", "\r\n", "é", "e\u0301", "👩‍👩‍👧", "🇫🇷", "\xff", "日本", "{x}", "\n\n"}
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
