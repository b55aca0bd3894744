package eval_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/srezc/srezc/action"
	"github.com/srezc/srezc/engine"
)

// Issue 19, "Done when": every read tool's output of every shipped incident
// carries timestamps and varying ids. What a read can carry differs by
// tool: a log line and a trace are events (a time, request, job and trace
// ids); metrics, config, status and dependencies are state and carry the
// tick and time of the read; the change history stamps every entry.

var (
	clockStamp = regexp.MustCompile(`\b\d\d:\d\d:\d\d\.\d{3}\b`)
	tickStamp  = regexp.MustCompile(`\bt=\d+\b`)
	// eventID matches the ids a read draws: 16- and 32-digit hex request,
	// trace and span ids, UUIDs of jobs.
	eventID = regexp.MustCompile(`\b(?:[0-9a-f]{32}|[0-9a-f]{16}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\b`)
	traceID = regexp.MustCompile(`trace_id=([0-9a-f]{32})`)
	// changeStamp is the day and minute of a change history entry.
	changeStamp = regexp.MustCompile(`^\s+(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d\d:\d\d\s`)
)

// eventTools are the read tools whose output is a list of events, each
// stamped with its time and carrying ids of its own.
var eventTools = []string{"inspect_logs", "inspect_traces"}

// stateTools are the read tools that show state rather than events: the
// read carries the tick and time it was taken.
var stateTools = []string{"inspect_metrics", "inspect_config", "check_status", "check_dependencies"}

// readAt renders what action a shows on a fork of ep.
func readAt(tk *engine.Task, ep *engine.Episode, a string) string {
	f := ep.Fork()
	act := action.Bind(tk, a)
	r := f.Step(&act)
	return string(f.AppendText(nil, &r.Obs))
}

// TestReadsCarryTimesAndIDs reads every service with every event tool on
// two consecutive ticks of every shipped incident: each read carries the
// tick and a clock time on every event, no id repeats within a read (so
// ids differ from line to line and tick to tick), and a trace read on the
// next tick has another trace id.
func TestReadsCarryTimesAndIDs(t *testing.T) {
	tasks, _ := shippedSuite(t)
	for _, tk := range tasks {
		ep := engine.NewEpisode(tk)
		ep.Reset(1)
		next := ep.Fork()
		wait := action.Bind(tk, "check_status("+tk.Services[0].Name+")")
		next.Step(&wait)
		for _, s := range tk.Services {
			for _, tool := range eventTools {
				a := tool + "(" + s.Name + ")"
				now, later := readAt(tk, ep, a), readAt(tk, next, a)
				for _, out := range []string{now, later} {
					checkEventRead(t, tk.ID, a, out)
				}
				if tool == "inspect_traces" {
					m1, m2 := traceID.FindStringSubmatch(now), traceID.FindStringSubmatch(later)
					if m1 == nil || m2 == nil {
						t.Errorf("%s %s: no trace id:\n%s", tk.ID, a, now)
					} else if m1[1] == m2[1] {
						t.Errorf("%s %s: the same trace id %s on two ticks", tk.ID, a, m1[1])
					}
				}
			}
			for _, tool := range stateTools {
				a := tool + "(" + s.Name + ")"
				out := readAt(tk, ep, a)
				head, _, _ := strings.Cut(out, "\n")
				if !clockStamp.MatchString(head) || !tickStamp.MatchString(head) {
					t.Errorf("%s %s: the read carries no tick and time: %q", tk.ID, a, head)
				}
			}
		}
		// The change history stamps every entry with its day and minute.
		out := readAt(tk, ep, "list_changes()")
		for _, l := range strings.Split(strings.TrimRight(out, "\n"), "\n")[1:] {
			if !changeStamp.MatchString(l) {
				t.Errorf("%s list_changes(): an entry without its time: %q", tk.ID, l)
			}
		}
	}
}

// checkEventRead checks one event read: every event line carries its tick
// and clock time, and no id repeats.
func checkEventRead(t *testing.T, incident, a, out string) {
	t.Helper()
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if len(lines) < 2 {
		t.Errorf("%s %s: nothing read:\n%s", incident, a, out)
		return
	}
	// The first line is the read's header; a trace stamps it, a log
	// stamps each line.
	events := lines[1:]
	if strings.HasPrefix(a, "inspect_traces") {
		events = lines[:1]
	}
	for _, l := range events {
		if strings.Contains(l, "(no log lines)") {
			continue
		}
		if !clockStamp.MatchString(l) || !tickStamp.MatchString(l) {
			t.Errorf("%s %s: a line without its tick and time: %q", incident, a, l)
		}
	}
	seen := map[string]bool{}
	for _, id := range eventID.FindAllString(out, -1) {
		if seen[id] {
			t.Errorf("%s %s: id %s repeats within one read:\n%s", incident, a, id, out)
			return
		}
		seen[id] = true
	}
}
