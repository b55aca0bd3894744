package eval_test

import (
	"bytes"
	"testing"

	"github.com/srezc/srezc/agents"
	"github.com/srezc/srezc/compiler"
	"github.com/srezc/srezc/eval"
	"github.com/srezc/srezc/lang"
	"github.com/srezc/srezc/runtime"
)

// greedyEasy is the incident the greedy baseline is made for: the alert
// names the faulty service, whose first out-of-band key is the fault.
const greedyEasy = `
incident "greedy_easy" {
  alert      = "The database is refusing work: queries wait for connections and time out."
  difficulty = "easy"
  split      = "train"
  budget     = 10
  system     = "standard"

  fault "db_pool_too_small" {
    target = "database"
  }

  expert = [
    "inspect_logs(database)",
    "update_config(database, pool_size, 50)",
    "resolve_incident(\"database: connection pool exhausted\", \"raised pool_size to 50\")",
  ]
}
`

func TestGreedyBaseline(t *testing.T) {
	files := append(lang.ScenarioFiles(), &lang.File{Name: "greedy_easy.srez.hcl", Src: []byte(greedyEasy)})
	m, diags := lang.Analyze(files)
	tasks, more := compiler.CompileModule(m)
	if diags = append(diags, more...); diags.HasErrors() {
		var b bytes.Buffer
		lang.WriteText(&b, m.Files, diags)
		t.Fatal(b.String())
	}
	k := eval.Knowledge(m, "native")
	greedy := func(*runtime.Task, int, uint64) (agents.Agent, error) { return agents.NewGreedy(k), nil }
	rep, eps, err := eval.Run(tasks, eval.Options{Agent: "greedy", NewAgent: greedy, Episodes: 2, Seed: 1, Trace: true})
	if err != nil {
		t.Fatal(err)
	}
	again, _, _ := eval.Run(tasks, eval.Options{Agent: "greedy", NewAgent: greedy, Episodes: 2, Seed: 1, Workers: 1})
	if rep.Metrics.Get("success_rate") != again.Metrics.Get("success_rate") {
		t.Error("greedy is not deterministic")
	}
	for _, ep := range eps {
		switch ep.Task {
		case "greedy_easy":
			if !ep.Record.Success {
				t.Errorf("greedy fails the incident made for it:\n%s", ep.Trace)
			}
		case "db_pool", "cascade_index", "two_faults", "mq_backlog":
			// The alert names a victim, or nothing: the first anomaly is
			// not the cause.
			if ep.Record.Success {
				t.Errorf("greedy solves %s, whose alert points away from the cause", ep.Task)
			}
		}
	}
}
