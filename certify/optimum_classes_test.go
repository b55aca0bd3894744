package certify_test

// Hand-counted optima of the incident classes of issue 18 item 4 added
// with the responder, masking and two-causes incidents. The change history
// is never a derived evidence read (it belongs to the task, not to the
// world), so the responder's change is found from the faulty service's own
// output; the decoy of a two-causes incident is ruled out by the same read.
func init() {
	// class:responder-made-it-worse: one read shows both faults, two writes
	// (the cause's and the responder's), resolve.
	handCounted["jobs_late_after_first_response"] = handCount{4, "inspect_logs(message_queue) shows both the consumers falling behind (deliver_get below publish) and deliveries timing out unacknowledged; two writes (consumer_concurrency, visibility_timeout_ms); resolve"}
	handCounted["workers_cut_during_leak"] = handCount{4, "inspect_logs(web_server) shows both the new build's OOM kills and the workers overflowing at the peak; one rollback and one write (max_workers); resolve"}
	handCounted["edge_limit_cut_during_flood"] = handCount{4, "inspect_logs(load_balancer) shows both the top client and the full connection table; one operation (block_client of that address) and one write (max_connections); resolve"}
	// class:symptom-masking: one read of the cause, its one fix, resolve;
	// the masking write is never on the path.
	handCounted["disk_freed_slot_keeps_growing"] = handCount{3, "inspect_logs(database) shows the inactive slot retaining WAL beside the full volume, unlike wal_keep_size_gb; one operation (drop_replication_slot of analytics_cdc); resolve"}
	handCounted["consumers_added_retries_stay"] = handCount{3, "inspect_logs(message_queue) shows a task raising on the new consumer build, unlike too few consumers; one rollback; resolve"}
	handCounted["hot_backend_more_workers"] = handCount{3, "inspect_logs(load_balancer) shows one backend answering slowly and with errors while both stay UP at equal weight, unlike skewed weights or too few workers; one write (sticky_sessions); resolve"}
	// class:two-causes-one-read: the one read that rules out the decoy,
	// the fix, resolve.
	handCounted["backlog_after_consumer_release"] = handCount{3, "inspect_logs(message_queue) shows the backlog with no task raising, which rules out the release; one write (consumer_concurrency); resolve"}
	handCounted["backlog_after_consumer_retune"] = handCount{6, "inspect_logs(message_queue) shows a task raising on the new build, which rules out the pool retune; one rollback; three waiting reads (check_status, inspect_metrics, inspect_traces of message_queue): the backlog at the queue's x-max-length drains at the consumers' capacity minus the arrivals, three ticks more than the grader's settling ticks; resolve"}
	handCounted["db_load_two_cache_changes"] = handCount{3, "inspect_logs(cache) shows keys expiring early while none is evicted, which rules out the memory ceiling; one write (ttl_seconds); resolve"}
}
