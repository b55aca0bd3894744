package cli

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/spf13/cobra"
	"github.com/srezc/srezc/certify"
	"github.com/srezc/srezc/compiler"
	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/lang"
	"github.com/srezc/srezc/value"
)

func (e *env) showCmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "show TASK [PATH...]",
		Short: "Print an incident's structure for its author, ground truth marked hidden",
		Long: `Print an incident's structure for its author: what the agent is shown (the
alert, the services and their dependencies, the budget), and, marked
[hidden], the ground truth an agent never sees — faults with their
parameters, mechanisms and remedies, distractors, noise, the rubric — with
the expert plan, the certified plan, the evidence set and the verdict.
TASK is the incident id; with no PATH the embedded default suite is read.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			id := args[0]
			m, tasks, err := e.loadModule(args[1:], compiler.Options{KeepUncertified: true})
			if err != nil {
				return err
			}
			tk, err := pickTask(tasks, id)
			if err != nil {
				return err
			}
			in := m.Incident(id)
			writeShow(e.stdout, m, in, tk)
			return nil
		},
	}
	return c
}

func writeShow(w io.Writer, m *lang.Module, in *lang.Incident, t *engine.Task) {
	fmt.Fprintf(w, "incident %s  (%s, %s", t.ID, t.Difficulty, t.Split)
	if len(t.Tags) > 0 {
		fmt.Fprintf(w, "; tags %s", strings.Join(t.Tags, ", "))
	}
	fmt.Fprintf(w, ")\nhash %s\n", t.Hash)
	if t.Title != "" {
		fmt.Fprintf(w, "title: %s\n", t.Title)
	}
	fmt.Fprintf(w, "\nshown to the agent:\n  alert: %s\n  budget: %d steps\n  services (system %s):\n", t.Alert, t.Budget, in.System)
	for _, s := range t.Services {
		var deps []string
		for i, d := range s.Deps {
			deps = append(deps, s.DepRoles[i]+" -> "+t.Services[d].Name)
		}
		line := fmt.Sprintf("    %-14s %-14s %s", s.Name, s.Kind, strings.Join(deps, ", "))
		fmt.Fprintln(w, strings.TrimRight(line, " "))
	}
	fmt.Fprintf(w, "\n[hidden] ground truth:\n")
	for _, fu := range in.Faults {
		fk := m.FaultKind(fu.Name)
		fmt.Fprintf(w, "  fault %s on %s", fu.Name, fu.Target)
		if len(fu.Params) > 0 {
			names := make([]string, 0, len(fu.Params))
			for n := range fu.Params {
				names = append(names, n)
			}
			sort.Strings(names)
			var ps []string
			for _, n := range names {
				ps = append(ps, n+"="+fu.Params[n].String())
			}
			fmt.Fprintf(w, " (%s)", strings.Join(ps, ", "))
		}
		fmt.Fprintln(w)
		if fk != nil {
			fmt.Fprintf(w, "    mechanism %s; fixed when %s\n", fk.Mechanism, exprText(fk.FixedWhen))
			for _, r := range fk.Remedies {
				if r.Effect == "update_config" {
					v := "the site's value before the fault"
					if r.Value.K != value.Null {
						v = r.Value.String()
					}
					fmt.Fprintf(w, "    remedy: update_config %s to %s\n", r.Key, v)
				} else {
					fmt.Fprintf(w, "    remedy: %s\n", r.Effect)
				}
			}
		}
	}
	for _, du := range in.Distractors {
		fmt.Fprintf(w, "  distractor %s on %s\n", du.Name, du.Target)
	}
	if len(t.Changes) > 0 {
		// list_changes shows these, newest first; which one a fault came
		// from is the hidden part.
		fmt.Fprintf(w, "  change history (list_changes; alert raised %s):\n", engine.WeekMinute(int(t.AlertMinute)))
		for _, c := range t.Changes {
			sl := &t.Slots[c.Slot]
			from := "benign"
			if c.Fault >= 0 {
				from = "fault " + t.Faults[c.Fault].Kind
			}
			fmt.Fprintf(w, "    %s  %s  %s.%s: %s -> %s  (%s)\n", engine.WeekMinute(int(c.Minute)), c.Actor, t.Services[c.Service].Name, sl.Name,
				t.ValueOf(sl.Kind, c.Old), t.ValueOf(sl.Kind, c.New), from)
		}
	}
	for _, n := range in.Noise {
		target := "every service"
		if n.Target != "" {
			target = n.Target
		}
		fmt.Fprintf(w, "  noise %s on %s\n", n.Name, target)
	}
	rubric := in.Rubric
	if rubric == "" {
		rubric = "native"
	}
	fmt.Fprintf(w, "  rubric %s; hold %d ticks; warm-up %d ticks\n", rubric, t.Hold, in.Warmup)
	fmt.Fprintf(w, "\n[hidden] plans:\n  expert (%d steps):\n", len(t.Expert))
	for i, a := range t.Expert {
		fmt.Fprintf(w, "    %2d. %s\n", i+1, a)
	}
	if len(t.Plan) > 0 {
		fmt.Fprintf(w, "  certified optimum (%d steps):\n", t.Optimal)
		for i, a := range t.Plan {
			fmt.Fprintf(w, "    %2d. %s\n", i+1, a)
		}
	}
	var ev []string
	for _, r := range t.Evidence {
		ev = append(ev, certify.ReadText(t, r))
	}
	fmt.Fprintf(w, "  evidence: %s\n", strings.Join(ev, ", "))
	if t.Certified {
		fmt.Fprintf(w, "\ncertified: yes\n")
	} else {
		fmt.Fprintf(w, "\ncertified: no\n")
		for _, u := range t.Uncertified {
			fmt.Fprintf(w, "  - %s\n", u)
		}
	}
}

func exprText(x *lang.Expr) string {
	if x == nil {
		return "(none)"
	}
	return x.Src
}
