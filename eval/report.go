package eval

import (
	"slices"
	"sort"
	"strings"

	"github.com/srezc/srezc/agents"
	"github.com/srezc/srezc/engine"
)

// Versions identify what produced a result, so results stay comparable
// and can be re-graded.
type Versions struct {
	Srezc    string `json:"srezc"`
	Renderer string `json:"renderer"`
	Profile  string `json:"profile"`
	Rubric   int    `json:"rubric_version"`
	Format   int    `json:"ir_format"`
}

// VersionsFor are the versions of a run of srezc version srezc over tasks.
func VersionsFor(srezc string, tasks []*engine.Task) Versions {
	return Versions{Srezc: srezc, Renderer: engine.RendererVersion, Profile: Profile(tasks), Rubric: engine.RubricVersion, Format: engine.FormatVersion}
}

// RecordLine is one line of records.jsonl: one episode.
type RecordLine struct {
	Task     string `json:"task"`
	Hash     string `json:"hash"`
	Suite    string `json:"suite"`
	Versions        // flattened: srezc, renderer, profile, ir_format
	Agent    string `json:"agent"`
	// Model and Prompt identify an LLM agent's model and the version of
	// its system prompt and observation rendering; empty for built-in
	// agents and humans.
	Model      string `json:"model,omitempty"`
	Prompt     string `json:"prompt,omitempty"`
	Seed       uint64 `json:"seed"`
	Episode    int    `json:"episode"`
	Difficulty string `json:"difficulty"`
	Split      string `json:"split"`
	// Family is the incident family (Family), Tags the incident's tags:
	// what the per-family and per-tag tables group by.
	Family string   `json:"family,omitempty"`
	Tags   []string `json:"tags,omitempty"`
	// Noise is "on" or "off" when a sweep ran each episode both ways
	// (--noise both), and empty when noise was as authored.
	Noise string `json:"noise,omitempty"`
	// Outcome is OutcomeScored or OutcomeInfraError. An infrastructure
	// error (the provider still failing after every retry) is excluded from
	// every metric and retried by --resume; InfraError says what failed.
	Outcome    string `json:"outcome"`
	InfraError string `json:"infra_error,omitempty"`
	// AgentError is set when the provider refused a request because of
	// what the agent sent (context length exceeded, a content filter): the
	// episode ends there, scored against the agent.
	AgentError string            `json:"agent_error,omitempty"`
	Terminal   string            `json:"terminal"`
	Failure    string            `json:"failure_mode"`
	Components engine.Components `json:"components"`
	Metrics    engine.Record     `json:"metrics"`
	// Usage is what the episode cost an LLM agent; nil for the others.
	Usage *Usage `json:"usage,omitempty"`
	// Judge is the model judge's verdict on the diagnosis (--judge),
	// beside the deterministic one in Metrics.Diagnosed, which stays the
	// score; absent when no judge ran or the episode did not resolve.
	Judge *JudgeRecord `json:"judge,omitempty"`
	// HeldOut is the published hash prefix of the secret seed a held-out
	// test task was generated from (never the seed).
	HeldOut string `json:"heldout,omitempty"`
	// Intro and Trajectory are what the agent saw and did (left out for
	// held-out tasks unless asked for).
	Intro      string `json:"intro,omitempty"`
	Trajectory []Move `json:"trajectory"`
}

// Episode outcomes. A sweep that aborts (an error no retry can fix) writes
// no record for the episodes it did not finish.
const (
	OutcomeScored     = "scored"
	OutcomeInfraError = "infra_error"
)

// Usage is an LLM agent's cost over one episode; latency_ms is the one
// field of a record that differs between two runs of the same sweep.
type Usage = agents.Usage

// Move is one step of a trajectory. Reply is the model's whole answer when
// an LLM agent chose the action (so an invalid action shows what the model
// said).
type Move struct {
	Step        int     `json:"step"`
	Action      string  `json:"action"`
	Observation string  `json:"observation"`
	Reward      float64 `json:"reward"`
	Reply       string  `json:"reply,omitempty"`
}

// TerminalAgentError is the terminal reason of an episode the provider
// refused to continue because of what the agent sent.
const TerminalAgentError = "agent_error"

