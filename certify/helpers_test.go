package certify_test

import (
	"bytes"
	"testing"

	"github.com/srezc/srezc/action"
	"github.com/srezc/srezc/certify"
	"github.com/srezc/srezc/compiler"
	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/lang"
	"github.com/srezc/srezc/value"
)

// Certification is tested on compiled incidents, so these tests import the
// compiler (a test may; the package may not).

func shippedModule(t testing.TB) *lang.Module {
	t.Helper()
	m, diags := lang.Analyze(lang.ScenarioFiles())
	if diags.HasErrors() {
		t.Fatalf("suite does not analyse: %v", diags)
	}
	return m
}

// suiteTasks compiles the shipped suite in its stable order.
func suiteTasks(tb testing.TB) []*engine.Task {
	tb.Helper()
	m, diags := lang.Analyze(lang.ScenarioFiles())
	tasks, more := compiler.CompileModule(m)
	if diags = append(diags, more...); diags.HasErrors() {
		tb.Fatalf("suite: %v", diags)
	}
	return tasks
}

// prepared compiles an incident up to certification.
func prepared(t testing.TB, m *lang.Module, in *lang.Incident) certify.Incident {
	t.Helper()
	inc, diags := compiler.Prepare(m, in)
	if diags.HasErrors() {
		t.Fatalf("%s: %v", in.Name, diags)
	}
	return inc
}

// world compiles the test world in testdata/world.
func world(t testing.TB) map[string]*engine.Task {
	t.Helper()
	std, diags := lang.ReadPaths([]string{"../testdata/world/std.srez.hcl"})
	files, more := lang.ReadPaths([]string{"../testdata/world/incidents"})
	diags = append(diags, more...)
	m, more := lang.AnalyzeWith(std, files)
	diags = append(diags, more...)
	tasks, cd := compiler.CompileWith(m, compiler.Options{SkipCertify: true}) // a mechanics world: one key per service, too weak to certify
	diags = append(diags, cd...)
	if diags.HasErrors() {
		var b bytes.Buffer
		lang.WriteText(&b, m.Files, diags)
		t.Fatalf("test world does not compile:\n%s", b.String())
	}
	out := map[string]*engine.Task{}
	for _, tk := range tasks {
		out[tk.ID] = tk
	}
	return out
}

func bind(t testing.TB, tk *engine.Task, text string) engine.Action {
	t.Helper()
	call, d := action.Parse(text)
	if d != nil {
		return engine.InvalidAction(engine.ErrSyntax, d.Detail)
	}
	args := make([]value.Value, len(call.Args))
	for i, a := range call.Args {
		args[i] = a.Value
	}
	return tk.Bind(call.Tool, args)
}
