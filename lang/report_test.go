package lang_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/apparentlymart/go-textseg/v15/textseg"

	"github.com/srezc/srezc/lang"
	"golang.org/x/tools/txtar"
)

// TestWriteJSONIsMarshalIndent: WriteJSON writes the bytes
// json.MarshalIndent gives, for the diagnostics of every archive in
// testdata/diagnostics and for lists built to stress it: no diagnostics,
// a nil one, absent and present details and ranges, and strings that
// need escaping (quotes, HTML characters, control bytes, invalid UTF-8,
// U+2028), and every byte value alone.
func TestWriteJSONIsMarshalIndent(t *testing.T) {
	cases := map[string]lang.Diagnostics{"nil": nil, "empty": {}}
	r := &lang.Range{Filename: "a<b>&\"c\".srez.hcl", Start: lang.Pos{Line: 1, Column: 2, Byte: 1}, End: lang.Pos{Line: 3, Column: 1, Byte: 40}}
	odd := "q\"\\ <x> & \x00\x1f\t\n\r\b\f \xff\xfe \u2028\u2029 é 日本 👩‍👩‍👧"
	cases["stress"] = lang.Diagnostics{
		{Severity: lang.Error, Summary: "s"},
		nil,
		{Severity: lang.Warning, Summary: odd, Detail: odd},
		{Severity: lang.Error, Summary: "s", Detail: "d", Subject: r},
		{Severity: lang.Warning, Summary: "s", Subject: r, Related: &lang.Range{Filename: odd}},
		{Severity: lang.Error, Summary: "", Related: r},
	}
	for c := range 256 {
		cases["every byte"] = append(cases["every byte"], &lang.Diagnostic{Summary: "a" + string([]byte{byte(c)}) + "b"})
	}
	paths, err := filepath.Glob(filepath.Join(diagnosticsDir, "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range paths {
		ar, err := txtar.ParseFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var files []*lang.File
		for _, f := range ar.Files {
			if strings.HasSuffix(f.Name, lang.Ext) {
				files = append(files, &lang.File{Name: f.Name, Src: f.Data})
			}
		}
		_, cases[filepath.Base(p)] = lang.Analyze(files)
	}
	for name, ds := range cases {
		var got bytes.Buffer
		if err := lang.WriteJSON(&got, ds); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		list := ds
		if list == nil {
			list = lang.Diagnostics{}
		}
		want, err := json.MarshalIndent(list, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if want = append(want, '\n'); !bytes.Equal(got.Bytes(), want) {
			t.Errorf("%s: WriteJSON wrote\n%s\nMarshalIndent gives\n%s", name, got.Bytes(), want)
		}
	}
}

// TestWriteTextAsFprintf: WriteText writes what it wrote with one
// fmt.Fprintf a line (fmtWriteText, kept here), for the diagnostics of
// every archive in testdata/diagnostics and for ranges on long lines,
// tabs, non-ASCII text and out of the file.
func TestWriteTextAsFprintf(t *testing.T) {
	long := strings.Repeat("x = \"é日\tb\" ", 200)
	src := []byte("a {\n\tb = 1\n" + long + "\n}\n")
	f := &lang.File{Name: "f.srez.hcl", Src: src}
	lines := bytes.Split(src, []byte("\n"))
	var ds lang.Diagnostics
	pos := func(line, col, off int) lang.Pos { return lang.Pos{Line: line, Column: col, Byte: off} }
	off := 0
	for i, l := range lines {
		for _, c := range []int{0, 1, len(l) / 2, len(l)} {
			if c > len(l) {
				continue
			}
			r := lang.Range{Filename: f.Name, Start: pos(i+1, c+1, off+c), End: pos(i+1, len(l)+1, off+len(l))}
			ds = append(ds, &lang.Diagnostic{Severity: lang.Severity(i % 2), Summary: "s", Detail: "d", Subject: &r})
		}
		off += len(l) + 1
	}
	ds = append(ds,
		&lang.Diagnostic{Summary: "no range"},
		&lang.Diagnostic{Summary: "past the end", Subject: &lang.Range{Filename: f.Name, Start: pos(99999, 1, len(src)+1)}},
		&lang.Diagnostic{Summary: "other file", Subject: &lang.Range{Filename: "g", Start: pos(1, 1, 0)}},
		&lang.Diagnostic{Summary: "wide line number", Subject: &lang.Range{Filename: f.Name, Start: pos(123456, 1, 0), End: pos(123456, 3, 2)}},
	)
	cases := map[string]struct {
		files []*lang.File
		ds    lang.Diagnostics
	}{"built": {[]*lang.File{f}, ds}, "none": {nil, nil}}
	paths, err := filepath.Glob(filepath.Join(diagnosticsDir, "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range paths {
		ar, err := txtar.ParseFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var files []*lang.File
		for _, af := range ar.Files {
			if strings.HasSuffix(af.Name, lang.Ext) {
				files = append(files, &lang.File{Name: af.Name, Src: af.Data})
			}
		}
		m, ds := lang.Analyze(files)
		cases[filepath.Base(p)] = struct {
			files []*lang.File
			ds    lang.Diagnostics
		}{m.Files, ds}
	}
	for name, c := range cases {
		var got, want bytes.Buffer
		lang.WriteText(&got, c.files, c.ds)
		fmtWriteText(&want, c.files, c.ds)
		if got.String() != want.String() {
			t.Errorf("%s: WriteText wrote\n%s\nfmt gives\n%s", name, got.Bytes(), want.Bytes())
		}
	}
}

func fmtWriteText(w io.Writer, files []*lang.File, ds lang.Diagnostics) {
	byName := map[string]*lang.File{}
	for _, f := range files {
		byName[f.Name] = f
	}
	for _, d := range ds {
		if d.Subject != nil {
			fmt.Fprintf(w, "%s:%d:%d: %s: %s\n", d.Subject.Filename, d.Subject.Start.Line, d.Subject.Start.Column, d.Severity, d.Summary)
		} else {
			fmt.Fprintf(w, "%s: %s\n", d.Severity, d.Summary)
		}
		if d.Detail != "" {
			fmt.Fprintf(w, "  %s\n", d.Detail)
		}
		if d.Subject != nil {
			if f := byName[d.Subject.Filename]; f != nil {
				fmtWriteSnippet(w, f.Src, *d.Subject)
			}
		}
		fmt.Fprintln(w)
	}
}

func fmtWriteSnippet(w io.Writer, src []byte, r lang.Range) {
	if r.Start.Byte > len(src) || r.Start.Byte < 0 {
		return
	}
	lineStart := bytes.LastIndexByte(src[:r.Start.Byte], '\n') + 1
	lineEnd := bytes.IndexByte(src[lineStart:], '\n')
	if lineEnd < 0 {
		lineEnd = len(src)
	} else {
		lineEnd += lineStart
	}
	caret := r.Start.Column - 1
	width := 1
	if r.End.Line == r.Start.Line && r.End.Column > r.Start.Column {
		width = r.End.Column - r.Start.Column
	}
	line := string(src[lineStart:lineEnd])
	if len(line) > lang.MaxSnippetBytes {
		// Show a window of the line around the caret, cut at rune
		// boundaries and marked with ellipses, so a 2 MB line is not
		// echoed whole.
		from := max(lineStart, r.Start.Byte-lang.MaxSnippetBytes/4)
		for from > lineStart && !utf8.RuneStart(src[from]) {
			from--
		}
		to := min(lineEnd, from+lang.MaxSnippetBytes)
		// Stray continuation bytes (invalid UTF-8) have no rune start
		// to back up to: stop at from rather than pass it.
		for to > from && to < lineEnd && !utf8.RuneStart(src[to]) {
			to--
		}
		prefix, suffix := "", ""
		if from > lineStart {
			prefix = "…"
		}
		if to < lineEnd {
			suffix = "…"
		}
		line = prefix + string(src[from:to]) + suffix
		n, err := textseg.TokenCount(src[from:r.Start.Byte], textseg.ScanGraphemeClusters)
		if err != nil {
			n = utf8.RuneCount(src[from:r.Start.Byte])
		}
		caret = utf8.RuneCountInString(prefix) + n
		width = min(width, max(1, utf8.RuneCountInString(line)-caret))
	}
	fmt.Fprintf(w, "  %4d | %s\n", r.Start.Line, strings.ReplaceAll(line, "\t", " "))
	fmt.Fprintf(w, "       | %s%s\n", strings.Repeat(" ", caret), strings.Repeat("^", width))
}
