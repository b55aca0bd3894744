package eval_test

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/srezc/srezc/action"
	"github.com/srezc/srezc/engine"
)

const logPasteGolden = "testdata/log_paste.txt"

// TestPastedLogLines is an answer-blind adversary of the grader: it reads
// every service's logs at the start of each shipped incident and submits
// each line, bare and headed by its service, as the root cause. A line
// accepted is a log that states the diagnosis (issue 19: logs show what
// happened, never why) or a reader that credits the world's words as the
// agent's. The golden pins, per incident, how many pasted lines are
// accepted, so both can only be seen to improve; and every accepted line
// must quote one of realErrors, so a line that explains rather than
// reports fails the test however few there are.
func TestPastedLogLines(t *testing.T) {
	tasks, _ := shippedSuite(t)
	var b bytes.Buffer
	fmt.Fprintf(&b, "# Log lines pasted as the root cause and accepted by the grader, per shipped\n")
	fmt.Fprintf(&b, "# incident (each line bare and headed by its service; seed 1, step 1).\n")
	fmt.Fprintf(&b, "# Regenerate: SREZC_UPDATE=1 go test ./eval -run TestPastedLogLines\n\n")
	total, accepted, incidents := 0, 0, 0
	var rows []string
	for _, tk := range tasks {
		ep := engine.NewEpisode(tk)
		ep.Reset(1)
		n, ok := 0, 0
		example := ""
		for _, s := range tk.Services {
			a := action.Bind(tk, "inspect_logs("+s.Name+")")
			r := ep.Step(&a)
			for _, line := range strings.Split(string(ep.AppendText(nil, &r.Obs)), "\n") {
				if line = strings.TrimSpace(line); line == "" {
					continue
				}
				for _, ans := range []string{line, s.Name + ": " + line} {
					n++
					if tk.DiagnoseText(ans).OK {
						if !quotesRealError(line) {
							t.Errorf("%s: the pasted line %q diagnoses the incident but quotes no system's own error (realErrors): a log line states the mechanism", tk.ID, ans)
						}
						ok++
						if example == "" {
							example = ans
						}
					}
				}
			}
		}
		total, accepted = total+n, accepted+ok
		if ok > 0 {
			incidents++
			rows = append(rows, fmt.Sprintf("%-28s %3d/%-3d %s", tk.ID, ok, n, example))
		}
	}
	fmt.Fprintf(&b, "accepted %d of %d pasted lines, in %d of %d incidents\n\n", accepted, total, incidents, len(tasks))
	for _, r := range rows {
		fmt.Fprintln(&b, r)
	}
	got := b.Bytes()
	t.Logf("\n%s", got)
	if os.Getenv("SREZC_UPDATE") == "1" {
		writeFileAtomic(t, logPasteGolden, got)
		return
	}
	want, err := os.ReadFile(logPasteGolden)
	if err != nil {
		t.Fatalf("%v (SREZC_UPDATE=1 writes it)", err)
	}
	if !bytes.Equal(want, got) {
		t.Errorf("pasted log lines accepted differ from %s (SREZC_UPDATE=1 rewrites):\n%s", logPasteGolden, firstDiff(want, got))
	}
}

// realErrors are the errors real systems print, word for word, that the
// grader may credit when pasted: an SRE who quotes the server's own
// refusal has read the right line. Each names its source. Anything the
// world adds to such a line (a secret's version, why a handshake failed)
// is explanation and must not be there.
var realErrors = []struct{ text, source string }{
	{"WRONGPASS invalid username-password pair or user is disabled.", "redis src/acl.c, the -WRONGPASS reply (Redis 6+), raised by redis-py as AuthenticationError"},
	{"PLAIN login refused: user 'app' - invalid credentials", "rabbitmq deps/rabbit/src/rabbit_reader.erl, auth_fail for the PLAIN mechanism"},
	{"inconsistencies between private key and certificate loaded from PEM file", "haproxy src/ssl_ckch.c, the check of a PEM's key against its certificate when a bind line loads it"},
}

func quotesRealError(line string) bool {
	for _, e := range realErrors {
		if strings.Contains(line, e.text) {
			return true
		}
	}
	return false
}
