package lang_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/srezc/srezc/lang"
)

// TestSchemaCoversSources walks every block and attribute of the stdlib
// and the shipped scenarios through the schema table: each must be a
// context or attribute the table has, at the place it is written. It also
// lists what the sources never use, so a context or attribute the table
// gains without any source using it is noticed in the log.
func TestSchemaCoversSources(t *testing.T) {
	used := map[string]bool{}
	files := append(lang.StdlibFiles(), lang.ScenarioFiles()...)
	for _, f := range files {
		parsed, diags := hclsyntax.ParseConfig(f.Src, f.Name, hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatalf("%s: %v", f.Name, diags)
		}
		var walk func(path []string, body *hclsyntax.Body)
		walk = func(path []string, body *hclsyntax.Body) {
			s := lang.SchemaAt(path...)
			if s == nil {
				t.Errorf("%s: no schema context %q", f.Name, strings.Join(path, "/"))
				return
			}
			used[s.Path] = true
			for name, a := range body.Attributes {
				if s.Attr(name) == nil && !s.Open {
					t.Errorf("%s: the attribute %q of %q is not in the schema table", a.SrcRange, name, s.Path)
				}
				used[s.Path+"."+name] = true
			}
			for _, b := range body.Blocks {
				if !slices.Contains(s.Blocks, b.Type) {
					t.Errorf("%s: the block %q in %q is not in the schema table", b.DefRange(), b.Type, s.Path)
					continue
				}
				child := append(slices.Clone(path), b.Type)
				if got, want := len(b.Labels), lang.SchemaAt(child...).Labels; got != want {
					t.Errorf("%s: %q has %d labels, the table says %d", b.DefRange(), b.Type, got, want)
				}
				walk(child, b.Body)
			}
		}
		walk(nil, parsed.Body.(*hclsyntax.Body))
	}
	var unused []string
	for _, s := range lang.Schemas() {
		if !used[s.Path] {
			unused = append(unused, s.Path)
			continue
		}
		for _, a := range s.Attrs {
			if !used[s.Path+"."+a.Name] {
				unused = append(unused, s.Path+"."+a.Name)
			}
		}
	}
	t.Logf("in the table, used by no shipped source: %s", strings.Join(unused, ", "))
}

// TestDecoderFollowsSchema probes the decoder at every context of the
// table, both ways: each attribute and nested block the table lists is
// accepted there, and an attribute or block it does not list is rejected
// (an open context accepts any attribute).
func TestDecoderFollowsSchema(t *testing.T) {
	for _, s := range lang.Schemas() {
		if s.Path == "" {
			continue
		}
		var names []string
		for _, a := range s.Attrs {
			names = append(names, a.Name)
		}
		names = append(names, "zz_probe")
		for _, name := range names {
			diags := decodeAt(s.Path, fmt.Sprintf("%s = \"x\"\n", name))
			rejected := hasDiag(diags, "Unsupported argument", fmt.Sprintf("An argument named %q", name))
			if want := name == "zz_probe" && !s.Open; rejected != want {
				t.Errorf("%s: attribute %q rejected=%v, the table says %v", s.Path, name, rejected, want)
			}
		}
		for _, b := range append(slices.Clone(s.Blocks), "zz_probe") {
			labels := 0
			if c := lang.SchemaAt(s.Path, b); c != nil {
				labels = c.Labels
			}
			diags := decodeAt(s.Path, header(b, labels)+"}\n")
			rejected := hasDiag(diags, "Unsupported block type", fmt.Sprintf("Blocks of type %q", b))
			if want := b == "zz_probe"; rejected != want {
				t.Errorf("%s: block %q rejected=%v, the table says %v", s.Path, b, rejected, want)
			}
		}
	}
}

// TestSchemaDocumented: every context and attribute has hover text.
func TestSchemaDocumented(t *testing.T) {
	n := 0
	for _, s := range lang.Schemas() {
		n++
		if s.Doc == "" {
			t.Errorf("%q has no doc", s.Path)
		}
		if s.Open && s.OpenDoc == "" {
			t.Errorf("%q is open and does not say what its attributes are", s.Path)
		}
		for _, a := range s.Attrs {
			if a.Doc == "" || a.Type == "" {
				t.Errorf("%s.%s lacks a doc or a type", s.Path, a.Name)
			}
		}
	}
	if n < 40 {
		t.Errorf("the table has %d contexts; the decoder knows more", n)
	}
}

func header(t string, labels int) string {
	h := t
	for range labels {
		h += ` "l"`
	}
	return h + " {\n"
}

// decodeAt analyses a file that nests body in the context at path.
func decodeAt(path, body string) lang.Diagnostics {
	var b strings.Builder
	parts := strings.Split(path, "/")
	for i := range parts {
		b.WriteString(header(parts[i], lang.SchemaAt(parts[:i+1]...).Labels))
	}
	b.WriteString(body)
	for range parts {
		b.WriteString("}\n")
	}
	_, diags := lang.Analyze([]*lang.File{{Name: "probe.srez.hcl", Src: []byte(b.String())}})
	return diags
}

func hasDiag(diags lang.Diagnostics, summary, detail string) bool {
	for _, d := range diags {
		if d.Summary == summary && strings.Contains(d.Detail, detail) {
			return true
		}
	}
	return false
}
