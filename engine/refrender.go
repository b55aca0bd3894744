package engine

import (
	"strconv"

	"github.com/srezc/srezc/value"
)

// The sre_zero observations, in the native renderer's style and with its
// rule: nothing grader-side reaches the agent. The reference shows its
// agent the task id, the difficulty, known_findings (written conclusions
// that appear only for relevant evidence), whether a remediation was the
// fix, and why a resolution was rejected (spec §13); none of that is
// rendered here. A right and a wrong write, and an accepted and a rejected
// resolution, read the same apart from what the agent typed.

func (e *Episode) appendRefIntro(b []byte) []byte {
	t := e.t
	b = append(b, "ALERT: "...)
	b = append(b, t.Alert...)
	b = append(b, "\nYou are on call. Step budget: "...)
	b = strconv.AppendInt(b, int64(t.Budget), 10)
	b = append(b, ".\nServices:"...)
	for i := range t.Ref.Services {
		b = append(b, ' ')
		b = append(b, t.Ref.Services[i].Name...)
	}
	b = append(b, "\nAct with one tool call per step, e.g. check_status(SERVICE); put free text that holds a comma in double quotes.\nTools:\n"...)
	for i := range refActionCount {
		tl := &t.ToolSet()[i]
		b = appendSignature(append(b, "  "...), tl)
		b = append(b, "\n      "...)
		b = append(b, tl.Doc...)
		b = append(b, '\n')
	}
	return b
}

