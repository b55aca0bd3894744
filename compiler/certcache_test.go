package compiler

import (
	"testing"

	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/lang"
)

// TestCertificationCache: a cached certification gives the task a fresh
// one gives, and the key changes with the source the alternatives come
// from.
func TestCertificationCache(t *testing.T) {
	m, diags := lang.Analyze(lang.ScenarioFiles())
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	in := m.Incidents[0]
	certCache = resultCache{m: map[string]certResult{}}
	fresh, ds := CompileIncident(m, in, Options{})
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	if len(certCache.m) != 1 {
		t.Fatalf("cache holds %d results after one compile, want 1", len(certCache.m))
	}
	cached, _ := CompileIncident(m, in, Options{})
	if cached.Hash != fresh.Hash {
		t.Errorf("cached certification changed the task: %s vs %s", cached.Hash, fresh.Hash)
	}
	if len(certCache.m) != 1 {
		t.Errorf("second compile added a result instead of using the cached one")
	}

	b := newBuild(m, in)
	for _, st := range Stages {
		if st.Name == "Certify" {
			break
		}
		st.Run(b)
	}
	body := engine.BodyHash(b.t)
	k1 := b.certKey(body)
	// The same module with the fault kinds' file edited (a comment added).
	m2 := *m
	m2.Files = nil
	for _, f := range m.Files {
		g := *f
		if f.Name == lang.StdlibPrefix+"faults.srez.hcl" {
			g.Src = append(append([]byte(nil), f.Src...), "\n# edited\n"...)
		}
		m2.Files = append(m2.Files, &g)
	}
	b.m = &m2
	if k2 := b.certKey(body); k2 == k1 {
		t.Error("editing the fault kinds' source does not change the cache key")
	}
}
