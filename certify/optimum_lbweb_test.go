package certify_test

// Hand-counted optima of the load-balancer and web-server incidents.
func init() {
	handCounted["slow_pages_bad_gateway"] = handCount{3, "inspect_logs(load_balancer) shows the proxy closing upstream connections after 5000ms, unlike the cache warning distractor and every other load_balancer fault; one write (idle_timeout_ms); resolve"}
	handCounted["canary_weight_left_behind"] = handCount{3, "inspect_logs(load_balancer) shows the 5/95 weights behind the web tier's 503s, unlike the database warning distractor and every web_server fault; one write (backend_weight_pct, back to the site's 30 from the history: web-2 is the smaller host and the documented even split overloads it); resolve"}
	handCounted["storefront_dark"] = handCount{3, "inspect_logs(load_balancer) shows haproxy refusing the PEM bundle at every start, unlike an expired certificate; one operation (renew_certificate) lets the supervisor's next start load it; resolve"}
	handCounted["flash_sale_rejections"] = handCount{3, "inspect_metrics(web_server) shows requests throttled while the workers idle, unlike every other web_server fault; one write (rate_limit_rps, back to the site's value from the history: the documented 2000 lets the scrapers in, whose pages push the hot set out of the cache); resolve"}
	handCounted["launch_day_refusals"] = handCount{3, "inspect_logs(load_balancer) shows the full connection table, unlike the metric distractor and every other load_balancer fault; one write (max_connections); resolve"}
	handCounted["listener_cut_at_peak"] = handCount{3, "inspect_logs(load_balancer) shows the full connection table at a limit inside the band; one write (max_connections, to what the traffic needs); resolve"}
	handCounted["partner_handshake_failures"] = handCount{3, "inspect_logs(load_balancer) shows the aborted handshakes, unlike every other load_balancer fault; one operation (renew_certificate); resolve"}
	handCounted["one_backend_melting"] = handCount{3, "inspect_logs(load_balancer) shows upstream 5xx with both backends in rotation and no listener error, unlike every other load_balancer fault; one write (sticky_sessions); resolve"}
	handCounted["orders_page_errors"] = handCount{3, "inspect_logs(web_server) shows the deadline exceeded after 200ms, unlike the work_mem distractor and every other web_server fault; one write (timeout_ms); resolve"}
	handCounted["gateway_no_upstreams"] = handCount{3, "inspect_logs(web_server) shows the workers of the new build failing to boot, unlike every load_balancer fault and a bad log level; one rollback, no restart: the supervisor's next start boots the previous build; resolve"}
	handCounted["capacity_change_fallout"] = handCount{4, "inspect_logs(load_balancer) shows the 10000ms proxy closes and the slow upstream, unlike every other load_balancer fault; two writes (idle_timeout_ms, max_workers); resolve"}
	handCounted["capacity_drill_fallout"] = handCount{3, "inspect_logs(web_server) shows no idle worker busy=6/6, unlike both load_balancer distractors and every load_balancer fault; one write (max_workers); resolve"}
	handCounted["migration_double_fault"] = handCount{4, "inspect_logs(web_server) shows the unresolvable cache host while the balancer sends nothing, unlike every load_balancer fault alone; two writes (health_check_path, cache_host); resolve"}
}
