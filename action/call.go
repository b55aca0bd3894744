package action

import (
	"github.com/srezc/srezc/agents"
	"github.com/srezc/srezc/engine"
)

// A structured tool call (a model's native call, an MCP tools/call, the
// HTTP API's "tool") is a tool name and JSON arguments. It is played as
// the text action agents.CallText writes from it with the task's Specs,
// so that a record, a trace and a replay token hold one form of every
// action; agents.CallText lives with the agents, which see no task and
// convert their own native calls the same way.

// Specs documents a compiled task's tools for the structured form, as
// facts.ToolSpecs does from a module: a server running a compiled suite
// has no module.
func Specs(t *engine.Task) []agents.ToolSpec {
	tools := t.ToolSet()
	out := make([]agents.ToolSpec, 0, len(tools))
	for _, tool := range tools {
		s := agents.ToolSpec{Name: tool.Name, Description: tool.Doc, Args: []agents.ArgSpec{}}
		for _, a := range tool.Args {
			as := agents.ArgSpec{Name: a.Name, Type: a.Type.String(), Optional: a.Optional}
			if a.Type == engine.ArgValue {
				var keys []agents.KeyType
				for i := range t.Slots {
					if sl := &t.Slots[i]; sl.Class == engine.ClassConfig {
						keys = append(keys, agents.KeyType{Key: sl.Name, Type: sl.Kind.String()})
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
