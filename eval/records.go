package eval

import (
	"slices"
	"sort"
	"strings"

	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/record"
)

// VersionsFor are the versions of a run of srezc version srezc over tasks.
func VersionsFor(srezc string, tasks []*engine.Task) record.Versions {
	return record.Versions{Srezc: srezc, Renderer: engine.RendererVersion, Profile: Profile(tasks), Rubric: engine.RubricVersion, Format: engine.FormatVersion}
}

// Records turns an agent's episodes into records.jsonl lines.
func Records(agent, suite string, v record.Versions, tasks []*engine.Task, eps []Episode) []record.Line {
	return RecordsWith(agent, suite, v, tasks, eps, false)
}

// RecordsWith is Records; the trajectories of held-out tasks are left out
// (the test split must not leak into anyone's training data) unless
// exportHeldOut says otherwise.
func RecordsWith(agent, suite string, v record.Versions, tasks []*engine.Task, eps []Episode, exportHeldOut bool) []record.Line {
	byID := map[string]*engine.Task{}
	for _, t := range tasks {
		byID[t.ID] = t
	}
	out := make([]record.Line, 0, len(eps))
	for i := range eps {
		out = append(out, NewRecord(agent, suite, v, byID[eps[i].Task], &eps[i], exportHeldOut))
	}
	return out
}

// NewRecord is the records.jsonl line of one episode of t; the suite is
// the hash of the suite t was run in.
func NewRecord(agent, suite string, v record.Versions, t *engine.Task, ep *Episode, exportHeldOut bool) record.Line {
	r := record.Line{Task: ep.Task, Hash: t.Hash, Suite: suite, Versions: v, Agent: agent, Model: ep.Model, Prompt: ep.Prompt,
		Seed: ep.Seed, Episode: ep.Episode, Difficulty: t.Difficulty, Split: t.Split, Family: Family(t), Tags: t.Tags,
		Noise: ep.Noise, NoiseEvents: ep.NoiseEvents, Outcome: ep.Outcome, InfraError: ep.InfraError, AgentError: ep.AgentError,
		Terminal: ep.Record.Terminal, Failure: record.FailureMode(ep.Record), Components: ep.Components, Metrics: ep.Record,
		Usage: ep.Usage, Trajectory: []record.Move{}}
	if r.Outcome == "" {
		r.Outcome = record.OutcomeScored
	}
	if r.Outcome == record.OutcomeInfraError {
		r.Failure = ""
	}
	if r.Profile = t.Profile; r.Profile == "" {
		r.Profile = record.ProfileNative
	}
	for _, tag := range t.Tags {
		if h, ok := strings.CutPrefix(tag, "heldout:"); ok {
			r.HeldOut = h
		}
	}
	if r.HeldOut == "" || exportHeldOut {
		if len(ep.Steps) > 0 {
			r.Intro = ep.Steps[0].Intro
		}
		for _, s := range ep.Steps {
			r.Trajectory = append(r.Trajectory, record.Move{Step: s.Step, Action: s.Action, Observation: s.Observation, Reward: s.Reward, Reply: s.Reply})
		}
	}
	return r
}

// UnseenIncidents marks the test incidents whose fault kinds appear in no
// train incident: the unseen_incident subset of test. Imported reference
// tasks carry their manifest's subset as the tag unseen_incident.
func UnseenIncidents(tasks []*engine.Task) map[string]bool {
	trained := map[string]bool{}
	for _, t := range tasks {
		if t.Split == "train" {
			for _, f := range t.Faults {
				trained[f.Kind] = true
			}
		}
	}
	out := map[string]bool{}
	for _, t := range tasks {
		if t.Split != "test" {
			continue
		}
		if t.Profile == record.ProfileSreZero {
			// An imported reference task has no fault kinds; its
			// manifest says which test tasks are unseen.
			if slices.Contains(t.Tags, "unseen_incident") {
				out[t.ID] = true
			}
			continue
		}
		unseen := len(t.Faults) > 0
		for _, f := range t.Faults {
			unseen = unseen && !trained[f.Kind]
		}
		if unseen {
			out[t.ID] = true
		}
	}
	return out
}

// Family is an incident's family: its fault kinds, sorted and joined by
// "+"; for an imported reference task, the service and action of its
// correct fix ("cache restart_service").
func Family(t *engine.Task) string {
	if t.Ref != nil {
		return t.Ref.Fix.Service + " " + t.Ref.Fix.ActionType
	}
	var kinds []string
	for _, f := range t.Faults {
		if !slices.Contains(kinds, f.Kind) {
			kinds = append(kinds, f.Kind)
		}
	}
	sort.Strings(kinds)
	return strings.Join(kinds, "+")
}

// Profile is the rubric profile of a suite: the profile its tasks share,
// or "mixed".
func Profile(tasks []*engine.Task) string {
	p := ""
	for _, t := range tasks {
		tp := t.Profile
		if tp == "" {
			tp = record.ProfileNative
		}
		switch p {
		case "":
			p = tp
		case tp:
		default:
			return record.ProfileMixed
		}
	}
	if p == "" {
		return record.ProfileNative
	}
	return p
}

// aggregator returns the metric aggregation for a suite's profile.
func aggregator(tasks []*engine.Task) func([]record.EpisodeMetrics) record.Metrics {
	return record.Aggregator(Profile(tasks))
}

// AppendNoiseEvents appends the noise events one step's observation showed
// (engine.AppendNoiseShown) as the record names them.
func AppendNoiseEvents(dst []record.NoiseEvent, t *engine.Task, step int, shown []engine.NoiseEvent) []record.NoiseEvent {
	for _, n := range shown {
		ev := record.NoiseEvent{Step: step, Tick: n.Tick, Service: t.Services[n.Service].Name, Kind: n.Effect.String()}
		if n.Slot != engine.NoSlot {
			ev.Metric = t.Slots[n.Slot].Name
		}
		dst = append(dst, ev)
	}
	return dst
}
