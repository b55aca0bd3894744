package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/srezc/srezc/record"
)

// section is one table of the report with the prose around it; summary.md
// and report.html render the same sections, so they cannot disagree.
type section struct {
	id     string // the anchor in report.html
	title  string
	intro  string
	header []string
	rows   [][]string
	// empty replaces the table when it has no rows.
	empty string
	// long sections are folded in report.html.
	long bool
}

// overview is the paragraph under the report's title.
func overview(s *Summary) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d episodes (%d infra errors) over %d tasks and %d seeds. ", s.Episodes, s.InfraErrors, s.Tasks, s.Seeds)
	suites := "Suite"
	if len(s.Suites) > 1 {
		suites = "Suites"
	}
	fmt.Fprintf(&b, "%s %s; profile %s; ", suites, strings.Join(shortHashes(s.Suites), ", "), s.Profile)
	var vs []string
	for _, v := range s.Versions {
		vs = append(vs, fmt.Sprintf("srezc %s, renderer %s, IR format %d", v.Srezc, v.Renderer, v.Format))
	}
	fmt.Fprintf(&b, "%s. ", strings.Join(vs, "; "))
	fmt.Fprintf(&b, "Intervals are %g%% percentile-bootstrap intervals over %d resamples of tasks (seed %d). ",
		Confidence*100, s.Bootstrap.Samples, s.Bootstrap.Seed)
	fmt.Fprintf(&b, "Infra errors are excluded from every metric; a model with an infra-error share above %s is not ranked", percent(s.MaxInfraShare))
	if s.RankAnyway {
		b.WriteString(" (ranked anyway on request)")
	}
	fmt.Fprintf(&b, ". A model scored on fewer than %d tasks, or whose marks interval is wider than %g marks, is measured too thinly to compare and is ranked after every well-measured one.", s.MinRankTasks, s.MaxRankWidth)
	return b.String()
}

func shortHashes(hs []string) []string {
	out := make([]string, len(hs))
	for i, h := range hs {
		if h == "" {
			h = "(none)"
		}
		out[i] = h[:min(12, len(h))]
	}
	return out
}

func f3(x float64) string { return fmt.Sprintf("%.3f", x) }
func f1(x float64) string { return fmt.Sprintf("%.1f", x) }

func withCI(iv Interval, format func(float64) string) string {
	return fmt.Sprintf("%s [%s, %s]", format(iv.Value), format(iv.Low), format(iv.High))
}

func signed3(x float64) string { return fmt.Sprintf("%+.3f", x) }
func signed1(x float64) string { return fmt.Sprintf("%+.1f", x) }

// headlineColumns are the metrics of the overall table beyond the three
// with intervals.
var headlineColumns = []string{"mean_steps", "invalid_action_rate", "evidence_coverage", "diagnosis_rate", "mitigation_rate", "e2e_rate"}

