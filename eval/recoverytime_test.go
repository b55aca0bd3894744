package eval_test

import (
	"math"
	"strings"
	"testing"

	"github.com/srezc/srezc/action"
	"github.com/srezc/srezc/compiler"
	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/lang"
	"github.com/srezc/srezc/value"
)

// Recovery takes declared time (issue 19 item 3): each rate a recovery
// follows is a state of its service kind, and these tests count the ticks a
// recovery takes on shipped incidents against what the declared rate says.

// stateValue reads the named state of a service from a row as a float
// (bools as 0 or 1).
func stateValue(t *testing.T, tk *engine.Task, row []uint64, service, name string) float64 {
	t.Helper()
	svc := tk.ServiceIndex(service)
	for i := range tk.Slots {
		sl := &tk.Slots[i]
		if int(sl.Service) != svc || sl.Class != engine.ClassState || sl.Name != name {
			continue
		}
		w := row[i]
		switch sl.Kind {
		case value.Float:
			return math.Float64frombits(w)
		case value.Int:
			return float64(int64(w))
		default:
			if w != 0 {
				return 1
			}
			return 0
		}
	}
	t.Fatalf("%s: no state %s.%s", tk.ID, service, name)
	return 0
}

// shippedTask compiles the shipped incident id.
func shippedTask(t *testing.T, id string) *engine.Task {
	t.Helper()
	m, diags := lang.Analyze(lang.ScenarioFiles())
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	in := m.Incident(id)
	if in == nil {
		t.Fatalf("no shipped incident %s", id)
	}
	tk, diags := compiler.CompileIncident(m, in, compiler.Options{})
	if diags.HasErrors() || tk == nil {
		t.Fatalf("%s does not compile: %v", id, diags)
	}
	return tk
}

// expertUpTo is the expert's plan of seed 1's site up to and including the
// first action starting with prefix.
func expertUpTo(t *testing.T, tk *engine.Task, prefix string) (*engine.Task, []string) {
	t.Helper()
	site := tk.Site(1)
	for i, a := range site.Expert {
		if strings.HasPrefix(a, prefix) {
			return site, site.Expert[:i+1]
		}
	}
	t.Fatalf("%s: the expert never plays %s", tk.ID, prefix)
	return nil, nil
}

// ticksUntil steps a read (which changes nothing) until done holds of the
// episode's row, and returns how many ticks that took.
func ticksUntil(t *testing.T, ep *engine.Episode, read string, limit int, done func(row []uint64) bool) int {
	t.Helper()
	for n := 0; n <= limit; n++ {
		if done(ep.Row()) {
			return n
		}
		if ep.Done() {
			break
		}
		a := action.Bind(ep.Task(), read)
		ep.Step(&a)
	}
	t.Fatalf("not recovered within %d ticks", limit)
	return -1
}

// An index rebuild of N million rows takes 1 + floor(N / rate) ticks,
// rate being the database's declared index_build_mrows_per_tick; the
// sequential scans go on until its last tick.
func TestIndexBuildTakesDeclaredTime(t *testing.T) {
	tk, plan := expertUpTo(t, shippedTask(t, "cascade_index"), "reindex_invalid_indexes(")
	ep := playActions(t, tk, 1, plan)
	rows := stateValue(t, tk, ep.Row(), "database", "orders_rows_m")
	rate := stateValue(t, tk, ep.Row(), "database", "index_build_mrows_per_tick")
	want := 1 + int(math.Floor(rows/rate))
	if stateValue(t, tk, ep.Row(), "database", "orders_index_invalid") != 1 {
		t.Fatal("the index is valid before its rebuild")
	}
	// The operation is applied with its step's tick: the build has one
	// tick behind it when the next read begins.
	got := 1 + ticksUntil(t, ep, "check_status(cache)", 3*want, func(row []uint64) bool {
		return stateValue(t, tk, row, "database", "orders_index_invalid") == 0
	})
	if got != want {
		t.Errorf("rebuild of %.0fM rows at %.0fM a tick took %d ticks, want %d", rows, rate, got, want)
	}
	if want < 3 {
		t.Errorf("a rebuild of %.0fM rows takes %d ticks: the shipped incident no longer shows time passing", rows, want)
	}
}

// Once nothing holds the xmin horizon back, autovacuum reclaims dead row
// versions at its declared rate: from D% down to the 5% floor in
// ceil((D - 5) / rate) ticks.
func TestVacuumTakesDeclaredTime(t *testing.T) {
	tk, plan := expertUpTo(t, shippedTask(t, "creeping_order_latency"), "terminate_idle_transactions(")
	ep := playActions(t, tk, 1, plan[:len(plan)-1])
	dead := stateValue(t, tk, ep.Row(), "database", "dead_tuple_pct")
	rate := stateValue(t, tk, ep.Row(), "database", "vacuum_rate_pct")
	// The operation is applied with its step's tick, so the vacuum's
	// first tick is that step's.
	want := int(math.Ceil((dead - 5) / rate))
	a := action.Bind(tk, plan[len(plan)-1])
	ep.Step(&a)
	got := 1 + ticksUntil(t, ep, "check_status(cache)", 3*want+3, func(row []uint64) bool {
		return stateValue(t, tk, row, "database", "dead_tuple_pct") <= 5
	})
	if got != want {
		t.Errorf("vacuum of %.1f%% dead at %.0f points a tick took %d ticks, want %d", dead, rate, got, want)
	}
	if want < 2 {
		t.Errorf("a vacuum of %.1f%% dead takes %d ticks: the shipped incident no longer shows time passing", dead, want)
	}
}

// A restarted cache comes back empty and, once serving, loads its working
// set at its declared fill rate: warm after restart_ticks + ceil(1 / rate)
// ticks.
func TestCacheWarmUpTakesDeclaredTime(t *testing.T) {
	tk := shippedTask(t, "cascade_index").Site(1)
	ep := playActions(t, tk, 1, []string{"restart_service(cache)"})
	rate := stateValue(t, tk, ep.Row(), "cache", "fill_rate")
	boot := stateValue(t, tk, ep.Row(), "cache", "restart_ticks")
	if w := stateValue(t, tk, ep.Row(), "cache", "warmth"); w != 0 {
		t.Fatalf("a restarted cache holds %.2f of its working set, want 0", w)
	}
	want := int(boot) + int(math.Ceil(1/rate))
	got := ticksUntil(t, ep, "check_status(database)", 3*want, func(row []uint64) bool {
		return stateValue(t, tk, row, "cache", "warmth") >= 1
	})
	if got != want {
		t.Errorf("warm-up at %.2f a tick after %.0f ticks of boot took %d ticks, want %d", rate, boot, got, want)
	}
}
