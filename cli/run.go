package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/srezc/srezc/agents"
	"github.com/srezc/srezc/compiler"
	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/eval"
	"github.com/srezc/srezc/facts"
	"github.com/srezc/srezc/lang"
	"github.com/srezc/srezc/record"
)

// agentNames are the built-in agents, in help order.
var agentNames = append([]string{"scripted", "random", "replay", "greedy", "sre_zero_random"}, agents.BlindAgentNames()...)

func (e *env) runCmd() *cobra.Command {
	var (
		agent, taskID, traceFile, actionsFile string
		seed                                  uint64
		episodes, workers                     int
		asJSON                                bool
	)
	c := &cobra.Command{
		Use:   "run --agent NAME [--task ID] [--seed N] [--episodes K] [--json] [--trace FILE] [PATH...]",
		Short: "Play episodes with a built-in agent and print the metrics",
		Long: `Play episodes with a built-in agent, in parallel, and print the metrics.

Agents: scripted plays each incident's expert plan; random draws seeded tool
calls, some malformed; replay plays text actions, one per line, from
--actions FILE or stdin; greedy is the first-anomaly baseline, knowing only
the published documentation of the services; sre_zero_random is the SRE-Zero
reference's random agent, draw for draw (CPython's generator, the
reference's seeds). The blind-* agents are issue 18's answer-blind
adversaries, reading before they write with only the published docs:
blind-reset-docs, blind-reset-band, blind-restart-unhealthy,
blind-log-words, blind-log-words-docs (resets the matched mechanism's
keys that differ from the docs, in band or not), blind-always-escalate,
blind-rollback-all, blind-rollback-latest, blind-operate (applies every
operation whose trigger its reads show) and blind-operate-rollback (rolls
back every change, then does the same) and blind-operate-warnings (looks
for triggers in warning and error lines only). With no PATH the embedded default suite runs.
Output is byte-identical across runs and GOMAXPROCS.`,
		RunE: func(c *cobra.Command, args []string) error {
			if !slices.Contains(agentNames, agent) {
				return usageError{fmt.Errorf("--agent must be one of %s, not %q", strings.Join(agentNames, ", "), agent)}
			}
			if episodes < 1 {
				return usageError{fmt.Errorf("--episodes must be at least 1")}
			}
			if workers < 0 {
				return usageError{fmt.Errorf("--workers must be 0 (GOMAXPROCS) or more")}
			}
			if traceFile != "" && traceFile != "-" {
				if info, err := os.Stat(filepath.Dir(traceFile)); err != nil || !info.IsDir() {
					return usageError{fmt.Errorf("--trace %s: folder %s does not exist", traceFile, filepath.Dir(traceFile))}
				}
			}
			if actionsFile != "" && agent != "replay" {
				return usageError{fmt.Errorf("--actions is only for --agent replay")}
			}
			m, tasks, err := e.loadModule(args, compiler.Options{})
			if err != nil {
				return err
			}
			if taskID != "" {
				t, err := pickTask(tasks, taskID)
				if err != nil {
					return err
				}
				tasks = []*engine.Task{t}
			}
			factory, err := e.agentFactory(agent, actionsFile, m)
			if err != nil {
				return err
			}
			rep, eps, err := eval.Run(tasks, eval.Options{Agent: agent, NewAgent: factory, Episodes: episodes, Seed: seed, Workers: workers, Trace: traceFile != ""})
			if err != nil {
				return err
			}
			if traceFile != "" {
				var data []byte
				for _, ep := range eps {
					data = ep.AppendTrace(data)
				}
				if traceFile == "-" {
					if _, err := e.stdout.Write(data); err != nil {
						return err
					}
				} else if err := writeAtomic(traceFile, data); err != nil {
					return err
				}
			}
			// With the trace on stdout, the report goes to stderr so that
			// stdout stays one JSON line per step.
			out := e.stdout
			if traceFile == "-" {
				out = e.stderr
			}
			if asJSON {
				return writeJSON(out, rep)
			}
			return writeRunSummary(out, rep)
		},
	}
	f := c.Flags()
	f.StringVar(&agent, "agent", "", "agent: scripted, random, replay, greedy, sre_zero_random or blind-* (required)")
	f.StringVar(&taskID, "task", "", "run only this incident id")
	f.Uint64Var(&seed, "seed", 1, "seed of the first episode; episode k uses seed+k")
	f.IntVar(&episodes, "episodes", 1, "episodes per incident")
	f.IntVar(&workers, "workers", 0, "episodes in flight at once (default GOMAXPROCS)")
	f.BoolVar(&asJSON, "json", false, "print the report as JSON")
	f.StringVar(&traceFile, "trace", "", "write one JSON line per step to FILE (- for stdout; the report then goes to stderr)")
	f.StringVar(&actionsFile, "actions", "", "replay: read text actions from FILE instead of stdin")
	_ = c.MarkFlagRequired("agent")
	return c
}