func (e *Episode) appendRefText(b []byte, o *Observation) []byte {
	t := e.t
	r := e.ref
	b = append(b, "[step "...)
	b = strconv.AppendInt(b, int64(o.Step), 10)
	b = append(b, '/')
	b = strconv.AppendInt(b, int64(t.Budget), 10)
	b = append(b, "] "...)
	if o.Err == ErrEpisodeDone {
		return append(b, "The episode is over.\n"...)
	}
	svc := int(o.Service)
	if o.Err == OK && (o.Tool < 0 || o.Tool >= refActionCount || refServiceAction(int(o.Tool)) && (svc < 0 || svc >= len(r.config))) {
		// Not an observation of this episode; show nothing of the world.
		return e.appendDone(append(b, "Invalid action.\n"...), o)
	}
	if o.Err != OK {
		b = append(b, "Invalid action: "...)
		if o.Err == ErrUnknownService {
			b = append(b, o.Err.String()...)
			b = append(b, " ("...)
			b = append(b, o.Detail...)
			b = append(b, ")."...)
		} else {
			b = append(b, o.Detail...)
			if n := len(o.Detail); n == 0 || o.Detail[n-1] != '.' {
				b = append(b, '.')
			}
		}
		return e.appendDone(append(b, '\n'), o)
	}
	var name string
	if svc >= 0 {
		name = r.task.Services[svc].Name
	}
	switch int(o.Tool) {
	case refInspectLogs:
		b = append(b, name...)
		b = append(b, " logs:\n"...)
		lines := 0
		for _, l := range r.task.Services[svc].Logs {
			b = append(append(append(b, "  "...), l...), '\n')
			lines++
		}
		for k := int32(0); k < r.restarts[svc]; k++ {
			b = append(append(append(b, "  "...), refRestartLog...), '\n')
			lines++
		}
		if lines == 0 {
			b = append(b, "  (no log lines)\n"...)
		}
	case refInspectMetrics:
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
	case refCheckStatus:
		b = append(b, name...)
		b = append(b, " status: "...)
		b = append(b, r.status(svc)...)
		b = append(b, '\n')
	case refInspectConfig:
		b = append(b, name...)
		b = append(b, " config:\n"...)
		cfg := r.config[svc]
		switch {
		case o.Key == refKeyUnset:
			b = append(b, "  "...)
			b = append(b, o.Detail...)
			b = append(b, " is not set\n"...)
		case o.Key >= 0 && int(o.Key) < len(cfg):
			b = appendRefConfigLine(b, &cfg[o.Key])
		default:
			for i := range cfg {
				b = appendRefConfigLine(b, &cfg[i])
			}
		}
	case refRestartService:
		b = append(b, "Restart of "...)
		b = append(b, name...)
		b = append(b, " requested.\n"...)
	case refUpdateConfig:
		cfg := r.config[svc]
		if o.Key < 0 || int(o.Key) >= len(cfg) {
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
		if o.RefPrevious.K == value.Null {
			b = append(b, " (was not set).\n"...)
		} else {
			b = append(b, " (was "...)
			b = o.RefPrevious.Append(b)
			b = append(b, ").\n"...)
		}
	case refEscalate:
		b = append(b, "Incident escalated to a human responder.\n"...)
	case refResolveIncident:
		// Only a task that keeps going after a wrong resolution can be
		// open now, and then after a right one too (stepRef): the text
		// depends on whether the episode is over, never on the verdict.
		if o.Done {
			b = append(b, "Incident closed; your resolution is recorded.\n"...)
		} else {
			b = append(b, "Your resolution is recorded.\n"...)
		}
	}
	return e.appendDone(b, o)
}

func appendRefConfigLine(b []byte, f *RefField) []byte {
	b = append(b, "  "...)
	b = append(b, f.Name...)
	b = append(b, " = "...)
	b = f.Value.Append(b)
	return append(b, '\n')
}

// appendRefJSON continues AppendJSON for a valid sre_zero action: the tool,
// the service, the text, and the content as data:
//
//	inspect_logs      {"lines":["…"]}
//	inspect_metrics   {"metrics":{"name":value}}
//	check_status      {"status":"healthy"}
//	inspect_config    {"config":{"KEY":value}} (a key that is not set: null)
//	restart_service   {"restarted":true}
//	update_config     {"key","value","previous"} (previous null: not set)
//	escalate, resolve_incident  {"closed":true}
func (e *Episode) appendRefJSON(b []byte, o *Observation) []byte {
	r := e.ref
	e.text = e.appendRefText(e.text[:0], o)
	svc := int(o.Service)
	if o.Tool < 0 || o.Tool >= refActionCount || refServiceAction(int(o.Tool)) && (svc < 0 || svc >= len(r.config)) {
		b = append(b, `,"text":`...)
		b = value.AppendJSONBytes(b, e.text)
		return append(b, '}')
	}
	b = append(b, `,"tool":`...)
	b = value.AppendJSONString(b, refActionTypes[o.Tool])
	if svc >= 0 {
		b = append(b, `,"service":`...)
		b = value.AppendJSONString(b, r.task.Services[svc].Name)
	}
	b = append(b, `,"text":`...)
	b = value.AppendJSONBytes(b, e.text)
	b = append(b, `,"content":`...)
	switch int(o.Tool) {
	case refInspectLogs:
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
			b = value.AppendJSONString(b, refRestartLog)
			n++
		}
		b = append(b, "]}"...)
	case refInspectMetrics:
		b = append(b, `{"metrics":`...)
		b = appendRefFieldsJSON(b, r.task.Services[svc].Metrics)
		b = append(b, '}')
	case refCheckStatus:
		b = append(b, `{"status":`...)
		b = value.AppendJSONString(b, r.status(svc))
		b = append(b, '}')
	case refInspectConfig:
		b = append(b, `{"config":`...)
		cfg := r.config[svc]
		switch {
		case o.Key == refKeyUnset:
			b = append(b, '{')
			b = value.AppendJSONString(b, o.Detail)
			b = append(b, ":null}"...)
		case o.Key >= 0 && int(o.Key) < len(cfg):
			b = appendRefFieldsJSON(b, cfg[o.Key:o.Key+1])
		default:
			b = appendRefFieldsJSON(b, cfg)
		}
		b = append(b, '}')
	case refRestartService:
		b = append(b, `{"restarted":true}`...)
	case refUpdateConfig:
		cfg := r.config[svc]
		if o.Key < 0 || int(o.Key) >= len(cfg) {
			b = append(b, `{}`...)
			break
		}
		f := &cfg[o.Key]
		b = append(b, `{"key":`...)
		b = value.AppendJSONString(b, f.Name)
		b = append(b, `,"value":`...)
		b = f.Value.AppendJSON(b)
		b = append(b, `,"previous":`...)
		b = o.RefPrevious.AppendJSON(b)
		b = append(b, '}')
	default:
		b = append(b, `{"closed":true}`...)
	}
	return append(b, '}')
}

func appendRefFieldsJSON(b []byte, fs []RefField) []byte {
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
