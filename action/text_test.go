package action_test

import (
	"strings"
	"testing"

	"github.com/srezc/srezc/action"
	"github.com/srezc/srezc/value"
)

// arg is an expected argument: its typed value and whether it was bare.
type arg struct {
	v    value.Value
	bare bool
}

func bare(s string) arg      { return arg{value.OfString(s), true} }
func quoted(s string) arg    { return arg{v: value.OfString(s)} }
func intArg(i int64) arg     { return arg{v: value.OfInt(i)} }
func floatArg(f float64) arg { return arg{v: value.OfFloat(f)} }
func boolArg(b bool) arg     { return arg{v: value.OfBool(b)} }
func args(as ...arg) []arg   { return as }
func describe(a arg) string  { return a.v.K.String() + " " + strings.TrimSpace(a.v.String()) }
func describeGot(a action.Arg) string {
	return a.Value.K.String() + " " + strings.TrimSpace(a.Value.String())
}

func TestParseActionValid(t *testing.T) {
	tests := []struct {
		name string
		src  string
		tool string
		args []arg
	}{
		{"no args", `escalate()`, "escalate", nil},
		{"one bare", `inspect_logs(database)`, "inspect_logs", args(bare("database"))},
		{"two bare", `inspect_config(web_server, timeout_ms)`, "inspect_config", args(bare("web_server"), bare("timeout_ms"))},
		{"int", `update_config(database, pool_size, 150)`, "update_config", args(bare("database"), bare("pool_size"), intArg(150))},
		{"negative int", `f(-3)`, "f", args(intArg(-3))},
		{"plus int", `f(+7)`, "f", args(intArg(7))},
		{"zero", `f(0)`, "f", args(intArg(0))},
		{"min int64", `f(-9223372036854775808)`, "f", args(intArg(-9223372036854775808))},
		{"max int64", `f(9223372036854775807)`, "f", args(intArg(9223372036854775807))},
		{"float", `update_config(web_server, error_ratio, 0.25)`, "update_config", args(bare("web_server"), bare("error_ratio"), floatArg(0.25))},
		{"float exponent", `f(1e3)`, "f", args(floatArg(1000))},
		{"float signed exponent", `f(-2.5E-2)`, "f", args(floatArg(-0.025))},
		{"float plus exponent", `f(1e+21)`, "f", args(floatArg(1e21))},
		{"float whole", `f(50.0)`, "f", args(floatArg(50))},
		{"float leading dot", `f(.5)`, "f", args(floatArg(0.5))},
		{"float trailing dot", `f(5.)`, "f", args(floatArg(5))},
		{"true", `update_config(cache, compression, true)`, "update_config", args(bare("cache"), bare("compression"), boolArg(true))},
		{"false", `f(false)`, "f", args(boolArg(false))},
		{"quoted path", `update_config(load_balancer, health_check_path, "/healthz")`, "update_config",
			args(bare("load_balancer"), bare("health_check_path"), quoted("/healthz"))},
		{"types stay distinct", `f(50, 50.0, "50", '50', true, "true")`, "f",
			args(intArg(50), floatArg(50), quoted("50"), quoted("50"), boolArg(true), quoted("true"))},
		{"quoted empty", `f("", '')`, "f", args(quoted(""), quoted(""))},
		{"quoted comma and paren", `resolve_incident("database: pool, exhausted (again)", "raise pool_size to 100")`, "resolve_incident",
			args(quoted("database: pool, exhausted (again)"), quoted("raise pool_size to 100"))},
		{"json escapes", `f("a\"b\\c\nd\te\/f\u00e9\ud83d\ude00")`, "f", args(quoted("a\"b\\c\nd\te/fé😀"))},
		{"go escapes", `f("\a\v\x00\xff\U0001F600")`, "f", args(quoted("\a\v\x00\xff😀"))},
		{"raw newline in string", "f(\"two\nlines\")", "f", args(quoted("two\nlines"))},
		{"single quoted escapes", `f('it\'s', 'a\\b', 'C:\temp\n')`, "f", args(quoted("it's"), quoted(`a\b`), quoted(`C:\temp\n`))},
		{"single quoted double quote", `f('say "hi"')`, "f", args(quoted(`say "hi"`))},
		{"bare multi-word", `resolve_incident(database: connection pool exhausted, raise pool_size to 100)`, "resolve_incident",
			args(bare("database: connection pool exhausted"), bare("raise pool_size to 100"))},
		{"bare keeps inner spacing", "escalate(need  a\thuman)", "escalate", args(bare("need  a\thuman"))},
		{"bare path", `f(/healthz)`, "f", args(bare("/healthz"))},
		{"bare dotted host", `f(cache.internal)`, "f", args(bare("cache.internal"))},
		{"bare dashes", `f(web-server-2)`, "f", args(bare("web-server-2"))},
		{"bare version", `f(1.2.3)`, "f", args(bare("1.2.3"))},
		{"bare ip", `f(10.0.0.1)`, "f", args(bare("10.0.0.1"))},
		{"bare number prefix", `f(150ms)`, "f", args(bare("150ms"))},
		{"bare unicode", `escalate(café ünïcode)`, "escalate", args(bare("café ünïcode"))},
		{"bare capitalised bool", `f(True)`, "f", args(bare("True"))},
		{"bare number words", `f(1 2)`, "f", args(bare("1 2"))},
		{"bare dash", `f(-)`, "f", args(bare("-"))},
		{"whitespace", `  inspect_logs ( cache )  `, "inspect_logs", args(bare("cache"))},
		{"tabs", "\tf\t(\ta\t,\t1\t)\t", "f", args(bare("a"), intArg(1))},
		{"no spaces", `f(a,1,"x")`, "f", args(bare("a"), intArg(1), quoted("x"))},
		{"underscore tool", `_tool_2(x)`, "_tool_2", args(bare("x"))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			call, diag := action.Parse(tt.src)
			if diag != nil {
				t.Fatalf("ParseAction(%q): %v", tt.src, diag)
			}
			if call.Tool != tt.tool {
				t.Errorf("tool = %q, want %q", call.Tool, tt.tool)
			}
			if len(call.Args) != len(tt.args) {
				t.Fatalf("got %d args %v, want %d", len(call.Args), call.Args, len(tt.args))
			}
			for i, want := range tt.args {
				got := call.Args[i]
				if !got.Value.Equal(want.v) {
					t.Errorf("arg %d = %s (%q), want %s (%q)", i, describeGot(got), got.Value.S, describe(want), want.v.S)
				}
				if got.Bare != want.bare {
					t.Errorf("arg %d bare = %v, want %v", i, got.Bare, want.bare)
				}
			}
		})
	}
}

