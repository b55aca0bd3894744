package eval

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"sync"

	"github.com/srezc/srezc/agents"
	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/record"
)

// Contestant is one agent of a sweep: a built-in agent, a human, or an LLM
// agent with its model and prompt version.
type Contestant struct {
	Agent, Model, Prompt string
	New                  func(t *engine.Task, seed uint64) (agents.TurnAgent, error)
	// Durable makes each of its records reach the disk (file and folder
	// synced) before its worker takes the next episode: an LLM episode
	// costs money and time, a built-in one microseconds.
	Durable bool
}

// Noise modes of a sweep.
const (
	NoiseAsAuthored = ""
	NoiseBoth       = "both"
)

// SweepOptions configure RunSweep.
type SweepOptions struct {
	// Dir receives records.jsonl and run.json.
	Dir   string
	Seeds int
	Seed  uint64
	// Workers bounds the episodes in flight; 0 means GOMAXPROCS.
	Workers int
	// Noise is NoiseAsAuthored, or NoiseBoth to play every episode with
	// the task's noise and without it.
	Noise string
	// Resume continues the sweep recorded in Dir; without it, a sweep
	// already there is replaced, unless it holds durable (LLM, human or MCP)
	// records, which are never thrown away silently.
	Resume        bool
	Overwrite     bool
	PauseFile     string
	ExportHeldOut bool
	Versions      record.Versions
	// Sampling is how LLM agents ask their models (endpoint, temperature,
	// token limit): part of what the sweep measures, so --resume refuses a
	// change.
	Sampling map[string]any
	// Settings are recorded in run.json for the reader; unlike the rest of
	// the configuration they may change on --resume (rates, retries,
	// timeouts, workers).
	Settings map[string]any
	// Stop, when done, lets in-flight episodes finish and starts no more
	// (the first Ctrl-C); the ctx given to RunSweep cancels them too.
	Stop <-chan struct{}
	// Progress, if set, is called once before the first episode and then
	// after each one (one call at a time).
	Progress func(Progress)
	// AbortAfterInfra stops the sweep once that many episodes in a row
	// have ended in infrastructure errors (a dead endpoint would otherwise
	// turn every remaining episode into one, slowly); 0 never stops.
	AbortAfterInfra int
}

// Progress is where a sweep stands.
type Progress struct {
	Done, Total, Resumed, InfraErrors int
	Contestant                        string
}

// SweepResult says how a sweep ended.
type SweepResult struct {
	// Played episodes in this run, Resumed ones kept from before.
	Played, Resumed, InfraErrors int
	// Complete is true when every episode of the plan has a scored or
	// infra-error record; Paused or Stopped say why it is not.
	Complete, Paused, Stopped bool
}

// RunConfig is run.json: what a sweep is. Everything but Settings must be
// equal for --resume to continue it.
type RunConfig struct {
	Suite           string           `json:"suite"`
	record.Versions                  // flattened
	Tasks           []string         `json:"tasks"`
	Contestants     []ContestantInfo `json:"contestants"`
	Seeds           int              `json:"seeds"`
	Seed            uint64           `json:"seed"`
	Noise           string           `json:"noise,omitempty"`
	HeldOut         bool             `json:"export_heldout,omitempty"`
	Sampling        map[string]any   `json:"sampling,omitempty"`
	Settings        map[string]any   `json:"settings,omitempty"`
}

// ContestantInfo is a contestant as run.json records it.
type ContestantInfo struct {
	Agent  string `json:"agent"`
	Model  string `json:"model,omitempty"`
	Prompt string `json:"prompt,omitempty"`
}

type sweepJob struct {
	c       int // contestant
	task    *engine.Task
	played  *engine.Task // task, or its noise-free copy
	episode int
	seed    uint64
	noise   string
	key     record.Key
}