func sections(s *Summary) []section {
	names := modelNames(s)
	var out []section

	overall := section{id: "overall", title: "Overall",
		intro:  "Scored episodes only; 95% intervals resample tasks.",
		header: append([]string{"model", "scored", "infra errors", "success_rate", "mean_reward", "marks", "reference marks"}, headlineColumns...)}
	for _, m := range s.Models {
		row := []string{m.Name, fmt.Sprint(m.Episodes), fmt.Sprint(m.InfraErrors)}
		if m.Episodes == 0 {
			row = append(row, "—", "—", "—", "—")
			for range headlineColumns {
				row = append(row, "—")
			}
		} else {
			row = append(row, withCI(m.CI.SuccessRate, f3), withCI(m.CI.MeanReward, f3), withCI(m.CI.Marks, f1), f1(*m.ReferenceMarks))
			for _, c := range headlineColumns {
				row = append(row, f3(m.Overall.Get(c)))
			}
		}
		overall.rows = append(overall.rows, row)
	}
	out = append(out, overall)

	ranking := section{id: "ranking", title: "Ranking", intro: "By marks, best first; equal marks share a rank.",
		header: []string{"rank", "model", "marks", "note"}}
	for _, st := range s.Ranking {
		r := "—"
		if st.Rank > 0 {
			r = fmt.Sprint(st.Rank)
		}
		marks := "—"
		if m := findModel(s, st.Name); m != nil && m.Episodes > 0 {
			marks = withCI(Interval{st.Marks, st.Low, st.High}, f1)
		}
		ranking.rows = append(ranking.rows, []string{r, st.Name, marks, st.Note})
	}
	out = append(out, ranking)

	infraFail := section{id: "infra-as-failure", title: "Infra errors counted as failures",
		intro:  "The real score (infra errors excluded) beside the score had every infra error been a failed episode with zero reward.",
		header: []string{"model", "episodes", "success_rate", "success_rate (infra as failure)", "marks", "marks (infra as failure)"}}
	for _, m := range s.Models {
		sr, mk := "—", "—"
		if m.Episodes > 0 {
			sr, mk = f3(m.Overall.Get("success_rate")), f1(m.Overall.Get("marks"))
		}
		infraFail.rows = append(infraFail.rows, []string{m.Name, fmt.Sprint(m.InfraAsFailure.Episodes), sr, f3(m.InfraAsFailure.SuccessRate), mk, f1(m.InfraAsFailure.Marks)})
	}
	out = append(out, infraFail)

	metrics := section{id: "metrics", title: "Every metric", intro: "Scored episodes only; the formulas are in the README.",
		header: append([]string{"metric"}, names...)}
	for _, name := range record.MetricNames {
		row := []string{name}
		for _, m := range s.Models {
			row = append(row, metricCell(m.Episodes, m.Overall, name))
		}
		metrics.rows = append(metrics.rows, row)
	}
	out = append(out, metrics)

	groupIntro := "Each cell: success_rate · marks (scored episodes); \"infra only\" when every episode was an infra error."
	for _, g := range []struct {
		id, title, intro string
		order            []string
		get              func(m *Model) []Group
		long             bool
	}{
		{"difficulty", "By difficulty", groupIntro, difficultyOrder, func(m *Model) []Group { return m.ByDifficulty }, false},
		{"split", "By split", groupIntro + " unseen_incident is the subset of test tasks whose fault kinds no train task has (see the README).",
			splitOrder, func(m *Model) []Group { return m.BySplit }, false},
		{"tag", "By tag", groupIntro, nil, func(m *Model) []Group { return m.ByTag }, false},
		{"family", "By family", groupIntro + " A family is an incident's fault kinds.", nil, func(m *Model) []Group { return m.ByFamily }, true},
		{"task", "By task", groupIntro, nil, func(m *Model) []Group { return m.ByTask }, true},
	} {
		out = append(out, groupSection(s, g.id, g.title, g.intro, g.order, g.get, g.long))
	}
	if slices.ContainsFunc(s.Models, func(m Model) bool { return len(m.ByNoiseRead) > 0 }) {
		out = append(out, groupSection(s, "noise-read", "By noise in the evidence read",
			groupIntro+" noise_read: a noise event (a latency spike, a noise log line) was in a read the agent made; the events are in each record's noise_events.",
			[]string{NoiseTouched, NoiseUntouched}, func(m *Model) []Group { return m.ByNoiseRead }, false))
	}

	passk := section{id: "pass-k", title: "pass^k",
		intro:  "Per task with n scored episodes and c successes, pass^k = C(c,k)/C(n,k), averaged over the tasks with n ≥ k (their number in brackets when some have fewer).",
		header: append([]string{"k"}, names...)}
	most := 0
	for _, m := range s.Models {
		most = max(most, len(m.PassK))
	}
	for k := 1; k <= most; k++ {
		row := []string{fmt.Sprint(k)}
		for _, m := range s.Models {
			cell := "—"
			if k <= len(m.PassK) {
				pk := m.PassK[k-1]
				cell = f3(pk.Value)
				if pk.Tasks < m.PassK[0].Tasks {
					cell += fmt.Sprintf(" (%d tasks)", pk.Tasks)
				}
			}
			row = append(row, cell)
		}
		passk.rows = append(passk.rows, row)
	}
	passk.empty = "No scored episode."
	out = append(out, passk)

	modes := section{id: "failure-modes", title: "Failure modes", intro: "Scored episodes by how they ended: the first that applies of agent error (the provider refused what the agent sent), a wrong remediation, a rejected resolution, the step budget running out, an invalid action, an escalation that was not the right call; other_failure is none of these (an agent that stopped before resolving).", header: []string{"model"}}
	if len(s.Models) > 0 {
		for _, fm := range s.Models[0].FailureModes {
			modes.header = append(modes.header, fm.Mode)
		}
	}
	for _, m := range s.Models {
		row := []string{m.Name}
		for _, mode := range modes.header[1:] {
			n := 0
			for _, fm := range m.FailureModes {
				if fm.Mode == mode {
					n = fm.Count
				}
			}
			row = append(row, fmt.Sprint(n))
		}
		modes.rows = append(modes.rows, row)
	}
	out = append(out, modes)

	mit := section{id: "mitigation", title: "P(mitigation | diagnosis)",
		intro:  "SREGym's analysis over scored episodes: how often the system was mitigated when the diagnosis matched, and when it did not.",
		header: []string{"model", "diagnosed", "mitigated", "P(mitigation | diagnosis)", "not diagnosed", "mitigated", "P(mitigation | no diagnosis)"}}
	for _, m := range s.Models {
		d := m.Mitigation
		mit.rows = append(mit.rows, []string{m.Name, fmt.Sprint(d.Diagnosed), fmt.Sprint(d.MitigatedWhenDiagnosed), optional(d.GivenDiagnosis),
			fmt.Sprint(d.NotDiagnosed), fmt.Sprint(d.MitigatedWhenNotDiagnosed), optional(d.GivenNoDiagnosis)})
	}
	out = append(out, mit)

	usage := section{id: "usage", title: "Usage per episode",
		intro:  "Scored episodes that carry usage (LLM agents); each cell mean / median / p95.",
		header: []string{"model", "episodes", "prompt tokens", "completion tokens", "calls", "retries", "latency ms"},
		empty:  "No scored episode carries usage (no LLM agent)."}
	for _, m := range s.Models {
		if u := m.Usage; u != nil {
			usage.rows = append(usage.rows, []string{m.Name, fmt.Sprint(u.Episodes), dist(u.PromptTokens), dist(u.CompletionTokens), dist(u.Calls), dist(u.Retries), dist(u.LatencyMS)})
		}
	}
	out = append(out, usage)

	paired := section{id: "paired", title: "Paired differences",
		intro:  "A minus B over the episodes both scored on the same task, seed and noise half; 95% intervals resample tasks.",
		header: []string{"A − B", "pairs", "tasks", "Δ success_rate", "Δ mean_reward", "Δ marks"},
		empty:  "Fewer than two models share a scored (task, seed)."}
	for _, d := range s.Paired {
		paired.rows = append(paired.rows, []string{d.A + " − " + d.B, fmt.Sprint(d.Pairs), fmt.Sprint(d.Tasks), withCI(d.SuccessRate, signed3), withCI(d.MeanReward, signed3), withCI(d.Marks, signed1)})
	}
	out = append(out, paired)

	noise := section{id: "noise", title: "Noise deltas",
		intro:  "Noise on minus noise off over the (task, seed) pairs a model scored both ways; 95% intervals resample tasks.",
		header: []string{"model", "pairs", "tasks", "Δ success_rate", "Δ mean_reward", "Δ marks"},
		empty:  "No episode was played with noise both on and off."}
	for _, m := range s.Models {
		if n := m.Noise; n != nil {
			noise.rows = append(noise.rows, []string{m.Name, fmt.Sprint(n.Pairs), fmt.Sprint(n.Tasks), withCI(n.SuccessRate, signed3), withCI(n.MeanReward, signed3), withCI(n.Marks, signed1)})
		}
	}
	out = append(out, noise)

	infra := section{id: "infra", title: "Infra errors per model", header: []string{"model", "infra errors", "share", "ranked"}}
	for _, m := range s.Models {
		ranked := "yes"
		if m.Rank == 0 {
			ranked = "no"
		}
		infra.rows = append(infra.rows, []string{m.Name, fmt.Sprint(m.InfraErrors), percent(m.InfraShare), ranked})
	}
	out = append(out, infra)

	list := section{id: "infra-list", title: "Infra-error episodes", header: []string{"model", "task", "seed", "noise", "message"},
		empty: "None.", long: true}
	for _, m := range s.Models {
		for _, e := range m.InfraErrorEpisodes {
			list.rows = append(list.rows, []string{m.Name, e.Task, fmt.Sprint(e.Seed), e.Noise, e.Message})
		}
	}
	out = append(out, list)
	return append(out, judgeSections(s)...)
}

