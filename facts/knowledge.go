// Package facts derives from a module's declarations what evaluation is
// given besides a compiled task: the greedy baseline's knowledge and the
// tools' specifications (published documentation, as refdoc publishes it)
// and the LLM judge's ground truth (grader-side). It is what keeps lang,
// and with it HCL and expr, out of eval, serve and mcpserve: they take
// these facts as data, and only the commands that analyse a module build
// them.
package facts

import (
	"strconv"

	"github.com/srezc/srezc/agents"
	"github.com/srezc/srezc/lang"
	"github.com/srezc/srezc/value"
)

// Knowledge builds what the greedy baseline knows from a module's public
// documentation: the systems' services and their kinds, the rubric's words
// for each kind, the kinds' bands and defaults, and, from the fault kinds,
// what a fault of each config key is called. Nothing comes from an
// incident.
func Knowledge(m *lang.Module, rubric string) *agents.Knowledge {
	k := &agents.Knowledge{
		ServiceKinds: map[string]string{},
		Aliases:      map[string][]string{},
		Metrics:      map[string]map[string]agents.Band{},
		Keys:         map[string][]agents.KeyDoc{},
		Crash:        "crashed",
	}
	for _, sys := range m.Systems {
		for _, s := range sys.Services {
			if _, seen := k.ServiceKinds[s.Name]; !seen {
				k.ServiceKinds[s.Name] = s.Kind
			}
		}
	}
	wording := map[string]string{} // mechanism → its first phrase
	if r := m.Rubric(rubric); r != nil {
		for _, c := range r.Components {
			k.Aliases[c.Name] = append([]string(nil), c.Phrases...)
		}
		for _, mech := range r.Mechanisms {
			if len(mech.Phrases) > 0 {
				wording[mech.Name] = mech.Phrases[0]
			}
		}
		if w := wording["process_crashed"]; w != "" {
			k.Crash = w
		}
	}
	// What a key going wrong is called: the mechanism of the first fault
	// kind, in source order, that sets it on that kind.
	called := map[[2]string]string{}
	for _, fk := range m.FaultKinds {
		for _, kind := range fk.AppliesTo {
			for _, e := range fk.Edits {
				key := [2]string{kind, e.Name}
				if !e.State && called[key] == "" && wording[fk.Mechanism] != "" {
					called[key] = wording[fk.Mechanism]
				}
			}
		}
	}
	for _, sk := range m.ServiceKinds {
		bands := map[string]agents.Band{}
		for _, q := range sk.Metrics() {
			if q.HasBand {
				bands[q.Name] = agents.Band{Low: q.Low, High: q.High}
			}
		}
		k.Metrics[sk.Name] = bands
		for _, c := range sk.Config {
			k.Keys[sk.Name] = append(k.Keys[sk.Name], agents.KeyDoc{
				Name: c.Name, HasBand: c.HasBand, Band: agents.Band{Low: c.Low, High: c.High},
				Default: argText(c.Default), Mechanism: called[[2]string{sk.Name, c.Name}],
			})
		}
	}
	return k
}

// argText writes a value as a text-action argument.
func argText(v value.Value) string {
	if v.K == value.String {
		return strconv.Quote(v.S)
	}
	return v.String()
}

// ToolSpecs documents the module's tools for models that call tools
// natively: each tool's description and arguments, as the stdlib declares
// them.
func ToolSpecs(m *lang.Module) []agents.ToolSpec {
	var out []agents.ToolSpec
	for _, t := range m.Tools {
		if t.Broken {
			continue
		}
		s := agents.ToolSpec{Name: t.Name, Description: t.Description, Args: []agents.ArgSpec{}}
		for _, a := range t.Args {
			as := agents.ArgSpec{Name: a.Name, Type: a.Type, Optional: a.Optional}
			if a.Type == "value" {
				var keys []agents.KeyType
				for _, k := range m.ServiceKinds {
					if k.Broken {
						continue
					}
					for _, c := range k.Config {
						keys = append(keys, agents.KeyType{Key: c.Name, Type: c.Kind.String()})
					}
				}
				as.Keys = agents.SortKeyTypes(keys)
			}
			s.Args = append(s.Args, as)
		}
		out = append(out, s)
	}
	return out
}
