package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/srezc/srezc/engine"
)

// diagnoseReport is how the grader reads one answer to one incident.
type diagnoseReport struct {
	ID      string   `json:"id"`
	Answer  string   `json:"answer"`
	Correct bool     `json:"correct"`
	Faults  []string `json:"faults"`
	Matched []bool   `json:"matched"`
	Blamed  []string `json:"blamed"`
	Reasons []string `json:"reasons"`
	Read    []string `json:"read"`
}

func (e *env) diagnoseCmd() *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "diagnose [--json] TASK ANSWER [PATH...]",
		Short: "Show how the grader reads a root-cause answer to an incident",
		Long: `Read ANSWER as the root_cause argument of resolve_incident on incident
TASK and print the verdict: which faults it diagnoses, which services it
blames, and why it is rejected. For authors checking that their incident's
answers read as they should; the episode's grade also needs the world
mitigated and the writes specific. ANSWER may be the structured form, a JSON
list of {"service", "what", "explanation"}. Exit 0 when the answer is
correct, 1 when not, 2 for an unknown TASK.`,
		Args: cobra.MinimumNArgs(2),
		RunE: func(c *cobra.Command, args []string) error {
			_, _, t, err := e.certifyIncident(args[0], args[2:])
			if err != nil {
				return err
			}
			rep := diagnoseReportOf(t, args[1])
			if asJSON {
				if err := writeJSON(e.stdout, rep); err != nil {
					return err
				}
			} else {
				writeDiagnoseReport(e.stdout, rep)
			}
			if !rep.Correct {
				return errPrinted
			}
			return nil
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print the verdict as JSON")
	return c
}

func diagnoseReportOf(t *engine.Task, answer string) diagnoseReport {
	v := t.DiagnoseText(answer)
	rep := diagnoseReport{ID: t.ID, Answer: answer, Correct: v.OK, Matched: v.Matched, Reasons: v.Reasons, Blamed: []string{}, Read: append([]string{}, v.Read...)}
	if rep.Reasons == nil {
		rep.Reasons = []string{}
	}
	for _, f := range t.Faults {
		rep.Faults = append(rep.Faults, f.Kind+" on "+t.Services[f.Service].Name)
	}
	for _, s := range v.Blamed {
		if s >= 0 {
			rep.Blamed = append(rep.Blamed, t.Services[s].Name)
		}
	}
	return rep
}

func writeDiagnoseReport(w io.Writer, rep diagnoseReport) {
	verdict := "correct"
	if !rep.Correct {
		verdict = "not correct"
	}
	fmt.Fprintf(w, "%s: %s\n", rep.ID, verdict)
	for i, f := range rep.Faults {
		mark := "missed"
		if rep.Matched[i] {
			mark = "diagnosed"
		}
		fmt.Fprintf(w, "  fault %s: %s\n", f, mark)
	}
	fmt.Fprintf(w, "  blames: %s\n", strings.Join(rep.Blamed, ", "))
	for _, r := range rep.Read {
		fmt.Fprintf(w, "  read: %s\n", r)
	}
	for _, r := range rep.Reasons {
		fmt.Fprintf(w, "  - %s\n", r)
	}
}
