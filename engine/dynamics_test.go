package engine_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/srezc/srezc/compiler"
	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/lang"
	"github.com/srezc/srezc/value"
)

// shipped compiles the embedded default suite.
func shipped(t *testing.T) (*lang.Module, map[string]*engine.Task) {
	t.Helper()
	m, diags := lang.Analyze(lang.ScenarioFiles())
	tasks, more := compiler.CompileModule(m)
	if diags = append(diags, more...); diags.HasErrors() {
		t.Fatalf("suite: %v", diags)
	}
	out := map[string]*engine.Task{}
	for _, tk := range tasks {
		out[tk.ID] = tk
	}
	return m, out
}

// symptoms is what an operator would call a symptom on one service: a status
// other than healthy, or WARN/ERROR lines in its latest log tick that are
// still there a tick later (so a transient noise line is not a symptom).
func symptoms(t *testing.T, tk *engine.Task, ep *engine.Episode, svc string) string {
	var out []string
	status := observe(t, tk, ep, "check_status("+svc+")")
	if !strings.Contains(status, "status: healthy") {
		out = append(out, strings.TrimSpace(status[strings.Index(status, "]")+2:]))
	}
	later := ep.Fork()
	later.Advance()
	again := map[string]bool{}
	for _, l := range latestLogSymptoms(observe(t, tk, later, "inspect_logs("+svc+")")) {
		again[l] = true
	}
	for _, l := range latestLogSymptoms(observe(t, tk, ep, "inspect_logs("+svc+")")) {
		if again[l] {
			out = append(out, l)
		}
	}
	return strings.Join(out, "; ")
}

// latestLogSymptoms returns the WARN and ERROR lines of the latest tick of a
// logs observation, without their tick and time, and with every token that
// holds a digit masked: a line's ids (pids, request ids) differ from tick
// to tick (renderer obs/7), and a symptom is the same rule firing again.
func latestLogSymptoms(logs string) []string {
	var out []string
	last := ""
	for _, l := range strings.Split(logs, "\n") {
		if !strings.HasPrefix(l, "  t=") {
			continue
		}
		tick, rest, _ := strings.Cut(l[4:], " ")
		if tick != last {
			last, out = tick, out[:0]
		}
		_, rest, _ = strings.Cut(rest, " ") // the time
		if strings.HasPrefix(rest, "WARN ") || strings.HasPrefix(rest, "ERROR ") {
			out = append(out, "log:"+digitTokens.ReplaceAllString(rest, "#"))
		}
	}
	return out
}

var digitTokens = regexp.MustCompile(`[0-9a-f]*[0-9][0-9a-f]*`)

func observe(t *testing.T, tk *engine.Task, ep *engine.Episode, text string) string {
	f := ep.Fork()
	a := bind(t, tk, text)
	r := f.Step(&a)
	return string(f.AppendText(nil, &r.Obs))
}

func step(t *testing.T, tk *engine.Task, ep *engine.Episode, text string) string {
	a := bind(t, tk, text)
	r := ep.Step(&a)
	if r.Obs.Err != engine.OK {
		t.Fatalf("%s rejected: %v", text, r.Obs.Err)
	}
	return string(ep.AppendText(nil, &r.Obs))
}

// healed plays an incident's expert writes and lets the world settle.
func healed(t *testing.T, tk *engine.Task) *engine.Episode {
	ep := engine.NewEpisode(tk)
	ep.Reset(1)
	// The whole plan but its end: its reads are ticks too, and a plan
	// waits out what takes declared time (an index rebuild) by reading.
	for _, a := range tk.Expert {
		b := bind(t, tk, a)
		if e := tk.Tools[b.Tool].Effect; e != engine.EffectResolve && e != engine.EffectEscalate {
			step(t, tk, ep, a)
		}
	}
	for i := 0; i < 6; i++ {
		ep.Advance()
	}
	return ep
}

