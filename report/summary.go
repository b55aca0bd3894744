package report

import (
	"cmp"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/srezc/srezc/record"
)

// Options tune Build. A zero field takes its default.
type Options struct {
	// BootstrapSamples is the number of bootstrap resamples behind every
	// confidence interval (default 2000).
	BootstrapSamples int
	// Seed seeds the bootstrap's generator (default 1).
	Seed uint64
	// MaxInfraShare is the largest share of infra-error episodes a model
	// may have and still be ranked (default 0.05). To rank only models
	// with none, pass any value below 1/episodes, such as
	// math.SmallestNonzeroFloat64.
	MaxInfraShare float64
	// RankAnyway ranks every model with scored episodes, whatever its
	// infra-error share (the note stays).
	RankAnyway bool
	// MinRankTasks and MaxRankWidth say when a model is measured well
	// enough to rank among the others: scored on at least MinRankTasks
	// tasks (default 5; the intervals resample tasks, and over one task an
	// interval has no width at all) with a marks interval at most
	// MaxRankWidth marks wide (default 40). A model measured more thinly
	// is ranked after every well-measured one, with a note saying why.
	MinRankTasks int
	MaxRankWidth float64
	// Resolution reads the root cause and fix that a resolving episode's
	// last action gave, for the judge's disagreements. Reading them takes
	// the action grammar, which a report does not link (it works from
	// records alone): the CLI passes eval.ResolutionOf. Nil leaves them
	// empty.
	Resolution func(r *record.Line) (rootCause, fix string)
	// SplitNoise adds, per model, the scored episodes split by whether
	// noise touched the evidence the agent read (record.Line.NoiseRead):
	// srezc report --split noise.
	SplitNoise bool
}

// Defaults of Options.
const (
	DefaultBootstrapSamples = 2000
	DefaultSeed             = 1
	DefaultMaxInfraShare    = 0.05
	DefaultMinRankTasks     = 5
	DefaultMaxRankWidth     = 40.0
)

func (o Options) withDefaults() (Options, error) {
	if o.BootstrapSamples == 0 {
		o.BootstrapSamples = DefaultBootstrapSamples
	}
	if o.Seed == 0 {
		o.Seed = DefaultSeed
	}
	if o.MaxInfraShare == 0 {
		o.MaxInfraShare = DefaultMaxInfraShare
	}
	if o.MinRankTasks == 0 {
		o.MinRankTasks = DefaultMinRankTasks
	}
	if o.MaxRankWidth == 0 {
		o.MaxRankWidth = DefaultMaxRankWidth
	}
	if o.BootstrapSamples < 0 {
		return o, fmt.Errorf("bootstrap samples must be positive, not %d", o.BootstrapSamples)
	}
	if o.MaxInfraShare < 0 || o.MaxInfraShare > 1 || math.IsNaN(o.MaxInfraShare) {
		return o, fmt.Errorf("the largest infra-error share must be between 0 and 1, not %g", o.MaxInfraShare)
	}
	return o, nil
}

// Summary is summary.json: everything the report shows, computed from the
// records alone. Slices are in a fixed order: models as they first appear
// in the records, groups in their natural order (easy, medium, hard; train,
// dev, test, unseen_incident) and the rest sorted by name.
type Summary struct {
	// Suites are the suite hashes seen, sorted; Versions the distinct
	// (srezc, renderer, profile, IR format) combinations, sorted.
	Suites   []string          `json:"suites"`
	Versions []record.Versions `json:"versions"`
	// Profile is the rubric profile the records share, or "mixed"; it
	// picks the marks formula (record.Aggregator).
	Profile string `json:"profile"`
	// Tasks and Seeds count the distinct task ids and seeds; Episodes the
	// records (after de-duplication), InfraErrors those that are infra
	// errors.
	Tasks       int `json:"tasks"`
	Seeds       int `json:"seeds"`
	Episodes    int `json:"episodes"`
	InfraErrors int `json:"infra_errors"`

	Bootstrap     BootstrapSettings `json:"bootstrap"`
	MaxInfraShare float64           `json:"max_infra_share"`
	RankAnyway    bool              `json:"rank_anyway"`
	// MinRankTasks and MaxRankWidth are Options' (see there).
	MinRankTasks int     `json:"min_rank_tasks"`
	MaxRankWidth float64 `json:"max_rank_width"`

	Models  []Model    `json:"models"`
	Ranking []Standing `json:"ranking"`
	// Paired compares every pair of models on the (task, seed) episodes
	// both scored.
	Paired []PairedDifference `json:"paired_differences"`
	// Judge compares the model judge's verdicts with the grader's;
	// absent when no record carries one (report/judge.go).
	Judge *JudgeAgreement `json:"judge,omitempty"`
}

