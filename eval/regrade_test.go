package eval_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/srezc/srezc/agents"
	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/eval"
)

// A record whose task hash no longer matches is refused, unless it was
// graded under an older rubric and the replay shows the agent exactly what
// it saw then: a new rubric moves task hashes through grading data alone
// (rubric 2 judges mitigation by the world), and such a record is
// regraded, with rubric_version among what changed.
func TestRegradeAcrossRubricVersions(t *testing.T) {
	var tk *engine.Task
	for _, x := range suite(t) {
		if x.ID == "checkout_db_refusals" {
			tk = x
		}
	}
	if tk == nil {
		t.Fatal("no checkout_db_refusals in the suite")
	}
	v := eval.VersionsFor("test", []*engine.Task{tk})
	// max_connections 160, above the peak site's pool (130 to 150) though
	// not the site's own value: the world is healthy; the record below
	// stands for one an older rubric graded unmitigated.
	plan := []string{"inspect_logs(database)", "update_config(database, max_connections, 160)", tk.Expert[len(tk.Expert)-1]}
	ep := eval.Play(tk, agents.NewScripted(plan), 0, 1, true)
	now := eval.NewRecord("scripted", "suite", v, tk, &ep, true)
	if !now.Metrics.Success {
		t.Fatalf("the plan does not succeed now: %+v", now.Metrics)
	}

	old := now
	old.Hash = strings.Repeat("0", 64)
	old.Rubric = engine.RubricVersion - 1
	old.Metrics.Success, old.Metrics.Mitigated, old.Metrics.FinalReward = false, false, 0.3
	got, changed, err := eval.Regrade(tk, &old, v)
	if err != nil {
		t.Fatalf("an older rubric's record with the same observations is refused: %v", err)
	}
	if !slices.Contains(changed, "rubric_version") || !slices.Contains(changed, "metrics") || !got.Metrics.Success || got.Rubric != engine.RubricVersion || got.Hash != tk.Hash {
		t.Errorf("regraded: changed %v, success %v, rubric %d, hash %s", changed, got.Metrics.Success, got.Rubric, got.Hash)
	}

	// The same record under the current rubric: the task changed.
	cur := old
	cur.Rubric = engine.RubricVersion
	if _, _, err := eval.Regrade(tk, &cur, v); err == nil || !strings.Contains(err.Error(), "the task changed") {
		t.Errorf("a current rubric's record with another hash: err %v, want refused as a changed task", err)
	}

	// An older rubric's record whose observations differ: refused.
	diff := old
	diff.Trajectory = slices.Clone(old.Trajectory)
	diff.Trajectory[0].Observation += "x"
	if _, _, err := eval.Regrade(tk, &diff, v); err == nil || !strings.Contains(err.Error(), "different observations") {
		t.Errorf("an older rubric's record with other observations: err %v, want refused", err)
	}
}
