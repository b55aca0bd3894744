package record

// Rubric profiles, as a line's "profile" names them.
const (
	ProfileNative  = "native"
	ProfileSreZero = "sre_zero"
	// ProfileMixed is the profile of records of more than one profile.
	ProfileMixed = "mixed"
)

// TerminalAgentError is the terminal reason of an episode the provider
// refused to continue because of what the agent sent.
const TerminalAgentError = "agent_error"

// FailureMode classifies an episode as the reference does (its failure
// taxonomy): the first that applies of agent error, wrong remediation,
// premature resolution, budget exhausted, invalid action, an escalation
// that did not succeed; "success" or "other_failure" else. Escalation is
// srezc's addition, carved out of other_failure: the reference has no
// escalate tool, and lumping a policy's escalations there hid what it did.
func FailureMode(r EpisodeMetrics) string {
	switch {
	case r.Terminal == TerminalAgentError:
		return "agent_error"
	case r.Success:
		return "success"
	case r.WrongRemediations > 0:
		return "wrong_remediation"
	case r.PrematureResolutions > 0:
		return "premature_resolution"
	case r.Terminal == TerminalBudget:
		return "step_budget_exhausted"
	case r.InvalidActions > 0:
		return "invalid_action"
	case r.Terminal == TerminalEscalated:
		return "escalated"
	}
	return "other_failure"
}

// FailureModes lists the failure modes in the reference's order of
// precedence, success first.
var FailureModes = []string{"success", "agent_error", "wrong_remediation", "premature_resolution", "step_budget_exhausted", "invalid_action", "escalated", "other_failure"}

// FailureModeCount is how many episodes ended one way.
type FailureModeCount struct {
	Mode  string `json:"mode"`
	Count int    `json:"count"`
}

// Aggregator returns the metric aggregation for a rubric profile (as
// eval.Profile names it): under sre_zero the marks are the reference's
// (spec §7, target 8 steps), since the native ones need the certified
// optimum the reference does not have; every other profile, "mixed"
// included, uses Aggregate as it is.
func Aggregator(profile string) func([]EpisodeMetrics) Metrics {
	if profile != ProfileSreZero {
		return Aggregate
	}
	return func(rs []EpisodeMetrics) Metrics {
		m := Aggregate(rs)
		for i := range m {
			if m[i].Name == "marks" {
				m[i].Value = Marks(m, 8)
			}
		}
		return m
	}
}
