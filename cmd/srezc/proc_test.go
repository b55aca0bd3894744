package main

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// Scripts drive a long-running srezc with these commands, synchronising on
// the lines it prints, never on sleeps:
//
//	start NAME PROGRAM [ARGS...]   run PROGRAM in the background; its output
//	                               goes to NAME.stdout and NAME.stderr
//	waitline NAME stdout|stderr RE wait until a line of that output matches
//	                               RE (fails if NAME exits without one)
//	signal NAME INT|TERM           send NAME a signal
//	waitexit NAME CODE [WITHIN]    wait for NAME to exit, and fail unless its
//	                               code is CODE and, with WITHIN (a Go
//	                               duration), it exited that soon after
//	                               the last signal (or its start)
//	freeport VAR                   set VAR to a loopback port nothing
//	                               listens on
//	goinstall DIR                  go install ./cmd/srezc into DIR, as
//	                               README's install does (needs [exec:go])
//
// WITHIN bounds what users are promised (Ctrl-C ends a sweep within 2 s);
// nothing waits for it to pass.

type proc struct {
	cmd            *exec.Cmd
	stdout, stderr *lineBuffer
	since          time.Time // start, or the last signal
	exited         chan struct{}
	err            error
}

// lineBuffer collects a process's output and wakes waiters on each write.
type lineBuffer struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	changed chan struct{}
}

func newLineBuffer() *lineBuffer { return &lineBuffer{changed: make(chan struct{})} }

func (b *lineBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf.Write(p)
	close(b.changed)
	b.changed = make(chan struct{})
	return len(p), nil
}

func (b *lineBuffer) snapshot() ([]byte, chan struct{}) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return bytes.Clone(b.buf.Bytes()), b.changed
}

var procs sync.Map // script → map[string]*proc

func scriptProcs(ts *testscript.TestScript) map[string]*proc {
	v, _ := procs.LoadOrStore(ts, map[string]*proc{})
	return v.(map[string]*proc)
}

func lookProc(ts *testscript.TestScript, name string) *proc {
	p, ok := scriptProcs(ts)[name]
	if !ok {
		ts.Fatalf("no process %q was started", name)
	}
	return p
}

func cmdStart(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: start NAME PROGRAM [ARGS...]")
	}
	name := args[0]
	prog := args[1]
	if !filepath.IsAbs(prog) {
		path, err := exec.LookPath(prog)
		ts.Check(err)
		prog = path
	}
	cmd := exec.Command(prog, args[2:]...)
	cmd.Dir = ts.MkAbs(".")
	cmd.Env = os.Environ()
	for _, k := range []string{"PATH", "HOME", "TMPDIR", "WORK", "OPENAI_BASE_URL", "OPENAI_MODEL", "OPENAI_API_KEY"} {
		cmd.Env = append(cmd.Env, k+"="+ts.Getenv(k))
	}
	p := &proc{cmd: cmd, stdout: newLineBuffer(), stderr: newLineBuffer(), exited: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = p.stdout, p.stderr
	ts.Check(cmd.Start())
	p.since = time.Now()
	scriptProcs(ts)[name] = p
	go func() {
		p.err = cmd.Wait()
		close(p.exited)
	}()
	ts.Defer(func() {
		select {
		case <-p.exited:
		default:
			cmd.Process.Kill()
			<-p.exited
		}
	})
}

func cmdWaitLine(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 || args[1] != "stdout" && args[1] != "stderr" {
		ts.Fatalf("usage: waitline NAME stdout|stderr REGEXP")
	}
	p := lookProc(ts, args[0])
	re, err := regexp.Compile("(?m)" + args[2])
	ts.Check(err)
	b := p.stdout
	if args[1] == "stderr" {
		b = p.stderr
	}
	for {
		data, changed := b.snapshot()
		if re.Match(data) {
			return
		}
		select {
		case <-changed:
		case <-p.exited:
			if data, _ := b.snapshot(); re.Match(data) {
				return
			}
			out, _ := p.stdout.snapshot()
			errOut, _ := p.stderr.snapshot()
			ts.Fatalf("%s exited (%v) without a line matching %q on %s\nstdout:\n%s\nstderr:\n%s", args[0], p.err, args[2], args[1], out, errOut)
		}
	}
}

func cmdSignal(ts *testscript.TestScript, neg bool, args []string) {
	signals := map[string]os.Signal{"INT": os.Interrupt, "TERM": syscall.SIGTERM}
	if neg || len(args) != 2 || signals[args[1]] == nil {
		ts.Fatalf("usage: signal NAME INT|TERM")
	}
	p := lookProc(ts, args[0])
	p.since = time.Now()
	ts.Check(p.cmd.Process.Signal(signals[args[1]]))
}

func cmdWaitExit(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 || len(args) > 3 {
		ts.Fatalf("usage: waitexit NAME CODE [WITHIN]")
	}
	p := lookProc(ts, args[0])
	want, err := strconv.Atoi(args[1])
	ts.Check(err)
	<-p.exited
	took := time.Since(p.since)
	out, _ := p.stdout.snapshot()
	errOut, _ := p.stderr.snapshot()
	ts.Check(os.WriteFile(ts.MkAbs(args[0]+".stdout"), out, 0o644))
	ts.Check(os.WriteFile(ts.MkAbs(args[0]+".stderr"), errOut, 0o644))
	got := 0
	var ee *exec.ExitError
	if errors.As(p.err, &ee) {
		got = ee.ExitCode()
	} else if p.err != nil {
		ts.Fatalf("%s: %v", args[0], p.err)
	}
	ts.Logf("%s exited with code %d, %v after its start or last signal", args[0], got, took.Round(time.Millisecond))
	if got != want {
		ts.Fatalf("%s exited with code %d, want %d\nstdout:\n%s\nstderr:\n%s", args[0], got, want, out, errOut)
	}
	if len(args) == 3 {
		within, err := time.ParseDuration(args[2])
		ts.Check(err)
		if took > within {
			ts.Fatalf("%s took %v to exit, more than %v", args[0], took, within)
		}
	}
}

func cmdFreePort(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: freeport VAR")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	ts.Check(err)
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	ts.Setenv(args[0], fmt.Sprint(port))
}

func cmdGoInstall(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: goinstall DIR")
	}
	root, err := filepath.Abs("../..")
	ts.Check(err)
	cmd := exec.Command("go", "install", "./cmd/srezc")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOBIN="+ts.MkAbs(args[0]))
	if out, err := cmd.CombinedOutput(); err != nil {
		ts.Fatalf("go install ./cmd/srezc: %v\n%s", err, out)
	}
}
