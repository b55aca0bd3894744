package report

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/srezc/srezc/record"
)

// JudgeAgreement compares the model judge's verdicts (srezc eval --judge)
// with the deterministic diagnosis verdict (metrics.diagnosed) over the
// scored episodes that carry a verdict. The deterministic verdict stays
// the score; this only says how far a model grading the same answers
// agrees with it.
type JudgeAgreement struct {
	// Prompts and Models are the judge prompt versions and judge models
	// seen, sorted.
	Prompts []string `json:"judge_prompts"`
	Models  []string `json:"judge_models"`
	// Overall pools every model's episodes; ByModel has one row per
	// agent model that has verdicts, in the report's model order.
	Overall JudgeConfusion   `json:"overall"`
	ByModel []JudgeConfusion `json:"by_model"`
	// Disagreements lists every episode where the two verdicts differ,
	// in the records' order.
	Disagreements []JudgeDisagreement `json:"disagreements"`
}

// JudgeConfusion is the 2×2 table of judge against grader, Cohen's kappa
// and its bootstrap interval (resampling tasks). Kappa is absent (null)
// when it is undefined: every verdict of both raters in one class, so
// chance agreement is 1. UndefinedDraws counts the bootstrap resamples
// where it was undefined; the interval is taken over the others.
type JudgeConfusion struct {
	Name string `json:"name"`
	// Judged counts the scored episodes with a verdict; NoVerdict those
	// the judge was asked about but gave no verdict (infra errors).
	Judged    int `json:"judged"`
	NoVerdict int `json:"no_verdict"`
	Tasks     int `json:"tasks"`
	// BothCorrect: judge and grader say diagnosed; JudgeOnly: the judge
	// says diagnosed, the grader not; GraderOnly: the other way round;
	// NeitherCorrect: both say not diagnosed.
	BothCorrect    int       `json:"both_correct"`
	JudgeOnly      int       `json:"judge_only"`
	GraderOnly     int       `json:"grader_only"`
	NeitherCorrect int       `json:"neither_correct"`
	Agreement      float64   `json:"observed_agreement"`
	Kappa          *Interval `json:"kappa"`
	UndefinedDraws int       `json:"undefined_draws,omitempty"`
}

// JudgeDisagreement is one episode the judge and the grader disagree on.
type JudgeDisagreement struct {
	Model     string `json:"model"`
	Task      string `json:"task"`
	Seed      uint64 `json:"seed"`
	Noise     string `json:"noise,omitempty"`
	Grader    bool   `json:"grader_diagnosed"`
	Judge     bool   `json:"judge_diagnosed"`
	RootCause string `json:"root_cause"`
	Fix       string `json:"fix"`
	Reason    string `json:"judge_reason"`
}

// cell indices of a verdict pair: judge × grader.
const (
	cellBoth = iota
	cellJudgeOnly
	cellGraderOnly
	cellNeither
)

func judgeCell(judge, grader bool) int {
	switch {
	case judge && grader:
		return cellBoth
	case judge:
		return cellJudgeOnly
	case grader:
		return cellGraderOnly
	}
	return cellNeither
}

// cohenKappa is (po − pe) / (1 − pe) over the 2×2 counts; ok is false
// when pe is 1 (or there are no pairs), where kappa is undefined.
func cohenKappa(c [4]int) (kappa float64, ok bool) {
	n := float64(c[0] + c[1] + c[2] + c[3])
	if n == 0 {
		return 0, false
	}
	po := float64(c[cellBoth]+c[cellNeither]) / n
	judgeYes := float64(c[cellBoth]+c[cellJudgeOnly]) / n
	graderYes := float64(c[cellBoth]+c[cellGraderOnly]) / n
	// Explicit float64() roundings keep arm64 from fusing, as elsewhere.
	pe := float64(judgeYes*graderYes) + float64((1-judgeYes)*(1-graderYes))
	if pe >= 1 {
		return 0, false
	}
	return (po - pe) / (1 - pe), true
}

// judgeAgreement is nil when no scored record carries a judge verdict
// or an attempt at one.
func (b *builder) judgeAgreement(models []*modelRecords) *JudgeAgreement {
	var all []*record.Line
	for _, mr := range models {
		for _, r := range mr.recs {
			if r.Outcome == record.OutcomeScored && r.Judge != nil {
				all = append(all, r)
			}
		}
	}
	if len(all) == 0 {
		return nil
	}
	a := &JudgeAgreement{Prompts: []string{}, Models: []string{}, ByModel: []JudgeConfusion{}, Disagreements: []JudgeDisagreement{}}
	for _, r := range all {
		if !slices.Contains(a.Prompts, r.Judge.Prompt) {
			a.Prompts = append(a.Prompts, r.Judge.Prompt)
		}
		if !slices.Contains(a.Models, r.Judge.Model) {
			a.Models = append(a.Models, r.Judge.Model)
		}
	}
	slices.Sort(a.Prompts)
	slices.Sort(a.Models)
	a.Overall = b.confusion("all models", all)
	for _, mr := range models {
		var mine []*record.Line
		for _, r := range mr.recs {
			if r.Outcome == record.OutcomeScored && r.Judge != nil {
				mine = append(mine, r)
			}
		}
		if len(mine) == 0 {
			continue
		}
		a.ByModel = append(a.ByModel, b.confusion(mr.name, mine))
		for _, r := range mine {
			j := r.Judge
			if j.DiagnosisCorrect == nil || *j.DiagnosisCorrect == r.Metrics.Diagnosed {
				continue
			}
			d := JudgeDisagreement{Model: mr.name, Task: r.Task, Seed: r.Seed, Noise: r.Noise,
				Grader: r.Metrics.Diagnosed, Judge: *j.DiagnosisCorrect, Reason: j.Reason}
			if b.opts.Resolution != nil {
				d.RootCause, d.Fix = b.opts.Resolution(r)
			}
			a.Disagreements = append(a.Disagreements, d)
		}
	}
	return a
}