func TestParseActionRanges(t *testing.T) {
	srcs := []string{
		`  inspect_logs ( cache )  `,
		`update_config(load_balancer, health_check_path, "/healthz")`,
		`resolve_incident( database: connection pool exhausted ,'raise pool_size, to 100' )`,
		`f(50, 50.0, "5\"0", true, -2.5E-2, 1.2.3)`,
		"f(\"a\nb\", c)",
		`escalate(café, "é")`,
	}
	for _, src := range srcs {
		call, diag := action.Parse(src)
		if diag != nil {
			t.Fatalf("ParseAction(%q): %v", src, diag)
		}
		if got := slice(src, call.ToolRange); got != call.Tool {
			t.Errorf("%q: ToolRange slices %q, want %q", src, got, call.Tool)
		}
		whole := slice(src, call.Range)
		if whole != strings.TrimSpace(src) {
			t.Errorf("%q: Range slices %q", src, whole)
		}
		for i, a := range call.Args {
			text := slice(src, a.Range)
			if text == "" || text != strings.TrimSpace(text) {
				t.Errorf("%q: arg %d range slices %q", src, i, text)
			}
			// The slice is the argument as written: it parses alone to the
			// same value.
			alone, d := action.Parse("f(" + text + ")")
			if d != nil || len(alone.Args) != 1 || !alone.Args[0].Value.Equal(a.Value) || alone.Args[0].Bare != a.Bare {
				t.Errorf("%q: arg %d slice %q does not read back as %s", src, i, text, describeGot(a))
			}
			checkPos(t, src, a.Range.Start)
			checkPos(t, src, a.Range.End)
		}
	}
	call, _ := action.Parse(`  inspect_logs ( cache )  `)
	want := action.Range{Filename: "action",
		Start: action.Pos{Line: 1, Column: 18, Byte: 17},
		End:   action.Pos{Line: 1, Column: 23, Byte: 22}}
	if call.Args[0].Range != want {
		t.Errorf("arg range = %+v, want %+v", call.Args[0].Range, want)
	}
	wantTool := action.Range{Filename: "action",
		Start: action.Pos{Line: 1, Column: 3, Byte: 2},
		End:   action.Pos{Line: 1, Column: 15, Byte: 14}}
	if call.ToolRange != wantTool {
		t.Errorf("tool range = %+v, want %+v", call.ToolRange, wantTool)
	}
	if call.Range.End.Byte != 24 {
		t.Errorf("call range ends at %d, want 24", call.Range.End.Byte)
	}
	// A position after a line break inside a string counts lines.
	call, _ = action.Parse("f(\"a\nb\", c)")
	if got := call.Args[1].Range.Start; got != (action.Pos{Line: 2, Column: 5, Byte: 9}) {
		t.Errorf("position after a line break = %+v", got)
	}
}

