// Package srezero is the sre_zero profile: the SRE-Zero reference
// environment's world and grading, bit for bit
// (../shared/reference/sre-zero-spec.md §4–7). It holds the reference's
// task data, its action set and checks, its step with the matching rules
// and reward bookkeeping, the observation bodies of its world, and the
// profile's part of an episode snapshot.
//
// Its world is the reference's: five services with literal fixtures
// (status, log lines, metrics, config) that change only by a restart
// (status healthy, one log line) or a config write. What an agent sees is
// still srezc's style, with none of the reference's leaks.
//
// The package sits below engine, which plays an sre_zero task through it
// behind the one interface both profiles share (engine/profile.go); it
// knows nothing of engine's Episode, Action or Observation. The text
// grammar that makes an Action is action.ParseRef.
package srezero
