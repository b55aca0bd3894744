package report_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/srezc/srezc/eval"
	"github.com/srezc/srezc/record"
	"github.com/srezc/srezc/report"
)

// resolution is what the CLI gives a report: the answer of a resolving
// episode, read with the action grammar.
func resolution(r *record.Line) (rootCause, fix string) {
	a, _ := eval.ResolutionOf(r)
	return a.RootCause, a.Fix
}

// judged is a scored episode whose grader says diagnosed = grader, with
// the judge's verdict judge (nil: the judge gave none).
func judged(agent, task string, seed uint64, grader bool, judge *bool) record.Line {
	r := episode(agent, task, seed, grader)
	r.Trajectory = []record.Move{{Step: 1, Action: fmt.Sprintf(`resolve_incident("cause of %s %d", "fix %d")`, task, seed, seed)}}
	r.Judge = &record.JudgeRecord{Prompt: "judge-1", Model: "judge-model", Key: "k", DiagnosisCorrect: judge, Reason: "reason " + task}
	if judge == nil {
		r.Judge.InfraError = "HTTP 500"
	}
	return r
}

func yes() *bool { b := true; return &b }
func no() *bool  { b := false; return &b }

// judgeSet builds records with the given judge × grader counts, spread
// over tasks t0, t1, … two episodes each.
func judgeSet(both, judgeOnly, graderOnly, neither int) []record.Line {
	var recs []record.Line
	add := func(n int, grader bool, judge *bool) {
		for range n {
			i := len(recs)
			recs = append(recs, judged("a", fmt.Sprintf("t%d", i/2), uint64(i%2+1), grader, judge))
		}
	}
	add(both, true, yes())
	add(judgeOnly, false, yes())
	add(graderOnly, true, no())
	add(neither, false, no())
	return recs
}

// Cohen's kappa on small fixed sets, computed by hand:
//
//	4 3 | 1 2 (both, neither | judge only, grader only), n = 10:
//	po = 7/10; judge yes 5/10, grader yes 6/10;
//	pe = .5·.6 + .5·.4 = .5; κ = (.7 − .5)/(1 − .5) = 0.4
//
//	2 3 | 3 0, n = 8: po = 5/8; judge yes 5/8, grader yes 2/8;
//	pe = .625·.25 + .375·.75 = .4375; κ = .1875/.5625 = 1/3
//
//	5 5 | 0 0: perfect agreement, κ = 1
//	0 0 | 3 3: po = 0; judge yes 1/2, grader yes 1/2; pe = .5; κ = −1
func TestJudgeKappaByHand(t *testing.T) {
	cases := []struct {
		both, judgeOnly, graderOnly, neither int
		agreement, kappa                     float64
	}{
		{4, 1, 2, 3, 0.7, 0.4},
		{2, 3, 0, 3, 0.625, 0.333333},
		{5, 0, 0, 5, 1, 1},
		{0, 3, 3, 0, 0, -1},
	}
	for _, c := range cases {
		s := build(t, judgeSet(c.both, c.judgeOnly, c.graderOnly, c.neither), report.Options{BootstrapSamples: 500})
		o := s.Judge.Overall
		if o.BothCorrect != c.both || o.JudgeOnly != c.judgeOnly || o.GraderOnly != c.graderOnly || o.NeitherCorrect != c.neither {
			t.Errorf("%+v: confusion %+v", c, o)
		}
		if o.Judged != c.both+c.judgeOnly+c.graderOnly+c.neither || !near(o.Agreement, c.agreement) {
			t.Errorf("%+v: judged %d, agreement %v", c, o.Judged, o.Agreement)
		}
		if o.Kappa == nil || !near(o.Kappa.Value, c.kappa) || o.Kappa.Low > o.Kappa.Value || o.Kappa.High < o.Kappa.Value {
			t.Errorf("%+v: kappa %+v, want %v inside its interval", c, o.Kappa, c.kappa)
		}
	}
}

