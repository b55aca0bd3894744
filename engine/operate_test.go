package engine_test

import (
	"strings"
	"testing"

	"github.com/srezc/srezc/action"
	"github.com/srezc/srezc/compiler"
	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/lang"
)

// operateTask compiles one incident of src, uncertified.
func operateTask(t *testing.T, src, id string) *engine.Task {
	t.Helper()
	m, diags := lang.Analyze([]*lang.File{{Name: "t.srez.hcl", Src: []byte(src)}})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	tk, diags := compiler.CompileIncident(m, m.Incident(id), compiler.Options{SkipCertify: true})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return tk
}

func stepText(t *testing.T, tk *engine.Task, ep *engine.Episode, text string) string {
	t.Helper()
	a := action.Bind(tk, text)
	r := ep.Step(&a)
	if r.Obs.Err != engine.OK {
		t.Fatalf("%s: %v", text, r.Obs.Err)
	}
	return string(ep.AppendText(nil, &r.Obs))
}

// An expired certificate is a notAfter date behind the site's clock: a
// restart loads the same certificate; renew_certificate, an operation the
// load balancer's kind declares, fixes it. Renewing a healthy service's
// certificate is acknowledged alike and is a needless operation, so the
// resolution is not specific; on a kind without the operation it changes
// nothing and is needless too.
func TestRenewCertificateFixesAnExpiredOneAndRestartDoesNot(t *testing.T) {
	src := `
incident "expired" {
  alert      = "Handshakes fail."
  difficulty = "easy"
  split      = "train"
  budget     = 12
  system     = "standard"
  fault "lb_tls_cert_expired" {
    target    = "load_balancer"
    days_past = 3
  }
  expert = ["renew_certificate(load_balancer)"]
}
`
	tk := operateTask(t, src, "expired")
	ep := engine.NewEpisode(tk)
	ep.Reset(1)
	if m := stepText(t, tk, ep, "inspect_metrics(load_balancer)"); !strings.Contains(m, "cert_days_to_expiry") || !strings.Contains(m, " -3.") {
		t.Errorf("metrics do not show the certificate expired three days ago:\n%s", m)
	}
	stepText(t, tk, ep, "restart_service(load_balancer)")
	settle(ep, 6)
	if ep.FaultFixed(0) || ep.Mitigated() {
		t.Fatal("a restart renewed the certificate")
	}
	ack := stepText(t, tk, ep, "renew_certificate(load_balancer)")
	settle(ep, 6)
	if !ep.FaultFixed(0) || !ep.Mitigated() {
		t.Fatal("renew_certificate did not fix the expired certificate")
	}
	if rec := ep.Record(); rec.WrongChange || rec.CorrectRemediations != 1 {
		t.Errorf("the right operation: wrong change %v, correct remediations %d", rec.WrongChange, rec.CorrectRemediations)
	}

	// The same operation on a healthy web tier (whose certificate is
	// current) and on the database (which has none): the same
	// acknowledgement; the resolution is then not specific.
	for _, svc := range []string{"web_server", "database"} {
		ep = engine.NewEpisode(tk)
		ep.Reset(1)
		wrongAck := stepText(t, tk, ep, "renew_certificate("+svc+")")
		if strip(wrongAck) != strings.ReplaceAll(strip(ack), "load_balancer", svc) {
			t.Errorf("acknowledgements differ:\n%s\n%s", ack, wrongAck)
		}
		stepText(t, tk, ep, "renew_certificate(load_balancer)")
		settle(ep, 6)
		stepText(t, tk, ep, `resolve_incident("load_balancer: tls certificate expired", "renewed the certificate")`)
		if rec := ep.Record(); rec.Success || rec.WrongRemediations != 1 {
			t.Errorf("renewing %s needlessly: success %v, wrong remediations %d", svc, rec.Success, rec.WrongRemediations)
		}
	}

	// The expert's path succeeds and names the fix.
	ep = engine.NewEpisode(tk)
	ep.Reset(1)
	stepText(t, tk, ep, "renew_certificate(load_balancer)")
	settle(ep, 6)
	stepText(t, tk, ep, `resolve_incident("load_balancer: tls certificate expired", "renewed the certificate on the listener")`)
	if rec := ep.Record(); !rec.Success || !rec.FixIdentified {
		t.Errorf("expert path: success %v, fix identified %v", rec.Success, rec.FixIdentified)
	}
}

// A secret rotated on one side: the fix acts on the stale side, a role of
// the fault's target. An operation that leaves state changed where no
// fault needs it is a wrong change (blocking a busy real client).
func TestReloadSecretsOnTheStaleSide(t *testing.T) {
	src := `
incident "rotated" {
  alert      = "Logins refused."
  difficulty = "easy"
  split      = "train"
  budget     = 12
  system     = "standard"
  fault "db_app_password_rotated" {
    target         = "database"
    versions_ahead = 1
  }
  expert = ["reload_secrets(web_server)", "reload_secrets(message_queue)"]
}
`
	tk := operateTask(t, src, "rotated")
	ep := engine.NewEpisode(tk)
	ep.Reset(1)
	if logs := stepText(t, tk, ep, "inspect_logs(web_server)"); !strings.Contains(logs, "db/app-password (version 17,") {
		t.Errorf("web logs do not show the version it presents:\n%s", logs)
	}
	stepText(t, tk, ep, "reload_secrets(web_server)")
	for range 6 {
		ep.Advance()
	}
	if ep.FaultFixed(0) {
		t.Fatal("one stale side reloaded fixed both")
	}
	stepText(t, tk, ep, "reload_secrets(message_queue)")
	for range 6 {
		ep.Advance()
	}
	if !ep.FaultFixed(0) || !ep.Mitigated() {
		t.Fatal("reloading both clients did not fix the rotation")
	}
	stepText(t, tk, ep, `resolve_incident("database: the app password was rotated and the clients present the old version", "reloaded the secrets")`)
	if rec := ep.Record(); !rec.Success || rec.CorrectServiceRemediations != 2 {
		t.Errorf("success %v, correct-service remediations %d", rec.Success, rec.CorrectServiceRemediations)
	}

	ep = engine.NewEpisode(tk)
	ep.Reset(1)
	stepText(t, tk, ep, "block_client(load_balancer, 192.0.2.250)")
	if rec := ep.Record(); rec.WrongChange {
		t.Error("blocking an address that sends nothing is a wrong change")
	}
	stepText(t, tk, ep, "block_client(load_balancer, 198.51.100.41)")
	if rec := ep.Record(); !rec.WrongChange {
		t.Error("blocking a real client the access log shows is no wrong change")
	}
}

// settle lets ticks pass with no action, for a remedy to take effect.
func settle(ep *engine.Episode, ticks int) {
	for range ticks {
		ep.Advance()
	}
}
