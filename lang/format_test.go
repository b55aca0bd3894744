package lang_test

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/srezc/srezc/lang"
	"golang.org/x/tools/txtar"
)

// formatCorpus is every source file the repository ships: the embedded
// stdlib, the test worlds and the scenarios.
func formatCorpus(t testing.TB) []*lang.File {
	t.Helper()
	files := lang.StdlibFiles()
	for _, root := range []string{"../testdata", "../scenarios"} {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				if os.IsNotExist(err) && p == root {
					return filepath.SkipDir
				}
				return err
			}
			if d.IsDir() || !strings.HasSuffix(p, lang.Ext) {
				return nil
			}
			src, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			files = append(files, &lang.File{Name: filepath.ToSlash(p), Src: src})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(files) < 10 {
		t.Fatalf("corpus has only %d files", len(files))
	}
	return files
}

// mustFormat formats src and fails the test on any diagnostic.
func mustFormat(t testing.TB, name string, src []byte) []byte {
	t.Helper()
	out, diags := lang.Format(name, src)
	if len(diags) > 0 || out == nil {
		t.Fatalf("Format(%s): output %v, diagnostics:\n%v", name, out != nil, diags)
	}
	return out
}

// Formatting is idempotent and keeps the tokens, on the corpus with its
// indentation stripped (the corpus itself is formatted, so formatting it
// would compare each file with itself).
func TestFormatIsIdempotent(t *testing.T) {
	for _, f := range formatCorpus(t) {
		if bytes.Contains(f.Src, []byte("<<")) {
			continue // a heredoc's indentation is part of its value
		}
		var flat []byte
		for _, line := range bytes.SplitAfter(f.Src, []byte("\n")) {
			flat = append(flat, bytes.TrimLeft(line, " \t")...)
		}
		if bytes.Equal(flat, f.Src) {
			t.Fatalf("%s: stripping indentation changed nothing; the test would compare a file with itself", f.Name)
		}
		once := mustFormat(t, f.Name, flat)
		if !bytes.Equal(once, f.Src) {
			t.Errorf("%s: formatting the file without its indentation does not restore it:\n%s", f.Name, firstDiff(f.Src, once))
		}
		if twice := mustFormat(t, f.Name, once); !bytes.Equal(once, twice) {
			t.Errorf("%s: formatting twice differs from once:\n%s", f.Name, firstDiff(once, twice))
		}
		if a, b := meaning(t, f.Src), meaning(t, once); a != b {
			t.Errorf("%s: formatting changed the tokens:\n%s", f.Name, firstDiff([]byte(a), []byte(b)))
		}
	}
}

// The shipped sources are kept formatted (run `srezc fmt -w` to fix).
func TestShippedSourceIsFormatted(t *testing.T) {
	for _, f := range formatCorpus(t) {
		if out := mustFormat(t, f.Name, f.Src); !bytes.Equal(out, f.Src) {
			t.Errorf("%s is not formatted (run srezc fmt -w):\n%s", f.Name, firstDiff(f.Src, out))
		}
	}
}

