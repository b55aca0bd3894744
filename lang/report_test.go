package lang_test

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/srezc/srezc/lang"
	"golang.org/x/tools/txtar"
)

// TestWriteJSONIsMarshalIndent: WriteJSON writes the bytes
// json.MarshalIndent gives, for the diagnostics of every archive in
// testdata/diagnostics and for lists built to stress it: no diagnostics,
// a nil one, absent and present details and ranges, and strings that
// need escaping (quotes, HTML characters, control bytes, invalid UTF-8,
// U+2028).
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
