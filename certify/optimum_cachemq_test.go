package certify_test

// Hand-counted informed optima of the cache and message-queue incidents.
func init() {
	handCounted["broker_offline"] = handCount{3, "inspect_logs(message_queue) + restart_service(message_queue) + resolve"}
	handCounted["product_reads_cold"] = handCount{3, "inspect_logs(cache) + update ttl_seconds + resolve"}
	handCounted["jobs_run_twice"] = handCount{3, "inspect_logs(message_queue) + update visibility_timeout_ms + resolve"}
	handCounted["catalog_reads_spill"] = handCount{3, "inspect_logs(cache) + update max_memory_mb + resolve"}
	handCounted["session_store_refused"] = handCount{3, "inspect_logs(cache) + reload_secrets(web_server), the stale side + resolve"}
	handCounted["writes_from_workers"] = handCount{3, "inspect_logs(message_queue) + update retry_limit + resolve"}
	handCounted["export_jobs_waiting"] = handCount{3, "inspect_logs(message_queue) + update consumer_concurrency + resolve"}
	handCounted["edge_latency_doubled"] = handCount{4, "inspect_logs(cache) + restart_service(cache); one read while the restarted service boots and traffic reaches it again: with mitigation judged by the world, every service healthy and every metric (request rates included) in band, that takes a tick longer than the grader's settling ticks + resolve"}
	handCounted["cache_resize_rollout"] = handCount{4, "inspect_logs(cache) shows both faults + update max_memory_mb + update compression_enabled + resolve"}
	handCounted["jobs_never_catch_up"] = handCount{4, "inspect_logs(message_queue) shows the slow database calls and the republished copies, unlike the world with either fault removed and every other queue fault; two writes (database autovacuum_enabled, queue dedup_enabled: the trigger alone leaves the loop running); resolve"}
	handCounted["statements_tripled"] = handCount{4, "inspect_logs(database) differs when either fault is removed + update cache ttl_seconds + update queue retry_limit + resolve"}
}
