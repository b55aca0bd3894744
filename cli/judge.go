package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/pflag"

	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/eval"
	"github.com/srezc/srezc/facts"
	"github.com/srezc/srezc/lang"
	"github.com/srezc/srezc/llm"
	"github.com/srezc/srezc/record"
)

// judgeOptions are the flags of the optional model judge (srezc eval and
// srezc regrade --judge): where the judge model is, and its own
// provider-safe policy, since it is often another provider than the
// agents'.
type judgeOptions struct {
	enabled        bool
	baseURL, model string
	keyEnv         string
	maxTokens      int
	policy         llm.Policy
}

// Environment variables the judge reads when its flags are not given.
const (
	judgeBaseURLEnv = "SREZC_JUDGE_BASE_URL"
	judgeModelEnv   = "SREZC_JUDGE_MODEL"
	judgeKeyEnv     = "SREZC_JUDGE_API_KEY"
)

func (o *judgeOptions) flags(f *pflag.FlagSet) {
	d := llm.DefaultPolicy()
	f.BoolVar(&o.enabled, "judge", false, "also grade each resolved episode's diagnosis with a model judge; its verdicts sit beside the score and never change it")
	f.StringVar(&o.baseURL, "judge-base-url", "", "the judge's OpenAI-compatible API root (default $"+judgeBaseURLEnv+", then $OPENAI_BASE_URL)")
	f.StringVar(&o.model, "judge-model", "", "the judge's model (default $"+judgeModelEnv+")")
	f.StringVar(&o.keyEnv, "judge-api-key-env", "", "environment variable holding the judge's API key (default "+judgeKeyEnv+" when set, else OPENAI_API_KEY)")
	f.IntVar(&o.maxTokens, "judge-max-tokens", 512, "most tokens per verdict")
	f.IntVar(&o.policy.MaxRetries, "judge-retries", d.MaxRetries, "retries of a judge call that failed transiently")
	f.DurationVar(&o.policy.MinInterval, "judge-min-interval", d.MinInterval, "least time between the end of one judge call and the start of the next")
	f.IntVar(&o.policy.RateCalls, "judge-rate-calls", d.RateCalls, "judge calls allowed per --judge-rate-window, paced evenly (0: no limit)")
	f.DurationVar(&o.policy.RateWindow, "judge-rate-window", d.RateWindow, "the window of --judge-rate-calls")
	f.IntVar(&o.policy.PauseAfter, "judge-pause-after", d.PauseAfter, "consecutive failed judge calls after which the judge's provider rests --judge-pause (0: never)")
	f.DurationVar(&o.policy.Pause, "judge-pause", d.Pause, "how long the judge's provider rests after --judge-pause-after failures")
	f.DurationVar(&o.policy.Timeout, "judge-timeout", d.Timeout, "time limit of one judge call")
	f.IntVar(&o.policy.Concurrency, "judge-concurrency", d.Concurrency, "judge calls in flight at once")
	f.DurationVar(&o.policy.BackoffBase, "judge-backoff", d.BackoffBase, "first retry's backoff, doubled each retry and jittered")
	f.DurationVar(&o.policy.BackoffMax, "judge-backoff-max", d.BackoffMax, "longest backoff")
}

// config resolves the flags against the environment.
func (o *judgeOptions) config() llm.Config {
	c := llm.Config{BaseURL: o.baseURL, Model: o.model, MaxTokens: o.maxTokens, KeyVar: o.keyEnv}
	if c.BaseURL == "" {
		c.BaseURL = os.Getenv(judgeBaseURLEnv)
	}
	if c.BaseURL == "" {
		c.BaseURL = os.Getenv("OPENAI_BASE_URL")
	}
	if c.Model == "" {
		c.Model = os.Getenv(judgeModelEnv)
	}
	if c.KeyVar == "" {
		c.KeyVar = "OPENAI_API_KEY"
		if os.Getenv(judgeKeyEnv) != "" {
			c.KeyVar = judgeKeyEnv
		}
	}
	c.APIKey = os.Getenv(c.KeyVar)
	return c
}

// check reports judge flags that cannot work, as a usage error; nil when
// --judge is off.
func (o *judgeOptions) check() error {
	if !o.enabled {
		return nil
	}
	c := o.config()
	switch {
	case c.BaseURL == "":
		return usageError{fmt.Errorf("--judge: no endpoint: set --judge-base-url, %s or OPENAI_BASE_URL", judgeBaseURLEnv)}
	case c.Model == "":
		return usageError{fmt.Errorf("--judge: no model: set --judge-model or %s", judgeModelEnv)}
	}
	if err := c.Check(); err != nil {
		return usageError{fmt.Errorf("--judge: %v", err)}
	}
	if err := o.policy.Check(); err != nil {
		return usageError{fmt.Errorf("--judge: %v", err)}
	}
	return nil
}

