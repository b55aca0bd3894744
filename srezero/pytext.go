package srezero

import (
	"unicode"
	"unicode/utf8"

	"github.com/srezc/srezc/value"
)

// Python's str.upper(), str.lower() and str.split() for the sre_zero
// grader, which compares upper-cased config keys and normalised free text
// exactly as the reference does. Go's unicode tables give the same simple
// case mappings as CPython 3.11 (Unicode 14) for every character; Python
// differs only where the full mapping of SpecialCasing.txt has more than one
// character ("ß".upper() == "SS", "ﬁ".upper() == "FI", "İ".lower() ==
// "i̇"), and in counting U+001C..U+001F as whitespace.
//
// Not reproduced: lower()'s Final_Sigma rule (a word-final "Σ" lowers to
// "ς", not "σ"). It changes only Greek text, which no needle holds.

// appendPyUpper appends s.upper() to dst.
func appendPyUpper(dst []byte, s string) []byte {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 'a' && c <= 'z' {
				c -= 'a' - 'A'
			}
			dst = append(dst, c)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			// Not UTF-8: Python strings cannot hold it; keep the byte.
			dst = append(dst, c)
			i++
			continue
		}
		if full, ok := pyUpperSpecial(r); ok {
			dst = append(dst, full...)
		} else {
			dst = utf8.AppendRune(dst, unicode.ToUpper(r))
		}
		i += size
	}
	return dst
}

