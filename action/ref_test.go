package action_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/srezc/srezc/action"
	"github.com/srezc/srezc/srezero"
	"github.com/srezc/srezc/value"
)

// refGoldenEpisodes holds episodes graded by the SRE-Zero reference itself.
// It is read in place, never copied into the repository.
const refGoldenEpisodes = "../../shared/reference/sre-zero-golden/episodes.jsonl"

type refGoldenEpisode struct {
	TaskID  string   `json:"task_id"`
	Actions []string `json:"actions"`
	Steps   []struct {
		// Action is the text as the agent sent it, not the canonical form:
		// the canonical form shows only in an invalid step's details.
		Action        string `json:"action"`
		InvalidAction bool   `json:"invalid_action"`
		Result        struct {
			Details map[string]json.RawMessage `json:"details"`
			Error   *string                    `json:"error"`
		} `json:"result"`
	} `json:"steps"`
}

func readRefGolden(t testing.TB) []refGoldenEpisode {
	t.Helper()
	data, err := os.ReadFile(refGoldenEpisodes)
	if err != nil {
		t.Skipf("the reference's golden episodes are not here: %v", err)
	}
	var eps []refGoldenEpisode
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var ep refGoldenEpisode
		if err := json.Unmarshal(sc.Bytes(), &ep); err != nil {
			t.Fatalf("golden line %d: %v", len(eps)+1, err)
		}
		eps = append(eps, ep)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return eps
}

func TestParseRefActionGolden(t *testing.T) {
	eps := readRefGolden(t)
	var steps, invalid, values int
	for n, ep := range eps {
		if len(ep.Actions) != len(ep.Steps) {
			t.Fatalf("episode %d (%s): %d actions, %d steps", n, ep.TaskID, len(ep.Actions), len(ep.Steps))
		}
		for i, text := range ep.Actions {
			st := ep.Steps[i]
			steps++
			got := action.ParseRef(text)
			where := ep.TaskID + " step " + strconv.Itoa(i) + " " + strconv.Quote(text)
			if st.Action != text {
				t.Errorf("%s: golden step records %q, not the text sent", where, st.Action)
			}
			errText := ""
			if st.Result.Error != nil {
				errText = *st.Result.Error
			}
			wantErr := ""
			if st.InvalidAction && errText != "invalid_service" {
				wantErr = errText
			}
			if got.Err != wantErr {
				t.Errorf("%s: Err = %q, want %q", where, got.Err, wantErr)
			}
			if (got.Type == "") != (got.Err != "") {
				t.Errorf("%s: Type %q with Err %q", where, got.Type, got.Err)
			}
			details := st.Result.Details
			if st.InvalidAction {
				invalid++
				var canon string
				if err := json.Unmarshal(details["action"], &canon); err != nil {
					t.Fatalf("%s: details.action: %v", where, err)
				}
				if got.Canonical != canon {
					t.Errorf("%s: Canonical = %q, want %q", where, got.Canonical, canon)
				}
			}
			if raw, ok := details["service"]; ok && got.Err == "" {
				var svc string
				if err := json.Unmarshal(raw, &svc); err == nil && got.Service != svc {
					t.Errorf("%s: Service = %q, want %q", where, got.Service, svc)
				}
			}
			if got.Type == "update_config" && !st.InvalidAction {
				var key string
				if err := json.Unmarshal(details["key"], &key); err != nil || got.Key != key {
					t.Errorf("%s: Key = %q, want %s", where, got.Key, details["key"])
				}
				if raw, ok := details["value"]; ok {
					values++
					if msg := refValueMatchesJSON(got.Value, raw); msg != "" {
						t.Errorf("%s: %s", where, msg)
					}
				}
			}
		}
	}
	if steps == 0 || invalid == 0 || values == 0 {
		t.Fatalf("golden data checked %d steps, %d invalid, %d values: too little", steps, invalid, values)
	}
	t.Logf("%d episodes, %d steps, %d invalid, %d update_config values", len(eps), steps, invalid, values)
}

