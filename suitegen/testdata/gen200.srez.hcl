mutation "everything" {
  from        = "db_pool"
  faults      = ["service_crash", "db_pool_too_small", "db_max_connections_low", "db_query_timeout_low", "db_index_disabled", "db_read_replica_disabled", "db_autovacuum_disabled", "db_maintenance_mode", "db_wal_retention_full", "web_workers_too_low", "web_timeout_too_low", "web_rate_limit_too_low", "web_cache_host_wrong", "web_memory_leak", "cache_ttl_too_low", "cache_memory_too_low", "cache_auth_token_expired", "mq_consumer_concurrency_low", "mq_retry_limit_high", "mq_visibility_timeout_low", "lb_max_connections_low", "lb_health_check_path_wrong", "lb_tls_cert_expired", "lb_idle_timeout_low", "lb_sticky_sessions_hotspot", "lb_backend_weight_skewed"]
  distractors = ["none", "noisy_warning", "elevated_metric"]
  noise       = ["none", "jitter", "stale_metrics"]
}

suite_spec "gen200" {
  mutations = ["everything"]
  tasks     = 200
  seed      = 7
}
