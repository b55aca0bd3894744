package record

import (
	"math"

	"github.com/srezc/srezc/value"
)

// EpisodeMetrics is one episode's grader-side outcome (a record's
// "metrics"). The first fields are the reference's EpisodeMetrics, named
// and counted as it counts them; the rest are ours. The engine fills it as
// an episode plays.
type EpisodeMetrics struct {
	TotalSteps                 int     `json:"total_steps"`
	InvalidActions             int     `json:"invalid_actions"`
	RepeatedActions            int     `json:"repeated_actions"`
	EvidenceActions            int     `json:"evidence_actions"`
	RemediationActions         int     `json:"remediation_actions"`
	CorrectServiceRemediations int     `json:"correct_service_remediations"`
	CorrectRemediations        int     `json:"correct_remediations"`
	WrongRemediations          int     `json:"wrong_remediations"`
	DistractorFailures         int     `json:"distractor_failures"`
	PrematureResolutions       int     `json:"premature_resolutions"`
	RootCauseIdentified        bool    `json:"root_cause_identified"`
	FixIdentified              bool    `json:"fix_identified"`
	CorrectRemediationApplied  bool    `json:"correct_remediation_applied"`
	Success                    bool    `json:"success"`
	FinalReward                float64 `json:"final_reward"`
	EvidenceCoverage           float64 `json:"evidence_coverage"`

	Diagnosed         bool   `json:"diagnosed"`
	Mitigated         bool   `json:"mitigated"`
	WrongChange       bool   `json:"wrong_change"`
	Recovered         bool   `json:"recovered"`
	StepsToResolution int    `json:"steps_to_resolution"`
	OptimalSteps      int    `json:"optimal_steps"`
	Terminal          string `json:"terminal"`
}

// Terminal reasons, as a record's "terminal" and EpisodeMetrics.Terminal
// spell them; engine.Terminal's String gives these words.
const (
	TerminalResolved  = "resolved"
	TerminalRejected  = "premature_or_incorrect_resolution"
	TerminalEscalated = "escalated"
	TerminalBudget    = "step_budget_exhausted"
)

// Components are the reward parts of an episode (a record's
// "components"); penalties are negative.
type Components struct {
	Evidence   float64 `json:"evidence"`
	Diagnosis  float64 `json:"diagnosis"`
	Mitigation float64 `json:"mitigation"`
	Resolution float64 `json:"resolution"`
	Efficiency float64 `json:"efficiency"`
	Penalties  float64 `json:"penalties"`
}

// Raw is the unclamped sum of the components.
func (c *Components) Raw() float64 {
	return c.Evidence + c.Diagnosis + c.Mitigation + c.Resolution + c.Efficiency + c.Penalties
}

// MetricNames lists the aggregate metrics in their fixed output order. The
// README table gives each formula; Aggregate computes them.
var MetricNames = []string{
	"success_rate", "mean_reward", "mean_steps", "invalid_action_rate", "evidence_coverage",
	"wrong_remediation_rate", "distractor_failure_rate", "premature_resolution_rate",
	"root_cause_identification_rate", "fix_identification_rate", "correct_service_remediation_rate",
	"correct_remediation_rate", "remediation_precision",
	"diagnosis_rate", "mitigation_rate", "e2e_rate", "evidence_credit", "mean_steps_to_resolution", "recovery_rate",
	"step_efficiency", "marks",
}

// Metrics is an ordered list of named aggregate values; it marshals as a JSON
// object in MetricNames order.
type Metrics []Metric

// Metric is one named aggregate.
type Metric struct {
	Name  string
	Value float64
}

// Get returns a metric by name.
func (m Metrics) Get(name string) float64 {
	for _, x := range m {
		if x.Name == name {
			return x.Value
		}
	}
	return 0
}

// MarshalJSON writes the metrics as an object in their fixed order.
func (m Metrics) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for i, x := range m {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '"')
		b = append(b, x.Name...)
		b = append(b, '"', ':')
		b = appendMetric(b, x.Value)
	}
	return append(b, '}'), nil
}

func appendMetric(b []byte, f float64) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return append(b, "null"...)
	}
	// Rounded to 6 decimals so sums over parallel episodes print the same
	// digits whatever the order of addition; aggregation sorts anyway.
	r := math.Round(f*1e6) / 1e6
	return value.AppendFloat(b, r)
}

func mean(n int, f func(i int) float64) float64 {
	if n == 0 {
		return 0
	}
	s := 0.0
	for i := 0; i < n; i++ {
		s += f(i)
	}
	return s / float64(n)
}