// refValueMatchesJSON compares a coerced value with its pydantic JSON dump,
// where a float always has a "." or an exponent and a non-finite float is
// null.
func refValueMatchesJSON(v value.Value, raw json.RawMessage) string {
	lit := string(bytes.TrimSpace(raw))
	bad := func() string { return "Value " + v.K.String() + " " + value.PyStr(v) + ", golden " + lit }
	switch {
	case lit == "null":
		if v.K != value.Float || !math.IsNaN(v.F) && !math.IsInf(v.F, 0) {
			return bad()
		}
	case lit == "true" || lit == "false":
		if v.K != value.Bool || v.B != (lit == "true") {
			return bad()
		}
	case lit[0] == '"':
		var s string
		if err := json.Unmarshal(raw, &s); err != nil || v.K != value.String || v.S != s {
			return bad()
		}
	case strings.ContainsAny(lit, ".eE"):
		f, err := strconv.ParseFloat(lit, 64)
		if err != nil || v.K != value.Float || v.F != f {
			return bad()
		}
	default:
		i, err := strconv.ParseInt(lit, 10, 64)
		if err != nil || v.K != value.Int || v.I != i {
			return bad()
		}
	}
	return ""
}

func TestParseRefAction(t *testing.T) {
	const (
		syntax    = "Action must use function-call syntax, for example inspect_logs(web_server)."
		newline   = "Could not parse action arguments: new-line character seen in unquoted field - do you need to open the file in universal-newline mode?"
		tooLarge  = "Could not parse action arguments: field larger than field limit (131072)"
		oneSvc    = "inspect_logs requires exactly one service argument."
		resolveN  = "resolve_incident requires root_cause and fix arguments."
		resolveE  = "resolve_incident requires root_cause and fix."
		escalateN = "escalate requires one reason argument."
		escalateE = "escalate requires a reason."
		updateN   = "update_config requires service, key, and value arguments."
		configN   = "inspect_config requires service and optional key arguments."
	)
	long := strings.Repeat("a", 131072)
	tests := []struct {
		name string
		text string
		want srezero.Action // Canonical defaults to text on an error
	}{
		// §4.1 step 1: the call syntax.
		{"plain", "inspect_logs(cache)", refSvc("inspect_logs", "cache", "inspect_logs(cache)")},
		{"space before paren", "inspect_logs (cache)", refSvc("inspect_logs", "cache", "inspect_logs(cache)")},
		{"padded", "  inspect_logs( cache )  ", refSvc("inspect_logs", "cache", "inspect_logs(cache)")},
		{"nested parens", "inspect_logs((cache))", refSvc("inspect_logs", "(cache)", "inspect_logs((cache))")},
		{"last paren closes", "escalate(a) b)", refOK("escalate", "escalate(a) b)", func(a *srezero.Action) { a.Reason = "a) b" })},
		{"trailing text", "inspect_logs(cache) trailing", refErr(syntax)},
		{"trailing newline", "inspect_logs(cache)\n", refSvc("inspect_logs", "cache", "inspect_logs(cache)")},
		{"newlines outside", "\n\ninspect_logs\n(cache)\r\n\n", refSvc("inspect_logs", "cache", "inspect_logs(cache)")},
		{"newline inside", "inspect_logs(ca\nche)", refErr(syntax)},
		{"newline before last paren", "inspect_logs(cache)\nx)", refErr(syntax)},
		{"unicode spaces", "\u3000\x1cinspect_logs(cache)\u00a0\u2029", refSvc("inspect_logs", "cache", "inspect_logs(cache)")},
		{"zero width space is no space", "\u200binspect_logs(cache)", refErr(syntax)},
		{"empty", "", refErr(syntax)},
		{"no parens", "inspect_logs", refErr(syntax)},
		{"no close", "inspect_logs(cache", refErr(syntax)},
		{"no name", "(cache)", refErr(syntax)},
		{"digit first", "9a(cache)", refErr(syntax)},
		{"namespace", "sre_zero.inspect_logs(cache)", refErr(syntax)},
		{"raw canonical", "  foo(bar) x ", refErr(syntax)},

		// Step 2: the name, checked after the arguments split.
		{"unknown", "foo(bar)", refErr("Unknown action: foo")},
		{"case sensitive", "Inspect_logs(cache)", refErr("Unknown action: Inspect_logs")},
		{"unknown after csv error", "foo(a\rb)", refErr(newline)},

		// Step 3: the csv split.
		{"double quotes", `inspect_logs("cache")`, refSvc("inspect_logs", "cache", "inspect_logs(cache)")},
		{"single quotes", `inspect_logs('cache')`, refSvc("inspect_logs", "cache", "inspect_logs(cache)")},
		{"unterminated quote", `inspect_logs("cache)`, refSvc("inspect_logs", "cache", "inspect_logs(cache)")},
		{"doubled quote", `inspect_logs("ca""che")`, refSvc("inspect_logs", `ca"che`, `inspect_logs(ca"che)`)},
		{"quote inside bare field", `inspect_logs(ca"che)`, refSvc("inspect_logs", `ca"che`, `inspect_logs(ca"che)`)},
		{"text after closing quote", `inspect_logs("ca"che)`, refSvc("inspect_logs", "cache", "inspect_logs(cache)")},
		{"quoted then space", `inspect_logs("cache" )`, refSvc("inspect_logs", "cache", "inspect_logs(cache)")},
		{"tab is not skipped", "inspect_logs(\t\"a,b\")", refErr(oneSvc)},
		{"quoted comma", `resolve_incident("a, b", c)`, refResolve("a, b", "c")},
		{"single quoted comma splits", `resolve_incident('a, b')`, refResolve("'a", "b'")},
		{"single quoted comma arity", `escalate('a, b')`, refErr(escalateN)},
		{"trailing comma", "inspect_config(cache,)", refOK("inspect_config", "inspect_config(cache, )", func(a *srezero.Action) {
			a.Service, a.HasKey = "cache", true
		})},
		{"trailing comma arity", "inspect_logs(cache,)", refErr(oneSvc)},
		{"carriage return ends record", "inspect_logs(cache\r)", refSvc("inspect_logs", "cache", "inspect_logs(cache)")},
		{"carriage return mid field", "inspect_logs(ca\rche)", refErr(newline)},
		{"quoted carriage return", "inspect_logs(\"ca\rche\")", refSvc("inspect_logs", "ca\rche", "inspect_logs(ca\rche)")},
		{"nul is a character", "inspect_logs(a\x00b)", refSvc("inspect_logs", "a\x00b", "inspect_logs(a\x00b)")},
		{"field at limit", "escalate(" + long + ")", refOK("escalate", "escalate("+long+")", func(a *srezero.Action) { a.Reason = long })},
		{"field over limit", "escalate(" + long + "a)", refErr(tooLarge)},
		{"limit counts characters", "escalate(" + strings.Repeat("é", 131072) + ")", refOK("escalate", "escalate("+strings.Repeat("é", 131072)+")",
			func(a *srezero.Action) { a.Reason = strings.Repeat("é", 131072) })},
		{"limit in a quoted field", `escalate("` + long + `a")`, refErr(tooLarge)},
		{"limit before unknown name", "foo(x, " + long + "a)", refErr(tooLarge)},

		// Step 4: arity.
		{"no args", "inspect_logs()", refErr(oneSvc)},
		{"blank args", "inspect_logs( \t )", refErr(oneSvc)},
		{"two services", "restart_service(a, b)", refErr("restart_service requires exactly one service argument.")},
		{"config three", "inspect_config(a, b, c)", refErr(configN)},
		{"config key", "inspect_config(cache, TTL_SECONDS)", refOK("inspect_config", "inspect_config(cache, TTL_SECONDS)", func(a *srezero.Action) {
			a.Service, a.Key, a.HasKey = "cache", "TTL_SECONDS", true
		})},
		{"update two", "update_config(cache, K)", refErr(updateN)},
		{"update four", "update_config(a, b, c, d)", refErr(updateN)},
		{"resolve one", "resolve_incident(x)", refErr(resolveN)},
		{"escalate none", "escalate()", refErr(escalateN)},

		// Step 5: value coercion.
		{"int", "update_config(database, DB_POOL_SIZE, 200)", refUpdate("database", "DB_POOL_SIZE", value.OfInt(200), "200")},
		{"underscores", "update_config(cache, K, 1_000)", refUpdate("cache", "K", value.OfInt(1000), "1000")},
		{"quoted int", `update_config(cache, K, "100")`, refUpdate("cache", "K", value.OfInt(100), "100")},
		{"exponent", "update_config(cache, K, 1e3)", refUpdate("cache", "K", value.OfFloat(1000), "1000.0")},
		{"whole float", "update_config(cache, K, 50.0)", refUpdate("cache", "K", value.OfFloat(50), "50.0")},
		{"big float", "update_config(cache, K, 1e16)", refUpdate("cache", "K", value.OfFloat(1e16), "1e+16")},
		{"negative zero", "update_config(cache, K, -0.0)", refUpdate("cache", "K", value.OfFloat(math.Copysign(0, -1)), "-0.0")},
		{"nan", "update_config(cache, K, nan)", refUpdate("cache", "K", value.OfFloat(math.NaN()), "nan")},
		{"inf", "update_config(cache, K, Infinity)", refUpdate("cache", "K", value.OfFloat(math.Inf(1)), "inf")},
		{"minus inf", "update_config(cache, K, -inf)", refUpdate("cache", "K", value.OfFloat(math.Inf(-1)), "-inf")},
		{"true", "update_config(cache, K, true)", refUpdate("cache", "K", value.OfBool(true), "True")},
		{"TRUE", "update_config(cache, K, TRUE)", refUpdate("cache", "K", value.OfBool(true), "True")},
		{"False", "update_config(cache, K, False)", refUpdate("cache", "K", value.OfBool(false), "False")},
		// The csv reader drops double quotes before the strip, so the
		// padding goes; single quotes outlive the strip and keep it.
		{"double-quoted padded True", `update_config(cache, K, " True ")`, refUpdate("cache", "K", value.OfBool(true), "True")},
		{"single-quoted padded True", `update_config(cache, K, ' True ')`, refUpdate("cache", "K", value.OfString(" True "), " True ")},
		{"single-quoted padded int", `update_config(cache, K, ' 7 ')`, refUpdate("cache", "K", value.OfInt(7), "7")},
		{"long s is no s", "update_config(cache, K, falſe)", refUpdate("cache", "K", value.OfString("falſe"), "falſe")},
		{"single quoted string", "update_config(cache, K, 'x')", refUpdate("cache", "K", value.OfString("x"), "x")},
		{"path", "update_config(load_balancer, HEALTH_CHECK_PATH, /healthz)", refUpdate("load_balancer", "HEALTH_CHECK_PATH", value.OfString("/healthz"), "/healthz")},
		{"hex is a string", "update_config(cache, K, 0x10)", refUpdate("cache", "K", value.OfString("0x10"), "0x10")},
		{"unicode digits", "update_config(cache, K, ٣５)", refUpdate("cache", "K", value.OfInt(35), "35")},
		{"unicode float", "update_config(cache, K, ５.５)", refUpdate("cache", "K", value.OfFloat(5.5), "5.5")},
		{"empty value", "update_config(cache, K, )", refUpdate("cache", "K", value.OfString(""), "")},
		{"all empty", "update_config(,,)", refUpdate("", "", value.OfString(""), "")},

		// Step 6: re-validation of empty text.
		{"empty fix", "resolve_incident(x, )", refErr(resolveE)},
		{"empty root cause", `resolve_incident("", fix)`, refErr(resolveE)},
		{"empty reason", `escalate("")`, refErr(escalateE)},
		{"blank reason", `escalate(" ")`, refErr(escalateE)},
		{"quoted blank reason", `escalate(' ')`, refOK("escalate", "escalate( )", func(a *srezero.Action) { a.Reason = " " })},
		{"empty service", `inspect_logs("")`, refSvc("inspect_logs", "", "inspect_logs()")},
		{"resolve", "resolve_incident(cache service crashed, restart cache service)", refResolve("cache service crashed", "restart cache service")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := tt.want
			if want.Err != "" {
				want.Canonical = tt.text
			}
			got := action.ParseRef(tt.text)
			if d := diffRefAction(got, want); d != "" {
				t.Errorf("ParseRefAction(%q): %s", tt.text, d)
			}
		})
	}
}

