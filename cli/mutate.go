package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/srezc/srezc/compiler"
	"github.com/srezc/srezc/lang"
)

func (e *env) mutateCmd() *cobra.Command {
	var (
		names     []string
		out       string
		sample    int
		seed      uint64
		workers   int
		count     bool
		allFaults bool
		secret    string
	)
	c := &cobra.Command{
		Use:   "mutate [PATH...]",
		Short: "Expand incidents along fault × target × parameter × distractor × noise axes into certified tasks",
		Long: `Run the mutation blocks of the module: every variant of each one's space
(or --sample N of them, drawn with --seed) compiles with a derived alert and
its certified informed optimum as the expert plan. A variant that does not
certify is reported with the reason and not emitted; variants with the same
compiled behaviour are one task. With -o DIR the emitted incidents are
written, one file per mutation. --count reports the size of each axis and
of the viable space without compiling anything.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			files, diags := readInputs(args)
			m, more := lang.Analyze(files)
			diags = append(diags, more...).Sort()
			lang.WriteText(e.stderr, m.Files, e.shown(diags))
			if diags.HasErrors() {
				return errPrinted
			}
			muts := m.Mutations
			if len(names) > 0 {
				muts = nil
				for _, n := range names {
					mu := m.Mutation(n)
					if mu == nil {
						return usageError{fmt.Errorf("no mutation named %q.%s", n, lang.DidYouMean(n, mutationNames(m)))}
					}
					muts = append(muts, mu)
				}
			}
			if len(muts) == 0 {
				return fmt.Errorf("the module declares no mutation block")
			}
			for _, mu := range muts {
				if allFaults {
					mu.Faults, mu.HasFaults = faultNames(m), true
				}
				if count {
					e.printCount(m, mu)
					continue
				}
				opt := compiler.MutateOptions{Sample: sample, Seed: seed, Workers: workers}
				if specs := m.Reserving(mu); len(specs) > 0 {
					// A reserved partition is held out: only its secret
					// lets mutation emit it.
					opt.Keep = func(v *lang.Variant) bool {
						for _, s := range specs {
							if s.Reserved(v) && !s.SecretMatches(secret) {
								return false
							}
						}
						return true
					}
					if !specs[0].SecretMatches(secret) {
						fmt.Fprintf(e.stdout, "mutation %s: the held-out partition of %s is kept out without its secret seed\n", mu.Name, specs[0].Name)
					}
				}
				if err := e.mutate(m, mu, opt, out); err != nil {
					return err
				}
			}
			return nil
		},
	}
	c.Flags().StringSliceVar(&names, "mutation", nil, "run only these mutations (default: all)")
	c.Flags().StringVarP(&out, "out", "o", "", "write the emitted incidents to DIR/MUTATION.srez.hcl")
	c.Flags().IntVar(&sample, "sample", 0, "draw N variants of the viable space instead of all")
	c.Flags().Uint64Var(&seed, "seed", 1, "seed of --sample")
	c.Flags().IntVar(&workers, "workers", 0, "variants compiled in parallel (default: GOMAXPROCS)")
	c.Flags().BoolVar(&count, "count", false, "report the axes' sizes and the viable space, compiling nothing")
	c.Flags().BoolVar(&allFaults, "all-faults", false, "vary over every fault kind of the module")
	c.Flags().StringVar(&secret, "secret-seed", "", "the secret seed that lets a suite_spec's reserved partition be emitted")
	return c
}

func mutationNames(m *lang.Module) []string {
	var out []string
	for _, mu := range m.Mutations {
		out = append(out, mu.Name)
	}
	return out
}

func faultNames(m *lang.Module) []string {
	var out []string
	for _, f := range m.FaultKinds {
		out = append(out, f.Name)
	}
	return out
}

func (e *env) printCount(m *lang.Module, mu *lang.Mutation) {
	s := m.Sizes(mu)
	viable := 0
	m.Space(mu, func(*lang.Variant) bool { viable++; return true })
	fmt.Fprintf(e.stdout, "mutation %s (from %s)\n", mu.Name, mu.From)
	for _, row := range []struct {
		what string
		n    int
	}{{"fault kinds", s.Faults}, {"fault × target pairs", s.Targets}, {"× parameter values", s.Params}, {"distractor choices", s.Distractors}, {"noise choices", s.Noise}, {"viable variants", viable}} {
		fmt.Fprintf(e.stdout, "  %-22s %8d\n", row.what, row.n)
	}
}

func (e *env) mutate(m *lang.Module, mu *lang.Mutation, opt compiler.MutateOptions, out string) error {
	var src bytes.Buffer
	emitted, rejected, dups := 0, 0, 0
	compiler.Mutate(m, mu, opt, func(v *compiler.Variant) {
		id := v.Incident.Name
		axes := describeVariant(&v.Variant)
		switch {
		case v.DuplicateOf != "":
			dups++
			fmt.Fprintf(e.stdout, "duplicate %s (%s): behaves as %s\n", id, axes, v.DuplicateOf)
		case v.Task == nil:
			rejected++
			fmt.Fprintf(e.stdout, "rejected  %s (%s): %s\n", id, axes, strings.Join(v.Reasons, "; "))
		default:
			emitted++
			fmt.Fprintf(e.stdout, "emitted   %s (%s) %s, %d steps\n", id, axes, v.Difficulty, v.Task.Optimal)
			in := *v.Incident
			in.Alert, in.Expert, in.Difficulty = v.Task.Alert, v.Task.Expert, v.Difficulty
			if src.Len() > 0 {
				src.WriteByte('\n')
			}
			src.Write(lang.IncidentSource(&in, fmt.Sprintf("Mutation %s of %s: %s.", mu.Name, mu.From, axes)))
		}
	})
	fmt.Fprintf(e.stdout, "mutation %s: %d emitted, %d rejected, %d duplicates\n", mu.Name, emitted, rejected, dups)
	if out == "" || emitted == 0 {
		return nil
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	return writeAtomic(filepath.Join(out, mu.Name+lang.Ext), src.Bytes())
}

func describeVariant(v *lang.Variant) string {
	var b strings.Builder
	b.WriteString(v.Fault + " on " + v.Target)
	for _, p := range v.Params {
		b.WriteString(" " + p.Name + "=" + p.Value.String())
	}
	if v.Distractor != lang.None && v.Distractor != "" {
		b.WriteString(", " + v.Distractor + " on " + v.DistractorTarget)
	}
	if v.Noise != lang.None && v.Noise != "" {
		b.WriteString(", noise " + v.Noise)
	}
	return b.String()
}
