package certify_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/srezc/srezc/certify"
	"github.com/srezc/srezc/compiler"
	"github.com/srezc/srezc/lang"
)

// TestDiskCache: a cache opened on another's folder finds its results,
// reads them from disk (an entry edited there is what the task gets), and
// takes a damaged entry for a miss, certifying afresh.
func TestDiskCache(t *testing.T) {
	m, diags := lang.Analyze(lang.ScenarioFiles())
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	in := m.Incidents[0]
	root := t.TempDir()
	first, err := certify.NewDiskCache(root, "code-1")
	if err != nil {
		t.Fatal(err)
	}
	fresh, ds := compiler.CompileIncident(m, in, compiler.Options{Cache: first})
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	entries := resultEntries(t, root)
	if len(entries) != fresh.SiteCount() {
		t.Fatalf("%d result entries on disk after one compile, want one per site variant (%d)", len(entries), fresh.SiteCount())
	}

	second, _ := certify.NewDiskCache(root, "code-1")
	again, _ := compiler.CompileIncident(m, in, compiler.Options{Cache: second})
	if again.Hash != fresh.Hash || again.Optimal != fresh.Optimal || !slices.Equal(again.Plan, fresh.Plan) || again.Certified != fresh.Certified {
		t.Fatalf("a result read from disk changed the task: hash %s/%s optimal %d/%d", again.Hash, fresh.Hash, again.Optimal, fresh.Optimal)
	}
	if n := len(resultEntries(t, root)); n != len(entries) {
		t.Errorf("the second compile wrote %d more entries; it should have read them", n-len(entries))
	}

	// An entry edited on disk is what a new cache reads: proof that the
	// second compile came from the disk, not from certifying again.
	for _, e := range entries {
		b, _ := os.ReadFile(e)
		var v map[string]any
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatalf("%s: %v", e, err)
		}
		v["optimal"] = 999
		b, _ = json.Marshal(v)
		if err := os.WriteFile(e, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	third, _ := certify.NewDiskCache(root, "code-1")
	edited, _ := compiler.CompileIncident(m, in, compiler.Options{Cache: third})
	if edited.Optimal != 999 {
		t.Errorf("optimal %d: the entry was not read from disk", edited.Optimal)
	}

	// Another code's folder does not see them.
	other, _ := certify.NewDiskCache(root, "code-2")
	if got, _ := compiler.CompileIncident(m, in, compiler.Options{Cache: other}); got.Optimal != fresh.Optimal {
		t.Errorf("another code read this code's results (optimal %d)", got.Optimal)
	}

	// A damaged entry is a miss: certified afresh and written whole again.
	for _, e := range entries {
		if err := os.WriteFile(e, []byte("{\"optimal\": 9"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fourth, _ := certify.NewDiskCache(root, "code-1")
	healed, _ := compiler.CompileIncident(m, in, compiler.Options{Cache: fourth})
	if healed.Optimal != fresh.Optimal || healed.Hash != fresh.Hash {
		t.Errorf("a damaged entry was used: optimal %d, want %d", healed.Optimal, fresh.Optimal)
	}
	for _, e := range entries {
		if b, _ := os.ReadFile(e); !json.Valid(b) {
			t.Errorf("%s was not rewritten whole: %q", e, b)
		}
	}
	assertNoTemporaries(t, root)
}

// TestDiskCacheOutput: a stored output comes back byte for byte, only from
// the folder of the code that stored it, and an unusable root is no cache.
func TestDiskCacheOutput(t *testing.T) {
	root := t.TempDir()
	c, _ := certify.NewDiskCache(root, "code-1")
	if _, ok := c.Output("k"); ok {
		t.Fatal("an empty cache has an output")
	}
	want := []byte("64 incidents, 64 certified\n")
	c.PutOutput("k", want)
	d, _ := certify.NewDiskCache(root, "code-1")
	if got, ok := d.Output("k"); !ok || !bytes.Equal(got, want) {
		t.Errorf("output %q, %v; want %q", got, ok, want)
	}
	if _, ok := d.Output("other"); ok {
		t.Error("another key has the output")
	}
	if o, _ := certify.NewDiskCache(root, "code-2"); o != nil {
		if _, ok := o.Output("k"); ok {
			t.Error("another code has the output")
		}
	}
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o644)
	bad, err := certify.NewDiskCache(filepath.Join(file, "under"), "code-1")
	if err == nil {
		t.Error("a root under a file opened without error")
	}
	bad.PutOutput("k", want)
	if _, ok := bad.Output("k"); ok {
		t.Error("an unusable root kept an output")
	}
	assertNoTemporaries(t, root)
}

// TestDiskCacheKeepsRecentCodes: opening a cache removes the folders of
// all but the most recent codes.
func TestDiskCacheKeepsRecentCodes(t *testing.T) {
	root := t.TempDir()
	for _, code := range []string{"a", "b", "c", "d", "e", "f"} {
		if _, err := certify.NewDiskCache(root, code); err != nil {
			t.Fatal(err)
		}
	}
	entries, _ := os.ReadDir(root)
	if len(entries) > 4 {
		t.Errorf("%d code folders kept, want at most 4", len(entries))
	}
}

func resultEntries(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasPrefix(d.Name(), "result-") {
			out = append(out, p)
		}
		return nil
	})
	return out
}

func assertNoTemporaries(t *testing.T, root string) {
	t.Helper()
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasPrefix(d.Name(), ".") && d.Name() != "." {
			t.Errorf("temporary file left behind: %s", p)
		}
		return nil
	})
}