// RunSweep plays every (contestant, task, seed[, noise]) episode and
// appends each finished one to Dir/records.jsonl, one line written whole;
// a durable contestant's line is synced before its worker goes on. With
// Resume it first reads the records there, drops a torn last line (a
// crash mid-write) and the infra errors (to retry them), and plays only
// what is missing. A complete sweep's records are rewritten in plan order,
// so they do not depend on scheduling or interruptions. An Abort failure
// stops everything at once and is returned.
func RunSweep(ctx context.Context, tasks []*engine.Task, cs []Contestant, opt SweepOptions) (SweepResult, error) {
	var res SweepResult
	if opt.Seeds < 1 {
		return res, fmt.Errorf("seeds must be at least 1, not %d", opt.Seeds)
	}
	if opt.Noise != NoiseAsAuthored && opt.Noise != NoiseBoth {
		return res, fmt.Errorf("noise must be %q or %q, not %q", NoiseAsAuthored, NoiseBoth, opt.Noise)
	}
	suite := engine.SuiteHash(tasks)
	cfg := RunConfig{Suite: suite, Versions: opt.Versions, Seeds: opt.Seeds, Seed: opt.Seed, Noise: opt.Noise, HeldOut: opt.ExportHeldOut, Sampling: opt.Sampling, Settings: opt.Settings}
	for _, t := range tasks {
		cfg.Tasks = append(cfg.Tasks, t.ID)
	}
	for _, c := range cs {
		cfg.Contestants = append(cfg.Contestants, ContestantInfo{c.Agent, c.Model, c.Prompt})
	}
	plan := planSweep(tasks, cs, opt, suite)

	if err := os.MkdirAll(opt.Dir, 0o755); err != nil {
		return res, err
	}
	recPath := filepath.Join(opt.Dir, "records.jsonl")
	cfgPath := filepath.Join(opt.Dir, "run.json")
	kept, err := prepareRecords(recPath, cfgPath, &cfg, opt)
	if err != nil {
		return res, err
	}
	done := map[record.Key]bool{}
	for i := range kept {
		done[record.KeyOf(&kept[i])] = true
	}
	var todo []sweepJob
	for _, j := range plan {
		if done[j.key] {
			res.Resumed++
		} else {
			todo = append(todo, j)
		}
	}
	js, err := json.MarshalIndent(cfg, "", "  ")
	if err != nil {
		return res, err
	}
	if err := record.WriteFileAtomic(cfgPath, append(js, '\n')); err != nil {
		return res, err
	}

	out, err := os.OpenFile(recPath, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return res, err
	}
	defer out.Close()
	if err := record.SyncDir(opt.Dir); err != nil {
		return res, err
	}

	byID := map[string]*engine.Task{}
	for _, t := range tasks {
		byID[t.ID] = t
	}
	hard, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		mu       sync.Mutex
		firstErr error
		progress = Progress{Total: len(plan), Done: res.Resumed, Resumed: res.Resumed}
		inARow   int
	)
	fail := func(err error) {
		mu.Lock()
		if firstErr == nil {
			firstErr = err
		}
		mu.Unlock()
		cancel()
	}
	if opt.Progress != nil {
		// Where the sweep starts, before any episode ends: a display can
		// show the plan from the first request on.
		opt.Progress(progress)
	}
	next := make(chan sweepJob)
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	var wg sync.WaitGroup
	for w := 0; w < min(workers, max(1, len(todo))); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range next {
				c := cs[j.c]
				a, err := c.New(j.task, j.seed)
				if err != nil {
					fail(fmt.Errorf("task %s: %w", j.task.ID, err))
					continue
				}
				ep, err := PlayTurns(hard, j.played, a, j.episode, j.seed, true)
				if err != nil {
					if hard.Err() == nil {
						fail(fmt.Errorf("sweep aborted (%s on %s, seed %d): %w", label(c), j.task.ID, j.seed, err))
					}
					continue
				}
				ep.Model, ep.Prompt, ep.Noise = c.Model, c.Prompt, j.noise
				ep.Task = j.task.ID
				rec := NewRecord(c.Agent, suite, opt.Versions, j.task, &ep, opt.ExportHeldOut)
				line, err := record.Marshal(&rec)
				if err != nil {
					fail(err)
					continue
				}
				mu.Lock()
				_, err = out.Write(line)
				if err == nil && c.Durable {
					err = out.Sync()
				}
				if err == nil {
					res.Played++
					progress.Done++
					progress.Contestant = label(c)
					if ep.Outcome == record.OutcomeInfraError {
						res.InfraErrors++
						progress.InfraErrors++
						inARow++
						if opt.AbortAfterInfra > 0 && inARow >= opt.AbortAfterInfra && firstErr == nil {
							firstErr = fmt.Errorf("sweep aborted: %d episodes in a row ended in infrastructure errors, the last (%s on %s, seed %d): %s; the records are kept, and --resume retries them",
								inARow, label(c), j.task.ID, j.seed, ep.InfraError)
							cancel()
						}
					} else {
						inARow = 0
					}
					if opt.Progress != nil {
						opt.Progress(progress)
					}
				}
				mu.Unlock()
				if err != nil {
					fail(fmt.Errorf("writing %s: %w", recPath, err))
				}
			}
		}()
	}