// EvidenceCredit is the share of its evidence credit an episode keeps:
// reading pays only when it leads to acting on what was read.
func EvidenceCredit(diagnosed, mitigated, escalated bool) float64 {
	switch {
	case diagnosed || mitigated:
		return 1
	case escalated:
		return 0.5
	}
	return 0
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// Aggregate computes every metric over episode records, in the order given
// (callers pass records in a deterministic order).
func Aggregate(rs []EpisodeMetrics) Metrics {
	n := len(rs)
	sum := func(f func(r *EpisodeMetrics) int) float64 {
		s := 0
		for i := range rs {
			s += f(&rs[i])
		}
		return float64(s)
	}
	steps := sum(func(r *EpisodeMetrics) int { return r.TotalSteps })
	remed := math.Max(1, sum(func(r *EpisodeMetrics) int { return r.RemediationActions }))
	m := Metrics{
		{"success_rate", mean(n, func(i int) float64 { return b2f(rs[i].Success) })},
		{"mean_reward", mean(n, func(i int) float64 { return rs[i].FinalReward })},
		{"mean_steps", mean(n, func(i int) float64 { return float64(rs[i].TotalSteps) })},
		{"invalid_action_rate", sum(func(r *EpisodeMetrics) int { return r.InvalidActions }) / math.Max(1, steps)},
		{"evidence_coverage", mean(n, func(i int) float64 { return rs[i].EvidenceCoverage })},
		{"wrong_remediation_rate", sum(func(r *EpisodeMetrics) int { return r.WrongRemediations }) / remed},
		{"distractor_failure_rate", sum(func(r *EpisodeMetrics) int { return r.DistractorFailures }) / remed},
		{"premature_resolution_rate", mean(n, func(i int) float64 { return b2f(rs[i].PrematureResolutions > 0) })},
		{"root_cause_identification_rate", mean(n, func(i int) float64 { return b2f(rs[i].RootCauseIdentified) })},
		{"fix_identification_rate", mean(n, func(i int) float64 { return b2f(rs[i].FixIdentified) })},
		{"correct_service_remediation_rate", mean(n, func(i int) float64 { return b2f(rs[i].CorrectServiceRemediations > 0) })},
		{"correct_remediation_rate", mean(n, func(i int) float64 { return b2f(rs[i].CorrectRemediations > 0) })},
		{"remediation_precision", sum(func(r *EpisodeMetrics) int { return r.CorrectRemediations }) / remed},
		{"diagnosis_rate", mean(n, func(i int) float64 { return b2f(rs[i].Diagnosed) })},
		{"mitigation_rate", mean(n, func(i int) float64 { return b2f(rs[i].Mitigated) })},
		{"e2e_rate", mean(n, func(i int) float64 { return b2f(rs[i].Diagnosed && rs[i].Mitigated) })},
		{"evidence_credit", mean(n, func(i int) float64 {
			r := &rs[i]
			return r.EvidenceCoverage * EvidenceCredit(r.Diagnosed, r.Mitigated, r.Terminal == TerminalEscalated)
		})},
	}
	resolved, resolvedSteps, wrong, recovered, effSum := 0, 0, 0, 0, 0.0
	for i := range rs {
		r := &rs[i]
		if r.Success {
			resolved++
			resolvedSteps += r.StepsToResolution
			if r.TotalSteps > 0 {
				effSum += math.Min(1, float64(r.OptimalSteps)/float64(r.TotalSteps))
			}
		}
		if r.WrongChange {
			wrong++
			if r.Recovered && r.Success {
				recovered++
			}
		}
	}
	m = append(m,
		Metric{"mean_steps_to_resolution", float64(resolvedSteps) / math.Max(1, float64(resolved))},
		Metric{"recovery_rate", float64(recovered) / math.Max(1, float64(wrong))},
		Metric{"step_efficiency", effSum / math.Max(1, float64(resolved))},
	)
	m = append(m, Metric{"marks", NativeMarks(m)})
	return m
}

// NativeMarks is the reference's 100-point score with its efficiency term
// replaced by success_rate × step_efficiency, so a run at the certified
// optimum earns the full 10 (the reference formula, with a fixed target of
// 8 steps, gives an optimal 8-step plan nothing).
//
// Its evidence term is evidence_credit, not evidence_coverage: reading
// everything and then guessing or running out of steps earns no evidence
// marks, so investigation pays only when it leads to a diagnosis, a
// mitigation or (for half) an escalation.
func NativeMarks(m Metrics) float64 {
	eff := m.Get("success_rate") * m.Get("step_efficiency")
	return marks(m, eff, m.Get("evidence_credit"))
}

func marks(m Metrics, eff, evidence float64) float64 {
	validity := math.Max(0, 1-m.Get("invalid_action_rate"))
	score := 40*m.Get("success_rate") + 25*m.Get("mean_reward") + 20*evidence + 10*eff + 5*validity
	return math.Round(score*1000) / 1000
}

// Marks is the reference's 100-point score (spec §7) for the sre_zero
// profile: efficiency falls linearly from one step to target steps (8 in
// the reference).
func Marks(m Metrics, target float64) float64 {
	eff := m.Get("success_rate") * math.Max(0, 1-math.Max(0, m.Get("mean_steps")-1)/math.Max(1, target-1))
	return marks(m, eff, m.Get("evidence_coverage"))
}
