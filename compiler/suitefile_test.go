package compiler_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/srezc/srezc/compiler"
	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/lang"
)

// A compiled suite file reads back to the same tasks (hashes and suite
// hash), and any edit or cut is refused.
func TestSuiteFileRoundTrip(t *testing.T) {
	m, diags := lang.Analyze(lang.ScenarioFiles())
	tasks, more := compiler.CompileModule(m)
	if diags = append(diags, more...); diags.HasErrors() {
		t.Fatal(diags)
	}
	data, err := engine.EncodeSuite(tasks)
	if err != nil {
		t.Fatal(err)
	}
	if !engine.IsSuite(data) {
		t.Fatal("IsSuite says no to a suite file")
	}
	back, err := engine.DecodeSuite(data)
	if err != nil {
		t.Fatal(err)
	}
	if engine.SuiteHash(back) != engine.SuiteHash(tasks) || len(back) != len(tasks) {
		t.Fatalf("suite hash %s, want %s", engine.SuiteHash(back), engine.SuiteHash(tasks))
	}
	for i := range tasks {
		if back[i].ID != tasks[i].ID || back[i].Hash != tasks[i].Hash {
			t.Fatalf("task %d: %s %s, want %s %s", i, back[i].ID, back[i].Hash, tasks[i].ID, tasks[i].Hash)
		}
	}
	bad := map[string][]byte{
		"cut":    data[:len(data)/2],
		"edited": bytes.Replace(data, []byte(`"budget":`), []byte(`"budget":1`), 1),
		"extra":  append(append([]byte{}, data...), "more\n"...),
		"header": []byte(strings.Replace(string(data[:200]), "srezc-suite", "srezc-suit", 1)),
		"count":  bytes.Replace(data, fmt.Appendf(nil, " %d\n", len(tasks)), fmt.Appendf(nil, " %d\n", len(tasks)+1), 1),
	}
	for name, d := range bad {
		if _, err := engine.DecodeSuite(d); err == nil {
			t.Errorf("%s: a broken suite file was accepted", name)
		}
	}
}
