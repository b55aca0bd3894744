package engine_test

import (
	"bytes"
	"testing"

	"github.com/srezc/srezc/action"
	"github.com/srezc/srezc/engine"
)

// TestRefNonTerminalHidesVerdict: in an sre_zero task with
// terminal_on_wrong_resolution = false, the agent cannot tell an accepted
// resolution from a rejected one. For every golden episode that ends in an
// accepted resolution, the same episode is played on the task made
// non-terminal twice: once as it was, once with the last resolution's
// root cause replaced by a blind one. At the resolution step both show the
// same text and JSON (done included), while the grader records success
// for the first only. Playing on after the accepted one changes neither
// its record nor its reward; running out of budget then ends it as
// resolved. Before, the accepted one ended the episode ("Incident closed")
// and the rejected one did not.
func TestRefNonTerminalHidesVerdict(t *testing.T) {
	tasks := refLoadTasks(t)
	golden := refLoadGolden(t)
	played := 0
	for n, g := range golden {
		last := len(g.Steps) - 1
		if last < 0 || g.Steps[last].Terminal == nil || *g.Steps[last].Terminal != "resolved" {
			continue
		}
		tk := *tasks[g.TaskID]
		ref := *tk.Ref
		ref.TerminalOnWrongResolution = false
		tk.Ref = &ref
		blind := `resolve_incident("unknown", "unknown")`
		right, wrong := engine.NewEpisode(&tk), engine.NewEpisode(&tk)
		right.Reset(uint64(n))
		wrong.Reset(uint64(n))
		var rr, wr engine.StepResult
		for i, act := range g.Actions {
			a := action.Bind(&tk, act)
			rr = right.Step(&a)
			if i == last {
				a = action.Bind(&tk, blind)
			}
			wr = wrong.Step(&a)
		}
		if !right.Record().Success || wrong.Record().Success {
			t.Fatalf("episode %d (%s): success %v and %v, want true and false", n, g.TaskID, right.Record().Success, wrong.Record().Success)
		}
		if a, b := right.AppendText(nil, &rr.Obs), wrong.AppendText(nil, &wr.Obs); !bytes.Equal(a, b) {
			t.Fatalf("episode %d (%s): the agent reads\n%s\nafter an accepted resolution and\n%s\nafter a rejected one", n, g.TaskID, a, b)
		}
		if a, b := right.AppendJSON(nil, &rr.Obs), wrong.AppendJSON(nil, &wr.Obs); !bytes.Equal(a, b) {
			t.Fatalf("episode %d (%s): JSON\n%s\nafter an accepted resolution and\n%s\nafter a rejected one", n, g.TaskID, a, b)
		}
		before := right.Record()
		for !rr.Obs.Done {
			a := action.Bind(&tk, `restart_service(database)`)
			rr = right.Step(&a)
			if rr.Reward != 0 {
				t.Fatalf("episode %d (%s): reward %v after the accepted resolution", n, g.TaskID, rr.Reward)
			}
		}
		after := right.Record()
		if after.Terminal != "resolved" || after.TotalSteps != before.TotalSteps || after.FinalReward != right.RefComponents().Total ||
			after.WrongRemediations != before.WrongRemediations || after.StepsToResolution != before.StepsToResolution {
			t.Fatalf("episode %d (%s): playing on changed the grade:\nbefore %+v\nafter  %+v", n, g.TaskID, before, after)
		}
		played++
	}
	if played == 0 {
		t.Fatal("no golden episode ends in an accepted resolution")
	}
}
