package cli

import (
	"fmt"

	"github.com/spf13/cobra"
	"github.com/srezc/srezc/compiler"
	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/lang"
)

func (e *env) validateCmd() *cobra.Command {
	var format string
	c := &cobra.Command{
		Use:   "validate [--format text|json] [PATH...]",
		Short: "Check incident files and folders; exit 1 if there are errors",
		RunE: func(c *cobra.Command, args []string) error {
			if format != "text" && format != "json" {
				return usageError{fmt.Errorf("--format must be text or json, not %q", format)}
			}
			files, diags := readInputs(args)
			m, more := lang.Analyze(files)
			diags = append(diags, more...)
			tasks, cdiags := compiler.CompileWith(m, compiler.Options{Cache: e.certified})
			diags = append(diags, cdiags...).Sort()
			if format == "json" {
				if err := lang.WriteJSON(e.stdout, diags); err != nil {
					return err
				}
			} else {
				lang.WriteText(e.stderr, m.Files, diags)
				if n := diags.Errors(); n > 0 {
					fmt.Fprintf(e.stderr, "%d error(s)\n", n)
				} else {
					fmt.Fprintln(e.stderr, validateSummary(len(m.Incidents), tasks, len(diags)))
				}
			}
			if diags.HasErrors() {
				return errPrinted
			}
			return nil
		},
	}
	c.Flags().StringVar(&format, "format", "text", "output format: text or json")
	return c
}

// validateSummary is the line a clean run ends with, so that silence is
// never the only sign of success: "45 incidents, 45 certified". Incidents
// under sre_zero may import uncertified (a warning each).
func validateSummary(incidents int, tasks []*engine.Task, warnings int) string {
	certified := 0
	for _, t := range tasks {
		if t.Certified {
			certified++
		}
	}
	noun := "incidents"
	if incidents == 1 {
		noun = "incident"
	}
	s := fmt.Sprintf("%d %s, %d certified", incidents, noun, certified)
	if warnings > 0 {
		s += fmt.Sprintf(", %d warning(s)", warnings)
	}
	return s
}
