package eval_test

import (
	"testing"

	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/eval"
)

func TestFailureModeOrder(t *testing.T) {
	for _, c := range []struct {
		r    engine.Record
		want string
	}{
		{engine.Record{Success: true, WrongRemediations: 2}, "success"},
		{engine.Record{WrongRemediations: 1, PrematureResolutions: 1, InvalidActions: 3}, "wrong_remediation"},
		{engine.Record{PrematureResolutions: 1, Terminal: "step_budget_exhausted"}, "premature_resolution"},
		{engine.Record{Terminal: "step_budget_exhausted", InvalidActions: 1}, "step_budget_exhausted"},
		{engine.Record{InvalidActions: 1, Terminal: "escalated"}, "invalid_action"},
		{engine.Record{Terminal: "escalated"}, "escalated"},
		{engine.Record{Terminal: ""}, "other_failure"},
	} {
		if got := eval.FailureMode(c.r); got != c.want {
			t.Errorf("%+v: %s, want %s", c.r, got, c.want)
		}
	}
}
