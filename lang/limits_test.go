package lang_test

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/srezc/srezc/lang"
)

// limitsIncident is a healthy incident that the cases below distort, each
// in one place, into the shapes the audit of issue 15 used.
const limitsIncident = `incident "checkout" {
  title      = "Checkout errors"
  alert      = "Checkout is returning intermittent 500 errors."
  difficulty = "medium"
  split      = "train"
  tags       = ["database"]
  budget     = 12
  system     = "standard"

  fault "service_crash" { target = "cache" }
}
`

func distort(old, new string) []byte {
	if !strings.Contains(limitsIncident, old) {
		panic("no " + old)
	}
	return []byte(strings.Replace(limitsIncident, old, new, 1))
}

func nested(open, inner, close string, n int) string {
	return strings.Repeat(open, n) + inner + strings.Repeat(close, n)
}

// limitCases are sources over one of the front end's limits and the one
// diagnostic each must get, as "LINE:COL: Summary". Before the limits,
// the nested shapes overflowed the stack (a fatal error, not a panic: the
// test binary died), the long number took seconds to parse, and the long
// strings and names were accepted.
var limitCases = []struct {
	name string
	src  []byte
	want string
	// decoded marks a limit checked when declarations are decoded (a
	// declaration's name), which formatting does not reach.
	decoded bool
}{
	{"parentheses", distort("budget     = 12", "budget     = "+nested("(", "12", ")", 100000)), "7:47: Nesting too deep", false},
	{"tuples", distort(`tags       = ["database"]`, "tags       = "+nested("[", "", "]", 50000)), "6:47: Nesting too deep", false},
	{"objects", distort(`tags       = ["database"]`, "tags       = "+nested("{a = ", "1", "}", 50000)), "6:331: Nesting too deep", false},
	{"blocks", []byte(nested("x {\n", "", "}\n", 20000)), "65:3: Nesting too deep", false},
	{"unary", distort("budget     = 12", "budget     = "+strings.Repeat("-", 100000)+"12"), "7:79: Nesting too deep", false},
	{"negation", distort("budget     = 12", "budget     = "+strings.Repeat("!", 100000)+"true"), "7:79: Nesting too deep", false},
	{"binary", distort("budget     = 12", "budget     = 1"+strings.Repeat(" + 1", 100000)), "7:270: Nesting too deep", false},
	{"conditional", distort("budget     = 12", "budget     = "+strings.Repeat("true ? 1 : ", 20000)+"2"), "7:714: Nesting too deep", false},
	{"interpolation", distort(`"Checkout errors"`, nested(`"${`, `"x"`, `}"`, 30000)), "2:110: Nesting too deep", false},
	{"directives", distort(`"Checkout errors"`, `"`+nested("%{ if true }", "x", "%{ endif }", 30000)+`"`), "2:761: Nesting too deep", false},
	{"heredocs", distort(`"Checkout errors"`, nested("<<EOT\n${", "1", "}\nEOT\n", 1000)), "34:1: Nesting too deep", false},
	{"number", distort("budget     = 12", "budget     = 1"+strings.Repeat("0", 500000)), "7:16: Number literal too long", false},
	{"alert", distort(`"Checkout is returning intermittent 500 errors."`, `"`+strings.Repeat("a", 100000)+`"`), "3:16: String too long", false},
	{"heredoc alert", distort(`"Checkout is returning intermittent 500 errors."`, "<<EOT\n"+strings.Repeat("a line of an alert\n", 5000)+"EOT"), "3:16: String too long", false},
	{"incident id", distort(`incident "checkout"`, `incident "`+strings.Repeat("i", 1000000)+`"`), "1:10: String too long", false},
	{"long id", distort(`incident "checkout"`, `incident "`+strings.Repeat("i", 200)+`"`), "1:10: Name too long", true},
	{"identifier", distort("budget     = 12", strings.Repeat("b", 200)+" = 12"), "7:3: Name too long", false},
	{"file", distort(`"Checkout is returning intermittent 500 errors."`, `"`+strings.Repeat("a", 10<<20)+`"`), "3:1048522: File too large", false},
}

