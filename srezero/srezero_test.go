package srezero

import (
	"strings"
	"testing"

	"github.com/srezc/srezc/internal/snapshot"
	"github.com/srezc/srezc/record"
	"github.com/srezc/srezc/value"
)

// The package's own tests use a small hand-built task; engine's
// refgrade_test.go replays the reference's 440 golden episodes through
// the whole stack.

func testTask() *Task {
	t := &Task{
		RootCause:         "database connection pool exhausted",
		RootCauseKeywords: []string{"pool", "exhausted", "connection"},
		Evidence: []Evidence{
			{Key: "inspect_logs:database", Description: "pool errors in the logs"},
			{Key: "inspect_config:database:DB_POOL_SIZE", Description: "pool size is 2"},
		},
		Fix: Fix{ActionType: "update_config", Service: "database", Key: "DB_POOL_SIZE", HasKey: true,
			MinNumeric: 20, HasMin: true, FixKeywords: []string{"pool", "size"}},
		DistractorServices:        []string{"cache"},
		TerminalOnWrongResolution: true,
	}
	for _, name := range ServiceNames {
		s := Service{Name: name, Status: "healthy", Logs: []string{"INFO ok"}}
		if name == "database" {
			s.Status = "degraded"
			s.Logs = []string{"ERROR connection pool exhausted"}
			s.Config = []Field{{Name: "DB_POOL_SIZE", Value: value.OfInt(2)}}
		}
		t.Services = append(t.Services, s)
	}
	return t
}

type play struct {
	s   *State
	rec record.EpisodeMetrics
	n   int
}

func (p *play) step(a Action) Outcome {
	p.n++
	var o Outcome
	p.s.Step(&a, p.n, &p.rec, &o)
	return o
}

func TestStepGradesAPlan(t *testing.T) {
	p := &play{s: New(testTask(), 10)}
	if o := p.step(Action{Type: "inspect_logs", Service: "database", Canonical: "inspect_logs(database)"}); o.Code != OK || o.Reward <= 0 {
		t.Fatalf("reading relevant logs: %+v", o)
	}
	o := p.step(Action{Type: "inspect_config", Service: "database", Key: "db_pool_size", HasKey: true, Canonical: "inspect_config(database, db_pool_size)"})
	if o.Key != KeyUnset || o.Detail != "db_pool_size" {
		t.Errorf("a lower-case key is looked up as typed (§14 item 1): %+v", o)
	}
	if p.s.Coverage() != 1 {
		t.Errorf("the upper-cased key earns the evidence: coverage %v", p.s.Coverage())
	}
	o = p.step(Action{Type: "restart_service", Service: "cache", Canonical: "restart_service(cache)"})
	if o.Code != OK || p.rec.DistractorFailures != 1 || p.s.Breakdown().Penalties.RestartUnrelatedService != -0.10 {
		t.Errorf("restarting a distractor: %+v %+v", o, p.rec)
	}
	o = p.step(Action{Type: "update_config", Service: "database", Key: "DB_POOL_SIZE", Value: value.OfInt(50), Canonical: "update_config(database, DB_POOL_SIZE, 50)"})
	if o.Key != 0 || o.Previous != value.OfInt(2) || !p.rec.CorrectRemediationApplied {
		t.Errorf("the fix: %+v %+v", o, p.rec)
	}
	o = p.step(Action{Type: "resolve_incident", RootCause: "The DB connection pool was exhausted", Fix: "raised the pool size", Canonical: "resolve_incident(...)"})
	if !o.Done || o.End != Resolved || !p.rec.Success || p.rec.StepsToResolution != 5 {
		t.Fatalf("the resolution: %+v %+v", o, p.rec)
	}
	b := p.s.Breakdown()
	want := 0.20 + 0.25 + 0.25 + 0.20 + 0.10*0.5 - 0.15 - 0.10
	if d := b.RawTotal - want; d > 1e-12 || d < -1e-12 || b.Total != b.RawTotal || p.rec.FinalReward != b.Total {
		t.Errorf("breakdown %+v, want raw %v", b, want)
	}
	if got := p.s.KnownFindings(); strings.Join(got, "|") != "pool errors in the logs|pool size is 2" {
		t.Errorf("known findings %q", got)
	}
}

