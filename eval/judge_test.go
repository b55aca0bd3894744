package eval_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/srezc/srezc/compiler"
	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/eval"
	"github.com/srezc/srezc/facts"
	"github.com/srezc/srezc/lang"
	"github.com/srezc/srezc/record"
)

// countingJudge is an in-process judge: a diagnosis is correct when it
// names the first cause's service as written ("web_server"). fail, when
// set, is returned instead of a verdict.
type countingJudge struct {
	model string
	fail  error
	mu    sync.Mutex
	asked [][]byte
}

func (j *countingJudge) Model() string  { return j.model }
func (j *countingJudge) Prompt() string { return "test-prompt-1" }
func (j *countingJudge) calls() int {
	j.mu.Lock()
	defer j.mu.Unlock()
	return len(j.asked)
}

func (j *countingJudge) Judge(_ context.Context, caseJSON []byte) (bool, string, error) {
	j.mu.Lock()
	j.asked = append(j.asked, caseJSON)
	j.mu.Unlock()
	if j.fail != nil {
		return false, "", j.fail
	}
	var c eval.JudgeCase
	if err := json.Unmarshal(caseJSON, &c); err != nil {
		return false, "", err
	}
	svc := c.GroundTruth[0].Service
	return strings.Contains(c.Answer.RootCause, svc), "looked for " + svc, nil
}

// judgedSuite plays the embedded suite with the expert and random agents
// and returns the module's ground truths and the records.
func judgedSuite(t *testing.T) (map[string]*eval.JudgeTruth, []record.Line) {
	t.Helper()
	m, diags := lang.Analyze(lang.ScenarioFiles())
	tasks, more := compiler.CompileModule(m)
	if diags = append(diags, more...); diags.HasErrors() {
		t.Fatal("the embedded suite does not compile")
	}
	tasks = tasks[:8]
	v := eval.VersionsFor("test", tasks)
	var recs []record.Line
	for _, a := range []struct {
		name string
		f    eval.AgentFactory
	}{{"scripted", scripted}, {"random", random}} {
		_, eps, err := eval.Run(tasks, eval.Options{Agent: a.name, NewAgent: a.f, Episodes: 3, Seed: 1, Trace: true})
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, eval.Records(a.name, engine.SuiteHash(tasks), v, tasks, eps)...)
	}
	return facts.JudgeTruths(m, tasks), recs
}

// withoutJudge is a record's JSON with its verdict dropped: what the
// judge must never change.
func withoutJudge(t *testing.T, recs []record.Line) []byte {
	var b bytes.Buffer
	for _, r := range recs {
		r.Judge = nil
		js, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(js)
	}
	return b.Bytes()
}

func TestJudgeTruths(t *testing.T) {
	truths, _ := judgedSuite(t)
	params := 0
	for id, tr := range truths {
		if len(tr.GroundTruth) == 0 || len(tr.Incident.Services) == 0 || tr.Incident.Alert == "" || tr.Hash == "" {
			t.Errorf("%s: incomplete truth %+v", id, tr)
		}
		for _, c := range tr.GroundTruth {
			if c.Service == "" || c.Fault == "" || c.Mechanism == "" || c.MechanismDescription == "" || c.FaultDescription == "" {
				t.Errorf("%s: incomplete cause %+v", id, c)
			}
			for _, p := range c.Parameters {
				if p.Name == "" || p.Value == "" {
					t.Errorf("%s: parameter %+v", id, p)
				}
				params++
			}
		}
	}
	if params == 0 {
		t.Error("no cause of the first incidents has a parameter")
	}
}

