package lang

import (
	"strings"
	"testing"
)

// TestImportDeepJSON: a task file nested 80,000 levels deep used to
// overflow the stack (parseNode recursed once a level); it is refused at
// the first level past MaxNestingDepth, with its position. So are a file
// over MaxFileBytes and a task whose text the front end would refuse.
func TestImportDeepJSON(t *testing.T) {
	deep := `{"task_id": "x", "metadata": ` + strings.Repeat("[", 80000) + strings.Repeat("]", 80000) + "}"
	for _, c := range []struct {
		name, data, want string
	}{
		{"deep", deep, "deep.json: 1:94: JSON nested more than 64 levels deep (MaxNestingDepth)"},
		{"large", `{"task_id": "` + strings.Repeat("x", MaxFileBytes) + `"}`, "large.json: the file holds more than 1048576 bytes (MaxFileBytes), the most srezc reads"},
		{"alert", strings.Replace(refMinimalTask, `"alert": "a"`, `"alert": "`+strings.Repeat("a", MaxStringBytes+1)+`"`, 1), "alert.json: the task does not fit srezc's limits: String too long"},
	} {
		_, _, err := ImportSreZeroTask(c.name+".json", []byte(c.data), "train", false)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

// refMinimalTask is the smallest task file the importer accepts.
const refMinimalTask = `{"task_id": "x", "difficulty": "easy", "alert": "a", "root_cause": "r", "root_cause_keywords": [], "relevant_evidence": [], "evidence_descriptions": {}, "correct_fix": {"action_type": "restart_service", "service": "cache"}, "service_patches": {"cache": {"metrics": {"m": -1.5e3}}}}`
