package cli

import (
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"
	"github.com/srezc/srezc/compiler"
	"github.com/srezc/srezc/eval"
)

type listRow struct {
	ID         string   `json:"id"`
	Difficulty string   `json:"difficulty"`
	Split      string   `json:"split"`
	Unseen     bool     `json:"unseen_incident"` // in test, with fault kinds no train incident has
	Tags       []string `json:"tags"`
	Budget     int      `json:"budget"`
	Optimal    int      `json:"optimal"`
	Certified  bool     `json:"certified"`
	Hash       string   `json:"hash"`
}

func (e *env) listCmd() *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "list [--json] [PATH...]",
		Short: "List incidents: id, difficulty, split, tags, budget, optimal steps, certification, hash",
		RunE: func(c *cobra.Command, args []string) error {
			tasks, err := e.load(args, compiler.Options{})
			if err != nil {
				return err
			}
			unseen := eval.UnseenIncidents(tasks)
			rows := make([]listRow, 0, len(tasks))
			for _, t := range tasks {
				rows = append(rows, listRow{t.ID, t.Difficulty, t.Split, unseen[t.ID], append([]string{}, t.Tags...), t.Budget, t.Optimal, t.Certified, t.Hash})
			}
			if asJSON {
				return writeJSON(e.stdout, rows)
			}
			w := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(w, "ID\tDIFFICULTY\tSPLIT\tBUDGET\tOPTIMAL\tCERTIFIED\tTAGS\tHASH")
			for _, r := range rows {
				cert := "yes"
				if !r.Certified {
					cert = "no"
				}
				split := r.Split
				if r.Unseen {
					split += "*"
				}
				tags := strings.Join(r.Tags, ",")
				if tags == "" {
					tags = "-"
				}
				fmt.Fprintf(w, "%s\t%s\t%s\t%d\t%d\t%s\t%s\t%s\n", r.ID, r.Difficulty, split, r.Budget, r.Optimal, cert, tags, r.Hash[:12])
			}
			if err := w.Flush(); err != nil {
				return err
			}
			if len(unseen) > 0 {
				fmt.Fprintln(e.stdout, "* unseen_incident: a test incident whose fault kinds no train incident has")
			}
			return nil
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return c
}
