package lang_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/srezc/srezc/lang"
	"golang.org/x/tools/txtar"
)

const diagnosticsDir = "testdata/diagnostics"

// TestDiagnostics checks the front end's diagnostics against the archives in
// testdata/diagnostics/*.txtar. Each archive is a small module: its
// *.srez.hcl files are analysed together with the embedded stdlib by
// lang.AnalyzeWith. The archive's comment says what the case asserts.
//
// Expectations sit inline, starlark-style. A comment
//
//	### "regexp"
//
// on a source line expects one error whose Subject starts on that line and
// whose "Summary: Detail" (just "Summary" when there is no detail) matches the
// regexp; "### warning "regexp"" expects a warning instead. The regexp is a
// Go string literal, double-quoted (escape \" and \\) or back-quoted. A line
// may carry several marks, each matched by a different diagnostic, so
//
//	kind = "web_servr" ### "Unknown service kind" ### `Did you mean "web_server"`
//
// expects two diagnostics on that line. Every diagnostic must meet a mark
// and every mark must be met: a surprise fails the test, and so does an
// expectation that nothing met. Since ### starts an HCL comment, the marks
// are part of the source and show up in the snippets below.
//
// Besides the marks, the section out/text holds the exact lang.WriteText
// output for the module (FILE:LINE:COL lines, details and the snippets with
// their carets), compared byte for byte; an archive without errors has an
// empty out/text. Only
//
//	SREZC_UPDATE=1 go test ./lang -run TestDiagnostics
//
// rewrites out/text; the marks are never rewritten.
func TestDiagnostics(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join(diagnosticsDir, "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Fatalf("no archives in %s", diagnosticsDir)
	}
	update := os.Getenv("SREZC_UPDATE") == "1"
	std := lang.StdlibFiles()
	for _, path := range paths {
		name := strings.TrimSuffix(filepath.Base(path), ".txtar")
		t.Run(name, func(t *testing.T) {
			runDiagnosticsArchive(t, path, std, update)
		})
	}
}

func runDiagnosticsArchive(t *testing.T, path string, std []*lang.File, update bool) {
	ar, err := txtar.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var files []*lang.File
	golden := -1
	for i, f := range ar.Files {
		switch {
		case strings.HasSuffix(f.Name, lang.Ext):
			files = append(files, &lang.File{Name: f.Name, Src: f.Data})
		case f.Name == "out/text":
			golden = i
		default:
			t.Fatalf("unexpected section %q: an archive holds %s files and out/text", f.Name, lang.Ext)
		}
	}
	if len(files) == 0 {
		t.Fatalf("no %s file in the archive", lang.Ext)
	}

	m, diags := lang.AnalyzeWith(std, files)

	// Inline expectations, in both directions.
	var marks []*mark
	for _, f := range files {
		ms, err := parseMarks(f)
		if err != nil {
			t.Fatal(err)
		}
		marks = append(marks, ms...)
	}
	for _, d := range diags {
		if d.Subject == nil {
			t.Errorf("unexpected diagnostic without a subject: %s", d.Error())
			continue
		}
		msg := d.Summary
		if d.Detail != "" {
			msg += ": " + d.Detail
		}
		met := false
		for _, mk := range marks {
			if !mk.met && mk.file == d.Subject.Filename && mk.line == d.Subject.Start.Line &&
				mk.severity == d.Severity && mk.rx.MatchString(msg) {
				mk.met, met = true, true
				break
			}
		}
		if !met {
			t.Errorf("unexpected diagnostic %s", d.Error())
		}
	}
	for _, mk := range marks {
		if !mk.met {
			t.Errorf("%s:%d: expected %s matching %q, got none", mk.file, mk.line, mk.severity, mk.rx)
		}
	}

	// The exact text rendering.
	var got bytes.Buffer
	lang.WriteText(&got, m.Files, diags)
	if update {
		if golden < 0 {
			ar.Files = append(ar.Files, txtar.File{Name: "out/text"})
			golden = len(ar.Files) - 1
		}
		if !bytes.Equal(ar.Files[golden].Data, got.Bytes()) {
			ar.Files[golden].Data = got.Bytes()
			if err := os.WriteFile(path, txtar.Format(ar), 0o666); err != nil {
				t.Fatal(err)
			}
			t.Logf("updated out/text of %s", path)
		}
		return
	}
	if golden < 0 {
		t.Fatalf("no out/text section; run SREZC_UPDATE=1 go test ./lang -run TestDiagnostics to write it")
	}
	if want := ar.Files[golden].Data; !bytes.Equal(want, got.Bytes()) {
		t.Errorf("out/text differs (SREZC_UPDATE=1 rewrites it)\ngot:\n%s\nwant:\n%s", got.Bytes(), want)
	}
}

// mark is one ### expectation.
type mark struct {
	file     string
	line     int
	severity lang.Severity
	rx       *regexp.Regexp
	met      bool
}

var (
	markStart = regexp.MustCompile(`###`)
	markBody  = regexp.MustCompile("^###[ \t]*(warning[ \t]+)?(\"(?:[^\"\\\\]|\\\\.)*\"|`[^`]*`)[ \t]*")
)

// parseMarks reads every ### mark of a file. Text after ### that is not a
// mark is an error, so that a typo never silently drops an expectation.
func parseMarks(f *lang.File) ([]*mark, error) {
	var out []*mark
	for i, line := range strings.Split(string(f.Src), "\n") {
		loc := markStart.FindStringIndex(line)
		if loc == nil {
			continue
		}
		rest := line[loc[0]:]
		for rest != "" {
			sm := markBody.FindStringSubmatch(rest)
			if sm == nil {
				return nil, fmt.Errorf("%s:%d: malformed mark %q: want ### \"regexp\" or ### warning \"regexp\"", f.Name, i+1, rest)
			}
			pattern, err := strconv.Unquote(sm[2])
			if err != nil {
				return nil, fmt.Errorf("%s:%d: mark %s: %v", f.Name, i+1, sm[2], err)
			}
			rx, err := regexp.Compile(pattern)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: mark %s: %v", f.Name, i+1, sm[2], err)
			}
			mk := &mark{file: f.Name, line: i + 1, severity: lang.Error, rx: rx}
			if sm[1] != "" {
				mk.severity = lang.Warning
			}
			out = append(out, mk)
			rest = rest[len(sm[0]):]
		}
	}
	return out, nil
}

// The mark syntax itself: every form is read, and text after ### that is not
// a mark is refused rather than silently dropped.
func TestDiagnosticMarks(t *testing.T) {
	src := "a = 1 ### \"x\\\\.y\" ### warning `w` ### \"z\"\nb = 2\nc = 3 ###`q`\n"
	marks, err := parseMarks(&lang.File{Name: "f", Src: []byte(src)})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, mk := range marks {
		got = append(got, fmt.Sprintf("%d %s %s", mk.line, mk.severity, mk.rx))
	}
	want := []string{`1 error x\.y`, `1 warning w`, `1 error z`, `3 error q`}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("marks %q, want %q", got, want)
	}
	for _, bad := range []string{`a = 1 ### x`, `a = 1 ### "x" trailing`, `a = 1 ### "("`, `a = 1 ### "unterminated`, `a = 1 ### error "x"`} {
		if _, err := parseMarks(&lang.File{Name: "f", Src: []byte(bad)}); err == nil {
			t.Errorf("malformed mark %q accepted", bad)
		}
	}
}