func findModel(s *Summary, name string) *Model {
	for i := range s.Models {
		if s.Models[i].Name == name {
			return &s.Models[i]
		}
	}
	return nil
}

func metricCell(episodes int, m record.Metrics, name string) string {
	if episodes == 0 {
		return "—"
	}
	if name == "marks" {
		return f1(m.Get(name))
	}
	return f3(m.Get(name))
}

func optional(p *float64) string {
	if p == nil {
		return "—"
	}
	return f3(*p)
}

func dist(d Distribution) string {
	return fmt.Sprintf("%.1f / %.1f / %.1f", d.Mean, d.Median, d.P95)
}

// groupSection is a group table: one row per group name any model has,
// in the order Build gives groups, one column per model.
func groupSection(s *Summary, id, title, intro string, order []string, get func(m *Model) []Group, long bool) section {
	sec := section{id: id, title: title, intro: intro, header: append([]string{"group"}, modelNames(s)...), long: long, empty: "No group."}
	var names []string
	cells := map[string]map[int]Group{}
	for i := range s.Models {
		for _, g := range get(&s.Models[i]) {
			if cells[g.Name] == nil {
				cells[g.Name] = map[int]Group{}
				names = append(names, g.Name)
			}
			cells[g.Name][i] = g
		}
	}
	slices.SortFunc(names, func(a, b string) int { return compareGroups(order, a, b) })
	for _, n := range names {
		row := []string{n}
		for i := range s.Models {
			g, ok := cells[n][i]
			switch {
			case !ok:
				row = append(row, "—")
			case g.Episodes == 0:
				row = append(row, fmt.Sprintf("infra only (%d)", g.InfraErrors))
			default:
				cell := fmt.Sprintf("%s · %s (%d)", f3(g.Metrics.Get("success_rate")), f1(g.Metrics.Get("marks")), g.Episodes)
				if g.InfraErrors > 0 {
					cell += fmt.Sprintf(" +%d infra", g.InfraErrors)
				}
				row = append(row, cell)
			}
		}
		sec.rows = append(sec.rows, row)
	}
	return sec
}
