package cli

import (
	"fmt"
	"math"
	"path/filepath"

	"github.com/spf13/cobra"
	"github.com/srezc/srezc/report"
)

func (e *env) reportCmd() *cobra.Command {
	var (
		samples    int
		seed       uint64
		maxInfra   float64
		rankAnyway bool
	)
	c := &cobra.Command{
		Use:   "report DIR [--bootstrap N] [--seed S] [--max-infra-share F] [--rank-anyway]",
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

Infra errors are excluded from every metric and counted; a model whose
infra-error share exceeds --max-infra-share is not ranked unless
--rank-anyway. Output is byte-identical for the same records and flags.`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			if samples < 1 {
				return usageError{fmt.Errorf("--bootstrap must be at least 1")}
			}
			if seed < 1 {
				return usageError{fmt.Errorf("--seed must be at least 1")}
			}
			if !(maxInfra >= 0 && maxInfra <= 1) {
				return usageError{fmt.Errorf("--max-infra-share must be between 0 and 1")}
			}
			opts := report.Options{BootstrapSamples: samples, Seed: seed, MaxInfraShare: maxInfra, RankAnyway: rankAnyway}
			if maxInfra == 0 {
				// Zero means "the default" to report.Options; any share
				// above the smallest float is at least one episode's.
				opts.MaxInfraShare = math.SmallestNonzeroFloat64
			}
			dir := args[0]
			records, err := report.Read(filepath.Join(dir, "records.jsonl"))
			if err != nil {
				return err
			}
			sum, err := report.Build(records, opts)
			if err != nil {
				return fmt.Errorf("%s: %w", filepath.Join(dir, "records.jsonl"), err)
			}
			if err := report.Write(dir, sum); err != nil {
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
			}
			fmt.Fprintf(e.stdout, "wrote %s\n", filepath.Join(dir, "{summary.json,summary.md,report.html,plots/*.svg}"))
			return nil
		},
	}
	f := c.Flags()
	f.IntVar(&samples, "bootstrap", report.DefaultBootstrapSamples, "bootstrap resamples behind each confidence interval")
	f.Uint64Var(&seed, "seed", report.DefaultSeed, "seed of the bootstrap's generator (at least 1)")
	f.Float64Var(&maxInfra, "max-infra-share", report.DefaultMaxInfraShare, "largest infra-error share a ranked model may have (0: none)")
	f.BoolVar(&rankAnyway, "rank-anyway", false, "rank models whose infra-error share is above --max-infra-share")
	return c
}
