package engine

import (
	"github.com/srezc/srezc/internal/snapshot"
	"github.com/srezc/srezc/record"
	"github.com/srezc/srezc/srezero"
)

// rules is what a rubric profile decides in an Episode: how a step plays
// and is graded, what the record and the reward's parts are, how the
// world is shown, and what profile state a snapshot carries. NewEpisode
// chooses the rules once, from the task's profile; every public method a
// profile changes asks them and never tests the profile itself. The
// native profile's rules are the Episode's own methods; the sre_zero
// profile's (refRules) play the reference's fixture world, whose state
// lives in Episode.ref.
//
// Implementations are empty structs, so an Episode holds no pointer to
// itself and copying one (Fork, RestoreState) needs no fix-up. Actions
// and observations pass by value: a pointer through an interface call
// escapes, and the caller's Action or StepResult would then be allocated
// on every step.
type rules interface {
	// start allocates the profile's state for a new episode.
	start(e *Episode)
	// reset puts the profile's state back to step 0; fork copies it into f.
	reset(e *Episode)
	fork(e, f *Episode)
	step(e *Episode, a Action) StepResult
	components(e *Episode) record.Components
	record(e *Episode) record.EpisodeMetrics
	// creditEvidence settles the evidence part when the episode ends.
	creditEvidence(e *Episode, term Terminal)
	appendIntro(e *Episode, b []byte) []byte
	appendText(e *Episode, b []byte, o Observation) []byte
	// appendResultJSON writes a valid step's fields of AppendJSON.
	appendResultJSON(e *Episode, b []byte, o Observation) []byte
	// marshal appends the profile's state to a snapshot; restore reads it
	// into s, the episode being restored, from a snapshot of e.
	marshal(e *Episode, b []byte) []byte
	restore(e, s *Episode, r *snapshot.Reader)
	mitigated(e *Episode) bool
	appendAnomalies(e *Episode, dst []SlotID) []SlotID
}

// rulesFor chooses a task's rules.
func rulesFor(t *Task) rules {
	if t.Profile == record.ProfileSreZero && t.Ref != nil {
		return refRules{}
	}
	return nativeRules{}
}

// nativeRules are the native profile's: the Episode's own methods.
type nativeRules struct{}

func (nativeRules) start(e *Episode)                          {}
func (nativeRules) reset(e *Episode)                          {}
func (nativeRules) fork(e, f *Episode)                        {}
func (nativeRules) components(e *Episode) record.Components   { return e.comp }
func (nativeRules) marshal(e *Episode, b []byte) []byte       { return b }
func (nativeRules) restore(e, s *Episode, r *snapshot.Reader) {}
func (nativeRules) mitigated(e *Episode) bool                 { return e.mitigated() }
func (nativeRules) appendIntro(e *Episode, b []byte) []byte   { return e.appendIntro(b) }
func (nativeRules) appendText(e *Episode, b []byte, o Observation) []byte {
	return e.appendText(b, &o)
}
func (nativeRules) appendResultJSON(e *Episode, b []byte, o Observation) []byte {
	return e.appendResultJSON(b, &o)
}
func (nativeRules) appendAnomalies(e *Episode, dst []SlotID) []SlotID {
	return e.appendAnomalies(dst)
}
func (nativeRules) step(e *Episode, a Action) StepResult { return e.stepNative(&a) }

func (nativeRules) record(e *Episode) record.EpisodeMetrics {
	r := e.rec
	r.EvidenceCoverage = e.coverage()
	r.Terminal = e.terminal.String()
	return r
}

// Evidence pays for reading that led somewhere: in full when the agent
// diagnosed or mitigated, half when it handed over to a human, nothing
// when it read and then guessed or ran out of steps.
func (nativeRules) creditEvidence(e *Episode, term Terminal) {
	e.comp.Evidence *= record.EvidenceCredit(e.rec.Diagnosed, e.rec.Mitigated, term == TermEscalated)
}

// refRules are the sre_zero profile's: package srezero's State, through
// refprofile.go.
type refRules struct{}

func (refRules) start(e *Episode)                        { e.ref = srezero.New(e.t.Ref, e.t.Budget) }
func (refRules) reset(e *Episode)                        { e.ref.Reset() }
func (refRules) fork(e, f *Episode)                      { f.ref = e.ref.Fork() }
func (refRules) components(e *Episode) record.Components { return e.ref.Components() }
func (refRules) record(e *Episode) record.EpisodeMetrics { return e.recordRef() }
func (refRules) step(e *Episode, a Action) StepResult    { return e.stepRef(&a) }

// The reference pays evidence as it is found; nothing is settled at the end.
func (refRules) creditEvidence(e *Episode, term Terminal) {}
func (refRules) appendIntro(e *Episode, b []byte) []byte {
	return e.appendRefIntro(b)
}
func (refRules) appendText(e *Episode, b []byte, o Observation) []byte {
	return e.appendRefText(b, &o)
}
func (refRules) appendResultJSON(e *Episode, b []byte, o Observation) []byte {
	return e.appendRefJSON(b, &o)
}
func (refRules) marshal(e *Episode, b []byte) []byte       { return e.ref.Marshal(b) }
func (refRules) restore(e, s *Episode, r *snapshot.Reader) { s.ref = e.ref.Restore(r) }

// The fixture world has no health checks: the grader never judges an
// sre_zero episode mitigated this way, and it shows no anomalies.
func (refRules) mitigated(e *Episode) bool                         { return false }
func (refRules) appendAnomalies(e *Episode, dst []SlotID) []SlotID { return dst }
