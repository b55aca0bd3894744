package srezero

import (
	"github.com/srezc/srezc/value"
)

// The bodies of the observations of the reference's world, in the native
// renderer's style and with its rule: nothing grader-side reaches the
// agent. The reference shows its agent the task id, the difficulty,
// known_findings (written conclusions that appear only for relevant
// evidence), whether a remediation was the fix, and why a resolution was
// rejected (spec §13); none of that is rendered here. A right and a wrong
// write, and an accepted and a rejected resolution, read the same apart
// from what the agent typed. engine writes the rest of an observation
// (the step line, errors, the end of the episode).

// Shows reports whether a valid step's outcome is one of this episode:
// an action type it knows, on one of its services when the type needs
// one. engine shows nothing of the world for any other.
func (r *State) Shows(o *Outcome) bool {
	return o.Type >= 0 && o.Type < ActionCount && (!ServiceAction(o.Type) || o.Service >= 0 && o.Service < len(r.config))
}

// AppendText appends what a valid step shows; o must satisfy Shows.
func (r *State) AppendText(b []byte, o *Outcome) []byte {
	svc := o.Service
	var name string
	if svc >= 0 {
		name = r.task.Services[svc].Name
	}
	switch o.Type {
	case InspectLogs:
		b = append(b, name...)
		b = append(b, " logs:\n"...)
		lines := 0
		for _, l := range r.task.Services[svc].Logs {
			b = append(append(append(b, "  "...), l...), '\n')
			lines++
		}
		for k := int32(0); k < r.restarts[svc]; k++ {
			b = append(append(append(b, "  "...), RestartLog...), '\n')
			lines++
		}
		if lines == 0 {
			b = append(b, "  (no log lines)\n"...)
		}
	case InspectMetrics:
		b = append(b, name...)
		b = append(b, " metrics:\n"...)
		for _, m := range r.task.Services[svc].Metrics {
			start := len(b)
			b = append(b, "  "...)
			b = append(b, m.Name...)
			b = pad(b, start, 28)
			b = m.Value.Append(b)
			b = append(b, '\n')
		}
	case CheckStatus:
		b = append(b, name...)
		b = append(b, " status: "...)
		b = append(b, r.status(svc)...)
		b = append(b, '\n')
	case InspectConfig:
		b = append(b, name...)
		b = append(b, " config:\n"...)
		cfg := r.config[svc]
		switch {
		case o.Key == KeyUnset:
			b = append(b, "  "...)
			b = append(b, o.Detail...)
			b = append(b, " is not set\n"...)
		case o.Key >= 0 && o.Key < len(cfg):
			b = appendConfigLine(b, &cfg[o.Key])
		default:
			for i := range cfg {
				b = appendConfigLine(b, &cfg[i])
			}
		}
	case RestartService:
		b = append(b, "Restart of "...)
		b = append(b, name...)
		b = append(b, " requested.\n"...)
	case UpdateConfig:
		cfg := r.config[svc]
		if o.Key < 0 || o.Key >= len(cfg) {
			b = append(b, "Config of "...)
			b = append(b, name...)
			b = append(b, " updated.\n"...)
			break
		}
		f := &cfg[o.Key]
		b = append(b, "Config "...)
		b = append(b, name...)
		b = append(b, '.')
		b = append(b, f.Name...)
		b = append(b, " set to "...)
		b = f.Value.Append(b)
		if o.Previous.K == value.Null {
			b = append(b, " (was not set).\n"...)
		} else {
			b = append(b, " (was "...)
			b = o.Previous.Append(b)
			b = append(b, ").\n"...)
		}
	case Escalate:
		b = append(b, "Incident escalated to a human responder.\n"...)
	case ResolveIncident:
		// Only a task that keeps going after a wrong resolution can be
		// open now, and then after a right one too (stepRef): the text
		// depends on whether the episode is over, never on the verdict.
		if o.Done {
			b = append(b, "Incident closed; your resolution is recorded.\n"...)
		} else {
			b = append(b, "Your resolution is recorded.\n"...)
		}
	}
	return b
}

func appendConfigLine(b []byte, f *Field) []byte {
	b = append(b, "  "...)
	b = append(b, f.Name...)
	b = append(b, " = "...)
	b = f.Value.Append(b)
	return append(b, '\n')
}

// AppendContentJSON appends a valid step's content as data; o must
// satisfy Shows:
//
//	inspect_logs      {"lines":["…"]}
//	inspect_metrics   {"metrics":{"name":value}}
//	check_status      {"status":"healthy"}
//	inspect_config    {"config":{"KEY":value}} (a key that is not set: null)
//	restart_service   {"restarted":true}
//	update_config     {"key","value","previous"} (previous null: not set)
//	escalate, resolve_incident  {"closed":true}
func (r *State) AppendContentJSON(b []byte, o *Outcome) []byte {
	svc := o.Service
	switch o.Type {
	case InspectLogs:
		b = append(b, `{"lines":[`...)
		n := 0
		for _, l := range r.task.Services[svc].Logs {
			if n > 0 {
				b = append(b, ',')
			}
			b = value.AppendJSONString(b, l)
			n++
		}
		for k := int32(0); k < r.restarts[svc]; k++ {
			if n > 0 {
				b = append(b, ',')
			}
			b = value.AppendJSONString(b, RestartLog)
			n++
		}
		b = append(b, "]}"...)
	case InspectMetrics:
		b = append(b, `{"metrics":`...)
		b = appendFieldsJSON(b, r.task.Services[svc].Metrics)
		b = append(b, '}')
	case CheckStatus:
		b = append(b, `{"status":`...)
		b = value.AppendJSONString(b, r.status(svc))
		b = append(b, '}')
	case InspectConfig:
		b = append(b, `{"config":`...)
		cfg := r.config[svc]
		switch {
		case o.Key == KeyUnset:
			b = append(b, '{')
			b = value.AppendJSONString(b, o.Detail)
			b = append(b, ":null}"...)
		case o.Key >= 0 && o.Key < len(cfg):
			b = appendFieldsJSON(b, cfg[o.Key:o.Key+1])
		default:
			b = appendFieldsJSON(b, cfg)
		}
		b = append(b, '}')
	case RestartService:
		b = append(b, `{"restarted":true}`...)
	case UpdateConfig:
		cfg := r.config[svc]
		if o.Key < 0 || o.Key >= len(cfg) {
			b = append(b, `{}`...)
			break
		}
		f := &cfg[o.Key]
		b = append(b, `{"key":`...)
		b = value.AppendJSONString(b, f.Name)
		b = append(b, `,"value":`...)
		b = f.Value.AppendJSON(b)
		b = append(b, `,"previous":`...)
		b = o.Previous.AppendJSON(b)
		b = append(b, '}')
	default:
		b = append(b, `{"closed":true}`...)
	}
	return b
}

func appendFieldsJSON(b []byte, fs []Field) []byte {
	b = append(b, '{')
	for i := range fs {
		if i > 0 {
			b = append(b, ',')
		}
		b = value.AppendJSONString(b, fs[i].Name)
		b = append(b, ':')
		b = fs[i].Value.AppendJSON(b)
	}
	return append(b, '}')
}

// pad fills b with spaces to width bytes past from, and always ends in at
// least one space, as engine's metric columns do.
func pad(b []byte, from, width int) []byte {
	b = append(b, ' ')
	for len(b)-from < width {
		b = append(b, ' ')
	}
	return b
}