// pyUpperSpecial is the multi-character upper-case mapping of r, if any.
func pyUpperSpecial(r rune) (string, bool) {
	lo, hi := 0, len(pyUpperFull)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if pyUpperFull[m].r < r {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(pyUpperFull) && pyUpperFull[lo].r == r {
		return pyUpperFull[lo].s, true
	}
	return "", false
}

// pyUpperFull lists, sorted, every character whose Python 3.11 upper() is
// longer than one character (generated from CPython's unicodedata 14.0.0).
var pyUpperFull = [...]struct {
	r rune
	s string
}{
	{0x00DF, "SS"}, {0x0149, "\u02BCN"}, {0x01F0, "J\u030C"}, {0x0390, "\u0399\u0308\u0301"},
	{0x03B0, "\u03A5\u0308\u0301"}, {0x0587, "\u0535\u0552"}, {0x1E96, "H\u0331"}, {0x1E97, "T\u0308"},
	{0x1E98, "W\u030A"}, {0x1E99, "Y\u030A"}, {0x1E9A, "A\u02BE"}, {0x1F50, "\u03A5\u0313"},
	{0x1F52, "\u03A5\u0313\u0300"}, {0x1F54, "\u03A5\u0313\u0301"}, {0x1F56, "\u03A5\u0313\u0342"}, {0x1F80, "\u1F08\u0399"},
	{0x1F81, "\u1F09\u0399"}, {0x1F82, "\u1F0A\u0399"}, {0x1F83, "\u1F0B\u0399"}, {0x1F84, "\u1F0C\u0399"},
	{0x1F85, "\u1F0D\u0399"}, {0x1F86, "\u1F0E\u0399"}, {0x1F87, "\u1F0F\u0399"}, {0x1F88, "\u1F08\u0399"},
	{0x1F89, "\u1F09\u0399"}, {0x1F8A, "\u1F0A\u0399"}, {0x1F8B, "\u1F0B\u0399"}, {0x1F8C, "\u1F0C\u0399"},
	{0x1F8D, "\u1F0D\u0399"}, {0x1F8E, "\u1F0E\u0399"}, {0x1F8F, "\u1F0F\u0399"}, {0x1F90, "\u1F28\u0399"},
	{0x1F91, "\u1F29\u0399"}, {0x1F92, "\u1F2A\u0399"}, {0x1F93, "\u1F2B\u0399"}, {0x1F94, "\u1F2C\u0399"},
	{0x1F95, "\u1F2D\u0399"}, {0x1F96, "\u1F2E\u0399"}, {0x1F97, "\u1F2F\u0399"}, {0x1F98, "\u1F28\u0399"},
	{0x1F99, "\u1F29\u0399"}, {0x1F9A, "\u1F2A\u0399"}, {0x1F9B, "\u1F2B\u0399"}, {0x1F9C, "\u1F2C\u0399"},
	{0x1F9D, "\u1F2D\u0399"}, {0x1F9E, "\u1F2E\u0399"}, {0x1F9F, "\u1F2F\u0399"}, {0x1FA0, "\u1F68\u0399"},
	{0x1FA1, "\u1F69\u0399"}, {0x1FA2, "\u1F6A\u0399"}, {0x1FA3, "\u1F6B\u0399"}, {0x1FA4, "\u1F6C\u0399"},
	{0x1FA5, "\u1F6D\u0399"}, {0x1FA6, "\u1F6E\u0399"}, {0x1FA7, "\u1F6F\u0399"}, {0x1FA8, "\u1F68\u0399"},
	{0x1FA9, "\u1F69\u0399"}, {0x1FAA, "\u1F6A\u0399"}, {0x1FAB, "\u1F6B\u0399"}, {0x1FAC, "\u1F6C\u0399"},
	{0x1FAD, "\u1F6D\u0399"}, {0x1FAE, "\u1F6E\u0399"}, {0x1FAF, "\u1F6F\u0399"}, {0x1FB2, "\u1FBA\u0399"},
	{0x1FB3, "\u0391\u0399"}, {0x1FB4, "\u0386\u0399"}, {0x1FB6, "\u0391\u0342"}, {0x1FB7, "\u0391\u0342\u0399"},
	{0x1FBC, "\u0391\u0399"}, {0x1FC2, "\u1FCA\u0399"}, {0x1FC3, "\u0397\u0399"}, {0x1FC4, "\u0389\u0399"},
	{0x1FC6, "\u0397\u0342"}, {0x1FC7, "\u0397\u0342\u0399"}, {0x1FCC, "\u0397\u0399"}, {0x1FD2, "\u0399\u0308\u0300"},
	{0x1FD3, "\u0399\u0308\u0301"}, {0x1FD6, "\u0399\u0342"}, {0x1FD7, "\u0399\u0308\u0342"}, {0x1FE2, "\u03A5\u0308\u0300"},
	{0x1FE3, "\u03A5\u0308\u0301"}, {0x1FE4, "\u03A1\u0313"}, {0x1FE6, "\u03A5\u0342"}, {0x1FE7, "\u03A5\u0308\u0342"},
	{0x1FF2, "\u1FFA\u0399"}, {0x1FF3, "\u03A9\u0399"}, {0x1FF4, "\u038F\u0399"}, {0x1FF6, "\u03A9\u0342"},
	{0x1FF7, "\u03A9\u0342\u0399"}, {0x1FFC, "\u03A9\u0399"}, {0xFB00, "FF"}, {0xFB01, "FI"},
	{0xFB02, "FL"}, {0xFB03, "FFI"}, {0xFB04, "FFL"}, {0xFB05, "ST"},
	{0xFB06, "ST"}, {0xFB13, "\u0544\u0546"}, {0xFB14, "\u0544\u0535"}, {0xFB15, "\u0544\u053B"},
	{0xFB16, "\u054E\u0546"}, {0xFB17, "\u0544\u053D"},
}

// appendNormalized appends the reference's normalize_text(s) to dst:
// " ".join(s.lower().replace("_", " ").replace("-", " ").split()).
func appendNormalized(dst []byte, s string) []byte {
	start := len(dst)
	// space is true while a separator is pending: one space is written
	// before the next word, never at the start or the end.
	space := false
	word := func(dst []byte) []byte {
		if space && len(dst) > start {
			dst = append(dst, ' ')
		}
		space = false
		return dst
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			if c == '_' || c == '-' || value.IsPySpace(rune(c)) {
				space = true
				continue
			}
			if c >= 'A' && c <= 'Z' {
				c += 'a' - 'A'
			}
			dst = append(word(dst), c)
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(word(dst), c)
		case value.IsPySpace(r):
			space = true
		case r == 'İ':
			// The one character whose lower() is two: "i" and a
			// combining dot above.
			dst = append(word(dst), "i\u0307"...)
		default:
			dst = utf8.AppendRune(word(dst), unicode.ToLower(r))
		}
	}
	return dst
}
