package engine_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/srezc/srezc/action"
	"github.com/srezc/srezc/engine"
)

// The named operations (issue 18): the responder names the slot, queue,
// instance or index from a read. Every call is acknowledged alike; only
// the named culprit fixes the fault; a name the system has not changes
// nothing; a name still in use hurts, and the fault is then not fixed.
func TestNamedOperationsActOnlyOnTheNamedThing(t *testing.T) {
	cases := []struct {
		fault, params, right, unknown, hurts string
	}{
		{"db_replication_slot_stale", "retained_gb = 300.0\n    rate_gb = 2.0", "drop_replication_slot(database, analytics_cdc)", "drop_replication_slot(database, orders_cdc)", "drop_replication_slot(database, standby_1)"},
		{"mq_orphaned_binding", "held_gb = 44.0\n    rate_gb = 0.5", "delete_queue(message_queue, jobs.audit-export)", "delete_queue(message_queue, jobs.archive)", "delete_queue(message_queue, jobs)"},
		{"web_bad_instance", "instance = 1", "replace_instance(web_server, web-1)", "replace_instance(web_server, web-7)", "replace_instance(web_server, web-2)"},
		{"db_index_invalid", "rows_m = 30.0", "reindex(database, orders_uid_idx)", "reindex(database, invoices_pkey)", "reindex(database, orders_pkey)"},
	}
	for _, c := range cases {
		target := strings.SplitN(strings.SplitN(c.right, "(", 2)[1], ",", 2)[0]
		src := `
incident "named" {
  alert      = "Something is wrong."
  difficulty = "easy"
  split      = "train"
  budget     = 12
  system     = "standard"
  fault "` + c.fault + `" {
    target = "` + target + `"
    ` + c.params + `
  }
  expert = ["` + c.right + `"]
}
`
		tk := operateTask(t, src, "named")
		play := func(actions ...string) (*engine.Episode, []string) {
			ep := engine.NewEpisode(tk)
			ep.Reset(1)
			var acks []string
			for _, a := range actions {
				ack := stepText(t, tk, ep, a)
				acks = append(acks, ack[strings.Index(ack, "] ")+2:])
			}
			settle(ep, 10)
			return ep, acks
		}
		ep, acks := play(c.unknown)
		if ep.FaultFixed(0) || ep.Record().WrongChange {
			t.Errorf("%s: an unknown name fixed the fault or changed something", c.unknown)
		}
		ep, hurt := play(c.hurts, c.right)
		if ep.FaultFixed(0) {
			t.Errorf("%s: the fault counts as fixed after a name still in use was hit", c.hurts)
		}
		ep, right := play(c.right)
		if !ep.FaultFixed(0) || ep.Record().WrongChange {
			t.Errorf("%s: did not fix the fault cleanly", c.right)
		}
		if acks[0] != right[0] || hurt[0] != right[0] {
			t.Errorf("acknowledgements differ:\n%s\n%s\n%s", acks[0], hurt[0], right[0])
		}
	}
}

// A listing's rows are shown by its tool, as of the current tick, and
// never in the log stream: the abandoned slot is listed by
// list_replication_slots and named in no log line.
func TestListingRowsOnlyInTheirListing(t *testing.T) {
	src := `
incident "named" {
  alert      = "Something is wrong."
  difficulty = "easy"
  split      = "train"
  budget     = 12
  system     = "standard"
  fault "db_replication_slot_stale" {
    target      = "database"
    retained_gb = 300.0
    rate_gb     = 2.0
  }
  expert = ["drop_replication_slot(database, analytics_cdc)"]
}
`
	tk := operateTask(t, src, "named")
	ep := engine.NewEpisode(tk)
	ep.Reset(1)
	logs := stepText(t, tk, ep, "inspect_logs(database)")
	slots := stepText(t, tk, ep, "list_replication_slots(database)")
	other := stepText(t, tk, ep, "list_replication_slots(web_server)")
	if strings.Contains(logs, "analytics_cdc") || strings.Contains(logs, "slot_name") {
		t.Errorf("a listing's row is in the log stream:\n%s", logs)
	}
	if !strings.Contains(slots, "analytics_cdc | logical") || !strings.Contains(slots, "standby_1") || strings.Contains(slots, "standby_2") {
		t.Errorf("the slots listing does not show the abandoned slot beside the standby's alone:\n%s", slots)
	}
	a := action.Bind(tk, "list_replication_slots(database)")
	r := ep.Step(&a)
	var content struct {
		Content struct {
			Time string   `json:"time"`
			Rows []string `json:"rows"`
		} `json:"content"`
	}
	if err := json.Unmarshal(ep.AppendJSON(nil, &r.Obs), &content); err != nil || len(content.Content.Rows) != 3 || !strings.HasPrefix(content.Content.Rows[2], " analytics_cdc") {
		t.Errorf("the listing's JSON content: %v, %+v; want the header and two slot rows", err, content.Content)
	}
	if !strings.Contains(other, "(0 rows)") {
		t.Errorf("a kind without the listing shows rows:\n%s", other)
	}
	stepText(t, tk, ep, "drop_replication_slot(database, analytics_cdc)")
	if after := stepText(t, tk, ep, "list_replication_slots(database)"); strings.Contains(after, "analytics_cdc") {
		t.Errorf("the dropped slot is still listed:\n%s", after)
	}
}