// BootstrapSettings say how the intervals were computed.
type BootstrapSettings struct {
	Samples    int     `json:"samples"`
	Seed       uint64  `json:"seed"`
	Confidence float64 `json:"confidence"`
	Resampled  string  `json:"resampled"`
}

// Model is one agent and model: every record with the same agent and
// model (model empty for built-in agents and humans).
type Model struct {
	Name    string   `json:"name"` // agent, or agent/model
	Agent   string   `json:"agent"`
	Model   string   `json:"model,omitempty"`
	Prompts []string `json:"prompts,omitempty"`
	// Episodes counts the scored episodes, InfraErrors the others;
	// InfraShare is InfraErrors / (Episodes + InfraErrors).
	Episodes    int     `json:"episodes"`
	InfraErrors int     `json:"infra_errors"`
	InfraShare  float64 `json:"infra_error_share"`
	// Rank is the position by marks (1 is best), absent when the model is
	// not ranked; Note says why, or that it was ranked anyway.
	Rank int    `json:"rank,omitempty"`
	Note string `json:"note,omitempty"`
	// Overall has every metric of record.MetricNames over the scored
	// episodes (absent when there are none); ReferenceMarks is the
	// reference's §7 marks (target 8 steps).
	Overall        record.Metrics `json:"overall,omitempty"`
	ReferenceMarks *float64       `json:"reference_marks,omitempty"`
	// CI are 95% intervals that resample tasks.
	CI Intervals `json:"ci"`
	// InfraAsFailure is the score had every infra error been a failed
	// episode with zero reward.
	InfraAsFailure InfraAsFailure `json:"infra_as_failure"`
	// Components is the mean of each reward component over the scored
	// episodes.
	Components record.Components `json:"components"`

	ByDifficulty []Group `json:"by_difficulty"`
	BySplit      []Group `json:"by_split"`
	ByTask       []Group `json:"by_task"`
	ByTag        []Group `json:"by_tag"`
	ByFamily     []Group `json:"by_family"`
	// ByNoiseRead splits the episodes by whether noise touched the
	// evidence the agent read (NoiseTouched, NoiseUntouched); present
	// only with Options.SplitNoise.
	ByNoiseRead []Group `json:"by_noise_read,omitempty"`

	PassK        []PassK                   `json:"pass_k"`
	FailureModes []record.FailureModeCount `json:"failure_modes"`
	Mitigation   MitigationByDiagnosis     `json:"mitigation_by_diagnosis"`
	// Usage is the LLM cost per episode; absent when no scored episode
	// has usage.
	Usage *UsageStats `json:"usage,omitempty"`
	// Noise is the effect of noise (on minus off) on the (task, seed)
	// pairs the model played both ways; absent when there are none.
	Noise *NoiseEffect `json:"noise,omitempty"`

	InfraErrorEpisodes []InfraErrorEpisode `json:"infra_error_episodes"`
}

// Intervals are the bootstrap intervals of the headline metrics.
type Intervals struct {
	SuccessRate Interval `json:"success_rate"`
	MeanReward  Interval `json:"mean_reward"`
	Marks       Interval `json:"marks"`
}

// InfraAsFailure scores a model with its infra errors counted as failed,
// zero-reward, zero-step episodes, beside the real score.
type InfraAsFailure struct {
	Episodes    int     `json:"episodes"`
	SuccessRate float64 `json:"success_rate"`
	MeanReward  float64 `json:"mean_reward"`
	Marks       float64 `json:"marks"`
}

// Group aggregates the scored episodes of one difficulty, split, task, tag
// or family. Metrics is absent when every episode was an infra error.
type Group struct {
	Name string `json:"name"`
	// Difficulty is a task's difficulty, in by_task only.
	Difficulty  string         `json:"difficulty,omitempty"`
	Episodes    int            `json:"episodes"`
	InfraErrors int            `json:"infra_errors"`
	Metrics     record.Metrics `json:"metrics,omitempty"`
}

// PassK is tau-bench's pass^k: the mean over tasks of C(c,k)/C(n,k) for a
// task with n scored episodes, c of them successes; Tasks counts the
// tasks with n ≥ k, the only ones it averages.
type PassK struct {
	K     int     `json:"k"`
	Value float64 `json:"value"`
	Tasks int     `json:"tasks"`
}

// MitigationByDiagnosis is SREGym's analysis: how often the system was
// mitigated when the diagnosis matched and when it did not. A probability
// is absent (null) when its condition never held.
type MitigationByDiagnosis struct {
	Diagnosed                 int      `json:"diagnosed"`
	MitigatedWhenDiagnosed    int      `json:"mitigated_when_diagnosed"`
	NotDiagnosed              int      `json:"not_diagnosed"`
	MitigatedWhenNotDiagnosed int      `json:"mitigated_when_not_diagnosed"`
	GivenDiagnosis            *float64 `json:"p_mitigation_given_diagnosis"`
	GivenNoDiagnosis          *float64 `json:"p_mitigation_given_no_diagnosis"`
}

