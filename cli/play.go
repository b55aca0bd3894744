package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"github.com/srezc/srezc/agents"
	"github.com/srezc/srezc/compiler"
	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/eval"
	"github.com/srezc/srezc/record"
)

func (e *env) playCmd() *cobra.Command {
	var (
		seed            uint64
		recordDir, name string
	)
	c := &cobra.Command{
		Use:   "play [--seed N] [--record DIR --as human:NAME] TASK [PATH...]",
		Short: "Play one episode at the terminal, seeing exactly what an agent sees",
		Long: `Play one episode at the terminal. Standard output carries exactly the text an
agent is shown: the intro, then one observation per action. Type text actions
such as inspect_logs(database), one per line; end of input stops early. The
prompt and, at the end, the grader's record go to standard error.
TASK is the incident id; with no PATH the embedded default suite is used.

With --record DIR the episode is appended to DIR/records.jsonl like any
agent's, under the name given by --as (human:NAME), so that a human SRE
baseline sits in the same report as the agents (srezc report DIR).`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			if who, ok := strings.CutPrefix(name, "human:"); recordDir != "" && (!ok || who == "") {
				return usageError{fmt.Errorf("--record needs --as human:NAME")}
			}
			if recordDir == "" && name != "" {
				return usageError{fmt.Errorf("--as only names a recorded episode: add --record DIR")}
			}
			tasks, err := e.load(args[1:], compiler.Options{})
			if err != nil {
				return err
			}
			tk, err := pickTask(tasks, args[0])
			if err != nil {
				return err
			}
			in := bufio.NewScanner(e.stdin)
			in.Buffer(make([]byte, 64*1024), 1<<20)
			h := &human{in: in, out: e.stdout, prompt: e.stderr}
			ep, err := eval.PlayTurns(context.Background(), tk, h, 0, seed, recordDir != "")
			if err == nil {
				err = h.err
			}
			if err != nil {
				return err
			}
			rec, err := json.MarshalIndent(ep.Record, "", "  ")
			if err != nil {
				return err
			}
			fmt.Fprintf(e.stderr, "grader record:\n%s\n", rec)
			if recordDir == "" {
				return nil
			}
			v := eval.VersionsFor(Version, tasks)
			line := eval.NewRecord(name, engine.SuiteHash(tasks), v, tk, &ep, true)
			path := filepath.Join(recordDir, "records.jsonl")
			if err := record.Append(path, &line); err != nil {
				return err
			}
			fmt.Fprintf(e.stderr, "recorded in %s as %s\n", path, name)
			return nil
		},
	}
	c.Flags().Uint64Var(&seed, "seed", 1, "episode seed")
	c.Flags().StringVar(&recordDir, "record", "", "append the episode to DIR/records.jsonl")
	c.Flags().StringVar(&name, "as", "", "the name of the recorded player, human:NAME")
	return c
}

// human is a player at the terminal: the text an agent sees goes to out,
// actions come from in, one per line (blank lines skipped).
type human struct {
	in          *bufio.Scanner
	out, prompt io.Writer
	err         error
}

func (h *human) Begin(intro string)  { _, h.err = io.WriteString(h.out, intro) }
func (h *human) Usage() record.Usage { return record.Usage{} }

func (h *human) End(obs string) {
	if h.err == nil {
		_, h.err = io.WriteString(h.out, obs)
	}
}

func (h *human) Turn(_ context.Context, obs string) (agents.Turn, error) {
	if h.err != nil {
		return agents.Turn{Stop: true}, nil
	}
	if obs != "" {
		if _, h.err = io.WriteString(h.out, obs); h.err != nil {
			return agents.Turn{Stop: true}, nil
		}
	}
	for {
		fmt.Fprint(h.prompt, "> ")
		if !h.in.Scan() {
			fmt.Fprintln(h.prompt)
			h.err = h.in.Err()
			return agents.Turn{Stop: true}, nil
		}
		if line := strings.TrimSpace(h.in.Text()); line != "" {
			return agents.Turn{Action: line}, nil
		}
	}
}
