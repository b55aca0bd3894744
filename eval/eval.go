// Package eval plays agents on compiled tasks: one episode, or a whole
// suite in parallel with output that does not depend on scheduling. Agents
// get only text (the intro and each observation); eval parses their text
// actions, steps the runtime, and keeps the grader-side record.
package eval

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"sync"

	"github.com/srezc/srezc/action"
	"github.com/srezc/srezc/agents"
	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/record"
)

// Step is one line of a trace.
type Step struct {
	Task        string                 `json:"task"`
	Episode     int                    `json:"episode"`
	Seed        uint64                 `json:"seed"`
	Step        int                    `json:"step"`
	Intro       string                 `json:"intro,omitempty"`
	Action      string                 `json:"action"`
	Observation string                 `json:"observation"`
	Reward      float64                `json:"reward"`
	Done        bool                   `json:"done"`
	Terminal    string                 `json:"terminal,omitempty"`
	Record      *record.EpisodeMetrics `json:"record,omitempty"`
	// Reply is an LLM agent's whole answer for this step.
	Reply string `json:"reply,omitempty"`
}

// Episode is the outcome of one played episode.
type Episode struct {
	Task    string
	Episode int
	Seed    uint64
	Record  record.EpisodeMetrics
	// Components are the reward parts at the end (grader-side).
	Components record.Components
	// Model, Prompt and Noise label an LLM agent's episode and a --noise
	// both sweep's half; Outcome, InfraError, AgentError and Usage are as
	// in record.Line (Outcome "" means scored).
	Model, Prompt, Noise string
	Outcome, InfraError  string
	AgentError           string
	Usage                *record.Usage
	// NoiseEvents are the noise events in what the agent read
	// (engine.AppendNoiseShown), for the record.
	NoiseEvents []record.NoiseEvent
	// Steps holds the trace, one entry per step, when tracing was asked
	// for; AppendTrace writes it as JSON lines.
	Steps []Step
}

// AppendTrace appends the episode's trace, one JSON line per step.
func (ep *Episode) AppendTrace(b []byte) []byte {
	for i := range ep.Steps {
		b = appendJSONLine(b, &ep.Steps[i])
	}
	return b
}

// Play runs one episode of agent a on t from seed. With trace set, every
// step is kept in the result's Steps.
func Play(t *engine.Task, a agents.Agent, episode int, seed uint64, trace bool) Episode {
	ep, _ := PlayTurns(context.Background(), t, agents.Turns(a), episode, seed, trace)
	return ep
}

// PlayTurns runs one episode of a TurnAgent and sorts the failure of a
// turn into the episode's outcome: after an infrastructure failure the
// episode is an infra error (Outcome); after a refusal it ends there,
// scored, with terminal reason agent_error. An Abort failure, or ctx
// ending, returns the error: the episode has no outcome and must not be
// recorded.
func PlayTurns(ctx context.Context, t *engine.Task, a agents.TurnAgent, episode int, seed uint64, trace bool) (Episode, error) {
	ep := engine.NewEpisode(t)
	ep.Reset(seed)
	intro := string(ep.AppendIntro(nil))
	a.Begin(intro)
	out := Episode{Task: t.ID, Episode: episode, Seed: seed}
	var buf []byte
	var shown []engine.NoiseEvent
	obs := ""
	var failed error
	for !ep.Done() {
		turn, err := a.Turn(ctx, obs)
		if err != nil {
			failed = err
			break
		}
		if turn.Stop {
			break
		}
		act := action.Bind(t, turn.Action)
		r := ep.Step(&act)
		buf = ep.AppendText(buf[:0], &r.Obs)
		obs = string(buf)
		shown = ep.AppendNoiseShown(shown[:0], &r.Obs)
		out.NoiseEvents = AppendNoiseEvents(out.NoiseEvents, ep.Task(), int(r.Obs.Step), shown)
		if trace {
			line := Step{Task: t.ID, Episode: episode, Seed: seed, Step: int(r.Obs.Step), Action: turn.Action, Observation: obs, Reward: r.Reward, Done: r.Obs.Done, Reply: turn.Reply}
			if r.Obs.Step == 1 {
				line.Intro = intro
			}
			if r.Obs.Done {
				rec := ep.Record()
				line.Terminal = r.Terminal.String()
				line.Record = &rec
			}
			out.Steps = append(out.Steps, line)
		}
	}
	if e, ok := a.(agents.Ender); ok && failed == nil && ep.Done() {
		e.End(obs)
	}
	out.Record = ep.Record()
	out.Components = ep.Components()
	if u := a.Usage(); u != (record.Usage{}) {
		out.Usage = &u
	}
	if failed != nil {
		if ctx.Err() != nil {
			return out, ctx.Err()
		}
		switch agents.FailureOf(failed) {
		case agents.Abort:
			return out, failed
		case agents.Refused:
			out.AgentError = failed.Error()
			out.Record.Terminal = record.TerminalAgentError
		default:
			out.Outcome = record.OutcomeInfraError
			out.InfraError = failed.Error()
		}
	}
	return out, nil
}

