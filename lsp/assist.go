package lsp

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/srezc/srezc/lang"
	"github.com/srezc/srezc/value"
)

// Hover and completion read the document's syntax around the cursor (the
// innermost block, the attribute or label the cursor is in) and answer from
// the analysed module: documentation written once in the stdlib is shown
// wherever a name is used.
//
// lang.CursorAt locates the cursor; the single parser stays in lang.

// incidentAt is the incident block around the cursor, if any.
func incidentAt(m *lang.Module, c lang.Cursor) *lang.Incident {
	for _, b := range c.Blocks {
		if b.Type == "incident" && len(b.Labels) > 0 {
			return m.Incident(b.Labels[0])
		}
	}
	return nil
}

// blockSchemas are the attributes and nested blocks each block takes, for
// completion (lang's decoder checks them).
var blockSchemas = map[string][2][]string{
	"": {nil, {"incident", "service_kind", "system", "fault_kind", "distractor_kind", "noise_pattern", "tool", "rubric", "suite", "mutation", "suite_spec"}},
	"incident": {{"title", "alert", "difficulty", "split", "tags", "budget", "system", "rubric", "traffic", "warmup", "hold", "resolved_when", "expert", "description",
		"root_cause", "root_cause_keywords", "distractor_services", "distractors", "terminal_on_wrong_resolution"},
		{"fault", "distractor", "noise", "fixture", "evidence", "correct_fix", "metadata"}},
	"fault":       {{"target"}, nil},
	"distractor":  {{"target"}, nil},
	"noise":       {{"target", "rate", "magnitude", "lag"}, nil},
	"mutation":    {{"description", "from", "faults", "targets", "parameters", "distractors", "noise", "where", "split"}, {"param"}},
	"suite_spec":  {{"description", "mutations", "tasks", "seed", "splits", "mix", "reserve", "secret_hash"}, nil},
	"correct_fix": {{"action", "service", "key", "min_numeric_value", "exact_value", "fix_keywords"}, nil},
}

// completion lists what fits at the cursor.
func completion(m *lang.Module, text string, off int) []protocol.CompletionItem {
	c := lang.CursorAt([]byte(text), off)
	var items []protocol.CompletionItem
	add := func(label string, kind protocol.CompletionItemKind, detail, doc string) {
		items = append(items, protocol.CompletionItem{Label: label, Kind: kind, Detail: detail, Documentation: doc})
	}
	decls := func(kind string) {
		for _, d := range m.AllDecls() {
			if d.Kind == kind {
				add(d.Decl.Name, protocol.CompletionItemKindReference, d.Kind, d.Decl.Description)
			}
		}
	}
	switch {
	case c.Label == 0:
		switch c.BlockType() {
		case "fault":
			decls("fault_kind")
		case "distractor":
			decls("distractor_kind")
		case "noise":
			decls("noise_pattern")
		}
	case c.Attr != "" && c.InValue:
		switch c.Attr {
		case "system":
			decls("system")
		case "rubric":
			decls("rubric")
		case "from":
			decls("incident")
		case "kind":
			decls("service_kind")
		case "difficulty":
			for _, d := range []string{"easy", "medium", "hard"} {
				add(d, protocol.CompletionItemKindEnumMember, "difficulty", "")
			}
		case "split":
			for _, d := range []string{"train", "dev", "test"} {
				add(d, protocol.CompletionItemKindEnumMember, "split", "")
			}
		case "target", "service":
			if in := incidentAt(m, c); in != nil {
				if sys := m.System(in.System); sys != nil {
					for _, s := range sys.Services {
						add(s.Name, protocol.CompletionItemKindValue, "service ("+s.Kind+")", "")
					}
					for _, f := range sys.Fixtures {
						add(f.Name, protocol.CompletionItemKindValue, "service", "")
					}
				}
			}
		}
	case c.Attr == "":
		schema := blockSchemas[c.BlockType()]
		for _, a := range schema[0] {
			add(a, protocol.CompletionItemKindProperty, "argument", "")
		}
		for _, b := range schema[1] {
			add(b, protocol.CompletionItemKindClass, "block", "")
		}
		// A fault block takes its kind's parameters.
		if c.BlockType() == "fault" && len(c.Blocks[len(c.Blocks)-1].Labels) > 0 {
			if fk := m.FaultKind(c.Blocks[len(c.Blocks)-1].Labels[0]); fk != nil {
				for _, p := range fk.Params {
					add(p.Name, protocol.CompletionItemKindField, "parameter ("+p.Kind.String()+", default "+p.Default.String()+")", domainText(p.Domain))
				}
			}
		}
	}
	sort.SliceStable(items, func(i, j int) bool { return items[i].Label < items[j].Label })
	return items
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

// hover documents the name under the cursor: a declaration of the module
// or the stdlib, or a config key or metric of a service kind.
func hover(m *lang.Module, text string, off int) string {
	name := nameAt(text, off)
	if name == "" {
		return ""
	}
	var parts []string
	for _, d := range m.AllDecls() {
		if d.Decl.Name != name {
			continue
		}
		doc := fmt.Sprintf("**%s** `%s`", strings.ReplaceAll(d.Kind, "_", " "), name)
		if d.Decl.Description != "" {
			doc += "\n\n" + d.Decl.Description
		}
		switch d.Kind {
		case "fault_kind":
			fk := m.FaultKind(name)
			doc += fmt.Sprintf("\n\nApplies to: %s. Mechanism: `%s`.", strings.Join(fk.AppliesTo, ", "), fk.Mechanism)
			for _, p := range fk.Params {
				doc += fmt.Sprintf("\n- `%s` %s, default %s. %s", p.Name, p.Kind, p.Default, domainText(p.Domain))
			}
		case "service_kind":
			k := m.ServiceKind(name)
			for _, ck := range k.Config {
				doc += "\n- " + configDoc(ck)
			}
		}
		parts = append(parts, doc)
	}
	for _, k := range m.ServiceKinds {
		for _, ck := range k.Config {
			if ck.Name == name && !slices.Contains(parts, ck.Description) {
				parts = append(parts, fmt.Sprintf("**config key of %s**: %s", k.Name, configDoc(ck)))
			}
		}
		for _, q := range k.Metrics() {
			if q.Name == name {
				parts = append(parts, fmt.Sprintf("**metric of %s** `%s` (%s%s)%s", k.Name, q.Name, q.Kind, unitText(q.Unit), descText(q.Description)))
			}
		}
	}
	return strings.Join(parts, "\n\n---\n\n")
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
