package certify_test

import (
	"testing"

	"github.com/srezc/srezc/certify"
	"github.com/srezc/srezc/compiler"
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
	cache := certify.NewCache()
	fresh, ds := compiler.CompileIncident(m, in, compiler.Options{Cache: cache})
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	// One certification per site variant.
	if cache.Results() != fresh.SiteCount() {
		t.Fatalf("cache holds %d results after one compile, want %d", cache.Results(), fresh.SiteCount())
	}
	cached, _ := compiler.CompileIncident(m, in, compiler.Options{Cache: cache})
	if cached.Hash != fresh.Hash {
		t.Errorf("cached certification changed the task: %s vs %s", cached.Hash, fresh.Hash)
	}
	if cache.Results() != fresh.SiteCount() {
		t.Errorf("second compile added a result instead of using the cached one")
	}

	inc := prepared(t, m, in)
	body := engine.BodyHash(inc.Task())
	k1 := certify.CertKey(inc, body)
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
	if k2 := certify.CertKey(inModule{inc, &m2}, body); k2 == k1 {
		t.Error("editing the fault kinds' source does not change the cache key")
	}
}

// inModule is an incident seen in another module.
type inModule struct {
	certify.Incident
	m *lang.Module
}

func (x inModule) Module() *lang.Module { return x.m }
