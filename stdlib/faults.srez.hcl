# Fault kinds: the unit of mutation. A fault is only an edit of the initial
# config or state of its target; every symptom follows from the service
# kinds' rules. Every value in a param's domain produces the fault.

# ====================================================================== any

fault_kind "service_crash" {
  description    = "The service's process has stopped and is not restarted by its supervisor."
  applies_to     = ["load_balancer", "web_server", "cache", "database", "message_queue"]
  conflicts_with = []
  mechanism      = "process_crashed"
  detail         = "process exited"

  param "exit_code" {
    type        = "int"
    default     = 137
    domain      = [1, 134, 137, 139]
    description = "Exit code the process stopped with."
  }

  set_state {
    up        = false
    exit_code = param.exit_code
  }

  fixed_when = "state.up"

  remedy "restart_service" {}
}

# ============================================================ crash loops

fault_kind "web_crash_loop_bad_config" {
  # A config value the application rejects at startup: the supervisor starts
  # it again and again and it exits each time. A restart is one more
  # attempt; setting a value it accepts lets the next attempt succeed.
  description    = "Startup rejects one of its settings."
  applies_to     = ["web_server"]
  conflicts_with = []
  mechanism      = "crash_loop"
  detail         = "log_level"

  param "value" {
    type        = "string"
    default     = "verbose"
    domain      = ["verbose", "trace", "notice", "all"]
    description = "The value it rejects."
  }

  set_config { log_level = param.value }
  set_state {
    restart_ticks = 0
  }

  fixed_when = "config.log_level == \"debug\" || config.log_level == \"info\" || config.log_level == \"warn\" || config.log_level == \"warning\" || config.log_level == \"error\" || config.log_level == \"critical\""

  remedy "update_config" {
    # Back to the site's value before the fault (its change's old value).
    key = "log_level"
  }
}

fault_kind "cache_crash_loop_bad_config" {
  # A config value the cache server rejects at startup: the supervisor starts
  # it again and again and it exits each time. A restart is one more
  # attempt; setting a value it accepts lets the next attempt succeed.
  description    = "Startup rejects one of its settings."
  applies_to     = ["cache"]
  conflicts_with = []
  mechanism      = "crash_loop"
  detail         = "eviction_policy"

  param "value" {
    type        = "string"
    default     = "lru"
    domain      = ["lru", "allkeys_lru", "lfu", "volatile-lr"]
    description = "The value it rejects."
  }

  set_config { eviction_policy = param.value }
  set_state {
    restart_ticks = 0
  }

  # Fixed when the server starts, on a policy that keeps what the site
  # stores without a TTL (a site with sessions here needs a volatile one).
  fixed_when = "boot_ok && !evicts_persistent"

  remedy "update_config" {
    # Back to the site's value before the fault (its change's old value).
    key = "eviction_policy"
  }
}

fault_kind "db_crash_loop_bad_config" {
  # A config value the postmaster rejects at startup: the supervisor starts
  # it again and again and it exits each time. A restart is one more
  # attempt; setting a value it accepts lets the next attempt succeed.
  description    = "Startup rejects one of its settings."
  applies_to     = ["database"]
  conflicts_with = []
  mechanism      = "crash_loop"
  detail         = "work_mem_mb"

  param "value" {
    type        = "int"
    default     = 4194304
    domain      = [2097152, 4194304, 8388608]
    description = "The value it rejects."
  }

  set_config { work_mem_mb = param.value }
  set_state {
    restart_ticks = 0
  }

  # Fixed when the postmaster accepts the value and the site's reports
  # still sort in memory (a site that draws report_sort_mb needs more than
  # the documented 64 MB), within the host's memory for sorts.
  fixed_when = "config.work_mem_mb <= 256 && float(config.work_mem_mb) >= state.report_sort_mb"

  remedy "update_config" {
    # Back to the site's value before the fault (its change's old value).
    key = "work_mem_mb"
  }
}

# ============================================================ load_balancer

fault_kind "lb_health_check_path_wrong" {
  description    = "The health probe requests a path the web tier does not serve, so every backend is taken out of rotation."
  applies_to     = ["load_balancer"]
  conflicts_with = []
  mechanism      = "health_check_misconfigured"
  detail         = "health_check_path"

  # The path the web tier serves is the site's (its health_path); a site
  # whose application serves another route fails on the documented one.
  param "path" {
    type    = "string"
    default = "/health"
    domain  = ["/health", "/status", "/ping", "/live", "/healthz"]
  }

  set_config { health_check_path = param.path }

  fixed_when = "config.health_check_path == web.health_route"

  remedy "update_config" {
    # Back to the site's value before the fault (its change's old value).
    key = "health_check_path"
  }
}

fault_kind "lb_tls_cert_expired" {
  # The certificate's notAfter date lies behind the site's clock: the
  # renewal job skipped this listener. Nothing changed; time passed.
  description    = "The certificate on the HTTPS listener has expired; most clients abort the handshake."
  applies_to     = ["load_balancer"]
  conflicts_with = []
  mechanism      = "tls_certificate_expired"
  detail         = "certificate notAfter before now"

  param "days_past" {
    type        = "int"
    default     = 3
    domain      = [1, 3, 9, 21]
    description = "Days since the certificate's notAfter date when the warm-up began."
  }

  set_state { cert_not_after_min = 0 - param.days_past * 1440 }

  fixed_when = "state.cert_not_after_min > state.clock_min"

  remedy "operate" {
    operation = "renew_certificate"
  }
}

fault_kind "lb_tls_key_replaced" {
  # A key rotation wrote a new private key into the listener's PEM bundle
  # without a certificate issued for it. The next reload refused the
  # bundle and the proxy exited; every start since fails on the same
  # bundle. A restart loads the same files; a certificate issued for the
  # key in the bundle lets the next start load it.
  description        = "The listener's key pair was broken up."
  applies_to         = ["load_balancer"]
  conflicts_with     = ["lb_tls_cert_expired", "service_crash"]
  mechanism          = "tls_key_mismatch"
  symptom_mechanisms = ["process_crashed", "crash_loop"]
  detail             = "certificate not issued for the private key in the bundle"

  param "keys_ahead" {
    type        = "int"
    default     = 1
    domain      = [1, 2]
    description = "How many key rotations the certificate missed."
  }

  set_state {
    key_serial    = 7 + param.keys_ahead
    restart_ticks = 0
  }

  fixed_when = "boot_ok"

  remedy "operate" {
    operation = "renew_certificate"
  }
}

fault_kind "lb_max_connections_low" {
  description    = "The listener's connection limit is below what the site's traffic keeps open; excess clients are refused."
  applies_to     = ["load_balancer"]
  conflicts_with = []
  mechanism      = "connection_limit_exceeded"
  detail         = "max_connections"

  # Stated against the site: the table holds a share of the connections
  # the site's traffic keeps open. At a busy site's traffic that limit lies
  # inside the documented band, and so may the documented default.
  param "share" {
    type        = "float"
    default     = 0.46
    domain      = [0.3, 0.46, 0.6, 0.8]
    description = "Share of the site's open connections the table still holds."
  }

  set_config { max_connections = max(floor(traffic * state.conns_per_request * param.share), 1) }

  # Fixed when the table holds the site's connections with 15% headroom,
  # within what the descriptor limit allows.
  fixed_when = "float(config.max_connections) * 0.85 >= traffic * conns_per_rps && config.max_connections <= 8000"

  remedy "update_config" {
    # Back to the site's value before the fault (its change's old value).
    key = "max_connections"
  }
}

