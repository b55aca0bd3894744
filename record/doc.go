// Package record owns the records format: records.jsonl, one JSON line per
// played episode (Line), what a line holds (the episode's metrics and
// reward components, its trajectory, an LLM's usage, a judge's verdict),
// how lines are written (Marshal, Append, WriteFileAtomic) and read (Read,
// Decode, DecodeLine), and the pure computations over lines that every
// reader shares: the metric names and their aggregation per rubric
// profile, the failure taxonomy, the key a sweep and a report identify an
// episode by.
//
// It imports nothing of srezc but value (the float format metrics print
// with), and must not: the engine imports it to fill an episode's metrics
// as it plays, eval to write lines, and report reads lines without linking
// the engine, the compiler or the front end (layering_test.go checks both
// the imports and report's whole graph). What needs a compiled task to
// compute (a line from a played episode, a task's family) stays in eval.
//
// The format is versioned (Version). Lines of version 1 carry no version
// field, so they are byte-identical to those written before the format
// had a number; a change to Line's fields or their order is a change of
// the format, caught by testdata/records.jsonl's byte-for-byte round trip.
package record
