package cli

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/srezc/srezc/compiler"
	"github.com/srezc/srezc/facts"
	"github.com/srezc/srezc/llm"
)

func (e *env) toolsCmd() *cobra.Command {
	var format string
	c := &cobra.Command{
		Use:   "tools [--format text|openai|json] [PATH...]",
		Short: "Print the agent's tools, as text or as JSON Schema tool definitions",
		Long: `Print the tools an agent has, from their declarations in the stdlib (and
PATH's modules): as the intro lists them (text), as OpenAI tool definitions
with a JSON Schema per tool (openai; what the tools agent sends), or as
srezc's own specification (json). A service argument is a string here; the
tools agent narrows it to an enum of the episode's services.`,
		RunE: func(c *cobra.Command, args []string) error {
			if format != "text" && format != "openai" && format != "json" {
				return usageError{fmt.Errorf("--format takes text, openai or json, not %q", format)}
			}
			m, _, err := e.loadModule(args, compiler.Options{})
			if err != nil {
				return err
			}
			specs := facts.ToolSpecs(m)
			var v any = specs
			switch format {
			case "text":
				for _, s := range specs {
					var names []string
					for _, a := range s.Args {
						n := a.Name
						if a.Optional {
							n += "?"
						}
						names = append(names, n)
					}
					fmt.Fprintf(e.stdout, "%s(%s)\n    %s\n", s.Name, strings.Join(names, ", "), s.Description)
				}
				return nil
			case "openai":
				v = llm.Schemas(specs, nil)
			}
			js, err := json.MarshalIndent(v, "", "  ")
			if err != nil {
				return err
			}
			fmt.Fprintf(e.stdout, "%s\n", js)
			return nil
		},
	}
	c.Flags().StringVar(&format, "format", "text", "text, openai or json")
	return c
}
