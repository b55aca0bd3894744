package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/srezc/srezc/compiler"
	"github.com/srezc/srezc/eval"
	"github.com/srezc/srezc/runtime"
)

// Version is srezc's version, recorded with every result.
const Version = "0.1.0-dev"

func (e *env) evalCmd() *cobra.Command {
	var (
		out, agentList string
		seeds, workers int
		seed           uint64
		exportHeldOut  bool
	)
	c := &cobra.Command{
		Use:   "eval [--out DIR] [--agents LIST] [--seeds N] [--seed S] [PATH...]",
		Short: "The main job: run the suite with the baseline agents and write records and a report",
		Long: `Run every incident of the suite (the embedded one with no PATH) with each
agent over N seeds, and write to DIR (default srezc-out):

  records.jsonl  one line per episode: task id and hash, suite hash, srezc,
                 renderer and IR versions, profile, agent, seed, reward
                 components, metrics, terminal reason, failure mode, trajectory
  summary.json   per agent: overall, per difficulty, per split, per task,
                 reference marks (spec §7) and failure modes (spec §12.1)
  summary.md     the same as tables

Output is byte-identical across runs and GOMAXPROCS.`,
		RunE: func(c *cobra.Command, args []string) error {
			if seeds < 1 {
				return usageError{fmt.Errorf("--seeds must be at least 1")}
			}
			if workers < 0 {
				return usageError{fmt.Errorf("--workers must be 0 (GOMAXPROCS) or more")}
			}
			names := strings.Split(agentList, ",")
			for _, n := range names {
				if n == "replay" || !slices.Contains(agentNames, n) {
					return usageError{fmt.Errorf("--agents takes a comma-separated list of scripted, greedy, random, not %q", n)}
				}
			}
			m, tasks, err := e.loadModule(args, compiler.Options{})
			if err != nil {
				return err
			}
			if len(tasks) == 0 {
				return fmt.Errorf("no incidents to evaluate")
			}
			suite := runtime.SuiteHash(tasks)
			v := eval.Versions{Srezc: Version, Renderer: runtime.RendererVersion, Profile: eval.Profile(tasks), Format: runtime.FormatVersion}
			sum := &eval.Summary{Suite: suite, Versions: v, Tasks: len(tasks), Seeds: seeds}
			var records bytes.Buffer
			progress := e.progressBar()
			for _, name := range names {
				factory, err := e.agentFactory(name, "", m)
				if err != nil {
					return err
				}
				_, eps, err := eval.Run(tasks, eval.Options{Agent: name, NewAgent: factory, Episodes: seeds, Seed: seed, Workers: workers, Trace: true,
					Progress: func(done, total int) { progress(name, done, total) }})
				if err != nil {
					return err
				}
				for _, r := range eval.RecordsWith(name, suite, v, tasks, eps, exportHeldOut) {
					line, err := json.Marshal(r)
					if err != nil {
						return err
					}
					records.Write(line)
					records.WriteByte('\n')
				}
				sum.Agents = append(sum.Agents, eval.Summarize(name, tasks, eps))
			}
			progress("", 0, 0)
			js, err := json.MarshalIndent(sum, "", "  ")
			if err != nil {
				return err
			}
			if err := os.MkdirAll(out, 0o755); err != nil {
				return err
			}
			for _, f := range []struct {
				name string
				data []byte
			}{{"records.jsonl", records.Bytes()}, {"summary.json", append(js, '\n')}, {"summary.md", []byte(eval.Markdown(sum))}} {
				if err := writeAtomic(filepath.Join(out, f.name), f.data); err != nil {
					return err
				}
			}
			for _, a := range sum.Agents {
				fmt.Fprintf(e.stdout, "%-9s success %.3f  reward %.3f  marks %.1f  (%d episodes)\n", a.Agent, a.Overall.Get("success_rate"), a.Overall.Get("mean_reward"), a.Overall.Get("marks"), a.Episodes)
			}
			fmt.Fprintf(e.stdout, "wrote %s\n", filepath.Join(out, "{records.jsonl,summary.json,summary.md}"))
			return nil
		},
	}
	f := c.Flags()
	f.StringVar(&out, "out", "srezc-out", "folder to write records.jsonl, summary.json and summary.md to")
	f.StringVar(&agentList, "agents", "scripted,greedy,random", "agents to run, comma-separated")
	f.IntVar(&seeds, "seeds", 5, "episodes (seeds) per incident and agent")
	f.Uint64Var(&seed, "seed", 1, "first seed; episode k uses seed+k")
	f.IntVar(&workers, "workers", 0, "episodes in flight at once (default GOMAXPROCS)")
	f.BoolVar(&exportHeldOut, "export-heldout", false, "keep the trajectories of held-out test tasks in records.jsonl (left out by default)")
	return c
}

// progressBar returns a progress reporter that draws on stderr when it is
// a terminal and does nothing otherwise (so output files and piped runs
// stay clean). A call with total 0 ends the bar.
func (e *env) progressBar() func(agent string, done, total int) {
	f, ok := e.stderr.(*os.File)
	if !ok {
		return func(string, int, int) {}
	}
	if info, err := f.Stat(); err != nil || info.Mode()&os.ModeCharDevice == 0 {
		return func(string, int, int) {}
	}
	return func(agent string, done, total int) {
		if total == 0 {
			fmt.Fprint(f, "\r\033[K")
			return
		}
		const width = 30
		n := done * width / total
		fmt.Fprintf(f, "\r%-9s [%s%s] %d/%d episodes", agent, strings.Repeat("#", n), strings.Repeat(".", width-n), done, total)
	}
}
