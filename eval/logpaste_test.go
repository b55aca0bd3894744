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
// accepted, so both can only be seen to improve.
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