// UsageStats summarise an LLM agent's cost per scored episode.
type UsageStats struct {
	Episodes         int          `json:"episodes"`
	PromptTokens     Distribution `json:"prompt_tokens"`
	CompletionTokens Distribution `json:"completion_tokens"`
	Calls            Distribution `json:"calls"`
	Retries          Distribution `json:"retries"`
	LatencyMS        Distribution `json:"latency_ms"`
}

// NoiseEffect is noise on minus noise off over the (task, seed) pairs a
// model scored both ways, with intervals resampling tasks.
type NoiseEffect struct {
	Pairs       int      `json:"pairs"`
	Tasks       int      `json:"tasks"`
	SuccessRate Interval `json:"success_rate"`
	MeanReward  Interval `json:"mean_reward"`
	Marks       Interval `json:"marks"`
}

// PairedDifference is model A minus model B over the episodes both scored
// on the same task, seed and noise half, with intervals resampling tasks.
type PairedDifference struct {
	A           string   `json:"a"`
	B           string   `json:"b"`
	Pairs       int      `json:"pairs"`
	Tasks       int      `json:"tasks"`
	SuccessRate Interval `json:"success_rate"`
	MeanReward  Interval `json:"mean_reward"`
	Marks       Interval `json:"marks"`
}

// InfraErrorEpisode is one episode lost to the infrastructure.
type InfraErrorEpisode struct {
	Task    string `json:"task"`
	Seed    uint64 `json:"seed"`
	Noise   string `json:"noise,omitempty"`
	Message string `json:"message"`
}

// Standing is one line of the ranking: ranked models by marks, best
// first, then the unranked ones.
type Standing struct {
	Rank  int     `json:"rank,omitempty"`
	Name  string  `json:"name"`
	Marks float64 `json:"marks"`
	Low   float64 `json:"low"`
	High  float64 `json:"high"`
	Note  string  `json:"note,omitempty"`
}

// Group orders: these names first, in this order, then the rest sorted.
var (
	difficultyOrder = []string{"easy", "medium", "hard"}
	splitOrder      = []string{"train", "dev", "test"}
)

// The groups of --split noise: noise touched the evidence the agent read,
// or it did not.
const (
	NoiseTouched   = "noise_read"
	NoiseUntouched = "no_noise_read"
)

// UnseenIncident names the split group of test tasks whose incident kind
// no train task has.
const UnseenIncident = "unseen_incident"

// Build computes the report of records (in file order, as Read returns
// them).
func Build(records []record.Line, opts Options) (*Summary, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	if len(records) == 0 {
		return nil, fmt.Errorf("no records")
	}
	s := &Summary{
		Profile:       recordsProfile(records),
		Episodes:      len(records),
		Bootstrap:     BootstrapSettings{Samples: opts.BootstrapSamples, Seed: opts.Seed, Confidence: Confidence, Resampled: "tasks"},
		MaxInfraShare: opts.MaxInfraShare,
		RankAnyway:    opts.RankAnyway,
		MinRankTasks:  opts.MinRankTasks,
		MaxRankWidth:  opts.MaxRankWidth,
	}
	tasks, seeds := map[string]bool{}, map[uint64]bool{}
	for i := range records {
		r := &records[i]
		tasks[r.Task], seeds[r.Seed] = true, true
		if r.Outcome == record.OutcomeInfraError {
			s.InfraErrors++
		}
		if !slices.Contains(s.Suites, r.Suite) {
			s.Suites = append(s.Suites, r.Suite)
		}
		if !slices.Contains(s.Versions, r.Versions) {
			s.Versions = append(s.Versions, r.Versions)
		}
	}
	slices.Sort(s.Suites)
	slices.SortFunc(s.Versions, func(a, b record.Versions) int {
		return cmp.Or(cmp.Compare(a.Srezc, b.Srezc), cmp.Compare(a.Renderer, b.Renderer), cmp.Compare(a.Profile, b.Profile), cmp.Compare(a.Format, b.Format))
	})
	s.Tasks, s.Seeds = len(tasks), len(seeds)

	b := &builder{opts: opts, aggregate: record.Aggregator(s.Profile), unseen: unseenIncidents(records)}
	models := splitByModel(records)
	for _, m := range models {
		s.Models = append(s.Models, b.model(m))
	}
	s.Ranking = rank(s.Models, opts)
	s.Paired = b.allPairs(models)
	s.Judge = b.judgeAgreement(models)
	return s, nil
}