// Every resolved episode gets a verdict and nothing else does; the same
// case is asked once; the score is untouched; a second pass over the same
// cache asks nothing and gives the same verdicts; another model asks
// again.
func TestJudgeRecordsCaches(t *testing.T) {
	truths, recs := judgedSuite(t)
	scoreBefore := withoutJudge(t, recs)
	path := filepath.Join(t.TempDir(), eval.JudgeCacheFile)
	cache, err := eval.OpenJudgeCache(path)
	if err != nil {
		t.Fatal(err)
	}
	j := &countingJudge{model: "m1"}
	st, err := eval.JudgeRecords(context.Background(), recs, truths, j, cache, 3)
	if err != nil {
		t.Fatal(err)
	}
	resolved, distinct := 0, map[string]bool{}
	for _, r := range recs {
		_, isResolved := eval.ResolutionOf(&r)
		if isResolved != (r.Judge != nil) {
			t.Fatalf("%s %s seed %d (terminal %s): judge %+v", r.Agent, r.Task, r.Seed, r.Terminal, r.Judge)
		}
		if r.Judge == nil {
			continue
		}
		resolved++
		distinct[r.Judge.Key] = true
		if r.Judge.DiagnosisCorrect == nil || r.Judge.InfraError != "" || r.Judge.Prompt != "test-prompt-1" || r.Judge.Model != "m1" || len(r.Judge.Key) != 64 {
			t.Errorf("%s %s: verdict %+v", r.Agent, r.Task, r.Judge)
		}
	}
	if resolved < 8 || st.Resolved != resolved || st.Asked != len(distinct) || j.calls() != len(distinct) || st.Cached != 0 || st.Infra != 0 {
		t.Fatalf("stats %+v, %d resolved, %d distinct cases, %d calls", st, resolved, len(distinct), j.calls())
	}
	if len(distinct) >= resolved {
		t.Errorf("%d distinct cases for %d resolved episodes: the expert's repeated answers were not shared", len(distinct), resolved)
	}
	if st.Agree+st.Disagree != resolved {
		t.Errorf("stats %+v", st)
	}
	if !bytes.Equal(scoreBefore, withoutJudge(t, recs)) {
		t.Fatal("judging changed a record beyond its verdict")
	}
	first, _ := json.Marshal(recs)

	again, err := eval.OpenJudgeCache(path)
	if err != nil {
		t.Fatal(err)
	}
	if again.Len() != len(distinct) {
		t.Fatalf("cache holds %d verdicts, want %d", again.Len(), len(distinct))
	}
	j2 := &countingJudge{model: "m1"}
	st2, err := eval.JudgeRecords(context.Background(), recs, truths, j2, again, 3)
	if err != nil {
		t.Fatal(err)
	}
	second, _ := json.Marshal(recs)
	if j2.calls() != 0 || st2.Cached != resolved || st2.Asked != 0 || !bytes.Equal(first, second) {
		t.Fatalf("second pass: %d calls, stats %+v, same records %v", j2.calls(), st2, bytes.Equal(first, second))
	}

	j3 := &countingJudge{model: "m2"}
	if _, err := eval.JudgeRecords(context.Background(), recs, truths, j3, again, 3); err != nil {
		t.Fatal(err)
	}
	if j3.calls() != len(distinct) {
		t.Errorf("another model asked %d cases, want %d", j3.calls(), len(distinct))
	}
}

// A judge that fails leaves each resolved episode without a verdict, with
// the reason, caches nothing and changes no score; one that says to stop
// stops the pass.
func TestJudgeRecordsFailures(t *testing.T) {
	truths, recs := judgedSuite(t)
	scoreBefore := withoutJudge(t, recs)
	path := filepath.Join(t.TempDir(), eval.JudgeCacheFile)
	cache, _ := eval.OpenJudgeCache(path)
	st, err := eval.JudgeRecords(context.Background(), recs, truths, &countingJudge{model: "m", fail: errors.New("HTTP 500: down")}, cache, 2)
	if err != nil {
		t.Fatal(err)
	}
	if st.Infra != st.Resolved || st.Resolved == 0 || st.Agree+st.Disagree != 0 {
		t.Fatalf("stats %+v", st)
	}
	for _, r := range recs {
		if r.Judge != nil && (r.Judge.DiagnosisCorrect != nil || r.Judge.InfraError != "HTTP 500: down") {
			t.Fatalf("verdict %+v", r.Judge)
		}
	}
	if !bytes.Equal(scoreBefore, withoutJudge(t, recs)) {
		t.Fatal("a failing judge changed a score")
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a failure was cached (%v)", err)
	}

	cache, _ = eval.OpenJudgeCache(path)
	abort := &countingJudge{model: "m", fail: errors.Join(eval.ErrJudgeAbort, errors.New("HTTP 401"))}
	st, err = eval.JudgeRecords(context.Background(), recs, truths, abort, cache, 1)
	if !errors.Is(err, eval.ErrJudgeAbort) || abort.calls() != 1 || st.Infra != st.Resolved {
		t.Fatalf("abort: error %v, %d calls (want 1) of %d cases, stats %+v", err, abort.calls(), st.Asked, st)
	}
}