func slice(src string, r action.Range) string {
	if r.Start.Byte < 0 || r.Start.Byte > r.End.Byte || r.End.Byte > len(src) {
		return "<out of range>"
	}
	return src[r.Start.Byte:r.End.Byte]
}

// checkPos checks that Line and Column agree with Byte.
func checkPos(t *testing.T, src string, p action.Pos) {
	t.Helper()
	before := src[:p.Byte]
	line := 1 + strings.Count(before, "\n")
	col := p.Byte - strings.LastIndexByte(before, '\n')
	if p.Line != line || p.Column != col {
		t.Errorf("%q: pos %+v, want line %d column %d", src, p, line, col)
	}
}

func TestParseActionErrors(t *testing.T) {
	tests := []struct {
		name       string
		src        string
		start, end int // byte offsets of the Subject
		line, col  int // of the Subject's start
		detail     string
	}{
		{"empty", ``, 0, 0, 1, 1, "empty action"},
		{"blank", `   `, 0, 3, 1, 1, "empty action"},
		{"no paren at end", `inspect_logs`, 12, 12, 1, 13, `expected "(" after the tool name`},
		{"no paren before arg", `inspect_logs database`, 13, 21, 1, 14, `expected "(" after the tool name`},
		{"dotted tool", `inspect.logs(x)`, 7, 8, 1, 8, `invalid character '.' in the tool name`},
		{"digit tool", `9lives(x)`, 0, 1, 1, 1, "expected a tool name"},
		{"quoted tool", `"f"(x)`, 0, 3, 1, 1, "expected a tool name"},
		{"stray close first", `)`, 0, 1, 1, 1, "expected a tool name"},
		{"unclosed list", `f(`, 2, 2, 1, 3, `expected an argument or ")"`},
		{"unclosed after arg", `inspect_logs(database`, 21, 21, 1, 22, `expected "," or ")" after the argument`},
		{"unclosed after comma", `f(a,`, 4, 4, 1, 5, `expected an argument after ","`},
		{"trailing comma", `inspect_logs(database,)`, 22, 23, 1, 23, "trailing comma"},
		{"trailing comma spaced", `f(a , )`, 6, 7, 1, 7, "trailing comma"},
		{"leading comma", `f(,a)`, 2, 3, 1, 3, "empty arguments"},
		{"double comma", `f(a,,b)`, 4, 5, 1, 5, "empty arguments"},
		{"unterminated double", `escalate("need a human)`, 9, 23, 1, 10, "unterminated string"},
		{"unterminated escaped quote", `f("abc\")`, 2, 9, 1, 3, "unterminated string"},
		{"unterminated single", `f(a, 'b)`, 5, 8, 1, 6, "unterminated string"},
		{"unterminated single escaped", `f('b\')`, 2, 7, 1, 3, "unterminated string"},
		{"text after", `inspect_logs(database) now`, 23, 26, 1, 24, `unexpected text after ")"`},
		{"second action", `f(a)g(b)`, 4, 5, 1, 5, `unexpected text after ")"`},
		{"stray close in arg", `escalate(need help) now)`, 20, 23, 1, 21, `unexpected text after ")"`},
		{"stray open in arg", `resolve_incident(db (primary) down, fix)`, 20, 21, 1, 21, `unexpected "(" in an argument`},
		{"open right after paren", `f((a))`, 2, 3, 1, 3, `unexpected "(" in an argument`},
		{"newline in args", "f(a,\nb)", 4, 5, 1, 5, "line break"},
		{"crlf in args", "f(a\r\n)", 3, 5, 1, 4, "line break"},
		{"newline after", "f(a)\n", 4, 5, 1, 5, "line break"},
		{"newline before", "\nf(a)", 0, 1, 1, 1, "line break"},
		{"bad char", `update_config(a, b;1)`, 18, 19, 1, 19, `unexpected character ";"`},
		{"equals alone", `update_config(a, =1)`, 17, 18, 1, 18, `unexpected character "="`},
		{"quote after bare", `f(a "b")`, 4, 7, 1, 5, `expected "," or ")" after the argument`},
		{"bare after quote", `f("a" b)`, 6, 7, 1, 7, `expected "," or ")" after the argument`},
		{"int overflow", `f(9223372036854775808)`, 2, 21, 1, 3, "out of range"},
		{"int underflow", `f(x, -9223372036854775809)`, 5, 25, 1, 6, "out of range"},
		{"float overflow", `f(1e400)`, 2, 7, 1, 3, "out of range"},
		{"bad escape", `f("a\qb")`, 4, 6, 1, 5, `invalid escape "\\q"`},
		{"short unicode escape", `f("\u12")`, 3, 7, 1, 4, `\u escape needs 4 hexadecimal digits`},
		{"short hex escape", `f("\xz")`, 3, 5, 1, 4, `\x escape needs 2`},
		{"lone surrogate", `f("\ud83d")`, 3, 9, 1, 4, "unpaired UTF-16 surrogate"},
		{"bad code point", `f("\U00110000")`, 3, 13, 1, 4, "not a valid Unicode code point"},
		{"error on second line", "f(\"a\nb\", =)", 9, 10, 2, 5, `unexpected character "="`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			call, diag := action.Parse(tt.src)
			if diag == nil {
				t.Fatalf("ParseAction(%q) = %+v, want an error", tt.src, call)
			}
			if diag.Summary != "Invalid action syntax" {
				t.Errorf("diagnostic = %v", diag)
			}
			if !strings.Contains(diag.Detail, tt.detail) {
				t.Errorf("detail = %q, want it to contain %q", diag.Detail, tt.detail)
			}
			r := diag.Subject
			if r == nil {
				t.Fatal("no Subject")
			}
			if r.Filename != "action" {
				t.Errorf("filename = %q", r.Filename)
			}
			if r.Start.Byte != tt.start || r.End.Byte != tt.end {
				t.Errorf("subject bytes [%d,%d), want [%d,%d)", r.Start.Byte, r.End.Byte, tt.start, tt.end)
			}
			if r.Start.Line != tt.line || r.Start.Column != tt.col {
				t.Errorf("subject starts at %d:%d, want %d:%d", r.Start.Line, r.Start.Column, tt.line, tt.col)
			}
			checkPos(t, tt.src, r.Start)
			checkPos(t, tt.src, r.End)
		})
	}
}

