package engine_test

import (
	"testing"

	"github.com/srezc/srezc/action"
	"github.com/srezc/srezc/engine"
)

// create_index takes the table and the column an SRE reads from the slow
// plans: the same acknowledgement whatever they are, but only the index
// the lookups need fixes the fault; another column or a table the database
// has not changes nothing. A name that is not an identifier is an invalid
// action, so the form is checked and existence never is.
func TestCreateIndexActsOnlyOnTheNamedColumn(t *testing.T) {
	src := `
incident "dropped_index" {
  alert      = "Order history is slow."
  difficulty = "easy"
  split      = "train"
  budget     = 12
  system     = "standard"
  fault "db_index_disabled" {
    target = "database"
    rows_m = 40.0
  }
  expert = ["create_index(database, orders, user_id)"]
}
`
	tk := operateTask(t, src, "dropped_index")
	ep := engine.NewEpisode(tk)
	ep.Reset(1)
	wrong := stepText(t, tk, ep, "create_index(database, orders, created_at)")
	other := stepText(t, tk, ep, "create_index(database, invoices, user_id)")
	settle(ep, 8)
	if ep.FaultFixed(0) {
		t.Fatal("an index on another column, or on another table, fixed the missing one")
	}
	right := stepText(t, tk, ep, "create_index(database, orders, user_id)")
	settle(ep, 8)
	if !ep.FaultFixed(0) || !ep.Mitigated() {
		t.Fatal("the index on orders(user_id) did not fix the sequential scans")
	}
	strip := func(s string) string { return s[len("[step 1/12] "):] }
	if strip(wrong) != strip(right) || strip(other) != strip(right) {
		t.Errorf("acknowledgements differ:\n%s\n%s\n%s", wrong, other, right)
	}
	rec := ep.Record()
	if rec.WrongChange || rec.CorrectRemediations != 1 || rec.WrongRemediations != 2 {
		t.Errorf("wrong change %v, correct %d, wrong %d; want false, 1, 2", rec.WrongChange, rec.CorrectRemediations, rec.WrongRemediations)
	}
	for _, bad := range []string{`create_index(database, "orders; DROP TABLE", user_id)`, "create_index(database, 1, user_id)", `create_index(database, orders, "")`} {
		if a := action.Bind(tk, bad); a.Err != engine.ErrArgFormat {
			t.Errorf("%s: %v, want %v", bad, a.Err, engine.ErrArgFormat)
		}
	}
}
