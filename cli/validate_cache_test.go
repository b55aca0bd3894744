package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestValidateCachesItsOutput: srezc validate keeps what it printed under
// $SREZC_CACHE, keyed by its inputs: a second run of the same inputs
// prints the stored output (an entry edited on disk shows through), an
// edited input is validated afresh, and SREZC_CACHE=off keeps nothing.
func TestValidateCachesItsOutput(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("SREZC_CACHE", cache)
	dir := tree(t, map[string]string{"a.srez.hcl": broken})
	in := filepath.Join(dir, "a.srez.hcl")

	code, _, first := srezc(t, "", "validate", in)
	if code != 1 || !strings.Contains(first, "error") {
		t.Fatalf("exit %d, stderr %q: want the syntax error", code, first)
	}
	outputs := outputEntries(t, cache)
	if len(outputs) != 1 {
		t.Fatalf("%d stored outputs after one run, want 1", len(outputs))
	}
	code, _, second := srezc(t, "", "validate", in)
	if code != 1 || second != first {
		t.Errorf("second run: exit %d, stderr %q; want the first run's", code, second)
	}

	// The second run read the store: an entry edited there is what it prints.
	b, _ := json.Marshal(map[string]any{"stdout": "", "stderr": "from the store\n", "failed": false})
	if err := os.WriteFile(outputs[0], b, 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, got := srezc(t, "", "validate", in); code != 0 || got != "from the store\n" {
		t.Errorf("exit %d, stderr %q: the stored output was not used", code, got)
	}
	// Another format is another key.
	if code, stdout, _ := srezc(t, "", "validate", "--format", "json", in); code != 1 || !strings.Contains(stdout, "\"severity\"") {
		t.Errorf("--format json: exit %d, stdout %q", code, stdout)
	}

	// An edited input is validated afresh.
	if err := os.WriteFile(in, []byte(strings.Replace(broken, "= = 3", "= 3", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, got := srezc(t, "", "validate", in); got == "from the store\n" || got == first {
		t.Errorf("an edited file got the stored output: %q", got)
	}

	stored := len(outputEntries(t, cache))
	if stored != 3 {
		t.Errorf("%d stored outputs, want 3 (two formats, one edit)", stored)
	}
	t.Setenv("SREZC_CACHE", "off")
	if err := os.WriteFile(in, []byte(broken+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	srezc(t, "", "validate", in)
	if n := len(outputEntries(t, cache)); n != stored {
		t.Errorf("SREZC_CACHE=off stored an output (%d entries, was %d)", n, stored)
	}
}

func outputEntries(t testing.TB, root string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasPrefix(d.Name(), "output-") {
			out = append(out, p)
		}
		return nil
	})
	return out
}
