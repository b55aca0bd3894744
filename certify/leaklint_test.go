package certify_test

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/srezc/srezc/certify"
	"github.com/srezc/srezc/compiler"
	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/lang"
)

const certifyCasesDir = "../testdata/certify"

// certifyCases names every archive of testdata/certify and the rule it
// breaks: the failure certification must report, and nothing else.
var certifyCases = map[string]*regexp.Regexp{
	"budget_unsolvable":            regexp.MustCompile(`^The expert plan does not succeed: it needs \d+ steps, the budget is \d+\.$`),
	"optimum_over_budget":          regexp.MustCompile(`^The incident cannot be solved in its budget:`),
	"expert_outside_fix_range":     regexp.MustCompile(`^The expert plan does not succeed: \S+ is outside the fix range `),
	"expert_wrong_change":          regexp.MustCompile(`^The expert plan does not succeed: it leaves \w+ of \w+ changed from `),
	"expert_wrong_diagnosis":       regexp.MustCompile(`^The expert plan does not succeed: the diagnosis does not match `),
	"expert_never_fixes":           regexp.MustCompile(`^The expert plan does not succeed: it never fixes the fault `),
	"fixed_when_too_lenient":       regexp.MustCompile(`^The expert plan does not succeed: every fault's fixed_when holds when it resolves, but the world is not mitigated \(kv_main is degraded\): `),
	"restart_all":                  regexp.MustCompile(`^The answer-blind policy "restart every service" succeeds:`),
	"band_maximum":                 regexp.MustCompile(`^The answer-blind policy "every key of \w+ to its band maximum" succeeds:`),
	"band_minimum":                 regexp.MustCompile(`^The answer-blind policy "every key of \w+ to its band minimum" succeeds:`),
	"defaults":                     regexp.MustCompile(`^The answer-blind policy "every key of \w+ to its default" succeeds:`),
	"generic_diagnosis":            regexp.MustCompile(`^The answer-blind policy "expert's writes, generic diagnosis" succeeds:`),
	"resolve_at_once":              regexp.MustCompile(`^The answer-blind policy "resolve at once, generic diagnosis" succeeds:`),
	"stuffed_diagnosis":            regexp.MustCompile(`^The answer-blind policy "expert's writes, stuffed diagnosis" succeeds:`),
	"resolve_at_once_stuffed":      regexp.MustCompile(`^The answer-blind policy "resolve at once, stuffed diagnosis" succeeds:`),
	"indistinguishable_distractor": regexp.MustCompile(`^The incident cannot be told apart from the distractor "feeder_burst" on feeder alone: no read differs\.$`),
	"unreachable_evidence":         regexp.MustCompile(`^The rubric item "evidence" cannot be earned:`),
	"leak_log_line":                regexp.MustCompile(`^Leak: the template of log "\w+" of service kind \w+ shows the diagnosis phrase`),
	"leak_change_history":          regexp.MustCompile(`^Leak: list_changes\(\) shows the advice phrase "root cause"\.$`),
	"fixed_when_disagrees":         regexp.MustCompile(`^The fault "kv_pool_small" on kv_main: fixed_when disagrees with the world: conns = 40 satisfies the world`),
}

// panelWinsToo names the cases an adaptive answer-blind policy also wins,
// and why that cannot be taken out of the case without losing its rule.
// Every other case is sound but for its rule. For these, the panel's
// findings are set aside (and must be there: a case the panel stops
// winning leaves the list); the rule's failure must still be the only
// other one.
var panelWinsToo = map[string]string{
	// Restarting every service fixes it, so restarting what is down does.
	"restart_all": "the rule's own policy is a blind restart",
	// Every key back to its default fixes it, so resetting what differs
	// from the docs does.
	"defaults": "the rule's own policy is a blind reset to the docs",
	// The next three isolate one rule on a one-service kvstore world of
	// their own (the diagnosis matcher, the fixed_when cross-check, the
	// log-template lint). That world has no site draws, change history or
	// warning distractors, so its one fault is a key greedy resets; giving
	// it those would be building a second stdlib inside a test case.
	"generic_diagnosis":    "a one-key kvstore world",
	"fixed_when_disagrees": "a one-key kvstore world",
	"leak_log_line":        "a one-key kvstore world",
}

// adaptiveWin tells the adaptive panel's findings (certify/adaptive.go).
var adaptiveWin = regexp.MustCompile(`^(Task not certified: )?The adaptive answer-blind policy "[\w-]+" wins `)