func refErr(msg string) srezero.Action { return srezero.Action{Err: msg} }

func refOK(typ, canonical string, set func(*srezero.Action)) srezero.Action {
	a := srezero.Action{Type: typ, Canonical: canonical}
	set(&a)
	return a
}

func refSvc(typ, service, canonical string) srezero.Action {
	return srezero.Action{Type: typ, Service: service, Canonical: canonical}
}

func refResolve(rootCause, fix string) srezero.Action {
	return srezero.Action{Type: "resolve_incident", RootCause: rootCause, Fix: fix,
		Canonical: "resolve_incident(" + rootCause + ", " + fix + ")"}
}

func refUpdate(service, key string, v value.Value, str string) srezero.Action {
	return srezero.Action{Type: "update_config", Service: service, Key: key, HasKey: true, Value: v,
		Canonical: "update_config(" + service + ", " + key + ", " + str + ")"}
}

// diffRefAction compares field by field, values by kind and bits so that
// NaN equals NaN and -0.0 differs from 0.0.
func diffRefAction(got, want srezero.Action) string {
	var b strings.Builder
	field := func(name, g, w string) {
		if g != w {
			b.WriteString(name + " = " + strconv.Quote(g) + ", want " + strconv.Quote(w) + "; ")
		}
	}
	field("Err", got.Err, want.Err)
	field("Type", got.Type, want.Type)
	field("Service", got.Service, want.Service)
	field("Key", got.Key, want.Key)
	field("HasKey", strconv.FormatBool(got.HasKey), strconv.FormatBool(want.HasKey))
	field("RootCause", got.RootCause, want.RootCause)
	field("Fix", got.Fix, want.Fix)
	field("Reason", got.Reason, want.Reason)
	field("Canonical", got.Canonical, want.Canonical)
	if got.Value.K != want.Value.K || got.Value.Bits() != want.Value.Bits() || got.Value.S != want.Value.S {
		field("Value", got.Value.K.String()+" "+value.PyStr(got.Value), want.Value.K.String()+" "+value.PyStr(want.Value))
	}
	return b.String()
}

