package lang_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/srezc/srezc/lang"
)

// FuzzLimits explores the edges of the front end's limits: nesting,
// literal, string and name sizes. Whatever the input, formatting it (the
// limits, then HCL's parser and hclwrite), locating a cursor in it, and
// analysing it on the stdlib never crash; a formatted file is one the
// front end would read back (at most MaxFileBytes); no file gets more than
// MaxDiagnosticsPerFile diagnostics and a summary; and no line of the text
// rendering echoes more than a window of the source.
//
// Seeds: the audit's shapes of issue 15, scaled to just past each limit
// (the fuzzer finds the other side), and the healthy incident they
// distort.
func FuzzLimits(f *testing.F) {
	for _, c := range limitCases {
		if len(c.src) <= 4096 {
			f.Add(c.src)
		}
	}
	over := lang.MaxNestingDepth + 1
	for _, src := range [][]byte{
		[]byte(limitsIncident),
		distort("budget     = 12", "budget     = "+nested("(", "12", ")", over/2)),
		distort(`tags       = ["database"]`, "tags       = "+nested("[", "", "]", over/2)),
		[]byte(nested("x {\n", "", "}\n", over)),
		distort("budget     = 12", "budget     = "+strings.Repeat("!", over)+"true"),
		distort("budget     = 12", "budget     = 1"+strings.Repeat(" + 1", over)),
		distort("budget     = 12", "budget     = "+strings.Repeat("true ? 1 : ", over)+"2"),
		distort(`"Checkout errors"`, nested(`"${`, `"x"`, `}"`, over/2)),
		distort(`"Checkout errors"`, `"`+nested("%{ if true }", "x", "%{ else }y%{ endif }", over/2)+`"`),
		distort(`"Checkout errors"`, `"`+nested("%{ for x in [1] }", "${x}", "%{ endfor }", over/2)+`"`),
		distort(`"Checkout errors"`, nested("<<EOT\n${", "1", "}\nEOT\n", over/2)),
		distort("budget     = 12", "budget     = 1"+strings.Repeat("0", lang.MaxNumberLiteralBytes)),
		distort(`"Checkout is returning intermittent 500 errors."`, `"`+strings.Repeat("a", lang.MaxStringBytes+1)+`"`),
		distort(`incident "checkout"`, `incident "`+strings.Repeat("i", lang.MaxNameBytes+1)+`"`),
		distort("budget     = 12", strings.Repeat("b", lang.MaxNameBytes+1)+" = 12"),
		distort("budget     = 12", "budget     = 12 # "+strings.Repeat(" ", 3*lang.MaxSnippetBytes)+"x"),
	} {
		f.Add(src)
	}
	base := lang.NewBase(lang.StdlibFiles())
	f.Fuzz(func(t *testing.T, src []byte) {
		out, diags := lang.Format(fuzzFile, src)
		if len(out) > lang.MaxFileBytes {
			t.Fatalf("formatted to %d bytes, more than MaxFileBytes", len(out))
		}
		if len(diags) > lang.MaxDiagnosticsPerFile+1 {
			t.Fatalf("Format: %d diagnostics", len(diags))
		}
		lang.CursorAt(src, len(src)/2)
		file := &lang.File{Name: fuzzFile, Src: src}
		m, diags := base.Analyze([]*lang.File{file})
		n := 0
		for _, d := range diags {
			if d.Subject != nil && d.Subject.Filename == fuzzFile {
				n++
			}
		}
		if n > lang.MaxDiagnosticsPerFile+1 {
			t.Fatalf("Analyze: %d diagnostics for the file", n)
		}
		var text bytes.Buffer
		lang.WriteText(&text, m.Files, diags)
		for _, line := range bytes.Split(text.Bytes(), []byte("\n")) {
			// A snippet line holds at most the window and its ellipses;
			// a detail line may quote a name or a value once.
			if len(line) > 2*lang.MaxSnippetBytes+2*lang.MaxStringBytes {
				t.Fatalf("a diagnostic line of %d bytes", len(line))
			}
		}
	})
}
