package report_test

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/srezc/srezc/record"
	"github.com/srezc/srezc/report"
)

// episode is a hand-built scored record: a native task in the test split.
func episode(agent, task string, seed uint64, success bool) record.Line {
	r := record.Line{Task: task, Hash: "h-" + task, Suite: "suite", Agent: agent, Seed: seed,
		Difficulty: "easy", Split: "test", Family: "kind_" + task, Outcome: record.OutcomeScored, Terminal: "resolved"}
	r.Versions = record.Versions{Srezc: "test", Renderer: "obs/4", Profile: record.ProfileNative, Format: 1}
	r.Metrics = record.EpisodeMetrics{TotalSteps: 4, OptimalSteps: 4, Success: success, Diagnosed: success, Mitigated: success, Terminal: "resolved"}
	r.Failure = "other_failure"
	if success {
		r.Metrics.FinalReward, r.Metrics.EvidenceCoverage, r.Metrics.StepsToResolution = 0.9, 1, 4
		r.Components = record.Components{Evidence: 0.2, Diagnosis: 0.3, Mitigation: 0.3, Resolution: 0.1}
		r.Failure = "success"
	}
	return r
}

// infraError is a hand-built infra-error record. Its metrics claim a
// success, so a report that counted it would show it.
func infraError(agent, task string, seed uint64, msg string) record.Line {
	r := episode(agent, task, seed, true)
	r.Outcome, r.InfraError, r.Failure = record.OutcomeInfraError, msg, ""
	return r
}

