// Package stdlib embeds the standard library, written in the srezc
// language: service kinds, the standard system, tools, the native rubric
// and its vocabulary, fault kinds, distractor kinds and noise patterns.
package stdlib

import "embed"

// FS holds every *.srez.hcl file of the standard library.
//
//go:embed *
var FS embed.FS
