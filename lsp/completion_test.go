package lsp

import (
	"slices"
	"strings"
	"testing"

	"github.com/srezc/srezc/lang"
)

func labels(m *lang.Module, text string, off int) []string {
	var out []string
	for _, it := range completion(m, text, off) {
		out = append(out, it.Label)
	}
	return out
}

// TestCompletionPlaces: expert actions (tools, services, config keys of
// the named service), a fault parameter's domain, a system service's site
// tuning, and the names a service kind's expression may read.
func TestCompletionPlaces(t *testing.T) {
	doc := `incident "x" {
  alert      = "Pages fail."
  difficulty = "easy"
  split      = "train"
  budget     = 8
  system     = "standard"

  fault "db_pool_too_small" {
    target = "database"
    size   = 4
  }

  expert = ["ins", "update_config(database, p"]
}
`
	m, _ := lang.Analyze([]*lang.File{{Name: "x.srez.hcl", Src: []byte(doc)}})
	at := func(marker string, delta int) int { return strings.Index(doc, marker) + delta }
	cases := []struct {
		off  int
		want []string
	}{
		{at(`"ins"`, 4), []string{"inspect_logs", "update_config", "resolve_incident"}},
		{at("update_config(database, p", len("update_config(database, p")), []string{"pool_size", "max_connections"}},
		{at("size   = 4", len("size   = ")), []string{"4", "6", "8", "10"}},
		{at(`target = "database"`, len(`target = "`)), []string{"database", "web_server"}},
	}
	for _, c := range cases {
		got := labels(m, doc, c.off)
		for _, w := range c.want {
			if !slices.Contains(got, w) {
				t.Errorf("at %d (%q…): %v lacks %q", c.off, doc[c.off:min(c.off+15, len(doc))], got, w)
			}
		}
	}

	// A system service's set_config block: its kind's config keys.
	sys := "system \"mine\" {\n  service \"db\" {\n    kind = \"database\"\n    set_config {\n      \n    }\n  }\n}\n"
	ms, _ := lang.Analyze([]*lang.File{{Name: "s.srez.hcl", Src: []byte(sys)}})
	if got := labels(ms, sys, strings.Index(sys, "      \n")+6); !slices.Contains(got, "pool_size") || !slices.Contains(got, "work_mem_mb") {
		t.Errorf("set_config: %v", got)
	}
	// A vary block: the kind's numeric config keys and states.
	vary := strings.Replace(sys, "set_config", "vary", 1)
	mv, _ := lang.Analyze([]*lang.File{{Name: "s.srez.hcl", Src: []byte(vary)}})
	if got := labels(mv, vary, strings.Index(vary, "      \n")+6); !slices.Contains(got, "max_connections") || !slices.Contains(got, "report_ms") || slices.Contains(got, "maintenance_mode") || slices.Contains(got, "up") {
		t.Errorf("vary: %v", got)
	}
	// An expression of a service kind: its config, state, derived names,
	// roles and the builtins.
	var db string
	for _, f := range lang.StdlibFiles() {
		if strings.HasSuffix(f.Name, "database.srez.hcl") {
			db = string(f.Src)
		}
	}
	off := strings.Index(db, `value = "`) + len(`value = "`)
	if got := labels(m, db, off); !slices.Contains(got, "config.pool_size") || !slices.Contains(got, "state.up") || !slices.Contains(got, "clamp") {
		t.Errorf("service kind expression: %v", got)
	}
}

// TestCompletionInConditions: an incident's resolved_when and a fault
// kind's fixed_when offer the names they may read.
func TestCompletionInConditions(t *testing.T) {
	doc := "incident \"x\" {\n  system = \"standard\"\n  resolved_when = \"\"\n}\n"
	m, _ := lang.Analyze([]*lang.File{{Name: "x.srez.hcl", Src: []byte(doc)}})
	if got := labels(m, doc, strings.Index(doc, `resolved_when = "`)+len(`resolved_when = "`)); !slices.Contains(got, "database.config.pool_size") || !slices.Contains(got, "healthy") || !slices.Contains(got, "message_queue.queue_depth") {
		t.Errorf("resolved_when: %d items, e.g. %v", len(got), got[:min(5, len(got))])
	}
	fk := "fault_kind \"db_pool_too_small\" {\n  fixed_when = \"\"\n}\n"
	if got := labels(m, fk, strings.Index(fk, `fixed_when = "`)+len(`fixed_when = "`)); !slices.Contains(got, "config.pool_size") {
		t.Errorf("fixed_when: %v", got)
	}
}

// TestCompletionInTraceSpans: a trace span's kind completes the span
// kinds, its figures the kind's quantities (its status the string ones
// only), its calls the roles the kind depends on.
func TestCompletionInTraceSpans(t *testing.T) {
	doc := `service_kind "relay" {
  role "store" { kind = "database" }
  role "front" {
    kind   = "web_server"
    caller = true
  }
  derived "call_ms" {
    type  = "float"
    value = "40.0"
  }
  derived "call_status" {
    type  = "string"
    value = "\"ok\""
  }
  trace {
    span "call" {
      kind    = "c"
      name    = "POST api.example/v1/x"
      latency = "c"
      status  = "c"
      calls   = ["s"]
    }
  }
}
`
	m, _ := lang.Analyze([]*lang.File{{Name: "k.srez.hcl", Src: []byte(doc)}})
	at := func(marker string) int { return strings.Index(doc, marker) + len(marker) }
	for _, c := range []struct {
		off        int
		want, lack []string
	}{
		{at(`kind    = "`), []string{"client", "consumer"}, []string{"database"}},
		{at(`latency = "`), []string{"call_ms"}, []string{"call_status"}},
		{at(`status  = "`), []string{"call_status"}, []string{"call_ms"}},
		{at(`calls   = ["`), []string{"store"}, []string{"front"}},
	} {
		got := labels(m, doc, c.off)
		for _, w := range c.want {
			if !slices.Contains(got, w) {
				t.Errorf("at %q: %v lacks %q", doc[c.off-12:c.off], got, w)
			}
		}
		for _, l := range c.lack {
			if slices.Contains(got, l) {
				t.Errorf("at %q: %v offers %q", doc[c.off-12:c.off], got, l)
			}
		}
	}
}
