package lsp

import (
	"slices"
	"sort"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/srezc/srezc/lang"
	"github.com/srezc/srezc/value"
)

// Completion reads the document's syntax around the cursor (the innermost
// block, the attribute or label the cursor is in; lang.CursorAt, so the
// single parser stays in lang) and answers from lang's schema table and the
// analysed module: documentation written once in the stdlib is shown
// wherever a name is offered.

// incidentAt is the incident block around the cursor, if any.
func incidentAt(m *lang.Module, c lang.Cursor) *lang.Incident {
	for _, b := range c.Blocks {
		if b.Type == "incident" && len(b.Labels) > 0 {
			return m.Incident(b.Labels[0])
		}
	}
	return nil
}

// completion lists what fits at the cursor, read from the last analysis
// and the document's current text.
func (s *Server) completion(p *protocol.CompletionParams) (any, error) {
	m, _, text := s.analysed(p.TextDocument.URI)
	return &protocol.CompletionList{Items: completion(m, text, offsetOf(text, p.Position))}, nil
}

func completion(m *lang.Module, text string, off int) []protocol.CompletionItem {
	c := lang.CursorAt([]byte(text), off)
	var items []protocol.CompletionItem
	var add adder = func(label string, kind protocol.CompletionItemKind, detail, doc string) {
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
	case c.Attr == "expert" && c.InValue:
		expertCompletion(m, c, text, off, add)
	case c.Attr != "" && c.InValue && c.BlockType() == "fault":
		// A parameter's value: the values of its domain.
		if fk := faultAt(m, c); fk != nil {
			if p := fk.Param(c.Attr); p != nil {
				for _, v := range p.Domain {
					add(v.String(), protocol.CompletionItemKindValue, "value of "+fk.Name+"."+p.Name, "")
				}
			}
		}
		if c.Attr == "target" {
			servicesOf(m, c, add)
		}
	case c.Attr != "" && c.InValue && c.BlockType() == "service_kind" && slices.Contains([]string{"value", "next", "when", "initial"}, c.Attr),
		c.Attr != "" && c.InValue && slices.Contains([]string{"derived", "metric", "state", "status", "log"}, c.BlockType()) && slices.Contains([]string{"value", "next", "when"}, c.Attr):
		// Names an expression of a service kind may read.
		if k := kindAt(m, c); k != nil {
			for _, ck := range k.Config {
				add("config."+ck.Name, protocol.CompletionItemKindVariable, "config "+ck.Kind.String(), ck.Description)
			}
			for _, st := range k.States {
				add("state."+st.Name, protocol.CompletionItemKindVariable, "state "+st.Kind.String(), st.Description)
			}
			for _, q := range k.Derived {
				add(q.Name, protocol.CompletionItemKindVariable, q.Kind.String(), q.Description)
			}
			for _, r := range k.Roles {
				add(r.Name, protocol.CompletionItemKindModule, "role ("+r.Kind+")", r.Description)
			}
			for _, b := range lang.Builtins {
				add(b, protocol.CompletionItemKindFunction, "builtin", "")
			}
		}
	case c.Attr != "" && c.InValue && (c.BlockType() == "trace" || c.BlockType() == "span"):
		// A trace's figures name quantities of the kind; a span's kind is
		// a span kind, its calls the roles the kind depends on.
		k := kindAt(m, c)
		switch {
		case c.Attr == "kind" && c.BlockType() == "span":
			for _, sk := range lang.SpanKinds {
				add(sk, protocol.CompletionItemKindEnumMember, "span kind", "")
			}
		case c.Attr == "calls" && k != nil:
			for _, r := range k.Roles {
				if !r.Caller {
					add(r.Name, protocol.CompletionItemKindModule, "role ("+r.Kind+")", r.Description)
				}
			}
		case k != nil && slices.Contains([]string{"latency", "error_rate", "wait", "status"}, c.Attr):
			for _, q := range k.Derived {
				if (c.Attr == "status") == (q.Kind == value.String) {
					add(q.Name, protocol.CompletionItemKindVariable, q.Kind.String(), q.Description)
				}
			}
		}
	case c.Attr == "resolved_when" && c.InValue:
		// An incident's condition reads every service's quantities as
		// SERVICE.NAME, and healthy and fixed.
		add("healthy", protocol.CompletionItemKindVariable, "bool: every service healthy", "")
		add("fixed", protocol.CompletionItemKindVariable, "bool: every fault fixed", "")
		if in := incidentAt(m, c); in != nil {
			if sys := m.System(in.System); sys != nil {
				for _, ss := range sys.Services {
					k := m.ServiceKind(ss.Kind)
					if k == nil {
						continue
					}
					add(ss.Name+".status", protocol.CompletionItemKindVariable, "string", "")
					for _, q := range k.Derived {
						add(ss.Name+"."+q.Name, protocol.CompletionItemKindVariable, q.Kind.String(), q.Description)
					}
					for _, ck := range k.Config {
						add(ss.Name+".config."+ck.Name, protocol.CompletionItemKindVariable, ck.Kind.String(), ck.Description)
					}
				}
			}
		}
	case c.Attr == "fixed_when" && c.InValue && c.BlockType() == "fault_kind":
		// A fault kind's condition reads the config and state of the kinds
		// it applies to.
		if len(c.Blocks) > 0 && len(c.Blocks[len(c.Blocks)-1].Labels) > 0 {
			if fk := m.FaultKind(c.Blocks[len(c.Blocks)-1].Labels[0]); fk != nil {
				seen := map[string]bool{}
				for _, kn := range fk.AppliesTo {
					k := m.ServiceKind(kn)
					if k == nil {
						continue
					}
					for _, ck := range k.Config {
						if !seen["config."+ck.Name] {
							seen["config."+ck.Name] = true
							add("config."+ck.Name, protocol.CompletionItemKindVariable, ck.Kind.String(), ck.Description)
						}
					}
					for _, st := range k.States {
						if !seen["state."+st.Name] {
							seen["state."+st.Name] = true
							add("state."+st.Name, protocol.CompletionItemKindVariable, st.Kind.String(), st.Description)
						}
					}
				}
			}
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
		case "profile":
			for _, d := range []string{lang.ProfileNative, lang.ProfileSreZero} {
				add(d, protocol.CompletionItemKindEnumMember, "rubric profile", "")
			}
		case "split":
			for _, d := range []string{"train", "dev", "test"} {
				add(d, protocol.CompletionItemKindEnumMember, "split", "")
			}
		case "target", "service":
			servicesOf(m, c, add)
		}
	case c.Attr == "" && (c.BlockType() == "set_config" || c.BlockType() == "vary"):
		// A system service's site tuning, pinned or drawn: its kind's
		// config keys (numeric ones only, for vary), and for vary its
		// numeric states, which a site may draw too.
		if k := systemServiceKind(m, c); k != nil {
			for _, ck := range k.Config {
				if c.BlockType() == "vary" && !ck.Kind.Numeric() {
					continue
				}
				add(ck.Name, protocol.CompletionItemKindProperty, configDoc(ck), ck.Description)
			}
			if c.BlockType() == "vary" {
				for _, st := range k.States {
					if st.Kind.Numeric() {
						add(st.Name, protocol.CompletionItemKindProperty, "state "+st.Kind.String(), st.Description)
					}
				}
			}
		}
	case c.Attr == "":
		// The context's arguments and blocks, from lang's schema table; on
		// a block's keyword, the blocks that may stand there.
		path := c.Path()
		if c.Keyword {
			path = path[:len(path)-1]
		}
		if schema := lang.SchemaAt(path...); schema != nil {
			if !c.Keyword {
				for _, a := range schema.Attrs {
					add(a.Name, protocol.CompletionItemKindProperty, attrDetail(a), a.Doc)
				}
			}
			for _, b := range schema.Blocks {
				add(b, protocol.CompletionItemKindClass, "block", lang.SchemaAt(append(slices.Clone(path), b)...).Doc)
			}
		}
		// A fault block takes its kind's parameters.
		if c.BlockType() == "fault" && !c.Keyword && len(c.Blocks[len(c.Blocks)-1].Labels) > 0 {
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

type adder func(label string, kind protocol.CompletionItemKind, detail, doc string)

func servicesOf(m *lang.Module, c lang.Cursor, add adder) {
	in := incidentAt(m, c)
	if in == nil {
		return
	}
	if sys := m.System(in.System); sys != nil {
		for _, s := range sys.Services {
			add(s.Name, protocol.CompletionItemKindValue, "service ("+s.Kind+")", "")
		}
		for _, f := range sys.Fixtures {
			add(f.Name, protocol.CompletionItemKindValue, "service", "")
		}
	}
}

func faultAt(m *lang.Module, c lang.Cursor) *lang.FaultKind {
	b := c.Blocks[len(c.Blocks)-1]
	if b.Type != "fault" || len(b.Labels) == 0 {
		return nil
	}
	return m.FaultKind(b.Labels[0])
}

// kindAt is the service kind around the cursor.
func kindAt(m *lang.Module, c lang.Cursor) *lang.ServiceKind {
	for _, b := range c.Blocks {
		if b.Type == "service_kind" && len(b.Labels) > 0 {
			return m.ServiceKind(b.Labels[0])
		}
	}
	return nil
}

// systemServiceKind is the kind of the system service around the cursor.
func systemServiceKind(m *lang.Module, c lang.Cursor) *lang.ServiceKind {
	var sys *lang.System
	for _, b := range c.Blocks {
		switch {
		case b.Type == "system" && len(b.Labels) > 0:
			sys = m.System(b.Labels[0])
		case b.Type == "service" && len(b.Labels) > 0 && sys != nil:
			if ss := sys.Service(b.Labels[0]); ss != nil {
				return m.ServiceKind(ss.Kind)
			}
		}
	}
	return nil
}

// expertCompletion completes inside an expert action string: a tool name,
// then a service of the incident, then (for update_config and
// inspect_config) a config key of that service's kind.
func expertCompletion(m *lang.Module, c lang.Cursor, text string, off int, add adder) {
	start := strings.LastIndexByte(text[:off], '"')
	if start < 0 {
		return
	}
	typed := text[start+1 : off]
	open := strings.IndexByte(typed, '(')
	if open < 0 {
		for _, t := range m.Tools {
			add(t.Name, protocol.CompletionItemKindFunction, "tool ("+t.Effect+")", t.Description)
		}
		return
	}
	args := strings.Split(typed[open+1:], ",")
	if len(args) == 1 {
		servicesOf(m, c, add)
		return
	}
	tool := typed[:open]
	if len(args) == 2 && (tool == "update_config" || tool == "inspect_config") {
		in := incidentAt(m, c)
		if in == nil {
			return
		}
		if sys := m.System(in.System); sys != nil {
			if ss := sys.Service(strings.TrimSpace(args[0])); ss != nil {
				if k := m.ServiceKind(ss.Kind); k != nil {
					for _, ck := range k.Config {
						add(ck.Name, protocol.CompletionItemKindProperty, configDoc(ck), ck.Description)
					}
				}
			}
		}
	}
}
