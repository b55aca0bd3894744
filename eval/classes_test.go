package eval_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/srezc/srezc/action"
	"github.com/srezc/srezc/engine"
)

// classTags are the incident classes of issue 18 item 4; each needs at
// least three shipped incidents.
var classTags = []string{
	"class:escalation",
	"class:restart-alone-fails",
	"class:restart-makes-it-worse",
	"class:certificate-expiry",
	"class:stale-side-fix",
	"class:alerted-service-innocent",
	"class:responder-made-it-worse",
	"class:symptom-masking",
	"class:two-causes-one-read",
}

func TestIncidentClassesHaveThreeIncidents(t *testing.T) {
	count := map[string]int{}
	for _, tk := range suite(t) {
		for _, tag := range tk.Tags {
			if strings.HasPrefix(tag, "class:") {
				if !slices.Contains(classTags, tag) {
					t.Errorf("%s: class tag %q is not one of issue 18's classes (classTags)", tk.ID, tag)
				}
				count[tag]++
			}
		}
	}
	for _, tag := range classTags {
		if count[tag] < 3 {
			t.Errorf("%s: %d shipped incidents, want at least 3", tag, count[tag])
		}
	}
}

// playActions plays text actions from a fresh episode of tk on seed and
// returns it, not resolved.
func playActions(t *testing.T, tk *engine.Task, seed uint64, actions []string) *engine.Episode {
	t.Helper()
	ep := engine.NewEpisode(tk)
	ep.Reset(seed)
	for _, text := range actions {
		a := action.Bind(ep.Task(), text)
		if a.Err != engine.OK {
			t.Fatalf("%s does not bind", text)
		}
		ep.Step(&a)
	}
	return ep
}

func isRead(text string) bool {
	for _, p := range []string{"inspect_", "check_", "list_changes("} {
		if strings.HasPrefix(text, p) {
			return true
		}
	}
	return false
}

// TestResponderChangesMustBeUndone checks, on every site variant of every
// class:responder-made-it-worse incident, that the newest fault's change
// is an on-call engineer's, made within the hour and a quarter before the
// alert after every other fault's, and that the expert's writes split
// into the cause's and the responder's, neither of which mitigates alone.
func TestResponderChangesMustBeUndone(t *testing.T) {
	found := 0
	for _, tk := range suite(t) {
		if !slices.Contains(tk.Tags, "class:responder-made-it-worse") {
			continue
		}
		found++
		for seed := range uint64(tk.SiteCount()) {
			v := tk.Site(seed)
			var responder *engine.Change
			faultChanges := 0
			for i := range v.Changes {
				c := &v.Changes[i]
				if c.Fault < 0 {
					continue
				}
				faultChanges++
				if responder == nil || v.Age(c) < v.Age(responder) {
					responder = c
				}
			}
			if len(v.Faults) < 2 || responder == nil || faultChanges < 1 {
				t.Fatalf("%s: want a cause and a responder's change among %d faults", tk.ID, len(v.Faults))
			}
			if !strings.Contains(responder.Actor, "oncall") || v.Age(responder) > 75 {
				t.Errorf("%s site %d: the newest fault change is %s's, %d minutes before the alert; want an on-call engineer's within 75 minutes", tk.ID, seed, responder.Actor, v.Age(responder))
			}
			prefix := "update_config(" + v.Services[responder.Service].Name + ", " + v.Slots[responder.Slot].Name + ","
			var reads, cause, undo []string
			for _, text := range v.Expert {
				switch {
				case isRead(text):
					reads = append(reads, text)
				case strings.HasPrefix(text, "resolve_incident("), strings.HasPrefix(text, "escalate("):
				case strings.HasPrefix(text, prefix):
					undo = append(undo, text)
				default:
					cause = append(cause, text)
				}
			}
			if len(cause) == 0 || len(undo) == 0 {
				t.Fatalf("%s site %d: the expert's writes do not split into the cause's and the responder's (%q)", tk.ID, seed, v.Expert)
			}
			for _, c := range []struct {
				what   string
				writes []string
				want   bool
			}{
				{"only the cause fixed", cause, false},
				{"only the responder's change undone", undo, false},
				{"both", append(slices.Clone(cause), undo...), true},
			} {
				ep := playActions(t, tk, seed, append(slices.Clone(reads), c.writes...))
				if got := ep.Mitigated(); got != c.want {
					t.Errorf("%s site %d, %s: mitigated %v, want %v", tk.ID, seed, c.what, got, c.want)
				}
			}
		}
	}
	if found < 3 {
		t.Errorf("%d shipped incidents are tagged class:responder-made-it-worse, want at least 3", found)
	}
}

