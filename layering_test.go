package srezc_test

import (
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/srezc/srezc"
)

// The allowed imports, as policy data (after Go's deps_test.go): each
// package may import only the module packages listed, and only lang may
// import HCL.
var allowed = map[string][]string{
	"value":              {},
	"stdlib":             {},
	"scenarios":          {},
	"mutations":          {},
	"agents":             {"record"},
	"llm":                {"agents", "record"},
	"llm/llmtest":        {"agents", "llm"},
	"record":             {"value"},
	"internal/snapshot":  {},
	"internal/buildid":   {},
	"srezero":            {"value", "record", "internal/snapshot"},
	"engine":             {"value", "record", "srezero", "internal/snapshot"},
	"action":             {"value", "srezero", "engine", "agents", "record"},
	"lang":               {"value", "stdlib", "scenarios", "mutations", "action"},
	"published":          {"value", "lang", "agents"},
	"certify":            {"value", "lang", "srezero", "engine", "action", "record", "agents", "published"},
	"compiler":           {"value", "lang", "srezero", "engine", "action", "certify", "record"},
	"eval":               {"value", "engine", "agents", "action", "record"},
	"facts":              {"value", "lang", "engine", "agents", "record", "eval", "published"},
	"suitegen":           {"value", "lang", "compiler", "certify", "engine", "agents", "eval", "facts"},
	"lsp":                {"value", "lang", "compiler", "certify", "engine"},
	"report":             {"record"},
	"refdoc":             {"value", "lang"},
	"serve":              {"value", "engine", "action", "agents", "record", "eval", "llm"},
	"mcpserve":           {"engine", "action", "eval", "agents", "record", "llm"},
	"cli":                {".", "value", "lang", "compiler", "certify", "engine", "action", "facts", "stdlib", "agents", "record", "eval", "suitegen", "lsp", "llm", "report", "serve", "mcpserve", "refdoc", "internal/buildid"},
	"internal/worldtest": {"value", "lang", "compiler", "engine", "action", "record"},
	"cmd/srezc":          {"cli"},
	"cmd/srezc-load":     {},
	// The module's root package digests the certifier's sources
	// (certifier.go); "." names it.
	".": {"stdlib", "scenarios"},
}

const module = "github.com/srezc/srezc/"

func TestImportsPointOneWay(t *testing.T) {
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return err
		}
		pkg := filepath.ToSlash(filepath.Dir(p))
		ok, known := allowed[pkg]
		if !known {
			t.Errorf("%s: package %s has no entry in the layering policy", p, pkg)
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, imp := range f.Imports {
			path := strings.Trim(imp.Path.Value, `"`)
			if strings.HasPrefix(path, "github.com/hashicorp/hcl") && pkg != "lang" {
				t.Errorf("%s imports %s: only lang may import HCL", p, path)
			}
			dep := strings.TrimPrefix(path, module)
			if path == strings.TrimSuffix(module, "/") {
				dep = "."
			} else if !strings.HasPrefix(path, module) {
				continue
			}
			found := false
			for _, a := range ok {
				found = found || a == dep
			}
			if !found {
				t.Errorf("%s imports %s, which the layering policy forbids for %s", p, dep, pkg)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// A reader of records links nothing of the front end: report and record
// work from records.jsonl alone, so neither may reach HCL, cty, expr or
// the action grammar's parser, nor any srezc package but record and value,
// even through a package the policy above allows.
func TestRecordReadersLinkNoFrontEnd(t *testing.T) {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("go list needs the go command: %v", err)
	}
	banned := []string{"github.com/hashicorp/hcl", "github.com/zclconf/go-cty", "github.com/expr-lang/expr", "github.com/alecthomas/participle"}
	mine := map[string]bool{module + "record": true, module + "value": true, module + "report": true}
	for _, pkg := range []string{"./record", "./report"} {
		out, err := exec.Command(goCmd, "list", "-deps", pkg).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", pkg, err)
		}
		deps := strings.Fields(string(out))
		if len(deps) < 2 {
			t.Fatalf("go list -deps %s listed %q", pkg, deps)
		}
		for _, dep := range deps {
			for _, b := range banned {
				if strings.HasPrefix(dep, b) {
					t.Errorf("%s links %s", pkg, dep)
				}
			}
			if strings.HasPrefix(dep, module) && !mine[dep] {
				t.Errorf("%s links %s: a reader of records needs only record", pkg, dep)
			}
		}
	}
}

// The packages that play compiled tasks link no front end: not HCL, not
// expr (the compiler's predicate checker), through any path. The policy
// above checks direct imports; this checks what each one links, as
// "go list -deps" resolves it.
var playOnly = []string{"eval", "serve", "mcpserve", "action"}

func TestPlayersLinkNoFrontEnd(t *testing.T) {
	gocmd := filepath.Join(runtime.GOROOT(), "bin", "go")
	for _, pkg := range playOnly {
		out, err := exec.Command(gocmd, "list", "-deps", "./"+pkg).Output()
		if err != nil {
			t.Fatalf("go list -deps ./%s: %v", pkg, err)
		}
		deps := strings.Fields(string(out))
		if len(deps) < 10 {
			t.Fatalf("go list -deps ./%s listed only %q", pkg, deps)
		}
		for _, dep := range deps {
			if strings.HasPrefix(dep, "github.com/hashicorp/hcl") || strings.HasPrefix(dep, "github.com/expr-lang/expr") ||
				dep == module+"lang" || dep == module+"compiler" {
				t.Errorf("%s links %s", pkg, dep)
			}
		}
	}
}

// The certifier's digest (certifier.go) must cover every package of this
// module that compiling an incident runs: a package missing from it could
// change certification without changing the digest, and the shipped
// certification results would be used by code they were not computed by.
func TestCertifierCodeCoversTheCompiler(t *testing.T) {
	gocmd := filepath.Join(runtime.GOROOT(), "bin", "go")
	out, err := exec.Command(gocmd, "list", "-deps", "./compiler").Output()
	if err != nil {
		t.Fatalf("go list -deps ./compiler: %v", err)
	}
	n := 0
	for _, dep := range strings.Fields(string(out)) {
		if !strings.HasPrefix(dep, module) {
			continue
		}
		n++
		pkg := strings.TrimPrefix(dep, module)
		if !slices.Contains(srezc.CertifierPackages, pkg) {
			t.Errorf("the compiler runs %s, which certifier.go does not digest: add %s/*.go to its embed patterns and to CertifierPackages", dep, pkg)
		}
	}
	if n < 5 {
		t.Fatalf("go list -deps ./compiler listed %d of the module's packages", n)
	}
}
