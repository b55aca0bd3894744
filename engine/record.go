package engine

import "github.com/srezc/srezc/record"

// An episode's metrics and their aggregation are part of the records
// format and live in record, which imports nothing of srezc but value: the
// engine fills them as it plays, and a report reads them from records.jsonl
// without linking the engine. The arrow points one way, engine → record.
// These names keep the engine's callers (compiler, eval, serve) unchanged.

// Record is one episode's grader-side outcome.
type Record = record.EpisodeMetrics

// Metrics is an ordered list of named aggregate values.
type Metrics = record.Metrics

// Metric is one named aggregate.
type Metric = record.Metric

// MetricNames lists the aggregate metrics in their fixed output order.
var MetricNames = record.MetricNames

// Aggregate computes every metric over episode records.
func Aggregate(rs []Record) Metrics { return record.Aggregate(rs) }

// NativeMarks is the native profile's 100-point score.
func NativeMarks(m Metrics) float64 { return record.NativeMarks(m) }

// Marks is the reference's 100-point score with target steps.
func Marks(m Metrics, target float64) float64 { return record.Marks(m, target) }

func evidenceCredit(diagnosed, mitigated, escalated bool) float64 {
	return record.EvidenceCredit(diagnosed, mitigated, escalated)
}
