package agents

import (
	"context"
	"errors"
	"fmt"
	"sort"

	"github.com/srezc/srezc/record"
)

// TurnAgent is an agent whose turns can fail for reasons outside its
// policy: a model behind a network. eval plays it like an Agent, and sorts
// the failures of its turns into outcomes (see TurnError).
type TurnAgent interface {
	Begin(intro string)
	// Turn returns the next action given the latest observation ("" before
	// the first step).
	Turn(ctx context.Context, observation string) (Turn, error)
	// Usage is what the episode has cost so far.
	Usage() record.Usage
}

// Ender is a TurnAgent that wants the last observation of an episode,
// which no turn answers (a human at a terminal reads it).
type Ender interface {
	End(observation string)
}

// Turn is one answer of a TurnAgent.
type Turn struct {
	// Action is the text action to play; an unusable answer is played as
	// what it is and counts as an invalid action.
	Action string
	// Reply is the model's whole answer, kept with the trajectory.
	Reply string
	// Stop ends the episode unfinished (the agent has nothing more to do).
	Stop bool
}

// Failure says what a failed turn means for the episode and the sweep.
type Failure uint8

const (
	// Infra: the provider still failed after every retry. The episode is
	// an infrastructure error: excluded from every metric, retried by
	// --resume.
	Infra Failure = iota + 1
	// Abort: an error no retry can fix (bad key, unknown model or
	// endpoint). The sweep stops at once.
	Abort
	// Refused: the provider cannot serve the request because of what the
	// agent sent (context length exceeded, a content filter). The episode
	// ends there, scored against the agent.
	Refused
)

func (f Failure) String() string {
	switch f {
	case Infra:
		return "infra_error"
	case Abort:
		return "abort"
	case Refused:
		return "refused"
	}
	return fmt.Sprintf("failure(%d)", uint8(f))
}

// TurnError is a failed turn and what it means.
type TurnError struct {
	Failure Failure
	Err     error
}

func (e *TurnError) Error() string { return e.Err.Error() }
func (e *TurnError) Unwrap() error { return e.Err }

// FailureOf returns the failure class of err: a TurnError's, or Infra for
// any other error (a turn that failed for a reason nobody classified must
// not be scored against the agent).
func FailureOf(err error) Failure {
	var te *TurnError
	if errors.As(err, &te) {
		return te.Failure
	}
	return Infra
}

// Turns adapts an Agent, whose turns cannot fail, to a TurnAgent.
func Turns(a Agent) TurnAgent { return plainTurns{a} }

type plainTurns struct{ a Agent }

func (p plainTurns) Begin(intro string)  { p.a.Begin(intro) }
func (p plainTurns) Usage() record.Usage { return record.Usage{} }
func (p plainTurns) Turn(_ context.Context, obs string) (Turn, error) {
	action, ok := p.a.Act(obs)
	return Turn{Action: action, Stop: !ok}, nil
}

// ToolSpec documents a tool for a model that calls tools natively: what
// the stdlib declares, not anything of a task.
type ToolSpec struct {
	Name        string    `json:"name"`
	Description string    `json:"description"`
	Args        []ArgSpec `json:"args"`
}

// ArgSpec is one argument of a tool. Type is the stdlib's argument type:
// service, config_key, value, text, identifier or ip_address.
type ArgSpec struct {
	Name     string `json:"name"`
	Type     string `json:"type"`
	Optional bool   `json:"optional,omitempty"`
	// Keys gives, for a value argument, the declared type of each config
	// key it may set, sorted by key: what the grader accepts (see
	// CallText). A key whose type differs between service kinds is left
	// out and taken as written.
	Keys []KeyType `json:"keys,omitempty"`
}

// KeyType is a config key's declared value type: int, float, bool or
// string.
type KeyType struct {
	Key  string `json:"key"`
	Type string `json:"type"`
}

// SortKeyTypes sorts config keys by name and drops repeats; a key declared
// with different types by different service kinds is left out, so a value
// for it is taken as written (see CallText).
func SortKeyTypes(keys []KeyType) []KeyType {
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].Key != keys[j].Key {
			return keys[i].Key < keys[j].Key
		}
		return keys[i].Type < keys[j].Type
	})
	var out []KeyType
	for i := 0; i < len(keys); {
		j := i
		for j < len(keys) && keys[j].Key == keys[i].Key {
			j++
		}
		if keys[i].Type == keys[j-1].Type {
			out = append(out, keys[i])
		}
		i = j
	}
	return out
}
