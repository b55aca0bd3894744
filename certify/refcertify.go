package certify

import (
	"fmt"
	"math"
	"strings"

	"github.com/srezc/srezc/action"
	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/lang"
	"github.com/srezc/srezc/srezero"
)

// Certification under sre_zero runs the rules that carry over to a literal
// world, in the reference's grammar: the expert plan succeeds, no
// answer-blind policy succeeds, and nothing shown gives the answer away.
// Diagnosability and the informed optimum need counterfactual worlds, which
// a literal world does not have; the reference's evidence keys are the
// evidence set. Findings are warnings: the reference's own tasks must
// import, and what they fail is the audit.

// refPanel is the exploit panel in the reference's grammar.
func refPanel(t *engine.Task) []exploit {
	var writes []string
	root, fix := "", ""
	for _, text := range t.Expert {
		a := action.ParseRef(text)
		switch a.Type {
		case "restart_service", "update_config":
			writes = append(writes, text)
		case "resolve_incident":
			root, fix = a.RootCause, a.Fix
		}
	}
	var services []string
	for _, s := range t.Ref.Services {
		services = append(services, s.Name)
	}
	var panel []exploit
	restartAll := []string{}
	for _, s := range services {
		restartAll = append(restartAll, "restart_service("+s+")")
	}
	if root != "" {
		panel = append(panel, exploit{"restart every service", append(restartAll, refResolve(root, fix))})
	}
	for _, d := range refBlindDiagnoses(t) {
		panel = append(panel,
			exploit{"expert's writes, " + d.name + " diagnosis", append(append([]string(nil), writes...), refResolve(d.root, d.fix))},
			exploit{"resolve at once, " + d.name + " diagnosis", []string{refResolve(d.root, d.fix)}})
	}
	return panel
}

type refDiagnosis struct{ name, root, fix string }

// refBlindDiagnoses are resolutions that know nothing of the task: none, a
// generic guess, and one stuffed with every service, every mechanism of
// srezc's closed vocabulary, and every word a fix text can be matched on
// (the fixture world's config keys, fix verbs, true and false).
func refBlindDiagnoses(t *engine.Task) []refDiagnosis {
	var root, fix []string
	for _, s := range t.Ref.Services {
		root = append(root, strings.ReplaceAll(s.Name, "_", " "))
		fix = append(fix, strings.ReplaceAll(s.Name, "_", " "))
		for _, c := range s.Config {
			fix = append(fix, strings.ToLower(strings.ReplaceAll(c.Name, "_", " ")))
		}
	}
	root = append(root, refMechanismWords...)
	fix = append(fix, "restart restarted reboot recover enable enabled disable disabled true false valid increase decrease raise lower set")
	return []refDiagnosis{
		{"unknown", "unknown", "unknown"},
		{"generic", "a service was misconfigured and failing", "fixed the configuration"},
		{"stuffed", strings.Join(root, " "), strings.Join(fix, " ")},
	}
}

// refMechanismWords stand for the closed vocabulary of what goes wrong.
var refMechanismWords = []string{"crashed", "down", "memory leak", "pool exhaustion", "connection limit", "timeout too low",
	"rate limit", "health check misconfigured", "certificate expired", "sticky sessions", "cache host wrong", "maintenance mode",
	"missing index", "read replica disabled", "autovacuum disabled", "eviction", "memory pressure", "token expired", "ttl too low",
	"compression disabled", "consumers too low", "retry storm", "retry limit", "visibility timeout", "max in flight", "disk full",
	"backend weight", "worker saturation", "idle timeout", "publish timeout", "misconfiguration"}

// refResolve writes a resolution in the reference grammar; a comma in
// either text would split the arguments, so each is quoted.
func refResolve(root, fix string) string {
	return fmt.Sprintf("resolve_incident(%q, %q)", root, fix)
}

// Reference returns an sre_zero task's certification findings.
func Reference(t *engine.Task) []string { return certifyRefTask(t).Failures }

// certifyRefTask plays the expert and the panel and runs the lint.
func certifyRefTask(t *engine.Task) *Certificate {
	c := &Certificate{ClosestReward: math.Inf(-1)}
	ep := engine.NewEpisode(t)
	if len(t.Expert) == 0 {
		c.Failures = append(c.Failures, "The incident has no expert plan.")
	} else if r := play(ep, t.Expert); !r.Success {
		c.Failures = append(c.Failures, fmt.Sprintf("The expert plan does not succeed (%s).", r.Terminal))
	}
	for _, x := range refPanel(t) {
		r := play(ep, x.plan)
		c.Panel = append(c.Panel, PanelResult{Name: x.name, Plan: x.plan, Record: r})
		if r.Success {
			c.Failures = append(c.Failures, fmt.Sprintf("The answer-blind policy %q succeeds: %s.", x.name, shortPlan(x.plan)))
			continue
		}
		if r.FinalReward > c.ClosestReward {
			c.Closest, c.ClosestReward, c.ClosestWhy = x.name, r.FinalReward, WhyFailed(r)
		}
	}
	c.Failures = append(c.Failures, refLeaks(t)...)
	return c
}

// refLeaks finds the root cause's own wording, or the task id, in what an
// agent can read of the fixture world.
func refLeaks(t *engine.Task) []string {
	root := lang.NormalizePhrase(t.Ref.RootCause)
	id := lang.NormalizePhrase(t.ID)
	var out []string
	check := func(where, text string) {
		n := " " + lang.NormalizePhrase(text) + " "
		switch {
		case root != "" && strings.Contains(n, " "+root+" "):
			out = append(out, fmt.Sprintf("Leak: %s shows the root cause %q.", where, t.Ref.RootCause))
		case id != "" && strings.Contains(n, " "+id+" "):
			out = append(out, fmt.Sprintf("Leak: %s shows the incident id %q.", where, t.ID))
		}
	}
	check("the alert", t.Alert)
	for _, s := range t.Ref.Services {
		check("the status of "+s.Name, s.Status)
		for i, l := range s.Logs {
			check(fmt.Sprintf("log line %d of %s", i+1, s.Name), l)
		}
		for _, f := range append(append([]srezero.Field(nil), s.Metrics...), s.Config...) {
			check(fmt.Sprintf("%s of %s", f.Name, s.Name), f.Name+" "+f.Value.String())
		}
	}
	return out
}

// shortPlan writes a plan for a message, cutting long texts (the stuffed
// diagnosis runs to hundreds of characters; srezc certify shows it whole).
func shortPlan(plan []string) string {
	out := make([]string, len(plan))
	for i, a := range plan {
		if r := []rune(a); len(r) > 90 {
			a = string(r[:87]) + "..."
		}
		out[i] = a
	}
	return strings.Join(out, "; ")
}
