// Package engine is srezc's runtime: it executes compiled incidents: Reset, Step, Fork and the
// state snapshot, the one versioned observation renderer, rewards and
// metrics.
//
// The IR (Task) is plain data: typed integer ids into flat slices, no maps,
// names only in side tables that Step never reads. A Task is immutable and
// shared by any number of Episodes; an Episode owns every buffer it needs, so
// Step does not allocate.
//
// Time is a ring of rows: one row of slot words per tick. A tick copies the
// previous row and runs the Updates in order. State updates read the previous
// row; derived quantities, metrics, status and log rules read the current row
// for their own service and the previous row across a dependency edge, so the
// order of services never matters and a cascade moves one edge per tick.
//
// An episode's metrics (record.EpisodeMetrics), its reward components and
// their aggregation are part of the records format and live in record: the
// engine fills them as it plays, and a report reads them from records.jsonl
// without linking the engine. The arrow points one way, engine → record.
//
// engine imports neither lang nor compiler, nor HCL. It is not named
// runtime, the layer's name in DESIGN.md, because that would shadow Go's
// runtime package in every file that needs both.
package engine
