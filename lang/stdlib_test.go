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

// Issue 18's target: at least 45 fault kinds, at least 15 of them fixed by
// no config write (a restart, a rollback or an operation of the kind).
func TestFaultsBeyondOneConfigKey(t *testing.T) {
	m, diags := lang.Analyze(nil)
	if diags.HasErrors() {
		t.Fatal("stdlib does not analyse")
	}
	beyond := 0
	for _, f := range m.FaultKinds {
		byConfig := false
		for _, r := range f.Remedies {
			byConfig = byConfig || r.Effect == "update_config"
		}
		if !byConfig {
			beyond++
		}
	}
	if len(m.FaultKinds) < 45 || beyond < 15 {
		t.Errorf("%d fault kinds, %d fixed by no config write; want at least 45 and 15", len(m.FaultKinds), beyond)
	}
}
