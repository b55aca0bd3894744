package engine_test

import (
	"slices"
	"testing"

	"github.com/srezc/srezc/engine"
)

func TestGlossWords(t *testing.T) {
	for _, c := range []struct {
		description string
		want        []string
	}{
		// What follows "before", ";" or "(" says what happens, not what
		// the setting is.
		{"Memory the cache may use for data before it evicts keys.", []string{"cach", "data", "memori"}},
		{"Client connections the listener holds open at once; further connections are refused.", []string{"client", "connect", "hold", "listen", "open"}},
		{"Restrict connections to administrators (used during migrations).", []string{"administr", "connect", "restrict"}},
		{"Worker processes serving requests; each serves about 32 requests/s.", []string{"process", "request", "serv", "worker"}},
		{"", nil},
	} {
		if got := engine.GlossWords(c.description); !slices.Equal(got, c.want) {
			t.Errorf("GlossWords(%q) = %q, want %q", c.description, got, c.want)
		}
	}
}

// TestSettingNamedByWhatItDoes: a clause that names no setting but
// describes one in its description's words names it, in the state the
// clause gives; a sibling setting or the wrong direction said the same way
// is still wrong, and a symptom in the words of a description's
// consequence names nothing.
func TestSettingNamedByWhatItDoes(t *testing.T) {
	tasks := map[string]*engine.Task{}
	for _, tk := range suiteTasks(t) {
		tasks[tk.ID] = tk
	}
	for _, c := range []struct {
		incident, answer string
		ok               bool
	}{
		{"capacity_drill_fallout", "The drill shrank the number of processes the web tier runs to serve requests and nobody restored it.", true},
		{"capacity_drill_fallout", "The drill raised the number of processes the web tier runs to serve requests far too high.", false},
		{"one_backend_melting", "The balancer is pinning each client to whichever web host served it first.", true},
		{"one_backend_melting", "The balancer holds far too few client connections open at once.", false},
		{"checkout_db_refusals", "The web tier's worker processes serving requests are too few.", false},
		{"checkout_db_refusals", "The extra connections are refused with too many clients.", false},
		// A limit "on how many X" is the X limit; "how many" says no state.
		{"checkout_db_refusals", "The database server's ceiling on how many clients it lets in was lowered to twenty.", true},
		{"checkout_db_refusals", "The database's limit on the number of connections was raised too high.", false},
		{"checkout_db_refusals", "The balancer's cap on how many connections it holds was cut.", false},
		// "the cache at an old name" is the caller's cache host.
		{"two_faults", "The app is looking for the cache at an old name that no longer exists, and the database only has ten connections.", true},
		{"two_faults", "The web app is pointed at an old cache adress that no longer exists, and the database's connection pool is tiny.", true},
		{"cache_auth_token", "The app is looking for the cache at an old name that no longer exists.", false},
		{"two_faults", "The web tier looks up the cache at cache-old.internal, which doesn't resolve; the database's pool only has 10 connections.", true},
		{"cache_auth_token", "The web tier looks up the cache at cache-old.internal, which doesn't resolve.", false},
		// "nobody restored X": X, however long the phrase naming it.
		{"capacity_drill_fallout", "After the capacity drill nobody restored the number of request workers on the app servers.", true},
		{"flash_sale_rejections", "After the capacity drill nobody restored the number of request workers on the app servers.", false},
	} {
		tk := tasks[c.incident]
		if tk == nil {
			t.Fatalf("no incident %s", c.incident)
		}
		if v := tk.DiagnoseText(c.answer); v.OK != c.ok {
			t.Errorf("%s: %q graded %v, want %v (%v; read %v)", c.incident, c.answer, v.OK, c.ok, v.Reasons, v.Read)
		}
	}
}

// TestChangeHistoryAndShorthand: a change quoted as the history shows it
// ("300 -> 20", "true → false") says which way the setting moved, or,
// after a restore, which way it was put right; "+" lists causes; on-call
// shorthand reads as its words.
func TestChangeHistoryAndShorthand(t *testing.T) {
	tasks := map[string]*engine.Task{}
	for _, tk := range suiteTasks(t) {
		tasks[tk.ID] = tk
	}
	for _, c := range []struct {
		incident, answer string
		ok               bool
	}{
		{"checkout_db_refusals", "k.tanaka changed database max_connections 300 -> 20 on Tue 16:05; pool_size is 50.", true},
		{"checkout_db_refusals", "database max_connections 20 -> 300", false},
		{"checkout_db_refusals", "restored database max_connections 20 -> 300", true},
		{"checkout_db_refusals", "restored database max_connections 300 -> 20", false},
		{"mq_backlog", "scaled message_queue consumers from 1 back to 8", true},
		{"mq_backlog", "message_queue consumer_concurrency 8→1 (Mon 18:36)", true},
		{"creeping_order_latency", "database autovacuum_enabled true → false", true},
		{"creeping_order_latency", "database autovacuum_enabled false -> true", false},
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
		{"creeping_order_latency", "re-enabled autovacuum on the database", true},
		{"creeping_order_latency", "turned autovacuum back on for the database", true},
		{"creeping_order_latency", "autovacuum on the database is back on but too aggressive", false},
		{"sawtooth_latency", "nobody turned the database's read replica back on", true},
		// Suspicions given up and plural verdicts deny what came before.
		{"cascade_index", "I initially suspected the web tier's short keep-alive, and the cache has an overcommit warning, but neither explains a Seq Scan. Committing to: the database's orders index is invalid.", true},
		{"cascade_index", "The web tier's keep-alive is short, and the cache has an overcommit warning; the database's orders index is invalid.", false},
		{"retries_mostly_succeed", "Not the cache - its warning is cosmetic. Not an undersized database pool either: it's oversized, 400 against a server limit of 200.", true},
		{"invoice_backlog_overdrive", "the database's replica is out of use and the primary is overloaded with reads", true},
		// An arrow between a value and what it caused stays an effect.
		{"db_pool", "database pool_size 6 -> requests time out", true},
	} {
		tk := tasks[c.incident]
		if tk == nil {
			t.Fatalf("no incident %s", c.incident)
		}
		if v := tk.DiagnoseText(c.answer); v.OK != c.ok {
			t.Errorf("%s: %q graded %v, want %v (%v; read %v)", c.incident, c.answer, v.OK, c.ok, v.Reasons, v.Read)
		}
	}
}