fault_kind "lb_max_connections_cut" {
  description    = "The listener's connection limit was cut from this site's value to one that still lies in the band but holds fewer connections than the traffic keeps open; excess clients are refused."
  applies_to     = ["load_balancer"]
  conflicts_with = ["lb_max_connections_low"]
  mechanism      = "connection_limit_exceeded"
  detail         = "max_connections"

  # Stated against the site: the limit drops by cut connections.
  param "cut" {
    type    = "int"
    default = 4500
    domain  = [4000, 4500]
  }

  set_config { max_connections = config.max_connections - param.cut }

  fixed_when = "float(config.max_connections) * 0.85 >= traffic * conns_per_rps && config.max_connections <= 8000"

  remedy "update_config" {
    # Back to the site's value before the fault (its change's old value).
    key = "max_connections"
  }
}

fault_kind "lb_idle_timeout_low" {
  description    = "The balancer closes upstream connections before the site's slow responses arrive and answers 502."
  applies_to     = ["load_balancer"]
  conflicts_with = []
  mechanism      = "timeout_too_low"
  detail         = "idle_timeout_ms"

  # Stated against the site: the timeout waits a share of the site's
  # slowest routine responses. Where those are slow that timeout lies
  # inside the documented band, and so may the documented default.
  param "share" {
    type        = "float"
    default     = 0.5
    domain      = [0.33, 0.45, 0.5, 0.6]
    description = "Share of the site's slowest routine response time the balancer still waits."
  }

  set_config { idle_timeout_ms = floor(state.slow_response_ms * param.share) }

  # Fixed when the balancer waits out the site's slowest routine
  # responses; past five minutes idle connections pile up.
  fixed_when = "float(config.idle_timeout_ms) >= state.slow_response_ms && config.idle_timeout_ms <= 300000"

  remedy "update_config" {
    # Back to the site's value before the fault (its change's old value).
    key = "idle_timeout_ms"
  }
}

fault_kind "lb_backend_weight_skewed" {
  description    = "A canary's weighting was left in place: one web backend receives most requests and saturates while the other idles."
  applies_to     = ["load_balancer"]
  conflicts_with = []
  mechanism      = "backend_weight_skewed"
  detail         = "backend_weight_pct"

  param "weight_pct" {
    type        = "int"
    default     = 90
    domain      = [85, 90, 95]
    description = "Share of requests sent to web-2."
  }

  set_config { backend_weight_pct = param.weight_pct }

  # Fixed when the busier backend's workers run below 0.85 of what they
  # serve: on alike hosts, at the traffic the weights matter at, a split
  # of 35/65 at most; where web-2 is the smaller host, the split its
  # capacity asks for, and the documented even split overloads web-2.
  fixed_when = "web.utilisation <= 0.85"

  remedy "update_config" {
    # Back to the site's value before the fault (its change's old value).
    key = "backend_weight_pct"
  }
}

fault_kind "lb_sticky_sessions_hotspot" {
  description    = "Client affinity pins most traffic to one web backend, which saturates while the other idles."
  applies_to     = ["load_balancer"]
  conflicts_with = []
  mechanism      = "sticky_session_hotspot"
  detail         = "sticky_sessions"

  param "skew" {
    type        = "float"
    default     = 0.95
    domain      = [0.9, 0.95, 1.0]
    description = "Share of traffic the busiest backend receives."
  }

  set_config { sticky_sessions = true }
  set_state { sticky_skew = param.skew }

  fixed_when = "!config.sticky_sessions"

  remedy "update_config" {
    key   = "sticky_sessions"
    value = false
  }
}

# =============================================================== web_server

fault_kind "web_memory_leak" {
  description    = "The application retains memory on every request path it serves; memory climbs until workers are killed."
  applies_to     = ["web_server"]
  conflicts_with = []
  mechanism      = "memory_leak"
  detail         = "resident memory grows every tick"

  param "rate_mb" {
    type        = "float"
    default     = 600.0
    domain      = [500.0, 600.0, 800.0, 1000.0]
    description = "Memory retained per tick."
  }

  set_state { leak_rate_mb = param.rate_mb }

  fixed_when = "state.leak_rate_mb <= 0.0"

  remedy "restart_service" {}
}

fault_kind "web_bad_deploy_exception" {
  # The build fails a share of checkout requests with an unhandled
  # exception; a restart runs the same build.
  description    = "A newly deployed application version has a defect its predecessor lacked: a handler throws."
  applies_to     = ["web_server"]
  conflicts_with = ["web_bad_deploy_leak"]
  mechanism      = "bad_deploy"
  detail         = "checkout requests fail on the new build"

  param "version" {
    type        = "string"
    default     = "v2.14.1"
    domain      = ["v2.14.1", "v2.14.2", "v2.15.0"]
    description = "The build deployed."
  }

  param "share" {
    type        = "float"
    default     = 0.4
    domain      = [0.3, 0.4, 0.6]
    description = "Share of checkout requests the build fails."
  }

  set_state {
    version           = param.version
    build_error_share = param.share
  }

  fixed_when = "state.build_error_share <= 0.0"

  remedy "rollback" {}
}

fault_kind "web_bad_deploy_outage" {
  # The build imports a module it does not ship: every worker exits while
  # it boots, gunicorn's master shuts down and the supervisor starts it
  # again, on the same build. The balancer has no backend to send to. A
  # restart boots the same build; redeploying the previous one boots.
  description        = "A newly deployed build never comes up."
  applies_to         = ["web_server"]
  conflicts_with     = ["web_bad_deploy_exception", "web_bad_deploy_leak", "web_crash_loop_bad_config", "service_crash"]
  mechanism          = "bad_deploy"
  symptom_mechanisms = ["process_crashed", "crash_loop"]
  detail             = "the new build fails to boot"

  param "version" {
    type        = "string"
    default     = "v2.15.0"
    domain      = ["v2.14.1", "v2.14.2", "v2.15.0"]
    description = "The build deployed."
  }

  set_state {
    version         = param.version
    build_boot_fail = true
    restart_ticks   = 0
  }

  fixed_when = "!state.build_boot_fail"

  remedy "rollback" {}
}

fault_kind "web_bad_deploy_leak" {
  # The build retains memory on every request until workers are killed;
  # a restart only starts the climb over.
  description    = "A newly deployed application version has a defect its predecessor lacked: it never releases what it allocates."
  applies_to     = ["web_server"]
  conflicts_with = ["web_bad_deploy_exception", "web_memory_leak"]
  mechanism      = "bad_deploy"
  # What the release does: an answer may say it leaks memory.
  also_mechanisms = ["memory_leak"]
  detail          = "resident memory grows on the new build"

  param "version" {
    type        = "string"
    default     = "v2.15.0"
    domain      = ["v2.14.1", "v2.14.2", "v2.15.0"]
    description = "The build deployed."
  }

  param "rate_mb" {
    type        = "float"
    default     = 600.0
    domain      = [500.0, 600.0, 800.0]
    description = "Memory retained per tick."
  }

  set_state {
    version       = param.version
    build_leak_mb = param.rate_mb
  }

  fixed_when = "state.build_leak_mb <= 0.0"

  remedy "rollback" {}
}

