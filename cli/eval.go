package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/srezc/srezc/agents"
	"github.com/srezc/srezc/compiler"
	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/eval"
	"github.com/srezc/srezc/facts"
	"github.com/srezc/srezc/lang"
	"github.com/srezc/srezc/llm"
	"github.com/srezc/srezc/report"
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
	// provider names a preset ("" picks one from the base URL); set holds
	// the policy flags, which override the preset's fields when given.
	provider string
	set      llm.Policy
}

// policyFlags maps each policy flag to its field, for overriding a preset
// with the flags given.
var policyFlags = map[string]func(dst, src *llm.Policy){
	"retries":      func(d, s *llm.Policy) { d.MaxRetries = s.MaxRetries },
	"min-interval": func(d, s *llm.Policy) { d.MinInterval = s.MinInterval },
	"rate-calls":   func(d, s *llm.Policy) { d.RateCalls = s.RateCalls },
	"rate-window":  func(d, s *llm.Policy) { d.RateWindow = s.RateWindow },
	"pause-after":  func(d, s *llm.Policy) { d.PauseAfter = s.PauseAfter },
	"pause":        func(d, s *llm.Policy) { d.Pause = s.Pause },
	"timeout":      func(d, s *llm.Policy) { d.Timeout = s.Timeout },
	"concurrency":  func(d, s *llm.Policy) { d.Concurrency = s.Concurrency },
	"backoff":      func(d, s *llm.Policy) { d.BackoffBase = s.BackoffBase },
	"backoff-max":  func(d, s *llm.Policy) { d.BackoffMax = s.BackoffMax },
}

func (o *llmOptions) flags(f *pflag.FlagSet) {
	f.StringSliceVar(&o.models, "model", nil, "model(s) for the LLM agents, comma-separated or repeated (default $OPENAI_MODEL)")
	f.StringVar(&o.baseURL, "base-url", "", "OpenAI-compatible API root, e.g. https://api.openai.com/v1 (default $OPENAI_BASE_URL)")
	f.StringVar(&o.keyEnv, "api-key-env", "OPENAI_API_KEY", "environment variable holding the API key")
	f.Float64Var(&o.temperature, "temperature", 0, "sampling temperature")
	f.IntVar(&o.maxTokens, "max-tokens", 1536, "most tokens per answer")
	f.StringVar(&o.provider, "provider", "", "pacing preset: "+strings.Join(llm.PresetNames(), ", ")+" (default: from the base URL — local for loopback, private and plain-http servers, a named provider's for its host, hosted otherwise); the flags below override single fields")
	f.IntVar(&o.set.MaxRetries, "retries", 0, "retries of a call that failed transiently (429, 5xx, timeout, dropped connection, bad payload)")
	f.DurationVar(&o.set.MinInterval, "min-interval", 0, "least time between the end of one call and the start of the next, per provider")
	f.IntVar(&o.set.RateCalls, "rate-calls", 0, "calls allowed per --rate-window per provider, paced evenly (0: no limit)")
	f.DurationVar(&o.set.RateWindow, "rate-window", 0, "the window of --rate-calls")
	f.IntVar(&o.set.PauseAfter, "pause-after", 0, "consecutive failed calls after which every call to the provider waits --pause (0: never)")
	f.DurationVar(&o.set.Pause, "pause", 0, "how long the provider rests after --pause-after failures")
	f.DurationVar(&o.set.Timeout, "timeout", 0, "time limit of one call")
	f.IntVar(&o.set.Concurrency, "concurrency", 0, "calls in flight at once per provider")
	f.DurationVar(&o.set.BackoffBase, "backoff", 0, "first retry's backoff, doubled each retry and jittered; a longer Retry-After wins (capped at "+llm.MaxRetryAfter.String()+")")
	f.DurationVar(&o.set.BackoffMax, "backoff-max", 0, "longest backoff")
}

