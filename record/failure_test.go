package record_test

import (
	"testing"

	"github.com/srezc/srezc/record"
)

func TestFailureModeOrder(t *testing.T) {
	for _, c := range []struct {
		r    record.EpisodeMetrics
		want string
	}{
		{record.EpisodeMetrics{Success: true, WrongRemediations: 2}, "success"},
		{record.EpisodeMetrics{WrongRemediations: 1, PrematureResolutions: 1, InvalidActions: 3}, "wrong_remediation"},
		{record.EpisodeMetrics{PrematureResolutions: 1, Terminal: "step_budget_exhausted"}, "premature_resolution"},
		{record.EpisodeMetrics{Terminal: "step_budget_exhausted", InvalidActions: 1}, "step_budget_exhausted"},
		{record.EpisodeMetrics{InvalidActions: 1, Terminal: "escalated"}, "invalid_action"},
		{record.EpisodeMetrics{Terminal: "escalated"}, "escalated"},
		{record.EpisodeMetrics{Terminal: "agent_error", Success: true}, "agent_error"},
		{record.EpisodeMetrics{Terminal: ""}, "other_failure"},
	} {
		if got := record.FailureMode(c.r); got != c.want {
			t.Errorf("%+v: %s, want %s", c.r, got, c.want)
		}
	}
}
