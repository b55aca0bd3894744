// Package worldtest compiles the worlds tests play: the shipped suite and
// the mechanics test world under testdata/world. The engine's and
// certification's tests share it (they compile worlds to test, which a
// test may and the packages may not); the compiler's own internal tests
// cannot import it, as it imports the compiler.
package worldtest

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/srezc/srezc/action"
	"github.com/srezc/srezc/compiler"
	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/lang"
	"github.com/srezc/srezc/record"
)

// Shipped analyses the shipped suite.
func Shipped(tb testing.TB) *lang.Module {
	tb.Helper()
	m, diags := lang.Analyze(lang.ScenarioFiles())
	if diags.HasErrors() {
		tb.Fatalf("suite does not analyse: %v", diags)
	}
	return m
}

// Suite compiles the shipped suite in its stable order.
func Suite(tb testing.TB) []*engine.Task {
	tb.Helper()
	m, diags := lang.Analyze(lang.ScenarioFiles())
	tasks, more := compiler.CompileModule(m)
	if diags = append(diags, more...); diags.HasErrors() {
		tb.Fatalf("suite: %v", diags)
	}
	return tasks
}

// World compiles the test world in testdata/world, by id; the path is
// relative to a package folder one below the repository's root.
func World(tb testing.TB) map[string]*engine.Task {
	tb.Helper()
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
		tb.Fatalf("test world does not compile:\n%s", b.String())
	}
	out := map[string]*engine.Task{}
	for _, tk := range tasks {
		out[tk.ID] = tk
	}
	return out
}

// Bind parses a text action and binds it to tk, uncached, as an agent's
// text is taken: malformed text is an invalid action.
func Bind(tb testing.TB, tk *engine.Task, text string) engine.Action {
	tb.Helper()
	call, d := action.Parse(text)
	if d != nil {
		return engine.InvalidAction(engine.ErrSyntax, d.Detail)
	}
	return action.BindCall(tk, call)
}

// refTasksDir holds the SRE-Zero reference's task files, read in place
// from the shared folder beside the repository (never copied into it).
const refTasksDir = "../../shared/reference/sre-zero-tasks"

// Reference imports and compiles one SRE-Zero reference task file under
// the sre_zero profile; without the reference's files the test is skipped.
func Reference(tb testing.TB, file string) *engine.Task {
	tb.Helper()
	data, err := os.ReadFile(filepath.Join(refTasksDir, file))
	if err != nil {
		tb.Skip("no SRE-Zero reference tasks at " + refTasksDir)
	}
	id, src, err := lang.ImportSreZeroTask(file, data, "train", false)
	if err != nil {
		tb.Fatal(err)
	}
	m, diags := lang.Analyze([]*lang.File{{Name: id + lang.Ext, Src: src}})
	tasks, more := compiler.CompileModule(m)
	if diags = append(diags, more...); diags.HasErrors() || len(tasks) != 1 {
		tb.Fatalf("%s does not compile: %v", file, diags)
	}
	if tasks[0].Profile != record.ProfileSreZero || len(tasks[0].Tools) != 0 {
		tb.Fatalf("%s: profile %s with %d stdlib tools; want a reference task", file, tasks[0].Profile, len(tasks[0].Tools))
	}
	return tasks[0]
}