dispatch:
	for _, j := range todo {
		if opt.PauseFile != "" {
			if _, err := os.Stat(opt.PauseFile); err == nil {
				res.Paused = true
				break
			}
		}
		select {
		case next <- j:
		case <-hard.Done():
			break dispatch
		case <-opt.Stop:
			res.Stopped = true
			break dispatch
		}
	}
	close(next)
	wg.Wait()
	if err := out.Sync(); err != nil && firstErr == nil {
		firstErr = err
	}
	if firstErr != nil {
		return res, firstErr
	}
	if ctx.Err() != nil {
		res.Stopped = true
		return res, nil
	}
	if res.Paused || res.Stopped {
		return res, nil
	}
	res.Complete = true
	return res, canonicalise(recPath, plan)
}

func label(c Contestant) string {
	if c.Model != "" {
		return c.Agent + "/" + c.Model
	}
	return c.Agent
}

// noiseless is t with its noise off: the other half of a --noise both
// sweep, and what a record of that half is re-graded on. Every site
// variant carries its own noise list, so each is copied without it (before
// 2026-11-25 only variant 0 was quiet: seeds that picked another variant
// played their noise in the "off" half).
func noiseless(t *engine.Task) *engine.Task {
	q := *t
	q.Noise = nil
	if len(t.Sites) > 0 {
		q.Sites = make([]*engine.Task, len(t.Sites))
		for i, s := range t.Sites {
			c := *s
			c.Noise = nil
			q.Sites[i] = &c
		}
	}
	return &q
}

func planSweep(tasks []*engine.Task, cs []Contestant, opt SweepOptions, suite string) []sweepJob {
	noises := []string{NoiseAsAuthored}
	if opt.Noise == NoiseBoth {
		noises = []string{record.NoiseOn, record.NoiseOff}
	}
	quiet := map[*engine.Task]*engine.Task{}
	if opt.Noise == NoiseBoth {
		for _, t := range tasks {
			quiet[t] = noiseless(t)
		}
	}
	var plan []sweepJob
	for ci, c := range cs {
		for _, t := range tasks {
			for k := 0; k < opt.Seeds; k++ {
				seed := opt.Seed + uint64(k)
				for _, n := range noises {
					played := t
					if n == record.NoiseOff {
						played = quiet[t]
					}
					plan = append(plan, sweepJob{c: ci, task: t, played: played, episode: k, seed: seed, noise: n,
						key: record.Key{Suite: suite, Task: t.ID, Hash: t.Hash, Agent: c.Agent, Model: c.Model, Prompt: c.Prompt, Seed: seed, Noise: n}})
				}
			}
		}
	}
	return plan
}

// prepareRecords checks run.json against cfg and returns the records to
// keep: with Resume, the scored records already there (rewriting the file
// without a torn tail or infra errors); without it, none (the file is
// emptied).
func prepareRecords(recPath, cfgPath string, cfg *RunConfig, opt SweepOptions) ([]record.Line, error) {
	old, oldErr := os.ReadFile(cfgPath)
	data, recErr := os.ReadFile(recPath)
	if recErr != nil && !errors.Is(recErr, os.ErrNotExist) {
		return nil, recErr
	}
	if !opt.Resume {
		if len(data) > 0 && !opt.Overwrite && holdsDurable(data) {
			return nil, fmt.Errorf("%s holds episodes of an LLM agent or a human from an earlier sweep: continue it with --resume, or pass --overwrite to replace them", recPath)
		}
		return nil, record.WriteFileAtomic(recPath, nil)
	}
	if oldErr != nil {
		if errors.Is(oldErr, os.ErrNotExist) && len(data) == 0 {
			return nil, nil // nothing to resume: a fresh sweep
		}
		return nil, fmt.Errorf("--resume: cannot read %s: %v", cfgPath, oldErr)
	}
	var prev RunConfig
	if err := json.Unmarshal(old, &prev); err != nil {
		return nil, fmt.Errorf("--resume: %s: %v", cfgPath, err)
	}
	// Compare what run.json will hold: numbers in Sampling read back as
	// float64.
	var cur RunConfig
	if js, err := json.Marshal(cfg); err != nil || json.Unmarshal(js, &cur) != nil {
		return nil, fmt.Errorf("cannot encode the run's configuration")
	}
	if why := incompatible(&prev, &cur); why != "" {
		return nil, fmt.Errorf("--resume: the sweep in %s was run with %s; resume it with the same configuration, or use another --out", filepath.Dir(cfgPath), why)
	}
	// Everything up to the last newline was written whole; anything after
	// it is a line a crash cut short.
	whole := data
	if i := bytes.LastIndexByte(data, '\n'); i+1 < len(data) {
		whole = data[:i+1]
	}
	var kept []record.Line
	var buf bytes.Buffer
	for n, line := range bytes.SplitAfter(whole, []byte{'\n'}) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		r, err := record.DecodeLine(line)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", recPath, n+1, err)
		}
		if r.Outcome == record.OutcomeInfraError {
			continue
		}
		kept = append(kept, r)
		buf.Write(line)
	}
	if buf.Len() != len(data) {
		if err := record.WriteFileAtomic(recPath, buf.Bytes()); err != nil {
			return nil, err
		}
	}
	return kept, nil
}

