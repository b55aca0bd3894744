package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/srezc/srezc/compiler"
	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/lang"
	"github.com/srezc/srezc/suitegen"
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
		compile   string
		axes      axisFlags
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
						_, embedded := m.EmbeddedNames()
						return usageError{fmt.Errorf("no mutation named %q.%s", n, lang.DidYouMean(n, append(lang.MutationNames(m), embedded...)))}
					}
					muts = append(muts, mu)
				}
			}
			if len(muts) == 0 {
				return fmt.Errorf("the module declares no mutation block")
			}
			totals := map[string]*spaceCount{}
			for _, mu := range muts {
				// The axes flags edit a copy: an embedded mutation is
				// shared by every module of the process.
				cp := *mu
				mu := &cp
				if allFaults {
					mu.Faults, mu.HasFaults = faultNames(m), true
				}
				if count {
					e.printCount(m, mu, totals)
					continue
				}
				if err := axes.apply(m, mu); err != nil {
					return err
				}
				opt := compiler.MutateOptions{Sample: sample, Seed: seed, Workers: workers, Cache: e.certified}
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
					} else {
						// Held-out ids are keyed with the secret, as
						// srezc suite build keys them.
						opt.IDKey = suitegen.HeldOutIDKey(secret)
						opt.KeyOnly = func(v *lang.Variant) bool {
							return slices.ContainsFunc(specs, func(s *lang.SuiteSpec) bool { return s.Reserved(v) })
						}
					}
				}
				if err := e.mutate(m, mu, opt, out, compile); err != nil {
					return err
				}
			}
			if count {
				e.printSpaces(totals)
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
	c.Flags().StringVar(&compile, "compile", "", "also write each emitted task as IR to DIR/ID.srez.ir and print the suite hash")
	c.Flags().StringSliceVar(&axes.faults, "faults", nil, "override the faults axis")
	c.Flags().StringSliceVar(&axes.targets, "targets", nil, "override the targets axis")
	c.Flags().StringSliceVar(&axes.distractors, "distractors", nil, "override the distractors axis (none for no distractor)")
	c.Flags().StringSliceVar(&axes.noise, "noise", nil, "override the noise axis (none for no noise)")
	c.Flags().StringVar(&axes.parameters, "parameters", "", "override the parameters choice: domain or default")
	return c
}

// axisFlags override a mutation's axes from the command line; each name
// is checked against the module as the language checks it.
type axisFlags struct {
	faults, targets, distractors, noise []string
	parameters                          string
}

func (a *axisFlags) apply(m *lang.Module, mu *lang.Mutation) error {
	check := func(flag string, names []string, known func(string) bool, candidates []string) error {
		for _, n := range names {
			if !known(n) {
				return usageError{fmt.Errorf("--%s: unknown %q.%s", flag, n, lang.DidYouMean(n, candidates))}
			}
		}
		return nil
	}
	var kinds, services, dks, nps []string
	for _, f := range m.FaultKinds {
		kinds = append(kinds, f.Name)
	}
	if base := m.MutationBase(mu); base != nil {
		if sys := m.System(base.System); sys != nil {
			for _, s := range sys.Services {
				services = append(services, s.Name)
			}
		}
	}
	for _, d := range m.DistractorKinds {
		dks = append(dks, d.Name)
	}
	for _, n := range m.NoisePatterns {
		nps = append(nps, n.Name)
	}
	dks, nps = append(dks, lang.None), append(nps, lang.None)
	for _, c := range []struct {
		flag  string
		names []string
		cands []string
	}{{"faults", a.faults, kinds}, {"targets", a.targets, services}, {"distractors", a.distractors, dks}, {"noise", a.noise, nps}} {
		if err := check(c.flag, c.names, func(n string) bool { return slices.Contains(c.cands, n) }, c.cands); err != nil {
			return err
		}
	}
	if a.faults != nil {
		mu.Faults, mu.HasFaults = a.faults, true
	}
	if a.targets != nil {
		mu.Targets, mu.HasTargets = a.targets, true
	}
	if a.distractors != nil {
		mu.Distractors = a.distractors
	}
	if a.noise != nil {
		mu.Noise = a.noise
	}
	switch a.parameters {
	case "":
	case "domain", "default":
		mu.Parameters = a.parameters
	default:
		return usageError{fmt.Errorf("--parameters: %q is not domain or default", a.parameters)}
	}
	return nil
}

func faultNames(m *lang.Module) []string {
	var out []string
	for _, f := range m.FaultKinds {
		out = append(out, f.Name)
	}
	return out
}

// spaceCount totals the viable variants of the mutations --count
// reported, by space.
type spaceCount struct{ mutations, viable int }

// countSpace names the space a mutation's variants belong to.
func countSpace(mu *lang.Mutation) string {
	switch {
	case mu.Multi() && mu.Cascade:
		return "multi-fault cascade"
	case mu.Multi():
		return "multi-fault"
	case mu.Cascade:
		return "single-fault cascade"
	}
	return "single-fault"
}

