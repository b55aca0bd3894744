package cli

import (
	"bufio"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/srezc/srezc/compiler"
	"github.com/srezc/srezc/runtime"
)

func (e *env) playCmd() *cobra.Command {
	var seed uint64
	c := &cobra.Command{
		Use:   "play [--seed N] TASK [PATH...]",
		Short: "Play one episode at the terminal, seeing exactly what an agent sees",
		Long: `Play one episode at the terminal. Standard output carries exactly the text an
agent is shown: the intro, then one observation per action. Type text actions
such as inspect_logs(database), one per line; end of input stops early. The
prompt and, at the end, the grader's record go to standard error.
TASK is the incident id; with no PATH the embedded default suite is used.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			tasks, err := e.load(args[1:], compiler.Options{})
			if err != nil {
				return err
			}
			tk, err := pickTask(tasks, args[0])
			if err != nil {
				return err
			}
			ep := runtime.NewEpisode(tk)
			ep.Reset(seed)
			out := ep.AppendIntro(nil)
			if _, err := e.stdout.Write(out); err != nil {
				return err
			}
			in := bufio.NewScanner(e.stdin)
			in.Buffer(make([]byte, 64*1024), 1<<20)
			for !ep.Done() {
				fmt.Fprint(e.stderr, "> ")
				if !in.Scan() {
					fmt.Fprintln(e.stderr)
					break
				}
				line := strings.TrimSpace(in.Text())
				if line == "" {
					continue
				}
				a := compiler.BindText(tk, line)
				r := ep.Step(&a)
				out = ep.AppendText(out[:0], &r.Obs)
				if _, err := e.stdout.Write(out); err != nil {
					return err
				}
			}
			if err := in.Err(); err != nil {
				return err
			}
			rec, err := json.MarshalIndent(ep.Record(), "", "  ")
			if err != nil {
				return err
			}
			fmt.Fprintf(e.stderr, "grader record:\n%s\n", rec)
			return nil
		},
	}
	c.Flags().Uint64Var(&seed, "seed", 1, "episode seed")
	return c
}
