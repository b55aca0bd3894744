// Package report turns an evaluation's records.jsonl into the published
// report: summary.json, summary.md, report.html and plots/*.svg. It works
// from records alone (never from compiled tasks), so it reports on any
// records file, one from an older run included.
//
// Everything it writes is a pure function of the records and Options:
// groups and models come out in a fixed order (never map order), the
// bootstrap draws from a PCG generator seeded from Options.Seed and the
// statistic's own label, and the SVG plots are gonum/plot's vgsvg output,
// which carries no timestamp or random id and measures text with the
// Liberation fonts gonum embeds, whatever fonts the machine has.
//
// Infrastructure errors (outcome "infra_error") are excluded from every
// metric and counted beside them; a model whose infra-error share exceeds
// Options.MaxInfraShare is not ranked, and one measured too thinly to
// compare (Options.MinRankTasks, MaxRankWidth) ranks after every
// well-measured one.
//
// Records that carry a model judge's verdict (srezc eval --judge) add the
// judge's agreement with the deterministic diagnosis verdict (judge.go);
// the verdicts are reported, never scored.
//
// The package imports record alone of srezc (the record format, the
// episode metrics and their aggregation), so it links nothing of the front
// end: no HCL, no expr, no engine (layering_test.go checks the whole
// import graph). The one thing it cannot read from a record without the
// action grammar, the answer a resolving action gave, comes from the
// caller (Options.Resolution). Nothing imports it but the cli.
package report