// TestCertifyFailures compiles each archive of testdata/certify: a module
// analysed with the embedded stdlib whose single incident compiles but
// fails exactly one certification rule. The expected diagnostic sits
// inline as a ### "regexp" mark on the line responsible (the expert
// action, the budget, the fault or distractor block; the incident line
// when no part of it is), the format of lang/testdata/diagnostics: every
// diagnostic must meet a mark and every mark be met. Each archive carries exactly one mark, and the failure must
// be its rule's (certifyCases), so a case fails for its reason and only
// that reason.
func TestCertifyFailures(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join(certifyCasesDir, "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, path := range paths {
		name := strings.TrimSuffix(filepath.Base(path), ".txtar")
		seen[name] = true
		t.Run(name, func(t *testing.T) {
			rule, ok := certifyCases[name]
			if !ok {
				t.Fatalf("%s: no rule in certifyCases for this archive", path)
			}
			runCertifyCase(t, path, rule, panelWinsToo[name] != "")
		})
	}
	for name := range certifyCases {
		if !seen[name] {
			t.Errorf("no archive %s/%s.txtar", certifyCasesDir, name)
		}
	}
	for name := range panelWinsToo {
		if certifyCases[name] == nil {
			t.Errorf("panelWinsToo names %s, which is no case", name)
		}
	}
}

func runCertifyCase(t *testing.T, path string, rule *regexp.Regexp, panelWins bool) {
	ar, err := txtar.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var files []*lang.File
	var marks []*certMark
	for _, f := range ar.Files {
		if !strings.HasSuffix(f.Name, lang.Ext) {
			t.Fatalf("unexpected section %q: an archive holds %s files", f.Name, lang.Ext)
		}
		lf := &lang.File{Name: f.Name, Src: f.Data}
		files = append(files, lf)
		ms, err := parseCertMarks(lf)
		if err != nil {
			t.Fatal(err)
		}
		marks = append(marks, ms...)
	}
	if len(marks) != 1 {
		t.Fatalf("%d marks: a case breaks exactly one rule, so it expects exactly one diagnostic", len(marks))
	}
	m, diags := lang.AnalyzeWith(lang.StdlibFiles(), files)
	if len(diags) > 0 {
		t.Fatalf("the module does not analyse clean:\n%s", diagText(m, diags))
	}
	if len(m.Incidents) != 1 {
		t.Fatalf("%d incidents, want one", len(m.Incidents))
	}

	// Everything but certification is fine.
	tasks, cd := compiler.CompileWith(m, compiler.Options{SkipCertify: true})
	if len(cd) > 0 || len(tasks) != 1 {
		t.Fatalf("does not compile without certification:\n%s", diagText(m, cd))
	}
	// Exactly that rule fails, whichever stage finds it (the panel and the
	// lint in Certify, diagnosability while deriving evidence), but for the
	// adaptive panel's wins on the cases of panelWinsToo.
	kept, _ := compiler.CompileWith(m, compiler.Options{KeepUncertified: true})
	var got, wins []string
	if len(kept) == 1 {
		for _, f := range kept[0].Uncertified {
			if panelWins && adaptiveWin.MatchString(f) {
				wins = append(wins, f)
				continue
			}
			got = append(got, f)
		}
	}
	if len(kept) != 1 || kept[0].Certified || len(got) != 1 || !rule.MatchString(got[0]) {
		t.Errorf("certification failures = %q, want exactly one matching %q", got, rule)
	}
	if panelWins && len(wins) == 0 {
		t.Errorf("no adaptive policy wins this case any more: take it out of panelWinsToo")
	}

	// The compiler's diagnostics meet the inline marks.
	_, cd = compiler.CompileWith(m, compiler.Options{})
	for _, d := range cd {
		msg := d.Summary
		if d.Detail != "" {
			msg += ": " + d.Detail
		}
		if panelWins && adaptiveWin.MatchString(msg) {
			continue
		}
		met := false
		for _, mk := range marks {
			if !mk.met && d.Subject != nil && mk.file == d.Subject.Filename && mk.line == d.Subject.Start.Line &&
				d.Severity == lang.Error && mk.rx.MatchString(msg) {
				mk.met, met = true, true
				break
			}
		}
		if !met {
			t.Errorf("unexpected diagnostic %s", d.Error())
		}
	}
	for _, mk := range marks {
		if !mk.met {
			t.Errorf("%s:%d: expected an error matching %q, got none", mk.file, mk.line, mk.rx)
		}
	}
}

func diagText(m *lang.Module, diags lang.Diagnostics) string {
	var b strings.Builder
	lang.WriteText(&b, m.Files, diags)
	return b.String()
}

// certMark is one ### "regexp" expectation (lang/diagnostics_test.go's
// syntax, errors only).
type certMark struct {
	file string
	line int
	rx   *regexp.Regexp
	met  bool
}

var certMarkBody = regexp.MustCompile("^###[ \t]*(\"(?:[^\"\\\\]|\\\\.)*\"|`[^`]*`)[ \t]*")