// modelRecords are one model's records in file order.
type modelRecords struct {
	name, agent, model string
	recs               []*record.Line
}

func modelName(agent, model string) string {
	if model == "" {
		return agent
	}
	return agent + "/" + model
}

// splitByModel groups records by agent and model, models in the order they
// first appear.
func splitByModel(records []record.Line) []*modelRecords {
	var out []*modelRecords
	at := map[[2]string]*modelRecords{}
	for i := range records {
		r := &records[i]
		k := [2]string{r.Agent, r.Model}
		m := at[k]
		if m == nil {
			m = &modelRecords{name: modelName(r.Agent, r.Model), agent: r.Agent, model: r.Model}
			at[k] = m
			out = append(out, m)
		}
		m.recs = append(m.recs, r)
	}
	return out
}

// recordsProfile is the rubric profile the records share, or "mixed"; a
// record without one predates profiles and is native.
func recordsProfile(records []record.Line) string {
	p := ""
	for i := range records {
		rp := cmp.Or(records[i].Profile, record.ProfileNative)
		switch p {
		case "":
			p = rp
		case rp:
		default:
			return "mixed"
		}
	}
	return p
}

// unseenIncidents decides the unseen_incident subset from records alone,
// as eval.UnseenIncidents does from tasks: a test task is unseen when it
// is tagged unseen_incident (an imported reference task, whose manifest
// says so), or when it is native, its family (its fault kinds joined by
// "+") is known, and none of its fault kinds is in the family of any train
// task in the records. Without train records the second rule cannot tell
// and only the tag counts.
func unseenIncidents(records []record.Line) map[string]bool {
	trained := map[string]bool{}
	haveTrain := false
	for i := range records {
		r := &records[i]
		if r.Split == "train" && r.Family != "" && cmp.Or(r.Profile, record.ProfileNative) != record.ProfileSreZero {
			haveTrain = true
			for _, k := range strings.Split(r.Family, "+") {
				trained[k] = true
			}
		}
	}
	out := map[string]bool{}
	for i := range records {
		r := &records[i]
		if r.Split != "test" {
			continue
		}
		if slices.Contains(r.Tags, UnseenIncident) {
			out[r.Task] = true
			continue
		}
		if !haveTrain || r.Family == "" || cmp.Or(r.Profile, record.ProfileNative) == record.ProfileSreZero {
			continue
		}
		unseen := true
		for _, k := range strings.Split(r.Family, "+") {
			unseen = unseen && !trained[k]
		}
		if unseen {
			out[r.Task] = true
		}
	}
	return out
}

type builder struct {
	opts      Options
	aggregate func([]record.EpisodeMetrics) record.Metrics
	unseen    map[string]bool
}

func (b *builder) model(mr *modelRecords) Model {
	m := Model{Name: mr.name, Agent: mr.agent, Model: mr.model, InfraErrorEpisodes: []InfraErrorEpisode{}}
	var scored []*record.Line
	for _, r := range mr.recs {
		if r.Prompt != "" && !slices.Contains(m.Prompts, r.Prompt) {
			m.Prompts = append(m.Prompts, r.Prompt)
		}
		if r.Outcome == record.OutcomeInfraError {
			m.InfraErrors++
			m.InfraErrorEpisodes = append(m.InfraErrorEpisodes, InfraErrorEpisode{Task: r.Task, Seed: r.Seed, Noise: r.Noise, Message: r.InfraError})
			continue
		}
		scored = append(scored, r)
	}
	slices.Sort(m.Prompts)
	m.Episodes = len(scored)
	m.InfraShare = round6(float64(m.InfraErrors) / float64(max(1, len(mr.recs))))
	metrics := recordsOf(scored)
	if len(scored) > 0 {
		m.Overall = b.aggregate(metrics)
		ref := record.Marks(m.Overall, 8)
		m.ReferenceMarks = &ref
	}
	m.CI = b.intervals("ci\x00"+mr.name, scored)
	m.InfraAsFailure = b.infraAsFailure(mr.recs)
	m.Components = meanComponents(scored)

	var diff, split, task, tag, family grouping
	for _, r := range mr.recs {
		diff.add(r.Difficulty, r)
		split.add(r.Split, r)
		task.add(r.Task, r)
		family.add(r.Family, r)
		for _, t := range r.Tags {
			tag.add(t, r)
		}
	}
	m.ByDifficulty = diff.groups(difficultyOrder, b.aggregate)
	m.BySplit = split.groups(splitOrder, b.aggregate)
	var unseen grouping
	for _, r := range mr.recs {
		if b.unseen[r.Task] {
			unseen.add(UnseenIncident, r)
		}
	}
	m.BySplit = append(m.BySplit, unseen.groups(nil, b.aggregate)...)
	m.ByTask = task.groups(nil, b.aggregate)
	difficulty := map[string]string{}
	for _, r := range mr.recs {
		difficulty[r.Task] = r.Difficulty
	}
	for i := range m.ByTask {
		m.ByTask[i].Difficulty = difficulty[m.ByTask[i].Name]
	}
	m.ByTag = tag.groups(nil, b.aggregate)
	m.ByFamily = family.groups(nil, b.aggregate)
	if b.opts.SplitNoise {
		var noise grouping
		for _, r := range mr.recs {
			if r.NoiseRead() {
				noise.add(NoiseTouched, r)
			} else {
				noise.add(NoiseUntouched, r)
			}
		}
		m.ByNoiseRead = noise.groups([]string{NoiseTouched, NoiseUntouched}, b.aggregate)
	}

	m.PassK = passK(scored)
	m.FailureModes = failureModeCounts(scored)
	m.Mitigation = mitigationByDiagnosis(scored)
	m.Usage = usageStats(scored)
	m.Noise = b.noise(mr)
	return m
}

