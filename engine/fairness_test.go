package engine_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/srezc/srezc/agents"
	"github.com/srezc/srezc/engine"
)

// fairnessAnswer is one line of the fairness corpus (testdata/fairness):
// an answer written from an incident's ground truth, blind to the matcher,
// and whether a careful human grader would accept it.
type fairnessAnswer struct {
	Incident  string            `json:"incident"`
	Verdict   string            `json:"verdict"`
	Class     string            `json:"class"`
	RootCause string            `json:"root_cause"`
	Fix       string            `json:"fix"`
	Note      string            `json:"note"`
	Causes    []json.RawMessage `json:"causes"`
}

// answerText is what the agent sends: the structured causes when the line
// has them (a tool-calling agent), else the text.
func (a fairnessAnswer) answerText() string {
	if len(a.Causes) > 0 {
		b, _ := json.Marshal(a.Causes)
		return string(b)
	}
	return a.RootCause
}

func readFairness(t *testing.T, slice string) []fairnessAnswer { return readFairnessTB(t, slice) }

func readFairnessTB(t testing.TB, slice string) []fairnessAnswer {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "testdata", "fairness", slice+".jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []fairnessAnswer
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		var a fairnessAnswer
		if err := json.Unmarshal(sc.Bytes(), &a); err != nil {
			t.Fatalf("%s.jsonl:%d: %v", slice, n, err)
		}
		if a.Verdict != "right" && a.Verdict != "wrong" {
			t.Fatalf("%s.jsonl:%d: verdict %q", slice, n, a.Verdict)
		}
		out = append(out, a)
	}
	return out
}

// fairnessResult counts one slice's disagreements with the human labels.
type fairnessResult struct {
	right, wrong                 int
	rightRejected, wrongAccepted int
	disagreements                []string
}

func gradeFairness(t *testing.T, tasks map[string]*engine.Task, answers []fairnessAnswer) fairnessResult {
	var r fairnessResult
	for _, a := range answers {
		tk := tasks[a.Incident]
		if tk == nil {
			t.Fatalf("corpus names unknown incident %q", a.Incident)
		}
		v := tk.DiagnoseText(a.answerText())
		switch {
		case a.Verdict == "right":
			r.right++
			if !v.OK {
				r.rightRejected++
				r.disagreements = append(r.disagreements, fmt.Sprintf("right answer rejected [%s %s] %q: %s", a.Incident, a.Class, a.answerText(), strings.Join(v.Reasons, "; ")))
			}
		default:
			r.wrong++
			if v.OK {
				r.wrongAccepted++
				r.disagreements = append(r.disagreements, fmt.Sprintf("wrong answer accepted [%s %s] %q (%s)", a.Incident, a.Class, a.answerText(), a.Note))
			}
		}
	}
	return r
}

// fairnessGoal is issue 14's gate: right answers rejected at most 2%,
// wrong answers accepted at most 1%.
const fairnessGoalRejected, fairnessGoalAccepted = 0.02, 0.01

// fairnessGated are the development slices, which must meet the goal.
// holdout was held out until 2026-11-24 (its last blind count: 7 of 105
// right answers rejected, 1 of 65 wrong accepted) and then opened for
// development.
var fairnessGated = map[string]bool{"dev": true, "dev2": true, "holdout": true}

// fairnessHeldOut are the slices nobody tunes the reader to: holdout5
// (written 2026-11-24, first counted with rubric 4's description reading:
// 37 of 195 right rejected, 4 of 148 wrong accepted, as with rubric 3) and
// holdout6 (written the same day, first counted with the rules opening
// holdout4 drove: 20 of 195, 2 of 148; 24 and 2 with rubric 3) and
// holdout7 (2026-11-25, the 31 newer incidents; see fairnessCeiling). holdout2,
// holdout3 and holdout4 were each counted once, blind, then opened (see
// fairnessCeiling).
var fairnessHeldOut = map[string]bool{"holdout5": true, "holdout6": true, "holdout7": true}