func build(t *testing.T, recs []record.Line, opts report.Options) *report.Summary {
	t.Helper()
	s, err := report.Build(recs, opts)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func model(t *testing.T, s *report.Summary, name string) *report.Model {
	t.Helper()
	for i := range s.Models {
		if s.Models[i].Name == name {
			return &s.Models[i]
		}
	}
	t.Fatalf("no model %q in the summary", name)
	return nil
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-6 }

// mixed is a model that solves task i on i mod 4 of its 3 seeds, so tasks
// differ and the bootstrap has something to resample.
func mixed() []record.Line {
	var recs []record.Line
	for i, task := range []string{"a", "b", "c", "d", "e", "f"} {
		for seed := uint64(1); seed <= 3; seed++ {
			recs = append(recs, episode("m", task, seed, seed <= uint64(i%4)))
		}
	}
	return recs
}

func TestBootstrapIsReproducibleAndContainsThePoint(t *testing.T) {
	recs := mixed()
	first := model(t, build(t, recs, report.Options{}), "m")
	second := model(t, build(t, recs, report.Options{}), "m")
	if !reflect.DeepEqual(first.CI, second.CI) {
		t.Fatalf("two builds gave different intervals:\n%+v\n%+v", first.CI, second.CI)
	}
	for name, iv := range map[string]report.Interval{"success_rate": first.CI.SuccessRate, "mean_reward": first.CI.MeanReward, "marks": first.CI.Marks} {
		if !(iv.Low <= iv.Value && iv.Value <= iv.High) || !(iv.Low < iv.High) {
			t.Errorf("%s: interval %+v does not surround its point estimate", name, iv)
		}
		if !near(iv.Value, first.Overall.Get(name)) {
			t.Errorf("%s: interval centre %g, metric %g", name, iv.Value, first.Overall.Get(name))
		}
	}
	// With few samples the interpolated percentiles show the draws: the
	// seed must move them.
	few := model(t, build(t, recs, report.Options{BootstrapSamples: 40}), "m")
	other := model(t, build(t, recs, report.Options{BootstrapSamples: 40, Seed: 7}), "m")
	if reflect.DeepEqual(few.CI, other.CI) {
		t.Errorf("the bootstrap seed changes nothing: %+v", other.CI)
	}
}

// Two tasks, one always solved and one never: resampling tasks gives
// samples of 0, 0.5 and 1 (a quarter each at the ends), so the 95% interval
// spans [0, 1]; resampling episodes would give a narrow interval round 0.5.
func TestBootstrapResamplesTasksNotEpisodes(t *testing.T) {
	var recs []record.Line
	for seed := uint64(1); seed <= 8; seed++ {
		recs = append(recs, episode("m", "solved", seed, true), episode("m", "unsolved", seed, false))
	}
	iv := model(t, build(t, recs, report.Options{}), "m").CI.SuccessRate
	if iv.Value != 0.5 || iv.Low != 0 || iv.High != 1 {
		t.Fatalf("success interval %+v, want 0.5 in [0, 1]", iv)
	}
}

func TestInfraErrorsExcludedCountedAndUnranked(t *testing.T) {
	var recs []record.Line
	for i, task := range []string{"a", "b", "c", "d"} {
		recs = append(recs, episode("flaky", task, 1, i < 2), episode("solid", task, 1, i < 1))
	}
	recs = append(recs, infraError("flaky", "a", 2, "HTTP 503 after 5 retries"), infraError("flaky", "e", 1, "timeout"))
	s := build(t, recs, report.Options{})
	flaky := model(t, s, "flaky")
	if flaky.Episodes != 4 || flaky.InfraErrors != 2 || !near(flaky.InfraShare, 2.0/6) {
		t.Errorf("flaky: %d scored, %d infra errors, share %g; want 4, 2, 1/3", flaky.Episodes, flaky.InfraErrors, flaky.InfraShare)
	}
	if got := flaky.Overall.Get("success_rate"); got != 0.5 {
		t.Errorf("flaky success_rate %g, want 0.5 (2 of 4 scored; infra errors excluded)", got)
	}
	if flaky.InfraAsFailure.Episodes != 6 || !near(flaky.InfraAsFailure.SuccessRate, 2.0/6) || !(flaky.InfraAsFailure.Marks < flaky.Overall.Get("marks")) {
		t.Errorf("infra as failure %+v: want 6 episodes, success 1/3, marks below %g", flaky.InfraAsFailure, flaky.Overall.Get("marks"))
	}
	want := []report.InfraErrorEpisode{{Task: "a", Seed: 2, Message: "HTTP 503 after 5 retries"}, {Task: "e", Seed: 1, Message: "timeout"}}
	if !reflect.DeepEqual(flaky.InfraErrorEpisodes, want) {
		t.Errorf("infra-error episodes %+v, want %+v", flaky.InfraErrorEpisodes, want)
	}
	if flaky.Rank != 0 || flaky.Note != "not ranked: infra-error share 33.3% > 5%" {
		t.Errorf("flaky: rank %d, note %q; want unranked with the share", flaky.Rank, flaky.Note)
	}
	solid := model(t, s, "solid")
	if solid.Rank != 1 || solid.Note != "" {
		t.Errorf("solid: rank %d, note %q; want rank 1 (the only one ranked) and no note", solid.Rank, solid.Note)
	}
	// Task e has infra errors only: a group without metrics, never a zero.
	for _, g := range flaky.ByTask {
		if g.Name == "e" && (g.Episodes != 0 || g.InfraErrors != 1 || g.Metrics != nil) {
			t.Errorf("task e group %+v: want no scored episode, one infra error, no metrics", g)
		}
	}
	js, err := json.Marshal(flaky)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(js), `"rank"`) {
		t.Errorf("an unranked model's JSON has a rank: %s", js)
	}

	anyway := build(t, recs, report.Options{RankAnyway: true})
	if f := model(t, anyway, "flaky"); f.Rank != 1 || !strings.HasPrefix(f.Note, "ranked anyway: infra-error share 33.3%") {
		t.Errorf("--rank-anyway: flaky rank %d, note %q; want 1 (0.5 success beats 0.25) and the note", f.Rank, f.Note)
	}
	loose := build(t, recs, report.Options{MaxInfraShare: 0.4})
	if f := model(t, loose, "flaky"); f.Rank != 1 || f.Note != "" {
		t.Errorf("threshold 40%%: flaky rank %d, note %q; want ranked, no note", f.Rank, f.Note)
	}
	if got := []string{anyway.Ranking[0].Name, anyway.Ranking[1].Name}; got[0] != "flaky" || got[1] != "solid" {
		t.Errorf("ranking %v, want flaky before solid", got)
	}
}

