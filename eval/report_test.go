package eval_test

import (
	"testing"

	"github.com/srezc/srezc/eval"
	"github.com/srezc/srezc/runtime"
)

func TestFailureModeOrder(t *testing.T) {
	for _, c := range []struct {
		r    runtime.Record
		want string
	}{
		{runtime.Record{Success: true, WrongRemediations: 2}, "success"},
		{runtime.Record{WrongRemediations: 1, PrematureResolutions: 1, InvalidActions: 3}, "wrong_remediation"},
		{runtime.Record{PrematureResolutions: 1, Terminal: "step_budget_exhausted"}, "premature_resolution"},
		{runtime.Record{Terminal: "step_budget_exhausted", InvalidActions: 1}, "step_budget_exhausted"},
		{runtime.Record{InvalidActions: 1, Terminal: "escalated"}, "invalid_action"},
		{runtime.Record{Terminal: "escalated"}, "escalated"},
		{runtime.Record{Terminal: ""}, "other_failure"},
	} {
		if got := eval.FailureMode(c.r); got != c.want {
			t.Errorf("%+v: %s, want %s", c.r, got, c.want)
		}
	}
}