func TestFormatAction(t *testing.T) {
	tests := []struct{ src, want string }{
		{`escalate()`, `escalate()`},
		{`  inspect_logs ( cache )  `, `inspect_logs(cache)`},
		{`f(50,50.0,"50",true, 1e21, -2.5E-2)`, `f(50, 50.0, "50", true, 1e+21, -0.025)`},
		{`f('it\'s', a  b, "tab\there")`, `f("it's", a  b, "tab\there")`},
		{`resolve_incident(fix = "x", root_cause="y")`, `resolve_incident(fix="x", root_cause="y")`},
	}
	for _, tt := range tests {
		call, diag := action.Parse(tt.src)
		if diag != nil {
			t.Fatalf("ParseAction(%q): %v", tt.src, diag)
		}
		if got := action.Format(call); got != tt.want {
			t.Errorf("FormatAction(%q) = %q, want %q", tt.src, got, tt.want)
		}
	}
}

// TestNamedArguments: an argument written name=value goes where the
// tool's parameter of that name is; names the tool lacks, a parameter
// given twice, a positional argument after a named one and a gap are
// errors located at the argument.
func TestNamedArguments(t *testing.T) {
	params := []string{"service", "key", "value"}
	for _, tt := range []struct {
		src, want, err string
	}{
		{`update_config(service=database, key=pool_size, value=50)`, `update_config(database, pool_size, 50)`, ""},
		{`update_config(value=50, key=pool_size, service=database)`, `update_config(database, pool_size, 50)`, ""},
		{`update_config(database, value = 50, key = pool_size)`, `update_config(database, pool_size, 50)`, ""},
		{`update_config(database, pool_size, 50)`, `update_config(database, pool_size, 50)`, ""},
		{`update_config(database, size=50)`, "", "update_config has no parameter size; its parameters are service, key, value"},
		{`update_config(service=database, key=pool_size, service=cache)`, "", "service is given twice"},
		{`update_config(service=database, pool_size, 50)`, "", "a positional argument cannot follow a named one"},
		{`update_config(database, value=50)`, "", "update_config needs key before the arguments after it"},
		{`update_config(database, pool_size, 50, value=3)`, "", "value is given twice"},
	} {
		call, d := action.Parse(tt.src)
		if d != nil {
			t.Fatalf("%s: %v", tt.src, d)
		}
		d = call.Order(params)
		switch {
		case tt.err != "" && (d == nil || d.Detail != tt.err):
			t.Errorf("%s: error %v, want %q", tt.src, d, tt.err)
		case tt.err != "" && (d.Subject == nil || d.Subject.Start.Byte >= d.Subject.End.Byte):
			t.Errorf("%s: error %q is not located", tt.src, d.Detail)
		case tt.err == "" && d != nil:
			t.Errorf("%s: %v", tt.src, d)
		case tt.err == "" && action.Format(call) != tt.want:
			t.Errorf("%s: ordered as %s, want %s", tt.src, action.Format(call), tt.want)
		}
	}
}

func BenchmarkParseAction(b *testing.B) {
	src := `update_config(load_balancer, health_check_path, "/healthz")`
	for b.Loop() {
		if _, d := action.Parse(src); d != nil {
			b.Fatal(d)
		}
	}
}

// TestResolution: a resolution reads the same whether its arguments are
// positional or named, in any order; another tool is no resolution.
func TestResolution(t *testing.T) {
	for _, text := range []string{
		`resolve_incident("pool too small", "raised pool_size")`,
		`resolve_incident(fix="raised pool_size", root_cause="pool too small")`,
	} {
		rc, fix, ok := action.Resolution(text)
		if !ok || rc != "pool too small" || fix != "raised pool_size" {
			t.Errorf("%s: read %q, %q, %v", text, rc, fix, ok)
		}
	}
	if _, _, ok := action.Resolution(`escalate("x")`); ok {
		t.Error("escalate read as a resolution")
	}
}
