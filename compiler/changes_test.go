package compiler

import (
	"slices"
	"strings"
	"testing"

	"github.com/srezc/srezc/action"
	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/lang"
)

// touchedKeys lists the "service.key" pairs an incident's faults edit or whose
// remedies set, and those its distractors edit.
func touchedKeys(m *lang.Module, in *lang.Incident) map[string]bool {
	out := map[string]bool{}
	for _, fu := range in.Faults {
		fk := m.FaultKind(fu.Name)
		for _, e := range fk.Edits {
			if !e.State {
				out[fu.Target+"."+e.Name] = true
			}
		}
		for _, r := range fk.Remedies {
			if r.Key != "" {
				out[fu.Target+"."+r.Key] = true
			}
		}
	}
	for _, du := range in.Distractors {
		for _, e := range m.DistractorKind(du.Name).Edits {
			if !e.State {
				out[du.Target+"."+e.Name] = true
			}
		}
	}
	return out
}

// Every shipped incident draws two to six benign changes, the same ones on
// every compile, never on a key a fault, remedy or distractor of the
// incident touches; each shows in the initial state, differs from the docs,
// and its old value is the site's. A fault marked with a change block has
// exactly one entry, whose old value is the site's value of the key before
// the fault and whose new value is the faulty one in the initial state.
func TestChangeHistoryOfShippedIncidents(t *testing.T) {
	m := shippedModule(t)
	for _, in := range m.Incidents {
		a, ds := CompileIncident(m, in, Options{SkipCertify: true})
		if ds.HasErrors() {
			t.Fatalf("%s: %v", in.Name, ds)
		}
		b, _ := CompileIncident(m, in, Options{SkipCertify: true})
		if !slices.Equal(a.Changes, b.Changes) || a.AlertMinute != b.AlertMinute {
			t.Errorf("%s: two compiles draw different histories", in.Name)
		}
		touched := touchedKeys(m, in)
		init := a.Row()
		benign := 0
		faultEntries := make([]int, len(a.Faults))
		for i, c := range a.Changes {
			name := a.Services[c.Service].Name + "." + a.Slots[c.Slot].Name
			if i > 0 && a.Age(&a.Changes[i-1]) > a.Age(&c) {
				t.Errorf("%s: history not newest first at %d", in.Name, i)
			}
			if c.Fault >= 0 {
				faultEntries[c.Fault]++
				continue
			}
			benign++
			if touched[name] {
				t.Errorf("%s: benign change on %s, which a fault, remedy or distractor touches", in.Name, name)
			}
			if init[c.Slot] != c.New || c.New == a.Slots[c.Slot].Default || c.New == c.Old {
				t.Errorf("%s: benign change on %s: new %#x, initial %#x, docs %#x, old %#x", in.Name, name, c.New, init[c.Slot], a.Slots[c.Slot].Default, c.Old)
			}
		}
		// An alert follows the latest change pinned to its day within the
		// hour (orders_statements_cut's "since the 14:05 config rollout").
		latest := int32(-1)
		for _, fu := range in.Faults {
			if fu.Change == nil || !fu.Change.At.Set {
				continue
			}
			for _, c := range a.Changes {
				if c.Fault >= 0 && in.Faults[c.Fault] == fu && c.Minute/(24*60) == a.AlertMinute/(24*60) {
					latest = max(latest, c.Minute)
				}
			}
		}
		// The incident's own pinned changes count too, as LowerChanges
		// counts them (a decoy made after the fault's change).
		for _, ch := range in.Changes {
			if !ch.At.Set {
				continue
			}
			for _, c := range a.Changes {
				if c.Fault < 0 && a.Services[c.Service].Name == ch.Service && a.Slots[c.Slot].Name == ch.Key && c.Minute/(24*60) == a.AlertMinute/(24*60) {
					latest = max(latest, c.Minute)
				}
			}
		}
		if latest >= 0 && (a.AlertMinute-latest < minAge || a.AlertMinute-latest >= minAge+60) {
			t.Errorf("%s: alert at minute %d, %d minutes after the change pinned to its day", in.Name, a.AlertMinute, a.AlertMinute-latest)
		}
		if benign < minBenign || benign > maxBenign {
			t.Errorf("%s: %d benign changes, want %d to %d", in.Name, benign, minBenign, maxBenign)
		}
		for fi, fu := range in.Faults {
			want := 0
			if fu.Change != nil {
				want = 1
			}
			if faultEntries[fi] != want {
				t.Errorf("%s: fault %s has %d history entries, want %d", in.Name, fu.Name, faultEntries[fi], want)
			}
		}
	}
}

