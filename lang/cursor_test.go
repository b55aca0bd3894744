package lang

import (
	"reflect"
	"strings"
	"testing"
)

// TestCursorInItsBlock: locating the cursor by parsing only the top-level
// block around it gives what a parse of the whole document gives, at
// every few bytes of shipped files put together.
func TestCursorInItsBlock(t *testing.T) {
	var b strings.Builder
	for _, f := range ScenarioFiles()[:3] {
		b.Write(f.Src)
	}
	for _, f := range StdlibFiles() {
		if strings.HasSuffix(f.Name, "noise.srez.hcl") {
			b.Write(f.Src)
		}
	}
	src := []byte(b.String())
	for off := 0; off <= len(src); off += 7 {
		if got, want := CursorAt(src, off), cursorIn(src, off); !reflect.DeepEqual(got, want) {
			t.Fatalf("at %d (%q): %+v, a whole parse says %+v", off, src[max(0, off-20):off], got, want)
		}
	}
}

// TestCursorMidTyping: a block being typed, with blocks after it, is the
// cursor's block, and the blocks after it are still found.
func TestCursorMidTyping(t *testing.T) {
	doc := "incident \"a\" {\n  fault \"\" {\n\nnoise_pattern \"n\" {\n  effect = \"spike\"\n}\n"
	c := CursorAt([]byte(doc), strings.Index(doc, `fault "`)+len(`fault "`))
	if c.BlockType() != "fault" || c.Label != 0 || c.Blocks[0].Type != "incident" {
		t.Errorf("in the fault label being typed: %+v", c)
	}
	c = CursorAt([]byte(doc), strings.Index(doc, "effect")+2)
	if c.BlockType() != "noise_pattern" || c.Attr != "effect" || c.InValue {
		t.Errorf("in the block after it: %+v", c)
	}
	if c := CursorAt([]byte(doc), 2); !c.Keyword || c.BlockType() != "incident" {
		t.Errorf("on the keyword: %+v", c)
	}
	for _, off := range []int{-1, 0, len(doc), len(doc) + 5} {
		CursorAt([]byte(doc), off)
	}
}
