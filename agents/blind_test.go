package agents

import (
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// blindDocs is a two-service system: web depends on db.
var blindDocs = &Knowledge{
	ServiceKinds: map[string]string{"web": "web_server", "db": "database"},
	DependsOn:    map[string][]string{"web": {"db"}},
	Keys: map[string][]KeyDoc{
		"database": {
			{Name: "pool_size", HasBand: true, Band: Band{20, 150}, Default: "50", Mechanism: "pool exhausted", Below: "pool exhausted", Above: "too many connections"},
			{Name: "max_connections", HasBand: true, Band: Band{100, 500}, Default: "200", Mechanism: "too many connections"},
			{Name: "maintenance_mode", Default: "false", Mechanism: "maintenance mode"},
		},
		"web_server": {
			{Name: "timeout_ms", HasBand: true, Band: Band{1000, 10000}, Default: "3000", Mechanism: "timeout too low"},
			{Name: "cache_host", Default: `"cache.internal"`, Mechanism: "cache bypassed"},
		},
	},
	Mechanisms: []MechanismDoc{
		{Name: "process_crashed", Wording: "crashed", Text: "process_crashed The process is not running. service_crash The service's process has stopped and is not restarted by its supervisor.", Kinds: []string{"web_server", "database"}},
		{Name: "connection_pool_exhausted", Wording: "pool exhausted", Text: "connection_pool_exhausted Too few pooled connections for the load: callers wait for a connection and time out.", Kinds: []string{"database"}},
		{Name: "timeout_too_low", Wording: "timeout too low", Text: "timeout_too_low A request, statement or idle deadline is shorter than normal work takes.", Kinds: []string{"web_server", "database"}},
	},
	Crash: "crashed",
}

const blindIntro = "ALERT: Pages are slow.\nYou are on call. Step budget: 12.\nServices: web db\nTools:\n  check_status(service)\n"

// world answers the blind agent's reads from fixed statuses, configs and
// logs, as the runtime words them.
type world struct {
	status map[string]string
	config map[string]string // service → its config lines
	logs   map[string]string
}

func (w world) observe(step, budget int, action string) string {
	head := "[step " + strconv.Itoa(step) + "/" + strconv.Itoa(budget) + "] "
	tool, svc := toolAndService(action)
	switch tool {
	case "check_status":
		return head + svc + " status: " + w.status[svc] + "\n"
	case "check_dependencies":
		out := head + svc + " depends on:\n"
		for _, d := range blindDocs.DependsOn[svc] {
			out += "  " + d + " -> " + d + " (" + w.status[d] + ")\n"
		}
		return out
	case "inspect_config":
		return head + svc + " config:\n" + w.config[svc]
	case "inspect_logs":
		return head + svc + " logs, last 3 ticks:\n" + w.logs[svc]
	case "restart_service":
		w.status[svc] = "healthy" // by the next read
		return head + "Restart of " + svc + " requested.\n"
	}
	return head + "ok\n"
}

// playBlind runs a policy against a world and returns its actions.
func playBlind(p BlindPolicy, intro string, w world) []string {
	b := NewBlind(blindDocs, p)
	b.Begin(intro)
	budget := ParseIntro(intro).Budget
	status := map[string]string{}
	for s, st := range w.status {
		status[s] = st
	}
	w.status = status
	var out []string
	obs := ""
	for len(out) < 40 {
		a, ok := b.Act(obs)
		if !ok {
			break
		}
		out = append(out, a)
		obs = w.observe(len(out), budget, a)
	}
	return out
}

var poolWorld = world{
	status: map[string]string{"web": "degraded", "db": "degraded"},
	config: map[string]string{
		"web": "  timeout_ms = 4000\n  cache_host = cache.internal\n",
		"db":  "  pool_size = 6\n  max_connections = 300\n  maintenance_mode = false\n",
	},
	logs: map[string]string{
		"web": "  t=1 ERROR GET /orders upstream=db context deadline exceeded after 4000ms\n",
		"db":  "  t=1 ERROR pool timeout waiting for connection after 1000ms active=6/6\n  t=2 ERROR pool timeout waiting for connection after 1000ms active=6/6\n",
	},
}

func TestResetBandResetsOnlyWhatIsOutOfBand(t *testing.T) {
	got := playBlind(ResetBand, blindIntro, poolWorld)
	want := []string{"check_status(web)", "check_status(db)", "inspect_config(web)", "inspect_config(db)",
		"update_config(db, pool_size, 50)",
		`resolve_incident("db: pool exhausted (pool_size was 6)", "set db pool_size back to 50")`}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("reset-band played\n %q\nwant\n %q", got, want)
	}
}

func TestResetDocsResetsEverythingOffItsDefault(t *testing.T) {
	got := playBlind(ResetDocs, blindIntro, poolWorld)
	want := []string{"check_status(web)", "check_status(db)", "inspect_config(web)",
		"update_config(web, timeout_ms, 3000)", "inspect_config(db)",
		"update_config(db, pool_size, 50)", "update_config(db, max_connections, 200)",
		`resolve_incident("web: timeout too low (timeout_ms was 4000); db: pool exhausted (pool_size was 6); db: too many connections (max_connections was 300)", "set web timeout_ms back to 3000; set db pool_size back to 50; set db max_connections back to 200")`}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("reset-docs played\n %q\nwant\n %q", got, want)
	}
}