// policy is the preset for the endpoint (or --provider) with the policy
// flags given laid over it.
func (o *llmOptions) policy(f *pflag.FlagSet) (llm.Preset, error) {
	preset := llm.PresetFor(o.config("").BaseURL)
	if o.provider != "" {
		var err error
		if preset, err = llm.PresetNamed(o.provider); err != nil {
			return preset, err
		}
	}
	for name, set := range policyFlags {
		if f.Changed(name) {
			set(&preset.Policy, &o.set)
		}
	}
	return preset, preset.Policy.Check()
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
var evalAgentNames = slices.Concat([]string{"scripted", "greedy", "random", "sre_zero_random"}, agents.BlindAgentNames(), llm.Styles)

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

Agents: scripted, greedy, random, the blind-* adversaries (built in; see
srezc run --help), and the LLM agents prompting
(one text action per answer), react (Thought, then Action) and tools
(native tool calling), over any OpenAI-compatible endpoint: --base-url or
OPENAI_BASE_URL, the key in OPENAI_API_KEY (or --api-key-env), --model or
OPENAI_MODEL (several models: one agent each). The pacing follows the
endpoint: none for a local or self-hosted server, a named provider's
limits for its host (--provider picks a preset; the policy flags override
single values). Progress shows on stderr from the first request.

Each episode is appended to records.jsonl as it ends (an LLM agent's
synced to disk first). srezc eval --resume [--out DIR] continues a sweep
after a crash, kill -9, Ctrl-C or --pause-file, with the flags recorded in
run.json, playing only what is missing; infrastructure errors are retried.
Ctrl-C or SIGTERM stops at once (unfinished episodes are played again on
--resume). An error no retry can fix (401, 403, 404, an unknown model,
nothing listening at the base URL) aborts at once.

Exit codes: 0 complete, 1 error, 2 usage, 3 stopped or paused before the
end (--resume continues it).

For the built-in agents, output is byte-identical across runs and
GOMAXPROCS; an LLM agent's records differ only in usage.latency_ms.

--judge also has a model judge grade each resolved episode's diagnosis
against the ground truth (--judge-model, --judge-base-url; README "Model
judge"); its verdicts, cached in judge-cache.jsonl, sit beside the score
in the records and the report, and never change it.`,
		RunE: func(c *cobra.Command, args []string) error {
			if resume {
				// run.json says what the sweep is: flags not given take
				// their value from it; flags given must agree (RunSweep
				// refuses a difference, naming it).
				paths, err := resumeFlags(c.Flags(), out)
				if err != nil {
					return err
				}
				if len(args) == 0 {
					args = paths
				}
			}
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
			var preset llm.Preset
			if usesLLM {
				if preset, err = lo.policy(c.Flags()); err != nil {
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
			status := e.sweepStatus(usesLLM)
			contestants, err := e.contestants(names, m, &lo, preset.Policy, status)
			if err != nil {
				return err
			}
			opt := eval.SweepOptions{Dir: out, Seeds: seeds, Seed: seed, Workers: workers, Noise: noise, Resume: resume,
				Overwrite: overwrite, PauseFile: pauseFile, ExportHeldOut: exportHeldOut, Versions: v, AbortAfterInfra: abortAfterInfra}
			// What --resume needs beyond the rest of run.json: the PATHs and
			// the settings given (defaults are left out, so a default run's
			// run.json stays as it was).
			opt.Settings = map[string]any{}
			if len(args) > 0 {
				opt.Settings["paths"] = absPaths(args)
			}
			for name, key := range map[string]string{"workers": "workers", "abort-after-infra": "abort_after_infra"} {
				if c.Flags().Changed(name) {
					opt.Settings[key] = c.Flags().Lookup(name).Value.String()
				}
			}
			if usesLLM {
				p := preset.Policy
				opt.Sampling = map[string]any{"temperature": lo.temperature, "max_tokens": lo.maxTokens}
				maps.Copy(opt.Settings, map[string]any{"base_url": lo.config("").BaseURL, "provider": preset.Name, "retries": p.MaxRetries, "min_interval": p.MinInterval.String(), "rate_calls": p.RateCalls,
					"rate_window": p.RateWindow.String(), "pause_after": p.PauseAfter, "pause": p.Pause.String(), "timeout": p.Timeout.String(),
					"concurrency": p.Concurrency, "backoff": p.BackoffBase.String(), "backoff_max": p.BackoffMax.String()})
				status.notef("srezc: %s: provider preset %s (%d retries, %s, %s per call); --provider or the policy flags change it",
					lo.config("").BaseURL, preset.Name, p.MaxRetries, pacing(p), p.Timeout)
			}
			// The first SIGINT or SIGTERM stops the sweep now: calls in
			// flight and provider pauses are cancelled, episodes not yet
			// finished are dropped (--resume plays them), and every record
			// written is whole and synced. A second one exits at once.
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			sigs := make(chan os.Signal, 2)
			signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
			defer signal.Stop(sigs)
			finished := make(chan struct{})
			defer close(finished)
			go func() {
				select {
				case <-sigs:
				case <-finished:
					return
				}
				status.notef("srezc: interrupted: stopping now; finished episodes are kept, --resume plays the rest (again to quit at once)")
				cancel()
				select {
				case <-sigs:
					os.Exit(exitInterrupted)
				case <-finished:
				}
			}()
			opt.Progress = status.episode
			if len(opt.Settings) == 0 {
				opt.Settings = nil
			}
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
				fmt.Fprintf(e.stdout, "%s: %d episodes played, %d kept from before; continue with srezc eval --resume --out %s\n", why, res.Played, res.Resumed, out)
				return errIncomplete
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

// contestants builds the sweep's agents: one per built-in name, one per
// (LLM style, model). Models on the same endpoint share one provider, so
// its limits hold for the endpoint as a whole.
func (e *env) contestants(names []string, m *lang.Module, lo *llmOptions, policy llm.Policy, status *statusLine) ([]eval.Contestant, error) {
	var out []eval.Contestant
	providers := map[string]*llm.Provider{}
	specs := facts.ToolSpecs(m)
	client := &http.Client{}
	for _, name := range names {
		if !slices.Contains(llm.Styles, name) {
			factory, err := e.agentFactory(name, "", m)
			if err != nil {
				return nil, err
			}
			out = append(out, eval.Contestant{Agent: name, New: func(t *engine.Task, seed uint64) (agents.TurnAgent, error) {
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
				base, err = llm.NewProvider(cfg, policy, client)
				if err != nil {
					return nil, usageError{err}
				}
				url := cfg.BaseURL
				base.OnEvent(func(ev llm.Event) { status.provider(url, ev) })
				providers[key] = base
			}
			p := base.WithConfig(cfg)
			style := name
			out = append(out, eval.Contestant{Agent: style, Model: model, Prompt: llm.PromptVersion, Durable: true,
				New: func(*engine.Task, uint64) (agents.TurnAgent, error) { return llm.New(style, p, specs) }})
		}
	}
	return out, nil
}

// pacing describes a policy's pacing in a few words.
func pacing(p llm.Policy) string {
	var parts []string
	if p.MinInterval > 0 {
		parts = append(parts, p.MinInterval.String()+" between calls")
	}
	if p.RateCalls > 0 && p.RateWindow > 0 {
		parts = append(parts, fmt.Sprintf("at most %d per %s", p.RateCalls, p.RateWindow))
	}
	if len(parts) == 0 {
		return "no pacing"
	}
	return strings.Join(parts, ", ")
}

func absPaths(paths []string) []string {
	var out []string
	for _, p := range paths {
		if abs, err := filepath.Abs(p); err == nil {
			p = abs
		}
		out = append(out, p)
	}
	return out
}

// resumeFlags reads DIR/run.json and gives every flag of srezc eval that
// it records, and that was not given, the recorded value. It returns the
// recorded PATHs. Without a run.json there is nothing to take (RunSweep
// says whether there is anything to resume).
func resumeFlags(f *pflag.FlagSet, dir string) ([]string, error) {
	data, err := os.ReadFile(filepath.Join(dir, "run.json"))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("--resume: %v", err)
	}
	var run eval.RunConfig
	if err := json.Unmarshal(data, &run); err != nil {
		return nil, fmt.Errorf("--resume: %s: %v", filepath.Join(dir, "run.json"), err)
	}
	var agentNames, models []string
	for _, c := range run.Contestants {
		if !slices.Contains(agentNames, c.Agent) {
			agentNames = append(agentNames, c.Agent)
		}
		if c.Model != "" && !slices.Contains(models, c.Model) {
			models = append(models, c.Model)
		}
	}
	noise := "authored"
	if run.Noise == eval.NoiseBoth {
		noise = "both"
	}
	recorded := map[string]string{"agents": strings.Join(agentNames, ","), "seeds": fmt.Sprint(run.Seeds), "seed": fmt.Sprint(run.Seed),
		"noise": noise, "export-heldout": fmt.Sprint(run.HeldOut)}
	if len(models) > 0 {
		recorded["model"] = strings.Join(models, ",")
	}
	for key, flag := range map[string]string{"temperature": "temperature", "max_tokens": "max-tokens"} {
		if v, ok := run.Sampling[key]; ok {
			recorded[flag] = jsonScalar(v)
		}
	}
	for key, flag := range map[string]string{"base_url": "base-url", "provider": "provider", "retries": "retries", "min_interval": "min-interval",
		"rate_calls": "rate-calls", "rate_window": "rate-window", "pause_after": "pause-after", "pause": "pause", "timeout": "timeout",
		"concurrency": "concurrency", "backoff": "backoff", "backoff_max": "backoff-max", "workers": "workers", "abort_after_infra": "abort-after-infra"} {
		if v, ok := run.Settings[key]; ok {
			recorded[flag] = jsonScalar(v)
		}
	}
	if os.Getenv("OPENAI_BASE_URL") != "" {
		// The endpoint may move between runs (a server restarted on
		// another port): the environment's wins over run.json's.
		delete(recorded, "base-url")
	}
	for _, name := range slices.Sorted(maps.Keys(recorded)) {
		if f.Changed(name) || f.Lookup(name) == nil {
			continue
		}
		if err := f.Set(name, recorded[name]); err != nil {
			return nil, fmt.Errorf("--resume: run.json's %s %q: %v", name, recorded[name], err)
		}
	}
	var paths []string
	if ps, ok := run.Settings["paths"].([]any); ok {
		for _, p := range ps {
			if s, ok := p.(string); ok {
				paths = append(paths, s)
			}
		}
	}
	return paths, nil
}

// jsonScalar spells a value read from JSON as a flag would take it.
func jsonScalar(v any) string {
	if x, ok := v.(float64); ok {
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	return fmt.Sprint(v)
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

// statusLine shows a sweep's progress on stderr from the first request:
// episodes done, provider calls, tokens, retries, infrastructure errors,
// pauses and an estimate of the time left (from the wall clock, which
// only this display reads). On a terminal it is one line redrawn in
// place, and messages (a provider's pause) are printed above it, never
// onto it. Otherwise an LLM sweep prints a progress line at its first
// answer and then every progressEvery; a sweep of built-in agents prints
// nothing, so piped runs stay clean.
type statusLine struct {
	mu      sync.Mutex
	w       io.Writer
	tty     bool
	lines   bool // print progress lines (not a terminal, LLM sweep)
	started time.Time
	drawn   bool
	last    time.Time // last line printed or bar drawn

	ep                              eval.Progress
	calls, answers, tokens, retries int
	failedCalls                     int
	pausedUntil                     time.Time
}

// progressEvery spaces progress lines when stderr is not a terminal; a
// terminal's bar is redrawn at most every tenth of a second.
const progressEvery = 10 * time.Second

func (e *env) sweepStatus(llmSweep bool) *statusLine {
	s := &statusLine{w: e.stderr, started: time.Now()}
	if f, ok := e.stderr.(*os.File); ok {
		if info, err := f.Stat(); err == nil && info.Mode()&os.ModeCharDevice != 0 {
			s.tty = true
		}
	}
	s.lines = !s.tty && llmSweep
	return s
}

// notef prints a message on a line of its own.
func (s *statusLine) notef(format string, args ...any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.clear()
	fmt.Fprintf(s.w, format+"\n", args...)
	if s.tty && s.drawn {
		s.draw(true)
	}
}

// provider takes a provider's event (under the provider's lock).
func (s *statusLine) provider(url string, ev llm.Event) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch ev.Kind {
	case llm.EventCall:
		s.calls++
	case llm.EventAnswer:
		if ev.Err != nil {
			s.failedCalls++
			break
		}
		s.answers++
		s.tokens += ev.Tokens
		if s.answers == 1 && s.lines {
			s.draw(true)
			return
		}
	case llm.EventRetry:
		s.retries++
	case llm.EventPause:
		s.pausedUntil = time.Now().Add(ev.Delay)
		s.clear()
		fmt.Fprintf(s.w, "srezc: provider %s paused for %s: %v\n", url, ev.Delay.Round(time.Millisecond), ev.Err)
		s.draw(true)
		return
	}
	s.draw(false)
}

// episode takes a sweep's progress after each episode.
func (s *statusLine) episode(p eval.Progress) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ep = p
	s.draw(false)
}

func (s *statusLine) line() string {
	p := s.ep
	var b strings.Builder
	if s.tty {
		const width = 24
		n := p.Done * width / max(1, p.Total)
		fmt.Fprintf(&b, "%s [%s%s] %d/%d", p.Contestant, strings.Repeat("#", n), strings.Repeat(".", width-n), p.Done, p.Total)
	} else {
		fmt.Fprintf(&b, "srezc: progress: %d/%d episodes", p.Done, p.Total)
	}
	if s.calls > 0 {
		fmt.Fprintf(&b, " · %d calls · %s tokens · %d retries", s.calls, count(s.tokens), s.retries)
	}
	if p.InfraErrors > 0 {
		fmt.Fprintf(&b, " · %d infra errors", p.InfraErrors)
	}
	if left := time.Until(s.pausedUntil); left > 0 {
		fmt.Fprintf(&b, " · provider paused %s", left.Round(time.Second))
	}
	if played := p.Done - p.Resumed; played > 0 && p.Done < p.Total {
		left := time.Duration(float64(time.Since(s.started)) / float64(played) * float64(p.Total-p.Done))
		fmt.Fprintf(&b, " · ETA %s", left.Round(time.Second))
	}
	return b.String()
}

// draw shows the progress: always when forced, else when the last showing
// is old enough.
func (s *statusLine) draw(force bool) {
	now := time.Now()
	switch {
	case s.tty:
		if !force && now.Sub(s.last) < progressEvery/100 {
			return
		}
		fmt.Fprintf(s.w, "\r\033[K%s", s.line())
		s.drawn = true
	case s.lines:
		if !force && now.Sub(s.last) < progressEvery {
			return
		}
		fmt.Fprintln(s.w, s.line())
	default:
		return
	}
	s.last = now
}

// clear takes the bar off the terminal's line before a message.
func (s *statusLine) clear() {
	if s.tty && s.drawn {
		fmt.Fprint(s.w, "\r\033[K")
	}
}

func (s *statusLine) end() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.clear()
	s.drawn = false
	s.tty, s.lines = false, false
}

// count spells a count briefly: 950, 12.3k, 4.1M.
func count(n int) string {
	switch {
	case n >= 1_000_000:
		return fmt.Sprintf("%.1fM", float64(n)/1e6)
	case n >= 1000:
		return fmt.Sprintf("%.1fk", float64(n)/1e3)
	}
	return fmt.Sprint(n)
}