// pass^k by hand: task x has 2 successes in 3, y 3 in 3, z 1 in 2.
// k=1: (2/3 + 1 + 1/2)/3; k=2: (C(2,2)/C(3,2) + 1 + 0)/3 = (1/3 + 1)/3;
// k=3: (0 + 1)/2 over the two tasks with three episodes.
func TestPassK(t *testing.T) {
	outcomes := map[string][]bool{"x": {true, false, true}, "y": {true, true, true}, "z": {false, true}}
	var recs []record.Line
	for _, task := range []string{"x", "y", "z"} {
		for i, ok := range outcomes[task] {
			recs = append(recs, episode("m", task, uint64(i+1), ok))
		}
	}
	got := model(t, build(t, recs, report.Options{}), "m").PassK
	want := []report.PassK{{K: 1, Value: 0.722222, Tasks: 3}, {K: 2, Value: 0.444444, Tasks: 3}, {K: 3, Value: 0.5, Tasks: 2}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("pass^k %+v, want %+v", got, want)
	}
}

func TestMitigationGivenDiagnosis(t *testing.T) {
	var recs []record.Line
	add := func(n int, diagnosed, mitigated bool) {
		for range n {
			r := episode("m", "t", uint64(len(recs)+1), false)
			r.Metrics.Diagnosed, r.Metrics.Mitigated = diagnosed, mitigated
			recs = append(recs, r)
		}
	}
	add(3, true, true)
	add(1, true, false)
	add(1, false, true)
	add(3, false, false)
	recs = append(recs, infraError("m", "t", 99, "lost")) // not counted
	got := model(t, build(t, recs, report.Options{}), "m").Mitigation
	if got.Diagnosed != 4 || got.MitigatedWhenDiagnosed != 3 || got.NotDiagnosed != 4 || got.MitigatedWhenNotDiagnosed != 1 {
		t.Errorf("counts %+v, want 4 diagnosed (3 mitigated), 4 not (1 mitigated)", got)
	}
	if got.GivenDiagnosis == nil || *got.GivenDiagnosis != 0.75 || got.GivenNoDiagnosis == nil || *got.GivenNoDiagnosis != 0.25 {
		t.Errorf("P(mitigation | diagnosis) %v, P(mitigation | no diagnosis) %v; want 0.75 and 0.25", got.GivenDiagnosis, got.GivenNoDiagnosis)
	}
	// With no undiagnosed episode the second probability is undefined.
	all := model(t, build(t, recs[:4], report.Options{}), "m").Mitigation
	if all.GivenNoDiagnosis != nil {
		t.Errorf("P(mitigation | no diagnosis) = %v with no undiagnosed episode, want none", *all.GivenNoDiagnosis)
	}
}

