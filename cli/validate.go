package cli

import (
	"fmt"

	"github.com/spf13/cobra"
	"github.com/srezc/srezc/compiler"
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
			_, cdiags := compiler.CompileModule(m)
			diags = append(diags, cdiags...).Sort()
			if format == "json" {
				if err := lang.WriteJSON(e.stdout, diags); err != nil {
					return err
				}
			} else {
				lang.WriteText(e.stderr, m.Files, diags)
				if n := diags.Errors(); n > 0 {
					fmt.Fprintf(e.stderr, "%d error(s)\n", n)
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