// fairnessCeiling holds the counts of slices that do not meet the goal
// yet; they may only go down.
var fairnessCeiling = map[string][2]int{
	// First blind counts: holdout2 30 of 198 right rejected, 4 of 160
	// wrong accepted; holdout3 39 of 195, 0 of 148; holdout4 31 of 195,
	// 3 of 148.
	"holdout2": {7, 1}, // right rejected, wrong accepted
	"holdout3": {18, 0},
	"holdout4": {9, 2},
	// holdout5 after the rules opening holdout4 drove (its disagreements
	// unread), and holdout6's first count; both lowered to rubric 6's
	// counts (their count lines only).
	"holdout5": {24, 4},
	"holdout6": {15, 2},
	// dev3 and holdout7 (2026-11-25) answer the 31 incidents the world
	// issue added, which no slice had covered. First counts: both 60 of
	// 127 right rejected (47%), 0 and 1 of 96 wrong accepted. After the
	// rules dev3 drove (external providers and relays, bad builds, link
	// faults named with no service, crash loops, slots, orphaned queues):
	// dev3 31, holdout7 47 (its disagreements unread). Rubric 6 (versions,
	// metric names and compounds' first parts read as modifiers, a part
	// that fails, ordinals, fractions and zero counts, shares said of a
	// client, log fields, host names inside a phrase): dev3 13, holdout7 42
	// (count lines only). Rubric 7 (dev4's lessons as structure: an
	// outside party named any way with a status said of it, products as
	// services, "since then", a process dying at a step, comparatives
	// against a reading): dev3 12, dev4 17, holdout7 32 (count lines only).
	"dev3": {12, 0},
	// dev4 (2026-11-25, development, new voices: product names, Slack
	// shorthand, postmortem headings, hedges, very short answers) was
	// counted before anyone read it: 42 of 127 right rejected under
	// rubric 5, 36 under rubric 6 (whose rules dev3 drove), 0 of 96
	// wrong accepted under both.
	"dev4":     {17, 0},
	"holdout7": {32, 1},
	// adversarial holds only wrong answers, written against the reader's
	// own rules (sibling settings, wrong direction, wrong service for a
	// paraphrased setting or a quantity): none may be accepted.
	"adversarial": {0, 0},
	// migrated holds answers to the six incidents issue 18 item 6 gave a
	// cause beyond the crash, written by the migration's author (not blind
	// to the matcher), so measured, not gated. The corpus's answers that
	// named only the crash were relabelled wrong in every slice.
	"migrated": {3, 0},
}

// TestFairness grades the corpus and reports every slice against the
// goal. It fails when a development slice misses the goal or a held-out
// slice gets worse than its ceiling. The development and adversarial
// slices' disagreements are listed; a held-out slice's only with
// SREZC_FAIRNESS_HOLDOUT=1, so that nobody tunes the reader to them.
func TestFairness(t *testing.T) {
	tasks := map[string]*engine.Task{}
	for _, tk := range suiteTasks(t) {
		tasks[tk.ID] = tk
	}
	for _, slice := range []string{"dev", "dev2", "dev3", "dev4", "holdout", "holdout2", "holdout3", "holdout4", "holdout5", "holdout6", "holdout7", "adversarial", "migrated"} {
		r := gradeFairness(t, tasks, readFairness(t, slice))
		rr := float64(r.rightRejected) / float64(max(1, r.right))
		wa := float64(r.wrongAccepted) / float64(max(1, r.wrong))
		show := !fairnessHeldOut[slice] || os.Getenv("SREZC_FAIRNESS_HOLDOUT") != ""
		if show {
			t.Logf("%s: %d right, %d rejected (%.1f%%); %d wrong, %d accepted (%.1f%%)", slice, r.right, r.rightRejected, 100*rr, r.wrong, r.wrongAccepted, 100*wa)
		}
		if show {
			for _, d := range r.disagreements {
				t.Log(d)
			}
		}
		missed := rr > fairnessGoalRejected || wa > fairnessGoalAccepted
		if missed && fairnessGated[slice] {
			t.Errorf("%s: %d of %d right answers rejected, %d of %d wrong accepted: the goal is right rejected ≤ %.0f%%, wrong accepted ≤ %.0f%%", slice, r.rightRejected, r.right, r.wrongAccepted, r.wrong, 100*fairnessGoalRejected, 100*fairnessGoalAccepted)
		} else if missed && show {
			t.Logf("%s: not yet at the goal (right rejected ≤ %.0f%%, wrong accepted ≤ %.0f%%)", slice, 100*fairnessGoalRejected, 100*fairnessGoalAccepted)
		}
		if c, ok := fairnessCeiling[slice]; ok && (r.rightRejected > c[0] || r.wrongAccepted > c[1]) {
			t.Errorf("%s: %d right answers rejected, %d wrong accepted; the ceiling is %d and %d", slice, r.rightRejected, r.wrongAccepted, c[0], c[1])
		}
	}
}