// FailureMode classifies an episode as the reference does (its failure
// taxonomy): the first that applies of agent error, wrong remediation,
// premature resolution, budget exhausted, invalid action, an escalation
// that did not succeed; "success" or "other_failure" else. Escalation is
// srezc's addition, carved out of other_failure: the reference has no
// escalate tool, and lumping a policy's escalations there hid what it did.
func FailureMode(r engine.Record) string {
	switch {
	case r.Terminal == TerminalAgentError:
		return "agent_error"
	case r.Success:
		return "success"
	case r.WrongRemediations > 0:
		return "wrong_remediation"
	case r.PrematureResolutions > 0:
		return "premature_resolution"
	case r.Terminal == engine.TermBudget.String():
		return "step_budget_exhausted"
	case r.InvalidActions > 0:
		return "invalid_action"
	case r.Terminal == engine.TermEscalated.String():
		return "escalated"
	}
	return "other_failure"
}

// FailureModes lists the failure modes in the reference's order of
// precedence, success first.
var FailureModes = []string{"success", "agent_error", "wrong_remediation", "premature_resolution", "step_budget_exhausted", "invalid_action", "escalated", "other_failure"}

// FailureModeCount is how many episodes ended one way.
type FailureModeCount struct {
	Mode  string `json:"mode"`
	Count int    `json:"count"`
}

// Records turns an agent's episodes into records.jsonl lines.
func Records(agent, suite string, v Versions, tasks []*engine.Task, eps []Episode) []RecordLine {
	return RecordsWith(agent, suite, v, tasks, eps, false)
}

// RecordsWith is Records; the trajectories of held-out tasks are left out
// (the test split must not leak into anyone's training data) unless
// exportHeldOut says otherwise.
func RecordsWith(agent, suite string, v Versions, tasks []*engine.Task, eps []Episode, exportHeldOut bool) []RecordLine {
	byID := map[string]*engine.Task{}
	for _, t := range tasks {
		byID[t.ID] = t
	}
	out := make([]RecordLine, 0, len(eps))
	for i := range eps {
		out = append(out, NewRecord(agent, suite, v, byID[eps[i].Task], &eps[i], exportHeldOut))
	}
	return out
}

// NewRecord is the records.jsonl line of one episode of t; the suite is
// the hash of the suite t was run in.
func NewRecord(agent, suite string, v Versions, t *engine.Task, ep *Episode, exportHeldOut bool) RecordLine {
	r := RecordLine{Task: ep.Task, Hash: t.Hash, Suite: suite, Versions: v, Agent: agent, Model: ep.Model, Prompt: ep.Prompt,
		Seed: ep.Seed, Episode: ep.Episode, Difficulty: t.Difficulty, Split: t.Split, Family: Family(t), Tags: t.Tags,
		Noise: ep.Noise, Outcome: ep.Outcome, InfraError: ep.InfraError, AgentError: ep.AgentError,
		Terminal: ep.Record.Terminal, Failure: FailureMode(ep.Record), Components: ep.Components, Metrics: ep.Record,
		Usage: ep.Usage, Trajectory: []Move{}}
	if r.Outcome == "" {
		r.Outcome = OutcomeScored
	}
	if r.Outcome == OutcomeInfraError {
		r.Failure = ""
	}
	if r.Profile = t.Profile; r.Profile == "" {
		r.Profile = engine.ProfileNative
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
			r.Trajectory = append(r.Trajectory, Move{Step: s.Step, Action: s.Action, Observation: s.Observation, Reward: s.Reward, Reply: s.Reply})
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
		if t.Profile == engine.ProfileSreZero {
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
			tp = engine.ProfileNative
		}
		switch p {
		case "":
			p = tp
		case tp:
		default:
			return "mixed"
		}
	}
	if p == "" {
		return engine.ProfileNative
	}
	return p
}

// aggregator returns the metric aggregation for a suite's profile.
func aggregator(tasks []*engine.Task) func([]engine.Record) engine.Metrics {
	return Aggregator(Profile(tasks))
}

// Aggregator returns the metric aggregation for a rubric profile (as
// Profile names it): under sre_zero the marks are the reference's (spec §7,
// target 8 steps), since the native ones need the certified optimum the
// reference does not have; every other profile, "mixed" included, uses
// engine.Aggregate as it is.
func Aggregator(profile string) func([]engine.Record) engine.Metrics {
	if profile != engine.ProfileSreZero {
		return engine.Aggregate
	}
	return func(rs []engine.Record) engine.Metrics {
		m := engine.Aggregate(rs)
		for i := range m {
			if m[i].Name == "marks" {
				m[i].Value = engine.Marks(m, 8)
			}
		}
		return m
	}
}