fault_kind "web_workers_too_low" {
  description    = "Fewer workers than the site's traffic needs; requests queue and overflow."
  applies_to     = ["web_server"]
  conflicts_with = ["web_workers_too_high"]
  mechanism      = "worker_pool_misconfigured"
  detail         = "max_workers"

  # Stated against the site: the pool keeps the workers for a share of the
  # site's traffic (each serves about 32 requests/s). At a busy site's
  # traffic that count lies inside the documented band, and so may the
  # documented default: only the site's load says it is too few.
  param "share" {
    type        = "float"
    default     = 0.8
    domain      = [0.78, 0.8, 0.85]
    description = "Share of the site's traffic the remaining workers can serve."
  }

  set_config { max_workers = max(floor(traffic / 32 * param.share), 1) }

  # Fixed when the busiest half of the workers runs below 0.85 of what it
  # can serve (stated on the key itself, so a write is judged as it lands),
  # within what the host's memory holds.
  fixed_when = "admitted_rps * 2.0 * lb.hot_share <= 0.85 * 32.0 * max(float(config.max_workers) - blocked_workers, 1.0) && config.max_workers <= 64"

  remedy "update_config" {
    # Back to the site's value before the fault (its change's old value).
    key = "max_workers"
  }
}

fault_kind "web_workers_too_high" {
  description    = "Far more workers than the host's memory allows; garbage collection stalls and workers are killed."
  applies_to     = ["web_server"]
  conflicts_with = ["web_workers_too_low"]
  mechanism      = "worker_pool_misconfigured"
  detail         = "max_workers"

  param "workers" {
    type    = "int"
    default = 160
    domain  = [128, 160, 200]
  }

  set_config { max_workers = param.workers }

  fixed_when = "config.max_workers >= 12 && config.max_workers <= 64"

  remedy "update_config" {
    # Back to the site's value before the fault (its change's old value).
    key = "max_workers"
  }
}

fault_kind "web_timeout_too_low" {
  description    = "The upstream call deadline is shorter than the site's slower database calls take; those requests fail."
  applies_to     = ["web_server"]
  conflicts_with = []
  mechanism      = "timeout_too_low"
  detail         = "timeout_ms"

  # Stated against the site: the deadline covers a share of the site's
  # slowest routine calls. Where those are slow that deadline lies inside
  # the documented band, and so may the documented default.
  param "share" {
    type        = "float"
    default     = 0.42
    domain      = [0.3, 0.42, 0.5]
    description = "Share of the site's slowest routine upstream call time the deadline allows."
  }

  set_config { timeout_ms = floor(state.slow_call_ms * param.share) }

  # Fixed when the deadline covers the slow database calls (the site's
  # reports and exports) without holding so many workers on lost replies
  # that the busiest half runs hot: where that happens (past about 50 s)
  # depends on the site's load, so the bound is the relation.
  fixed_when = "float(config.timeout_ms) >= upstream_tail_ms && utilisation <= 0.85"

  remedy "update_config" {
    # Back to the site's value before the fault (its change's old value).
    key = "timeout_ms"
  }
}

fault_kind "web_rate_limit_too_low" {
  description    = "The request rate limit is below normal traffic; legitimate requests get 429."
  applies_to     = ["web_server"]
  conflicts_with = []
  mechanism      = "rate_limited"
  detail         = "rate_limit_rps"

  param "limit" {
    type    = "int"
    default = 100
    domain  = [50, 100, 150, 200]
  }

  set_config { rate_limit_rps = param.limit }

  # Fixed when the limit admits the site's legitimate traffic, keeps the
  # site's scrapers out (their bursts get through above its scraper floor,
  # 10000 on most sites) and the workers serve what it admits: a relation
  # of the site, not the band.
  fixed_when = "throttled_share <= 0.01 && scraper_rps <= 0.0 && utilisation <= 0.85"

  remedy "update_config" {
    # Back to the site's value before the fault (its change's old value).
    key = "rate_limit_rps"
  }
}

fault_kind "web_cache_host_wrong" {
  description    = "The application looks the cache up under a host name that does not resolve; every read falls through to the database."
  applies_to     = ["web_server"]
  conflicts_with = []
  mechanism      = "read_path_bypassed"
  detail         = "cache_host"

  param "host" {
    type    = "string"
    default = "cache-old.internal"
    domain  = ["cache-old.internal", "cache.staging.internal", "cache01.internal", "cache.internal.local"]
  }

  set_config { cache_host = param.host }

  fixed_when = "config.cache_host == \"cache.internal\""

  remedy "update_config" {
    key   = "cache_host"
    value = "cache.internal"
  }
}

# ==================================================================== cache

fault_kind "cache_memory_too_low" {
  description    = "The cache's memory limit is smaller than the site's working set; keys are evicted before reuse and misses load the database."
  applies_to     = ["cache"]
  conflicts_with = []
  mechanism      = "memory_eviction"
  detail         = "max_memory_mb"

  # Stated against the site: the ceiling holds a share of the site's
  # working set as stored (compressed, 0.4 of its size). Where the working
  # set is large that ceiling lies inside the documented band, and so may
  # the documented default.
  param "share" {
    type        = "float"
    default     = 0.8
    domain      = [0.75, 0.8, 0.85]
    description = "Share of the site's stored working set the ceiling holds."
  }

  set_config { max_memory_mb = max(floor(state.working_set_mb * 0.4 * param.share), 64) }

  # Fixed when the working set, stored compressed (compression off is a
  # fault of its own), fits with 10% headroom, and the ceiling stays within
  # the memory the host keeps resident.
  fixed_when = "float(config.max_memory_mb) * 0.9 >= state.working_set_mb * 0.4 && config.max_memory_mb <= 4096"

  remedy "update_config" {
    # Back to the site's value before the fault (its change's old value).
    key = "max_memory_mb"
  }
}

fault_kind "cache_memory_over_host" {
  # The memory ceiling was raised for a larger instance, but the cache
  # still runs on its smaller host, which has no swap. Once the dataset
  # fills past the host's memory the kernel kills redis-server; restarted,
  # it comes back empty, refills within minutes and is killed again. The
  # ceiling must come back under the host's memory (its previous value in
  # the history), and the process must be started again.
  description        = "Its memory ceiling outgrew its host."
  applies_to         = ["cache"]
  conflicts_with     = ["cache_memory_too_low", "service_crash"]
  mechanism          = "memory_ceiling_over_host"
  symptom_mechanisms = ["process_crashed"]
  detail             = "max_memory_mb"

  param "limit" {
    type        = "int"
    default     = 3584
    domain      = [3072, 3584, 4096]
    description = "The ceiling set, inside the band but above the host's memory."
  }

  param "host_mb" {
    type        = "float"
    default     = 2304.0
    domain      = [2304.0, 2560.0]
    description = "Memory the cache's host can give redis-server."
  }

  set_config { max_memory_mb = param.limit }
  set_state {
    host_ram_mb = param.host_mb
    up          = false
    exit_code   = 137
    warmth      = 0.0
  }

  fixed_when = "state.up && float(config.max_memory_mb) <= state.host_ram_mb"

  remedy "update_config" {
    # Back to the site's value before the fault (its change's old value).
    key = "max_memory_mb"
  }
  remedy "restart_service" {}
}

