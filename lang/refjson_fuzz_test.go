package lang

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzImportSreZeroTask: no task file, however malformed, makes the
// importer panic; what it accepts is source that parses.
func FuzzImportSreZeroTask(f *testing.F) {
	paths, _ := filepath.Glob(filepath.Join(refTasksDir, "*.json"))
	for _, p := range paths {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte(`{"task_id": "x", "difficulty": "easy", "alert": "a", "root_cause": "r", "root_cause_keywords": [], "relevant_evidence": [], "evidence_descriptions": {}, "correct_fix": {"action_type": "restart_service", "service": "cache"}, "service_patches": {"cache": {"metrics": {"m": -1.5e3}}}}`))
	f.Add([]byte(`{"task_id": 3}`))
	// Just past the nesting limit, which the fuzzer explores from here.
	f.Add([]byte(`{"task_id": "x", "metadata": ` + strings.Repeat("[", MaxNestingDepth) + strings.Repeat("]", MaxNestingDepth) + "}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, src, err := ImportSreZeroTask("fuzz.json", data, "train", false)
		if err != nil {
			return
		}
		if _, diags := Format("fuzz"+Ext, src); diags.HasErrors() {
			t.Fatalf("the importer wrote source that does not parse:\n%s", src)
		}
	})
}
