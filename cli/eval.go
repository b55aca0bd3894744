package cli

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/srezc/srezc/agents"
	"github.com/srezc/srezc/compiler"
	"github.com/srezc/srezc/eval"
	"github.com/srezc/srezc/lang"
	"github.com/srezc/srezc/llm"
	"github.com/srezc/srezc/report"
	"github.com/srezc/srezc/runtime"
)

// Version is srezc's version, recorded with every result.
const Version = "0.1.0-dev"

// llmOptions are the flags of LLM agents: where the model is, how to ask
// it, and the provider-safe policy.
type llmOptions struct {
	models          []string
	baseURL, keyEnv string
	temperature     float64
	maxTokens       int
	policy          llm.Policy
}

func (o *llmOptions) flags(f *pflag.FlagSet) {
	d := llm.DefaultPolicy()
	f.StringSliceVar(&o.models, "model", nil, "model(s) for the LLM agents, comma-separated or repeated (default $OPENAI_MODEL)")
	f.StringVar(&o.baseURL, "base-url", "", "OpenAI-compatible API root, e.g. https://api.openai.com/v1 (default $OPENAI_BASE_URL)")
	f.StringVar(&o.keyEnv, "api-key-env", "OPENAI_API_KEY", "environment variable holding the API key")
	f.Float64Var(&o.temperature, "temperature", 0, "sampling temperature")
	f.IntVar(&o.maxTokens, "max-tokens", 1536, "most tokens per answer")
	f.IntVar(&o.policy.MaxRetries, "retries", d.MaxRetries, "retries of a call that failed transiently (429, 5xx, timeout, dropped connection, bad payload)")
	f.DurationVar(&o.policy.MinInterval, "min-interval", d.MinInterval, "least time between the end of one call and the start of the next, per provider")
	f.IntVar(&o.policy.RateCalls, "rate-calls", d.RateCalls, "calls allowed per --rate-window per provider, paced evenly (0: no limit)")
	f.DurationVar(&o.policy.RateWindow, "rate-window", d.RateWindow, "the window of --rate-calls")
	f.IntVar(&o.policy.PauseAfter, "pause-after", d.PauseAfter, "consecutive failed calls after which every call to the provider waits --pause (0: never)")
	f.DurationVar(&o.policy.Pause, "pause", d.Pause, "how long the provider rests after --pause-after failures")
	f.DurationVar(&o.policy.Timeout, "timeout", d.Timeout, "time limit of one call")
	f.IntVar(&o.policy.Concurrency, "concurrency", d.Concurrency, "calls in flight at once per provider")
	f.DurationVar(&o.policy.BackoffBase, "backoff", d.BackoffBase, "first retry's backoff, doubled each retry and jittered; a longer Retry-After wins")
	f.DurationVar(&o.policy.BackoffMax, "backoff-max", d.BackoffMax, "longest backoff")
}

// config resolves the flags against the environment.
func (o *llmOptions) config(model string) llm.Config {
	c := llm.FromEnv(os.Getenv)
	c.KeyVar = o.keyEnv
	c.APIKey = os.Getenv(o.keyEnv)
	if o.baseURL != "" {
		c.BaseURL = o.baseURL
	}
	c.Model = model
	c.Temperature = o.temperature
	c.MaxTokens = o.maxTokens
	return c
}

func (o *llmOptions) modelList() []string {
	if len(o.models) > 0 {
		return o.models
	}
	if m := os.Getenv("OPENAI_MODEL"); m != "" {
		return []string{m}
	}
	return []string{""}
}

// evalAgentNames are the agents srezc eval can run: the built-in ones
// (replay plays one fixed script, so it is not among them) and the LLM
// styles.
var evalAgentNames = append([]string{"scripted", "greedy", "random", "sre_zero_random"}, llm.Styles...)

