package eval_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/srezc/srezc/agents"
	"github.com/srezc/srezc/compiler"
	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/eval"
	"github.com/srezc/srezc/facts"
	"github.com/srezc/srezc/lang"
	"github.com/srezc/srezc/record"
)

// blindWinsGolden pins how many shipped incidents each answer-blind policy
// wins. Issue 18 is done when every blind row reads 0: a world change shows
// here as counts moving.
const blindWinsGolden = "testdata/blind_wins.txt"

// shippedSuite compiles the embedded suite and builds the published
// knowledge the panel plays with.
func shippedSuite(t *testing.T) ([]*engine.Task, *agents.Knowledge) {
	t.Helper()
	m, diags := lang.Analyze(lang.ScenarioFiles())
	tasks, more := compiler.CompileModule(m)
	if diags = append(diags, more...); diags.HasErrors() {
		t.Fatal(diags)
	}
	return tasks, facts.Knowledge(m, "native")
}

// blindSeeds are the seeds every policy plays every incident on.
const blindSeeds = 5

// TestBlindPolicies plays the answer-blind adversaries of issue 18 item 5
// and the greedy baseline on every shipped incident for seeds 1..5, prints
// the table of wins and compares it, with each incident's wins per seed,
// with the golden; SREZC_UPDATE=1 rewrites it.
func TestBlindPolicies(t *testing.T) {
	tasks, k := shippedSuite(t)
	policies := agents.Adversaries(k)

	// wins[i][j] marks, per seed, whether policy i won task j.
	wins := make([][]string, len(policies))
	for i, p := range policies {
		factory := func(*engine.Task, uint64) (agents.Agent, error) { return p.New(), nil }
		_, eps, err := eval.Run(tasks, eval.Options{Agent: p.Name, NewAgent: factory, Episodes: blindSeeds, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		wins[i] = make([]string, len(tasks))
		for e, ep := range eps {
			r := ep.Record
			if p.Name != "greedy" && (r.Terminal == record.TerminalBudget || r.InvalidActions > 0) {
				t.Errorf("%s on %s seed %d: %d invalid actions, ended %s; a blind policy must play valid actions and end the episode itself",
					p.Name, ep.Task, ep.Seed, r.InvalidActions, r.Terminal)
			}
			mark := "."
			if r.Success {
				mark = "W"
			}
			wins[i][e/blindSeeds] += mark
		}
	}
	for i, p := range policies {
		if p.Name == agents.BlindPrefix+agents.AlwaysEscalate.String() && strings.Contains(strings.Join(wins[i], ""), "W") {
			t.Errorf("%s wins an incident: escalating without a cause must never succeed", p.Name)
		}
	}

	var b bytes.Buffer
	fmt.Fprintf(&b, "# Wins of the answer-blind policies (issue 18 item 5) and greedy on every\n")
	fmt.Fprintf(&b, "# shipped incident, seeds 1..%d; success = the record's success.\n", blindSeeds)
	fmt.Fprintf(&b, "# Regenerate: SREZC_UPDATE=1 go test ./eval -run TestBlindPolicies\n\n")
	// The panel as a whole: an (incident, seed) falls to it when any
	// policy above wins it.
	panel := make([]string, len(tasks))
	for j := range tasks {
		for e := 0; e < blindSeeds; e++ {
			mark := "."
			for i := range policies {
				if wins[i][j][e] == 'W' {
					mark = "W"
				}
			}
			panel[j] += mark
		}
	}
	fmt.Fprintf(&b, "%-24s %9s %11s %13s\n", "policy", "wins", "incidents", "every seed")
	for i, name := range append(policyNames(policies), "any of the above") {
		row := panel
		if i < len(policies) {
			row = wins[i]
		}
		n, any, all := 0, 0, 0
		for _, w := range row {
			c := strings.Count(w, "W")
			n += c
			if c > 0 {
				any++
			}
			if c == blindSeeds {
				all++
			}
		}
		fmt.Fprintf(&b, "%-24s %4d/%-4d %6d/%-4d %8d/%d\n", name, n, len(tasks)*blindSeeds, any, len(tasks), all, len(tasks))
	}
	fmt.Fprintf(&b, "\nPer incident, one mark per seed (W won, . lost):\n\n")
	row := []string{fmt.Sprintf("%-28s", "incident")}
	for _, p := range policies {
		row = append(row, fmt.Sprintf("%-7s", shortPolicy(p.Name)))
	}
	fmt.Fprintln(&b, strings.TrimRight(strings.Join(row, " "), " "))
	for j, tk := range tasks {
		row = []string{fmt.Sprintf("%-28s", tk.ID)}
		for i := range policies {
			row = append(row, fmt.Sprintf("%-7s", wins[i][j]))
		}
		fmt.Fprintln(&b, strings.TrimRight(strings.Join(row, " "), " "))
	}
	got := b.Bytes()
	t.Logf("\n%s", got)

	if os.Getenv("SREZC_UPDATE") == "1" {
		writeFileAtomic(t, blindWinsGolden, got)
		return
	}
	want, err := os.ReadFile(blindWinsGolden)
	if err != nil {
		t.Fatalf("%v (SREZC_UPDATE=1 writes it)", err)
	}
	if !bytes.Equal(want, got) {
		t.Errorf("blind policies' wins differ from %s (SREZC_UPDATE=1 rewrites):\n%s", blindWinsGolden, firstDiff(want, got))
	}
}

// TestBlindPoliciesAreDeterministic plays every blind policy on every
// shipped incident twice, on one worker and on several, and compares the
// traces byte for byte.
func TestBlindPoliciesAreDeterministic(t *testing.T) {
	tasks, k := shippedSuite(t)
	for _, p := range agents.BlindPolicies() {
		factory := func(*engine.Task, uint64) (agents.Agent, error) { return agents.NewBlind(k, p), nil }
		var traces [2][]byte
		for i, workers := range []int{1, 0} {
			_, eps, err := eval.Run(tasks, eval.Options{Agent: p.String(), NewAgent: factory, Episodes: 1, Seed: 3, Workers: workers, Trace: true})
			if err != nil {
				t.Fatal(err)
			}
			for _, ep := range eps {
				traces[i] = ep.AppendTrace(traces[i])
			}
		}
		if !bytes.Equal(traces[0], traces[1]) {
			t.Errorf("%s: traces differ between one worker and several:\n%s", p, firstDiff(traces[0], traces[1]))
		}
	}
}

func policyNames(ps []agents.Adversary) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Name)
	}
	return out
}

// shortPolicy is a policy's column head in the per-incident table.
func shortPolicy(name string) string {
	name = strings.TrimPrefix(name, agents.BlindPrefix)
	if len(name) > 7 {
		name = name[:7]
	}
	return name
}

func writeFileAtomic(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}