func (e *env) printCount(m *lang.Module, mu *lang.Mutation, totals map[string]*spaceCount) {
	s := m.Sizes(mu)
	viable := 0
	m.Space(mu, func(*lang.Variant) bool { viable++; return true })
	fmt.Fprintf(e.stdout, "mutation %s (from %s)\n", mu.Name, mu.From)
	type row struct {
		what string
		n    int
	}
	rows := []row{{"fault kinds", s.Faults}, {"fault × target pairs", s.Targets}, {"× parameter values", s.Params}}
	if mu.Multi() {
		rows = append(rows, row{"second fault kinds", s.SecondFaults}, row{"second fault × targets", s.SecondTargets}, row{"× parameter values", s.SecondParams},
			row{"placed fault pairs", s.Pairs})
	}
	rows = append(rows, row{"distractor choices", s.Distractors}, row{"noise choices", s.Noise}, row{"viable variants", viable})
	fmt.Fprintf(e.stdout, "  %-22s %s\n", "space", countSpace(mu))
	for _, r := range rows {
		fmt.Fprintf(e.stdout, "  %-22s %8d\n", r.what, r.n)
	}
	t := totals[countSpace(mu)]
	if t == nil {
		t = &spaceCount{}
		totals[countSpace(mu)] = t
	}
	t.mutations++
	t.viable += viable
}

// printSpaces totals --count's mutations by space.
func (e *env) printSpaces(totals map[string]*spaceCount) {
	for _, space := range []string{"single-fault", "single-fault cascade", "multi-fault", "multi-fault cascade"} {
		if t := totals[space]; t != nil {
			fmt.Fprintf(e.stdout, "%s space: %d mutations, %d viable variants\n", space, t.mutations, t.viable)
		}
	}
}

// mutate runs one mutation, reporting each variant; emitted incidents
// stream into a temporary file renamed into DIR at the end (nothing
// half-written is left), and with compileDir each emitted task is written
// as IR too, the suite hash printed last.
func (e *env) mutate(m *lang.Module, mu *lang.Mutation, opt compiler.MutateOptions, out, compileDir string) error {
	var src *os.File
	if out != "" {
		if err := os.MkdirAll(out, 0o755); err != nil {
			return err
		}
		f, err := os.CreateTemp(out, ".srezc-*")
		if err != nil {
			return err
		}
		defer os.Remove(f.Name()) // a no-op once renamed
		defer f.Close()
		src = f
	}
	if compileDir != "" {
		if err := os.MkdirAll(compileDir, 0o755); err != nil {
			return err
		}
	}
	emitted, rejected, dups := 0, 0, 0
	var tasks []*engine.Task
	var failure error
	compiler.Mutate(m, mu, opt, func(v *compiler.Variant) {
		id := v.Incident.Name
		axes := describeVariant(&v.Variant)
		switch {
		case failure != nil:
		case v.DuplicateOf != "":
			dups++
			fmt.Fprintf(e.stdout, "duplicate %s (%s): behaves as %s\n", id, axes, v.DuplicateOf)
		case v.Task == nil:
			rejected++
			fmt.Fprintf(e.stdout, "rejected  %s (%s): %s\n", id, axes, strings.Join(v.Reasons, "; "))
		default:
			emitted++
			fmt.Fprintf(e.stdout, "emitted   %s (%s) %s, %d steps\n", id, axes, v.Difficulty, v.Task.Optimal)
			if src != nil {
				in := *v.Incident
				in.Alert, in.Expert, in.Difficulty = v.Task.Alert, compiler.SourceExpert(v.Task), v.Difficulty
				if emitted > 1 {
					_, failure = src.WriteString("\n")
				}
				if failure == nil {
					_, failure = src.Write(lang.IncidentSource(&in, fmt.Sprintf("Mutation %s of %s: %s.", mu.Name, mu.From, axes)))
				}
			}
			if compileDir != "" && failure == nil {
				t := *v.Task
				t.Difficulty = v.Difficulty
				data, err := engine.EncodeTask(&t)
				if err == nil {
					err = writeAtomic(filepath.Join(compileDir, t.ID+".srez.ir"), data)
				}
				failure = err
				// The suite hash reads only ids and hashes: keep those,
				// not the tasks, so memory stays flat over thousands.
				tasks = append(tasks, &engine.Task{ID: t.ID, Hash: t.Hash})
			}
		}
	})
	if failure != nil {
		return failure
	}
	fmt.Fprintf(e.stdout, "mutation %s: %d emitted, %d rejected, %d duplicates\n", mu.Name, emitted, rejected, dups)
	if compileDir != "" && len(tasks) > 0 {
		fmt.Fprintf(e.stdout, "suite %s\n", engine.SuiteHash(tasks))
	}
	if src == nil || emitted == 0 {
		return nil
	}
	if err := src.Close(); err != nil {
		return err
	}
	if err := os.Chmod(src.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(src.Name(), filepath.Join(out, mu.Name+lang.Ext))
}

func describeVariant(v *lang.Variant) string {
	var b strings.Builder
	b.WriteString(v.Fault + " on " + v.Target)
	for _, p := range v.Params {
		b.WriteString(" " + p.Name + "=" + p.Value.String())
	}
	if v.Fault2 != "" {
		b.WriteString(" + " + v.Fault2 + " on " + v.Target2)
		for _, p := range v.Params2 {
			b.WriteString(" " + p.Name + "=" + p.Value.String())
		}
	}
	if v.Cascade {
		b.WriteString(", cascade")
	}
	if v.Distractor != lang.None && v.Distractor != "" {
		b.WriteString(", " + v.Distractor + " on " + v.DistractorTarget)
	}
	if v.Noise != lang.None && v.Noise != "" {
		b.WriteString(", noise " + v.Noise)
	}
	return b.String()
}
