// Package mutations embeds mutation blocks and suite specs over the
// default suite's incidents. They are loaded beside the scenarios when a
// command is given no PATH, and a user's module may name them (or the
// incidents they start from) as bases; they are not incidents, so the
// default suite, its task hashes and its suite hash do not move.
package mutations

import "embed"

// FS holds every *.srez.hcl file of the embedded mutations.
//
//go:embed *.srez.hcl
var FS embed.FS
