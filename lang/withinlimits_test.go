package lang

import (
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// overLimitsTricky are files over a limit whose excess a byte scan that
// read HCL's lexing loosely would miss: each fails if withinLimits clears
// it.
var overLimitsTricky = map[string]string{
	// Braces in a string close nothing.
	"braces in a string": "x {\n  a = \"" + strings.Repeat("}", 70) + "\"\n" + strings.Repeat("y {\n", MaxNestingDepth) + strings.Repeat("}\n", MaxNestingDepth) + "}\n",
	// A lone lead byte takes the ASCII after it into a name: no brace.
	"lead byte before a brace": strings.Repeat("x {\xc9}\n", MaxNestingDepth+1),
	// ... and a space into a name.
	"lead byte in a name": "a = " + strings.Repeat("a", MaxNameBytes/2) + "\xc9 " + strings.Repeat("a", MaxNameBytes/2) + "\n",
	// ... and a comma or a newline, which so resets no operator.
	"lead byte before commas":   "a = [1" + strings.Repeat(" + x\xc9,1", MaxNestingDepth+1) + "]\n",
	"lead byte before newlines": "a = 1" + strings.Repeat(" + x\xc9\n1", MaxNestingDepth+1) + "\n",
	// "~}" is a template sequence's end, not a brace.
	"tilde braces": strings.Repeat("x {~}\n", MaxNestingDepth+1),
	// A comment takes its newline, which so resets no operator.
	"operators across comments":    "a = 1" + strings.Repeat(" + # c\n1", MaxNestingDepth+1) + "\n",
	"operators across // comments": "a = 1" + strings.Repeat(" * // c\n1", MaxNestingDepth+1) + "\n",
	// An escaped backslash does not escape the quote after it.
	"escaped backslash": `a = "\\"` + strings.Repeat("(", MaxNestingDepth+1) + "1" + strings.Repeat(")", MaxNestingDepth+1) + "\n",
	// An escaped quote does not close the string.
	"escaped quote": `a = "` + strings.Repeat(`\"`, MaxStringBytes/2+1) + "\"\n",
	// Every kind of operator deepens, == included.
	"operators": "a = 1" + strings.Repeat(" == 1 != 1 <= 1 >= 1 < 1 > 1 && !true || -1 % 1 / 1 ? 1 : 1", 6) + "\n",
	// A name's '-' is no operator, but a name's length counts it.
	"hyphenated name": "a = " + strings.Repeat("a-", MaxNameBytes/2+1) + "\n",
	// A number's exponent sign is part of it.
	"long exponent":               "a = 1." + strings.Repeat("5", MaxNumberLiteralBytes/2) + "e+" + strings.Repeat("5", MaxNumberLiteralBytes/2) + "\n",
	"unclosed string":             "a = \"" + strings.Repeat("x", MaxStringBytes+1),
	"deep in a string's brackets": "a = [" + strings.Repeat("[\"]\",", MaxNestingDepth) + "\n",
}

func TestWithinLimitsRefusesTrickyExcess(t *testing.T) {
	for name, src := range overLimitsTricky {
		diags, _ := measureTokens("f.srez.hcl", []byte(src))
		if len(diags) == 0 {
			t.Errorf("%s: the case is within the limits; it tests nothing", name)
		}
		if withinLimits([]byte(src)) {
			t.Errorf("%s: withinLimits cleared a file over the limits (%s)", name, diags[0].Summary)
		}
	}
}

// TestWithinLimitsClearsShippedFiles: the fast path is taken for every
// shipped file (else measure lexes it twice), and each has no excess.
func TestWithinLimitsClearsShippedFiles(t *testing.T) {
	for _, f := range append(StdlibFiles(), ScenarioFiles()...) {
		if !withinLimits(f.Src) {
			t.Errorf("%s: not cleared", f.Name)
		}
		if diags, _ := measureTokens(f.Name, f.Src); len(diags) > 0 {
			t.Errorf("%s: %s", f.Name, diags[0].Error())
		}
	}
}

// TestWithinLimitsClearsLeadBytesBeforeBlanks: a non-ASCII character
// at the end of a name, before a blank, an operator or a comma, leaves the
// fast path open (else measure lexes the file twice; a fuzzer's stray
// bytes did that to half the files it refused).
func TestWithinLimitsClearsLeadBytesBeforeBlanks(t *testing.T) {
	for _, src := range []string{
		"café = 1\n",
		"a = [café, b]\n",
		"a = café+1\n",
		"a = \xc9\n\xc9\t\xc9\r\n",
	} {
		if !withinLimits([]byte(src)) {
			t.Errorf("%q: not cleared", src)
		}
		if diags, _ := measureTokens("f.srez.hcl", []byte(src)); len(diags) > 0 {
			t.Errorf("%q: %s", src, diags[0].Error())
		}
	}
}

// FuzzWithinLimits: a file withinLimits clears has no excess when HCL's
// lexer measures it.
func FuzzWithinLimits(f *testing.F) {
	for _, sf := range StdlibFiles() {
		f.Add(sf.Src)
	}
	for _, src := range overLimitsTricky {
		f.Add([]byte(src))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if !withinLimits(src) {
			return
		}
		if diags, _ := measureTokens("f.srez.hcl", src); len(diags) > 0 {
			t.Fatalf("withinLimits cleared a file over the limits: %s", diags[0].Error())
		}
	})
}

// TestLoneNonASCIIBytes pins what withinLimits assumes of HCL's lexer: a
// byte outside ASCII that cannot start a multi-byte character of its
// identifier tables (outside 0xC2 to 0xF3) takes no byte after it, before
// a name, at a token's start or in a name.
func TestLoneNonASCIIBytes(t *testing.T) {
	for b := 0x80; b <= 0xFF; b++ {
		if 0xC2 <= b && b <= 0xF3 {
			continue
		}
		for _, pre := range []string{"", " ", "x"} {
			for _, next := range []byte("}{\"\n #,=+-(x") {
				src := []byte(pre + string([]byte{byte(b), next}))
				toks, _ := hclsyntax.LexConfig(src, "", hcl.InitialPos)
				for _, tk := range toks {
					if tk.Range.Start.Byte <= len(pre) && tk.Range.End.Byte > len(pre)+1 {
						t.Errorf("%q: %s %q takes the byte after %#x", src, tk.Type, tk.Bytes, b)
					}
				}
			}
		}
	}
}