func (e *env) evalCmd() *cobra.Command {
	var (
		out, agentList, pauseFile, noise string
		seeds, workers, abortAfterInfra  int
		seed                             uint64
		exportHeldOut, resume, overwrite bool
		lo                               llmOptions
		ro                               reportOptions
		jo                               judgeOptions
	)
	c := &cobra.Command{
		Use:   "eval [--out DIR] [--agents LIST] [--seeds N] [--seed S] [PATH...]",
		Short: "The main job: run the suite with the agents and write records and a report",
		Long: `Run every incident of the suite (the embedded one with no PATH) with each
agent over N seeds, and write to DIR (default srezc-out):

  run.json       what the sweep is: suite hash, versions, tasks, agents,
                 models, prompt version, seeds, noise, sampling, settings
  records.jsonl  one line per episode: task id and hash, suite hash, srezc,
                 renderer, rubric and IR versions, profile, agent, model, prompt
                 version, seed, outcome, reward components, metrics,
                 terminal reason, failure mode, usage, trajectory
  summary.json   the report (srezc report): per agent and model, every
                 metric overall and per difficulty, split, task, tag and
                 family, bootstrap intervals over tasks, pass^k, ranking,
                 infra errors, failure modes, paired differences
  summary.md     the same as tables
  report.html    one self-contained page with the tables and plots/*.svg

Agents: scripted, greedy, random (built in), and the LLM agents prompting
(one text action per answer), react (Thought, then Action) and tools
(native tool calling), over any OpenAI-compatible endpoint: --base-url or
OPENAI_BASE_URL, the key in OPENAI_API_KEY (or --api-key-env), --model or
OPENAI_MODEL (several models: one agent each).

Each episode is appended to records.jsonl as it ends (an LLM agent's
synced to disk first). --resume continues a sweep after a crash, kill -9,
Ctrl-C or --pause-file, playing only what is missing; infrastructure
errors are retried. The first Ctrl-C lets running episodes finish, the
second stops them. An error no retry can fix (401, 403, 404, an unknown
model) aborts at once.

For the built-in agents, output is byte-identical across runs and
GOMAXPROCS; an LLM agent's records differ only in usage.latency_ms.

--judge also has a model judge grade each resolved episode's diagnosis
against the ground truth (--judge-model, --judge-base-url; README "Model
judge"); its verdicts, cached in judge-cache.jsonl, sit beside the score
in the records and the report, and never change it.`,
		RunE: func(c *cobra.Command, args []string) error {
			if seeds < 1 {
				return usageError{fmt.Errorf("--seeds must be at least 1")}
			}
			if workers < 0 {
				return usageError{fmt.Errorf("--workers must be 0 (GOMAXPROCS) or more")}
			}
			if abortAfterInfra < 0 {
				return usageError{fmt.Errorf("--abort-after-infra must be 0 (never) or more")}
			}
			switch noise {
			case "authored":
				noise = eval.NoiseAsAuthored
			case "both":
				noise = eval.NoiseBoth
			default:
				return usageError{fmt.Errorf("--noise takes authored or both, not %q", noise)}
			}
			ropts, err := ro.check("bootstrap-seed")
			if err != nil {
				return err
			}
			names := strings.Split(agentList, ",")
			usesLLM := false
			for _, n := range names {
				if !slices.Contains(evalAgentNames, n) {
					return usageError{fmt.Errorf("--agents takes a comma-separated list of %s, not %q", strings.Join(evalAgentNames, ", "), n)}
				}
				usesLLM = usesLLM || slices.Contains(llm.Styles, n)
			}
			if usesLLM {
				if err := lo.policy.Check(); err != nil {
					return usageError{err}
				}
				for _, model := range lo.modelList() {
					if err := lo.config(model).Check(); err != nil {
						return usageError{err}
					}
				}
			}
			if err := jo.check(); err != nil {
				return err
			}
			m, tasks, err := e.loadModule(args, compiler.Options{})
			if err != nil {
				return err
			}
			if len(tasks) == 0 {
				return fmt.Errorf("no incidents to evaluate")
			}
			v := eval.VersionsFor(Version, tasks)
			var stats sweepStats
			contestants, err := e.contestants(names, m, &lo, &stats)
			if err != nil {
				return err
			}
			opt := eval.SweepOptions{Dir: out, Seeds: seeds, Seed: seed, Workers: workers, Noise: noise, Resume: resume,
				Overwrite: overwrite, PauseFile: pauseFile, ExportHeldOut: exportHeldOut, Versions: v, AbortAfterInfra: abortAfterInfra}
			if usesLLM {
				p := lo.policy
				opt.Sampling = map[string]any{"temperature": lo.temperature, "max_tokens": lo.maxTokens}
				opt.Settings = map[string]any{"base_url": lo.config("").BaseURL, "retries": p.MaxRetries, "min_interval": p.MinInterval.String(), "rate_calls": p.RateCalls,
					"rate_window": p.RateWindow.String(), "pause_after": p.PauseAfter, "pause": p.Pause.String(), "timeout": p.Timeout.String(),
					"concurrency": p.Concurrency, "backoff": p.BackoffBase.String(), "backoff_max": p.BackoffMax.String(), "workers": workers}
			}
			// The first SIGINT or SIGTERM lets running episodes finish;
			// the second cancels them.
			stop := make(chan struct{})
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			sigs := make(chan os.Signal, 2)
			signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
			defer signal.Stop(sigs)
			go func() {
				n := 0
				for range sigs {
					n++
					if n == 1 {
						fmt.Fprintln(e.stderr, "srezc: stopping after the running episodes (Ctrl-C again to stop now)")
						close(stop)
					} else {
						cancel()
						return
					}
				}
			}()
			opt.Stop = stop
			status := e.sweepStatus(&stats)
			opt.Progress = status.update
			res, err := eval.RunSweep(ctx, tasks, contestants, opt)
			status.end()
			if err != nil {
				return err
			}
			if !res.Complete {
				why := "stopped"
				if res.Paused {
					why = "paused (" + pauseFile + " exists)"
				}
				fmt.Fprintf(e.stdout, "%s: %d episodes played, %d kept from before; continue with --resume\n", why, res.Played, res.Resumed)
				return nil
			}
			judgeErr := e.judgeSweep(ctx, out, m, tasks, &jo)
			if err := e.summarise(out, ropts, res); err != nil {
				return err
			}
			return judgeErr
		},
	}
	f := c.Flags()
	f.StringVar(&out, "out", "srezc-out", "folder to write run.json, records.jsonl, summary.json and summary.md to")
	f.StringVar(&agentList, "agents", "scripted,greedy,random", "agents to run, comma-separated: "+strings.Join(evalAgentNames, ", "))
	f.IntVar(&seeds, "seeds", 5, "episodes (seeds) per incident and agent")
	f.Uint64Var(&seed, "seed", 1, "first seed; episode k uses seed+k")
	f.IntVar(&workers, "workers", 0, "episodes in flight at once (default GOMAXPROCS)")
	f.BoolVar(&exportHeldOut, "export-heldout", false, "keep the trajectories of held-out test tasks in records.jsonl (left out by default)")
	f.BoolVar(&resume, "resume", false, "continue the sweep recorded in --out: play only the episodes it lacks, retry its infrastructure errors")
	f.BoolVar(&overwrite, "overwrite", false, "replace a sweep in --out that holds LLM or human episodes (refused otherwise)")
	f.StringVar(&pauseFile, "pause-file", "", "stop cleanly before the next episode while this file exists")
	f.IntVar(&abortAfterInfra, "abort-after-infra", 10, "abort once this many episodes in a row end in infrastructure errors (0: never)")
	f.StringVar(&noise, "noise", "authored", "authored, or both: play every episode with the incident's noise and without it")
	lo.flags(f)
	ro.flags(f, "bootstrap-seed")
	jo.flags(f)
	return c
}