func FuzzParseRefAction(f *testing.F) {
	for _, seed := range []string{
		"inspect_logs(cache)",
		"  inspect_logs ( cache )  \n",
		"inspect_logs((cache))",
		"inspect_config(cache, TTL_SECONDS)",
		`update_config(cache, K, " True ")`,
		"update_config(cache, K, 1_000)",
		"update_config(cache, K, nan)",
		"update_config(cache, K, ٣５)",
		`resolve_incident("a, b", 'c, d')`,
		`escalate("unterminated`,
		`escalate("ca""che"x, )`,
		"escalate(a\rb)",
		"escalate(a\r)",
		"foo(\"\xff\")",
		"",
	} {
		f.Add(seed)
	}
	if data, err := os.ReadFile(refGoldenEpisodes); err == nil {
		seen := map[string]bool{}
		for _, line := range bytes.Split(data, []byte("\n")) {
			var ep struct {
				Actions []string `json:"actions"`
			}
			if json.Unmarshal(line, &ep) != nil {
				continue
			}
			for _, a := range ep.Actions {
				if !seen[a] {
					seen[a] = true
					f.Add(a)
				}
			}
		}
	}
	f.Fuzz(func(t *testing.T, text string) {
		a := action.ParseRef(text)
		if (a.Type == "") != (a.Err != "") {
			t.Fatalf("Type %q with Err %q", a.Type, a.Err)
		}
		if a.Err != "" && a.Canonical != text {
			t.Fatalf("error %q with Canonical %q, want the raw text", a.Err, a.Canonical)
		}
		if a.Err == "" && (!strings.HasPrefix(a.Canonical, a.Type+"(") || !strings.HasSuffix(a.Canonical, ")")) {
			t.Fatalf("Canonical %q for type %s", a.Canonical, a.Type)
		}
		if (a.Value.K != value.Null) != (a.Type == "update_config") {
			t.Fatalf("Value %s for type %q", a.Value.K, a.Type)
		}
		if d := diffRefAction(action.ParseRef(text), a); d != "" {
			t.Fatalf("second parse differs: %s", d)
		}
	})
}

func BenchmarkParseRefAction(b *testing.B) {
	for _, text := range []string{
		"inspect_logs(cache)",
		"update_config(database, DB_POOL_SIZE, 200)",
		`resolve_incident("database connection pool exhaustion", increase database DB_POOL_SIZE)`,
	} {
		b.Run(text[:strings.IndexByte(text, '(')], func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				action.ParseRef(text)
			}
		})
	}
}