fault_kind "cache_compression_disabled" {
  description    = "Values are stored uncompressed, the working set no longer fits in memory and keys are evicted."
  applies_to     = ["cache"]
  conflicts_with = []
  mechanism      = "memory_eviction"
  detail         = "compression_enabled"

  param "working_set_mb" {
    type        = "float"
    default     = 1400.0
    domain      = [1300.0, 1400.0, 1600.0, 2000.0]
    description = "Uncompressed size of the hot data."
  }

  set_config { compression_enabled = false }
  # The hot data is at least this large: a site that draws a larger
  # working set keeps its own.
  set_state { working_set_mb = max(state.working_set_mb, param.working_set_mb) }

  fixed_when = "config.compression_enabled"

  remedy "update_config" {
    key   = "compression_enabled"
    value = true
  }
}

fault_kind "cache_ttl_too_low" {
  description    = "Entries expire before the site reads them again; the hit rate collapses and misses load the database."
  applies_to     = ["cache"]
  conflicts_with = []
  mechanism      = "ttl_too_low"
  detail         = "ttl_seconds"

  # Stated against the site: entries live a share of the time the site's
  # hot entries go between reads. Where that is long the TTL lies inside
  # the documented band, and so may the documented default.
  param "share" {
    type        = "float"
    default     = 0.17
    domain      = [0.17, 0.34, 0.5]
    description = "Share of the site's reuse interval an entry lives."
  }

  set_config { ttl_seconds = floor(state.reuse_s * param.share) }

  # Fixed when entries outlive the site's reuse interval; past an hour
  # they may point at purged rows.
  fixed_when = "float(config.ttl_seconds) >= state.reuse_s && config.ttl_seconds <= 3600"

  remedy "update_config" {
    # Back to the site's value before the fault (its change's old value).
    key = "ttl_seconds"
  }
}

fault_kind "cache_auth_token_expired" {
  # The app user's password was rotated in the cache's ACL; the web tier
  # still presents the version it loaded before. The stale side is the
  # client: reloading its secrets fixes it, rolling the ACL back would
  # undo a rotation.
  description    = "Its password was rotated on one side only."
  applies_to     = ["cache"]
  conflicts_with = []
  mechanism      = "auth_token_expired"
  detail         = "ACL password version ahead of the client's"

  param "versions_ahead" {
    type        = "int"
    default     = 1
    domain      = [1, 2]
    description = "How many rotations the web tier missed."
  }

  set_state { acl_password_version = 41 + param.versions_ahead }

  fixed_when = "auth_ok"

  remedy "operate" {
    operation = "reload_secrets"
    role      = "web"
  }
}

# ================================================================= database

fault_kind "db_pool_too_small" {
  description    = "The connection pool is sized far below demand; queries wait for a connection and time out."
  applies_to     = ["database"]
  conflicts_with = ["db_pool_too_large"]
  mechanism      = "connection_pool_exhausted"
  detail         = "pool_size"

  param "size" {
    type    = "int"
    default = 8
    domain  = [4, 6, 8, 10]
  }

  set_config { pool_size = param.size }

  # Fixed when the pool covers the site's demand with headroom and the
  # server accepts all of it beside the sessions other clients hold there:
  # a relation of the site, not a number. Where reports and cron keep many
  # sessions on a small server, the documented 50 is refused.
  fixed_when = "utilisation <= 0.85 && refused_share == 0.0"

  remedy "update_config" {
    # Back to the site's value before the fault (its change's old value).
    key = "pool_size"
  }
}

fault_kind "db_pool_too_large" {
  description    = "The pool tries to hold more connections than the server accepts; the excess is refused."
  applies_to     = ["database"]
  conflicts_with = ["db_pool_too_small"]
  mechanism      = "connection_limit_exceeded"
  detail         = "pool_size"

  param "size" {
    type    = "int"
    default = 300
    domain  = [150, 250, 300, 400, 500]
  }

  set_config { pool_size = param.size }

  # Fixed when the server accepts the whole pool and the pool still covers
  # demand; a pool under the limit is no fault, whatever the band says.
  fixed_when = "config.pool_size >= 20 && config.pool_size <= config.max_connections"

  remedy "update_config" {
    # Back to the site's value before the fault (its change's old value).
    key = "pool_size"
  }
}

fault_kind "db_max_connections_low" {
  description    = "The server's connection limit is below the pool the site keeps open; the pooler's extra connections are refused."
  applies_to     = ["database"]
  conflicts_with = []
  mechanism      = "connection_limit_exceeded"
  detail         = "max_connections"

  # Stated against the site: the limit lands short of the site's pool by a
  # share of it. Where the pool is large that limit lies inside the
  # documented band, and so does the documented default.
  param "short" {
    type        = "float"
    default     = 0.2
    domain      = [0.1, 0.15, 0.2]
    description = "Share of the site's pool the server no longer accepts."
  }

  set_config { max_connections = ceil(config.pool_size * (1 - param.short)) }

  # Fixed when the server accepts the whole pool, without committing more
  # session memory than the host has.
  fixed_when = "config.max_connections >= config.pool_size && config.max_connections <= 500"

  remedy "update_config" {
    # Back to the site's value before the fault (its change's old value).
    key = "max_connections"
  }
}

fault_kind "db_max_connections_below_pool" {
  description    = "The server's connection limit was set just under the pool this site keeps open; the pooler's last connections are refused."
  applies_to     = ["database"]
  conflicts_with = ["db_max_connections_low", "db_pool_too_small", "db_pool_too_large"]
  mechanism      = "connection_limit_exceeded"
  detail         = "max_connections"

  # Stated against the site: the limit lands gap connections under the
  # pool it must accept, a value that may lie well inside the band.
  param "gap" {
    type    = "int"
    default = 20
    domain  = [10, 20, 30]
  }

  set_config { max_connections = config.pool_size - param.gap }

  fixed_when = "config.max_connections >= config.pool_size && config.max_connections <= 500 && config.pool_size >= 20"

  # Either side of the relation: nothing in the world says which value
  # moved, so raising the limit and shrinking the pool both fix it, and a
  # diagnosis may name either ("the limit is under the pool", "the pool is
  # over the limit").
  remedy "update_config" {
    # Back to the site's value before the fault (its change's old value).
    key = "max_connections"
  }
  remedy "update_config" {
    key   = "pool_size"
    value = 100
  }
}

