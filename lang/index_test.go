package lang_test

import (
	"strings"
	"testing"

	"github.com/srezc/srezc/lang"
)

func scenarioIndex(t *testing.T) (*lang.Module, *lang.Index) {
	t.Helper()
	m, diags := lang.Analyze(lang.ScenarioFiles())
	if diags.HasErrors() {
		t.Fatalf("scenarios: %v", diags[0])
	}
	return m, lang.NewIndex(m)
}

func fileNamed(t *testing.T, m *lang.Module, suffix string) *lang.File {
	t.Helper()
	for _, f := range m.Files {
		if strings.HasSuffix(f.Name, suffix) {
			return f
		}
	}
	t.Fatalf("no file %s", suffix)
	return nil
}

func textOf(m *lang.Module, r lang.Range) string {
	for _, f := range m.Files {
		if f.Name == r.Filename {
			return string(f.Src[r.Start.Byte:r.End.Byte])
		}
	}
	return ""
}

// TestIndexFaultLabelIsTheFaultKind: the label of fault "web_memory_leak"
// in the incident of the same name is the fault kind, defined once in the
// stdlib; the incident is another symbol (issue 17: go-to-definition
// returned both).
func TestIndexFaultLabelIsTheFaultKind(t *testing.T) {
	m, ix := scenarioIndex(t)
	f := fileNamed(t, m, "web_memory_leak.srez.hcl")
	off := strings.Index(string(f.Src), `fault "web_memory_leak"`) + len(`fault "w`)
	at := ix.At(f.Name, off)
	if len(at) != 1 || at[0].Symbol != (lang.Symbol{Kind: lang.SymFaultKind, Name: "web_memory_leak"}) {
		t.Fatalf("at the fault label: %+v", at)
	}
	defs := ix.Definitions(at[0].Symbol)
	if len(defs) != 1 || !strings.HasSuffix(defs[0].Range.Filename, "faults.srez.hcl") || !defs[0].Stdlib {
		t.Fatalf("definitions: %+v", defs)
	}
	// The incident's own label is the incident.
	inc := ix.At(f.Name, strings.Index(string(f.Src), `incident "web_memory_leak"`)+len(`incident "w`))
	if len(inc) != 1 || inc[0].Kind != lang.SymIncident || !inc[0].Def {
		t.Errorf("at the incident label: %+v", inc)
	}
}

// TestIndexTargetIsTheService: target = "web_server" is the service of the
// incident's system; its references are that service's uses (targets,
// expert actions, role bindings, resolved_when), never the service kind
// web_server (kind = "web_server", applies_to) nor another system's
// service (issue 17: 25 mixed hits).
func TestIndexTargetIsTheService(t *testing.T) {
	m, ix := scenarioIndex(t)
	var f *lang.File
	var off int
	for _, x := range m.Files {
		if i := strings.Index(string(x.Src), `target = "web_server"`); i >= 0 && !x.Stdlib {
			f, off = x, i+len(`target = "w`)
			break
		}
	}
	if f == nil {
		t.Fatal(`no scenario has target = "web_server"`)
	}
	at := ix.At(f.Name, off)
	if len(at) != 1 || at[0].Kind != lang.SymService || at[0].Name != "web_server" {
		t.Fatalf("at the target: %+v", at)
	}
	svc := at[0].Symbol
	refs := ix.References(svc, true)
	kindRefs := ix.References(lang.Symbol{Kind: lang.SymServiceKind, Name: "web_server"}, true)
	if len(kindRefs) == 0 {
		t.Fatal("the service kind web_server has no occurrences")
	}
	defs, targets, experts := 0, 0, 0
	for _, r := range refs {
		if got := textOf(m, r.Range); got != "web_server" {
			t.Errorf("a reference spans %q", got)
		}
		if r.Symbol != svc {
			t.Errorf("a reference of %s", r.Symbol)
		}
		for _, k := range kindRefs {
			if k.Range == r.Range {
				t.Errorf("%s is the service kind's occurrence", r.Range)
			}
		}
		line := lineAt(m, r.Range)
		switch {
		case r.Def:
			defs++
		case strings.Contains(line, "target"):
			targets++
		case strings.Contains(line, "expert") || strings.Contains(line, "(web_server"):
			experts++
		}
	}
	if defs != 1 || targets == 0 || experts == 0 {
		t.Errorf("%d definitions, %d targets, %d expert uses in %d references", defs, targets, experts, len(refs))
	}
	for _, r := range refs {
		if l := lineAt(m, r.Range); strings.Contains(l, "kind") || strings.Contains(l, "applies_to") {
			t.Errorf("%s: %q is not a use of the service", r.Range, l)
		}
	}
}

func lineAt(m *lang.Module, r lang.Range) string {
	for _, f := range m.Files {
		if f.Name == r.Filename {
			src := string(f.Src)
			start := strings.LastIndexByte(src[:r.Start.Byte], '\n') + 1
			end := strings.IndexByte(src[r.Start.Byte:], '\n')
			if end < 0 {
				return src[start:]
			}
			return src[start : r.Start.Byte+end]
		}
	}
	return ""
}