func parseCertMarks(f *lang.File) ([]*certMark, error) {
	var out []*certMark
	for i, line := range strings.Split(string(f.Src), "\n") {
		at := strings.Index(line, "###")
		if at < 0 {
			continue
		}
		for rest := line[at:]; rest != ""; {
			sm := certMarkBody.FindStringSubmatch(rest)
			if sm == nil {
				return nil, fmt.Errorf("%s:%d: malformed mark %q: want ### \"regexp\"", f.Name, i+1, rest)
			}
			pattern, err := strconv.Unquote(sm[1])
			if err != nil {
				return nil, fmt.Errorf("%s:%d: mark %s: %v", f.Name, i+1, sm[1], err)
			}
			rx, err := regexp.Compile(pattern)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: mark %s: %v", f.Name, i+1, sm[1], err)
			}
			out = append(out, &certMark{file: f.Name, line: i + 1, rx: rx})
			rest = rest[len(sm[0]):]
		}
	}
	return out, nil
}

// leakFailures certifies t and returns its leak findings.
func leakFailures(t *engine.Task) []string {
	var out []string
	for _, f := range certify.Certify(t).Failures {
		if strings.HasPrefix(f, "Leak: ") {
			out = append(out, f)
		}
	}
	return out
}

// withLog returns a copy of tk whose first log rule of service svc has its
// first literal part replaced by lit (the rule keeps its condition).
func withLog(t *testing.T, tk *engine.Task, svc, lit string) *engine.Task {
	t.Helper()
	c := *tk
	c.Logs = append([]engine.LogRule(nil), tk.Logs...)
	s := c.ServiceIndex(svc)
	for i := range c.Logs {
		if int(c.Logs[i].Service) != s {
			continue
		}
		parts := append([]engine.TextPart(nil), c.Logs[i].Parts...)
		for j := range parts {
			if parts[j].Hole == engine.NoSlot && parts[j].ID == engine.LogIDNone {
				parts[j].Lit = lit
				c.Logs[i].Parts = parts
				return &c
			}
		}
	}
	t.Fatalf("%s: no log rule with literal text on %s", tk.ID, svc)
	return nil
}

// suiteByID compiles the shipped suite once and indexes it by id.
func suiteByID(t *testing.T) map[string]*engine.Task {
	t.Helper()
	out := map[string]*engine.Task{}
	for _, tk := range suiteTasks(t) {
		out[tk.ID] = tk
	}
	return out
}

// TestLeakLintShippedSuiteIsClean: no shipped incident leaks (they
// certify, and the lint is part of certification).
func TestLeakLintShippedSuiteIsClean(t *testing.T) {
	for _, tk := range suiteTasks(t) {
		if f := leakFailures(tk); len(f) > 0 {
			t.Errorf("%s: %q", tk.ID, f)
		}
	}
}

// TestLeakLintFindsEachKind plants each kind of leak in a shipped
// incident's log text and checks the lint names it and where it is.
func TestLeakLintFindsEachKind(t *testing.T) {
	cases := []struct {
		id, svc, lit string
		want         string
	}{
		{"db_pool", "database", "pool exhausted, callers wait ",
			`Leak: the template of log "pool_ready" of service kind database shows the diagnosis phrase "pool exhausted" (mechanism connection_pool_exhausted).`},
		// A multi-word phrase of another mechanism is forbidden too.
		{"db_pool", "database", "sticky sessions here ", `shows the diagnosis phrase "sticky sessions" (mechanism sticky_session_hotspot)`},
		// Single words of the incident's own mechanism only.
		{"gateway_no_upstreams", "load_balancer", "a regression upstream ", `shows the diagnosis phrase "regression" (mechanism bad_deploy)`},
		{"db_pool", "database", "regression ", ""},
		{"db_pool", "database", "db_pool_too_small ", `shows the fault kind name "db_pool_too_small", the incident id "db_pool", the diagnosis phrase "pool too small"`},
		{"db_pool", "database", "the root cause: ", `shows the advice phrase "root cause"`},
		{"db_pool", "database", "see MISCONFIGURED ", `shows the advice phrase "misconfigured"`},
		// Key names are the schema: masked before the phrase check.
		{"cache_auth_token", "cache", "maintenance_mode=false pool_size ", ""},
	}
	suite := suiteByID(t)
	for _, c := range cases {
		tk := withLog(t, suite[c.id], c.svc, c.lit)
		got := leakFailures(tk)
		if c.want == "" {
			if len(got) > 0 {
				t.Errorf("%s, %q: unexpected %q", c.id, c.lit, got)
			}
			continue
		}
		// The log-wording lint may add findings of its own (a planted
		// "pool too small" also compares a setting with what it should
		// be); the phrase lint's must be among them.
		if !slices.ContainsFunc(got, func(f string) bool { return strings.Contains(f, c.want) }) {
			t.Errorf("%s, %q: got %q, want a failure containing %q", c.id, c.lit, got, c.want)
		}
	}
}

