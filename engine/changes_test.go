package engine_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/srezc/srezc/action"
	"github.com/srezc/srezc/compiler"
	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/lang"
)

// The change history as list_changes renders it: newest first, every entry
// in one form (when, who, service, key, old -> new), filtered to one
// service when the call names one, as text and as JSON; the fault's own
// change reads like the others.
func TestListChanges(t *testing.T) {
	src := `
incident "history" {
  alert      = "Checkout slow."
  difficulty = "easy"
  split      = "train"
  budget     = 10
  system     = "standard"
  fault "db_pool_too_small" {
    target = "database"
    size   = 6
    change {
      at    = "17:30"
      actor = "k.tanaka"
    }
  }
  change {
    service = "cache"
    key     = "eviction_policy"
    value   = "allkeys-lfu"
    at      = "Sat 03:00"
    actor   = "s.lindqvist"
  }
  expert = ["inspect_config(database)"]
}
`
	m, diags := lang.Analyze([]*lang.File{{Name: "t.srez.hcl", Src: []byte(src)}})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	tk, diags := compiler.CompileIncident(m, m.Incident("history"), compiler.Options{SkipCertify: true})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	ep := engine.NewEpisode(tk)
	ep.Reset(1)
	step := func(text string) (string, map[string]any) {
		a := action.Bind(tk, text)
		r := ep.Step(&a)
		if r.Obs.Err != engine.OK {
			t.Fatalf("%s: %v", text, r.Obs.Err)
		}
		var obj map[string]any
		if err := json.Unmarshal(ep.AppendJSON(nil, &r.Obs), &obj); err != nil {
			t.Fatal(err)
		}
		return string(ep.AppendText(nil, &r.Obs)), obj
	}
	all, allJSON := step("list_changes()")
	lines := strings.Split(strings.TrimSpace(all), "\n")
	if !strings.Contains(lines[0], "change history, newest first (alert raised ") {
		t.Errorf("header: %q", lines[0])
	}
	if len(lines)-1 != len(tk.Changes) || len(tk.Changes) < 4 {
		t.Fatalf("%d lines for %d changes:\n%s", len(lines)-1, len(tk.Changes), all)
	}
	fault := -1
	for i, l := range lines[1:] {
		if strings.Contains(l, "config pool_size: 50 -> 6") {
			fault = i
			if !strings.Contains(l, " 17:30  k.tanaka ") || !strings.Contains(l, "database") {
				t.Errorf("fault's entry: %q", l)
			}
		}
		if strings.Contains(strings.ToLower(l), "fault") || strings.Contains(strings.ToLower(l), "bad") {
			t.Errorf("an entry judges: %q", l)
		}
	}
	if fault < 0 || !strings.Contains(all, "  Sat 03:00  s.lindqvist        cache          config eviction_policy: allkeys-lru -> allkeys-lfu\n") {
		t.Errorf("entries missing:\n%s", all)
	}
	content := allJSON["content"].(map[string]any)
	entries := content["changes"].([]any)
	if len(entries) != len(tk.Changes) {
		t.Fatalf("JSON has %d entries", len(entries))
	}
	e := entries[fault].(map[string]any)
	if e["key"] != "pool_size" || e["old"] != float64(50) || e["new"] != float64(6) || e["actor"] != "k.tanaka" || e["service"] != "database" || e["kind"] != "config" {
		t.Errorf("JSON entry: %v", e)
	}
	last := -1.0
	for _, x := range entries {
		age := x.(map[string]any)["minutes_before_alert"].(float64)
		if age < last {
			t.Errorf("JSON not newest first: %v", entries)
		}
		last = age
	}

	cache, cacheJSON := step("list_changes(cache)")
	if !strings.HasPrefix(strings.SplitN(cache, "\n", 2)[0], "[step 2/10] change history of cache, newest first") {
		t.Errorf("filtered header: %q", cache)
	}
	n := 0
	for _, c := range tk.Changes {
		if tk.Services[c.Service].Name == "cache" {
			n++
		}
	}
	if got := strings.Count(cache, "\n") - 1; got != n || strings.Contains(cache, "pool_size") {
		t.Errorf("filtered to cache, %d lines for %d changes:\n%s", got, n, cache)
	}
	if cacheJSON["service"] != "cache" || len(cacheJSON["content"].(map[string]any)["changes"].([]any)) != n {
		t.Errorf("filtered JSON: %v", cacheJSON)
	}
	if _, ok := allJSON["service"]; ok {
		t.Errorf("an unfiltered history names a service: %v", allJSON)
	}
}
