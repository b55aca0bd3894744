package eval_test

import (
	"testing"

	"github.com/srezc/srezc/eval"
)

// TestSuiteComposition checks the shipped suite's shape (issue 4): every
// incident certified, every difficulty and split present, an
// unseen_incident subset, and no single root cause (service kind and
// mechanism) behind more than 10% of the incidents, so a blind guess stays
// at chance.
func TestSuiteComposition(t *testing.T) {
	tasks := suite(t)
	difficulty, split := map[string]int{}, map[string]int{}
	causes := map[[2]string]int{}
	for _, tk := range tasks {
		if !tk.Certified {
			t.Errorf("%s: not certified", tk.ID)
		}
		difficulty[tk.Difficulty]++
		split[tk.Split]++
		seen := map[[2]string]bool{}
		for _, f := range tk.Faults {
			c := [2]string{tk.Services[f.Service].Kind, tk.Mechanisms[f.Mechanism].Name}
			if !seen[c] {
				seen[c] = true
				causes[c]++
			}
		}
	}
	for _, d := range []string{"easy", "medium", "hard"} {
		if difficulty[d] == 0 {
			t.Errorf("no %s incident", d)
		}
	}
	for _, s := range []string{"train", "dev", "test"} {
		if split[s] == 0 {
			t.Errorf("no %s incident", s)
		}
	}
	if len(eval.UnseenIncidents(tasks)) == 0 {
		t.Error("no unseen_incident: every test incident's fault kinds appear in train")
	}
	limit := len(tasks) / 10
	for c, n := range causes {
		if n > limit {
			t.Errorf("%s / %s is the root cause of %d of %d incidents, more than 10%%", c[0], c[1], n, len(tasks))
		}
	}
}