func (e *env) agentFactory(name, actionsFile string, m *lang.Module) (eval.AgentFactory, error) {
	if _, blind := agents.ParseBlindPolicy(name); blind || name == "greedy" {
		for _, adv := range agents.Adversaries(facts.Knowledge(m, "native")) {
			if adv.Name == name {
				return func(*engine.Task, uint64) (agents.Agent, error) { return adv.New(), nil }, nil
			}
		}
	}
	switch name {
	case "scripted":
		return func(t *engine.Task, seed uint64) (agents.Agent, error) {
			// The expert of the site variant the seed plays: its fix
			// values are that site's.
			plan := t.Site(seed).Expert
			if len(plan) == 0 {
				return nil, fmt.Errorf("incident %s has no expert plan", t.ID)
			}
			return agents.NewScripted(plan), nil
		}, nil
	case "random":
		return func(_ *engine.Task, seed uint64) (agents.Agent, error) {
			return agents.NewRandom(seed), nil
		}, nil
	case "sre_zero_random":
		// The reference seeds episode e of the i-th task of its list with
		// base + 10000·i + e (spec §12.1). Its list is the manifest's
		// easy, medium and hard lists in order (a suite block), followed
		// by the module's other incidents in order.
		index := map[string]uint64{}
		add := func(id string) {
			if _, ok := index[id]; !ok {
				index[id] = uint64(len(index))
			}
		}
		for _, su := range m.Suites {
			for _, l := range []string{"easy", "medium", "hard"} {
				for _, id := range su.Lists[l] {
					add(id)
				}
			}
		}
		for _, in := range m.Incidents {
			add(in.Name)
		}
		return func(t *engine.Task, seed uint64) (agents.Agent, error) {
			return agents.NewRefRandom(seed + 10000*index[t.ID]), nil
		}, nil
	}
	var data []byte
	var err error
	if actionsFile == "" || actionsFile == "-" {
		data, err = io.ReadAll(e.stdin)
	} else {
		data, err = os.ReadFile(actionsFile)
	}
	if err != nil {
		return nil, err
	}
	text := string(data)
	return func(*engine.Task, uint64) (agents.Agent, error) {
		return agents.NewReplay(text), nil
	}, nil
}

var summaryMetrics = []string{"success_rate", "mean_reward", "mean_steps", "invalid_action_rate", "evidence_coverage", "marks"}

func writeRunSummary(out io.Writer, rep *eval.Report) error {
	w := tabwriter.NewWriter(out, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(w, "TASK\t")
	for _, m := range summaryMetrics {
		fmt.Fprintf(w, "%s\t", m)
	}
	fmt.Fprintln(w)
	row := func(name string, m record.Metrics) {
		fmt.Fprintf(w, "%s\t", name)
		for _, k := range summaryMetrics {
			fmt.Fprintf(w, "%.3f\t", m.Get(k))
		}
		fmt.Fprintln(w)
	}
	for _, t := range rep.Tasks {
		row(t.ID, t.Metrics)
	}
	row("ALL", rep.Metrics)
	if err := w.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(out, "\nagent %s, %d episode(s)\n", rep.Agent, rep.Episodes)
	for _, m := range rep.Metrics {
		fmt.Fprintf(out, "  %-34s %.4f\n", m.Name, m.Value)
	}
	return nil
}
