package mcpserve_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/mcpserve"
)

// TestStringValuesFromAFormClient: a form-built client (the MCP Inspector)
// sends every value as a string. The schema says which type each key
// takes and that a string holding it is accepted, and the server does
// accept it: db_pool's expert plan with "50" for pool_size succeeds with
// no invalid action.
func TestStringValuesFromAFormClient(t *testing.T) {
	tk := task(t, "db_pool")
	srv, path := newServer(t, mcpserve.Options{Tasks: []*engine.Task{tk}, Seed: 7, Agent: "mcp:inspector"})
	cs := connect(t, srv, "inspector")

	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var doc string
	for _, tl := range tools.Tools {
		if tl.Name == "update_config" {
			js, _ := json.Marshal(tl.InputSchema)
			doc = string(js)
		}
	}
	if !strings.Contains(doc, `An integer (a number without a fraction, or a string holding one, such as \"60\") for `) || !strings.Contains(doc, "pool_size") {
		t.Fatalf("update_config's schema does not say what value pool_size takes: %s", doc)
	}

	names, args := expertCalls(t, tk)
	for i := range names {
		var obj map[string]any
		if err := json.Unmarshal(args[i], &obj); err != nil {
			t.Fatal(err)
		}
		if v, ok := obj["value"]; ok {
			b, _ := json.Marshal(v)
			obj["value"] = string(b) // 50 → "50", as a form sends it
		}
		callText(t, cs, names[i], obj, false)
	}
	cs.Close()
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	recs := readRecords(t, path)
	if len(recs) != 1 || !recs[0].Metrics.Success || recs[0].Metrics.InvalidActions != 0 {
		t.Fatalf("the plan with string values: %+v", recs)
	}
}