func TestFailureModesAndGroups(t *testing.T) {
	// An escalation has its own mode, also in a record written before it
	// had one (failure_mode other_failure, terminal escalated).
	recs := []record.Line{episode("m", "a", 1, true), episode("m", "b", 1, false), episode("m", "c", 1, false),
		episodeEscalated("d", "escalated"), episodeEscalated("e", "other_failure")}
	recs[1].Failure = "wrong_remediation"
	recs[0].Difficulty, recs[1].Difficulty, recs[2].Difficulty = "hard", "easy", "medium"
	recs[0].Tags, recs[2].Tags = []string{"noisy", "cascade"}, []string{"noisy"}
	m := model(t, build(t, recs, report.Options{}), "m")
	counts := map[string]int{}
	var modes []string
	for _, fm := range m.FailureModes {
		counts[fm.Mode] = fm.Count
		modes = append(modes, fm.Mode)
	}
	if counts["success"] != 1 || counts["wrong_remediation"] != 1 || counts["other_failure"] != 1 || counts["escalated"] != 2 || len(modes) != 8 || modes[0] != "success" {
		t.Errorf("failure modes %+v", m.FailureModes)
	}
	var diff, tags []string
	for _, g := range m.ByDifficulty {
		diff = append(diff, g.Name)
	}
	for _, g := range m.ByTag {
		tags = append(tags, g.Name+":"+string(rune('0'+g.Episodes)))
	}
	if strings.Join(diff, ",") != "easy,medium,hard" || strings.Join(tags, ",") != "cascade:1,noisy:2" {
		t.Errorf("difficulty groups %v (want easy, medium, hard), tag groups %v", diff, tags)
	}
}

// episodeEscalated is a failed episode on task that escalated, its
// failure_mode as given.
func episodeEscalated(task, failure string) record.Line {
	r := episode("m", task, 1, false)
	r.Terminal, r.Metrics.Terminal, r.Failure = "escalated", "escalated", failure
	r.Difficulty = "medium"
	return r
}

// TestThinlyMeasuredRankedAfter: a model scored on one episode ranks
// after an agent measured over many tasks, however high its marks, and
// says why; the well-measured keep their order by marks.
func TestThinlyMeasuredRankedAfter(t *testing.T) {
	var recs []record.Line
	for i := 0; i < 45; i++ {
		task := fmt.Sprintf("t%02d", i)
		recs = append(recs, episode("agent", task, 1, i%2 == 0), episode("weak", task, 1, i%4 == 0))
	}
	recs = append(recs, episode("human", "t00", 1, true))
	s := build(t, recs, report.Options{})
	var order []string
	for _, st := range s.Ranking {
		order = append(order, fmt.Sprintf("%d:%s", st.Rank, st.Name))
	}
	if got := strings.Join(order, ","); got != "1:agent,2:weak,3:human" {
		t.Errorf("ranking %s, want 1:agent,2:weak,3:human", got)
	}
	h := model(t, s, "human")
	if !strings.Contains(h.Note, "ranked after the well-measured: 1 episode on 1 task") {
		t.Errorf("human note %q", h.Note)
	}
	if a := model(t, s, "agent"); a.Note != "" {
		t.Errorf("agent note %q, want none", a.Note)
	}
	// With a lower bar the human is compared like the others.
	s = build(t, recs, report.Options{MinRankTasks: 1})
	if s.Ranking[0].Name != "human" {
		t.Errorf("MinRankTasks 1: %+v first, want human", s.Ranking[0])
	}
}

func TestUnseenIncidentFromRecords(t *testing.T) {
	train := episode("m", "tr", 1, true)
	train.Split, train.Family = "train", "kind_a+kind_b"
	unseen := episode("m", "new", 1, true)
	unseen.Family = "kind_c"
	seen := episode("m", "old", 1, false)
	seen.Family = "kind_a+kind_c"
	ref := episode("m", "ref", 1, false)
	ref.Profile, ref.Family, ref.Tags = record.ProfileSreZero, "cache restart_service", []string{"unseen_incident"}
	m := model(t, build(t, []record.Line{train, unseen, seen, ref}, report.Options{}), "m")
	var got *report.Group
	for i := range m.BySplit {
		if m.BySplit[i].Name == report.UnseenIncident {
			got = &m.BySplit[i]
		}
	}
	// new (no trained kind) and ref (tagged); not old, which shares kind_a.
	if got == nil || got.Episodes != 2 || got.Metrics.Get("success_rate") != 0.5 {
		t.Fatalf("unseen_incident group %+v, want 2 episodes (new, ref), success 0.5", got)
	}
	if last := m.BySplit[len(m.BySplit)-1].Name; last != report.UnseenIncident {
		t.Errorf("splits end with %q, want unseen_incident after the splits", last)
	}
}

