package lang_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/srezc/srezc/lang"
)

// TestHundredThousandHoles is the audit's reproducer of issue 15, finding
// 3: 100,000 {holes} in log texts. Each hole's position was counted from
// the start of the file, so the analysis was quadratic (38.6 s); with the
// line index it is linear, and every hole's range still names its exact
// line and column.
func TestHundredThousandHoles(t *testing.T) {
	const logs, holes, hole = 100, 1000, "{traffic}"
	var b strings.Builder
	b.WriteString("service_kind \"many\" {\n  description = \"Many holes.\"\n")
	for i := range logs {
		fmt.Fprintf(&b, "  log \"l%d\" {\n    level = \"INFO\"\n    when  = \"true\"\n    text  = \"%s\"\n  }\n", i, strings.Repeat(hole, holes))
	}
	b.WriteString("}\n")
	if b.Len() > lang.MaxFileBytes {
		t.Fatalf("the file is %d bytes, over MaxFileBytes", b.Len())
	}
	m, diags := lang.NewBase(lang.StdlibFiles()).Analyze([]*lang.File{{Name: "holes.srez.hcl", Src: []byte(b.String())}})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	k := m.ServiceKind("many")
	if k == nil || len(k.Logs) != logs {
		t.Fatalf("decoded %v", k)
	}
	// Log i's text is on line 6+5i, after `    text  = "` (13 bytes).
	n := 0
	for i, l := range k.Logs {
		for _, p := range l.Parts {
			if p.Hole == nil {
				continue
			}
			r := p.Hole.Range
			col := 13 + 1 + (n%holes)*len(hole) + 1 // the expression inside the braces
			if r.Start.Line != 6+5*i || r.Start.Column != col {
				t.Fatalf("hole %d of log %d at %d:%d, want %d:%d", n%holes, i, r.Start.Line, r.Start.Column, 6+5*i, col)
			}
			n++
		}
	}
	if n != logs*holes {
		t.Fatalf("%d holes decoded, want %d", n, logs*holes)
	}
}
