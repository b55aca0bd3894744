package eval_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/srezc/srezc/agents"
	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/eval"
	"github.com/srezc/srezc/record"
)

// readsEveryService reads the logs, metrics and traces of every service:
// an episode that sees all the noise there is.
func readsEveryService(tk *engine.Task) string {
	var b strings.Builder
	for _, s := range tk.Services {
		for _, tool := range []string{"inspect_logs", "inspect_metrics", "inspect_traces"} {
			b.WriteString(tool + "(" + s.Name + ")\n")
		}
	}
	return b.String()
}

// TestNoiseTagsAreInRecordsNotObservations: the noise events of what an
// agent read are tagged in its record (noise_events), each at a step whose
// observation shows its tick, and nothing an agent sees (the intro, any
// observation) names noise or a noise kind. With noise off there are no
// events.
func TestNoiseTagsAreInRecordsNotObservations(t *testing.T) {
	tasks := suite(t)
	v := eval.VersionsFor("test", tasks)
	kinds := map[string]int{}
	for _, tk := range tasks {
		for seed := uint64(1); seed <= 8; seed++ {
			ep := eval.Play(tk, agents.NewReplay(readsEveryService(tk)), 0, seed, true)
			r := eval.NewRecord("replay", "suite", v, tk, &ep, false)
			seen := []string{r.Intro}
			for _, m := range r.Trajectory {
				seen = append(seen, m.Observation)
			}
			for _, text := range seen {
				low := strings.ToLower(text)
				for _, tag := range []string{"noise", "spike", "jitter", "phantom", "health_check_flap", "noise_events"} {
					if strings.Contains(low, tag) {
						t.Fatalf("%s seed %d: an agent-visible text names %q:\n%s", tk.ID, seed, tag, text)
					}
				}
			}
			for _, n := range r.NoiseEvents {
				kinds[n.Kind]++
				if n.Step < 1 || n.Step > len(r.Trajectory) {
					t.Fatalf("%s: noise event at step %d of %d", tk.ID, n.Step, len(r.Trajectory))
				}
				m := r.Trajectory[n.Step-1]
				if !strings.Contains(m.Action, "("+n.Service+")") {
					t.Errorf("%s: a %s event on %s tagged at step %d, which read %s", tk.ID, n.Kind, n.Service, n.Step, m.Action)
				}
				if strings.HasPrefix(m.Action, "inspect_logs") && !strings.Contains(m.Observation, "t="+strconv.Itoa(n.Tick)+" ") {
					t.Errorf("%s: a %s event at tick %d tagged at step %d, whose logs do not show that tick", tk.ID, n.Kind, n.Tick, n.Step)
				}
			}
			line, err := record.Marshal(&r)
			if err != nil {
				t.Fatal(err)
			}
			if (len(r.NoiseEvents) > 0) != strings.Contains(string(line), `"noise_events":[{"step":`) {
				t.Fatalf("%s: %d events but the record line says otherwise:\n%s", tk.ID, len(r.NoiseEvents), line)
			}
			quiet := *tk
			quiet.Noise = nil
			quiet.Sites = nil
			for _, s := range tk.Sites {
				c := *s
				c.Noise = nil
				quiet.Sites = append(quiet.Sites, &c)
			}
			if off := eval.Play(&quiet, agents.NewReplay(readsEveryService(tk)), 0, seed, false); len(off.NoiseEvents) > 0 {
				t.Fatalf("%s: noise off still tags %v", tk.ID, off.NoiseEvents)
			}
		}
	}
	for _, k := range []string{"spike", "phantom_restart", "health_check_flap", "retry", "warning"} {
		if kinds[k] == 0 && k != "phantom_restart" {
			t.Errorf("no %s event tagged over the suite: %v", k, kinds)
		}
	}
	t.Logf("noise events tagged: %v", kinds)
}
