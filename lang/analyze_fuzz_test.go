package lang_test

import (
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/srezc/srezc/lang"
	"golang.org/x/tools/txtar"
)

// fuzzFile names the fuzzed input in diagnostics.
const fuzzFile = "fuzz.srez.hcl"

// FuzzAnalyze runs the whole front end (parse, decode, check) on one user
// file alongside the embedded stdlib, analysed once (lang.Base): analysing
// it again for every input ran about 1 input a second. It must never panic, and what it
// returns must keep the invariants every consumer relies on: each
// diagnostic has a severity, a summary and a subject inside the file it
// names; diagnostics come sorted and without exact repeats; a module with no
// error has no broken declaration; and both renderings run.
//
// Seeds: every stdlib file, every file of the test world, and every source
// file of the diagnostic archives in testdata/diagnostics. Crashers found
// so far are kept in testdata/fuzz/FuzzAnalyze.
func FuzzAnalyze(f *testing.F) {
	std := lang.StdlibFiles()
	for _, sf := range std {
		f.Add(sf.Src)
	}
	world, err := filepath.Glob("../testdata/world/*.srez.hcl")
	if err != nil {
		f.Fatal(err)
	}
	more, err := filepath.Glob("../testdata/world/*/*.srez.hcl")
	if err != nil {
		f.Fatal(err)
	}
	for _, p := range append(world, more...) {
		src, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
	archives, err := filepath.Glob(filepath.Join(diagnosticsDir, "*.txtar"))
	if err != nil {
		f.Fatal(err)
	}
	for _, p := range archives {
		ar, err := txtar.ParseFile(p)
		if err != nil {
			f.Fatal(err)
		}
		for _, af := range ar.Files {
			if strings.HasSuffix(af.Name, lang.Ext) {
				f.Add(af.Data)
			}
		}
	}

	stdLines := map[string]*sourceLines{}
	for _, sf := range std {
		stdLines[sf.Name] = newSourceLines(sf.Src)
	}
	base := lang.NewBase(std)
	f.Fuzz(func(t *testing.T, src []byte) {
		file := &lang.File{Name: fuzzFile, Src: src}
		m, diags := base.Analyze([]*lang.File{file})
		if m == nil {
			t.Fatal("nil module")
		}
		var input *sourceLines // built for the first diagnostic in the input
		files := func(name string) *sourceLines {
			if name != fuzzFile {
				return stdLines[name]
			}
			if input == nil {
				input = newSourceLines(src)
			}
			return input
		}
		for i, d := range diags {
			if d == nil {
				t.Fatalf("diagnostic %d is nil", i)
			}
			if d.Severity != lang.Error && d.Severity != lang.Warning {
				t.Errorf("%s: severity %d", d.Error(), d.Severity)
			}
			if d.Summary == "" {
				t.Errorf("%s: empty summary", d.Error())
			}
			if d.Subject == nil {
				t.Errorf("%s: no subject", d.Error())
				continue
			}
			checkSubject(t, d, "subject", *d.Subject, files)
			if d.Related != nil {
				checkSubject(t, d, "related", *d.Related, files)
			}
			if i > 0 && !diagLess(diags[i-1], d) {
				t.Errorf("diagnostics out of order or repeated:\n  %s\n  %s", diags[i-1].Error(), d.Error())
			}
		}
		if !diags.HasErrors() {
			for _, d := range declsOf(m) {
				if d.Broken {
					t.Errorf("no error, but %q (%s) is broken", d.Name, d.DefRange)
				}
			}
		}
		lang.WriteText(io.Discard, m.Files, diags)
		if err := lang.WriteJSON(io.Discard, diags); err != nil {
			t.Errorf("WriteJSON: %v", err)
		}
	})
}

// sourceLines is a file's source and the offset of each of its lines'
// first byte.
type sourceLines struct {
	src    []byte
	starts []int
}

func newSourceLines(src []byte) *sourceLines {
	s := &sourceLines{src: src, starts: []int{0}}
	for i, c := range src {
		if c == '\n' {
			s.starts = append(s.starts, i+1)
		}
	}
	return s
}

// checkSubject checks that r lies within the file it names and that its
// lines and columns agree with its byte offsets.
func checkSubject(t *testing.T, d *lang.Diagnostic, what string, r lang.Range, files func(name string) *sourceLines) {
	t.Helper()
	sl := files(r.Filename)
	if sl == nil {
		t.Errorf("%s: %s names an unknown file %q", d.Error(), what, r.Filename)
		return
	}
	src := sl.src
	if r.Start.Byte < 0 || r.Start.Byte > r.End.Byte || r.End.Byte > len(src) {
		t.Errorf("%s: %s bytes [%d,%d) outside the %d bytes of %s", d.Error(), what, r.Start.Byte, r.End.Byte, len(src), r.Filename)
		return
	}
	for _, p := range []lang.Pos{r.Start, r.End} {
		// The line holding p.Byte is the last to start at or before it.
		line := sort.SearchInts(sl.starts, p.Byte+1)
		lineLen := p.Byte - sl.starts[line-1]
		if p.Line != line || p.Column < 1 || p.Column > lineLen+1 {
			t.Errorf("%s: %s position %+v: want line %d and a column in [1,%d]", d.Error(), what, p, line, lineLen+1)
		}
	}
}

// diagLess is the order lang.Diagnostics.Sort promises, strict so that an
// exact repeat fails it.
func diagLess(a, b *lang.Diagnostic) bool {
	if a.Subject == nil || b.Subject == nil {
		return a.Subject == nil && b.Subject != nil
	}
	if a.Subject.Filename != b.Subject.Filename {
		return a.Subject.Filename < b.Subject.Filename
	}
	if a.Subject.Start.Byte != b.Subject.Start.Byte {
		return a.Subject.Start.Byte < b.Subject.Start.Byte
	}
	if a.Severity != b.Severity {
		return a.Severity < b.Severity
	}
	if a.Summary != b.Summary {
		return a.Summary < b.Summary
	}
	if a.Detail != b.Detail {
		return a.Detail < b.Detail
	}
	return *a.Subject != *b.Subject
}

func declsOf(m *lang.Module) []*lang.Decl {
	var out []*lang.Decl
	for _, x := range m.ServiceKinds {
		out = append(out, &x.Decl)
	}
	for _, x := range m.Systems {
		out = append(out, &x.Decl)
	}
	for _, x := range m.FaultKinds {
		out = append(out, &x.Decl)
	}
	for _, x := range m.DistractorKinds {
		out = append(out, &x.Decl)
	}
	for _, x := range m.NoisePatterns {
		out = append(out, &x.Decl)
	}
	for _, x := range m.Tools {
		out = append(out, &x.Decl)
	}
	for _, x := range m.Rubrics {
		out = append(out, &x.Decl)
	}
	for _, x := range m.Incidents {
		out = append(out, &x.Decl)
	}
	return out
}
