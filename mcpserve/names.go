package mcpserve

import (
	"strings"
	"unicode"
)

// MaxName bounds an agent's name in runes.
const MaxName = 64

// CleanName is a client's self-chosen name made safe for the operator's
// log and for records (and so summary.md): control characters, bidi
// controls and other invisible format characters become '?', which
// could otherwise rewrite a terminal line or reorder a report's text;
// the name is cut at MaxName runes.
func CleanName(name string) string {
	var b strings.Builder
	n := 0
	for _, r := range name {
		if n == MaxName {
			b.WriteString("…")
			break
		}
		if unsafeRune(r) {
			r = '?'
		}
		b.WriteRune(r)
		n++
	}
	return b.String()
}

// NameProblem says why an operator's name for an agent (--as) cannot be
// used as it is, or "" when it can.
func NameProblem(name string) string {
	for _, r := range name {
		if unsafeRune(r) {
			return "holds a control, bidi or invisible character"
		}
	}
	if len([]rune(name)) > MaxName {
		return "is longer than 64 characters"
	}
	return ""
}

func unsafeRune(r rune) bool {
	return r == unicode.ReplacementChar || unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) || unicode.Is(unicode.Cf, r) ||
		unicode.Is(unicode.Zl, r) || unicode.Is(unicode.Zp, r)
}
