package cli_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/srezc/srezc/cli"
)

const (
	messy     = "incident \"a\" {\ntitle=\"x\"\n      budget = 3\n}\n\n\n"
	tidy      = "incident \"a\" {\n  title  = \"x\"\n  budget = 3\n}\n"
	broken    = "incident \"b\" {\n  title  = \"x\"\n  budget = = 3\n}\n"
	messyCRLF = "incident \"c\" {\r\n    budget = 3\r\n}\r\n"
	tidyCRLF  = "incident \"c\" {\n  budget = 3\n}\n"
)

// srezc runs the command line in process and returns its exit code and output.
func srezc(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = cli.Main(args, strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

// tree writes files (name → contents, mode 0644) under a new temporary
// folder and returns it.
func tree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// lines joins names, one a line, as fmt lists them.
func lines(names ...string) string {
	if len(names) == 0 {
		return ""
	}
	return strings.Join(names, "\n") + "\n"
}

func TestFmtCheck(t *testing.T) {
	dir := tree(t, map[string]string{"a.srez.hcl": tidy, "sub/b.srez.hcl": tidy, "notes.txt": messy})
	if code, out, errOut := srezc(t, "", "fmt", "--check", dir); code != 0 || out != "" || errOut != "" {
		t.Fatalf("formatted tree: exit %d, stdout %q, stderr %q", code, out, errOut)
	}

	dir = tree(t, map[string]string{"a.srez.hcl": tidy, "sub/z.srez.hcl": messy, "sub/b.srez.hcl": messyCRLF, "notes.txt": messy})
	code, out, errOut := srezc(t, "", "fmt", "--check", dir)
	want := lines(filepath.Join(dir, "sub/b.srez.hcl"), filepath.Join(dir, "sub/z.srez.hcl"))
	if code != 1 || out != want || errOut != "" {
		t.Fatalf("messy tree: exit %d, stdout %q, stderr %q; want exit 1, stdout %q", code, out, errOut, want)
	}
	if got := readFile(t, filepath.Join(dir, "sub/z.srez.hcl")); got != messy {
		t.Errorf("--check wrote a file: %q", got)
	}
	// -l is --check.
	if code, out2, _ := srezc(t, "", "fmt", "-l", dir); code != 1 || out2 != out {
		t.Errorf("-l: exit %d, stdout %q; want 1, %q", code, out2, out)
	}
}

func TestFmtWrite(t *testing.T) {
	dir := tree(t, map[string]string{"a.srez.hcl": tidy, "b.srez.hcl": messy, "c.srez.hcl": messyCRLF, "notes.txt": messy})
	b := filepath.Join(dir, "b.srez.hcl")
	if err := os.Chmod(b, 0o640); err != nil {
		t.Fatal(err)
	}
	before, err := os.Stat(filepath.Join(dir, "a.srez.hcl"))
	if err != nil {
		t.Fatal(err)
	}

	code, out, errOut := srezc(t, "", "fmt", "-w", dir)
	if want := lines(b, filepath.Join(dir, "c.srez.hcl")); code != 0 || out != want || errOut != "" {
		t.Fatalf("-w: exit %d, stdout %q, stderr %q; want 0, %q", code, out, errOut, want)
	}
	if got := readFile(t, b); got != tidy {
		t.Errorf("b.srez.hcl = %q, want %q", got, tidy)
	}
	if got := readFile(t, filepath.Join(dir, "c.srez.hcl")); got != tidyCRLF {
		t.Errorf("c.srez.hcl = %q, want %q", got, tidyCRLF)
	}
	if got := readFile(t, filepath.Join(dir, "notes.txt")); got != messy {
		t.Errorf("-w rewrote a file that is not source: %q", got)
	}
	if info, err := os.Stat(b); err != nil || info.Mode().Perm() != 0o640 {
		t.Errorf("mode after -w: %v, %v; want 0640", info.Mode(), err)
	}
	if after, err := os.Stat(filepath.Join(dir, "a.srez.hcl")); err != nil || !after.ModTime().Equal(before.ModTime()) {
		t.Errorf("-w touched a formatted file")
	}
	if leftovers, _ := filepath.Glob(filepath.Join(dir, ".srezc-*")); len(leftovers) > 0 {
		t.Errorf("temporary files left behind: %v", leftovers)
	}

	if code, out, errOut := srezc(t, "", "fmt", "--check", dir); code != 0 || out != "" || errOut != "" {
		t.Errorf("--check after -w: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if code, out, _ := srezc(t, "", "fmt", "-w", dir); code != 0 || out != "" {
		t.Errorf("second -w: exit %d, stdout %q; want 0 and nothing", code, out)
	}
}

// -w through a symbolic link rewrites the target and keeps the link.
func TestFmtWriteFollowsSymlink(t *testing.T) {
	dir := tree(t, map[string]string{"real/a.srez.hcl": messy})
	link := filepath.Join(dir, "link.srez.hcl")
	if err := os.Symlink(filepath.Join(dir, "real/a.srez.hcl"), link); err != nil {
		t.Skip("no symbolic links:", err)
	}
	if code, _, errOut := srezc(t, "", "fmt", "-w", link); code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if info, err := os.Lstat(link); err != nil || info.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v, %v", info.Mode(), err)
	}
	if got := readFile(t, filepath.Join(dir, "real/a.srez.hcl")); got != tidy {
		t.Errorf("target = %q, want %q", got, tidy)
	}
}

func TestFmtSyntaxError(t *testing.T) {
	dir := tree(t, map[string]string{"bad.srez.hcl": broken, "messy.srez.hcl": messy})
	bad := filepath.Join(dir, "bad.srez.hcl")
	for _, flag := range []string{"-w", "--check", ""} {
		args := []string{"fmt", flag, dir}
		if flag == "" {
			args = []string{"fmt", bad}
		}
		code, out, errOut := srezc(t, "", args...)
		if code != 1 {
			t.Errorf("%v: exit %d, want 1", args, code)
		}
		if !strings.HasPrefix(errOut, bad+":3:12: error: ") || !strings.Contains(errOut, "budget = = 3") {
			t.Errorf("%v: stderr %q does not report %s:3:12 with the source line", args, errOut, bad)
		}
		if flag == "" && out != "" {
			t.Errorf("%v: printed %q for a file with a syntax error", args, out)
		}
		if got := readFile(t, bad); got != broken {
			t.Errorf("%v: file with a syntax error changed to %q", args, got)
		}
	}
	// The other files were still formatted by -w (the first run).
	if got := readFile(t, filepath.Join(dir, "messy.srez.hcl")); got != tidy {
		t.Errorf("-w skipped a good file next to a bad one: %q", got)
	}
}

// With no flag, fmt prints each file formatted, in order, and writes nothing.
func TestFmtPrint(t *testing.T) {
	dir := tree(t, map[string]string{"b.srez.hcl": messy, "a/c.srez.hcl": messyCRLF})
	code, out, errOut := srezc(t, "", "fmt", filepath.Join(dir, "b.srez.hcl"), filepath.Join(dir, "a"))
	if code != 0 || out != tidy+tidyCRLF || errOut != "" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if got := readFile(t, filepath.Join(dir, "b.srez.hcl")); got != messy {
		t.Errorf("fmt without -w wrote a file: %q", got)
	}
}

func TestFmtStdin(t *testing.T) {
	for _, args := range [][]string{{"fmt"}, {"fmt", "-"}} {
		if code, out, errOut := srezc(t, messy, args...); code != 0 || out != tidy || errOut != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
	}
	if code, out, _ := srezc(t, messy, "fmt", "--check"); code != 1 || out != "<stdin>\n" {
		t.Errorf("--check of messy stdin: exit %d, stdout %q", code, out)
	}
	if code, out, _ := srezc(t, tidy, "fmt", "--check", "-"); code != 0 || out != "" {
		t.Errorf("--check of tidy stdin: exit %d, stdout %q", code, out)
	}
	code, out, errOut := srezc(t, broken, "fmt")
	if code != 1 || out != "" || !strings.HasPrefix(errOut, "<stdin>:3:12: error: ") {
		t.Errorf("syntax error on stdin: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

func TestFmtUsage(t *testing.T) {
	file := filepath.Join(tree(t, map[string]string{"a.srez.hcl": messy}), "a.srez.hcl")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"fmt", "-w", "--check", file}, "-w and --check"},
		{[]string{"fmt", "-l", "-w", file}, "-w and --check"},
		{[]string{"fmt", "-w"}, "standard input"},
		{[]string{"fmt", "-w", "-"}, "standard input"},
		{[]string{"fmt", file, "-"}, "standard input"},
		{[]string{"fmt", "-check", file}, "did you mean --check?"},
		{[]string{"fmt", "--diff", file}, "unknown flag"},
	} {
		code, out, errOut := srezc(t, messy, c.args...)
		if code != 2 || out != "" || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and %q", c.args, code, out, errOut, c.want)
		}
	}
	if got := readFile(t, file); got != messy {
		t.Errorf("a usage error wrote the file: %q", got)
	}
}

func TestFmtUnreadablePath(t *testing.T) {
	dir := tree(t, map[string]string{"a.srez.hcl": messy})
	missing := filepath.Join(dir, "missing.srez.hcl")
	code, out, errOut := srezc(t, "", "fmt", "-w", missing, dir)
	if code != 1 || !strings.Contains(errOut, missing) || !strings.Contains(errOut, "Cannot read path") {
		t.Errorf("exit %d, stderr %q; want 1 and an error naming %s", code, errOut, missing)
	}
	// The readable paths are still processed.
	if want := lines(filepath.Join(dir, "a.srez.hcl")); out != want {
		t.Errorf("stdout %q, want %q", out, want)
	}
}
