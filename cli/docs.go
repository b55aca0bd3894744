package cli

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"
	"github.com/srezc/srezc/lang"
	"github.com/srezc/srezc/refdoc"
)

func (e *env) docsCmd() *cobra.Command {
	var out string
	c := &cobra.Command{
		Use:   "docs [-o DIR] [PATH...]",
		Short: "Write the vocabulary reference (service kinds, fault kinds, tools, diagnosis words) as markdown",
		Long: `Write the reference of everything an incident can name, generated from the
stdlib's declarations: service kinds (config keys with type, default, healthy
band, unit; metrics; statuses), systems, fault kinds (parameters and domains,
where they apply, mechanism), tools and their arguments, distractor kinds,
noise patterns, and the diagnosis vocabulary. With PATH, the declarations of
those files are documented too. With -o, one markdown file per part goes in
DIR (docs/reference is this repository's copy); without, all of it goes to
stdout.`,
		RunE: func(c *cobra.Command, args []string) error {
			var files []*lang.File
			if len(args) > 0 {
				fs, diags := lang.ReadPaths(args)
				if diags.HasErrors() {
					lang.WriteText(e.stderr, fs, diags)
					return errPrinted
				}
				files = fs
			}
			m, diags := lang.Analyze(files)
			if diags.HasErrors() {
				lang.WriteText(e.stderr, m.Files, diags)
				return errPrinted
			}
			docs := refdoc.Generate(m, len(args) == 0)
			if out == "" {
				for _, d := range docs {
					fmt.Fprintln(e.stdout, d.Text)
				}
				return nil
			}
			if err := os.MkdirAll(out, 0o755); err != nil {
				return err
			}
			for _, d := range docs {
				if err := writeAtomic(filepath.Join(out, d.Name), []byte(d.Text)); err != nil {
					return err
				}
			}
			fmt.Fprintf(e.stderr, "wrote %d files to %s\n", len(docs), out)
			return nil
		},
	}
	c.Flags().StringVarP(&out, "out", "o", "", "write one markdown file per part into this folder")
	return c
}
