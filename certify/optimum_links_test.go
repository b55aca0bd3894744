package certify_test

// Hand-counted optima of the link, host and slow-third-party incidents
// (issue 18 item 3).
func init() {
	handCounted["orders_fail_database_fine"] = handCount{2, "inspect_logs(web_server) shows connects to db.internal timing out (libpq's \"timeout expired\"), which no database fault produces (they refuse, reject or answer slowly); nothing within reach to write; escalate naming the path"}
	handCounted["checkout_crawls_on_shared_host"] = handCount{3, "inspect_logs(web_server) shows every request slowed and some shed at the usual traffic, unlike the database distractor and every other web_server fault (too few workers sheds at the usual per-request speed); one operation (migrate_instance); resolve"}
	handCounted["checkout_waits_on_processor"] = handCount{2, "inspect_logs(web_server) shows the card processor's slow answers and read timeouts, unlike its outage (503 replies) and every config fault; nothing to write; escalate"}
	handCounted["orders_name_lookups_fail"] = handCount{2, "inspect_logs(web_server) shows libpq failing to translate db.internal to an address, which no database or web_server fault produces; nothing within reach to write; escalate naming the name resolution"}
	handCounted["orders_slow_database_fast"] = handCount{2, "inspect_logs(web_server) shows /orders slowed beyond what the database's own time gives, unlike every other web_server fault at that latency; nothing within reach to write; escalate naming the path"}
}
