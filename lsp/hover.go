package lsp

import (
	"fmt"
	"slices"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/srezc/srezc/lang"
	"github.com/srezc/srezc/value"
)

// hover documents what is under the cursor, read from the last
// analysis and the document's current text.
func (s *Server) hover(p *protocol.HoverParams) (any, error) {
	m, ix, text := s.analysed(p.TextDocument.URI)
	doc := hover(m, ix, p.TextDocument.URI.Filename(), text, offsetOf(text, p.Position))
	if doc == "" {
		return (*protocol.Hover)(nil), nil
	}
	return &protocol.Hover{Contents: protocol.MarkupContent{Kind: protocol.Markdown, Value: doc}}, nil
}

// hover documents, in order of preference: the symbols lang's index has at
// the offset (ix is nil when the analysis is older than text), a block's
// keyword or an argument's name from the schema table, or else any
// declaration, config key, quantity or state named like the word there.
func hover(m *lang.Module, ix *lang.Index, file, text string, off int) string {
	if ix != nil {
		var parts []string
		for _, o := range ix.At(file, off) {
			if doc := symbolDoc(m, o.Symbol); doc != "" && !slices.Contains(parts, doc) {
				parts = append(parts, doc)
			}
		}
		if len(parts) > 0 {
			return strings.Join(parts, "\n\n---\n\n")
		}
	}
	name := nameAt(text, off)
	if name == "" {
		return ""
	}
	if schemaWords[name] {
		// Only a language word costs a parse of its block.
		if doc := keywordDoc(lang.CursorAt([]byte(text), off), name); doc != "" {
			return doc
		}
	}
	return nameDoc(m, name)
}

// schemaWords are the block types and argument names of the schema table.
var schemaWords = func() map[string]bool {
	out := map[string]bool{}
	for _, s := range lang.Schemas() {
		out[s.Type] = true
		for _, a := range s.Attrs {
			out[a.Name] = true
		}
	}
	return out
}()

// keywordDoc documents a block keyword or an argument name at the cursor,
// from the schema table: the context's own entry when the cursor's blocks
// are a context of the table, else every argument of that name.
func keywordDoc(c lang.Cursor, name string) string {
	if c.Keyword {
		if s := lang.SchemaAt(c.Path()...); s != nil && s.Type == name {
			return blockDoc(s)
		}
		return ""
	}
	if c.Attr != name || c.InValue {
		return ""
	}
	if s := lang.SchemaAt(c.Path()...); s != nil {
		if a := s.Attr(name); a != nil {
			return attrDoc(s, *a)
		}
	}
	var parts []string
	for _, s := range lang.Schemas() {
		if a := s.Attr(name); a != nil && !slices.ContainsFunc(parts, func(p string) bool { return strings.HasSuffix(p, a.Doc) }) {
			parts = append(parts, attrDoc(s, *a))
		}
	}
	return strings.Join(parts, "\n\n---\n\n")
}

func blockDoc(s *lang.BlockSchema) string {
	doc := fmt.Sprintf("**%s** block", s.Type)
	if i := strings.LastIndexByte(s.Path, '/'); i >= 0 {
		doc += fmt.Sprintf(" in `%s`", s.Path[:i])
	}
	if s.Label != "" {
		doc += fmt.Sprintf(", labelled with its %s", s.Label)
	}
	doc += "\n\n" + s.Doc
	for _, a := range s.Attrs {
		doc += fmt.Sprintf("\n- `%s` %s: %s", a.Name, attrDetail(a), a.Doc)
	}
	if s.Open {
		doc += "\n- any other argument: " + s.OpenDoc
	}
	if len(s.Blocks) > 0 {
		doc += "\n\nBlocks: " + strings.Join(s.Blocks, ", ") + "."
	}
	return doc
}

func attrDoc(s *lang.BlockSchema, a lang.AttrSchema) string {
	where := "the top level"
	if s.Path != "" {
		where = "`" + s.Path + "`"
	}
	return fmt.Sprintf("**%s** (%s, in %s): %s", a.Name, attrDetail(a), where, a.Doc)
}

func attrDetail(a lang.AttrSchema) string {
	if a.Required {
		return a.Type + ", required"
	}
	return a.Type
}

