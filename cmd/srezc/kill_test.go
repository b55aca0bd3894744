package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/srezc/srezc/llm/llmtest"
)

const killSuite = `incident "zeta" {
  title      = "Latency climbing"
  alert      = "API p95 latency has tripled."
  difficulty = "easy"
  split      = "train"
  budget     = 10
  system     = "standard"
  fault "web_memory_leak" {
    target  = "web_server"
    rate_mb = 600.0
  }
  expert = [
    "inspect_logs(web_server)",
    "restart_service(web_server)",
    "check_status(web_server)",
    "resolve_incident(\"web server memory leak\", \"restart the web server\")",
  ]
}
`

// A sweep killed with SIGKILL at seeded random points, some of them cut
// inside a record's line, and resumed each time, ends with the records of
// an uninterrupted run: no episode lost, none played twice. The kills
// land on events, not times: after a seeded number of requests reach the
// fake provider, so in the middle of an episode however slow the machine.
func TestKillAndResume(t *testing.T) {
	if testing.Short() {
		t.Skip("runs srezc a dozen times")
	}
	srv := llmtest.New()
	defer srv.Close()
	work := t.TempDir()
	if err := os.WriteFile(filepath.Join(work, "a.srez.hcl"), []byte(killSuite), 0o644); err != nil {
		t.Fatal(err)
	}
	srezc := func(out string, resume bool) *exec.Cmd {
		args := []string{"eval", "--agents", "prompting,tools,scripted", "--seeds", "6", "--out", out, "--workers", "2", "a.srez.hcl"}
		if resume {
			args = append(args, "--resume")
		}
		cmd := exec.Command(os.Args[0], args...)
		cmd.Dir = work
		cmd.Env = append(os.Environ(), "SREZC_TEST_AS_SREZC=1", "OPENAI_BASE_URL="+srv.URL+"/v1", "OPENAI_MODEL=fake-1", "OPENAI_API_KEY=sk-test")
		return cmd
	}
	if out, err := srezc("ref", false).CombinedOutput(); err != nil {
		t.Fatalf("uninterrupted run: %v\n%s", err, out)
	}
	want := records(t, filepath.Join(work, "ref", "records.jsonl"), nil)
	// The LLM episodes take six requests each, so twelve of them take at
	// least 72: four runs killed within 16 requests each cannot finish.
	const maxKills, killWithin = 12, 16

	rng := rand.New(rand.NewPCG(7, 7))
	kills, torn := 0, 0
	// seen holds every whole record line found after a kill, by episode:
	// once recorded, an episode is never played again, so its line never
	// changes and never appears twice.
	seen := map[string]string{}
	check := func(when string) {
		data, _ := os.ReadFile(filepath.Join(work, "killed", "records.jsonl"))
		here := map[string]bool{}
		for _, line := range bytes.SplitAfter(data, []byte{'\n'}) {
			if len(line) == 0 || line[len(line)-1] != '\n' {
				continue // the torn tail
			}
			var r struct {
				Agent, Model, Task string
				Seed               int
			}
			if err := json.Unmarshal(line, &r); err != nil {
				t.Fatalf("%s: a whole line is not a record: %v\n%.300s", when, err, line)
			}
			k := r.Agent + " " + r.Model + " " + r.Task + " " + fmt.Sprint(r.Seed)
			if here[k] {
				t.Fatalf("%s: episode %s recorded twice", when, k)
			}
			here[k] = true
			norm := records(t, "", line)[0]
			if old, ok := seen[k]; ok && old != norm {
				t.Fatalf("%s: episode %s was played again:\n%s\n%s", when, k, old, norm)
			}
			seen[k] = norm
		}
	}
	for i := 0; ; i++ {
		cmd := srezc("killed", i > 0)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		before := len(srv.Calls())
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		var exitErr error
		exited := make(chan struct{})
		go func() { exitErr = cmd.Wait(); close(exited) }()
		if kills < maxKills && srv.WaitCalls(before+1+rng.IntN(killWithin), exited) {
			cmd.Process.Signal(syscall.SIGKILL)
			<-exited
			kills++
			check(fmt.Sprintf("after kill %d", kills))
			// A kill can land inside a write; every other time, make sure
			// one did by cutting a line short.
			path := filepath.Join(work, "killed", "records.jsonl")
			if data, err := os.ReadFile(path); err == nil && kills%2 == 0 {
				lines := bytes.SplitAfter(data, []byte{'\n'})
				if len(lines) > 1 {
					last := lines[len(lines)-2]
					cut := append(data, last[:1+rng.IntN(len(last)-1)]...)
					if err := os.WriteFile(path, cut, 0o644); err != nil {
						t.Fatal(err)
					}
					torn++
				}
			}
			continue
		}
		<-exited
		if exitErr != nil {
			t.Fatalf("run %d: %v\n%s", i, exitErr, stderr.String())
		}
		if kills < 4 {
			t.Fatalf("the sweep finished after %d kills; the test wants more", kills)
		}
		recorded := len(seen)
		check("at the end")
		got := records(t, filepath.Join(work, "killed", "records.jsonl"), nil)
		if len(got) != len(want) {
			t.Fatalf("%d records after %d kills (%d torn lines), want %d", len(got), kills, torn, len(want))
		}
		for k := range want {
			if got[k] != want[k] {
				t.Fatalf("record %d differs after %d kills:\n got %s\nwant %s", k, kills, got[k], want[k])
			}
		}
		t.Logf("%d kills, %d torn lines, %d records; %d were recorded before the last kill", kills, torn, len(got), recorded)
		return
	}
}

