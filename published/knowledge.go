// Package published builds what an answer-blind operator knows before an
// incident: the module's published documentation (the systems' services
// and their kinds, the bands and defaults of every key and metric, the
// diagnosis vocabulary and what each key going wrong is called), as
// refdoc publishes it, never anything of an incident. The built-in
// adversaries (agents) play with it in evaluation and in certification,
// so it imports only lang, value and agents: certification reaches it
// without the evaluation harness.
package published

import (
	"slices"
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
	kinds := map[string]*lang.ServiceKind{}
	for _, sk := range m.ServiceKinds {
		kinds[sk.Name] = sk
	}
	k.DependsOn = map[string][]string{}
	for _, sys := range m.Systems {
		for _, s := range sys.Services {
			if _, seen := k.ServiceKinds[s.Name]; !seen {
				k.ServiceKinds[s.Name] = s.Kind
				k.DependsOn[s.Name] = dependencies(kinds[s.Kind], s.Roles)
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
	// kind, in source order, that sets it on that kind; and, by direction,
	// of the first that sets it below or above its default when its
	// parameters take their published defaults.
	called := map[[2]string]string{}
	below, above := map[[2]string]string{}, map[[2]string]string{}
	for _, fk := range m.FaultKinds {
		w := wording[fk.Mechanism]
		if w == "" {
			continue
		}
		for _, kind := range fk.AppliesTo {
			for _, e := range fk.Edits {
				key := [2]string{kind, e.Name}
				if e.State {
					continue
				}
				if called[key] == "" {
					called[key] = w
				}
				switch direction(fk, kinds[kind], e) {
				case -1:
					if below[key] == "" {
						below[key] = w
					}
				case 1:
					if above[key] == "" {
						above[key] = w
					}
				}
			}
		}
	}
	k.Mechanisms = mechanismDocs(m, rubric, wording)
	k.Operations, k.OperationCalled = operationDocs(m, wording)
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
				Below: below[[2]string{sk.Name, c.Name}], Above: above[[2]string{sk.Name, c.Name}],
			})
		}
	}
	return k
}

// dependencies are the services a service of kind sk depends on: its
// bound roles that are not callers, as the docs' system table lists them.
func dependencies(sk *lang.ServiceKind, roles []lang.Binding) []string {
	if sk == nil {
		return nil
	}
	var out []string
	for _, b := range roles {
		for _, r := range sk.Roles {
			if r.Name == b.Role && !r.Caller {
				out = append(out, b.Service)
			}
		}
	}
	return out
}

// direction says whether fault kind fk's edit e, with fk's parameters at
// their published defaults, puts a numeric key below (-1) or above (+1)
// its documented default; 0 when it cannot tell.
func direction(fk *lang.FaultKind, sk *lang.ServiceKind, e lang.Edit) int {
	if sk == nil || e.Eval == nil {
		return 0
	}
	params := map[string]value.Value{}
	for _, p := range fk.Params {
		params[p.Name] = p.Default
	}
	v, diag := e.Eval(lang.EditScope{Params: params, Config: sk.Defaults(), State: sk.Initials(), Traffic: lang.DefaultTraffic})
	if diag != nil {
		return 0
	}
	for _, c := range sk.Config {
		if c.Name != e.Name {
			continue
		}
		got, ok1 := number(v)
		def, ok2 := number(c.Default)
		switch {
		case !ok1 || !ok2:
		case got < def:
			return -1
		case got > def:
			return 1
		}
	}
	return 0
}

func number(v value.Value) (float64, bool) {
	switch v.K {
	case value.Int:
		return float64(v.I), true
	case value.Float:
		return v.F, true
	}
	return 0, false
}

// mechanismDocs is the diagnosis vocabulary as the docs publish it: each
// mechanism's id and description with the names and descriptions of its
// fault kinds, and the service kinds those apply to.
func mechanismDocs(m *lang.Module, rubric string, wording map[string]string) []agents.MechanismDoc {
	var out []agents.MechanismDoc
	at := map[string]int{}
	if r := m.Rubric(rubric); r != nil {
		for _, mech := range r.Mechanisms {
			at[mech.Name] = len(out)
			out = append(out, agents.MechanismDoc{Name: mech.Name, Wording: wording[mech.Name],
				Text: mech.Name + " " + mech.Description})
		}
	}
	for _, fk := range m.FaultKinds {
		i, ok := at[fk.Mechanism]
		if !ok {
			continue
		}
		d := &out[i]
		d.Text += " " + fk.Name + " " + fk.Description
		for _, r := range fk.Remedies {
			d.RollBack = d.RollBack || r.Effect == "rollback"
			d.Escalate = d.Escalate || r.Effect == "escalate"
		}
		for _, kind := range fk.AppliesTo {
			if !slices.Contains(d.Kinds, kind) {
				d.Kinds = append(d.Kinds, kind)
			}
		}
	}
	return out
}

// operationDocs are the operations each service kind declares and, per
// operation, the wording of the mechanism whose fault kinds it remedies
// (the first such fault kind in source order), as the docs publish them.
func operationDocs(m *lang.Module, wording map[string]string) (map[string][]string, map[string]string) {
	ops, called := map[string][]string{}, map[string]string{}
	for _, sk := range m.ServiceKinds {
		for _, op := range sk.Operations {
			ops[sk.Name] = append(ops[sk.Name], op.Name)
		}
	}
	for _, fk := range m.FaultKinds {
		for _, r := range fk.Remedies {
			if r.Effect == "operate" && called[r.Operation] == "" && wording[fk.Mechanism] != "" {
				called[r.Operation] = wording[fk.Mechanism]
			}
		}
	}
	return ops, called
}

// argText writes a value as a text-action argument.
func argText(v value.Value) string {
	if v.K == value.String {
		return strconv.Quote(v.S)
	}
	return v.String()
}