// sweepStats counts what the providers did, for the status line.
type sweepStats struct {
	retries     atomic.Int64
	pausedUntil atomic.Int64 // unix nanoseconds
}

// contestants builds the sweep's agents: one per built-in name, one per
// (LLM style, model). Models on the same endpoint share one provider, so
// its limits hold for the endpoint as a whole.
func (e *env) contestants(names []string, m *lang.Module, lo *llmOptions, stats *sweepStats) ([]eval.Contestant, error) {
	var out []eval.Contestant
	providers := map[string]*llm.Provider{}
	specs := eval.ToolSpecs(m)
	client := &http.Client{}
	for _, name := range names {
		if !slices.Contains(llm.Styles, name) {
			factory, err := e.agentFactory(name, "", m)
			if err != nil {
				return nil, err
			}
			out = append(out, eval.Contestant{Agent: name, New: func(t *runtime.Task, seed uint64) (agents.TurnAgent, error) {
				a, err := factory(t, seed)
				if err != nil {
					return nil, err
				}
				return agents.Turns(a), nil
			}})
			continue
		}
		for _, model := range lo.modelList() {
			cfg := lo.config(model)
			key := cfg.BaseURL
			base, ok := providers[key]
			if !ok {
				var err error
				base, err = llm.NewProvider(cfg, lo.policy, client)
				if err != nil {
					return nil, usageError{err}
				}
				base.OnEvent(func(ev llm.Event) {
					switch ev.Kind {
					case llm.EventRetry:
						stats.retries.Add(1)
					case llm.EventPause:
						stats.pausedUntil.Store(time.Now().Add(ev.Delay).UnixNano())
						fmt.Fprintf(e.stderr, "srezc: provider %s paused for %s: %v\n", cfg.BaseURL, ev.Delay.Round(time.Millisecond), ev.Err)
					}
				})
				providers[key] = base
			}
			p := base.WithConfig(cfg)
			style := name
			out = append(out, eval.Contestant{Agent: style, Model: model, Prompt: llm.PromptVersion, Durable: true,
				New: func(*runtime.Task, uint64) (agents.TurnAgent, error) { return llm.New(style, p, specs) }})
		}
	}
	return out, nil
}