const renameDoc = `service_kind "svc" {
  config "limit" {
    type    = "int"
    default = 10
    low     = 1
    high    = 100
  }
  metric "load" {
    type  = "int"
    value = "config.limit"
    low   = 0
    high  = 100
  }
  status "down" { when = "config.limit < 5 && load > 90" }
}

system "mini" {
  service "api" { kind = "svc" }
  service "api_b" {
    kind = "svc"
    vary { limit = [10, 20] }
  }
}

fault_kind "limit_low" {
  applies_to = ["svc"]
  mechanism  = "connection_pool_exhausted"
  param "to" {
    type    = "int"
    default = 2
  }
  set_config { limit = param.to }
  fixed_when = "config.limit >= 5"
  remedy "update_config" { key = "limit" }
}

incident "limit_low" {
  alert      = "Errors."
  difficulty = "easy"
  split      = "train"
  budget     = 6
  system     = "mini"
  rubric     = "native"

  fault "limit_low" {
    target = "api"
    to     = 3
  }

  resolved_when = "api.config.limit >= 5 && api_b.load < 50"
  expert = ["inspect_config(api, limit)", "update_config(api, limit, 10)"]
}
`

// TestRenameConfigKey: renaming a config key edits its declaration and
// every use of that key (expressions of its kind, the fault kind's edit,
// remedy and fixed_when, a system's vary, resolved_when and expert actions) and nothing
// else: not the fault kind or incident named limit_low.
func TestRenameConfigKey(t *testing.T) {
	m, _ := lang.Analyze([]*lang.File{{Name: "r.srez.hcl", Src: []byte(renameDoc)}})
	ix := lang.NewIndex(m)
	off := strings.Index(renameDoc, `config "limit"`) + len(`config "l`)
	s, edits, err := ix.Rename("r.srez.hcl", off, "cap")
	if err != nil {
		t.Fatal(err)
	}
	if s != (lang.Symbol{Kind: lang.SymConfigKey, Scope: "svc", Name: "limit"}) {
		t.Fatalf("renaming %s", s)
	}
	out := []byte(renameDoc)
	for i := len(edits) - 1; i >= 0; i-- { // edits are sorted; apply from the end
		r := edits[i].Range
		out = append(out[:r.Start.Byte:r.Start.Byte], append([]byte("cap"), out[r.End.Byte:]...)...)
	}
	want := strings.NewReplacer(`config "limit"`, `config "cap"`, "config.limit", "config.cap", "set_config { limit", "set_config { cap", "vary { limit", "vary { cap",
		`key = "limit"`, `key = "cap"`, "api, limit", "api, cap").Replace(renameDoc)
	if string(out) != want {
		t.Errorf("after rename (%d edits):\n%s", len(edits), out)
	}
	if _, diags := lang.Analyze([]*lang.File{{Name: "r.srez.hcl", Src: out}}); diags.HasErrors() {
		t.Errorf("the renamed module has errors: %v", diags[0])
	}
	// The fault kind limit_low: its label in the incident, not the incident.
	fk := strings.Index(renameDoc, `fault "limit_low"`) + len(`fault "l`)
	s, edits, err = ix.Rename("r.srez.hcl", fk, "limit_starved")
	if err != nil || s.Kind != lang.SymFaultKind || len(edits) != 2 {
		t.Errorf("rename of the fault kind: %s, %d edits, %v", s, len(edits), err)
	}
	// A service: its declaration, the target, resolved_when, the actions.
	api := strings.Index(renameDoc, `target = "api"`) + len(`target = "a`)
	if s, edits, err = ix.Rename("r.srez.hcl", api, "gateway"); err != nil || s.Kind != lang.SymService || len(edits) != 5 {
		t.Errorf("rename of a service: %s, %d edits, %v", s, len(edits), err)
	}
	// Refused: a stdlib symbol, an invalid name, a name in use.
	if _, _, err := ix.Rename("r.srez.hcl", strings.Index(renameDoc, "connection_pool")+3, "x"); err == nil {
		t.Error("renamed a stdlib mechanism")
	}
	if _, _, err := ix.Rename("r.srez.hcl", off, "9lives"); err == nil {
		t.Error("renamed to an invalid name")
	}
	if _, _, err := ix.Rename("r.srez.hcl", api, "api_b"); err == nil {
		t.Error("renamed onto another service's name")
	}
}

// TestSearchSymbols: workspace symbols by name, with their kinds.
func TestSearchSymbols(t *testing.T) {
	_, ix := scenarioIndex(t)
	var kinds []string
	for _, o := range ix.Search("web_memory_leak") {
		if o.Name == "web_memory_leak" {
			kinds = append(kinds, o.Kind.String())
		}
	}
	if strings.Join(kinds, ",") != "fault kind,incident" {
		t.Errorf("symbols named web_memory_leak: %v", kinds)
	}
	all := ix.Search("")
	seen := map[lang.SymbolKind]bool{}
	for _, o := range all {
		seen[o.Kind] = true
		if !o.Def {
			t.Fatalf("a search result is not a definition: %+v", o)
		}
	}
	for k := lang.SymServiceKind; k <= lang.SymParam; k++ {
		if !seen[k] && k != lang.SymSuite && k != lang.SymMutation && k != lang.SymSuiteSpec {
			t.Errorf("no %s among the symbols", k)
		}
	}
}