// TestLimits: every command's front end (analysis, formatting, the cursor
// the language server completes at) refuses each shape with one located
// error and no crash, and a healthy file beside it is still analysed.
func TestLimits(t *testing.T) {
	std := lang.StdlibFiles()
	for _, c := range limitCases {
		t.Run(c.name, func(t *testing.T) {
			bad := &lang.File{Name: "bad.srez.hcl", Src: c.src}
			good := &lang.File{Name: "good.srez.hcl", Src: distort(`incident "checkout"`, `incident "healthy"`)}
			m, diags := lang.AnalyzeWith(std, []*lang.File{bad, good})
			var got []string
			for _, d := range diags {
				got = append(got, fmt.Sprintf("%s:%d:%d: %s", d.Subject.Filename, d.Subject.Start.Line, d.Subject.Start.Column, d.Summary))
			}
			if want := "bad.srez.hcl:" + c.want; len(got) != 1 || got[0] != want {
				t.Errorf("diagnostics:\n  %s\nwant only\n  %s", strings.Join(got, "\n  "), want)
			}
			if m.Incident("healthy") == nil || m.Incident("healthy").Broken {
				t.Errorf("the healthy file beside it was not analysed")
			}
			_, fdiags := lang.Format(bad.Name, bad.Src)
			if c.decoded {
				fdiags = append(fdiags, diags...)
			}
			if len(fdiags) != 1 || fdiags[0].Summary != diags[0].Summary || *fdiags[0].Subject != *diags[0].Subject {
				t.Errorf("Format: %v, want the same diagnostic as analysis", fdiags)
			}
			lang.CursorAt(bad.Src, len(bad.Src)/2)
			var text bytes.Buffer
			lang.WriteText(&text, m.Files, diags)
			for _, line := range strings.Split(text.String(), "\n") {
				if len(line) > 2*lang.MaxSnippetBytes {
					t.Errorf("a diagnostic line of %d bytes: %.80q…", len(line), line)
				}
			}
		})
	}
}

// TestDiagnosticsCapped: 3,000 unknown attributes in one file give the
// first MaxDiagnosticsPerFile diagnostics and one that counts the rest,
// located at the first it stands for; another file's are unaffected.
func TestDiagnosticsCapped(t *testing.T) {
	var b strings.Builder
	b.WriteString("incident \"u\" {\n")
	for i := range 3000 {
		fmt.Fprintf(&b, "  a%d = 1\n", i)
	}
	b.WriteString("}\n")
	files := []*lang.File{{Name: "many.srez.hcl", Src: []byte(b.String())}, {Name: "one.srez.hcl", Src: []byte("nope {}\n")}}
	_, diags := lang.Analyze(files)
	var many, one []*lang.Diagnostic
	for _, d := range diags {
		if d.Subject.Filename == "many.srez.hcl" {
			many = append(many, d)
		} else {
			one = append(one, d)
		}
	}
	if len(many) != lang.MaxDiagnosticsPerFile+1 {
		t.Fatalf("%d diagnostics for many.srez.hcl, want %d", len(many), lang.MaxDiagnosticsPerFile+1)
	}
	last := many[len(many)-1]
	if last.Summary != "Too many diagnostics" || !regexp.MustCompile(`^2906 more errors not shown \(at most 100 are reported per file`).MatchString(last.Detail) {
		t.Errorf("last diagnostic: %s", last.Error())
	}
	if last.Subject.Start.Line != 96 {
		t.Errorf("the summary is at line %d, want 96 (the first diagnostic not shown)", last.Subject.Start.Line)
	}
	if len(one) != 1 || one[0].Summary != "Unsupported block type" {
		t.Errorf("one.srez.hcl: %v", one)
	}
}

// TestFormatBounded: a file within the limits whose layout could still
// grow past what fmt will compute (a 16 KB line aligned with thousands of
// others) is refused before hclwrite runs.
func TestFormatBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("x {\n  long = \"" + strings.Repeat("a", lang.MaxStringBytes-10) + "\"\n")
	for i := range 5000 {
		fmt.Fprintf(&b, "  k%d = 1 # c\n", i)
	}
	b.WriteString("}\n")
	out, diags := lang.Format("wide.srez.hcl", []byte(b.String()))
	if out != nil || len(diags) != 1 || diags[0].Summary != "File too large to format" || diags[0].Subject.Start.Line != 1 {
		t.Fatalf("Format: %d bytes, %v", len(out), diags)
	}
}
