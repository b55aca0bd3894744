package lang_test

import (
	"testing"

	"github.com/srezc/srezc/lang"
)

// TestUnknownAndNullLiterals: HCL's parser leaves an unknown value where
// an expression fails to parse (an operator on it is unknown too), and a
// conditional can give a typed null; every place that reads a list
// element, an expert step, a role binding or a suite share as a constant
// refuses such a value with an error instead of panicking on it (each
// panicked before; the first was found by FuzzAnalyze, its input kept in
// testdata/fuzz/FuzzAnalyze).
func TestUnknownAndNullLiterals(t *testing.T) {
	for name, src := range map[string]string{
		"param domain": `fault_kind "k" {
  param "p" {
    type   = "int"
    domain = [1, -(]
  }
}
`,
		"float param domain": `fault_kind "k" {
  param "p" {
    type   = "float"
    domain = [1 + (]
  }
}
`,
		"expert step": `incident "i" {
  expert = ["${(}"]
}
`,
		"role binding": `system "s" {
  service "a" {
    kind  = "database"
    roles = { db = "${(}" }
  }
}
`,
		"null expert step": `incident "i" {
  expert = [true ? null : "x"]
}
`,
		"null role binding": `system "s" {
  service "a" {
    kind  = "database"
    roles = { db = true ? null : "x" }
  }
}
`,
		"null suite share": `suite_spec "s" {
  splits = { train = true ? null : 1, dev = 0.5 }
}
`,
		"null param domain": `fault_kind "k" {
  param "p" {
    type   = "int"
    domain = [1, true ? null : 1]
  }
}
`,
		"suite share": `suite_spec "s" {
  splits = { train = -(, dev = 0.5 }
}
`,
	} {
		t.Run(name, func(t *testing.T) {
			_, diags := lang.Analyze([]*lang.File{{Name: "f.srez.hcl", Src: []byte(src)}})
			if !diags.HasErrors() {
				t.Error("no error")
			}
		})
	}
}
