package action_test

import (
	"strings"
	"testing"

	"github.com/srezc/srezc/action"
)

func FuzzParseAction(f *testing.F) {
	for _, seed := range []string{
		`inspect_logs(database)`,
		`inspect_config(web_server, timeout_ms)`,
		`update_config(database, pool_size, 150)`,
		`update_config(load_balancer, health_check_path, "/healthz")`,
		`update_config(cache, compression, true)`,
		`update_config(web_server, error_ratio, 0.25)`,
		`resolve_incident("database: connection pool exhausted", "raise pool_size to 100")`,
		`resolve_incident(database: pool exhausted, raise pool_size to 100)`,
		`escalate("need a human")`,
		`  inspect_logs ( cache )  `,
		`f(50, 50.0, "50", '50', -3, 1e3, -2.5E-2, false)`,
		`f("a\"b\\c\n\u00e9\ud83d\ude00\x00\U0001F600", 'it\'s')`,
		`f(cache.internal, /healthz, 1.2.3, 150ms)`,
		`escalate()`,
		``,
		`inspect_logs`,
		`inspect_logs(database,)`,
		`escalate("need a human)`,
		`inspect_logs(database) now`,
		`resolve_incident(db (primary) down, fix)`,
		"f(a,\nb)",
		`f(9223372036854775808, 1e400)`,
		`f("\q", "\ud83d")`,
		"f(\xff, \"\xfe\")",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, src string) {
		call, diag := action.Parse(src)
		if diag != nil {
			if call.Tool != "" || call.Args != nil {
				t.Errorf("error with a non-zero call %+v", call)
			}
			if diag.Summary != "Invalid action syntax" || diag.Detail == "" {
				t.Errorf("malformed diagnostic %v", diag)
			}
			if diag.Subject == nil {
				t.Fatalf("diagnostic without a Subject: %v", diag)
			}
			checkRange(t, src, *diag.Subject)
			return
		}

		checkRange(t, src, call.Range)
		checkRange(t, src, call.ToolRange)
		if call.ToolRange.Start != call.Range.Start || slice(src, call.ToolRange) != call.Tool {
			t.Errorf("tool range %v does not start the call %v", call.ToolRange, call.Range)
		}
		last := call.ToolRange.End.Byte
		for i, a := range call.Args {
			checkRange(t, src, a.Range)
			if a.Range.Start.Byte <= last || a.Range.End.Byte > call.Range.End.Byte || a.Range.Start.Byte == a.Range.End.Byte {
				t.Errorf("arg %d range [%d,%d) out of order (previous end %d, call end %d)",
					i, a.Range.Start.Byte, a.Range.End.Byte, last, call.Range.End.Byte)
			}
			last = a.Range.End.Byte
		}

		canon := action.Format(call)
		again, diag := action.Parse(canon)
		if diag != nil {
			t.Fatalf("canonical form %q of %q does not parse: %v", canon, src, diag)
		}
		if again.Tool != call.Tool || len(again.Args) != len(call.Args) {
			t.Fatalf("canonical form %q of %q reads back as %+v", canon, src, again)
		}
		for i := range call.Args {
			if !again.Args[i].Value.Equal(call.Args[i].Value) || again.Args[i].Bare != call.Args[i].Bare {
				t.Errorf("canonical form %q of %q: arg %d reads back as %s %q (bare %v), want %s %q (bare %v)",
					canon, src, i, again.Args[i].Value.K, again.Args[i].Value.String(), again.Args[i].Bare,
					call.Args[i].Value.K, call.Args[i].Value.String(), call.Args[i].Bare)
			}
		}
		if third := action.Format(again); third != canon {
			t.Errorf("canonical form is not stable: %q then %q", canon, third)
		}
	})
}

// checkRange checks that r lies within src, is ordered, and that each
// position's Line and Column agree with its Byte.
func checkRange(t *testing.T, src string, r action.Range) {
	t.Helper()
	if r.Filename != "action" {
		t.Errorf("range filename %q", r.Filename)
	}
	if r.Start.Byte < 0 || r.Start.Byte > r.End.Byte || r.End.Byte > len(src) {
		t.Fatalf("range [%d,%d) outside %d bytes of input", r.Start.Byte, r.End.Byte, len(src))
	}
	for _, p := range []action.Pos{r.Start, r.End} {
		before := src[:p.Byte]
		line := 1 + strings.Count(before, "\n")
		col := p.Byte - strings.LastIndexByte(before, '\n')
		if p.Line != line || p.Column != col {
			t.Errorf("pos %+v, want line %d column %d", p, line, col)
		}
	}
}
