// Package scenarios embeds the default suite: hand-written incidents over
// the standard library, each with an expert plan. With no PATH, srezc's
// commands run this suite.
package scenarios

import "embed"

// FS holds every *.srez.hcl file of the default suite.
//
//go:embed *.srez.hcl
var FS embed.FS