fault_kind "db_query_timeout_low" {
  description    = "The statement deadline is shorter than the site's routine statements take; a share of them is cancelled."
  applies_to     = ["database"]
  conflicts_with = []
  mechanism      = "timeout_too_low"
  detail         = "query_timeout_ms"

  # Stated against the site: the deadline allows a share of the site's
  # longest routine statements. Where those are long the deadline lies
  # inside the documented band, and so may the documented default.
  param "share" {
    type        = "float"
    default     = 0.4
    domain      = [0.2, 0.4, 0.5, 0.6]
    description = "Share of the site's longest routine statement time the deadline allows."
  }

  set_config { query_timeout_ms = floor(state.report_ms * param.share) }

  # Fixed when the deadline covers the site's longest routine statements;
  # past ten seconds runaway statements hold connections.
  fixed_when = "float(config.query_timeout_ms) >= statement_tail_ms && config.query_timeout_ms <= 10000"

  remedy "update_config" {
    # Back to the site's value before the fault (its change's old value).
    key = "query_timeout_ms"
  }
}

fault_kind "db_maintenance_mode" {
  description    = "An administrative restriction left on after a migration rejects every client connection."
  applies_to     = ["database"]
  conflicts_with = []
  mechanism      = "maintenance_mode"
  detail         = "maintenance_mode"

  param "admin_pid" {
    type        = "int"
    default     = 5502
    domain      = [4121, 5502, 7719, 9034]
    description = "Process id of the administrative session."
  }

  set_config { maintenance_mode = true }
  set_state { admin_pid = param.admin_pid }

  fixed_when = "!config.maintenance_mode"

  remedy "update_config" {
    key   = "maintenance_mode"
    value = false
  }
}

fault_kind "db_index_disabled" {
  # The index on orders(user_id) is not in the catalog: a migration dropped
  # it (DROP INDEX) or a restore never created it. Lookups by user scan the
  # table. The fix creates it again on the table and column the slow plans
  # name, CONCURRENTLY, which takes ticks in proportion to the table;
  # rebuilding invalid indexes finds none.
  description    = "The index on orders(user_id) is missing from the catalog; lookups scan the table, hold connections far longer and slow every caller."
  applies_to     = ["database"]
  conflicts_with = ["db_index_invalid"]
  mechanism      = "missing_index"
  detail         = "orders_uid_idx"

  param "rows_m" {
    type        = "float"
    default     = 40.0
    domain      = [10.0, 20.0, 30.0, 40.0, 60.0, 80.0]
    description = "Size of the orders table in millions of rows."
  }

  set_state {
    orders_indexes = "orders_pkey, orders_created_at_idx"
    orders_rows_m  = param.rows_m
  }

  fixed_when = "user_id_indexed && (!state.orders_index_invalid || state.index_build_ticks > 0)"

  remedy "operate" {
    operation = "create_index"
    args      = ["orders", "user_id"]
  }
}

fault_kind "db_read_replica_disabled" {
  description    = "Reads are no longer routed to the replica; the primary saturates and every caller slows down."
  applies_to     = ["database"]
  conflicts_with = []
  mechanism      = "read_replica_disabled"
  detail         = "read_replica_enabled"

  param "read_fraction" {
    type        = "float"
    default     = 0.7
    domain      = [0.6, 0.7, 0.8]
    description = "Share of statement time spent on reads."
  }

  set_config { read_replica_enabled = false }
  set_state { read_fraction = param.read_fraction }

  fixed_when = "config.read_replica_enabled"

  remedy "update_config" {
    key   = "read_replica_enabled"
    value = true
  }
}

fault_kind "db_wal_retention_full" {
  description        = "WAL retention was raised for a replica rebuild and never lowered; retained WAL fills the data volume and every write fails."
  applies_to         = ["database"]
  conflicts_with     = []
  mechanism          = "wal_retention_too_large"
  symptom_mechanisms = ["disk_full"]
  detail             = "wal_keep_size_gb"

  # On a site with a smaller or fuller volume, a retention inside the
  # documented band fills it, and the documented default leaves too little
  # free space.
  param "keep_gb" {
    type        = "int"
    default     = 320
    domain      = [56, 64, 304, 320, 400]
    description = "WAL retained, in GB."
  }

  set_config { wal_keep_size_gb = param.keep_gb }

  # Fixed when data and retained WAL leave the volume its 15% headroom.
  fixed_when = "volume_used_pct <= 85.0 && config.wal_keep_size_gb >= 4"

  remedy "update_config" {
    # Back to the site's value before the fault (its change's old value).
    key = "wal_keep_size_gb"
  }
}

fault_kind "db_autovacuum_disabled" {
  description    = "Background vacuuming is off; dead row versions pile up and every scan slows."
  applies_to     = ["database"]
  conflicts_with = []
  mechanism      = "autovacuum_disabled"
  detail         = "autovacuum_enabled"

  param "dead_pct" {
    type        = "float"
    default     = 30.0
    domain      = [20.0, 30.0, 40.0, 50.0]
    description = "Dead row versions already present when the fault begins."
  }

  set_config { autovacuum_enabled = false }
  set_state { dead_tuple_pct = param.dead_pct }

  fixed_when = "config.autovacuum_enabled"

  remedy "update_config" {
    key   = "autovacuum_enabled"
    value = true
  }
}

fault_kind "db_index_invalid" {
  # A migration's CREATE INDEX CONCURRENTLY (or REINDEX CONCURRENTLY) on
  # orders(user_id) failed half-way; the catalog keeps the index, marked
  # INVALID, and the planner scans the table instead. No config key moves:
  # the rebuild takes ticks in proportion to the table.
  description    = "An index a failed concurrent build left INVALID is ignored by the planner; lookups scan the table, hold connections far longer and slow every caller."
  applies_to     = ["database"]
  conflicts_with = ["db_index_disabled"]
  mechanism      = "missing_index"
  detail         = "orders_uid_idx"

  param "rows_m" {
    type        = "float"
    default     = 40.0
    domain      = [30.0, 40.0, 60.0, 80.0]
    description = "Size of the orders table in millions of rows."
  }

  set_state {
    orders_index_invalid = true
    orders_rows_m        = param.rows_m
  }

  fixed_when = "(!state.orders_index_invalid || state.index_build_ticks > 0) && !state.valid_index_rebuilt"

  remedy "operate" {
    operation = "reindex"
    args      = ["orders_uid_idx"]
  }
}

fault_kind "db_xmin_horizon_held" {
  # A session of the bulk import was left idle in transaction; its snapshot
  # holds back the oldest xmin, so autovacuum runs on schedule and removes
  # nothing. Autovacuum stays on: no config key is off its value.
  description    = "A session idle in transaction holds back the oldest xmin; vacuum removes no dead row versions and every scan slows."
  applies_to     = ["database"]
  conflicts_with = ["db_autovacuum_disabled"]
  mechanism      = "xmin_horizon_held"
  # Bloat is what the held horizon does to the tables: an answer may say
  # so beside the cause, and saying only that diagnoses nothing.
  symptom_mechanisms = ["autovacuum_disabled"]
  detail             = "session idle in transaction holds the xmin horizon"

  param "dead_pct" {
    type        = "float"
    default     = 30.0
    domain      = [30.0, 40.0, 50.0]
    description = "Dead row versions already present when the fault begins."
  }

  param "age_xids" {
    type        = "float"
    default     = 4200000.0
    domain      = [2900000.0, 4200000.0, 6100000.0]
    description = "How many transactions old the held snapshot is when the fault begins."
  }

  set_state {
    dead_tuple_pct       = param.dead_pct
    oldest_xact_age_xids = param.age_xids
  }

  fixed_when = "state.oldest_xact_age_xids <= 0.0"

  remedy "operate" {
    operation = "terminate_idle_transactions"
  }
}