// symbolDoc documents one symbol of the index.
func symbolDoc(m *lang.Module, s lang.Symbol) string {
	switch s.Kind {
	case lang.SymFaultKind:
		fk := m.FaultKind(s.Name)
		if fk == nil {
			return ""
		}
		doc := declDoc(s, fk.Description) + fmt.Sprintf("\n\nApplies to: %s. Mechanism: `%s`.", strings.Join(fk.AppliesTo, ", "), fk.Mechanism)
		for _, p := range fk.Params {
			doc += fmt.Sprintf("\n- `%s` %s, default %s. %s", p.Name, p.Kind, p.Default, domainText(p.Domain))
		}
		return doc
	case lang.SymServiceKind:
		k := m.ServiceKind(s.Name)
		if k == nil {
			return ""
		}
		doc := declDoc(s, k.Description)
		for _, ck := range k.Config {
			doc += "\n- " + configDoc(ck)
		}
		return doc
	case lang.SymService:
		sys := m.System(s.Scope)
		if sys == nil {
			return ""
		}
		if ss := sys.Service(s.Name); ss != nil {
			doc := fmt.Sprintf("**service** `%s` of the system `%s`: %s", s.Name, s.Scope, article(ss.Kind))
			if k := m.ServiceKind(ss.Kind); k != nil && k.Description != "" {
				doc += "\n\n" + k.Description
			}
			return doc
		}
		return fmt.Sprintf("**service** `%s` of the fixture system `%s`", s.Name, s.Scope)
	case lang.SymConfigKey, lang.SymState, lang.SymQuantity, lang.SymRole:
		k := m.ServiceKind(s.Scope)
		if k == nil {
			return ""
		}
		switch s.Kind {
		case lang.SymConfigKey:
			if ck := k.ConfigKey(s.Name); ck != nil {
				return fmt.Sprintf("**config key of %s**: %s", k.Name, configDoc(ck))
			}
		case lang.SymState:
			if st := k.State(s.Name); st != nil {
				return fmt.Sprintf("**state of %s** `%s` (%s%s)%s", k.Name, st.Name, st.Kind, unitText(st.Unit), descText(st.Description))
			}
		case lang.SymQuantity:
			if q := k.Quantity(s.Name); q != nil {
				what := "derived quantity"
				if q.Metric {
					what = "metric"
				}
				return fmt.Sprintf("**%s of %s** `%s` (%s%s)%s", what, k.Name, q.Name, q.Kind, unitText(q.Unit), descText(q.Description))
			}
		case lang.SymRole:
			if r := k.Role(s.Name); r != nil {
				return fmt.Sprintf("**role of %s** `%s`: %s%s", k.Name, r.Name, article(r.Kind), descText(r.Description))
			}
		}
		return ""
	case lang.SymParam:
		if fk := m.FaultKind(s.Scope); fk != nil {
			if p := fk.Param(s.Name); p != nil {
				return fmt.Sprintf("**parameter of %s** `%s` %s, default %s%s. %s", fk.Name, p.Name, p.Kind, p.Default, descText(p.Description), domainText(p.Domain))
			}
		}
		return ""
	case lang.SymMechanism, lang.SymComponent:
		for _, r := range m.Rubrics {
			terms := r.Mechanisms
			if s.Kind == lang.SymComponent {
				terms = r.Components
			}
			for _, t := range terms {
				if t.Name == s.Name {
					return declDoc(s, t.Description) + "\n\nPhrases: " + strings.Join(t.Phrases, ", ") + "."
				}
			}
		}
		return ""
	}
	for _, d := range m.AllDecls() {
		if d.Decl.Name == s.Name && strings.ReplaceAll(d.Kind, "_", " ") == s.Kind.String() {
			return declDoc(s, d.Decl.Description)
		}
	}
	return ""
}

func declDoc(s lang.Symbol, description string) string {
	doc := fmt.Sprintf("**%s** `%s`", s.Kind, s.Name)
	if description != "" {
		doc += "\n\n" + description
	}
	return doc
}

// nameDoc documents a word by name alone, where the index has nothing
// (an expression whose analysis is stale, a word of a string): every
// declaration, config key, quantity and state of that name.
func nameDoc(m *lang.Module, name string) string {
	var parts []string
	for _, d := range m.AllDecls() {
		if d.Decl.Name != name {
			continue
		}
		kind := map[string]lang.SymbolKind{"fault_kind": lang.SymFaultKind, "service_kind": lang.SymServiceKind}[d.Kind]
		if kind != 0 {
			parts = append(parts, symbolDoc(m, lang.Symbol{Kind: kind, Name: name}))
			continue
		}
		doc := fmt.Sprintf("**%s** `%s`", strings.ReplaceAll(d.Kind, "_", " "), name)
		if d.Decl.Description != "" {
			doc += "\n\n" + d.Decl.Description
		}
		parts = append(parts, doc)
	}
	for _, k := range m.ServiceKinds {
		for _, ck := range k.Config {
			if ck.Name == name {
				parts = append(parts, fmt.Sprintf("**config key of %s**: %s", k.Name, configDoc(ck)))
			}
		}
		for _, q := range k.Derived {
			if q.Name == name {
				parts = append(parts, symbolDoc(m, lang.Symbol{Kind: lang.SymQuantity, Scope: k.Name, Name: name}))
			}
		}
		for _, st := range k.States {
			if st.Name == name {
				parts = append(parts, symbolDoc(m, lang.Symbol{Kind: lang.SymState, Scope: k.Name, Name: name}))
			}
		}
	}
	return strings.Join(parts, "\n\n---\n\n")
}

func article(w string) string {
	if w != "" && strings.ContainsRune("aeiouAEIOU", rune(w[0])) {
		return "an " + w
	}
	return "a " + w
}

func domainText(vs []value.Value) string {
	if len(vs) == 0 {
		return ""
	}
	var parts []string
	for _, v := range vs {
		parts = append(parts, v.String())
	}
	return "Domain: " + strings.Join(parts, ", ")
}

func configDoc(ck *lang.ConfigKey) string {
	s := fmt.Sprintf("`%s` %s, default %s%s", ck.Name, ck.Kind, ck.Default, unitText(ck.Unit))
	if ck.HasBand {
		s += fmt.Sprintf(", healthy %g to %g", ck.Low, ck.High)
	}
	return s + descText(ck.Description)
}

func unitText(u string) string {
	if u == "" {
		return ""
	}
	return " " + u
}

func descText(d string) string {
	if d == "" {
		return ""
	}
	return ". " + d
}