func TestResetNamesTheMechanismOfTheDirection(t *testing.T) {
	w := poolWorld
	w.config = map[string]string{"web": "", "db": "  pool_size = 400\n"}
	got := playBlind(ResetBand, blindIntro, w)
	if last := got[len(got)-1]; !strings.Contains(last, `"db: too many connections (pool_size was 400)"`) {
		t.Errorf("a pool above its band is named %s, want the mechanism of a pool too large", last)
	}
}

// A restarted service is checked until it shows healthy before the
// resolution.
func TestResetRestartsWhatIsDownFirst(t *testing.T) {
	w := poolWorld
	w.status = map[string]string{"web": "degraded", "db": "down"}
	w.config = map[string]string{"web": "  timeout_ms = 3000\n", "db": "  pool_size = 50\n"}
	got := playBlind(ResetBand, blindIntro, w)
	want := []string{"check_status(web)", "check_status(db)", "restart_service(db)", "inspect_config(web)", "inspect_config(db)",
		"check_status(db)", `resolve_incident("db: crashed", "restarted db")`}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("reset-band played\n %q\nwant\n %q", got, want)
	}
}

// With a budget of 5 the policy has room for two reads, a write and the
// resolution: it stops reading and still resolves on the last step.
func TestBlindResolvesWithinTheBudget(t *testing.T) {
	intro := strings.Replace(blindIntro, "Step budget: 12.", "Step budget: 5.", 1)
	for _, p := range BlindPolicies() {
		got := playBlind(p, intro, poolWorld)
		if len(got) > 5 {
			t.Errorf("%s played %d actions on a budget of 5: %q", p, len(got), got)
		}
		last := got[len(got)-1]
		if !strings.HasPrefix(last, "resolve_incident(") && !strings.HasPrefix(last, "escalate(") {
			t.Errorf("%s ended with %s, want a resolution or an escalation", p, last)
		}
	}
}

func TestRestartUnhealthyNamesOnlyWhatWasDown(t *testing.T) {
	w := poolWorld
	w.status = map[string]string{"web": "degraded", "db": "down"}
	got := playBlind(RestartUnhealthy, blindIntro, w)
	want := []string{"check_status(web)", "check_status(db)", "restart_service(db)", "restart_service(web)",
		"check_status(db)", "check_status(web)", `resolve_incident("db: crashed", "restarted db; restarted web")`}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("restart-unhealthy played\n %q\nwant\n %q", got, want)
	}
	w.status = map[string]string{"web": "degraded", "db": "healthy"}
	got = playBlind(RestartUnhealthy, blindIntro, w)
	if last := got[len(got)-1]; last != `resolve_incident("web: crashed", "restarted web")` {
		t.Errorf("with nothing down, restart-unhealthy ended with %s, want web named", last)
	}
}

func TestLogWordsFollowsTheBestMatchingMechanism(t *testing.T) {
	got := playBlind(LogWords, blindIntro, poolWorld)
	want := []string{"inspect_logs(web)", "inspect_logs(db)", "inspect_config(db)", "update_config(db, pool_size, 50)",
		`resolve_incident("db: pool exhausted (pool_size was 6)", "set db pool_size back to 50")`}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("log-words played\n %q\nwant\n %q", got, want)
	}
	// A crash's words call for a restart, with no config read.
	w := poolWorld
	w.logs = map[string]string{"web": "", "db": "  t=1 ERROR supervisor: postgres process exited code=137; not restarted\n"}
	got = playBlind(LogWords, blindIntro, w)
	if got[2] != "restart_service(db)" {
		t.Errorf("log-words on a crash played %q, want a restart of db third", got)
	}
}

func TestAlwaysEscalateEscalatesAtOnce(t *testing.T) {
	got := playBlind(AlwaysEscalate, blindIntro, poolWorld)
	if len(got) != 1 || !strings.HasPrefix(got[0], "escalate(") {
		t.Errorf("always-escalate played %q", got)
	}
}

func TestBlindPolicyNames(t *testing.T) {
	for _, name := range BlindAgentNames() {
		p, ok := ParseBlindPolicy(name)
		if !ok || BlindPrefix+p.String() != name {
			t.Errorf("%s does not parse back", name)
		}
	}
	if _, ok := ParseBlindPolicy("blind-nothing"); ok {
		t.Error("an unknown blind policy parses")
	}
}

func TestParseIntroReadsTheBudget(t *testing.T) {
	if got := ParseIntro(blindIntro).Budget; got != 12 {
		t.Errorf("budget = %d, want 12", got)
	}
	if got := ParseIntro("Services: a\n").Budget; got != 0 {
		t.Errorf("budget without a statement = %d, want 0", got)
	}
}

// A service that does not come back is checked twice, then the policy
// resolves with what it did.
func TestSettleGivesUpAfterTwoChecks(t *testing.T) {
	w := poolWorld
	w.status = map[string]string{"web": "healthy", "db": "down"}
	w.config = map[string]string{}
	b := NewBlind(blindDocs, RestartUnhealthy)
	b.Begin(blindIntro)
	var got []string
	for obs := ""; len(got) < 20; {
		a, ok := b.Act(obs)
		if !ok {
			break
		}
		got = append(got, a)
		obs = "[step 1/12] db status: down\n"
		if tool, svc := toolAndService(a); tool == "check_status" {
			obs = "[step 1/12] " + svc + " status: " + w.status[svc] + "\n"
		}
	}
	want := []string{"check_status(web)", "check_status(db)", "restart_service(db)", "check_status(db)", "check_status(db)",
		`resolve_incident("db: crashed", "restarted db")`}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("restart-unhealthy played\n %q\nwant\n %q", got, want)
	}
}
