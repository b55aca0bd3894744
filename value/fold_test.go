package value

import (
	"testing"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
)

// Two runes must fold alike exactly when Unicode says they are the same
// letter: when they share an orbit of unicode.SimpleFold (Go's case
// pairs) or x/text's cases.Fold (the CaseFolding table) folds them to the
// same single rune. The Turkish i's are the documented exception, read as
// plain i.
func TestFoldRuneMatchesUnicodeCaseFolding(t *testing.T) {
	parent := map[rune]rune{}
	var find func(rune) rune
	find = func(r rune) rune {
		p, ok := parent[r]
		if !ok || p == r {
			return r
		}
		root := find(p)
		parent[r] = root
		return root
	}
	union := func(a, b rune) {
		if ra, rb := find(a), find(b); ra != rb {
			parent[ra] = rb
		}
	}
	folder := cases.Fold()
	skip := func(r rune) bool { return !utf8.ValidRune(r) || r == 'İ' || r == 'ı' }
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if skip(r) {
			continue
		}
		for o := unicode.SimpleFold(r); o != r; o = unicode.SimpleFold(o) {
			if !skip(o) {
				union(r, o)
			}
		}
		if f := []rune(folder.String(string(r))); len(f) == 1 && !skip(f[0]) {
			union(r, f[0])
		}
	}
	folded := map[rune]rune{} // class → our fold of its first rune
	owner := map[rune]rune{}  // our fold → class
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if skip(r) {
			continue
		}
		class, got := find(r), FoldRune(r)
		if prev, ok := folded[class]; ok && prev != got {
			t.Fatalf("%U %q folds to %q, another rune of its class to %q", r, r, got, prev)
		}
		folded[class] = got
		if c, ok := owner[got]; ok && c != class {
			t.Fatalf("%U %q folds to %q, as does a rune of another class (%q)", r, r, got, c)
		}
		owner[got] = class
	}
}

func TestFoldNonASCIICapitals(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"İNDEX", "index"},
		{"ÜBER DIE DATENBANK", "über die datenbank"},
		{"ΣΟΦΊΑΣ", "σοφίασ"},
		{"σοφίας", "σοφίασ"},
		{"\u212aELVIN", "kelvin"}, // Kelvin sign
		{"ÅNGSTRÖM", "ångström"},
		{"ДИСК ПОЛОН", "диск полон"},
		{"pool_size", "pool_size"},
		{"Straße", "straße"}, // never one rune into two
	} {
		if got := Fold(c.in); got != c.want {
			t.Errorf("Fold(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestFoldOfASCIILowerIsFree(t *testing.T) {
	s := "the database ran out of connections"
	if n := testing.AllocsPerRun(100, func() { _ = Fold(s) }); n != 0 {
		t.Errorf("Fold of lower-case ASCII allocates %v times", n)
	}
}