// Each testdata/format/*.txtar holds in.srez.hcl and the out.srez.hcl that
// Format must make of it. SREZC_UPDATE=1 rewrites out.srez.hcl.
func TestFormatGolden(t *testing.T) {
	paths, err := filepath.Glob("testdata/format/*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Fatal("no golden files in testdata/format")
	}
	update := os.Getenv("SREZC_UPDATE") == "1"
	for _, p := range paths {
		t.Run(filepath.Base(p), func(t *testing.T) {
			ar, err := txtar.ParseFile(p)
			if err != nil {
				t.Fatal(err)
			}
			var in, want *txtar.File
			for i := range ar.Files {
				switch ar.Files[i].Name {
				case "in.srez.hcl":
					in = &ar.Files[i]
				case "out.srez.hcl":
					want = &ar.Files[i]
				default:
					t.Fatalf("unexpected file %q", ar.Files[i].Name)
				}
			}
			if in == nil {
				t.Fatal("no in.srez.hcl")
			}
			got := mustFormat(t, "in.srez.hcl", in.Data)
			if update {
				if want == nil {
					ar.Files = append(ar.Files, txtar.File{Name: "out.srez.hcl"})
					want = &ar.Files[len(ar.Files)-1]
				}
				want.Data = got
				if err := os.WriteFile(p, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if want == nil {
				t.Fatal("no out.srez.hcl (run with SREZC_UPDATE=1)")
			}
			if !bytes.Equal(got, want.Data) {
				t.Errorf("Format differs from out.srez.hcl (SREZC_UPDATE=1 rewrites it):\n%s", firstDiff(want.Data, got))
			}
			if bytes.Equal(got, in.Data) {
				t.Error("in.srez.hcl is already formatted: the case tests nothing")
			}
			if again := mustFormat(t, "out.srez.hcl", want.Data); !bytes.Equal(again, want.Data) {
				t.Errorf("out.srez.hcl is not a fixed point:\n%s", firstDiff(want.Data, again))
			}
		})
	}
}

func TestFormatLayout(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"adds the final newline", "a = 1", "a = 1\n"},
		{"drops blank lines at the end", "a = 1\n\n\n", "a = 1\n"},
		{"ends a comment with a newline", "a = 1 # c", "a = 1 # c\n"},
		{"keeps an empty file empty", "", ""},
		{"empties a blank file", " \n\t\n\n", ""},
		{"keeps blank lines inside", "a = 1\n\n\nb = 2\n", "a = 1\n\n\nb = 2\n"},
		{"CRLF becomes LF", "a = 1\r\nbb = 2\r\n", "a  = 1\nbb = 2\n"},
		{"CRs ending comment lines go", "# a\r\r\n#b\r", "# a\n#b\n"},
		{"CRLF in comments becomes LF", "# c\r\na = 1 // d\r\n/* x\r\ny */\r\n", "# c\na = 1 // d\n/* x\ny */\n"},
		{"CRLF in a heredoc is kept", "a = <<EOT\r\nx\r\nEOT\r\n", "a = <<EOT\r\nx\r\nEOT\n"},
		{"a heredoc may end the file", "a = <<EOT\nx\nEOT\n\n \n", "a = <<EOT\nx\nEOT\n"},
		{"a comment may end the file", "a = 1 # c\n\n\n", "a = 1 # c\n"},
		{"drops spaces at the end", "a = 1\n  \t", "a = 1\n"},
		{"drops spaces after the last token", "a = 1   ", "a = 1\n"},
		{"a blank file of spaces is empty", " ", ""},
		{"keeps a comment's trailing spaces", "a = 1 # c  \nb = 2 # d  ", "a = 1 # c  \nb = 2 # d  \n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := mustFormat(t, "x.srez.hcl", []byte(c.in))
			if string(got) != c.want {
				t.Errorf("Format(%q) = %q, want %q", c.in, got, c.want)
			}
			if a, b := meaning(t, []byte(c.in)), meaning(t, got); a != b {
				t.Errorf("Format changed the tokens:\n%s", firstDiff([]byte(a), []byte(b)))
			}
		})
	}
}

func TestFormatSyntaxError(t *testing.T) {
	src := "incident \"x\" {\n  title  = \"a\"\n  budget = = 3\n}\n"
	out, diags := lang.Format("bad.srez.hcl", []byte(src))
	if out != nil {
		t.Errorf("output %q for a file with a syntax error", out)
	}
	if !diags.HasErrors() {
		t.Fatalf("no error, diagnostics %v", diags)
	}
	d := diags[0]
	if d.Subject == nil {
		t.Fatalf("diagnostic without a range: %v", d)
	}
	if got := d.Subject.String(); got != "bad.srez.hcl:3:12" {
		t.Errorf("error at %s, want bad.srez.hcl:3:12 (%v)", got, d)
	}
	if d.Subject.Start.Byte != strings.Index(src, "= 3") {
		t.Errorf("error at byte %d, want %d", d.Subject.Start.Byte, strings.Index(src, "= 3"))
	}

	// An unclosed block is reported too, and still nothing is formatted.
	out, diags = lang.Format("open.srez.hcl", []byte("incident \"x\" {\n  title = \"a\"\n"))
	if out != nil || !diags.HasErrors() {
		t.Errorf("unclosed block: output %q, diagnostics %v", out, diags)
	}
}

