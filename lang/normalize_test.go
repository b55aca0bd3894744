package lang

import "testing"

// TestNormalizePhraseFastPathsAgree checks the ASCII paths of
// NormalizePhrase against its general rune path.
func TestNormalizePhraseFastPathsAgree(t *testing.T) {
	for _, s := range []string{
		"", " ", "  ", "a", "A", "pool size", "pool  size", " pool size ", "Pool_Size", "max-connections=100",
		"connection refused", "ERROR: too many clients", "x-max-length", "a\tb\nc", "9 9", "__", "a ", " a",
		"Ünïcode Straße", "ΣΊΣΥΦΟΣ", "İstanbul", "mixed ascii and é", "\xff bad utf8",
	} {
		if got, want := NormalizePhrase(s), normalizePhraseRunes(s); got != want {
			t.Errorf("NormalizePhrase(%q) = %q, the rune path gives %q", s, got, want)
		}
	}
}