# ============================================================ message_queue

fault_kind "mq_bad_deploy_exception" {
  # The consumers' build fails a share of jobs with an exception; each
  # is retried, so deliveries multiply and the backlog grows. A restart
  # runs the same build.
  description    = "A newly deployed version of the job processors has a defect its predecessor lacked: a handler throws."
  applies_to     = ["message_queue"]
  conflicts_with = []
  mechanism      = "bad_deploy"
  # Every failure is retried: the retry storm is what the build does to
  # the queue, said beside the cause.
  symptom_mechanisms = ["retry_storm"]
  detail             = "jobs fail on the new consumer build"

  param "version" {
    type        = "string"
    default     = "v4.4.0"
    domain      = ["v4.3.1", "v4.4.0"]
    description = "The consumer build deployed."
  }

  param "share" {
    type        = "float"
    default     = 0.5
    domain      = [0.4, 0.5, 0.7]
    description = "Share of jobs the build fails."
  }

  set_state {
    version          = param.version
    build_fail_share = param.share
  }

  fixed_when = "state.build_fail_share <= 0.0"

  remedy "rollback" {}
}

fault_kind "mq_consumer_concurrency_low" {
  description    = "Fewer consumers than the rate the site's jobs arrive at; the backlog and lag grow."
  applies_to     = ["message_queue"]
  conflicts_with = []
  mechanism      = "consumer_capacity_low"
  detail         = "consumer_concurrency"

  # Stated against the site: the pool keeps the consumers for a share of
  # the jobs the site's traffic publishes (one per ten requests; a consumer
  # finishes about 6.7 a second). At a busy site's traffic that count lies
  # inside the documented band, and so may the documented default.
  param "share" {
    type        = "float"
    default     = 0.85
    domain      = [0.8, 0.85, 0.9]
    description = "Share of the site's job rate the remaining consumers keep up with."
  }

  set_config { consumer_concurrency = max(floor(traffic / 67 * param.share), 1) }

  # Fixed when the consumers keep up with the jobs, retries included, with
  # 10% to spare (stated on the key itself, so a write is judged as it
  # lands), within the consumer host's memory.
  fixed_when = "float(config.consumer_concurrency) * 1000.0 / job_ms * 0.9 >= work_rate && config.consumer_concurrency <= 64"

  remedy "update_config" {
    # Back to the site's value before the fault (its change's old value).
    key = "consumer_concurrency"
  }
}

fault_kind "mq_retry_limit_high" {
  description    = "Jobs that can never succeed are retried too many times for the site; retries crowd out real work and load the database."
  applies_to     = ["message_queue"]
  conflicts_with = []
  mechanism      = "retry_storm"
  detail         = "retry_limit"

  # Where many jobs fail (a site that draws a high poison_share), a limit
  # inside the documented band, and the documented default, already send
  # more retries than the site's consumers absorb.
  param "limit" {
    type    = "int"
    default = 60
    domain  = [4, 5, 40, 60, 100]
  }

  set_config { retry_limit = param.limit }

  # Fixed when the retries the site's failing jobs make stay within what
  # the consumers absorb (the queue's own band, 8 a second).
  fixed_when = "publish_in * fail_share * float(config.retry_limit) <= 8.0 && config.retry_limit >= 1"

  remedy "update_config" {
    # Back to the site's value before the fault (its change's old value).
    key = "retry_limit"
  }
}

fault_kind "mq_dedup_disabled" {
  # The jobs queue was declared again (a broker migration loaded a
  # definitions export) without the deduplication plugin's argument; the
  # producers still set the x-deduplication-header, but nothing drops the
  # copies.
  description    = "The queue is declared without x-message-deduplication: harmless while the queue is short, but once jobs wait past the producers' 5 s republish deadline every copy is queued, and the backlog sustains itself."
  applies_to     = ["message_queue"]
  conflicts_with = []
  mechanism      = "deduplication_disabled"
  detail         = "x-message-deduplication"

  set_state { queue_arguments = "x-queue-type: classic" }

  fixed_when = "deduplicating"

  remedy "operate" {
    operation = "redeclare_queue_with_deduplication"
  }
}

fault_kind "mq_visibility_timeout_low" {
  description    = "Deliveries reappear before consumers finish them; jobs are processed several times and the backlog grows."
  applies_to     = ["message_queue"]
  conflicts_with = []
  mechanism      = "premature_redelivery"
  detail         = "visibility_timeout_ms"

  # Stated against the site: deliveries stay hidden for a share of the
  # site's longest routine jobs. Where those are long the timeout lies
  # inside the documented band, and so may the documented default.
  param "share" {
    type        = "float"
    default     = 0.34
    domain      = [0.17, 0.34, 0.69]
    description = "Share of the site's longest routine job time a delivery stays hidden."
  }

  set_config { visibility_timeout_ms = floor(state.long_job_ms * param.share) }

  # Fixed when a delivery stays hidden for well over a job's run time
  # (about 20 runs of a job); past two minutes, work on a dead consumer
  # is stranded too long.
  fixed_when = "float(config.visibility_timeout_ms) >= max(job_ms * 20.0, state.long_job_ms) && config.visibility_timeout_ms <= 120000"

  remedy "update_config" {
    # Back to the site's value before the fault (its change's old value).
    key = "visibility_timeout_ms"
  }
}

# ========================================================= out of reach
# Faults outside the agent's reach: a third party fails on its own side.
# The right end is to escalate naming it; every write is a wrong change.

fault_kind "payments_provider_outage" {
  description    = "The external payment provider fails a share of card authorisations on its own side; the site's services are healthy."
  applies_to     = ["web_server"]
  conflicts_with = ["web_bad_deploy_exception"]
  mechanism      = "payment_provider_outage"
  detail         = "card authorisations fail at the payment provider"

  param "share" {
    type        = "float"
    default     = 0.6
    domain      = [0.4, 0.6, 0.9]
    description = "Share of authorisations the provider fails."
  }

  set_state { psp_error_share = param.share }

  fixed_when = "state.psp_error_share <= 0.0"

  remedy "escalate" {}
}

fault_kind "mail_relay_outage" {
  description    = "The external mail relay turns away outgoing mail on its own side."
  applies_to     = ["message_queue"]
  conflicts_with = ["mq_bad_deploy_exception"]
  mechanism      = "mail_relay_outage"
  detail         = "the mail relay rejects outgoing mail"

  param "share" {
    type        = "float"
    default     = 1.0
    domain      = [0.6, 0.8, 1.0]
    description = "Share of mail the relay turns away."
  }

  set_state { relay_reject_share = param.share }

  fixed_when = "state.relay_reject_share <= 0.0"

  remedy "escalate" {}
}

