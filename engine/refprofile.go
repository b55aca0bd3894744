package engine

import (
	"errors"
	"strconv"

	"github.com/srezc/srezc/record"
	"github.com/srezc/srezc/srezero"
	"github.com/srezc/srezc/value"
)

// engine's side of the sre_zero profile: it checks a task's shape, binds
// parsed actions, and turns the reference's outcomes into Observations
// and their text. The world and the grading are package srezero's.

// validateRef checks an sre_zero task: the profile's shape (no native
// program: the world is Ref's fixtures) and everything Step and the
// renderer index by.
func (t *Task) validateRef() error {
	if len(t.Slots) != 0 || len(t.Code) != 0 || len(t.Updates) != 0 || len(t.Logs) != 0 ||
		len(t.Tools) != 0 || len(t.Services) != 0 || len(t.Init) != 0 || t.Resolved != (Span{}) {
		return errors.New("an sre_zero task has no native slots, code, logs, tools or services")
	}
	if t.History != 2 || t.InitTick < 0 || t.InitTick > 1<<20 {
		return errors.New("an sre_zero task keeps history 2")
	}
	// The reference allows any max_steps; srezc sizes an episode's state
	// by the budget, so it must be a real one.
	if t.Budget < 1 || t.Budget > 10000 {
		return errors.New("budget out of range")
	}
	if t.Ref == nil {
		return errors.New("an sre_zero task needs its ref data")
	}
	return t.Ref.Validate()
}

// refErrCodes maps the reference's error classes onto engine's.
var refErrCodes = [...]ErrCode{
	srezero.OK:             OK,
	srezero.Syntax:         ErrSyntax,
	srezero.UnknownAction:  ErrUnknownTool,
	srezero.Arity:          ErrArity,
	srezero.EmptyText:      ErrEmptyText,
	srezero.UnknownService: ErrUnknownService,
}

// refTerminals maps the reference's reasons to end onto engine's.
var refTerminals = [...]Terminal{
	srezero.Open:      NotDone,
	srezero.Resolved:  TermResolved,
	srezero.Rejected:  TermRejected,
	srezero.Escalated: TermEscalated,
	srezero.Budget:    TermBudget,
}

// RefErrCode classifies one of the reference's parse error messages, so
// generic code can count and name sre_zero errors like native ones.
func RefErrCode(msg string) ErrCode { return refErrCodes[srezero.CodeOf(msg)] }

// BindRef makes an Action of an action parsed by the sre_zero grammar.
// Step reads only ra; the other fields let generic code count, name and
// tell apart invalid actions as it does native ones. ra must not change
// afterwards.
func (t *Task) BindRef(ra *srezero.Action) Action {
	a := Action{Tool: -1, Service: -1, Key: NoSlot, Ref: ra}
	if t.Ref == nil {
		a.Err, a.Detail = ErrSyntax, srezero.ErrUnbound
		return a
	}
	typ, svc, code, msg := t.Ref.Check(ra)
	a.Tool, a.Service, a.Err = int16(typ), int16(svc), refErrCodes[code]
	if code != srezero.OK {
		a.Detail = msg
	}
	if ra != nil {
		a.Canon = hashString(offset64, ra.Canonical)
	}
	return a
}

// stepRef is Step for an sre_zero task.
func (e *Episode) stepRef(a *Action) StepResult {
	budget := e.t.Budget
	if e.done {
		return StepResult{Obs: Observation{Step: int32(e.step), StepsLeft: int32(max(0, budget-e.step)), Tick: int32(e.tick), Tool: -1, Service: -1, Key: NoSlot, Err: ErrEpisodeDone, Done: true}, Terminal: e.terminal}
	}
	var ra *srezero.Action
	if a != nil {
		ra = a.Ref
	}
	e.step++
	var out srezero.Outcome
	e.ref.Step(ra, e.step, &e.rec, &out)
	if out.Done {
		e.done = true
		e.terminal = refTerminals[out.End]
	}
	obs := Observation{
		Step:        int32(e.step),
		StepsLeft:   int32(max(0, budget-e.step)),
		Tick:        int32(e.tick),
		Tool:        int16(out.Type),
		Service:     int16(out.Service),
		Key:         SlotID(out.Key),
		Err:         refErrCodes[out.Code],
		Detail:      out.Detail,
		RefPrevious: out.Previous,
		Done:        e.done,
	}
	return StepResult{Obs: obs, Reward: out.Reward, Terminal: e.terminal}
}

