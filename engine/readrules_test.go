package engine_test

import (
	"testing"

	"github.com/srezc/srezc/engine"
)

// TestChangeHistoryAndShorthand: a change quoted as the history shows it
// ("300 -> 20", "true → false") says which way the setting moved, or,
// after a restore, which way it was put right; "+" lists causes; on-call
// shorthand reads as its words.
func TestChangeHistoryAndShorthand(t *testing.T) {
	checkReadings(t, []readCase{
		{"checkout_db_refusals", "k.tanaka changed database max_connections 300 -> 20 on Tue 16:05; pool_size is 50.", true},
		{"checkout_db_refusals", "database max_connections 20 -> 300", false},
		{"checkout_db_refusals", "restored database max_connections 20 -> 300", true},
		{"checkout_db_refusals", "restored database max_connections 300 -> 20", false},
		{"mq_backlog", "scaled message_queue consumers from 1 back to 8", true},
		{"mq_backlog", "message_queue consumer_concurrency 8→1 (Mon 18:36)", true},
		{"jobs_never_catch_up", "database autovacuum_enabled true → false; message_queue dedup_enabled true → false", true},
		{"jobs_never_catch_up", "database autovacuum_enabled false -> true; message_queue dedup_enabled true → false", false},
		// creeping_order_latency's cause is a session holding the xmin
		// horizon, not a change: autovacuum stayed on.
		{"creeping_order_latency", "database autovacuum_enabled true → false", false},
		{"jobs_never_catch_up", "pg autovac off + mq dedup off", true},
		{"jobs_never_catch_up", "pg autovac off + cache ttl too short", false},
		{"listener_cut_at_peak", "LB conn limit cut to 1500, too low for peak", true},
		{"listener_cut_at_peak", "db conn limit cut to 1500, too low for peak", false},
		{"catalog_reads_spill", "cache eviction policy switched to allkeys-random", false},
		// "so many X that ...": a degree, not an effect.
		{"capacity_change_fallout", "web_server runs so many workers that it swaps; the balancer's idle timeout is too short", true},
		{"capacity_change_fallout", "web_server runs so few workers that it queues; the balancer's idle timeout is too short", false},
		// "re-enabled X", "turned X back on": X was off; "X is back on"
		// says it is on.
		{"jobs_never_catch_up", "re-enabled autovacuum on the database; re-enabled dedup on the message queue", true},
		{"jobs_never_catch_up", "turned autovacuum back on for the database and turned dedup back on for the message queue", true},
		{"jobs_never_catch_up", "autovacuum on the database is back on but too aggressive; message_queue dedup off", false},
		{"sawtooth_latency", "nobody turned the database's read replica back on", true},
		// Suspicions given up and plural verdicts deny what came before.
		{"cascade_index", "I initially suspected the web tier's short keep-alive, and the cache has an overcommit warning, but neither explains a Seq Scan. Committing to: the database's orders index is invalid.", true},
		{"cascade_index", "The web tier's keep-alive is short, and the cache has an overcommit warning; the database's orders index is invalid.", false},
		{"retries_mostly_succeed", "Not the cache - its warning is cosmetic. Not an undersized database pool either: it's oversized, 400 against a server limit of 200.", true},
		{"invoice_backlog_overdrive", "the database's replica is out of use and the primary is overloaded with reads", true},
		// A denial heading its segment ("Not the cause:") denies all of
		// it; "is correct" is a verdict.
		{"gateway_no_upstreams", "Root cause: web_server's v2.15.0 deploy is a bad build; its workers fail to boot.\nNot the cause: load_balancer - its probe path /healthz is correct, it simply has no live backend.", true},
		{"gateway_no_upstreams", "web_server's v2.15.0 deploy is a bad build. load_balancer - its probe path /healthz is wrong.", false},
		{"invoice_backlog_overdrive", "Adding consumers won't help: the bottleneck is the database primary, which takes all reads because replica routing is disabled.", true},
		// A value said to cause something says more than the bare value,
		// judged against its band.
		{"statements_tripled", "cache ttl 10s + mq retries 40 -> db x3", true},
		{"checkout_db_refusals", "database max_connections 300 -> refusals", false},
		{"checkout_db_refusals", "database max_connections 900 -> refusals", false},
		// A pronoun before a value stands for the setting named before it.
		{"confirmations_stuck", "The actual cause is the database's statement deadline: it is set to twenty milliseconds, so normal queries are killed before they finish.", true},
		{"confirmations_stuck", "The actual cause is the database's statement deadline: it is set to twenty seconds, so runaway queries hold connections.", false},
		// An arrow between a value and what it caused stays an effect.
		{"db_pool", "database pool_size 6 -> requests time out", true},
	})
}

// readCase is an answer to an incident and whether it is right.
type readCase struct {
	incident, answer string
	ok               bool
}

