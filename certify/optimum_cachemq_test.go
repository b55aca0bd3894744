package certify_test

// Hand-counted informed optima of the cache and message-queue incidents.
func init() {
	handCounted["broker_offline"] = handCount{3, "inspect_logs(message_queue) shows every start failing on a full disk beside the queue with no consumers + delete_queue(message_queue, jobs.audit-export), no restart: the supervisor's next start comes up + resolve"}
	handCounted["product_reads_cold"] = handCount{3, "inspect_logs(cache) + update ttl_seconds + resolve"}
	handCounted["jobs_run_twice"] = handCount{3, "inspect_logs(message_queue) + update visibility_timeout_ms + resolve"}
	handCounted["catalog_reads_spill"] = handCount{3, "inspect_logs(cache) + update max_memory_mb + resolve"}
	handCounted["session_store_refused"] = handCount{3, "inspect_logs(cache) + reload_secrets(web_server), the stale side + resolve"}
	handCounted["writes_from_workers"] = handCount{3, "inspect_logs(message_queue) + update retry_limit + resolve"}
	handCounted["export_jobs_waiting"] = handCount{3, "inspect_logs(message_queue) + update consumer_concurrency + resolve"}
	handCounted["edge_latency_doubled"] = handCount{5, "inspect_logs(cache) shows the OOM kill at the host's memory + update max_memory_mb back under it + restart_service(cache); one read while the restarted cache boots and warms (the world must show it staying up) + resolve"}
	handCounted["cache_resize_rollout"] = handCount{4, "inspect_logs(cache) shows both faults + update max_memory_mb + update compression_enabled + resolve"}
	handCounted["jobs_never_catch_up"] = handCount{4, "inspect_logs(message_queue) shows the slow database calls and the republished copies, unlike the world with either fault removed and every other queue fault; two writes (database autovacuum_enabled, redeclare_queue_with_deduplication on the queue: the trigger alone leaves the loop running); resolve"}
	handCounted["statements_tripled"] = handCount{4, "inspect_logs(database) differs when either fault is removed + update cache ttl_seconds + update queue retry_limit + resolve"}
}