// refOutcome is the part of an outcome the renderer reads, from an
// Observation.
func refOutcome(o *Observation) srezero.Outcome {
	return srezero.Outcome{Type: int(o.Tool), Service: int(o.Service), Key: int(o.Key), Detail: o.Detail, Previous: o.RefPrevious, Done: o.Done}
}

// recordRef is Record for an sre_zero episode.
func (e *Episode) recordRef() record.EpisodeMetrics {
	rec := e.rec
	rec.EvidenceCoverage = e.ref.Coverage()
	rec.Mitigated = rec.CorrectRemediationApplied
	rec.Terminal = e.terminal.String()
	return rec
}

// RefComponents returns the reference's reward breakdown so far; the zero
// value for a native episode.
func (e *Episode) RefComponents() srezero.Breakdown {
	if e.ref == nil {
		return srezero.Breakdown{}
	}
	return e.ref.Breakdown()
}

// KnownFindings is the reference's known_findings (grader-side: srezc
// never shows it); nil for a native episode.
func (e *Episode) KnownFindings() []string {
	if e.ref == nil {
		return nil
	}
	return e.ref.KnownFindings()
}

// RefWorld is a copy of an sre_zero episode's world as it stands; nil for
// a native episode. Grader-side and for tests; it allocates.
func (e *Episode) RefWorld() []srezero.Service {
	if e.ref == nil {
		return nil
	}
	return e.ref.World()
}

func (e *Episode) appendRefIntro(b []byte) []byte {
	t := e.t
	b = appendIntroHead(b, t)
	b = append(b, "\nAct with one tool call per step, e.g. check_status(SERVICE); put free text that holds a comma in double quotes.\nTools:\n"...)
	for i := range srezero.ActionCount {
		tl := &t.ToolSet()[i]
		b = appendSignature(append(b, "  "...), tl)
		b = append(b, "\n      "...)
		b = append(b, tl.Doc...)
		b = append(b, '\n')
	}
	return b
}

func (e *Episode) appendRefText(b []byte, o *Observation) []byte {
	out := refOutcome(o)
	return e.appendRefTextOf(b, o, &out)
}

// appendRefTextOf is appendRefText of o, whose outcome out the caller
// has made already.
func (e *Episode) appendRefTextOf(b []byte, o *Observation, out *srezero.Outcome) []byte {
	b = append(b, "[step "...)
	b = strconv.AppendInt(b, int64(o.Step), 10)
	b = append(b, '/')
	b = strconv.AppendInt(b, int64(e.t.Budget), 10)
	b = append(b, "] "...)
	if o.Err == ErrEpisodeDone {
		return append(b, "The episode is over.\n"...)
	}
	if o.Err == OK && !e.ref.Shows(out) {
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
	return e.appendDone(e.ref.AppendText(b, out), o)
}

// appendRefJSON continues AppendJSON for a valid sre_zero action: the
// tool, the service, the text, and the content as data (srezero's
// AppendContentJSON).
func (e *Episode) appendRefJSON(b []byte, o *Observation) []byte {
	out := refOutcome(o)
	e.text = e.appendRefTextOf(e.text[:0], o, &out)
	if !e.ref.Shows(&out) {
		b = append(b, `,"text":`...)
		b = value.AppendJSONBytes(b, e.text)
		return append(b, '}')
	}
	b = append(b, `,"tool":`...)
	b = value.AppendJSONString(b, srezero.ActionTypes[out.Type])
	if out.Service >= 0 {
		b = append(b, `,"service":`...)
		b = value.AppendJSONString(b, e.t.Ref.Services[out.Service].Name)
	}
	b = append(b, `,"text":`...)
	b = value.AppendJSONBytes(b, e.text)
	b = append(b, `,"content":`...)
	b = e.ref.AppendContentJSON(b, &out)
	return append(b, '}')
}
