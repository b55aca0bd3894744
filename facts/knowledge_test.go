package facts_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/srezc/srezc/agents"
	"github.com/srezc/srezc/facts"
	"github.com/srezc/srezc/lang"
)

func stdlibKnowledge(t *testing.T) *agents.Knowledge {
	t.Helper()
	m, diags := lang.Analyze(lang.ScenarioFiles())
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return facts.Knowledge(m, "native")
}

// The topology is the docs' system table: dependencies, not callers.
func TestKnowledgeDependsOn(t *testing.T) {
	k := stdlibKnowledge(t)
	want := map[string][]string{
		"load_balancer": {"web_server"},
		"web_server":    {"database", "cache", "message_queue"},
		"cache":         nil,
		"database":      nil,
		"message_queue": {"database"},
	}
	for s, deps := range want {
		if got := k.DependsOn[s]; !reflect.DeepEqual(got, deps) {
			t.Errorf("%s depends on %q, want %q", s, got, deps)
		}
	}
}

// A key two fault kinds move in opposite directions is called by each
// direction's mechanism; a key moved one way only has no wording for the
// other.
func TestKnowledgeNamesAKeysFaultByDirection(t *testing.T) {
	k := stdlibKnowledge(t)
	key := func(kind, name string) agents.KeyDoc {
		for _, kd := range k.Keys[kind] {
			if kd.Name == name {
				return kd
			}
		}
		t.Fatalf("no key %s on %s", name, kind)
		return agents.KeyDoc{}
	}
	if kd := key("database", "pool_size"); kd.Below != "pool exhausted" || kd.Above != "too many connections" {
		t.Errorf("pool_size: below %q, above %q; want the pool-exhausted and connection-limit wordings", kd.Below, kd.Above)
	}
	if kd := key("cache", "ttl_seconds"); kd.Below == "" || kd.Above != "" {
		t.Errorf("ttl_seconds: below %q, above %q; want only a wording below", kd.Below, kd.Above)
	}
	if kd := key("database", "autovacuum_enabled"); kd.Below != "" || kd.Above != "" || kd.Mechanism == "" {
		t.Errorf("autovacuum_enabled (a bool): below %q, above %q, mechanism %q; want only a mechanism", kd.Below, kd.Above, kd.Mechanism)
	}
}

// Each mechanism carries its published text: its description and its
// fault kinds' names and descriptions, and the kinds they apply to.
func TestKnowledgeMechanisms(t *testing.T) {
	k := stdlibKnowledge(t)
	for _, m := range k.Mechanisms {
		if m.Name != "process_crashed" {
			continue
		}
		if !strings.Contains(m.Text, "The process is not running.") || !strings.Contains(m.Text, "service_crash") ||
			!strings.Contains(m.Text, "supervisor") {
			t.Errorf("process_crashed's text misses its description or its fault kind's: %q", m.Text)
		}
		if len(m.Kinds) != 5 || m.Wording != k.Crash {
			t.Errorf("process_crashed: kinds %q, wording %q", m.Kinds, m.Wording)
		}
		return
	}
	t.Error("no process_crashed mechanism")
}