func TestJudgeAgreementReport(t *testing.T) {
	recs := judgeSet(4, 1, 2, 3)
	// Not counted: a verdict the judge could not give (counted apart), an
	// episode never judged, and an infra error of the agent.
	recs = append(recs, judged("a", "t9", 1, true, nil), episode("a", "t9", 2, true))
	lost := judged("a", "t9", 3, true, yes())
	lost.Outcome, lost.InfraError = record.OutcomeInfraError, "agent's provider down"
	recs = append(recs, lost, judged("b", "t0", 1, false, no()))
	opts := report.Options{BootstrapSamples: 400, Seed: 3, Resolution: resolution}
	s := build(t, recs, opts)
	a := s.Judge
	if a == nil {
		t.Fatal("no judge agreement")
	}
	if !reflect.DeepEqual(a.Prompts, []string{"judge-1"}) || !reflect.DeepEqual(a.Models, []string{"judge-model"}) {
		t.Errorf("prompts %v, models %v", a.Prompts, a.Models)
	}
	if a.Overall.Judged != 11 || a.Overall.NoVerdict != 1 || a.Overall.NeitherCorrect != 4 {
		t.Errorf("overall %+v", a.Overall)
	}
	if len(a.ByModel) != 2 || a.ByModel[0].Name != "a" || a.ByModel[0].Judged != 10 || !near(a.ByModel[0].Kappa.Value, 0.4) || a.ByModel[0].Tasks != 5 {
		t.Errorf("by model %+v", a.ByModel)
	}
	if k := a.ByModel[0].Kappa; !(k.Low < k.High) {
		t.Errorf("kappa interval %+v does not vary over task resamples", k)
	}
	if len(a.Disagreements) != 3 {
		t.Fatalf("%d disagreements, want 3: %+v", len(a.Disagreements), a.Disagreements)
	}
	d := a.Disagreements[0]
	if d.Model != "a" || d.Task != "t2" || d.Seed != 1 || d.Grader || !d.Judge || d.RootCause != "cause of t2 1" || d.Fix != "fix 1" || d.Reason != "reason t2" {
		t.Errorf("first disagreement %+v", d)
	}
	// Without the action grammar the report still lists the disagreement,
	// without the answer.
	bare := opts
	bare.Resolution = nil
	if d := build(t, recs, bare).Judge.Disagreements[0]; d.Task != "t2" || d.RootCause != "" || d.Fix != "" {
		t.Errorf("first disagreement without Resolution %+v", d)
	}
	// The same records and options give the same report.
	again := build(t, recs, opts)
	if !reflect.DeepEqual(s.Judge, again.Judge) {
		t.Error("the judge agreement is not deterministic")
	}
	md := report.Markdown(s)
	for _, want := range []string{
		"## Model judge agreement",
		"| all models | 11 | 1 | 4 | 1 | 2 | 4 |",
		"| a | 10 | 1 | 4 | 1 | 2 | 3 | 0.700 | 0.400 [",
		"## Judge disagreements",
		"| a | t2 | 1 |   | not diagnosed | diagnosed | cause of t2 1 | fix 1 | reason t2 |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("summary.md lacks %q", want)
		}
	}
	page, err := report.HTML(s, nil)
	if err != nil || !strings.Contains(string(page), `id="judge-disagreements"`) || !strings.Contains(string(page), "cause of t2 1") {
		t.Errorf("report.html lacks the disagreements (%v)", err)
	}
}

// With no verdict in the records, the report is as it was: no judge key,
// no judge tables. With one class only, kappa is undefined: null, never
// NaN.
func TestJudgeAbsentAndUndefined(t *testing.T) {
	plain := build(t, []record.Line{episode("a", "t0", 1, true), episode("a", "t1", 1, false)}, report.Options{BootstrapSamples: 50})
	js, _ := json.Marshal(plain)
	if plain.Judge != nil || strings.Contains(string(js), `"judge"`) || strings.Contains(report.Markdown(plain), "judge") {
		t.Error("a report without verdicts mentions the judge")
	}
	one := build(t, judgeSet(4, 0, 0, 0), report.Options{BootstrapSamples: 50})
	js, err := json.Marshal(one)
	if err != nil || one.Judge.Overall.Kappa != nil || !strings.Contains(string(js), `"kappa":null`) {
		t.Errorf("kappa %+v, json error %v", one.Judge.Overall.Kappa, err)
	}
	if !strings.Contains(report.Markdown(one), "| 1.000 | undefined |") {
		t.Error("summary.md does not say kappa is undefined")
	}
}