// judge builds the judge; provider pauses are reported on stderr.
func (o *judgeOptions) judge(stderr io.Writer) (eval.Judge, error) {
	cfg := o.config()
	p, err := llm.NewProvider(cfg, o.policy, &http.Client{})
	if err != nil {
		return nil, usageError{fmt.Errorf("--judge: %v", err)}
	}
	p.OnEvent(func(ev llm.Event) {
		if ev.Kind == llm.EventPause {
			fmt.Fprintf(stderr, "srezc: judge provider %s paused for %s: %v\n", cfg.BaseURL, ev.Delay.Round(time.Millisecond), ev.Err)
		}
	})
	return llmJudge{llm.NewJudge(p)}, nil
}

// llmJudge puts llm's judge behind eval's interface (eval does not import
// llm).
type llmJudge struct{ j *llm.Judge }

func (l llmJudge) Model() string  { return l.j.Model() }
func (l llmJudge) Prompt() string { return l.j.Prompt() }

func (l llmJudge) Judge(ctx context.Context, caseJSON []byte) (bool, string, error) {
	v, err := l.j.Judge(ctx, caseJSON)
	if err != nil {
		var je *llm.JudgeError
		if errors.As(err, &je) && je.Abort {
			return false, "", fmt.Errorf("%w: %v", eval.ErrJudgeAbort, err)
		}
		return false, "", err
	}
	return v.DiagnosisCorrect, v.Reason, nil
}

// printJudgeStats says what a judging pass did, on one line.
func (e *env) printJudgeStats(model string, st eval.JudgeStats) {
	fmt.Fprintf(e.stdout, "judge %s (prompt %s): %d resolved episodes, %d verdicts from the cache, %d cases asked, %d without a verdict; agrees with the grader on %d, disagrees on %d\n",
		model, llm.JudgePromptVersion, st.Resolved, st.Cached, st.Asked, st.Infra, st.Agree, st.Disagree)
}

// judgeStopped explains a judging pass that stopped early.
func judgeStopped(err error) error {
	return fmt.Errorf("%v; the verdicts got so far are kept in the records and the cache: run again with --judge to finish", err)
}

// judgeSweep judges a complete sweep's records in dir, when --judge is on.
func (e *env) judgeSweep(ctx context.Context, dir string, m *lang.Module, tasks []*engine.Task, jo *judgeOptions) error {
	if !jo.enabled {
		return nil
	}
	j, err := jo.judge(e.stderr)
	if err != nil {
		return err
	}
	cache, err := eval.OpenJudgeCache(filepath.Join(dir, eval.JudgeCacheFile))
	if err != nil {
		return err
	}
	st, err := eval.JudgeRecordsFile(ctx, filepath.Join(dir, "records.jsonl"), facts.JudgeTruths(m, tasks), j, cache, jo.policy.Concurrency)
	e.printJudgeStats(j.Model(), st)
	if err != nil {
		return judgeStopped(err)
	}
	return nil
}

// judgeRegraded judges re-graded records (recs[k] is line at[k]+1 of
// file), with the cache in dir, and prints every disagreement with the
// grader.
func (e *env) judgeRegraded(ctx context.Context, dir, file string, recs []record.Line, at []int, m *lang.Module, tasks []*engine.Task, jo *judgeOptions) error {
	if ctx == nil {
		ctx = context.Background()
	}
	j, err := jo.judge(e.stderr)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	cache, err := eval.OpenJudgeCache(filepath.Join(dir, eval.JudgeCacheFile))
	if err != nil {
		return err
	}
	st, jerr := eval.JudgeRecords(ctx, recs, facts.JudgeTruths(m, tasks), j, cache, jo.policy.Concurrency)
	for k := range recs {
		r := &recs[k]
		if r.Judge == nil || r.Judge.DiagnosisCorrect == nil || *r.Judge.DiagnosisCorrect == r.Metrics.Diagnosed {
			continue
		}
		fmt.Fprintf(e.stdout, "%s:%d: %s %s seed %d: judge says %s, grader says %s: %s\n", file, at[k]+1, r.Task, agentLabel(r), r.Seed,
			verdictWord(*r.Judge.DiagnosisCorrect), verdictWord(r.Metrics.Diagnosed), r.Judge.Reason)
	}
	e.printJudgeStats(j.Model(), st)
	if jerr != nil {
		return judgeStopped(jerr)
	}
	return nil
}

func verdictWord(correct bool) string {
	if correct {
		return "diagnosed"
	}
	return "not diagnosed"
}
