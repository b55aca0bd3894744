package srezc_test

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
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
	"lang":           {"value", "stdlib", "scenarios"},
	"certify":        {"value", "lang", "engine"},
	"compiler":       {"value", "lang", "engine", "certify"},
	"eval":           {"value", "lang", "compiler", "engine", "agents"},
	"suitegen":       {"value", "lang", "compiler", "certify", "engine", "agents", "eval"},
	"lsp":            {"value", "lang", "compiler", "certify", "engine"},
	"report":         {"engine", "eval", "agents"},
	"refdoc":         {"value", "lang"},
	"serve":          {"value", "lang", "compiler", "engine", "agents", "eval", "llm"},
	"mcpserve":       {"engine", "compiler", "eval", "agents", "llm"},
	"cli":            {"value", "lang", "compiler", "certify", "engine", "stdlib", "agents", "eval", "suitegen", "lsp", "llm", "report", "serve", "mcpserve", "refdoc"},
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
