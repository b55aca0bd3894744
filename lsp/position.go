package lsp

import (
	"unicode/utf16"
	"unicode/utf8"

	"go.lsp.dev/protocol"

	"github.com/srezc/srezc/lang"
)

// LSP counts columns in UTF-16 code units; lang counts bytes. Every
// conversion goes through a byte offset into the document's text.

// offsetOf is the byte offset of an LSP position in text, clamped to the
// line's end and the text's end.
func offsetOf(text string, p protocol.Position) int {
	off, line := 0, uint32(0)
	for line < p.Line {
		i := indexByte(text[off:], '\n')
		if i < 0 {
			return len(text)
		}
		off += i + 1
		line++
	}
	units := uint32(0)
	for off < len(text) && text[off] != '\n' && units < p.Character {
		r, size := utf8.DecodeRuneInString(text[off:])
		n := uint32(utf16.RuneLen(r))
		if r == utf8.RuneError && size == 1 || n == 0xffffffff {
			n = 1
		}
		if units+n > p.Character {
			break
		}
		units += n
		off += size
	}
	return off
}

// positionOf is the LSP position of a byte offset in text.
func positionOf(text string, off int) protocol.Position {
	if off > len(text) {
		off = len(text)
	}
	if off < 0 {
		off = 0
	}
	line, start := uint32(0), 0
	for i := 0; i < off; i++ {
		if text[i] == '\n' {
			line++
			start = i + 1
		}
	}
	units := uint32(0)
	for i := start; i < off; {
		r, size := utf8.DecodeRuneInString(text[i:])
		n := utf16.RuneLen(r)
		if n < 0 {
			n = 1
		}
		units += uint32(n)
		i += size
	}
	return protocol.Position{Line: line, Character: units}
}

func toRange(text string, r lang.Range) protocol.Range {
	return protocol.Range{Start: positionOf(text, r.Start.Byte), End: positionOf(text, r.End.Byte)}
}

func endOf(text string) protocol.Position { return positionOf(text, len(text)) }

func indexByte(s string, c byte) int {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return i
		}
	}
	return -1
}

// nameAt is the name around a byte offset: the word of letters, digits,
// '_' and '-' the offset touches.
func nameAt(text string, off int) string {
	if off < 0 || off > len(text) {
		return ""
	}
	isName := func(c byte) bool {
		return c == '_' || c == '-' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
	}
	start, end := off, off
	for start > 0 && isName(text[start-1]) {
		start--
	}
	for end < len(text) && isName(text[end]) {
		end++
	}
	return text[start:end]
}
