package certify_test

// Hand-counted optima of the database family's incidents (see
// TestOptimalStepsHandCounted). Each is: the evidence reads, one write per
// fault (or a restart), the waits the world needs, and the resolution.
func init() {
	handCounted["checkout_writes_failing"] = handCount{3, "inspect_logs(database) shows writes failing with no space left on device, unlike the cache metric distractor and every other database fault; one write (wal_keep_size_gb, back to the site's value from the history: the documented 16 GB leaves this volume over 85% full); resolve"}
	handCounted["invoice_backlog_overdrive"] = handCount{3, "inspect_logs(database) shows reads on the primary with an idle standby, unlike the cache warning distractor and every queue fault in the queue's place; one write (read_replica_enabled); resolve"}
	handCounted["pooler_over_server_limit"] = handCount{3, "inspect_logs(database) shows the server refusing the pooler's connections, limit and pool both in band; one write (max_connections); resolve"}
	handCounted["checkout_db_refusals"] = handCount{3, "inspect_logs(database) shows the server refusing the pooler's connections, unlike every other database fault; one write (max_connections); resolve"}
	handCounted["orders_statements_cut"] = handCount{3, "inspect_logs(database) shows statements cancelled by the deadline, unlike the web_server metric distractor and every other database fault; one write (query_timeout_ms); resolve"}
	handCounted["primary_gone_dark"] = handCount{3, "inspect_logs(database) shows every start aborting in crash recovery on a full volume, unlike the queue warning distractor; one operation (drop_replication_slot), no restart: the supervisor's next start comes up; resolve (hold = 4 lets the queue drain inside the grader's idle ticks, so no wait step)"}
	handCounted["login_wall_after_migration"] = handCount{3, "inspect_logs(database) shows clients rejected by the administrative lock, unlike the keep-alive distractor and every web_server fault; one write (maintenance_mode); resolve"}
	handCounted["sawtooth_latency"] = handCount{3, "inspect_logs(database) shows reads on the primary with an idle standby, unlike the web_server metric distractor and every load_balancer fault; one write (read_replica_enabled); resolve"}
	handCounted["creeping_order_latency"] = handCount{3, "inspect_logs(database) shows autovacuum removing nothing, its dead rows not yet removable behind an old xmin, unlike the web_server warning distractor and every web_server fault; one operation (terminate_idle_transactions); resolve (vacuum reclaims 90% dead at the declared 40 points a tick inside the grader's settling ticks)"}
	handCounted["retries_mostly_succeed"] = handCount{3, "inspect_logs(database) shows the pooler asking for more than the server limit, unlike the cache warning and every web_server fault; one write (pool_size, back to the site's value from the history); resolve"}
	handCounted["storefront_double_trouble"] = handCount{4, "inspect_logs(database) shows the sequential scans and the extra read load the cache misses send, telling the world apart from each fault removed and every web_server fault; two writes (create_missing_indexes, ttl_seconds); the build of 20M rows takes 1 + 20/10 = 3 ticks at the declared rate, which the grader's settling ticks cover on every site variant (30M rows, 4 ticks, needed a waiting read on some variants and not on others); resolve"}
	handCounted["confirmations_stuck"] = handCount{3, "inspect_logs(database) shows statements cancelled by the deadline, unlike both distractors and every other queue fault; one write (query_timeout_ms); resolve"}
	handCounted["evening_peak_backfire"] = handCount{3, "inspect_logs(database) shows the server limit below the pool behind the pool timeouts, unlike the web_server metric distractor and every web_server fault; one write (max_connections); resolve"}
}
