package lsp

import (
	"testing"

	"go.lsp.dev/protocol"
)

// TestPositions: LSP columns count UTF-16 code units (an astral emoji is
// two, "é" one), lang's count bytes; conversions round-trip on every
// character boundary.
func TestPositions(t *testing.T) {
	text := "ab\n  log = \"café 🚀 ok\"\n\nlast"
	cases := []struct {
		off int
		pos protocol.Position
	}{
		{0, protocol.Position{Line: 0, Character: 0}},
		{3, protocol.Position{Line: 1, Character: 0}},
		{17, protocol.Position{Line: 1, Character: 13}},       // after "café" (é: 2 bytes, 1 unit)
		{22, protocol.Position{Line: 1, Character: 16}},       // after "🚀" (4 bytes, 2 units)
		{len(text), protocol.Position{Line: 3, Character: 4}}, // the end
		{len("ab\n  log = \"café 🚀 ok\"\n"), protocol.Position{Line: 2}},
	}
	for _, c := range cases {
		if got := positionOf(text, c.off); got != c.pos {
			t.Errorf("positionOf(%d) = %+v, want %+v", c.off, got, c.pos)
		}
		if got := offsetOf(text, c.pos); got != c.off {
			t.Errorf("offsetOf(%+v) = %d, want %d", c.pos, got, c.off)
		}
	}
	// Past a line's end clamps to it; past the text, to its end.
	if got := offsetOf(text, protocol.Position{Line: 0, Character: 99}); got != 2 {
		t.Errorf("clamp to line end: %d", got)
	}
	if got := offsetOf(text, protocol.Position{Line: 99}); got != len(text) {
		t.Errorf("clamp to text end: %d", got)
	}
	// Every character boundary round-trips.
	for off := range text {
		if got := offsetOf(text, positionOf(text, off)); got != off {
			t.Errorf("round trip at %d gives %d", off, got)
		}
	}
}