# A third party that answers, slowly: checkouts wait on it and some
# outlast the payments client's read timeout. Raising the site's own
# deadlines only holds workers longer; the hand-over is the answer.
fault_kind "payments_provider_slow" {
  description    = "The external payment provider takes seconds to authorise cards on its own side; the site's services are healthy."
  applies_to     = ["web_server"]
  conflicts_with = ["payments_provider_outage", "web_bad_deploy_exception"]
  mechanism      = "payment_provider_outage"
  detail         = "card authorisations take seconds at the payment provider"

  param "p95_ms" {
    type        = "float"
    default     = 6000.0
    domain      = [4500.0, 6000.0, 8000.0]
    description = "The provider's 95th percentile authorisation time."
  }

  set_state { psp_p95_ms = param.p95_ms }

  fixed_when = "state.psp_p95_ms <= 1500.0"

  remedy "escalate" {}
}

# The network path from the web tier to its database, the network team's:
# the database serves its own calls as fast as ever, the web tier's calls
# to it wait on the path. The fault is the link's; its target is the
# client's end, where every symptom shows.
fault_kind "link_web_db_delay" {
  description    = "The path from the web tier to its database adds round trips of its own."
  applies_to     = ["web_server"]
  conflicts_with = ["link_web_db_loss", "link_web_db_lookup", "web_timeout_too_low"]
  link           = "database"
  mechanism      = "network_path_degraded"
  detail         = "the path to the database adds delay"

  param "delay_ms" {
    type        = "float"
    default     = 40.0
    domain      = [30.0, 40.0, 60.0]
    description = "Round-trip time the path adds."
  }

  set_state { db_path_delay_ms = param.delay_ms }

  fixed_when = "state.db_path_delay_ms <= 2.0"

  remedy "escalate" {}
}

fault_kind "link_web_db_lookup" {
  description    = "The site's resolvers fail a share of their answers for the database's name."
  applies_to     = ["web_server"]
  conflicts_with = ["link_web_db_delay", "link_web_db_loss"]
  link           = "database"
  mechanism      = "name_resolution_failure"
  detail         = "the database's name does not resolve"

  param "share" {
    type        = "float"
    default     = 0.2
    domain      = [0.15, 0.2, 0.3]
    description = "Share of answers for the name that fail."
  }

  set_state { db_lookup_fail_share = param.share }

  fixed_when = "state.db_lookup_fail_share <= 0.0"

  remedy "escalate" {}
}

fault_kind "link_web_db_loss" {
  description    = "The path from the web tier to its database loses a share of its packets."
  applies_to     = ["web_server"]
  conflicts_with = ["link_web_db_delay", "link_web_db_lookup", "web_timeout_too_low"]
  link           = "database"
  mechanism      = "network_path_degraded"
  detail         = "the path to the database loses packets"

  param "loss_pct" {
    type        = "float"
    default     = 4.0
    domain      = [3.0, 4.0, 6.0]
    description = "Share of packets the path loses, in percent."
  }

  set_state { db_path_loss_pct = param.loss_pct }

  fixed_when = "state.db_path_loss_pct <= 0.1"

  remedy "escalate" {}
}

# A neighbour on the hypervisor the web tier's instances share takes the
# CPU they are ready to use: the tier's own work is unchanged, its
# capacity falls and its latency climbs. More workers only queue for the
# same CPU; moving the instances to another host is the fix.
fault_kind "web_noisy_neighbour" {
  description    = "A neighbour on the tier's hypervisor takes its processor time."
  applies_to     = ["web_server"]
  conflicts_with = ["web_workers_too_low", "web_workers_too_high", "lb_backend_weight_skewed", "lb_sticky_sessions_hotspot"]
  mechanism      = "noisy_neighbour"
  detail         = "the hypervisor gives the tier's CPU to a neighbour"

  param "steal_pct" {
    type        = "float"
    default     = 65.0
    domain      = [60.0, 65.0, 70.0]
    description = "CPU time taken from the tier's instances, in percent."
  }

  set_state { host_steal_pct = param.steal_pct }

  fixed_when = "state.host_steal_pct <= 5.0"

  remedy "operate" {
    operation = "migrate_instance"
  }
}

# ====================================================== beyond one config key

fault_kind "db_replication_slot_stale" {
  # A logical replication consumer was switched off without dropping its slot; the server keeps every WAL segment since. Nothing changed in the config: the data volume fills by itself.
  description        = "An abandoned replication slot pins WAL."
  applies_to         = ["database"]
  conflicts_with     = ["db_wal_retention_full"]
  mechanism          = "replication_slot_retains_wal"
  symptom_mechanisms = ["disk_full"]
  detail             = "inactive replication slot retains WAL"

  param "retained_gb" {
    type        = "float"
    default     = 300.0
    domain      = [270.0, 296.0, 300.0, 320.0]
    description = "WAL the slot retains when the warm-up begins."
  }

  param "rate_gb" {
    type        = "float"
    default     = 2.0
    domain      = [1.0, 2.0, 4.0]
    description = "WAL written per tick that the slot keeps."
  }

  set_state {
    slot_wal_gb      = param.retained_gb
    slot_wal_rate_gb = param.rate_gb
  }

  fixed_when = "state.slot_wal_rate_gb <= 0.0 && volume_used_pct < 90.0 && !state.slot_dropped_in_use"

  remedy "operate" {
    operation = "drop_replication_slot"
    args      = ["analytics_cdc"]
  }
}

fault_kind "db_replication_slot_outage" {
  # The same abandoned slot, found later: the WAL it pinned filled the data volume, the server PANICked on a WAL write and went down, and every start since aborts in crash recovery for want of space (the supervisor keeps trying). A restart is one more aborted start; freeing the slot's WAL lets the next start succeed.
  description        = "An abandoned replication slot pinned WAL until the volume filled."
  applies_to         = ["database"]
  conflicts_with     = ["db_wal_retention_full", "db_replication_slot_stale", "service_crash"]
  mechanism          = "replication_slot_retains_wal"
  symptom_mechanisms = ["disk_full", "process_crashed", "crash_loop"]
  detail             = "inactive replication slot retains WAL"

  param "retained_gb" {
    type        = "float"
    default     = 300.0
    domain      = [300.0, 320.0]
    description = "WAL the slot retains when the warm-up begins."
  }

  param "rate_gb" {
    type        = "float"
    default     = 1.0
    domain      = [0.5, 1.0]
    description = "WAL per tick the slot retains (what crash recovery replays and writes)."
  }

  set_state {
    slot_wal_gb      = param.retained_gb
    slot_wal_rate_gb = param.rate_gb
    recovery_failed  = true
    exit_code        = 134
  }

  fixed_when = "state.slot_wal_rate_gb <= 0.0 && volume_used_pct < 90.0 && state.up && !state.recovery_failed && !state.slot_dropped_in_use"

  remedy "operate" {
    operation = "drop_replication_slot"
    args      = ["analytics_cdc"]
  }
}

