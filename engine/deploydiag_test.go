package engine_test

import (
	"testing"

	"github.com/srezc/srezc/engine"
)

// The diagnosis vocabulary of a bad deploy (the stdlib rubric's bad_deploy
// mechanism): an answer that blames the release on the right service is
// accepted, whether it names the version, the time or neither, and so is
// one that says what the release does where its kind lets it (a leaking
// release "leaks memory"); one that blames a config key of the same
// service, the wrong service, or only the symptom is not.
func TestBadDeployDiagnoses(t *testing.T) {
	_, tasks := shipped(t)
	cases := []struct {
		task             string
		accept, rejected []string
	}{
		{"checkout_release_errors", []string{
			"web_server: the 14:05 deploy of v2.14.1 introduced a regression on /checkout; rolled back",
			"web_server: bad deploy (v2.14.1)",
			"web_server: the v2.14.1 release is a bad release, TypeError in applyPromotions",
			"web server: faulty release v2.14.1 broke checkout",
			"web_server: regression in v2.14.1",
		}, []string{
			"web_server: timeout_ms too low, upstream calls cut off",
			"web_server: max_workers too low",
			"web_server: rate limit too low",
			"message_queue: bad deploy",
			"web_server: crashed",
			"web_server: checkout errors",
		}},
		{"invoice_jobs_failing", []string{
			"message_queue: the consumer release v4.4.0 is a bad deploy",
			"message_queue: bad build v4.4.0 of the job consumers",
		}, []string{
			"message_queue: retry_limit too high",
			"message_queue: consumer_concurrency too low",
			"web_server: bad deploy",
		}},
		{"release_leak_then_deploy", []string{
			"web_server: the 13:10 deploy of v2.15.0 is a bad release",
			"web_server: bad deploy v2.15.0",
			// What the release does (its kind's also_mechanisms).
			"web_server: v2.15.0 leaks memory; rolled back to v2.14.0",
			"web_server: the deploy introduced a memory leak",
		}, []string{
			"message_queue: the 13:40 deploy of v4.3.1 is a bad release",
			"web_server: max_workers too high",
			"message_queue: the consumer deploy leaks memory",
		}},
		// A plain leak is not a bad release: also_mechanisms go one way.
		{"web_memory_leak", []string{
			"web_server: memory leak",
		}, []string{
			"web_server: bad deploy",
		}},
	}
	for _, c := range cases {
		tk := tasks[c.task]
		if tk == nil {
			t.Fatalf("no shipped incident %s", c.task)
		}
		ep := engine.NewEpisode(tk)
		ep.Reset(1)
		for _, a := range c.accept {
			if !ep.DiagnoseAnswer(a) {
				t.Errorf("%s: rejected %q", c.task, a)
			}
		}
		for _, a := range c.rejected {
			if ep.DiagnoseAnswer(a) {
				t.Errorf("%s: accepted %q", c.task, a)
			}
		}
	}
}
