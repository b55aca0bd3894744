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
	return slotValue(t, tk, row, service, engine.ClassState, name)
}

// derivedValue reads the named derived quantity of a service from a row.
func derivedValue(t *testing.T, tk *engine.Task, row []uint64, service, name string) float64 {
	t.Helper()
	return slotValue(t, tk, row, service, engine.ClassDerived, name)
}

func slotValue(t *testing.T, tk *engine.Task, row []uint64, service string, class engine.SlotClass, name string) float64 {
	t.Helper()
	svc := tk.ServiceIndex(service)
	for i := range tk.Slots {
		sl := &tk.Slots[i]
		if int(sl.Service) != svc || sl.Class != class || sl.Name != name {
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
	t.Fatalf("%s: no %s %s.%s", tk.ID, class, service, name)
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
	tk, plan := expertUpTo(t, shippedTask(t, "cascade_index"), "reindex(database, orders_uid_idx)")
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

// queueRates are what a backlog's next tick follows, read from one row: the
// seconds a tick stands for, the deliveries arriving and the deliveries the
// consumers can take per second, the jobs in flight (the floor) and the
// queue's x-max-length (the cap).
type queueRates struct {
	depth, dt, inflow, capacity, floor, cap float64
}

func readQueue(t *testing.T, tk *engine.Task, row []uint64) queueRates {
	t.Helper()
	return queueRates{
		depth:    stateValue(t, tk, row, "message_queue", "depth"),
		dt:       stateValue(t, tk, row, "message_queue", "tick_s"),
		inflow:   derivedValue(t, tk, row, "message_queue", "work_rate"),
		capacity: derivedValue(t, tk, row, "message_queue", "capacity_rps"),
		floor:    derivedValue(t, tk, row, "message_queue", "in_flight"),
		cap:      stateValue(t, tk, row, "message_queue", "max_length"),
	}
}

// A backlog moves by tick_s seconds of its rates each tick: it grows by
// dt * (inflow - capacity) while the consumers fall short and, once they are
// enough, falls by dt * (capacity - inflow) a tick down to the jobs in
// flight, so draining D messages takes ceil((D - floor) / (dt * (capacity -
// inflow))) ticks. mq_backlog's fix raises the consumers back.
func TestBacklogDrainTakesDeclaredTime(t *testing.T) {
	tk, plan := expertUpTo(t, shippedTask(t, "mq_backlog"), "update_config(message_queue, consumer_concurrency,")
	ep := playActions(t, tk, 1, plan[:1])
	if q := readQueue(t, tk, ep.Row()); q.dt != 60 {
		t.Fatalf("a tick stands for %g s of the queue's rates, want 60 (the logs' clock moves a minute a tick)", q.dt)
	}
	// next checks one tick of the rule against the rates of the tick
	// before; the engine rounds the product as Go does here.
	next := func(q queueRates) float64 {
		return min(max(q.depth+float64(q.dt*(q.inflow-q.capacity)), q.floor), q.cap)
	}
	step := func(text string) {
		a := action.Bind(tk, text)
		ep.Step(&a)
	}
	// Growth: the reads before the fix (at the cap the queue stays full).
	for _, text := range plan[1 : len(plan)-1] {
		q := readQueue(t, tk, ep.Row())
		if q.inflow <= q.capacity {
			t.Fatalf("before the fix the consumers keep up: %.1f/s in, %.1f/s out", q.inflow, q.capacity)
		}
		step(text)
		if got, want := readQueue(t, tk, ep.Row()).depth, next(q); got != want {
			t.Errorf("growing at %.1f/s in, %.1f/s out: depth %.1f -> %.1f, want %.1f (+%g s of the excess)", q.inflow, q.capacity, q.depth, got, want, q.dt)
		}
	}
	step(plan[len(plan)-1])
	// Drain: the fix applies with its step's tick, so its row already
	// has the consumers' new capacity and the backlog left to drain.
	start := readQueue(t, tk, ep.Row())
	if start.inflow >= start.capacity {
		t.Fatalf("after the fix the consumers still fall short: %.1f/s in, %.1f/s out", start.inflow, start.capacity)
	}
	want := int(math.Ceil((start.depth - start.floor) / (start.dt * (start.capacity - start.inflow))))
	got := ticksUntil(t, ep, "check_status(database)", 3*want+3, func(row []uint64) bool {
		return readQueue(t, tk, row).depth <= start.floor
	})
	t.Logf("draining %.0f messages to %.1f in flight at %.1f/s out, %.1f/s in: %d ticks", start.depth, start.floor, start.capacity, start.inflow, got)
	if got != want {
		t.Errorf("draining %.0f messages at %.1f/s out and %.1f/s in took %d ticks, want %d", start.depth, start.capacity, start.inflow, got, want)
	}
	if want < 2 {
		t.Errorf("a drain of %.0f messages takes %d ticks: the shipped incident no longer shows time passing", start.depth, want)
	}
	// Replay the drain tick by tick: each tick falls by exactly
	// dt * (capacity - inflow), the last one onto the floor.
	ep = playActions(t, tk, 1, plan)
	for k := 0; k < want; k++ {
		q := readQueue(t, tk, ep.Row())
		step("check_status(database)")
		if got, want := readQueue(t, tk, ep.Row()).depth, next(q); got != want {
			t.Fatalf("drain tick %d at %.1f/s out, %.1f/s in: depth %.1f -> %.1f, want %.1f", k+1, q.capacity, q.inflow, q.depth, got, want)
		}
	}
}