func TestInvalidAndRepeatedActions(t *testing.T) {
	p := &play{s: New(testTask(), 3)}
	bad := Action{Err: "inspect_logs requires a service.", Canonical: "inspect_logs()"}
	if o := p.step(bad); o.Code != Arity || o.Type != -1 {
		t.Errorf("a parse error: %+v", o)
	}
	if o := p.step(bad); o.Code != Arity || p.rec.RepeatedActions != 1 || p.s.Breakdown().Penalties.RepeatedInvalidAction != -0.10 {
		t.Errorf("the same parse error again: %+v %+v", o, p.rec)
	}
	o := p.step(Action{Type: "check_status", Service: "nowhere", Canonical: "check_status(nowhere)"})
	if o.Code != UnknownService || o.Detail != "nowhere" || !o.Done || o.End != Budget {
		t.Errorf("an unknown service on the last step: %+v", o)
	}
	var nilOutcome Outcome
	New(testTask(), 3).Step(nil, 1, &p.rec, &nilOutcome)
	if nilOutcome.Code != Syntax || nilOutcome.Detail != ErrUnbound {
		t.Errorf("a nil action: %+v", nilOutcome)
	}
}

func TestCodeOf(t *testing.T) {
	for msg, want := range map[string]Code{
		"":                                      OK,
		"Unknown action: reboot":                UnknownAction,
		"escalate requires a reason.":           EmptyText,
		"inspect_logs requires a service.":      Arity,
		"update_config takes 3 arguments.":      Arity,
		"update_config requires key and value.": Arity,
		"Could not parse action.":               Syntax,
	} {
		if got := CodeOf(msg); got != want {
			t.Errorf("CodeOf(%q) = %d, want %d", msg, got, want)
		}
	}
}

// Marshal and Restore round-trip a played state; a truncated or corrupt
// snapshot is an error and leaves the state it was read against as it was.
func TestSnapshotRoundTrip(t *testing.T) {
	p := &play{s: New(testTask(), 10)}
	p.step(Action{Type: "inspect_logs", Service: "database", Canonical: "inspect_logs(database)"})
	p.step(Action{Type: "update_config", Service: "web_server", Key: "NEW", Value: value.OfString("x"), Canonical: "u"})
	p.step(Action{Type: "restart_service", Service: "cache", Canonical: "r"})
	data := p.s.Marshal(nil)
	fresh := New(testTask(), 10)
	rd := &snapshot.Reader{B: data}
	got := fresh.Restore(rd)
	if rd.Err != nil || len(rd.B) != 0 {
		t.Fatalf("restore: %v, %d bytes left", rd.Err, len(rd.B))
	}
	if string(got.Marshal(nil)) != string(data) || got.Breakdown() != p.s.Breakdown() {
		t.Errorf("the restored state differs")
	}
	if w := got.World(); w[2].Status != "healthy" || w[2].Logs[len(w[2].Logs)-1] != RestartLog || w[0].Config[0].Name != "NEW" {
		t.Errorf("restored world %+v", w)
	}
	for n := range data {
		rd := &snapshot.Reader{B: data[:n]}
		fresh.Restore(rd)
		if rd.Err == nil {
			t.Fatalf("a snapshot cut at %d of %d bytes restored", n, len(data))
		}
	}
	if fresh.Coverage() != 0 || len(fresh.World()[0].Config) != 0 {
		t.Errorf("a failed restore changed the state it read against")
	}
}

func TestValidate(t *testing.T) {
	if err := testTask().Validate(); err != nil {
		t.Fatal(err)
	}
	for name, spoil := range map[string]func(*Task){
		"a service missing":      func(t *Task) { t.Services = t.Services[1:] },
		"services out of order":  func(t *Task) { t.Services[0], t.Services[1] = t.Services[1], t.Services[0] },
		"a config key twice":     func(t *Task) { t.Services[1].Config = append(t.Services[1].Config, t.Services[1].Config[0]) },
		"a value unset":          func(t *Task) { t.Services[1].Config[0].Value = value.Value{} },
		"an unknown dependency":  func(t *Task) { t.Services[0].Dependencies = []string{"dns"} },
		"an unknown fix type":    func(t *Task) { t.Fix.ActionType = "rollback" },
		"an unknown fix service": func(t *Task) { t.Fix.Service = "dns" },
		"a key without has_key":  func(t *Task) { t.Fix.HasKey = false },
		"an unknown distractor":  func(t *Task) { t.DistractorServices = []string{"dns"} },
	} {
		tk := testTask()
		spoil(tk)
		if tk.Validate() == nil {
			t.Errorf("%s: validated", name)
		}
	}
}

// Python's str.upper() and normalize_text, where Go's simple case mapping
// alone would differ.
func TestPythonText(t *testing.T) {
	for in, want := range map[string]string{"straße": "STRASSE", "ﬁx_key": "FIX_KEY", "db_pool": "DB_POOL"} {
		if got := string(appendPyUpper(nil, in)); got != want {
			t.Errorf("upper(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{
		"  DB_Pool-Size\texhausted ": "db pool size exhausted",
		"İNDEX":                      "i\u0307ndex",
		"a\u00a0b\u2003c":            "a b c",
		"":                           "",
	} {
		if got := string(appendNormalized(nil, in)); got != want {
			t.Errorf("normalize(%q) = %q, want %q", in, got, want)
		}
	}
}
