package certify_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/srezc/srezc/action"
	"github.com/srezc/srezc/agents"
	"github.com/srezc/srezc/certify"
	"github.com/srezc/srezc/compiler"
	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/lang"
)

// shippedWins compiles the shipped suite, keeping what does not certify,
// and plays the adaptive panel on every task: the (incident, policy) wins,
// each with the result shown for it.
func shippedWins(t *testing.T) (map[[2]string]certify.AdaptiveResult, []*engine.Task, *agents.Knowledge) {
	t.Helper()
	m := shippedModule(t)
	tasks, diags := compiler.CompileWith(m, compiler.Options{KeepUncertified: true})
	for _, d := range diags {
		if d.Severity == lang.Error && d.Summary != compiler.NotCertified {
			t.Fatalf("shipped suite: %v", d)
		}
	}
	k := certify.Knowledge(m)
	wins := map[[2]string]certify.AdaptiveResult{}
	for _, tk := range tasks {
		for _, r := range certify.PlayAdversaries(tk, k, false) {
			if r.Won() {
				wins[[2]string{tk.ID, r.Policy}] = r
			}
		}
	}
	return wins, tasks, k
}

// TestKnownExploits is the ratchet on the shipped suite's known exploits
// (certify/known_exploits.txt): every entry names a shipped incident and a
// policy of the panel, with a reason, once; every entry is still needed
// (the policy still wins the incident on some variant and seed); and every
// win is listed, else the suite would not certify. SREZC_UPDATE=1 removes
// the entries no longer needed; SREZC_UPDATE=grow also adds new wins, with
// a reason derived from how the policy wins, for review.
func TestKnownExploits(t *testing.T) {
	wins, tasks, k := shippedWins(t)
	ids := map[string]bool{}
	for _, tk := range tasks {
		ids[tk.ID] = true
	}
	policies := map[string]bool{}
	for _, a := range agents.Adversaries(k) {
		policies[a.Name] = true
	}
	path := filepath.Join("..", certify.KnownExploitsFile)
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	listed := certify.KnownExploits(text)
	if !slicesEqual(listed, certify.ShippedKnownExploits()) {
		t.Fatalf("%s differs from the list this build embeds", path)
	}
	var keep []certify.KnownExploit
	seen := map[[2]string]bool{}
	for _, e := range listed {
		key := [2]string{e.Incident, e.Policy}
		switch {
		case !ids[e.Incident]:
			t.Errorf("%s: %q is not a shipped incident", path, e.Incident)
		case !policies[e.Policy]:
			t.Errorf("%s: %q is not a policy of the adaptive panel", path, e.Policy)
		case e.Reason == "":
			t.Errorf("%s: %s %s has no reason", path, e.Incident, e.Policy)
		case seen[key]:
			t.Errorf("%s: %s %s is listed twice", path, e.Incident, e.Policy)
		case wins[key].Policy == "":
			t.Errorf("%s: %s no longer wins %s: remove the entry (SREZC_UPDATE=1 does)", path, e.Policy, e.Incident)
		default:
			keep = append(keep, e)
		}
		seen[key] = true
	}
	var added []certify.KnownExploit
	for key, r := range wins {
		if !seen[key] {
			e := certify.KnownExploit{Incident: key[0], Policy: key[1], Reason: derivedReason(r)}
			added = append(added, e)
			t.Errorf("%s wins the shipped incident %s (%s), which %s does not list: fix the world, or add (SREZC_UPDATE=grow adds):\n%s",
				key[1], key[0], strings.Join(r.Plan, "; "), path, line(e))
		}
	}
	update := os.Getenv("SREZC_UPDATE")
	if update != "1" && update != "grow" {
		return
	}
	if update == "grow" {
		keep = append(keep, added...)
	}
	sort.SliceStable(keep, func(i, j int) bool {
		if keep[i].Incident != keep[j].Incident {
			return keep[i].Incident < keep[j].Incident
		}
		return keep[i].Policy < keep[j].Policy
	})
	var b bytes.Buffer
	b.WriteString(knownHeader)
	for _, e := range keep {
		b.WriteString(line(e) + "\n")
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

const knownHeader = `# Known exploits of the shipped suite: an adaptive answer-blind policy
# (certify/adaptive.go) that still wins a shipped incident, and why.
# Certification excuses exactly these wins, and only for the incidents as
# shipped (byte-identical sources); a mutation variant or an author's own
# incident is never excused. The list only shrinks: TestKnownExploits fails
# when an entry is no longer needed, and SREZC_UPDATE=1 go test ./certify
# -run TestKnownExploits removes it. A new win is a regression of the
# world; SREZC_UPDATE=grow adds it with a derived reason, for review.
#
# incident  policy  reason
`

func line(e certify.KnownExploit) string {
	return fmt.Sprintf("%-28s %-24s %s", e.Incident, e.Policy, e.Reason)
}

// derivedReason says how a policy wins: what its rule exploits, and the
// writes it wins with.
func derivedReason(r certify.AdaptiveResult) string {
	why := map[string]string{
		"greedy":                  "the alerted service's first anomaly is the fault, fixed the stdlib way",
		"blind-reset-docs":        "resetting every key that differs from the docs fixes it",
		"blind-reset-band":        "the fault shows as a key out of its documented band or a service down, which the default or a restart fixes",
		"blind-restart-unhealthy": "restarting what is unhealthy fixes it",
		"blind-log-words":         "the logs' words name the mechanism and its documented remedy fixes it",
		"blind-always-escalate":   "escalating without a cause succeeds",
		"blind-rollback-all":      "undoing every change in the history fixes it",
		"blind-rollback-latest":   "undoing the newest change fixes it",
		"blind-operate":           "applying every operation whose trigger the reads show fixes it, and nothing it applies is benign state",
		"blind-operate-rollback":  "undoing every change and applying every triggered operation fixes it",
		"blind-operate-warnings":  "the operation whose trigger shows in warning and error lines is the fix, and the benign state shows at INFO only",
	}[r.Policy]
	if why == "" {
		why = "it wins"
	}
	var writes []string
	for _, a := range r.Plan {
		name, _, _ := strings.Cut(a, "(")
		switch name {
		case "update_config", "restart_service", "rollback", "restart_instance", "drain", "scale", "renew_certificate",
			"reload_secrets", "drop_replication_slot", "replace_instance", "block_client", "delete_queue",
			"reindex", "terminate_idle_transactions", "create_index", "redeclare_queue_with_deduplication":
			writes = append(writes, a)
		}
	}
	if len(writes) > 0 {
		why += ": " + strings.Join(writes, "; ")
	}
	return why
}

func slicesEqual(a, b []certify.KnownExploit) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestAdaptiveReplayIsExact: the panel's shortcut (replaying the lead
// seed's actions while observations match, and taking its outcome when
// they match to the end) gives, on every shipped task, every variant and
// every policy, the wins that playing each seed in full gives.
func TestAdaptiveReplayIsExact(t *testing.T) {
	m := shippedModule(t)
	tasks, diags := compiler.CompileWith(m, compiler.Options{KeepUncertified: true})
	if len(tasks) == 0 {
		t.Fatalf("nothing compiled: %v", diags)
	}
	k := certify.Knowledge(m)
	for _, tk := range tasks {
		got := certify.PlayAdversaries(tk, k, true)
		for i, adv := range agents.Adversaries(k) {
			wins, first := 0, ""
			for site := 0; site < tk.SiteCount(); site++ {
				v := *tk
				if site > 0 {
					v = *tk.Sites[site-1]
				}
				v.Sites = nil
				for seed := uint64(1); seed <= certify.AdaptiveSeeds; seed++ {
					if playInFull(&v, adv.New(), seed) {
						if wins++; wins == 1 {
							first = fmt.Sprint(site, seed)
						}
					}
				}
			}
			g := got[i]
			gotFirst := ""
			if g.Won() {
				gotFirst = fmt.Sprint(g.Site, g.Seed)
			}
			if g.Policy != adv.Name || g.Wins != wins || gotFirst != first || g.Episodes != tk.SiteCount()*certify.AdaptiveSeeds {
				t.Errorf("%s, %s: the panel gives %d wins of %d (first %q), played in full %d (first %q)",
					tk.ID, adv.Name, g.Wins, g.Episodes, gotFirst, wins, first)
			}
		}
	}
}

// playInFull plays an agent on t from seed as evaluation does, without
// shortcuts, and reports success.
func playInFull(t *engine.Task, a agents.Agent, seed uint64) bool {
	ep := engine.NewEpisode(t)
	ep.Reset(seed)
	a.Begin(string(ep.AppendIntro(nil)))
	obs := ""
	for !ep.Done() {
		text, ok := a.Act(obs)
		if !ok {
			break
		}
		act := action.Bind(t, text)
		r := ep.Step(&act)
		obs = string(ep.AppendText(nil, &r.Obs))
	}
	return ep.Record().Success
}
