package cli

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/srezc/srezc/lang"
	"github.com/srezc/srezc/suitegen"
)

func (e *env) suiteCmd() *cobra.Command {
	c := &cobra.Command{Use: "suite", Short: "Generate task suites"}
	var out, secret string
	var workers int
	build := &cobra.Command{
		Use:   "build SPEC [PATH...] -o DIR",
		Short: "Generate the suite a suite_spec block describes",
		Long: `Generate a suite from the suite_spec named SPEC: certified variants of its
mutations, drawn with its seed, split into train, dev and test by its shares,
each with a difficulty estimated from its certified features and calibrated on
the train split's scores; greedy's success per difficulty on train and dev is
reported. Writes DIR/SPEC.srez.hcl (the incidents) and DIR/SPEC_suite.srez.hcl
(the suite's lists). The same module and spec give byte-identical files.

With --secret-seed the test split is held out: generated at evaluation time
from a seed that is never published (the spec publishes its SHA-256 as
secret_hash), from the spec's reserved partition when it has one; such tasks
are tagged heldout, and srezc eval keeps their trajectories out of the
records unless forced. Without the secret, the reserved partition is never
emitted, by suite build or by mutate.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if out == "" {
				return usageError{fmt.Errorf("suite build needs -o DIR")}
			}
			files, diags := readInputs(args[1:])
			m, more := lang.Analyze(files)
			diags = append(diags, more...).Sort()
			lang.WriteText(e.stderr, m.Files, e.shown(diags))
			if diags.HasErrors() {
				return errPrinted
			}
			spec := m.SuiteSpec(args[0])
			if spec == nil {
				var names []string
				for _, s := range m.SuiteSpecs {
					names = append(names, s.Name)
				}
				return usageError{fmt.Errorf("no suite_spec named %q.%s", args[0], lang.DidYouMean(args[0], names))}
			}
			s, err := suitegen.BuildUnder(e.certified, m, spec, workers, secret)
			if err != nil {
				return err
			}
			incidents, manifest := s.Sources()
			if err := os.MkdirAll(out, 0o755); err != nil {
				return err
			}
			if err := writeAtomic(filepath.Join(out, spec.Name+lang.Ext), incidents); err != nil {
				return err
			}
			if err := writeAtomic(filepath.Join(out, spec.Name+"_suite"+lang.Ext), manifest); err != nil {
				return err
			}
			counts := map[string]int{}
			for _, t := range s.Tasks {
				counts[t.Task.Difficulty]++
				counts[t.Task.Split]++
			}
			fmt.Fprintf(e.stdout, "suite %s: %d tasks (%d easy, %d medium, %d hard; %d train, %d dev, %d test); %d variants rejected, %d duplicates\n",
				spec.Name, len(s.Tasks), counts["easy"], counts["medium"], counts["hard"], counts["train"], counts["dev"], counts["test"], s.Rejected, s.Duplicates)
			fmt.Fprintf(e.stdout, "near-duplicates: %d drawn in the band of an earlier task, %d left out (at most %d a band)\n", s.NearDuplicates, s.NearDropped, spec.NearDuplicates)
			fmt.Fprintf(e.stdout, "difficulty: score <= %.2f easy, > %.2f hard (calibrated on train against greedy)\n", s.Thresholds[0], s.Thresholds[1])
			for _, c := range s.Calibrations {
				fmt.Fprintf(e.stdout, "greedy on %-5s  easy %.3f (%d)  medium %.3f (%d)  hard %.3f (%d)  falls with difficulty: %v\n", c.Split,
					c.Success["easy"], c.Tasks["easy"], c.Success["medium"], c.Tasks["medium"], c.Success["hard"], c.Tasks["hard"], c.Monotone)
			}
			return nil
		},
	}
	build.Flags().StringVarP(&out, "out", "o", "", "directory to write the suite to")
	build.Flags().IntVar(&workers, "workers", 0, "variants compiled in parallel (default: GOMAXPROCS)")
	build.Flags().StringVar(&secret, "secret-seed", "", "generate the held-out test split from this secret seed (its SHA-256 must be the spec's secret_hash)")
	c.AddCommand(build)
	return c
}
