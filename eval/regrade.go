package eval

import (
	"context"
	"fmt"

	"github.com/srezc/srezc/agents"
	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/record"
)

// Regrade replays a recorded episode offline on t, the task as compiled
// now: the same seed and the same actions, graded by the current runtime.
// It refuses, with the reason, an episode of a task whose hash differs
// (the task changed: its actions would be answered differently), one with
// no trajectory (a held-out task's), and an infrastructure error (nothing
// was played to grade). changed names what grading now says differently:
// "metrics", "components", "rewards", "observations", "rubric_version".
//
// A record graded under an older rubric version (its rubric_version below
// engine.RubricVersion) is the exception to the hash rule: a new rubric
// changes the task's hash through its grading data alone (rubric 2 judges
// mitigation by the world and compiles the alert's condition into the
// IR). Such an episode is replayed and regraded when every observation the
// agent was shown comes back identical, which is what makes its actions
// still the agent's answers to the same world; otherwise it is refused.
func Regrade(t *engine.Task, r *record.Line, v record.Versions) (out record.Line, changed []string, err error) {
	olderRubric := r.Rubric < engine.RubricVersion
	switch {
	case r.Outcome == record.OutcomeInfraError:
		return *r, nil, fmt.Errorf("an infrastructure error: nothing was played")
	case r.Hash != t.Hash && !olderRubric:
		return *r, nil, fmt.Errorf("task hash %s, but %s compiles to %s now: the task changed since the episode was played", short(r.Hash), t.ID, short(t.Hash))
	case len(r.Trajectory) == 0 && r.Metrics.TotalSteps > 0:
		return *r, nil, fmt.Errorf("no trajectory (a held-out task's episodes keep none unless --export-heldout)")
	}
	played := t
	if r.Noise == record.NoiseOff {
		played = noiseless(t)
	}
	plan := make([]string, len(r.Trajectory))
	for i, m := range r.Trajectory {
		plan[i] = m.Action
	}
	ep, err := PlayTurns(context.Background(), played, agents.Turns(agents.NewScripted(plan)), r.Episode, r.Seed, true)
	if err != nil {
		return *r, nil, err
	}
	ep.Task, ep.Model, ep.Prompt, ep.Noise, ep.Usage = r.Task, r.Model, r.Prompt, r.Noise, r.Usage
	if r.AgentError != "" {
		ep.AgentError = r.AgentError
		ep.Record.Terminal = record.TerminalAgentError
	}
	out = NewRecord(r.Agent, r.Suite, v, t, &ep, true)
	// The same actions give the same answer on the same task: a judge's
	// verdict on it still holds.
	out.Judge = r.Judge
	for i := range out.Trajectory {
		if i < len(r.Trajectory) {
			out.Trajectory[i].Reply = r.Trajectory[i].Reply
		}
	}
	if out.Metrics != r.Metrics {
		changed = append(changed, "metrics")
	}
	if out.Components != r.Components {
		changed = append(changed, "components")
	}
	rewards, obs := len(out.Trajectory) != len(r.Trajectory), len(out.Trajectory) != len(r.Trajectory)
	for i := 0; i < min(len(out.Trajectory), len(r.Trajectory)); i++ {
		rewards = rewards || out.Trajectory[i].Reward != r.Trajectory[i].Reward
		obs = obs || out.Trajectory[i].Observation != r.Trajectory[i].Observation
	}
	if r.Hash != t.Hash {
		if obs {
			return *r, nil, fmt.Errorf("task hash %s, but %s compiles to %s now, and replaying the episode (graded under rubric_version %d) shows the agent different observations: the task changed since the episode was played", short(r.Hash), t.ID, short(t.Hash), r.Rubric)
		}
		changed = append(changed, "rubric_version")
	}
	if rewards {
		changed = append(changed, "rewards")
	}
	if obs {
		changed = append(changed, "observations")
	}
	return out, changed, nil
}

// ChatExample is one episode as chat-format training data: the messages an
// LLM agent of the given prompt would have exchanged, and what the episode
// was.
type ChatExample struct {
	Messages []ChatMessage `json:"messages"`
	Metadata ChatMetadata  `json:"metadata"`
}

// ChatMessage is a role and its text.
type ChatMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// ChatMetadata says where an example comes from.
type ChatMetadata struct {
	Task    string  `json:"task"`
	Hash    string  `json:"hash"`
	Agent   string  `json:"agent"`
	Model   string  `json:"model,omitempty"`
	Seed    uint64  `json:"seed"`
	Success bool    `json:"success"`
	Reward  float64 `json:"reward"`
	Prompt  string  `json:"prompt"`
}

// ChatExampleOf writes a recorded episode as a conversation: system (the
// given system prompt), user (the intro and the first instruction), then
// each action as the assistant's answer and each observation as the
// user's next message. With replies set, an LLM's whole answer stands for
// its action where the record has it (a ReAct Thought included). ok is
// false when the record has no trajectory to write.
func ChatExampleOf(r *record.Line, system, first, promptVersion string, replies bool) (ChatExample, bool) {
	if r.Outcome != record.OutcomeScored || r.Intro == "" || len(r.Trajectory) == 0 {
		return ChatExample{}, false
	}
	ex := ChatExample{Metadata: ChatMetadata{Task: r.Task, Hash: r.Hash, Agent: r.Agent, Model: r.Model, Seed: r.Seed,
		Success: r.Metrics.Success, Reward: r.Metrics.FinalReward, Prompt: promptVersion}}
	ex.Messages = append(ex.Messages, ChatMessage{"system", system}, ChatMessage{"user", r.Intro + "\n\n" + first})
	for i, m := range r.Trajectory {
		answer := m.Action
		if replies && m.Reply != "" {
			answer = m.Reply
		}
		ex.Messages = append(ex.Messages, ChatMessage{"assistant", answer})
		if i < len(r.Trajectory)-1 {
			ex.Messages = append(ex.Messages, ChatMessage{"user", m.Observation})
		}
	}
	return ex, true
}
