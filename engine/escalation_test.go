package engine_test

import (
	"testing"

	"github.com/srezc/srezc/action"
	"github.com/srezc/srezc/compiler"
	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/lang"
	"github.com/srezc/srezc/record"
)

// Where the fault is outside the agent's reach, escalating with the right
// cause is the success, escalating with a wrong or vague one is not, any
// write is a wrong change (even one followed by the right hand-over), and
// resolving cannot succeed, since the world stays as the third party left
// it. Elsewhere an escalation never succeeds, whatever its reason.
func TestEscalationCanBeRight(t *testing.T) {
	src := `
incident "psp_down" {
  alert      = "Checkout errors."
  difficulty = "easy"
  split      = "train"
  budget     = 8
  system     = "standard"
  fault "payments_provider_outage" {
    target = "web_server"
    share  = 0.6
  }
  expert = ["inspect_logs(web_server)", "escalate(\"web_server: payment provider outage\")"]
}

incident "bad_release" {
  alert      = "Checkout errors."
  difficulty = "easy"
  split      = "train"
  budget     = 8
  system     = "standard"
  fault "web_bad_deploy_exception" {
    target  = "web_server"
    version = "v2.15.0"
    change {}
  }
  expert = ["rollback(web_server)"]
}
`
	m, diags := lang.Analyze([]*lang.File{{Name: "t.srez.hcl", Src: []byte(src)}})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	compile := func(name string) *engine.Task {
		tk, diags := compiler.CompileIncident(m, m.Incident(name), compiler.Options{SkipCertify: true})
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		return tk
	}
	psp, release := compile("psp_down"), compile("bad_release")
	if !psp.OutOfReach() || release.OutOfReach() {
		t.Fatalf("OutOfReach: psp_down %v, bad_release %v; want true, false", psp.OutOfReach(), release.OutOfReach())
	}
	play := func(tk *engine.Task, plan ...string) record.EpisodeMetrics {
		ep := engine.NewEpisode(tk)
		ep.Reset(3)
		for _, text := range plan {
			a := action.Bind(tk, text)
			if r := ep.Step(&a); r.Obs.Err != engine.OK {
				t.Fatalf("%s: %v", text, r.Obs.Err)
			}
		}
		return ep.Record()
	}
	right := `escalate("web_server: the payment provider is having an outage; its API answers 503")`
	for _, c := range []struct {
		name     string
		tk       *engine.Task
		plan     []string
		success  bool
		wrong    bool
		terminal string
	}{
		{"right cause", psp, []string{"inspect_logs(web_server)", right}, true, false, record.TerminalEscalated},
		{"vague cause", psp, []string{"inspect_logs(web_server)", `escalate("checkout is failing, please help")`}, false, false, record.TerminalEscalated},
		{"wrong cause", psp, []string{"inspect_logs(web_server)", `escalate("web_server: bad deploy")`}, false, false, record.TerminalEscalated},
		{"wrong party", psp, []string{"inspect_logs(web_server)", `escalate("message_queue: the mail relay is down")`}, false, false, record.TerminalEscalated},
		{"restart first", psp, []string{"restart_service(web_server)", right}, false, true, record.TerminalEscalated},
		{"config write first", psp, []string{"update_config(web_server, timeout_ms, 9000)", right}, false, true, record.TerminalEscalated},
		{"rollback first", psp, []string{"rollback(web_server)", right}, false, true, record.TerminalEscalated},
		{"resolved instead", psp, []string{"inspect_logs(web_server)", `resolve_incident("web_server: payment provider outage", "nothing")`}, false, false, record.TerminalRejected},
		{"escalating a fixable fault", release, []string{"inspect_logs(web_server)", `escalate("web_server: bad deploy of v2.15.0")`}, false, false, record.TerminalEscalated},
	} {
		r := play(c.tk, c.plan...)
		if r.Success != c.success || r.WrongChange != c.wrong || r.Terminal != c.terminal {
			t.Errorf("%s: success %v, wrong change %v, terminal %s; want %v, %v, %s", c.name, r.Success, r.WrongChange, r.Terminal, c.success, c.wrong, c.terminal)
		}
	}
	// Partial credit keeps its order: a right hand-over after a needless
	// write earns less than a clean one, and more than a vague hand-over.
	clean := play(psp, "inspect_logs(web_server)", right).FinalReward
	written := play(psp, "inspect_logs(web_server)", "restart_service(web_server)", right).FinalReward
	vague := play(psp, "inspect_logs(web_server)", `escalate("checkout is failing, please help")`).FinalReward
	if !(clean > written && written > vague) {
		t.Errorf("rewards: clean %.3f, after a write %.3f, vague %.3f; want them in that order, falling", clean, written, vague)
	}
}
