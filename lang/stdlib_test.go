package lang_test

import (
	"bytes"
	"testing"

	"github.com/srezc/srezc/lang"
)

// The embedded standard library must analyse with no diagnostic at all.
func TestStdlibIsClean(t *testing.T) {
	m, diags := lang.Analyze(nil)
	if len(diags) > 0 {
		var b bytes.Buffer
		lang.WriteText(&b, m.Files, diags)
		t.Fatalf("stdlib has diagnostics:\n%s", b.String())
	}
	if len(m.ServiceKinds) != 5 || len(m.FaultKinds) < 15 || len(m.DistractorKinds) < 3 || len(m.NoisePatterns) < 3 || len(m.Tools) < 12 || len(m.BenignChanges) < 6 {
		t.Errorf("stdlib is short: %d service kinds, %d fault kinds, %d distractors, %d noise patterns, %d tools",
			len(m.ServiceKinds), len(m.FaultKinds), len(m.DistractorKinds), len(m.NoisePatterns), len(m.Tools))
	}
}
