package eval_test

import (
	"bytes"
	"encoding/json"
	"runtime"
	"sync"
	"testing"

	"github.com/srezc/srezc/action"
	"github.com/srezc/srezc/agents"
	"github.com/srezc/srezc/compiler"
	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/eval"
	"github.com/srezc/srezc/lang"
)

// suite compiles the embedded default suite.
func suite(t testing.TB) []*engine.Task {
	t.Helper()
	m, diags := lang.Analyze(lang.ScenarioFiles())
	tasks, more := compiler.CompileModule(m)
	diags = append(diags, more...)
	if diags.HasErrors() {
		var b bytes.Buffer
		lang.WriteText(&b, m.Files, diags)
		t.Fatalf("default suite does not compile:\n%s", b.String())
	}
	if len(tasks) < 6 {
		t.Fatalf("default suite has %d incidents, want at least 6", len(tasks))
	}
	return tasks
}

func scripted(t *engine.Task, seed uint64) (agents.Agent, error) {
	return agents.NewScripted(t.Site(seed).Expert), nil
}

func random(_ *engine.Task, seed uint64) (agents.Agent, error) {
	return agents.NewRandom(seed), nil
}

func TestScriptedSolvesEveryShippedIncident(t *testing.T) {
	tasks := suite(t)
	_, eps, err := eval.Run(tasks, eval.Options{Agent: "scripted", NewAgent: scripted, Episodes: 3, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]*engine.Task{}
	for _, tk := range tasks {
		byID[tk.ID] = tk
	}
	for _, ep := range eps {
		r := ep.Record
		if !r.Success || r.Terminal != endOf(byID[ep.Task]) || r.InvalidActions != 0 || r.WrongRemediations != 0 {
			t.Errorf("%s episode %d: expert plan did not succeed cleanly: %+v", ep.Task, ep.Episode, r)
		}
	}
}

func TestRandomAgentRarelySucceeds(t *testing.T) {
	rep, _, err := eval.Run(suite(t), eval.Options{Agent: "random", NewAgent: random, Episodes: 5, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if sr := rep.Metrics.Get("success_rate"); sr >= 0.1 {
		t.Errorf("random agent success_rate = %v, want < 0.1", sr)
	}
	if ir := rep.Metrics.Get("invalid_action_rate"); ir == 0 {
		t.Errorf("random agent wrote no malformed action; it should, as models do")
	}
}

// output runs a suite and returns the JSON report and the trace bytes.
func output(t *testing.T, tasks []*engine.Task, agent string, f eval.AgentFactory, workers int) ([]byte, []byte) {
	t.Helper()
	rep, eps, err := eval.Run(tasks, eval.Options{Agent: agent, NewAgent: f, Episodes: 4, Seed: 3, Workers: workers, Trace: true})
	if err != nil {
		t.Fatal(err)
	}
	js, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	var trace []byte
	for _, ep := range eps {
		trace = ep.AppendTrace(trace)
	}
	return js, trace
}

func TestOutputIsIdenticalAcrossRunsAndProcs(t *testing.T) {
	tasks := suite(t)
	for _, agent := range []struct {
		name string
		f    eval.AgentFactory
	}{{"scripted", scripted}, {"random", random}} {
		prev := runtime.GOMAXPROCS(1)
		js1, tr1 := output(t, tasks, agent.name, agent.f, 1)
		runtime.GOMAXPROCS(4)
		js4, tr4 := output(t, tasks, agent.name, agent.f, 4)
		js4b, tr4b := output(t, tasks, agent.name, agent.f, 0)
		runtime.GOMAXPROCS(prev)
		if !bytes.Equal(js1, js4) || !bytes.Equal(js4, js4b) {
			t.Errorf("%s: JSON report differs across GOMAXPROCS/workers", agent.name)
		}
		if !bytes.Equal(tr1, tr4) || !bytes.Equal(tr4, tr4b) {
			t.Errorf("%s: trace differs across GOMAXPROCS/workers", agent.name)
		}
		if len(tr1) == 0 {
			t.Errorf("%s: empty trace", agent.name)
		}
	}
}

// barrierAgent blocks in Begin until both agents have begun: a runner
// that plays episodes one at a time never begins the second, so the test
// hangs, and go test's -timeout fails it naming this test. It waits on the
// event alone, so a loaded machine only makes it slower.
type barrierAgent struct {
	agents.Agent
	wg *sync.WaitGroup
}

func (b *barrierAgent) Begin(intro string) {
	b.wg.Done()
	b.wg.Wait()
	b.Agent.Begin(intro)
}

func TestEpisodesRunInParallel(t *testing.T) {
	tasks := suite(t)[:2]
	var wg sync.WaitGroup
	wg.Add(2)
	f := func(tk *engine.Task, s uint64) (agents.Agent, error) {
		a, _ := scripted(tk, s)
		return &barrierAgent{Agent: a, wg: &wg}, nil
	}
	if _, _, err := eval.Run(tasks, eval.Options{NewAgent: f, Episodes: 1, Workers: 2}); err != nil {
		t.Error(err)
	}
}

func TestMalformedActionsAreInvalidNotErrors(t *testing.T) {
	tk := suite(t)[0]
	for _, text := range []string{"", "(", "inspect_logs(", "inspect_logs(nosuch)", "update_config(database, pool_size)", `resolve_incident("unterminated, x)`, "\x00\xff", "inspect_logs(database)\n"} {
		a := action.Bind(tk, text)
		ep := engine.NewEpisode(tk)
		ep.Reset(1)
		r := ep.Step(&a)
		if text == "inspect_logs(database)\n" {
			if r.Obs.Err != engine.OK {
				t.Errorf("%q: trailing newline should be accepted, got %v", text, r.Obs.Err)
			}
			continue
		}
		if r.Obs.Err == engine.OK {
			t.Errorf("%q: accepted as a valid action", text)
		}
	}
}

func TestReplayAgentStopsWhenActionsRunOut(t *testing.T) {
	tk := suite(t)[0]
	ep := eval.Play(tk, agents.NewReplay("# comment\ninspect_logs(database)\n\ncheck_status(cache)\n"), 0, 1, true)
	if ep.Record.TotalSteps != 2 || ep.Record.Terminal != "" {
		t.Errorf("replay of 2 actions: %+v", ep.Record)
	}
	if n := bytes.Count(ep.AppendTrace(nil), []byte("\n")); n != 2 {
		t.Errorf("trace has %d lines, want one per step (2)", n)
	}
}