// TestRightFixHeals: on every shipped incident, each faulty service shows
// symptoms at the start, and none once the expert's changes have settled.
// Symptoms are the world's: the incident is read with noise off, since
// noise lines (routine warnings, flapping checks) stay after a fix by
// design (TestNoiseLinesStayAfterTheFix).
func TestRightFixHeals(t *testing.T) {
	m, tasks := shipped(t)
	for _, in := range m.Incidents {
		tk := quiet(tasks[in.Name])
		ep := engine.NewEpisode(tk)
		ep.Reset(1)
		sick := false
		for _, f := range in.Faults {
			sick = sick || symptoms(t, tk, ep, f.Target) != ""
		}
		alerted := false
		for _, s := range tk.Services {
			alerted = alerted || symptoms(t, tk, ep, s.Name) != ""
		}
		if !alerted {
			t.Errorf("%s: no service shows a symptom before the fix", in.Name)
		}
		_ = sick
		if tk.OutOfReach() {
			// Nothing the agent does heals a third party's outage: the
			// expert hands it over (TestEscalationCanBeRight).
			continue
		}
		ep = healed(t, tk)
		for _, s := range tk.Services {
			if got := symptoms(t, tk, ep, s.Name); got != "" && !isDistractorTarget(in, s.Name) {
				t.Errorf("%s: after the expert's fix %s still shows: %s", in.Name, s.Name, got)
			}
		}
	}
}

func isDistractorTarget(in *lang.Incident, svc string) bool {
	for _, d := range in.Distractors {
		if d.Target == svc {
			return true
		}
	}
	return false
}

// TestPastHighLimitHurts: on a healed world, pushing any numeric config key
// of any service past its high limit produces a symptom on some service.
func TestPastHighLimitHurts(t *testing.T) {
	m, tasks := shipped(t)
	tk := quiet(tasks["db_crash"])
	base := healed(t, tk)
	// A distractor's benign lines (a retired job's refused logins) stay
	// after the fix; a push past a limit must show something beyond them.
	var in *lang.Incident
	for _, i := range m.Incidents {
		if i.Name == "db_crash" {
			in = i
		}
	}
	benign := map[string]string{}
	for _, s := range tk.Services {
		got := symptoms(t, tk, base, s.Name)
		if got != "" && !isDistractorTarget(in, s.Name) {
			t.Fatalf("healed world: %s shows %s", s.Name, got)
		}
		benign[s.Name] = got
	}
	sys := m.System("standard")
	for _, ss := range sys.Services {
		k := m.ServiceKind(ss.Kind)
		for _, c := range k.Config {
			if !c.HasBand || (c.Kind != value.Int && c.Kind != value.Float) {
				continue
			}
			v := c.High * 4
			text := fmt.Sprintf("update_config(%s, %s, %d)", ss.Name, c.Name, int64(v))
			if c.Kind == value.Float {
				text = fmt.Sprintf("update_config(%s, %s, %.1f)", ss.Name, c.Name, v)
			}
			ep := base.Fork()
			step(t, tk, ep, text)
			for i := 0; i < 4; i++ {
				ep.Advance()
			}
			any := ""
			for _, s := range tk.Services {
				if got := symptoms(t, tk, ep, s.Name); got != "" && got != benign[s.Name] {
					any = s.Name + ": " + got
					break
				}
			}
			if any == "" {
				t.Errorf("%s.%s = %v (high %v) produces no symptom anywhere", ss.Name, c.Name, v, c.High)
			}
		}
	}
}

// TestRestartingHealthyServiceCosts: restarting a healthy service makes it
// visibly unavailable for a while and costs reward.
func TestRestartingHealthyServiceCosts(t *testing.T) {
	_, tasks := shipped(t)
	tk := quiet(tasks["db_crash"])
	base := healed(t, tk)
	for _, s := range tk.Services {
		ep := base.Fork()
		a := bind(t, tk, "restart_service("+s.Name+")")
		r := ep.Step(&a)
		if r.Reward >= 0 {
			t.Errorf("restart of healthy %s: reward %v, want a penalty", s.Name, r.Reward)
		}
		if got := symptoms(t, tk, ep, s.Name); got == "" {
			t.Errorf("restart of healthy %s has no visible cost", s.Name)
		}
	}
}

// TestDistractorActionCounted: changing or restarting a distractor's
// service, or blaming it, is counted.
func TestDistractorActionCounted(t *testing.T) {
	m, tasks := shipped(t)
	n := 0
	for _, in := range m.Incidents {
		if len(in.Distractors) == 0 {
			continue
		}
		tk := tasks[in.Name]
		d := in.Distractors[0].Target
		for _, plan := range [][]string{
			{"restart_service(" + d + ")"},
			{`resolve_incident("` + d + ` is broken", "restart")`},
		} {
			ep, _ := play(t, tk, 1, plan...)
			if r := ep.Record(); r.DistractorFailures == 0 {
				t.Errorf("%s: %v on distractor %s not counted: %+v", in.Name, plan, d, r)
			}
			n++
		}
	}
	if n == 0 {
		t.Fatal("no shipped incident has a distractor")
	}
}