// summarise writes the report from the sweep's records and prints a line
// per agent and model.
func (e *env) summarise(out string, opts report.Options, res eval.SweepResult) error {
	sum, err := writeReport(out, opts)
	if err != nil {
		return err
	}
	for _, m := range sum.Models {
		fmt.Fprintf(e.stdout, "%-9s success %.3f  reward %.3f  marks %.1f  (%d episodes", m.Name, m.Overall.Get("success_rate"), m.Overall.Get("mean_reward"), m.Overall.Get("marks"), m.Episodes)
		if m.InfraErrors > 0 {
			fmt.Fprintf(e.stdout, "; %d infrastructure errors, excluded", m.InfraErrors)
		}
		if m.Rank == 0 && m.Note != "" {
			fmt.Fprintf(e.stdout, "; %s", m.Note)
		}
		fmt.Fprintln(e.stdout, ")")
	}
	if res.Resumed > 0 {
		fmt.Fprintf(e.stdout, "resumed: %d episodes kept, %d played\n", res.Resumed, res.Played)
	}
	fmt.Fprintf(e.stdout, "wrote %s\n", filepath.Join(out, "{run.json,records.jsonl,summary.json,summary.md,report.html,plots/}"))
	return nil
}

// statusLine draws a sweep's progress on stderr when it is a terminal:
// episodes done, infrastructure errors, provider retries and pauses, and
// an estimate of the time left (from the wall clock, which only this
// display reads). Without a terminal, output files and piped runs stay
// clean.
type statusLine struct {
	mu      sync.Mutex
	out     *os.File
	stats   *sweepStats
	started time.Time
	drawn   bool
}

func (e *env) sweepStatus(stats *sweepStats) *statusLine {
	s := &statusLine{stats: stats, started: time.Now()}
	if f, ok := e.stderr.(*os.File); ok {
		if info, err := f.Stat(); err == nil && info.Mode()&os.ModeCharDevice != 0 {
			s.out = f
		}
	}
	return s
}

func (s *statusLine) update(p eval.Progress) {
	if s.out == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	const width = 24
	n := p.Done * width / max(1, p.Total)
	line := fmt.Sprintf("%s [%s%s] %d/%d", p.Contestant, strings.Repeat("#", n), strings.Repeat(".", width-n), p.Done, p.Total)
	if p.InfraErrors > 0 {
		line += fmt.Sprintf(" · %d infra errors", p.InfraErrors)
	}
	if r := s.stats.retries.Load(); r > 0 {
		line += fmt.Sprintf(" · %d retries", r)
	}
	if until := time.Unix(0, s.stats.pausedUntil.Load()); time.Until(until) > 0 {
		line += fmt.Sprintf(" · provider paused %s", time.Until(until).Round(time.Second))
	}
	if played := p.Done - p.Resumed; played > 0 && p.Done < p.Total {
		left := time.Duration(float64(time.Since(s.started)) / float64(played) * float64(p.Total-p.Done))
		line += " · ETA " + left.Round(time.Second).String()
	}
	fmt.Fprintf(s.out, "\r\033[K%s", line)
	s.drawn = true
}

func (s *statusLine) end() {
	if s.out != nil && s.drawn {
		fmt.Fprint(s.out, "\r\033[K")
	}
}