// JudgeRecordsFile rewrites only the lines whose verdict changed, and the
// file reads back.
func TestJudgeRecordsFile(t *testing.T) {
	truths, recs := judgedSuite(t)
	dir := t.TempDir()
	var b bytes.Buffer
	for _, r := range recs {
		js, _ := json.Marshal(r)
		b.Write(append(js, '\n'))
	}
	path := filepath.Join(dir, "records.jsonl")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	cache, _ := eval.OpenJudgeCache(filepath.Join(dir, eval.JudgeCacheFile))
	if _, err := eval.JudgeRecordsFile(context.Background(), path, truths, &countingJudge{model: "m"}, cache, 2); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	before, after := bytes.Split(b.Bytes(), []byte{'\n'}), bytes.Split(data, []byte{'\n'})
	if len(before) != len(after) {
		t.Fatalf("%d lines, want %d", len(after), len(before))
	}
	for i := range before {
		judged := bytes.Contains(after[i], []byte(`"judge":{`))
		if bytes.Equal(before[i], after[i]) == judged {
			t.Errorf("line %d: judged %v, changed %v", i+1, judged, !bytes.Equal(before[i], after[i]))
		}
	}
	back, err := record.Read(path)
	if err != nil || len(back) != len(recs) {
		t.Fatalf("read back: %d records, %v", len(back), err)
	}
}

func TestJudgeCacheFile(t *testing.T) {
	dir := t.TempDir()
	torn := filepath.Join(dir, "torn.jsonl")
	os.WriteFile(torn, []byte(`{"key":"a","judge_prompt":"p","model":"m","diagnosis_correct":true,"reason":"r"}`+"\n"+`{"key":"b","judge_pr`), 0o644)
	c, err := eval.OpenJudgeCache(torn)
	if err != nil || c.Len() != 1 {
		t.Fatalf("torn last line: %v, %d verdicts", err, c.Len())
	}
	bad := filepath.Join(dir, "bad.jsonl")
	os.WriteFile(bad, []byte("not json\n"+`{"key":"a","judge_prompt":"p","model":"m","diagnosis_correct":true,"reason":"r"}`+"\n"), 0o644)
	if _, err := eval.OpenJudgeCache(bad); err == nil || !strings.Contains(err.Error(), "bad.jsonl:1: not a cached verdict") {
		t.Fatalf("bad line: %v", err)
	}
}

func TestResolutionOf(t *testing.T) {
	r := record.Line{Outcome: record.OutcomeScored, Terminal: "resolved", Trajectory: []record.Move{{Action: "inspect_logs(db)"}, {Action: `resolve_incident("database: max_connections too low, so web_server failed", raised it)`}}}
	a, ok := eval.ResolutionOf(&r)
	if !ok || a.RootCause != "database: max_connections too low, so web_server failed" || a.Fix != "raised it" {
		t.Fatalf("%+v %v", a, ok)
	}
	r.Profile = record.ProfileSreZero
	r.Trajectory[1].Action = `resolve_incident(cache crashed, restart cache)`
	if a, ok := eval.ResolutionOf(&r); !ok || a.RootCause != "cache crashed" || a.Fix != "restart cache" {
		t.Fatalf("sre_zero: %+v %v", a, ok)
	}
	for _, term := range []string{"escalated", "step_budget_exhausted"} {
		r.Terminal = term
		if _, ok := eval.ResolutionOf(&r); ok {
			t.Errorf("%s counted as a resolution", term)
		}
	}
}
