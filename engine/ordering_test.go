package engine_test

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/record"
)

// orderedPolicies are the behaviours partial credit must rank, best first
// (issue 14): the expert; the right fix with a vague diagnosis; the right
// diagnosis without a fix; reading the evidence and escalating; blind
// random play.
var orderedPolicies = []string{"expert", "fix_vague_diagnosis", "diagnosis_no_fix", "investigate_escalate", "random"}

// policyActions builds a policy's text actions for a task from its
// certified plan: its reads, its writes and its resolution.
func policyActions(tk *engine.Task, policy string, rng *rand.Rand) []string {
	// The plan's steps in its order: a read after a write waits for the
	// write to take effect (a rebuild, a drain) and stays after it.
	var reads, steps []string
	resolution := ""
	for _, a := range tk.Plan {
		switch {
		case strings.HasPrefix(a, "resolve_incident("):
			resolution = a
		case isWrite(tk, a):
			steps = append(steps, a)
		default:
			reads = append(reads, a)
			steps = append(steps, a)
		}
	}
	vague := `resolve_incident("something in the configuration was wrong and is fixed now", "changed the settings that looked off")`
	switch policy {
	case "expert":
		return tk.Expert
	case "fix_vague_diagnosis":
		return append(append([]string{}, steps...), vague)
	case "diagnosis_no_fix":
		return append(append([]string{}, reads...), resolution)
	case "investigate_escalate":
		return append(append([]string{}, reads...), `escalate("I read the evidence but could not fix it; handing over")`)
	}
	// Blind random play: any tool on any service, keys and values drawn
	// from the task's config, until the budget or a terminal action.
	var out []string
	svcs := tk.Services
	for len(out) < tk.Budget {
		s := svcs[rng.IntN(len(svcs))]
		switch rng.IntN(9) {
		case 0:
			out = append(out, "inspect_logs("+s.Name+")")
		case 1:
			out = append(out, "inspect_metrics("+s.Name+")")
		case 2:
			out = append(out, "check_status("+s.Name+")")
		case 3:
			out = append(out, "inspect_config("+s.Name+")")
		case 4:
			out = append(out, "restart_service("+s.Name+")")
		case 5, 6:
			if len(s.Config) > 0 {
				slot := tk.Slots[s.Config[rng.IntN(len(s.Config))]]
				out = append(out, fmt.Sprintf("update_config(%s, %s, %s)", s.Name, slot.Name, strconv.Itoa(rng.IntN(500))))
			}
		case 7:
			out = append(out, `resolve_incident("the service crashed", "restarted it")`)
		case 8:
			out = append(out, `escalate("not sure")`)
		}
	}
	return out
}

// isWrite reports whether a text action calls a tool that changes the
// world: a restart, an update, a rollback or an operation.
func isWrite(tk *engine.Task, a string) bool {
	name, _, _ := strings.Cut(a, "(")
	for _, tl := range tk.Tools {
		if tl.Name == name {
			switch tl.Effect {
			case engine.EffectUpdate, engine.EffectRestart, engine.EffectRollback, engine.EffectOperate:
				return true
			}
		}
	}
	return false
}

// TestPartialCreditOrdersBehaviour plays each policy on every shipped
// incident and requires mean reward and marks to fall strictly down the
// order.
func TestPartialCreditOrdersBehaviour(t *testing.T) {
	tasks := suiteTasks(t)
	reward := map[string]float64{}
	marks := map[string]float64{}
	for _, policy := range orderedPolicies {
		var recs []record.EpisodeMetrics
		for ti, tk := range tasks {
			rng := rand.New(rand.NewPCG(uint64(ti), 7))
			ep := engine.NewEpisode(tk)
			ep.Reset(1)
			// The plans of the site variant seed 1 plays.
			for _, a := range policyActions(tk.Site(1), policy, rng) {
				if ep.Done() {
					break
				}
				act := bind(t, tk, a)
				ep.Step(&act)
			}
			recs = append(recs, ep.Record())
			reward[policy] += ep.Record().FinalReward / float64(len(tasks))
		}
		marks[policy] = record.Aggregate(recs).Get("marks")
		t.Logf("%-22s reward %.3f  marks %.1f", policy, reward[policy], marks[policy])
	}
	for i := 1; i < len(orderedPolicies); i++ {
		hi, lo := orderedPolicies[i-1], orderedPolicies[i]
		if !(reward[hi] > reward[lo]) {
			t.Errorf("reward: %s (%.3f) must exceed %s (%.3f)", hi, reward[hi], lo, reward[lo])
		}
		if !(marks[hi] > marks[lo]) {
			t.Errorf("marks: %s (%.1f) must exceed %s (%.1f)", hi, marks[hi], lo, marks[lo])
		}
	}
}
