package agents

import (
	"reflect"
	"testing"
)

var docs = &Knowledge{
	ServiceKinds: map[string]string{"lb": "load_balancer", "db": "database"},
	Aliases:      map[string][]string{"database": {"database", "postgres"}, "load_balancer": {"load balancer"}},
	Metrics:      map[string]map[string]Band{"database": {"wait_ms": {0, 50}}},
	Keys: map[string][]KeyDoc{"database": {
		{Name: "mode", Default: `"rw"`},
		{Name: "pool_size", HasBand: true, Band: Band{20, 150}, Default: "50", Mechanism: "connection pool"},
	}},
	Crash: "crashed",
}

const greedyIntro = "ALERT: Postgres is slow and the load balancer times out.\nServices: lb db\nTools:\n  check_status(service)\n"

// walk plays the greedy agent against scripted observations.
func walk(g *Greedy, obs []string) []string {
	g.Begin(greedyIntro)
	var out []string
	last := ""
	for i := 0; ; i++ {
		a, ok := g.Act(last)
		if !ok {
			break
		}
		out = append(out, a)
		if i < len(obs) {
			last = obs[i]
		} else {
			last = ""
		}
		if len(out) > 10 {
			break
		}
	}
	return out
}

func TestGreedyFixesTheFirstOutOfBandKey(t *testing.T) {
	got := walk(NewGreedy(docs), []string{
		"[step 1/9] db status: degraded\n",
		"[step 2/9] db logs, last 3 ticks:\n  t=3 ERROR pool timeout\n",
		"[step 3/9] db metrics, last 4 ticks (oldest first):\n  wait_ms  60.0 61.0 62.0 63.0 ms\n",
		"[step 4/9] db config:\n  mode = rw\n  pool_size = 6\n",
		"[step 5/9] Config db.pool_size set to 50 (was 6).\n",
	})
	want := []string{"check_status(db)", "inspect_logs(db)", "inspect_metrics(db)", "inspect_config(db)",
		"update_config(db, pool_size, 50)", `resolve_incident("db: connection pool", "set pool_size back to 50")`}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("greedy played\n %q\nwant\n %q", got, want)
	}
}

func TestGreedyRestartsADownService(t *testing.T) {
	got := walk(NewGreedy(docs), []string{"[step 1/9] db status: down\n", "[step 2/9] db logs:\n", "[step 3/9] db metrics:\n", "[step 4/9] Restart of db requested.\n"})
	want := []string{"check_status(db)", "inspect_logs(db)", "inspect_metrics(db)", "restart_service(db)", `resolve_incident("db: crashed", "restarted db")`}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("greedy played\n %q\nwant\n %q", got, want)
	}
}

func TestGreedyGivesUpWithoutAnAnomaly(t *testing.T) {
	got := walk(NewGreedy(docs), []string{"[step 1/9] db status: healthy\n", "[step 2/9] db logs:\n  t=1 INFO ok\n", "[step 3/9] db metrics:\n  wait_ms  1.0 1.0 1.0 1.0 ms\n"})
	if n := len(got); n != 4 || got[3] != `escalate("no anomaly on db")` {
		t.Errorf("greedy played %q, want three reads and an escalation", got)
	}
}

func TestGreedyPicksTheServiceTheAlertNamesFirst(t *testing.T) {
	g := NewGreedy(docs)
	g.Begin(greedyIntro)
	if g.service != "db" { // "Postgres" comes before "load balancer"
		t.Errorf("alerted service = %q, want db", g.service)
	}
	g.Begin("ALERT: Something is off.\nServices: lb db\n")
	if g.service != "lb" {
		t.Errorf("with no service named, alerted service = %q, want the first, lb", g.service)
	}
}