// The fault's change entry derives its old value from the site: on the
// busy system, whose database keeps a larger pool, db_pool_too_small's
// entry reads the busy site's pool_size, not the docs' default, and the
// alert fires after a change written for its own day.
func TestFaultChangeOldValueIsTheSite(t *testing.T) {
	src := `
incident "pool_cut_on_busy_site" {
  alert      = "Checkout slow."
  difficulty = "easy"
  split      = "train"
  budget     = 10
  system     = "busy"
  fault "db_pool_too_small" {
    target = "database"
    size   = 6
    change {
      at    = "22:40"
      actor = "k.tanaka"
    }
  }
  change {
    service = "cache"
    key     = "eviction_policy"
    value   = "allkeys-lfu"
    at      = "Sat 03:00"
  }
  expert = ["inspect_config(database)"]
}
`
	m, diags := lang.Analyze([]*lang.File{{Name: "t.srez.hcl", Src: []byte(src)}})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	in := m.Incident("pool_cut_on_busy_site")
	tk, diags := CompileIncident(m, in, Options{SkipCertify: true})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	db := tk.ServiceIndex("database")
	pool := tk.ConfigSlot(db, "pool_size")
	site := m.System("busy").Service("database")
	var sitePool *lang.Edit
	for i := range site.Config {
		if site.Config[i].Name == "pool_size" {
			sitePool = &site.Config[i]
		}
	}
	if sitePool == nil {
		t.Fatal("the busy system no longer tunes pool_size; pick a tuned key")
	}
	want, _ := sitePool.Eval(lang.EditScope{Traffic: lang.DefaultTraffic})
	var entry, explicit *engine.Change
	for i := range tk.Changes {
		switch c := &tk.Changes[i]; {
		case c.Fault == 0:
			entry = c
		case tk.Slots[c.Slot].Name == "eviction_policy":
			explicit = c
		}
	}
	if entry == nil || explicit == nil {
		t.Fatalf("history lacks the fault's or the explicit change: %+v", tk.Changes)
	}
	if entry.Slot != pool || tk.ValueOf(tk.Slots[pool].Kind, entry.Old) != want || int64(entry.New) != 6 || tk.Row()[pool] != 6 {
		t.Errorf("fault's entry %+v: want pool_size %v -> 6", entry, want)
	}
	if entry.Actor != "k.tanaka" || entry.Minute%(24*60) != 22*60+40 {
		t.Errorf("fault's entry at minute %d by %s, want 22:40 by k.tanaka", entry.Minute, entry.Actor)
	}
	if age := tk.Age(entry); age <= 0 || age > 24*60 {
		t.Errorf("the alert (minute %d) must follow the 22:40 change on its day; age %d", tk.AlertMinute, age)
	}
	if explicit.Minute/(24*60) != 5 || tk.ValueOf(tk.Slots[explicit.Slot].Kind, explicit.New).S != "allkeys-lfu" || tk.Row()[explicit.Slot] != explicit.New {
		t.Errorf("explicit change %+v: want Sat 03:00, allkeys-lfu in the initial state", explicit)
	}
}

// Writing a benign change back to its documented value is a wrong change:
// the grader judges every config key that is no fault's remedy, and a
// benign key never is one. Restoring the site's value undoes it.
func TestResettingABenignChangeIsWrong(t *testing.T) {
	m := shippedModule(t)
	for _, in := range m.Incidents {
		tk, ds := CompileIncident(m, in, Options{SkipCertify: true})
		if ds.HasErrors() {
			t.Fatalf("%s: %v", in.Name, ds)
		}
		for _, c := range tk.Changes {
			if c.Fault >= 0 {
				continue
			}
			sl := &tk.Slots[c.Slot]
			svc := tk.Services[c.Service].Name
			docs := valueText(tk, sl, sl.Default)
			ep := engine.NewEpisode(tk)
			ep.Reset(1)
			text := "update_config(" + svc + ", " + sl.Name + ", " + docs + ")"
			if sl.Class != engine.ClassConfig {
				// A benign deploy: rolling it back is the wrong change.
				text, docs = "rollback("+svc+")", "its previous version"
			}
			a := action.Bind(tk, text)
			if a.Err != engine.OK {
				t.Fatalf("%s: %v", in.Name, a.Err)
			}
			ep.Step(&a)
			if !ep.Record().WrongChange {
				t.Errorf("%s: resetting %s.%s to the docs' %s is not a wrong change", in.Name, svc, sl.Name, docs)
			}
		}
	}
}

func valueText(tk *engine.Task, sl *engine.Slot, w uint64) string {
	v := tk.ValueOf(sl.Kind, w)
	if v.K.String() == "string" {
		return `"` + v.S + `"`
	}
	return v.String()
}

// Certification proves the site's changes harmless: a change block that
// leaves the site unhealthy without any fault (the web tier cut to the
// bottom of its band at 500 requests/s) is refused, naming the changes
// and what the fault-free site shows; the shipped incidents' draws pass
// (TestChangeHistoryOfShippedIncidents compiles them, srezc certify
// certifies them).
func TestHarmfulChangeIsRefused(t *testing.T) {
	src := `
incident "workers_cut_too" {
  alert      = "The web tier's 5xx rate is above 10%; most failures are timeouts talking to storage."
  difficulty = "medium"
  split      = "train"
  budget     = 12
  system     = "standard"
  traffic    = 500.0
  fault "db_pool_too_small" {
    target = "database"
    size   = 6
    change {}
  }
  change {
    service = "web_server"
    key     = "max_workers"
    value   = 12
  }
  expert = [
    "inspect_logs(database)",
    "update_config(database, pool_size, 50)",
    "resolve_incident(\"database connection pool exhausted\", \"raised the database pool_size to 50\")",
  ]
}
`
	m, diags := lang.Analyze([]*lang.File{{Name: "t.srez.hcl", Src: []byte(src)}})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	tk, _ := CompileIncident(m, m.Incident("workers_cut_too"), Options{KeepUncertified: true})
	if tk == nil || tk.Certified {
		t.Fatal("a harmful change certified")
	}
	found := false
	for _, u := range tk.Uncertified {
		found = found || strings.HasPrefix(u, "The site's changes (") && strings.Contains(u, "web_server.max_workers") && strings.Contains(u, ") are not harmless: without any fault the site shows ")
	}
	if !found {
		t.Errorf("no finding about the harmful change: %q", tk.Uncertified)
	}
}
