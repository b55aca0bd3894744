// Package facts derives from a module's declarations what evaluation is
// given besides a compiled task: the greedy baseline's knowledge and the
// tools' specifications (published documentation, as refdoc publishes it)
// and the LLM judge's ground truth (grader-side). It is what keeps lang,
// and with it HCL and expr, out of eval, serve and mcpserve: they take
// these facts as data, and only the commands that analyse a module build
// them.
package facts

import (
	"github.com/srezc/srezc/agents"
	"github.com/srezc/srezc/lang"
	"github.com/srezc/srezc/published"
)

// Knowledge is what the greedy baseline and the blind adversaries know
// from a module's public documentation (published.Knowledge, which
// certification plays them with too).
func Knowledge(m *lang.Module, rubric string) *agents.Knowledge {
	return published.Knowledge(m, rubric)
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
