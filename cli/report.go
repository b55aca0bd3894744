package cli

import (
	"fmt"
	"math"
	"path/filepath"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/srezc/srezc/eval"
	"github.com/srezc/srezc/record"
	"github.com/srezc/srezc/report"
)

// reportOptions are the report's flags, shared by srezc report and srezc
// eval.
type reportOptions struct {
	samples    int
	seed       uint64
	maxInfra   float64
	rankAnyway bool
	split      string
}

func (o *reportOptions) flags(f *pflag.FlagSet, seedFlag string) {
	f.IntVar(&o.samples, "bootstrap", report.DefaultBootstrapSamples, "bootstrap resamples behind each confidence interval")
	f.Uint64Var(&o.seed, seedFlag, report.DefaultSeed, "seed of the bootstrap's generator (at least 1)")
	f.Float64Var(&o.maxInfra, "max-infra-share", report.DefaultMaxInfraShare, "largest infra-error share a ranked model may have (0: none)")
	f.BoolVar(&o.rankAnyway, "rank-anyway", false, "rank models whose infra-error share is above --max-infra-share")
	f.StringVar(&o.split, "split", "", "split outcomes by a grader-side tag: noise (whether noise touched the evidence the agent read)")
}

func (o *reportOptions) check(seedFlag string) (report.Options, error) {
	if o.samples < 1 {
		return report.Options{}, usageError{fmt.Errorf("--bootstrap must be at least 1")}
	}
	if o.seed < 1 {
		return report.Options{}, usageError{fmt.Errorf("--%s must be at least 1", seedFlag)}
	}
	if !(o.maxInfra >= 0 && o.maxInfra <= 1) {
		return report.Options{}, usageError{fmt.Errorf("--max-infra-share must be between 0 and 1")}
	}
	if o.split != "" && o.split != "noise" {
		return report.Options{}, usageError{fmt.Errorf("--split takes noise, not %q", o.split)}
	}
	opts := report.Options{BootstrapSamples: o.samples, Seed: o.seed, MaxInfraShare: o.maxInfra, RankAnyway: o.rankAnyway, SplitNoise: o.split == "noise"}
	if o.maxInfra == 0 {
		// Zero means "the default" to report.Options; any share above
		// the smallest float is at least one episode's.
		opts.MaxInfraShare = math.SmallestNonzeroFloat64
	}
	return opts, nil
}

// writeReport reads dir/records.jsonl and writes the report into dir.
func writeReport(dir string, opts report.Options) (*report.Summary, error) {
	records, err := report.Read(filepath.Join(dir, "records.jsonl"))
	if err != nil {
		return nil, err
	}
	// The report links nothing of the action grammar; the judge's
	// disagreements show the answer as the grader parsed it.
	opts.Resolution = resolutionOf
	sum, err := report.Build(records, opts)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, "records.jsonl"), err)
	}
	return sum, report.Write(dir, sum)
}

func (e *env) reportCmd() *cobra.Command {
	var ro reportOptions
	c := &cobra.Command{
		Use:   "report DIR [--bootstrap N] [--seed S] [--max-infra-share F] [--rank-anyway] [--split noise]",
		Short: "Write the report of an evaluation from DIR/records.jsonl: tables, statistics and plots",
		Long: `Read DIR/records.jsonl (as srezc eval writes it) and write into DIR:

  summary.json   per agent and model: metrics overall and per difficulty,
                 split, task, tag and family; 95% bootstrap intervals over
                 tasks; pass^k; the score with infra errors as failures;
                 rank; failure modes; P(mitigation | diagnosis); usage;
                 paired differences between models; noise deltas
  summary.md     the same as tables
  report.html    one self-contained page with every plot and table
  plots/*.svg    marks, success_vs_coverage, heatmap, components, errors,
                 infra

srezc eval writes the same at the end of a sweep. Infra errors are
excluded from every metric and counted; a model whose infra-error share
exceeds --max-infra-share is not ranked unless --rank-anyway. --split noise
adds a table of outcomes split by whether noise touched the evidence the
agent read (each record's noise_events, which agents never see). Output is
byte-identical for the same records and flags.`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			opts, err := ro.check("seed")
			if err != nil {
				return err
			}
			sum, err := writeReport(args[0], opts)
			if err != nil {
				return err
			}
			for _, m := range sum.Models {
				rank := "unranked"
				if m.Rank > 0 {
					rank = fmt.Sprintf("rank %d", m.Rank)
				}
				if m.Episodes == 0 {
					fmt.Fprintf(e.stdout, "%-9s %-8s no scored episode  (%d infra errors)\n", m.Name, rank, m.InfraErrors)
					continue
				}
				fmt.Fprintf(e.stdout, "%-9s %-8s marks %.1f [%.1f, %.1f]  success %.3f  (%d episodes, %d infra errors)\n",
					m.Name, rank, m.CI.Marks.Value, m.CI.Marks.Low, m.CI.Marks.High, m.CI.SuccessRate.Value, m.Episodes, m.InfraErrors)
				for _, g := range m.ByNoiseRead {
					if g.Episodes > 0 {
						fmt.Fprintf(e.stdout, "%-9s   %-13s success %.3f  marks %.1f  (%d episodes)\n", "", g.Name, g.Metrics.Get("success_rate"), g.Metrics.Get("marks"), g.Episodes)
					}
				}
			}
			fmt.Fprintf(e.stdout, "wrote %s\n", filepath.Join(args[0], "{summary.json,summary.md,report.html,plots/*.svg}"))
			return nil
		},
	}
	ro.flags(c.Flags(), "seed")
	return c
}

func resolutionOf(r *record.Line) (rootCause, fix string) {
	a, _ := eval.ResolutionOf(r)
	return a.RootCause, a.Fix
}
