package engine_test

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/srezc/srezc/engine"
)

// logLine is a rendered log line under obs/7: tick, time, level, text.
var logLine = regexp.MustCompile(`^  t=(-?\d+) (\d\d):(\d\d):(\d\d)\.(\d\d\d) (INFO|WARN|ERROR) (.*)$`)

func logsAt(t *testing.T, tk *engine.Task, seed uint64, advance int, svc string) []string {
	t.Helper()
	ep := engine.NewEpisode(tk)
	ep.Reset(seed)
	for i := 0; i < advance; i++ {
		ep.Advance()
	}
	var out []string
	for _, l := range strings.Split(observe(t, tk, ep, "inspect_logs("+svc+")"), "\n") {
		if strings.HasPrefix(l, "  t=") {
			out = append(out, l)
		}
	}
	return out
}

// TestLogLinesCarryTimeAndIDs: every log line has a time within its
// tick's minute, in order within the tick; the agent arrives at the
// alert's minute; ids are the same on every read of a line, differ from
// tick to tick and from seed to seed, and a service's main pid is one per
// episode.
func TestLogLinesCarryTimeAndIDs(t *testing.T) {
	_, tasks := shipped(t)
	tk := tasks["db_pool"]
	a, again := logsAt(t, tk, 1, 0, "database"), logsAt(t, tk, 1, 0, "database")
	if strings.Join(a, "\n") != strings.Join(again, "\n") {
		t.Fatalf("two reads of the same tick differ:\n%s\n%s", a, again)
	}
	if len(a) < 6 {
		t.Fatalf("want lines on three ticks, got %q", a)
	}
	byTick := map[string][]string{}
	var ticks []string
	for _, l := range a {
		m := logLine.FindStringSubmatch(l)
		if m == nil {
			t.Fatalf("line without tick, time and level: %q", l)
		}
		if byTick[m[1]] == nil {
			ticks = append(ticks, m[1])
		}
		byTick[m[1]] = append(byTick[m[1]], m[2]+":"+m[3]+":"+m[4]+"."+m[5]+" "+m[7])
	}
	// A tick is a minute and the agent arrives (InitTick) at the alert's
	// minute; a read is a step, so it shows the tick after.
	last := ticks[len(ticks)-1]
	lastTick, _ := strconv.Atoi(last)
	clock := engine.WeekMinute(int(tk.AlertMinute) + lastTick - tk.InitTick)[4:] // "Tue 14:03" -> "14:03"
	if !strings.HasPrefix(byTick[last][0], clock+":") {
		t.Errorf("the arrival tick's lines are stamped %q, want the alert's minute %s", byTick[last][0], clock)
	}
	for _, k := range ticks {
		for i := 1; i < len(byTick[k]); i++ {
			if byTick[k][i][:12] <= byTick[k][i-1][:12] {
				t.Errorf("tick %s: times out of order: %q then %q", k, byTick[k][i-1], byTick[k][i])
			}
		}
	}
	// The pgbouncer stats line: the same main pid on every tick; the
	// client line: a new client id and port on every tick.
	stats := regexp.MustCompile(`pgbouncer\[(\d+)\]: stats:`)
	client := regexp.MustCompile(`(C-0x[0-9a-f]{8}: \S+:\d+) closing`)
	pids, clients := map[string]bool{}, map[string]bool{}
	for _, k := range ticks {
		for _, l := range byTick[k] {
			if m := stats.FindStringSubmatch(l); m != nil {
				pids[m[1]] = true
			}
			if m := client.FindStringSubmatch(l); m != nil {
				clients[m[1]] = true
			}
		}
	}
	if len(pids) != 1 {
		t.Errorf("pgbouncer's pid varies within an episode: %v", pids)
	}
	if len(clients) != len(ticks) {
		t.Errorf("client ids repeat across %d ticks: %v", len(ticks), clients)
	}
	other := logsAt(t, tk, 2, 0, "database")
	if strings.Join(a, "\n") == strings.Join(other, "\n") {
		t.Errorf("seeds 1 and 2 show the same log lines")
	}
}