// records reads a records.jsonl (or data, when given) as lines with
// usage.latency_ms removed.
func records(t *testing.T, path string, data []byte) []string {
	if data == nil {
		var err error
		if data, err = os.ReadFile(path); err != nil {
			t.Fatal(err)
		}
	}
	var out []string
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var r map[string]any
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if u, ok := r["usage"].(map[string]any); ok {
			delete(u, "latency_ms")
		}
		js, _ := json.Marshal(r)
		out = append(out, string(js))
	}
	return out
}

// Ctrl-C stops a sweep at once, with exit 3: the episodes still running
// are dropped, every finished one is recorded whole, and --resume
// completes the sweep with the records of an uninterrupted run. The
// provider stops answering after a fixed number of requests, so the
// signal lands while the sweep cannot finish, whatever the machine's
// speed.
func TestInterruptAndResume(t *testing.T) {
	srv := llmtest.New()
	defer srv.Close()
	work := t.TempDir()
	if err := os.WriteFile(filepath.Join(work, "a.srez.hcl"), []byte(killSuite), 0o644); err != nil {
		t.Fatal(err)
	}
	srezc := func(out string, resume bool) *exec.Cmd {
		args := []string{"eval", "--agents", "prompting,react", "--seeds", "8", "--out", out, "--workers", "2", "a.srez.hcl"}
		if resume {
			args = append(args, "--resume")
		}
		cmd := exec.Command(os.Args[0], args...)
		cmd.Dir = work
		cmd.Env = append(os.Environ(), "SREZC_TEST_AS_SREZC=1", "OPENAI_BASE_URL="+srv.URL+"/v1", "OPENAI_MODEL=fake-1")
		return cmd
	}
	if out, err := srezc("ref", false).CombinedOutput(); err != nil {
		t.Fatalf("uninterrupted run: %v\n%s", err, out)
	}
	want := records(t, filepath.Join(work, "ref", "records.jsonl"), nil)

	// 30 more answers finish at least three of the six-request episodes
	// of two workers, and no more than five of the sixteen.
	held := len(srv.Calls()) + 30
	release := srv.Hold(held)
	defer release()
	cmd := srezc("cut", false)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	var exitErr error
	go func() { exitErr = cmd.Wait(); close(exited) }()
	// Interrupt once both workers wait on a held request: every episode
	// they finished before is recorded (a worker appends its record before
	// it starts the next episode).
	path := filepath.Join(work, "cut", "records.jsonl")
	if !srv.WaitCalls(held+2, exited) {
		t.Fatalf("the sweep ended before the interrupt: %v\n%s", exitErr, stderr.String())
	}
	cmd.Process.Signal(os.Interrupt)
	<-exited
	var ee *exec.ExitError
	if !errors.As(exitErr, &ee) || ee.ExitCode() != 3 {
		t.Fatalf("interrupted run: %v, want exit 3\n%s", exitErr, stderr.String())
	}
	if !strings.Contains(stderr.String(), "interrupted: stopping now") || !strings.HasPrefix(stdout.String(), "stopped: ") {
		t.Fatalf("interrupted run said:\n%s%s", stdout.String(), stderr.String())
	}
	data, _ := os.ReadFile(path)
	if len(data) == 0 || data[len(data)-1] != '\n' {
		t.Fatalf("after Ctrl-C the records end mid-line")
	}
	partial := len(records(t, path, nil))
	if partial >= len(want) {
		t.Fatalf("Ctrl-C came after the sweep ended (%d records)", partial)
	}
	release()
	if out, err := srezc("cut", true).CombinedOutput(); err != nil {
		t.Fatalf("resume: %v\n%s", err, out)
	}
	got := records(t, path, nil)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("after Ctrl-C (%d records) and --resume, the records differ from an uninterrupted run's", partial)
	}
}

// The provider-safe limits hold for a whole sweep (two workers, two
// agents, one endpoint), as the provider's server sees them. With one call
// in flight the calls are serial, so each bound below is one that load can
// only widen: a call arrives after the client sent it, and the server
// answered before the client saw the answer.
func TestSweepHonoursProviderLimits(t *testing.T) {
	srv := llmtest.New()
	defer srv.Close()
	work := t.TempDir()
	if err := os.WriteFile(filepath.Join(work, "a.srez.hcl"), []byte(killSuite), 0o644); err != nil {
		t.Fatal(err)
	}
	const minInterval, window, calls = 10 * time.Millisecond, 150 * time.Millisecond, 5
	const pace = window / calls
	cmd := exec.Command(os.Args[0], "eval", "--agents", "prompting,tools", "--seeds", "2", "--out", "out", "--workers", "2", "--concurrency", "1",
		"--min-interval", minInterval.String(), "--rate-calls", fmt.Sprint(calls), "--rate-window", window.String(), "a.srez.hcl")
	cmd.Dir = work
	cmd.Env = append(os.Environ(), "SREZC_TEST_AS_SREZC=1", "OPENAI_BASE_URL="+srv.URL+"/v1", "OPENAI_MODEL=fake-1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	log := srv.Calls()
	if len(log) < 2*calls {
		t.Fatalf("only %d calls", len(log))
	}
	for i := 1; i < len(log); i++ {
		if gap := log[i].Arrived.Sub(log[i-1].Answered); gap < minInterval {
			t.Errorf("call %d began %v after call %d ended; --min-interval %v, --concurrency 1", i, gap, i-1, minInterval)
		}
	}
	// Call j+1 started after call j ended, and n calls later the rate
	// limit has let n paces pass.
	for j := range log {
		for n := 1; j+1+n < len(log); n++ {
			if gap := log[j+1+n].Arrived.Sub(log[j].Answered); gap < time.Duration(n)*pace {
				t.Errorf("call %d began %v after call %d ended; --rate-calls %d per %v allow %d calls in that time", j+1+n, gap, j, calls, window, 1+int(gap/pace))
			}
		}
	}
}
