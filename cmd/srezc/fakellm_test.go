package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/srezc/srezc/llm/llmtest"
)

// cmdFakeLLM implements "fakellm [flaky] [garbage] [unusable] [dead=N]
// [status=CODE] [hold=N]": it starts llmtest's fake OpenAI-compatible
// server on loopback for the rest of the script and points OPENAI_BASE_URL
// and OPENAI_MODEL at it.
//
//	flaky     every request fails its first two attempts, with a
//	          transient fault answered at once (llmtest.Quick) picked by
//	          the request's hash
//	garbage   one answer in four is prose or a garbage tool call
//	unusable  every answer is prose or garbage (a judge's: no verdict)
//	dead=N    one request in N fails every attempt (HTTP 500)
//	status=C  every request gets the error C (401, 404, context_length)
//	hold=N    requests after the first N are never answered (a provider
//	          that hangs at a known point, for interrupting a sweep)
//	retry-after=V  the Retry-After header of 429 answers
func cmdFakeLLM(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! fakellm")
	}
	srv := llmtest.New()
	ts.Defer(srv.Close)
	fakes.Store(ts, srv)
	var flaky bool
	dead := uint64(0)
	status := llmtest.None
	for _, a := range args {
		switch k, v, _ := strings.Cut(a, "="); k {
		case "flaky":
			flaky = true
		case "garbage":
			srv.Answers = func(sum uint64) llmtest.Fault {
				// Which answers are unusable follows the requests'
				// hashes, which move whenever the prompt does (a new
				// tool in the list): eval_llm needs some, so these
				// residues are chosen to give some on today's suite.
				switch sum % 8 {
				case 3:
					return llmtest.Prose
				case 4:
					return llmtest.GarbageCall
				}
				return llmtest.None
			}
		case "unusable":
			srv.Answers = func(sum uint64) llmtest.Fault {
				if sum%2 == 0 {
					return llmtest.Prose
				}
				return llmtest.GarbageCall
			}
		case "dead":
			n, err := strconv.ParseUint(v, 10, 64)
			ts.Check(err)
			dead = n
		case "status":
			status = llmtest.Fault(v)
		case "retry-after":
			srv.RetryAfter = v
		case "hold":
			n, err := strconv.Atoi(v)
			ts.Check(err)
			release := srv.Hold(n)
			releases.Store(ts, release)
			ts.Defer(release)
		default:
			ts.Fatalf("fakellm: unknown option %q", a)
		}
	}
	srv.Faults = func(sum uint64, attempt int) llmtest.Fault {
		switch {
		case status != llmtest.None:
			return status
		case dead > 0 && sum%dead == 0:
			return llmtest.ServerError
		case flaky && attempt < 2:
			return llmtest.Quick[(int(sum%11)+attempt)%len(llmtest.Quick)]
		}
		return llmtest.None
	}
	ts.Setenv("OPENAI_BASE_URL", srv.URL+"/v1")
	ts.Setenv("OPENAI_MODEL", "fake-1")
	ts.Setenv("OPENAI_API_KEY", "sk-test")
}

// fakes holds each script's latest fake server, releases the release of
// its held requests.
var fakes, releases sync.Map

// cmdFakeLLMRelease implements "fakellm-release": the latest fake server
// started with hold=N answers again, the held requests included.
func cmdFakeLLMRelease(ts *testscript.TestScript, neg bool, args []string) {
	v, ok := releases.Load(ts)
	if neg || !ok || len(args) != 0 {
		ts.Fatalf("usage: fakellm-release, after fakellm hold=N")
	}
	v.(func())()
}

// cmdFakeLLMLog implements "fakellm-log FILE": the bodies of the requests
// the script's latest fake server received, one per line.
func cmdFakeLLMLog(ts *testscript.TestScript, neg bool, args []string) {
	v, ok := fakes.Load(ts)
	if !ok || len(args) != 1 {
		ts.Fatalf("usage: fakellm-log FILE, after fakellm")
	}
	var b bytes.Buffer
	for _, c := range v.(*llmtest.Server).Calls() {
		b.Write(c.Body)
		b.WriteByte('\n')
	}
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), b.Bytes(), 0o644))
}

// cmdCmpRecords implements "cmprecords A B [scored|exact]": the two
// records.jsonl files hold the same records, in the same order, what it
// cost to get the answers aside (usage.latency_ms, which depends on
// timing, and the calls and retries a flaky provider adds). With "exact",
// only latency_ms is ignored. With "scored", only B's scored records are
// compared, against the same keys in A.
func cmdCmpRecords(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 2 {
		ts.Fatalf("usage: cmprecords A B [scored|exact]")
	}
	exact := len(args) > 2 && args[2] == "exact"
	read := func(name string) []map[string]any {
		var out []map[string]any
		for _, line := range bytes.Split(bytes.TrimSpace([]byte(ts.ReadFile(name))), []byte{'\n'}) {
			if len(line) == 0 {
				continue
			}
			var r map[string]any
			ts.Check(json.Unmarshal(line, &r))
			if u, ok := r["usage"].(map[string]any); ok {
				delete(u, "latency_ms")
				if !exact {
					delete(u, "calls")
					delete(u, "retries")
				}
			}
			out = append(out, r)
		}
		return out
	}
	key := func(r map[string]any) string {
		return fmt.Sprint(r["agent"], r["model"], r["task"], r["seed"], r["noise"])
	}
	a, b := read(args[0]), read(args[1])
	if len(args) > 2 && args[2] == "scored" {
		byKey := map[string]map[string]any{}
		for _, r := range a {
			byKey[key(r)] = r
		}
		var kept []map[string]any
		a = a[:0]
		for _, r := range b {
			if r["outcome"] == "scored" {
				kept = append(kept, r)
				a = append(a, byKey[key(r)])
			}
		}
		b = kept
	}
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	same := bytes.Equal(ja, jb)
	if same == neg {
		if neg {
			ts.Fatalf("%s and %s hold the same records", args[0], args[1])
		}
		os.WriteFile(ts.MkAbs("cmprecords.a"), ja, 0o644)
		os.WriteFile(ts.MkAbs("cmprecords.b"), jb, 0o644)
		ts.Fatalf("%s and %s differ (%d and %d records; see cmprecords.a and .b)", args[0], args[1], len(a), len(b))
	}
}
