package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/srezc/srezc/action"
	"github.com/srezc/srezc/compiler"
	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/eval"
	"github.com/srezc/srezc/llm"
	"github.com/srezc/srezc/record"
)

func (e *env) regradeCmd() *cobra.Command {
	var out string
	var jo judgeOptions
	c := &cobra.Command{
		Use:   "regrade RECORDS [PATH...] [-o OUT]",
		Short: "Re-grade recorded episodes offline against the tasks as compiled now",
		Long: `Replay every episode of RECORDS (a records.jsonl) on its task as PATH's
module (the embedded suite with no PATH) compiles now: the same seed, the
same actions, graded by this srezc. Prints what grading now says
differently; -o OUT writes the re-graded records.

An episode whose task hash differs from the task's now is refused with the
reason (the task changed, so its actions would be answered differently),
as are episodes with no trajectory and infrastructure errors. Exit 1 if
any episode was refused.

--judge also has a model judge grade each re-graded episode's diagnosis
(see srezc eval --help and README "Model judge"); its verdicts are cached
in judge-cache.jsonl beside OUT (beside RECORDS without -o), so asking
again costs no call.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := jo.check(); err != nil {
				return err
			}
			recs, err := record.Read(args[0])
			if err != nil {
				return err
			}
			m, tasks, err := e.loadModule(args[1:], compiler.Options{})
			if err != nil {
				return err
			}
			byID := map[string]*engine.Task{}
			for _, t := range tasks {
				byID[t.ID] = t
			}
			v := eval.VersionsFor(Version, tasks)
			var regraded []record.Line
			var at []int // regraded[k] is recs[at[k]]
			same, changed, refused := 0, 0, 0
			for i := range recs {
				r := &recs[i]
				where := fmt.Sprintf("%s:%d: %s %s seed %d", args[0], i+1, r.Task, agentLabel(r), r.Seed)
				t := byID[r.Task]
				if t == nil {
					refused++
					fmt.Fprintf(e.stdout, "%s: refused: no incident %s in the suite\n", where, r.Task)
					continue
				}
				nr, diff, err := eval.Regrade(t, r, v)
				if err != nil {
					refused++
					fmt.Fprintf(e.stdout, "%s: refused: %v\n", where, err)
					continue
				}
				if len(diff) == 0 {
					same++
				} else {
					changed++
					fmt.Fprintf(e.stdout, "%s: changed %s (success %v -> %v, reward %.3f -> %.3f)\n", where, strings.Join(diff, ", "),
						r.Metrics.Success, nr.Metrics.Success, r.Metrics.FinalReward, nr.Metrics.FinalReward)
					for _, why := range regradeWhy(t, r, &nr) {
						fmt.Fprintf(e.stdout, "    %s\n", why)
					}
				}
				regraded = append(regraded, nr)
				at = append(at, i)
			}
			fmt.Fprintf(e.stdout, "regraded %d episodes: %d unchanged, %d changed, %d refused\n", same+changed, same, changed, refused)
			var judgeErr error
			if jo.enabled {
				dir := filepath.Dir(args[0])
				if out != "" {
					dir = filepath.Dir(out)
				}
				judgeErr = e.judgeRegraded(cmd.Context(), dir, args[0], regraded, at, m, tasks, &jo)
			}
			var buf bytes.Buffer
			for i := range regraded {
				line, err := record.Marshal(&regraded[i])
				if err != nil {
					return err
				}
				buf.Write(line)
			}
			if out != "" {
				if err := writeAtomic(out, buf.Bytes()); err != nil {
					return err
				}
			}
			if judgeErr != nil {
				return judgeErr
			}
			if refused > 0 {
				return errPrinted
			}
			return nil
		},
	}
	c.Flags().StringVarP(&out, "out", "o", "", "write the re-graded records here")
	jo.flags(c.Flags())
	return c
}

// regradeWhy explains a changed diagnosis or mitigation: how the reader
// reads the recorded root cause now, and what mitigation now means.
func regradeWhy(t *engine.Task, old, now *record.Line) []string {
	var out []string
	if old.Metrics.Diagnosed != now.Metrics.Diagnosed {
		rootCause := ""
		if n := len(now.Trajectory); n > 0 {
			rootCause, _, _ = action.Resolution(now.Trajectory[n-1].Action)
		}
		v := t.DiagnoseText(rootCause)
		if v.OK {
			out = append(out, fmt.Sprintf("diagnosis %q is now read as correct", rootCause))
		} else {
			out = append(out, fmt.Sprintf("diagnosis %q is no longer accepted: %s", rootCause, strings.Join(v.Reasons, "; ")))
		}
	}
	if old.Metrics.Mitigated != now.Metrics.Mitigated {
		out = append(out, fmt.Sprintf("mitigated %v -> %v: mitigation is now what the world shows through the grader's window (every service healthy, banded metrics in band, the alert's condition gone), not the faults' fixed_when", old.Metrics.Mitigated, now.Metrics.Mitigated))
	}
	return out
}

func agentLabel(r *record.Line) string {
	if r.Model != "" {
		return r.Agent + "/" + r.Model
	}
	return r.Agent
}

// exportTrajectories writes recorded episodes as chat-format training data.
func (e *env) exportTrajectories(records, out, format, only, style string, replies bool) error {
	if format != "chat-jsonl" {
		return usageError{fmt.Errorf("--format takes chat-jsonl, not %q", format)}
	}
	if only != "success" && only != "failure" && only != "all" {
		return usageError{fmt.Errorf("--only takes success, failure or all, not %q", only)}
	}
	if !slices.Contains(llm.Styles, style) {
		return usageError{fmt.Errorf("--style takes %s, not %q", strings.Join(llm.Styles, ", "), style)}
	}
	recs, err := record.Read(records)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	n, skipped := 0, 0
	for i := range recs {
		r := &recs[i]
		if only == "success" && !r.Metrics.Success || only == "failure" && r.Metrics.Success {
			continue
		}
		ex, ok := eval.ChatExampleOf(r, llm.SystemPrompt(style), llm.FirstInstruction(style), style+"/"+llm.PromptVersion, replies)
		if !ok {
			skipped++
			continue
		}
		// Training data is read by tokenizers, not browsers: keep <, >
		// and & as they are.
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(ex); err != nil {
			return err
		}
		n++
	}
	if err := writeAtomic(out, buf.Bytes()); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "wrote %d conversations to %s", n, out)
	if skipped > 0 {
		fmt.Fprintf(e.stdout, " (%d episodes skipped: infrastructure errors, or no trajectory)", skipped)
	}
	fmt.Fprintln(e.stdout)
	return nil
}