// checkReadings grades each case against its shipped incident.
func checkReadings(t *testing.T, cases []readCase) {
	t.Helper()
	tasks := map[string]*engine.Task{}
	for _, tk := range suiteTasks(t) {
		tasks[tk.ID] = tk
	}
	for _, c := range cases {
		tk := tasks[c.incident]
		if tk == nil {
			t.Fatalf("no incident %s", c.incident)
		}
		if v := tk.DiagnoseText(c.answer); v.OK != c.ok {
			t.Errorf("%s: %q graded %v, want %v (%v; read %v)", c.incident, c.answer, v.OK, c.ok, v.Reasons, v.Read)
		}
	}
}

// TestWarmReadingAllocatesNothing: an episode's reader, once it has read
// an answer, reads it again without allocating, whatever rules it takes
// (an arrow between values, shorthand, a setting named by its
// description, a limit "on how many", a host name).
func TestWarmReadingAllocatesNothing(t *testing.T) {
	cases := map[string]string{
		"checkout_db_refusals":   "k.tanaka changed database max_connections 300 -> 20 on Tue 16:05; the database server's ceiling on how many clients it lets in is too low",
		"capacity_drill_fallout": "The drill shrank the number of processes the web tier runs to serve requests + LB conn limit fine",
		"two_faults":             "The app is looking for the cache at cache-old.internal; pg pool too small",
		"jobs_never_catch_up":    "database autovacuum_enabled true → false; re-enabled it + mq dedup off",
	}
	for _, tk := range suiteTasks(t) {
		answer, ok := cases[tk.ID]
		if !ok {
			continue
		}
		ep := engine.NewEpisode(tk)
		ep.DiagnoseAnswer(answer)
		if n := testing.AllocsPerRun(20, func() { ep.DiagnoseAnswer(answer) }); n != 0 {
			t.Errorf("%s: %v allocations reading %q warm", tk.ID, n, answer)
		}
	}
}

// TestModifiersAndParts: how engineers name things around a cause. A
// version, a compound's first part and a metric's name modify a noun and
// name nothing themselves; a part that fails is in its fault's state; a
// number that says which one of a series, a fraction of a count and a
// count of none are not a setting's value; a share of the traffic is a
// backend's weight only when said of a backend.
func TestModifiersAndParts(t *testing.T) {
	checkReadings(t, []readCase{
		// Versions and compounds.
		{"invoice_jobs_failing", "the job consumers' release v4.4.0 is failing, every invoice is retried", true},
		{"invoice_jobs_failing", "message_queue build 4.4.0 keeps failing on invoices", true},
		{"invoice_jobs_failing", "message_queue: release v4.4.0 raises nothing; the retry limit is far too high", false},
		{"app_logins_refused", "pg app-login password rotated server side, clients still on the old one", true},
		// A metric's name is a reading, not a setting ("expiry" is the
		// cache TTL's other name).
		{"cache_handshake_expired", "cache: certificate expired, cert_days_to_expiry is -3 and every client handshake fails", true},
		// Fractions, ordinals, zero counts.
		{"checkout_declines_after_release", "the payment provider is failing 40% of charges; web workers at 0.35 utilisation", true},
		{"app_boot_loop", "web_server cannot boot. The supervisor is on attempt 12, and log_level holds a value the app does not know.", true},
		{"order_mails_stalled", "message_queue: an orphaned queue with 0 consumers fills the broker's disk", true},
		// Shares of the traffic.
		{"bot_flood_at_the_edge", "load_balancer: one client address sends 88% of all requests and fills the connection table", true},
		{"canary_weight_left_behind", "load_balancer still sends 90% of requests to web-1 since the canary", true},
		// A part that fails, with a name or a time between.
		{"card_payments_failing", "web_server: the payment provider pay.example.net is failing half the charges", true},
		{"checkout_release_errors", "web_server: the build deployed yesterday fails on checkout", true},
		{"db_crash", "a service was misconfigured and failing", false},
		{"db_crash", "the service is failing", false},
		{"checkout_release_errors", "web_server: the build deployed this morning raises nothing; the payment provider is failing", false},
		// A log field's name is not a service; a comparative before a
		// field or a host name is a place.
		{"invoice_jobs_failing", "Workers log KeyError under app=worker-pool (v4.4.0): the message_queue consumer build fails invoice jobs", true},
		// A host name after a phrase's first word is what it is about.
		{"orders_name_lookups_fail", "resolver for pg.prod.internal failing now and then; the database itself is fine; escalated to the network team", true},
		// Ordinary wording.
		{"mq_backlog", "message_queue consumers trimmed from 8 to 1", true},
		// "Then" opening a sentence is the next event, not an effect.
		{"checkout_db_refusals", "Traffic was normal all day. Then at 16:05 someone cut max_connections on the database 300 -> 20.", true},
		{"cache_refuses_to_start", "The cache hasn't been able to start since the change to its eviction policy.", true},
		{"backlog_after_consumer_retune", "message_queue: faulty consumer release, invoice jobs throw and cause a retry storm", true},
		{"backlog_after_consumer_retune", "message_queue: retry storm", false},
	})
}

