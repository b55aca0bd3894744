package engine

import (
	"github.com/srezc/srezc/record"
	"github.com/srezc/srezc/srezero"
)

// The reference's tools (its available_tools, spec §1.1), in its order, as
// the Tools an sre_zero task offers. They are the profile's, not the
// task's: every sre_zero task has exactly these, so the IR stores none
// (validateRef) and the task hash covers them through the profile name.
// Step binds sre_zero actions by their own grammar (action.ParseRef); the
// table serves whatever reads a task's tools: the intro, a structured
// call's argument order (action.Specs), MCP's and the HTTP API's tool
// lists. Only resolve_incident's doc depends on the task: it ends the
// episode when a wrong resolution does (TerminalOnWrongResolution).
var refTools, refToolsTerminal = makeRefTools()

func makeRefTools() (open, terminal []Tool) {
	service := []ToolArg{{Name: "service", Type: ArgService}}
	open = []Tool{
		srezero.InspectLogs:    {Name: "inspect_logs", Effect: EffectLogs, Args: service, Doc: "Show a service's log lines."},
		srezero.InspectMetrics: {Name: "inspect_metrics", Effect: EffectMetrics, Args: service, Doc: "Show a service's current metrics."},
		srezero.CheckStatus:    {Name: "check_status", Effect: EffectStatus, Args: service, Doc: "Show a service's status."},
		srezero.InspectConfig: {Name: "inspect_config", Effect: EffectConfig,
			Args: []ToolArg{service[0], {Name: "key", Type: ArgConfigKey, Optional: true}},
			Doc:  "Show a service's configuration, or only the given key."},
		srezero.RestartService: {Name: "restart_service", Effect: EffectRestart, Args: service, Doc: "Restart a service."},
		srezero.UpdateConfig: {Name: "update_config", Effect: EffectUpdate,
			Args: []ToolArg{service[0], {Name: "key", Type: ArgConfigKey}, {Name: "value", Type: ArgValue}},
			Doc:  "Set one configuration key of a service to a value."},
		srezero.ResolveIncident: {Name: "resolve_incident", Effect: EffectResolve,
			Args: []ToolArg{{Name: "root_cause", Type: ArgText}, {Name: "fix", Type: ArgText}},
			Doc:  "Declare the incident resolved: name the root cause and the fix you applied."},
		srezero.Escalate: {Name: "escalate", Effect: EffectEscalate, Args: []ToolArg{{Name: "reason", Type: ArgText}},
			Doc: "Hand the incident to a human responder, with the reason. Ends the episode."},
	}
	terminal = append([]Tool(nil), open...)
	terminal[srezero.ResolveIncident].Doc += " Ends the episode."
	return open, terminal
}

// ToolSet is the tools an agent of the task may call, in the intro's
// order: the task's own, or, under sre_zero, the reference's. Callers must
// not modify it.
func (t *Task) ToolSet() []Tool {
	if t.Profile != record.ProfileSreZero || t.Ref == nil {
		return t.Tools
	}
	if t.Ref.TerminalOnWrongResolution {
		return refToolsTerminal
	}
	return refTools
}

// ServiceNames are the services an agent of the task may name, in the
// intro's order: the task's own, or, under sre_zero, the reference's
// fixtures. It allocates; tool schemas and task views call it once.
func (t *Task) ServiceNames() []string {
	out := make([]string, 0, len(t.Services))
	for i := range t.Services {
		out = append(out, t.Services[i].Name)
	}
	if len(out) == 0 && t.Ref != nil {
		for i := range t.Ref.Services {
			out = append(out, t.Ref.Services[i].Name)
		}
	}
	return out
}