fault_kind "web_bad_instance" {
  # One host's local disk filled; its instance fails every request it serves but answers its health probe, so it stays in rotation. Restarting the tier restarts both processes and frees nothing.
  description    = "One replica misbehaves; probes still pass."
  applies_to     = ["web_server"]
  conflicts_with = []
  mechanism      = "bad_instance"
  detail         = "one instance fails what it serves"

  param "instance" {
    type        = "int"
    default     = 2
    domain      = [1, 2]
    description = "Which instance is bad: web-1 or web-2."
  }

  set_state {
    bad_instance = param.instance
  }

  fixed_when = "state.bad_instance == 0 && !state.healthy_replaced"

  remedy "operate" {
    operation = "replace_instance"
    args      = ["web-{param.instance}"]
  }
}

fault_kind "lb_flooding_address" {
  # One client address sends far more requests than any user; the listener and the web tier spend their capacity on it. Blocking that address removes the load; scaling out only feeds it.
  description    = "A single abusive address hogs capacity."
  applies_to     = ["load_balancer"]
  conflicts_with = []
  mechanism      = "abusive_client"
  detail         = "one client sends most requests"

  param "rps" {
    type        = "float"
    default     = 3000.0
    domain      = [2500.0, 3000.0, 4000.0]
    description = "Requests per second the client sends."
  }

  set_state {
    abuser_rps = param.rps
  }

  fixed_when = "state.abuser_rps <= 0.0 && state.blocked_share <= 0.0"

  remedy "operate" {
    operation = "block_client"
    args      = ["203.0.113.57"]
  }
}

fault_kind "mq_orphaned_binding" {
  # An export job was retired but its queue is still bound to the exchange; it takes a copy of every message until the broker's disk alarm blocks all publishers.
  description        = "An abandoned binding hoards storage."
  applies_to         = ["message_queue"]
  conflicts_with     = []
  mechanism          = "abandoned_binding"
  symptom_mechanisms = ["disk_full"]
  detail             = "queue without consumers fills the disk"

  param "held_gb" {
    type        = "float"
    default     = 44.0
    domain      = [42.0, 44.0, 45.0]
    description = "Messages the queue holds when the warm-up begins."
  }

  param "rate_gb" {
    type        = "float"
    default     = 0.5
    domain      = [0.5, 1.0]
    description = "How fast it grows per tick."
  }

  set_state {
    orphan_queue_gb = param.held_gb
    orphan_rate_gb  = param.rate_gb
  }

  fixed_when = "state.orphan_rate_gb <= 0.0 && disk_free_gb >= 5.0 && !state.queue_lost"

  remedy "operate" {
    operation = "delete_queue"
    args      = ["jobs.audit-export"]
  }
}

fault_kind "mq_orphaned_binding_outage" {
  # The same retired export queue, found later: its copies filled the broker's data disk to the last byte, the node stopped on a failed write, and every start since fails while recovering its message store (the supervisor keeps trying). A restart is one more failed start; deleting the queue's messages lets the next start succeed.
  description        = "An abandoned binding hoarded storage until the disk filled."
  applies_to         = ["message_queue"]
  conflicts_with     = ["mq_orphaned_binding", "service_crash"]
  mechanism          = "abandoned_binding"
  symptom_mechanisms = ["disk_full", "process_crashed", "crash_loop"]
  detail             = "queue without consumers fills the disk"

  param "held_gb" {
    type        = "float"
    default     = 46.0
    domain      = [46.0]
    description = "Messages the queue holds when the warm-up begins: the whole free disk."
  }

  param "rate_gb" {
    type        = "float"
    default     = 0.5
    domain      = [0.5, 1.0]
    description = "How fast it grows per tick while publishers reach it."
  }

  set_state {
    orphan_queue_gb = param.held_gb
    orphan_rate_gb  = param.rate_gb
    start_failed    = true
    exit_code       = 1
  }

  fixed_when = "state.orphan_rate_gb <= 0.0 && disk_free_gb >= 5.0 && state.up && !state.start_failed && !state.queue_lost"

  remedy "operate" {
    operation = "delete_queue"
    args      = ["jobs.audit-export"]
  }
}

fault_kind "web_tls_cert_expired" {
  # The balancer speaks TLS to the web instances and verifies their
  # certificate; the web tier's ran out and its renewal job skipped it.
  description    = "Its backend certificate lapsed."
  applies_to     = ["web_server"]
  conflicts_with = []
  mechanism      = "tls_certificate_expired"
  detail         = "certificate notAfter before now"

  param "days_past" {
    type        = "int"
    default     = 2
    domain      = [1, 2, 5]
    description = "Days since the certificate's notAfter date when the warm-up began."
  }

  set_state { cert_not_after_min = 0 - param.days_past * 1440 }

  fixed_when = "state.cert_not_after_min > state.clock_min"

  remedy "operate" {
    operation = "renew_certificate"
  }
}

fault_kind "cache_tls_cert_expired" {
  # Clients verify the cache's certificate on its TLS port; it ran out.
  # A restart loads the same certificate and empties the cache too.
  description    = "Its certificate lapsed."
  applies_to     = ["cache"]
  conflicts_with = ["cache_auth_token_expired"]
  mechanism      = "tls_certificate_expired"
  detail         = "certificate notAfter before now"

  param "days_past" {
    type        = "int"
    default     = 1
    domain      = [1, 2, 4]
    description = "Days since the certificate's notAfter date when the warm-up began."
  }

  set_state { cert_not_after_min = 0 - param.days_past * 1440 }

  fixed_when = "tls_ok"

  remedy "operate" {
    operation = "renew_certificate"
  }
}

fault_kind "db_app_password_rotated" {
  # The app role's password was rotated on the server; the web tier and
  # the job consumers still present the version they loaded before. The
  # stale side is each client: both must reload their secrets.
  description    = "Its password was rotated on one side only."
  applies_to     = ["database"]
  conflicts_with = []
  mechanism      = "auth_token_expired"
  detail         = "server password version ahead of its clients'"

  param "versions_ahead" {
    type        = "int"
    default     = 1
    domain      = [1, 2]
    description = "How many rotations the clients missed."
  }

  set_state { app_password_version = 17 + param.versions_ahead }

  fixed_when = "web_auth_ok && queue_auth_ok"

  remedy "operate" {
    operation = "reload_secrets"
    role      = "web"
  }
  remedy "operate" {
    operation = "reload_secrets"
    role      = "queue"
  }
}

fault_kind "mq_publish_password_rotated" {
  # The broker's password for the publishing user was rotated on the
  # broker only; the web tier still presents the version it loaded before.
  description    = "Its password was rotated on one side only."
  applies_to     = ["message_queue"]
  conflicts_with = []
  mechanism      = "auth_token_expired"
  detail         = "broker password version ahead of the publisher's"

  param "versions_ahead" {
    type        = "int"
    default     = 1
    domain      = [1, 2]
    description = "How many rotations the web tier missed."
  }

  set_state { vhost_password_version = 9 + param.versions_ahead }

  fixed_when = "publish_auth_ok"

  remedy "operate" {
    operation = "reload_secrets"
    role      = "web"
  }
}