func appendJSONLine(b []byte, v any) []byte {
	data, err := json.Marshal(v)
	if err != nil {
		// Only a non-finite float can fail; keep the trace one line per step.
		data, _ = json.Marshal(map[string]string{"error": err.Error()})
	}
	return append(append(b, data...), '\n')
}

// AgentFactory builds the agent for one episode. It receives the task only
// so that a harness can hand a scripted agent its plan; agents themselves
// never see the task.
type AgentFactory func(t *engine.Task, seed uint64) (agents.Agent, error)

// Options configure Run.
type Options struct {
	Agent    string
	NewAgent AgentFactory
	Episodes int
	// Seed is the first episode's seed; episode k of every task uses Seed+k,
	// so tasks are compared on the same draws.
	Seed uint64
	// Workers bounds the episodes in flight; 0 means GOMAXPROCS.
	Workers int
	Trace   bool
	// Progress, if set, is called after each episode with the number done
	// and the total (from the workers, one call at a time).
	Progress func(done, total int)
}

// Report is the summary `srezc run --json` prints.
type Report struct {
	Agent    string         `json:"agent"`
	Episodes int            `json:"episodes"`
	Suite    string         `json:"suite"` // the suite's semantic hash
	Metrics  record.Metrics `json:"metrics"`
	Tasks    []TaskReport   `json:"tasks"`
}

// TaskReport aggregates one task's episodes.
type TaskReport struct {
	ID      string         `json:"id"`
	Hash    string         `json:"hash"`
	Metrics record.Metrics `json:"metrics"`
}

// Run plays opt.Episodes episodes of every task, in parallel. Results come
// back in (task, episode) order whatever the scheduling, so the report and
// the trace are byte-identical across runs and GOMAXPROCS.
func Run(tasks []*engine.Task, opt Options) (*Report, []Episode, error) {
	if opt.Episodes < 1 {
		return nil, nil, fmt.Errorf("episodes must be at least 1, not %d", opt.Episodes)
	}
	type job struct {
		task    *engine.Task
		episode int
		agent   agents.Agent
	}
	jobs := make([]job, 0, len(tasks)*opt.Episodes)
	for _, t := range tasks {
		for k := 0; k < opt.Episodes; k++ {
			seed := opt.Seed + uint64(k)
			a, err := opt.NewAgent(t, seed)
			if err != nil {
				return nil, nil, fmt.Errorf("task %s: %w", t.ID, err)
			}
			jobs = append(jobs, job{t, k, a})
		}
	}
	results := make([]Episode, len(jobs))
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	next := make(chan int)
	var wg sync.WaitGroup
	var progressMu sync.Mutex
	done := 0
	for w := 0; w < min(workers, len(jobs)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				j := jobs[i]
				results[i] = Play(j.task, j.agent, j.episode, opt.Seed+uint64(j.episode), opt.Trace)
				if opt.Progress != nil {
					progressMu.Lock()
					done++
					opt.Progress(done, len(jobs))
					progressMu.Unlock()
				}
			}
		}()
	}
	for i := range jobs {
		next <- i
	}
	close(next)
	wg.Wait()

	rep := &Report{Agent: opt.Agent, Suite: engine.SuiteHash(tasks), Episodes: len(results)}
	all := make([]record.EpisodeMetrics, len(results))
	for i := range results {
		all[i] = results[i].Record
	}
	aggregate := aggregator(tasks)
	rep.Metrics = aggregate(all)
	for ti, t := range tasks {
		rs := all[ti*opt.Episodes : (ti+1)*opt.Episodes]
		rep.Tasks = append(rep.Tasks, TaskReport{ID: t.ID, Hash: t.Hash, Metrics: aggregate(rs)})
	}
	return rep, results, nil
}