func recordsOf(recs []*record.Line) []record.EpisodeMetrics {
	out := make([]record.EpisodeMetrics, len(recs))
	for i, r := range recs {
		out[i] = r.Metrics
	}
	return out
}

// byTask splits records by task id, tasks sorted.
func byTask(recs []*record.Line) [][]*record.Line {
	at := map[string]int{}
	var names []string
	var out [][]*record.Line
	for _, r := range recs {
		if _, ok := at[r.Task]; !ok {
			at[r.Task] = len(names)
			names = append(names, r.Task)
			out = append(out, nil)
		}
		out[at[r.Task]] = append(out[at[r.Task]], r)
	}
	idx := make([]int, len(names))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return cmp.Compare(names[a], names[b]) })
	sorted := make([][]*record.Line, len(idx))
	for i, j := range idx {
		sorted[i] = out[j]
	}
	return sorted
}

// headline picks success rate, mean reward and marks out of metrics.
func headline(m record.Metrics) []float64 {
	return []float64{m.Get("success_rate"), m.Get("mean_reward"), m.Get("marks")}
}

// intervals bootstraps the headline metrics of scored episodes over tasks.
func (b *builder) intervals(label string, scored []*record.Line) Intervals {
	tasks := byTask(scored)
	point := []float64{0, 0, 0}
	if len(scored) > 0 {
		point = headline(b.aggregate(recordsOf(scored)))
	}
	var buf []record.EpisodeMetrics
	ci := bootstrap(label, b.opts.Seed, b.opts.BootstrapSamples, len(tasks), point, func(draw []int) []float64 {
		buf = buf[:0]
		for _, t := range draw {
			for _, r := range tasks[t] {
				buf = append(buf, r.Metrics)
			}
		}
		return headline(b.aggregate(buf))
	})
	return Intervals{SuccessRate: ci[0], MeanReward: ci[1], Marks: ci[2]}
}

// infraAsFailure scores every record, an infra error as a zero record: no
// success, no reward, no coverage, no steps.
func (b *builder) infraAsFailure(recs []*record.Line) InfraAsFailure {
	all := make([]record.EpisodeMetrics, len(recs))
	for i, r := range recs {
		if r.Outcome != record.OutcomeInfraError {
			all[i] = r.Metrics
		}
	}
	m := b.aggregate(all)
	return InfraAsFailure{Episodes: len(all), SuccessRate: round6(m.Get("success_rate")), MeanReward: round6(m.Get("mean_reward")), Marks: round6(m.Get("marks"))}
}

func meanComponents(scored []*record.Line) record.Components {
	var c record.Components
	if len(scored) == 0 {
		return c
	}
	for _, r := range scored {
		c.Evidence += r.Components.Evidence
		c.Diagnosis += r.Components.Diagnosis
		c.Mitigation += r.Components.Mitigation
		c.Resolution += r.Components.Resolution
		c.Efficiency += r.Components.Efficiency
		c.Penalties += r.Components.Penalties
	}
	n := float64(len(scored))
	return record.Components{Evidence: round6(c.Evidence / n), Diagnosis: round6(c.Diagnosis / n), Mitigation: round6(c.Mitigation / n),
		Resolution: round6(c.Resolution / n), Efficiency: round6(c.Efficiency / n), Penalties: round6(c.Penalties / n)}
}

// grouping collects one model's records by a group name; an empty name
// (a field an older record lacks) makes no group.
type grouping struct {
	names  []string
	scored map[string][]record.EpisodeMetrics
	infra  map[string]int
}

