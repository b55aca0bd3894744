package srezc_test

import (
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// The allowed imports, as policy data (after Go's deps_test.go): each
// package may import only the module packages listed, and only lang may
// import HCL.
var allowed = map[string][]string{
	"value":          {},
	"stdlib":         {},
	"scenarios":      {},
	"agents":         {},
	"llm":            {"agents"},
	"llm/llmtest":    {"agents", "llm"},
	"engine":         {"value"},
	"action":         {"value", "engine", "agents"},
	"lang":           {"value", "stdlib", "scenarios", "action"},
	"compiler":       {"value", "lang", "engine", "action"},
	"eval":           {"value", "engine", "agents", "action"},
	"facts":          {"value", "lang", "engine", "agents", "eval"},
	"suitegen":       {"value", "lang", "compiler", "engine", "agents", "eval", "facts"},
	"lsp":            {"value", "lang", "compiler", "engine"},
	"report":         {"engine", "eval", "agents"},
	"refdoc":         {"value", "lang"},
	"serve":          {"value", "engine", "action", "agents", "eval", "llm"},
	"mcpserve":       {"engine", "action", "eval", "agents", "llm"},
	"cli":            {"value", "lang", "compiler", "engine", "action", "facts", "stdlib", "agents", "eval", "suitegen", "lsp", "llm", "report", "serve", "mcpserve", "refdoc"},
	"cmd/srezc":      {"cli"},
	"cmd/srezc-load": {},
}

const module = "github.com/srezc/srezc/"

func TestImportsPointOneWay(t *testing.T) {
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return err
		}
		pkg := filepath.ToSlash(filepath.Dir(p))
		if pkg == "." {
			return nil
		}
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
			if !strings.HasPrefix(path, module) {
				continue
			}
			dep := strings.TrimPrefix(path, module)
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
