package eval_test

import (
	"strings"
	"testing"

	"github.com/srezc/srezc/engine"
)

// Faults that are state, not keys (issue 18 item 3): the jobs queue's
// declaration and the orders table's index list are audited states. The
// change history shows their fault's change by the state's name, old ->
// new; rollback redeploys the previous build and leaves them as they are;
// only the typed operation puts them right.
func TestAuditedStateChanges(t *testing.T) {
	cases := []struct {
		incident, service, state, entry, fix string
	}{
		{"jobs_never_catch_up", "message_queue", "queue_arguments",
			"message_queue  queue_arguments: x-message-deduplication: true, x-queue-type: classic -> x-queue-type: classic",
			"redeclare_queue_with_deduplication(message_queue)"},
		{"storefront_double_trouble", "database", "orders_indexes",
			"database       orders_indexes: orders_pkey, orders_uid_idx, orders_created_at_idx -> orders_pkey, orders_created_at_idx",
			"create_index(database, orders, user_id)"},
	}
	for _, c := range cases {
		t.Run(c.incident, func(t *testing.T) {
			tk := shippedTask(t, c.incident).Site(1)
			ep := playActions(t, tk, 1, nil)
			if got := readAt(tk, ep, "list_changes("+c.service+")"); !strings.Contains(got, c.entry) {
				t.Errorf("list_changes(%s) lacks the fault's entry %q:\n%s", c.service, c.entry, got)
			}
			faulty := stringState(t, tk, ep.Row(), c.service, c.state)
			ep = playActions(t, tk, 1, []string{"rollback(" + c.service + ")"})
			if got := stringState(t, tk, ep.Row(), c.service, c.state); got != faulty {
				t.Errorf("rollback(%s) changed %s from %q to %q: a rollback redeploys a build, it does not undo a %s change", c.service, c.state, faulty, got, c.state)
			}
			ep = playActions(t, tk, 1, []string{c.fix})
			if got := stringState(t, tk, ep.Row(), c.service, c.state); got == faulty {
				t.Errorf("%s left %s at %q", c.fix, c.state, got)
			}
		})
	}
}

// stringState reads the named string state of a service from a row.
func stringState(t *testing.T, tk *engine.Task, row []uint64, service, name string) string {
	t.Helper()
	svc := tk.ServiceIndex(service)
	for i := range tk.Slots {
		sl := &tk.Slots[i]
		if int(sl.Service) == svc && sl.Class == engine.ClassState && sl.Name == name {
			return tk.ValueOf(sl.Kind, row[i]).S
		}
	}
	t.Fatalf("%s: no state %s.%s", tk.ID, service, name)
	return ""
}