// holdsDurable reports whether records hold episodes no sweep can play
// again: an LLM agent's (they carry usage), a human's (srezc play
// --record) or an agent's evaluated over MCP (srezc mcp --record).
func holdsDurable(records []byte) bool {
	return bytes.Contains(records, []byte(`"usage":`)) || bytes.Contains(records, []byte(`"agent":"human:`)) ||
		bytes.Contains(records, []byte(`"agent":"mcp:`))
}

// incompatible names the first difference between two runs' configuration
// that --resume cannot bridge ("" when there is none).
func incompatible(prev, cur *RunConfig) string {
	a, b := *prev, *cur
	a.Settings, b.Settings = nil, nil
	if reflect.DeepEqual(a, b) {
		return ""
	}
	switch {
	case a.Suite != b.Suite:
		return fmt.Sprintf("suite %s, not %s (the tasks changed)", short(a.Suite), short(b.Suite))
	case a.Versions != b.Versions:
		return fmt.Sprintf("versions %+v, not %+v", a.Versions, b.Versions)
	case !reflect.DeepEqual(a.Contestants, b.Contestants):
		return fmt.Sprintf("agents %s, not %s", contestantList(a.Contestants), contestantList(b.Contestants))
	case a.Seeds != b.Seeds || a.Seed != b.Seed:
		return fmt.Sprintf("--seeds %d --seed %d, not --seeds %d --seed %d", a.Seeds, a.Seed, b.Seeds, b.Seed)
	case a.Noise != b.Noise:
		return fmt.Sprintf("--noise %q, not %q", a.Noise, b.Noise)
	case a.HeldOut != b.HeldOut:
		return fmt.Sprintf("--export-heldout=%v, not %v", a.HeldOut, b.HeldOut)
	case !reflect.DeepEqual(a.Sampling, b.Sampling):
		return fmt.Sprintf("sampling %v, not %v", a.Sampling, b.Sampling)
	}
	return "a different task list"
}

func contestantList(cs []ContestantInfo) string {
	var parts []string
	for _, c := range cs {
		s := c.Agent
		if c.Model != "" {
			s += "/" + c.Model
		}
		if c.Prompt != "" {
			s += " (prompt " + c.Prompt + ")"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ", ")
}

func short(h string) string { return h[:min(12, len(h))] }

// canonicalise rewrites a complete sweep's records in plan order, followed
// by any record that is not the sweep's (a human's, added by srezc play
// --record), in file order.
func canonicalise(recPath string, plan []sweepJob) error {
	data, err := os.ReadFile(recPath)
	if err != nil {
		return err
	}
	inPlan := map[record.Key]bool{}
	for _, j := range plan {
		inPlan[j.key] = true
	}
	lines := map[record.Key][]byte{}
	var others [][]byte
	for _, line := range bytes.SplitAfter(data, []byte{'\n'}) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		r, err := record.DecodeLine(line)
		if err != nil {
			return fmt.Errorf("%s: %v", recPath, err)
		}
		if k := record.KeyOf(&r); inPlan[k] {
			lines[k] = line
		} else {
			others = append(others, line)
		}
	}
	var buf bytes.Buffer
	for _, j := range plan {
		buf.Write(lines[j.key])
	}
	for _, line := range others {
		buf.Write(line)
	}
	return record.WriteFileAtomic(recPath, buf.Bytes())
}