// hclwrite drops the space in `0 .0` (a number, then a legacy index) and
// makes it the float 0.0; Format refuses instead of changing the meaning.
func TestFormatRefusesToChangeMeaning(t *testing.T) {
	for _, src := range []string{"a = 0 .0\n", "a = 1 . 5\n"} {
		out, diags := lang.Format("join.srez.hcl", []byte(src))
		if out != nil || len(diags) != 1 || diags[0].Summary != "Formatting would change meaning" {
			t.Errorf("Format(%q) = %q, %v; want no output and one error", src, out, diags)
			continue
		}
		if r := diags[0].Subject; r == nil || r.String() != "join.srez.hcl:1:5" {
			t.Errorf("Format(%q): error at %v, want join.srez.hcl:1:5", src, r)
		}
	}
}

// FuzzFormat checks that Format never panics, that output and errors
// exclude each other, that formatted source is a fixed point and that
// formatting changes no token.
func FuzzFormat(f *testing.F) {
	for _, file := range formatCorpus(f) {
		f.Add(file.Src)
	}
	for _, s := range []string{
		"", "\n\n", "a = 1", "a = 1\r\nbb = 2\r\n", "a = <<EOT\r\nx\r\nEOT\r\n",
		"a = <<-EOT\n    x\n  EOT\n", "a = 1 # c", "/* x\r\ny */", "\ufeffa = 1\n",
		"b {\nc = [\n1,\n2,\n]\n}\n", "a = { b = 1, cc = 2 }\n", "a = \"${b}%{if c}d%{endif}\"\n",
		"a = = 1\n", "b {\n", "a = \"x\n", " ", "a = <<EOT\nx\nEOT\n", "a = 1 # c  \n\n", "#00\r", "# a\r\r\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		out, diags := lang.Format("fuzz.srez.hcl", src)
		if diags.HasErrors() {
			if out != nil {
				t.Fatalf("output %q together with errors %v", out, diags)
			}
			return
		}
		if out == nil {
			t.Fatalf("no output and no error for %q", src)
		}
		again, diags := lang.Format("fuzz.srez.hcl", out)
		if diags.HasErrors() {
			t.Fatalf("formatted source %q of %q does not parse: %v", out, src, diags)
		}
		if !bytes.Equal(again, out) {
			t.Fatalf("not a fixed point:\nonce  %q\ntwice %q", out, again)
		}
		if a, b := meaning(t, src), meaning(t, out); a != b {
			t.Fatalf("formatting %q changed the tokens:\n%s", src, firstDiff([]byte(a), []byte(b)))
		}
	})
}

// meaning lists src's tokens, one a line, with what formatting may change
// taken out: line endings (and CRs ending comment lines), and the newlines
// ending the file.
func meaning(t testing.TB, src []byte) string {
	t.Helper()
	toks, diags := hclsyntax.LexConfig(src, "x", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatalf("lexing %q: %v", src, diags)
	}
	var lines []string
	for _, tok := range toks {
		b := tok.Bytes
		switch tok.Type {
		case hclsyntax.TokenEOF:
			continue
		case hclsyntax.TokenNewline:
			b = []byte("\n")
		case hclsyntax.TokenComment:
			lines := bytes.Split(b, []byte("\n"))
			for i := range lines {
				lines[i] = bytes.TrimRight(lines[i], "\r")
			}
			b = bytes.TrimRight(bytes.Join(lines, []byte("\n")), "\n")
		}
		lines = append(lines, fmt.Sprintf("%s %q", tok.Type, b))
	}
	for len(lines) > 0 && lines[len(lines)-1] == fmt.Sprintf("%s %q", hclsyntax.TokenNewline, "\n") {
		lines = lines[:len(lines)-1]
	}
	return strings.Join(lines, "\n")
}

// firstDiff shows the first line where want and got differ.
func firstDiff(want, got []byte) string {
	w, g := strings.Split(string(want), "\n"), strings.Split(string(got), "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl || i >= len(w) || i >= len(g) {
			return fmt.Sprintf("line %d:\n  want %q\n  got  %q", i+1, wl, gl)
		}
	}
	return "(no difference)"
}
