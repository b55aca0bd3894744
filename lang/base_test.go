package lang_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/srezc/srezc/lang"
	"golang.org/x/tools/txtar"
)

// TestBaseMatchesFullAnalysis: analysing files on a Base (the stdlib
// decoded and checked once) gives the same diagnostics, byte for byte as
// text, and the same declarations with the same broken flags as analysing
// the stdlib again with them, for every diagnostics archive, the test
// world and a copy of the stdlib; and the base's own declarations come
// out unchanged.
func TestBaseMatchesFullAnalysis(t *testing.T) {
	std := lang.StdlibFiles()
	base := lang.NewBase(std)
	modules := map[string][]*lang.File{}
	archives, _ := filepath.Glob(filepath.Join(diagnosticsDir, "*.txtar"))
	for _, p := range archives {
		ar, err := txtar.ParseFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			if strings.HasSuffix(f.Name, lang.Ext) {
				modules[p] = append(modules[p], &lang.File{Name: f.Name, Src: f.Data})
			}
		}
	}
	world, _ := filepath.Glob("../testdata/world/*.srez.hcl")
	for _, p := range world {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		modules["world"] = append(modules["world"], &lang.File{Name: p, Src: src})
	}
	// The stdlib again, under other names: every declaration repeats
	// one of the base's.
	for _, f := range std {
		modules["stdlib again"] = append(modules["stdlib again"], &lang.File{Name: "again/" + f.Name, Src: f.Src})
	}
	before := describeAnalysis(base.Analyze(nil))
	for name, files := range modules {
		full, fullDiags := lang.AnalyzeWith(std, files)
		fast, fastDiags := base.Analyze(files)
		if a, b := describeAnalysis(full, fullDiags), describeAnalysis(fast, fastDiags); a != b {
			t.Errorf("%s: a Base's analysis differs:\nfull:\n%s\nbase:\n%s", name, a, b)
		}
	}
	if after := describeAnalysis(base.Analyze(nil)); after != before {
		t.Errorf("analyses changed the base:\nbefore:\n%s\nafter:\n%s", before, after)
	}
}

func describeAnalysis(m *lang.Module, diags lang.Diagnostics) string {
	var b bytes.Buffer
	lang.WriteText(&b, m.Files, diags)
	for _, d := range declsOf(m) {
		fmt.Fprintf(&b, "%s %s broken=%v\n", d.DefRange, d.Name, d.Broken)
	}
	return b.String()
}

// BenchmarkAnalyzeIncident analyses one small incident file: on a Base
// (what Analyze does) and with the stdlib analysed again (what it did).
func BenchmarkAnalyzeIncident(b *testing.B) {
	std := lang.StdlibFiles()
	files := []*lang.File{{Name: "x.srez.hcl", Src: []byte(limitsIncident)}}
	b.Run("base", func(b *testing.B) {
		base := lang.NewBase(std)
		b.ReportAllocs()
		for b.Loop() {
			base.Analyze(files)
		}
	})
	b.Run("stdlib-again", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			lang.AnalyzeWith(std, files)
		}
	})
}

// TestBaseConcurrent: analyses on one Base run at once (the language
// server's do), sharing its declarations and files; run with -race.
func TestBaseConcurrent(t *testing.T) {
	base := lang.NewBase(lang.StdlibFiles())
	done := make(chan string, 4)
	for i := range 4 {
		go func() {
			src := strings.Replace(limitsIncident, `"checkout"`, fmt.Sprintf(`"c%d"`, i), 1) + "nope {}\n"
			m, diags := base.Analyze([]*lang.File{{Name: "x.srez.hcl", Src: []byte(src)}})
			var b bytes.Buffer
			lang.WriteText(&b, m.Files, diags)
			done <- b.String()
		}()
	}
	for range 4 {
		if got := <-done; !strings.Contains(got, "x.srez.hcl:12:1: error: Unsupported block type") {
			t.Errorf("diagnostics:\n%s", got)
		}
	}
}