func (g *grouping) add(name string, r *record.Line) {
	if name == "" {
		return
	}
	if g.scored == nil {
		g.scored, g.infra = map[string][]record.EpisodeMetrics{}, map[string]int{}
	}
	if _, ok := g.scored[name]; !ok {
		g.names = append(g.names, name)
		g.scored[name] = nil
	}
	if r.Outcome == record.OutcomeInfraError {
		g.infra[name]++
	} else {
		g.scored[name] = append(g.scored[name], r.Metrics)
	}
}

// groups aggregates each group: the names of order first, in that order,
// then the rest sorted.
func (g *grouping) groups(order []string, aggregate func([]record.EpisodeMetrics) record.Metrics) []Group {
	names := slices.Clone(g.names)
	slices.SortFunc(names, func(a, b string) int { return compareGroups(order, a, b) })
	out := []Group{}
	for _, n := range names {
		gr := Group{Name: n, Episodes: len(g.scored[n]), InfraErrors: g.infra[n]}
		if gr.Episodes > 0 {
			gr.Metrics = aggregate(g.scored[n])
		}
		out = append(out, gr)
	}
	return out
}

// compareGroups orders group names: those of order first, in that order,
// then the rest by name, then unseen_incident (a subset of test, shown
// after the splits).
func compareGroups(order []string, a, b string) int {
	rank := func(n string) int {
		if i := slices.Index(order, n); i >= 0 {
			return i
		}
		if n == UnseenIncident {
			return len(order) + 1
		}
		return len(order)
	}
	return cmp.Or(cmp.Compare(rank(a), rank(b)), cmp.Compare(a, b))
}

// passK computes pass^k for k from 1 to the most scored episodes any task
// has.
func passK(scored []*record.Line) []PassK {
	tasks := byTask(scored)
	most := 0
	for _, t := range tasks {
		most = max(most, len(t))
	}
	out := []PassK{}
	for k := 1; k <= most; k++ {
		sum, n := 0.0, 0
		for _, t := range tasks {
			if len(t) < k {
				continue
			}
			c := 0
			for _, r := range t {
				if r.Metrics.Success {
					c++
				}
			}
			sum += passHatK(len(t), c, k)
			n++
		}
		out = append(out, PassK{K: k, Value: round6(sum / float64(n)), Tasks: n})
	}
	return out
}

// failureModeCounts counts the failure_mode field of scored records: the
// reference's modes in their order, then any other value a record carries,
// sorted.
func failureModeCounts(scored []*record.Line) []record.FailureModeCount {
	counts := map[string]int{}
	var other []string
	for _, r := range scored {
		mode := cmp.Or(r.Failure, "other_failure")
		if mode == "other_failure" && r.Terminal == record.TerminalEscalated {
			mode = "escalated" // a record written before escalation had its own mode
		}
		if counts[mode] == 0 && !slices.Contains(record.FailureModes, mode) {
			other = append(other, mode)
		}
		counts[mode]++
	}
	slices.Sort(other)
	out := []record.FailureModeCount{}
	for _, mode := range append(slices.Clone(record.FailureModes), other...) {
		out = append(out, record.FailureModeCount{Mode: mode, Count: counts[mode]})
	}
	return out
}

func mitigationByDiagnosis(scored []*record.Line) MitigationByDiagnosis {
	var m MitigationByDiagnosis
	for _, r := range scored {
		if r.Metrics.Diagnosed {
			m.Diagnosed++
			if r.Metrics.Mitigated {
				m.MitigatedWhenDiagnosed++
			}
		} else {
			m.NotDiagnosed++
			if r.Metrics.Mitigated {
				m.MitigatedWhenNotDiagnosed++
			}
		}
	}
	ratio := func(a, b int) *float64 {
		if b == 0 {
			return nil
		}
		p := round6(float64(a) / float64(b))
		return &p
	}
	m.GivenDiagnosis = ratio(m.MitigatedWhenDiagnosed, m.Diagnosed)
	m.GivenNoDiagnosis = ratio(m.MitigatedWhenNotDiagnosed, m.NotDiagnosed)
	return m
}

func usageStats(scored []*record.Line) *UsageStats {
	var prompt, completion, calls, retries, latency []float64
	for _, r := range scored {
		if u := r.Usage; u != nil {
			prompt = append(prompt, float64(u.PromptTokens))
			completion = append(completion, float64(u.CompletionTokens))
			calls = append(calls, float64(u.Calls))
			retries = append(retries, float64(u.Retries))
			latency = append(latency, float64(u.LatencyMS))
		}
	}
	if len(calls) == 0 {
		return nil
	}
	return &UsageStats{Episodes: len(calls), PromptTokens: distribution(prompt), CompletionTokens: distribution(completion),
		Calls: distribution(calls), Retries: distribution(retries), LatencyMS: distribution(latency)}
}

