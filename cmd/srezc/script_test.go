// The CLI suite, after CUE's cmd/cue/cmd/script_test.go: every script in
// testdata/script is a txtar archive that runs the real srezc as users run
// it, one script per CLI contract, named <subcommand>_<topic>.txtar.
//
// TestMain hands cli.Main to testscript.Main, which installs it as the
// program "srezc"; scripts must run it with "exec" (RequireExplicitExec).
//
// testscript's "!" only means "non-zero", but srezc's contract tells 1 (the
// input has errors) from 2 (the command line is wrong). Scripts check the
// exact code with the custom command
//
//	exits N PROGRAM [ARGS...]
//
// which runs PROGRAM like exec (in the script's directory, with the file
// given to the last "stdin" as standard input), keeps its stdout and stderr
// for the "stdout", "stderr" and "cmp" commands that follow, and fails
// unless PROGRAM exited with code N. It cannot be negated.
//
// SREZC_UPDATE=1 go test ./cmd/srezc rewrites the archive files that a
// failing "cmp" compares against.
package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/srezc/srezc/cli"
)

func TestMain(m *testing.M) {
	// The kill test runs the test binary itself as srezc.
	if os.Getenv("SREZC_TEST_AS_SREZC") == "1" {
		os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	testscript.Main(m, map[string]func(){
		"srezc": func() { os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
	})
}

// refTasks is the SRE-Zero reference's task directory, read in place
// (never copied into the repository); scripts needing it check [reftasks].
var refTasks, _ = filepath.Abs("../../../shared/reference/sre-zero-tasks")

var sampleReport, _ = filepath.Abs("../../docs/sample-report")

func TestScript(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		UpdateScripts:       os.Getenv("SREZC_UPDATE") == "1",
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){"exits": cmdExits, "fakellm": cmdFakeLLM, "fakellm-log": cmdFakeLLMLog, "cmprecords": cmdCmpRecords,
			"fakellm-release": cmdFakeLLMRelease, "start": cmdStart, "waitline": cmdWaitLine, "signal": cmdSignal, "waitexit": cmdWaitExit,
			"freeport": cmdFreePort, "goinstall": cmdGoInstall},
		Condition: func(cond string) (bool, error) {
			if cond == "reftasks" {
				_, err := os.Stat(refTasks)
				return err == nil, nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Setup: func(e *testscript.Env) error {
			// The SRE-Zero reference's task files, read in place (never
			// copied into the repository).
			e.Setenv("REFTASKS", refTasks)
			// The sample report README shows, which sample_report checks
			// is what srezc makes today.
			e.Setenv("SAMPLE", sampleReport)
			return nil
		},
	})
}

// cmdExits implements "exits N PROGRAM [ARGS...]".
func cmdExits(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! exits (give the exit code instead)")
	}
	if len(args) < 2 {
		ts.Fatalf("usage: exits N PROGRAM [ARGS...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil || want < 0 {
		ts.Fatalf("exits: exit code %q is not a non-negative integer", args[0])
	}
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("exits: running %s: %v", args[1], err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("%s exited with code %d, want %d", args[1], got, want)
	}
}