// TestLeakLintKeyBesideFixValue: a line showing a remedy's key next to its
// target value, while the key holds another value, is a leak; the key
// beside another number, or the value without the key, is not.
func TestLeakLintKeyBesideFixValue(t *testing.T) {
	// remedy: database pool_size back to the site's value, 24 on variant 0
	// (shared_primary draws 24 to 30); the fault sets 6
	tk := suiteByID(t)["db_pool"]
	for _, c := range []struct {
		lit  string
		leak bool
	}{
		{"pool_size is 6, safe value 24 ", true},
		{"pool_size=24 ", true},
		{"pool_size 150 ", false},  // 150 is not 24
		{"pool_size 24.5 ", false}, // nor is 24.5
		{"served 24 requests ", false},
	} {
		c2 := withLog(t, tk, "database", c.lit)
		got := leakFailures(c2)
		want := `Leak: the template of log "pool_ready" of service kind database shows pool_size beside its fix value 24 while database.pool_size has another value.`
		if c.leak && (len(got) != 1 || got[0] != want) {
			t.Errorf("%q: got %q, want [%q]", c.lit, got, want)
		}
		if !c.leak && len(got) > 0 {
			t.Errorf("%q: unexpected %q", c.lit, got)
		}
	}
}

// readsModule has a string key that a log line prints through a hole: the
// template's text is clean, and what the line shows depends on the value.
const readsModule = `
service_kind "notes" {
  config "note" {
    type    = "string"
    default = "all quiet"
  }
  config "conns" {
    type    = "int"
    default = 40
    low     = 20
    high    = 100
  }
  config "threads" {
    type    = "int"
    default = 8
    low     = 4
    high    = 16
  }
  state "up" {
    type    = "bool"
    initial = true
  }
  metric "error_rate" {
    type      = "float"
    value     = "state.up && config.conns >= 20 ? 0.0 : 1.0"
    precision = 3
    low       = 0
    high      = 0.05
  }
  status "degraded" { when = "error_rate > 0.05" }
  log "note" {
    level = "INFO"
    when  = "state.up"
    text  = "operator note: {config.note}"
  }
  restart { up = true }
}

system "notes_pair" {
  service "n_main" {
    kind = "notes"
    set_config { threads = 12 }
  }
  service "n_side" {
    kind = "notes"
    set_config { threads = 12 }
  }
}

fault_kind "notes_conns_low" {
  applies_to = ["notes"]
  mechanism  = "connection_pool_exhausted"
  set_config {
    conns = 5
    note  = "NOTE"
  }
  fixed_when = "config.conns >= 20"
  remedy "update_config" {
    key   = "conns"
    value = 40
  }
}

incident "notes" {
  alert      = "n_main is failing."
  difficulty = "easy"
  split      = "dev"
  budget     = 8
  system     = "notes_pair"
  fault "notes_conns_low" { target = "n_main" }
  expert = [
    "inspect_logs(n_main)",
    "update_config(n_main, conns, 40)",
    "resolve_incident(\"n_main: connection pool exhausted\", \"raised conns\")",
  ]
}
`

func compileNotes(t *testing.T, note string) *engine.Task {
	t.Helper()
	src := strings.Replace(readsModule, "NOTE", note, 1)
	m, diags := lang.AnalyzeWith(lang.StdlibFiles(), []*lang.File{{Name: "notes.srez.hcl", Src: []byte(src)}})
	tasks, cd := compiler.CompileWith(m, compiler.Options{SkipCertify: true})
	diags = append(diags, cd...)
	if diags.HasErrors() || len(tasks) != 1 {
		t.Fatalf("the notes module does not compile:\n%s", diagText(m, diags))
	}
	return tasks[0]
}

// TestLeakLintReads: a leak that only a read shows (a hole's value, not a
// template's text) is found along the traces and named by the read; a
// clean value certifies.
func TestLeakLintReads(t *testing.T) {
	if c := certify.Certify(compileNotes(t, "disk at 40%")); len(c.Failures) > 0 {
		t.Fatalf("the clean notes incident does not certify: %q", c.Failures)
	}
	for _, c := range []struct{ note, want string }{
		{"pool exhausted", `Leak: inspect_logs(n_main) shows the diagnosis phrase "pool exhausted" (mechanism connection_pool_exhausted).`},
		{"set conns to 40", `Leak: inspect_logs(n_main) shows conns beside its fix value 40 while n_main.conns has another value.`},
		{"the fix is simple", `Leak: inspect_logs(n_main) shows the advice phrase "the fix is".`},
	} {
		got := leakFailures(compileNotes(t, c.note))
		if len(got) != 1 || got[0] != c.want {
			t.Errorf("note %q: got %q, want [%q]", c.note, got, c.want)
		}
	}
}