func TestPairedDifferencesAndNoiseDeltas(t *testing.T) {
	var recs []record.Line
	for _, task := range []string{"a", "b", "c", "d"} {
		for seed := uint64(1); seed <= 2; seed++ {
			good := episode("good", task, seed, true)
			half := episode("half", task, seed, seed == 1)
			recs = append(recs, good, half)
			for _, noise := range []string{"on", "off"} {
				n := episode("noisy", task, seed, noise == "off" || task == "a")
				n.Noise = noise
				recs = append(recs, n)
			}
		}
	}
	recs = append(recs, episode("half", "only-half", 1, false)) // unpaired
	s := build(t, recs, report.Options{})
	var d *report.PairedDifference
	for i := range s.Paired {
		if s.Paired[i].A == "good" && s.Paired[i].B == "half" {
			d = &s.Paired[i]
		}
	}
	if d == nil {
		t.Fatalf("no good − half comparison in %+v", s.Paired)
	}
	if d.Pairs != 8 || d.Tasks != 4 || d.SuccessRate.Value != 0.5 || !near(d.MeanReward.Value, 0.45) {
		t.Errorf("good − half: %+v; want 8 pairs over 4 tasks, success +0.5, reward +0.45", *d)
	}
	if !(d.SuccessRate.Low <= 0.5 && 0.5 <= d.SuccessRate.High) {
		t.Errorf("good − half success interval %+v does not hold 0.5", d.SuccessRate)
	}
	noise := model(t, s, "noisy").Noise
	// Off always succeeds; on succeeds only on task a: 2 of 8 pairs.
	if noise == nil || noise.Pairs != 8 || noise.Tasks != 4 || noise.SuccessRate.Value != -0.75 {
		t.Fatalf("noise effect %+v, want 8 pairs over 4 tasks, success −0.75", noise)
	}
	if !(noise.SuccessRate.Low <= -0.75 && -0.75 <= noise.SuccessRate.High && noise.Marks.Value < 0) {
		t.Errorf("noise intervals %+v", *noise)
	}
	if model(t, s, "good").Noise != nil {
		t.Errorf("a model played without --noise both has a noise effect")
	}
}

func TestReadLastRecordWinsInPlace(t *testing.T) {
	lost := infraError("m", "a", 1, "503")
	retried := episode("m", "a", 1, true)
	other := episode("m", "b", 1, false)
	path := writeRecords(t, []record.Line{lost, other, retried})
	recs, err := report.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 || recs[0].Task != "a" || recs[0].Outcome != record.OutcomeScored || recs[1].Task != "b" {
		t.Fatalf("read %d records (%+v); want the retry of a in its first place, then b", len(recs), recs)
	}
}

func TestReadMalformedLineNamesFileAndLine(t *testing.T) {
	path := writeRecords(t, []record.Line{episode("m", "a", 1, true)})
	data, _ := os.ReadFile(path)
	for _, c := range []struct{ line, want string }{
		{`{"task": "b", "agent": `, ":2: not a JSON record"},
		{`{"task": "b", "agent": "m", "outcome": "lost"}`, `:2: unknown outcome "lost"`},
		{`{"agent": "m"}`, ":2: record has no task"},
		{`[1, 2]`, ":2: not a record"},
	} {
		bad := filepath.Join(t.TempDir(), "records.jsonl")
		if err := os.WriteFile(bad, append(append(data, c.line...), '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := report.Read(bad)
		if err == nil || !strings.Contains(err.Error(), bad+c.want) {
			t.Errorf("line %s: error %v, want %q", c.line, err, bad+c.want)
		}
	}
}

func writeRecords(t *testing.T, recs []record.Line) string {
	t.Helper()
	var b strings.Builder
	for _, r := range recs {
		line, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	path := filepath.Join(t.TempDir(), "records.jsonl")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
