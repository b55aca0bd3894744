package engine_test

import (
	"strings"
	"testing"

	"github.com/srezc/srezc/action"
	"github.com/srezc/srezc/compiler"
	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/lang"
)

// A bad deploy is state: a restart runs the same build and the fault
// stays; a rollback restores the version before the deploy and fixes it.
// Rolling back a service whose deploy was benign is a wrong change, and
// the acknowledgement is the same either way.
func TestRollbackFixesABadDeployAndRestartDoesNot(t *testing.T) {
	src := `
incident "bad_release" {
  alert      = "Checkout errors."
  difficulty = "easy"
  split      = "train"
  budget     = 12
  system     = "standard"
  fault "web_bad_deploy_exception" {
    target  = "web_server"
    version = "v2.15.0"
    share   = 0.4
    change {
      at = "14:05"
    }
  }
  change {
    service = "message_queue"
    key     = "version"
    value   = "v4.3.1"
    at      = "14:20"
  }
  expert = ["rollback(web_server)"]
}
`
	m, diags := lang.Analyze([]*lang.File{{Name: "t.srez.hcl", Src: []byte(src)}})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	tk, diags := compiler.CompileIncident(m, m.Incident("bad_release"), compiler.Options{SkipCertify: true})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	play := func(ep *engine.Episode, text string) string {
		a := action.Bind(tk, text)
		r := ep.Step(&a)
		if r.Obs.Err != engine.OK {
			t.Fatalf("%s: %v", text, r.Obs.Err)
		}
		return string(ep.AppendText(nil, &r.Obs))
	}

	ep := engine.NewEpisode(tk)
	ep.Reset(1)
	hist := play(ep, "list_changes()")
	for _, want := range []string{"web_server     deploy v2.14.0 -> v2.15.0", "message_queue  deploy v4.3.0 -> v4.3.1"} {
		if !strings.Contains(hist, want) {
			t.Errorf("history lacks %q:\n%s", want, hist)
		}
	}
	logs := play(ep, "inspect_logs(web_server)")
	if !strings.Contains(logs, "Error handling request POST /checkout") || !strings.Contains(logs, "app=v2.15.0: KeyError") {
		t.Errorf("logs do not show the failing build:\n%s", logs)
	}
	play(ep, "restart_service(web_server)")
	settle(ep, 6)
	if ep.FaultFixed(0) || ep.Mitigated() {
		t.Fatal("a restart fixed a bad deploy")
	}
	ack := play(ep, "rollback(web_server)")
	settle(ep, 6)
	if !ep.FaultFixed(0) || !ep.Mitigated() {
		t.Fatal("rollback did not fix the bad deploy")
	}
	if logs := play(ep, "inspect_logs(web_server)"); !strings.Contains(logs, "app=v2.14.0") || strings.Contains(logs, "500 app=") {
		t.Errorf("after the rollback the logs should show v2.14.0 serving:\n%s", logs)
	}
	if rec := ep.Record(); rec.WrongChange {
		t.Error("the right rollback counted as a wrong change")
	}

	// The benign deploy's rollback: same acknowledgement, a wrong change.
	ep = engine.NewEpisode(tk)
	ep.Reset(1)
	wrongAck := play(ep, "rollback(message_queue)")
	if strip(wrongAck) != strings.ReplaceAll(strip(ack), "web_server", "message_queue") {
		t.Errorf("acknowledgements differ:\n%s\n%s", ack, wrongAck)
	}
	if rec := ep.Record(); !rec.WrongChange {
		t.Error("rolling back a benign deploy is no wrong change")
	}
}

// strip drops the step header, which differs by step number.
func strip(s string) string {
	if i := strings.Index(s, "] "); i >= 0 {
		return s[i+2:]
	}
	return s
}