// TestOutsidePartyStatus: an outside party (a payment provider, a mail
// relay) is named by any of its names, a product's among them, and is
// diagnosed by a status said of it, after or before its name; a
// party said to be fine elsewhere, or a reply that is no failure, asserts
// nothing. A limit's shorthand names it on every service that has it.
func TestOutsidePartyStatus(t *testing.T) {
	checkReadings(t, []readCase{
		{"card_payments_failing", "PayLane keeps answering 502s on charges", true},
		{"card_payments_failing", "the card provider is unreachable", true},
		{"card_payments_failing", "503s from the payment processor since 14:00", true},
		{"card_payments_failing", "a partial outage at PayLane", true},
		{"card_payments_failing", "PayLane's API returns 500 errors to most charges", true},
		// A host name is how the site's log lines name the party: a
		// pasted line is no diagnosis.
		{"card_payments_failing", "upstream api.paylane.example POST /v1/charges answered 503", false},
		{"card_payments_failing", "PayLane, our card provider, throws errors at checkout", true},
		{"card_payments_failing", "PayLane is healthy; the payments read timeout is too low", false},
		{"card_payments_failing", "PayLane looks fine, our release sends charges the provider rejects", false},
		{"card_payments_failing", "the web tier answers 503", false},
		{"card_payments_failing", "PayLane answers 201 Created", false},
		{"card_payments_failing", "PayLane is not slow", false},
		{"checkout_waits_on_processor", "the PayLane API takes 7 seconds to authorise a card", true},
		{"checkout_waits_on_processor", "a slow card provider", true},
		{"checkout_waits_on_processor", "PayLane takes 40 ms per charge", false},
		{"confirmation_mail_deferred", "the postwell relay keeps deferring our mail", true},
		{"confirmation_mail_deferred", "the relay at mx-out.postwell.example answers 421 to every message", true},
		{"confirmation_mail_deferred", "postwell is fine; the broker's retry limit is too low", false},
		{"confirmation_mail_deferred", "PayLane answers 503", false},
		{"edge_limit_cut_during_flood", "lb: a crawler hammering us; max conn lowered to 1289", true},
		{"edge_limit_cut_during_flood", "a crawler hammering the lb; db max conn lowered to 1289", false},
	})
}

// TestProductNamesAndShorthand: systems named by product (celery, rabbit,
// gunicorn) are their services; "pw" is a password; a host name may stand
// between any two words of a mechanism's phrase.
func TestProductNamesAndShorthand(t *testing.T) {
	checkReadings(t, []readCase{
		{"orders_name_lookups_fail", "name resolution for db.internal failing intermittently", true},
		{"orders_name_lookups_fail", "DNS resolution for db.internal is fine; the web pool is too small", false},
		{"jobs_not_published", "the broker's publisher pw was rotated", true},
		{"jobs_not_published", "the web tier's pw is too short", false},
		{"backlog_after_consumer_release", "rabbit is fine; celery pool cut to too few workers for the afternoon", true},
		{"backlog_after_consumer_release", "celery pool raised to too many workers", false},
		{"backlog_after_consumer_release", "gunicorn workers cut too low", false},
	})
}

// TestTimesStepsAndReadings: "since then" is a time, not an effect; a
// process that dies at a step (boot, startup) fails at it; a comparative
// whose far side is a reading in another unit than the setting's ("retries
// above 60/s") says nothing of the setting; a neighbour stealing CPU is a
// noisy neighbour.
func TestTimesStepsAndReadings(t *testing.T) {
	checkReadings(t, []readCase{
		{"primary_wont_start", "Someone edited work_mem on Monday. Since then the database refuses its config on every boot.", true},
		{"primary_wont_start", "Someone edited work_mem on Monday, so then the database is slow.", false},
		{"cache_refuses_to_start", "the cache aborts on boot: its maxmemory-policy value is unparseable", true},
		{"cache_refuses_to_start", "the cache aborts on its first request", false},
		{"consumers_added_retries_stay", "message_queue: the consumer release throws KeyError on invoice jobs, retries above 60/s", true},
		{"consumers_added_retries_stay", "message_queue: the consumer release throws KeyError on invoice jobs, retry limit above 20 attempts", false},
		{"checkout_crawls_on_shared_host", "a neighbor VM is stealing CPU from the web tier", true},
		{"checkout_crawls_on_shared_host", "the web tier has too few workers, its CPU is busy", false},
	})
}