// TestStructuredCauses: a tool-calling agent's list of causes, turned into
// a text action the way every face does (agents.CallText), is graded cause
// by cause; its explanations blame nobody.
func TestStructuredCauses(t *testing.T) {
	var tk *engine.Task
	for _, x := range suiteTasks(t) {
		if x.ID == "two_faults" {
			tk = x
		}
	}
	specs := []agents.ToolSpec{{Name: "resolve_incident", Args: []agents.ArgSpec{{Name: "root_cause", Type: "text"}, {Name: "fix", Type: "text"}}}}
	for _, c := range []struct {
		args string
		ok   bool
	}{
		{`{"root_cause": [{"service": "web_server", "what": "cache host points at a name that no longer exists", "explanation": "every read falls through to the database and the load_balancer sees 5xx"}, {"service": "database", "what": "connection pool far too small"}], "fix": "x"}`, true},
		{`{"root_cause": [{"service": "web_server", "what": "cache host wrong"}], "fix": "x"}`, false},
		{`{"root_cause": [{"service": "web_server", "what": "cache host wrong"}, {"service": "database", "what": "pool too small"}, {"service": "load_balancer", "what": "returning 5xx"}], "fix": "x"}`, false},
		{`{"root_cause": [{"service": "web_server", "what": "cache host wrong"}, {"service": "database", "what": "pool too large"}], "fix": "x"}`, false},
		{`{"root_cause": [{"service": "payments", "what": "pool too small"}], "fix": "x"}`, false},
	} {
		text := agents.CallText(specs, "resolve_incident", c.args)
		act := bind(t, tk, text)
		if act.Err != engine.OK {
			t.Fatalf("%s: invalid action %s", c.args, text)
		}
		v := tk.DiagnoseText(act.Text[0])
		if v.OK != c.ok {
			t.Errorf("%s: graded %v, want %v (%v)", c.args, v.OK, c.ok, v.Reasons)
		}
	}
}

// BenchmarkDiagnose reads every corpus answer against its incident, as the
// grader does at resolve_incident (issue 14's budget: under 50 µs each).
func BenchmarkDiagnose(b *testing.B) {
	tasks := map[string]*engine.Task{}
	for _, tk := range suiteTasks(b) {
		tasks[tk.ID] = tk
	}
	var answers []fairnessAnswer
	for _, slice := range []string{"dev", "holdout"} {
		answers = append(answers, readFairnessTB(b, slice)...)
	}
	eps := map[string]*engine.Episode{}
	for id, tk := range tasks {
		eps[id] = engine.NewEpisode(tk)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		a := answers[i%len(answers)]
		eps[a.Incident].DiagnoseAnswer(a.answerText())
	}
}