// pair is two scored episodes of the same task compared.
type pair struct{ a, b *record.Line }

type pairKey struct {
	suite, hash, task, noise string
	seed                     uint64
}

func keyOf(r *record.Line, noise string) pairKey {
	return pairKey{r.Suite, r.Hash, r.Task, noise, r.Seed}
}

// comparePairs computes the headline metrics of the a side minus those of
// the b side over pairs, grouped by task, with intervals resampling tasks.
func (b *builder) comparePairs(label string, pairs []pair) (n, tasks int, success, reward, marks Interval) {
	byTaskIdx := map[string]int{}
	var names []string
	var as, bs [][]record.EpisodeMetrics // per task, each side's records, contiguous for bulk copies
	for _, p := range pairs {
		i, ok := byTaskIdx[p.a.Task]
		if !ok {
			i = len(names)
			byTaskIdx[p.a.Task] = i
			names = append(names, p.a.Task)
			as, bs = append(as, nil), append(bs, nil)
		}
		as[i], bs[i] = append(as[i], p.a.Metrics), append(bs[i], p.b.Metrics)
	}
	order := make([]int, len(names))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(x, y int) int { return cmp.Compare(names[x], names[y]) })
	sortedA, sortedB := make([][]record.EpisodeMetrics, len(order)), make([][]record.EpisodeMetrics, len(order))
	for i, j := range order {
		sortedA[i], sortedB[i] = as[j], bs[j]
	}
	var bufA, bufB []record.EpisodeMetrics
	diff := func(draw []int) []float64 {
		bufA, bufB = bufA[:0], bufB[:0]
		for _, t := range draw {
			bufA, bufB = append(bufA, sortedA[t]...), append(bufB, sortedB[t]...)
		}
		ha, hb := headline(b.aggregate(bufA)), headline(b.aggregate(bufB))
		return []float64{ha[0] - hb[0], ha[1] - hb[1], ha[2] - hb[2]}
	}
	all := make([]int, len(order))
	for i := range all {
		all[i] = i
	}
	ci := bootstrap(label, b.opts.Seed, b.opts.BootstrapSamples, len(order), diff(all), diff)
	return len(pairs), len(order), ci[0], ci[1], ci[2]
}

// allPairs compares every pair of models, in model order, dropping pairs
// with no episode in common. The pairs run in parallel (the bootstrap is
// most of a report's time and grows with the square of the models); each
// has its own generator and its own slot, so the result does not depend on
// scheduling.
func (b *builder) allPairs(models []*modelRecords) []PairedDifference {
	type job struct{ i, j int }
	var jobs []job
	for i := range models {
		for j := i + 1; j < len(models); j++ {
			jobs = append(jobs, job{i, j})
		}
	}
	results := make([]PairedDifference, len(jobs))
	found := make([]bool, len(jobs))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(len(jobs), runtime.GOMAXPROCS(0)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range next {
				results[k], found[k] = b.paired(models[jobs[k].i], models[jobs[k].j])
			}
		}()
	}
	for k := range jobs {
		next <- k
	}
	close(next)
	wg.Wait()
	out := []PairedDifference{}
	for k := range jobs {
		if found[k] {
			out = append(out, results[k])
		}
	}
	return out
}

// paired compares models a and b on the episodes both scored with the
// same suite, task, seed and noise half. Where a model has several records
// for one such key (several prompt versions), the first one counts.
func (b *builder) paired(ma, mb *modelRecords) (PairedDifference, bool) {
	other := map[pairKey]*record.Line{}
	for _, r := range mb.recs {
		if k := keyOf(r, r.Noise); r.Outcome == record.OutcomeScored && other[k] == nil {
			other[k] = r
		}
	}
	var pairs []pair
	used := map[pairKey]bool{}
	for _, r := range ma.recs {
		k := keyOf(r, r.Noise)
		if r.Outcome != record.OutcomeScored || used[k] || other[k] == nil {
			continue
		}
		used[k] = true
		pairs = append(pairs, pair{r, other[k]})
	}
	if len(pairs) == 0 {
		return PairedDifference{}, false
	}
	d := PairedDifference{A: ma.name, B: mb.name}
	d.Pairs, d.Tasks, d.SuccessRate, d.MeanReward, d.Marks = b.comparePairs("paired\x00"+ma.name+"\x00"+mb.name, pairs)
	return d, true
}