// TestMaskingWritesHideTheSymptom checks that the masking write of every
// class:symptom-masking incident (the first write of its mask_only near
// miss) is tempting: a few ticks after it, fewer of the alert's checks
// fail than without it, while no fault is fixed. The golden trace checks
// that the grader calls it a wrong change despite a right diagnosis.
func TestMaskingWritesHideTheSymptom(t *testing.T) {
	found := 0
	for _, tk := range suite(t) {
		if !slices.Contains(tk.Tags, "class:symptom-masking") {
			continue
		}
		found++
		t.Run(tk.ID, func(t *testing.T) {
			plan := archivedPlans(t, tk)["mask_only"]
			w := slices.IndexFunc(plan, func(a string) bool { return strings.HasPrefix(a, "update_config(") })
			if w < 0 {
				t.Fatal("mask_only.actions makes no config write")
			}
			// Two ticks after the write: the slot refills the volume the
			// mask freed within four (since reads of a tick agree, the
			// relapse shows a tick sooner than before).
			wait := slices.Repeat([]string{"check_status(" + tk.Services[tk.Faults[0].Service].Name + ")"}, 2)
			failing := func(actions []string) (int, *engine.Episode) {
				ep := playActions(t, tk, 1, actions)
				n := 0
				for _, s := range ep.Task().AlertSlots {
					if ep.Task().SlotAnomalous(s, ep.Row()) {
						n++
					}
				}
				return n, ep
			}
			before, _ := failing(append(slices.Clone(plan[:w]), wait...))
			after, ep := failing(append(slices.Clone(plan[:w+1]), wait...))
			if before == 0 || after >= before {
				t.Errorf("%s hides nothing: %d of the alert's checks fail after it, %d without it", plan[w], after, before)
			}
			for i := range ep.Task().Faults {
				if ep.FaultFixed(i) {
					t.Errorf("%s fixes fault %s: it is a fix, not a mask", plan[w], ep.Task().Faults[i].Kind)
				}
			}
		})
	}
	if found < 3 {
		t.Errorf("%d shipped incidents are tagged class:symptom-masking, want at least 3", found)
	}
}

// TestTwoCausesHaveADecoy checks that every class:two-causes-one-read
// incident shows, on every site variant, a benign change on a faulty
// service in its history: the second plausible cause the one read rules
// out (its other_cause near miss acts on it and fails).
func TestTwoCausesHaveADecoy(t *testing.T) {
	found := 0
	for _, tk := range suite(t) {
		if !slices.Contains(tk.Tags, "class:two-causes-one-read") {
			continue
		}
		found++
		for seed := range uint64(tk.SiteCount()) {
			v := tk.Site(seed)
			decoy := slices.ContainsFunc(v.Changes, func(c engine.Change) bool {
				return c.Fault < 0 && slices.ContainsFunc(v.Faults, func(f engine.Fault) bool { return f.Service == c.Service })
			})
			if !decoy {
				t.Errorf("%s site %d: no benign change on a faulty service to stand as the other cause", tk.ID, seed)
			}
		}
	}
	if found < 3 {
		t.Errorf("%d shipped incidents are tagged class:two-causes-one-read, want at least 3", found)
	}
}