// FuzzDiagnose: any answer, text or structured, reads without a panic and
// reads the same twice, whichever incident it is read against.
func FuzzDiagnose(f *testing.F) {
	tasks := suiteTasks(f)
	for _, slice := range []string{"dev", "holdout"} {
		for i, a := range readFairnessTB(f, slice) {
			if i%5 == 0 {
				f.Add(uint8(i), a.answerText())
			}
		}
	}
	f.Add(uint8(0), `[{"service":"database","what":"pool too small -> ,;: (x) 'quoted' "}]`)
	f.Add(uint8(1), "db: ; ; -> -> 0 0 0 web-2/cache-old.internal/healthz İNDEX évictions")
	eps := make([]*engine.Episode, len(tasks))
	for i, tk := range tasks {
		eps[i] = engine.NewEpisode(tk)
	}
	f.Fuzz(func(t *testing.T, which uint8, answer string) {
		tk := tasks[int(which)%len(tasks)]
		v := tk.DiagnoseText(answer)
		if got := eps[int(which)%len(tasks)].DiagnoseAnswer(answer); got != v.OK {
			t.Fatalf("the episode's reader says %v, the explaining reader %v, on %q", got, v.OK, answer)
		}
	})
}

// TestStuffedAnswersRejected: answers written without looking at the
// incident, from the published vocabulary alone (every mechanism, every
// setting in every state, every identifier, every quantity said as a
// limit, every service), are rejected on every shipped incident, with and
// without services named. They guard the reader's rules that resolve an
// answer's gaps in its favour (a setting named by identifier only, a
// quantity read as a setting's value) against being a way to win blind.
func TestStuffedAnswersRejected(t *testing.T) {
	states := []string{"too low", "too high", "wrong", "disabled", "enabled", "expired", "down", "leaking", "full", "skewed"}
	quantities := func(x string) string {
		return "only allows " + x + " connections, only waits " + x + " ms, only keeps " + x + " MB, retries only " + x +
			" times, sends only " + x + "% of traffic, has only " + x + " consumers and only " + x + " workers, after " + x + " seconds"
	}
	for _, tk := range suiteTasks(t) {
		var mechs, services, topics, idents []string
		for _, m := range tk.Mechanisms {
			mechs = append(mechs, m.Phrases...)
		}
		for i, s := range tk.Services {
			services = append(services, s.Name)
			for _, c := range s.Config {
				idents = append(idents, tk.Slots[c].Name)
			}
			_ = i
		}
		for _, c := range tk.Claims {
			if len(c.Topics) > 0 && c.Topics[0] != "" {
				topics = append(topics, c.Topics[0])
			}
		}
		answers := map[string]string{
			"every mechanism": strings.Join(mechs, ", "),
		}
		var everyState, perService, quantLow, quantHigh []string
		for _, st := range states {
			var one, ids []string
			for _, tp := range topics {
				one = append(one, "the "+tp+" is "+st)
			}
			for _, id := range idents {
				ids = append(ids, id+" "+st)
			}
			answers["every setting "+st] = strings.Join(one, ". ")
			answers["every identifier "+st] = strings.Join(ids, ". ")
			everyState = append(everyState, one...)
		}
		answers["every setting in every state"] = strings.Join(everyState, ". ")
		// Every setting by what it does: its description's words, in
		// every state.
		var glossed []string
		for _, c := range tk.Claims {
			if len(c.Gloss) > 0 {
				for _, st := range states {
					glossed = append(glossed, "the "+strings.Join(c.Gloss, " ")+" is "+st)
				}
			}
		}
		answers["every setting by its description, every state"] = strings.Join(glossed, ". ")
		for _, s := range services {
			perService = append(perService, "the "+s+" has "+strings.Join(mechs, ", "))
			quantLow = append(quantLow, "the "+s+" "+quantities("1"))
			quantHigh = append(quantHigh, "the "+s+" "+quantities("9000000"))
		}
		answers["every service, every mechanism"] = strings.Join(perService, ". ")
		answers["every quantity low"] = strings.Join(quantLow, ". ")
		answers["every quantity high"] = strings.Join(quantHigh, ". ")
		answers["no service, quantities"] = quantities("1") + ". " + quantities("9000000")
		var all []string
		for _, a := range answers {
			all = append(all, a)
		}
		sort.Strings(all)
		answers["all of it"] = strings.Join(all, ". ")
		for name, a := range answers {
			if v := tk.DiagnoseText(a); v.OK {
				t.Errorf("%s: the blind answer %q is accepted: %q", tk.ID, name, a)
			}
		}
	}
}