// noise compares a model's noise-on episodes with its noise-off episodes
// of the same suite, task and seed.
func (b *builder) noise(mr *modelRecords) *NoiseEffect {
	off := map[pairKey]*record.Line{}
	for _, r := range mr.recs {
		if k := keyOf(r, ""); r.Outcome == record.OutcomeScored && r.Noise == "off" && off[k] == nil {
			off[k] = r
		}
	}
	var pairs []pair
	used := map[pairKey]bool{}
	for _, r := range mr.recs {
		k := keyOf(r, "")
		if r.Outcome != record.OutcomeScored || r.Noise != "on" || used[k] || off[k] == nil {
			continue
		}
		used[k] = true
		pairs = append(pairs, pair{r, off[k]})
	}
	if len(pairs) == 0 {
		return nil
	}
	n := &NoiseEffect{}
	n.Pairs, n.Tasks, n.SuccessRate, n.MeanReward, n.Marks = b.comparePairs("noise\x00"+mr.name, pairs)
	return n
}

// rank orders models by marks (competition ranking: equal marks share a
// rank), leaving unranked those with no scored episodes and, unless
// RankAnyway, those whose infra-error share exceeds MaxInfraShare. Models
// measured too thinly to compare (thinness) come after every well-measured
// one, however high their marks: one lucky human episode does not outrank
// an agent measured over 450.
func rank(models []Model, opts Options) []Standing {
	limit := percent(opts.MaxInfraShare)
	var ranked, unranked []int
	thin := map[int]string{}
	for i := range models {
		m := &models[i]
		over := m.InfraShare > opts.MaxInfraShare
		switch {
		case m.Episodes == 0:
			m.Note = "not ranked: no scored episodes"
			unranked = append(unranked, i)
		case over && !opts.RankAnyway:
			m.Note = fmt.Sprintf("not ranked: infra-error share %s > %s", percent(m.InfraShare), limit)
			unranked = append(unranked, i)
		case over:
			m.Note = fmt.Sprintf("ranked anyway: infra-error share %s > %s", percent(m.InfraShare), limit)
			ranked = append(ranked, i)
		default:
			ranked = append(ranked, i)
		}
	}
	// Thinness matters only beside a well-measured model: among models
	// all measured thinly, marks are all there is to go by.
	for _, i := range ranked {
		if why := thinness(&models[i], opts); why != "" {
			thin[i] = why
		}
	}
	if len(thin) < len(ranked) {
		for i, why := range thin {
			models[i].Note = strings.TrimPrefix(models[i].Note+"; ", "; ") + why
		}
	} else {
		clear(thin)
	}
	// Well-measured first, then by marks.
	byMarks := func(a, b int) int {
		_, ta := thin[a]
		_, tb := thin[b]
		return cmp.Or(cmp.Compare(b2i(ta), b2i(tb)), cmp.Compare(models[b].Overall.Get("marks"), models[a].Overall.Get("marks")))
	}
	slices.SortStableFunc(ranked, byMarks)
	slices.SortStableFunc(unranked, byMarks)
	var out []Standing
	for pos, i := range ranked {
		m := &models[i]
		m.Rank = pos + 1
		_, thinHere := thin[i]
		_, thinBefore := thin[ranked[max(pos-1, 0)]]
		if pos > 0 && thinHere == thinBefore && models[ranked[pos-1]].Overall.Get("marks") == m.Overall.Get("marks") {
			m.Rank = models[ranked[pos-1]].Rank
		}
	}
	for _, i := range append(ranked, unranked...) {
		m := &models[i]
		out = append(out, Standing{Rank: m.Rank, Name: m.Name, Marks: round6(m.Overall.Get("marks")), Low: m.CI.Marks.Low, High: m.CI.Marks.High, Note: m.Note})
	}
	return out
}

// percent formats a share as a percentage with at most one decimal.
func percent(share float64) string {
	return strconv.FormatFloat(math.Round(share*1000)/10, 'f', -1, 64) + "%"
}

// thinness says why a model is measured too thinly to rank among the
// others (Options.MinRankTasks, MaxRankWidth), or "" when it is not.
func thinness(m *Model, opts Options) string {
	tasks := 0
	for _, g := range m.ByTask {
		if g.Episodes > 0 {
			tasks++
		}
	}
	if tasks < opts.MinRankTasks {
		return fmt.Sprintf("ranked after the well-measured: %s on %s, too few to measure (at least %d tasks)", plural(m.Episodes, "episode"), plural(tasks, "task"), opts.MinRankTasks)
	}
	if w := m.CI.Marks.High - m.CI.Marks.Low; w > opts.MaxRankWidth {
		return fmt.Sprintf("ranked after the well-measured: its marks interval [%.1f, %.1f] is wider than %g marks", m.CI.Marks.Low, m.CI.Marks.High, opts.MaxRankWidth)
	}
	return ""
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
