package cli

import (
	"encoding/json"
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"
	"github.com/srezc/srezc/compiler"
)

type listRow struct {
	ID         string `json:"id"`
	Difficulty string `json:"difficulty"`
	Split      string `json:"split"`
	Budget     int    `json:"budget"`
	Certified  bool   `json:"certified"`
	Hash       string `json:"hash"`
}

func (e *env) listCmd() *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "list [--json] [PATH...]",
		Short: "List incidents: id, difficulty, split, budget, hash",
		RunE: func(c *cobra.Command, args []string) error {
			tasks, err := e.load(args, compiler.Options{})
			if err != nil {
				return err
			}
			rows := make([]listRow, 0, len(tasks))
			for _, t := range tasks {
				rows = append(rows, listRow{t.ID, t.Difficulty, t.Split, t.Budget, t.Certified, t.Hash})
			}
			if asJSON {
				b, err := json.MarshalIndent(rows, "", "  ")
				if err != nil {
					return err
				}
				fmt.Fprintln(e.stdout, string(b))
				return nil
			}
			w := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(w, "ID\tDIFFICULTY\tSPLIT\tBUDGET\tCERTIFIED\tHASH")
			for _, r := range rows {
				cert := "yes"
				if !r.Certified {
					cert = "no"
				}
				fmt.Fprintf(w, "%s\t%s\t%s\t%d\t%s\t%s\n", r.ID, r.Difficulty, r.Split, r.Budget, cert, r.Hash[:12])
			}
			return w.Flush()
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return c
}