// confusion tabulates recs (scored, each with a Judge) and bootstraps
// kappa over their tasks with the report's seed and a stream of its own.
func (b *builder) confusion(name string, recs []*record.Line) JudgeConfusion {
	c := JudgeConfusion{Name: name}
	var judged []*record.Line
	for _, r := range recs {
		if r.Judge.DiagnosisCorrect == nil {
			c.NoVerdict++
			continue
		}
		judged = append(judged, r)
	}
	c.Judged = len(judged)
	tasks := byTask(judged)
	c.Tasks = len(tasks)
	perTask := make([][4]int, len(tasks))
	var total [4]int
	for i, rs := range tasks {
		for _, r := range rs {
			k := judgeCell(*r.Judge.DiagnosisCorrect, r.Metrics.Diagnosed)
			perTask[i][k]++
			total[k]++
		}
	}
	c.BothCorrect, c.JudgeOnly, c.GraderOnly, c.NeitherCorrect = total[cellBoth], total[cellJudgeOnly], total[cellGraderOnly], total[cellNeither]
	if c.Judged > 0 {
		c.Agreement = round6(float64(total[cellBoth]+total[cellNeither]) / float64(c.Judged))
	}
	kappa, ok := cohenKappa(total)
	if !ok {
		return c
	}
	iv := &Interval{Value: round6(kappa), Low: round6(kappa), High: round6(kappa)}
	c.Kappa = iv
	samples := b.opts.BootstrapSamples
	if samples < 1 || len(tasks) == 0 {
		return c
	}
	h := fnv.New64a()
	h.Write([]byte("judge-kappa\x00" + name))
	rng := rand.New(rand.NewPCG(b.opts.Seed, h.Sum64()))
	values := make([]float64, 0, samples)
	for range samples {
		var draw [4]int
		for range tasks {
			t := perTask[rng.IntN(len(tasks))]
			for k := range draw {
				draw[k] += t[k]
			}
		}
		if v, ok := cohenKappa(draw); ok {
			values = append(values, v)
		} else {
			c.UndefinedDraws++
		}
	}
	if len(values) > 0 {
		slices.Sort(values)
		alpha := (1 - Confidence) / 2
		iv.Low, iv.High = round6(quantile(values, alpha)), round6(quantile(values, 1-alpha))
	}
	return c
}

// judgeSections are the report's tables of the judge: agreement, and
// every disagreement. None when no record carries a verdict.
func judgeSections(s *Summary) []section {
	a := s.Judge
	if a == nil {
		return nil
	}
	agree := section{id: "judge", title: "Model judge agreement",
		intro: fmt.Sprintf("The model judge (%s, prompt %s) graded each resolved episode's diagnosis against the ground truth; the deterministic grader's verdict (metrics.diagnosed) stays the score. Counts are judge × grader; Cohen's kappa with a 95%% interval resampling tasks; no verdict: the judge could not be asked or did not answer usably.",
			strings.Join(a.Models, ", "), strings.Join(a.Prompts, ", ")),
		header: []string{"model", "judged", "no verdict", "both correct", "judge only", "grader only", "neither", "agreement", "kappa"}}
	for _, c := range append([]JudgeConfusion{a.Overall}, a.ByModel...) {
		kappa := "undefined"
		if c.Kappa != nil {
			kappa = withCI(*c.Kappa, f3)
		}
		agree.rows = append(agree.rows, []string{c.Name, fmt.Sprint(c.Judged), fmt.Sprint(c.NoVerdict), fmt.Sprint(c.BothCorrect), fmt.Sprint(c.JudgeOnly),
			fmt.Sprint(c.GraderOnly), fmt.Sprint(c.NeitherCorrect), f3(c.Agreement), kappa})
	}
	list := section{id: "judge-disagreements", title: "Judge disagreements",
		intro:  "Every scored episode where the judge and the grader disagree on the diagnosis.",
		header: []string{"model", "task", "seed", "noise", "grader", "judge", "root cause", "fix", "judge's reason"},
		empty:  "None: the judge agrees with the grader on every episode it judged.", long: len(a.Disagreements) > 10}
	for _, d := range a.Disagreements {
		list.rows = append(list.rows, []string{d.Model, d.Task, fmt.Sprint(d.Seed), d.Noise, verdictWord(d.Grader), verdictWord(d.Judge), d.RootCause, d.Fix, d.Reason})
	}
	return []section{agree, list}
}

func verdictWord(diagnosed bool) string {
	if diagnosed {
		return "diagnosed"
	}
	return "not diagnosed"
}
