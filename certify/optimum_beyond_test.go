package certify_test

// Hand-counted optima of the incidents beyond one config key (issue 18
// item 3): each is one read that separates the fault from every
// alternative on the alerting service, the fix, and the resolution.
func init() {
	handCounted["app_boot_loop"] = handCount{3, "inspect_logs(web_server) shows the worker failing to boot on an unknown log level, unlike every other web_server fault; one write (log_level); resolve"}
	handCounted["cache_refuses_to_start"] = handCount{3, "inspect_logs(cache) shows the fatal config file error, unlike every other cache fault; one write (eviction_policy, back to the site's volatile policy from the history: the documented allkeys-lru evicts its sessions); resolve"}
	handCounted["primary_wont_start"] = handCount{4, "inspect_logs(database) shows work_mem outside its valid range at every start, unlike every other database fault; one write (work_mem_mb, the site's value from the history: the documented 64 MB spills the reports); one waiting read (check_status(database)): the jobs that piled up in the queue while the database was down drain at the consumers' capacity minus the arrivals (tick_s a tick), one tick more than the grader's settling ticks; resolve"}
	handCounted["orders_fail_volume_full"] = handCount{3, "inspect_logs(database) shows the inactive slot retaining WAL beside the full volume, unlike wal_keep_size_gb; one operation (drop_replication_slot of analytics_cdc); resolve"}
	handCounted["half_the_checkouts_fail"] = handCount{3, "inspect_logs(web_server) shows one instance out of disk while its probe passes, unlike every other web_server fault; one operation (replace_instance of web-2); resolve"}
	handCounted["bot_flood_at_the_edge"] = handCount{3, "inspect_logs(load_balancer) shows one client sending most requests, unlike every other load_balancer fault; one operation (block_client of that address); resolve"}
	handCounted["order_mails_stalled"] = handCount{3, "inspect_logs(message_queue) shows the disk alarm and the queue with no consumers, unlike every other message_queue fault; one operation (delete_queue of jobs.audit-export); resolve"}
	handCounted["gateway_handshakes_fail"] = handCount{3, "inspect_logs(web_server) shows the balancer's TLS alert on the web tier's certificate, unlike every other web_server fault; one operation (renew_certificate); resolve"}
	handCounted["cache_handshake_expired"] = handCount{3, "inspect_logs(cache) shows the refused handshakes, unlike the work_mem distractor and every other cache fault; one operation (renew_certificate); resolve"}
	handCounted["jobs_not_published"] = handCount{3, "inspect_logs(message_queue) shows the publishing login refused, unlike every other message_queue fault; one operation on the stale side (reload_secrets(web_server)); resolve"}
	handCounted["app_logins_refused"] = handCount{5, "inspect_logs(database) shows the app role's logins refused from both clients, unlike every other database fault; two operations on the stale sides (reload_secrets on web_server and message_queue); one waiting read (check_status(database)): the jobs that piled up in the queue while the consumers' logins were refused drain at the consumers' capacity minus the arrivals (tick_s a tick), one tick more than the grader's settling ticks; resolve"}
}
