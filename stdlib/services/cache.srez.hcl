# Cache: an in-memory key/value store the web tier reads through. Its hit
# rate depends on whether the working set fits in memory, on how long entries
# live and on how warm it is: a restarted cache comes back empty and refills
# over a few ticks, sending the misses to the database meanwhile. Past the
# high limits of its keys the host pushes back: a memory ceiling above what it
# keeps resident swaps, entries living past an hour outlive purged rows, and
# a client ceiling above the open-file limit is cut back with a warning.

service_kind "cache" {
  description = "In-memory key/value cache (Redis-like) in front of the database."

  role "web" {
    kind        = "web_server"
    caller      = true
    description = "The web tier that reads through this cache."
  }

  # ---------------------------------------------------------------- config

  config "max_memory_mb" {
    type        = "int"
    default     = 1024
    low         = 768
    high        = 4096
    unit        = "MB"
    description = "Memory the cache may use for data before it evicts keys."
    aka         = ["max memory", "maxmemory", "maxmem", "max mem", "memory limit", "memory cap", "memory", "mem", "cache size", "cache memory"]
  }

  config "ttl_seconds" {
    type        = "int"
    default     = 300
    low         = 60
    high        = 3600
    unit        = "s"
    description = "Lifetime of a cached entry."
    aka         = ["ttl", "time to live", "expiry", "expiration", "key expiry", "entry lifetime", "lifetime", "expire after", "expires after", "expiring after", "keys expire", "entries expire", "keys live", "entries live", "live for"]
  }

  config "max_clients" {
    type        = "int"
    default     = 10000
    low         = 1000
    high        = 50000
    unit        = "connections"
    description = "Client connections accepted at once."
    aka         = ["max clients", "client limit", "maxclients"]
  }

  config "eviction_policy" {
    type        = "string"
    default     = "allkeys-lru"
    description = "Which keys are evicted first when memory is full."
    aka         = ["eviction policy", "maxmemory policy"]
  }

  config "compression_enabled" {
    type        = "bool"
    default     = true
    description = "Compress values before storing them."
    aka         = ["compression", "value compression"]
  }

  config "auth_token_valid" {
    type        = "bool"
    default     = true
    description = "Whether the access token clients present is accepted (rotated and current)."
    aka         = ["auth token", "token", "access token", "credentials", "credential", "password", "auth"]
  }

  # ---------------------------------------------------------------- state

  state "up" {
    type        = "bool"
    initial     = true
    description = "The cache process is running."
  }

  state "restart_ticks" {
    type        = "int"
    initial     = 0
    next        = "max(state.restart_ticks - 1, 0)"
    description = "Ticks left until a restarted process serves again."
  }

  state "exit_code" {
    type        = "int"
    initial     = 0
    description = "Exit code of the last process that stopped."
  }

  state "warmth" {
    type        = "float"
    initial     = 1.0
    next        = "state.up && state.restart_ticks == 0 ? min(1.0, state.warmth + 0.35) : 0.0"
    unit        = "ratio"
    description = "Share of the working set currently loaded; 0 after a restart."
  }

  state "working_set_mb" {
    type        = "float"
    initial     = 1400.0
    unit        = "MB"
    description = "Uncompressed size of the data the application keeps hot."
  }

  state "token_age_h" {
    type        = "int"
    initial     = 0
    description = "Hours since the presented token stopped being accepted (0 while valid)."
  }

  state "swapped_mb" {
    type        = "float"
    initial     = 0.0
    next        = "state.up ? min(state.swapped_mb + 2048.0, max(0.0, float(config.max_memory_mb) - 4096.0)) : 0.0"
    unit        = "MB"
    description = "Data paged out to swap: the host keeps 4096 MB resident for the dataset; a higher ceiling lets cold keys pile up past it (nothing is evicted below the ceiling), about 2 GB more per tick."
  }

  state "cosmetic_warning" {
    type        = "bool"
    initial     = false
    description = "Drives a harmless repeating warning."
  }

  state "cosmetic_metric" {
    type        = "bool"
    initial     = false
    description = "Drives a harmless, elevated but in-band metric."
  }

  # ---------------------------------------------------------------- derived

  derived "serving" {
    type  = "bool"
    value = "state.up && state.restart_ticks == 0"
  }

  derived "requests_rps" {
    type  = "float"
    value = "serving ? web.cache_rps : 0.0"
    unit  = "requests/s"
  }

  derived "stored_mb" {
    type  = "float"
    value = "state.working_set_mb * (config.compression_enabled ? 0.4 : 1.0)"
    unit  = "MB"
  }

  derived "fit" {
    type        = "float"
    value       = "clamp(float(config.max_memory_mb) / stored_mb, 0.0, 1.0)"
    unit        = "ratio"
    description = "Share of the working set that fits in memory."
  }

  derived "ttl_factor" {
    type  = "float"
    value = "clamp(float(config.ttl_seconds) / 60.0, 0.0, 1.0)"
    unit  = "ratio"
  }

  derived "error_rate" {
    type  = "float"
    value = "serving ? (config.auth_token_valid ? 0.0 : 1.0) : 1.0"
    unit  = "ratio"
  }

  derived "evictions_per_s" {
    type  = "float"
    value = "requests_rps * (1.0 - fit) * 2.0"
    unit  = "keys/s"
  }

  derived "expirations_per_s" {
    type  = "float"
    value = "requests_rps * (1.0 - ttl_factor) + requests_rps * 0.01"
    unit  = "keys/s"
  }

  derived "swap_ms" {
    type        = "float"
    value       = "serving ? state.swapped_mb / 1024.0 * 4.0 : 0.0"
    unit        = "ms"
    description = "Mean stall from page faults: the single command thread waits whenever it touches a swapped-out page (expiry cycles, rehashing, cold reads)."
  }

  derived "latency_ms" {
    type  = "float"
    value = "serving ? 1.0 + (fit < 1.0 ? 3.0 : 0.0) + swap_ms : 0.0"
    unit  = "ms"
  }

  derived "used_mb" {
    type  = "float"
    value = "serving ? min(float(config.max_memory_mb), stored_mb) * max(state.warmth, 0.05) + state.swapped_mb : 0.0"
    unit  = "MB"
  }

  derived "purged_share" {
    type        = "float"
    value       = "serving ? 0.01 * clamp(float(config.ttl_seconds - 3600) / 3600.0, 0.0, 4.0) : 0.0"
    unit        = "ratio"
    description = "Share of hits on an entry whose row has been purged: removed products are kept for an hour before they are deleted, so entries older than an hour may point at rows that are gone."
  }

  derived "nofile_needed" {
    type        = "int"
    value       = "config.max_clients + 32"
    unit        = "file descriptors"
    description = "Descriptors the server asks for: one per client plus 32 reserved. The service may open 50032."
  }

  # ---------------------------------------------------------------- metrics

  metric "hit_rate" {
    type      = "float"
    value     = "serving ? 0.92 * ttl_factor * fit * state.warmth * (1.0 - error_rate) : 0.0"
    unit      = "ratio"
    precision = 2
    low       = 0.8
    high      = 1.0
  }

  metric "requests_per_s" {
    type      = "float"
    value     = "requests_rps"
    unit      = "requests/s"
    precision = 1
    low       = 20
    high      = 10000
  }

  metric "p95_latency_ms" {
    type      = "float"
    value     = "latency_ms * 2.0"
    unit      = "ms"
    precision = 1
    low       = 0
    high      = 10
  }

  metric "memory_used_pct" {
    type      = "float"
    value     = "used_mb / float(config.max_memory_mb) * 100.0"
    unit      = "%"
    precision = 1
    low       = 0
    high      = 90
  }

  metric "evicted_keys_per_s" {
    type      = "float"
    value     = "evictions_per_s"
    unit      = "keys/s"
    precision = 1
    low       = 0
    high      = 20
  }

  metric "expired_keys_per_s" {
    type      = "float"
    value     = "expirations_per_s"
    unit      = "keys/s"
    precision = 1
    low       = 0
    high      = 30
  }

  metric "fragmentation_ratio" {
    type      = "float"
    value     = "state.swapped_mb > 0.0 && used_mb > 0.0 ? 1.08 * (used_mb - state.swapped_mb) / used_mb : (state.cosmetic_metric ? 1.42 : 1.08)"
    unit      = "ratio"
    precision = 2
    low       = 1.0
    high      = 1.5
  }

  # ---------------------------------------------------------------- status

  status "down" { when = "!state.up" }
  status "restarting" { when = "state.restart_ticks > 0" }
  status "degraded" { when = "error_rate > 0.05 || hit_rate < 0.6 || latency_ms > 20.0" }

  # ---------------------------------------------------------------- logs

  # src/server.c (serverCron: "DB %d: %lld keys (%lld volatile) in %lld slots HT.")
  log "ready" {
    level = "INFO"
    when  = "serving && state.warmth >= 1.0 && error_rate <= 0.05"
    text  = "{@mainpid}:M DB 0: {int(used_mb * 6.0)} keys ({int(used_mb * 6.0)} volatile) in 65536 slots HT."
  }

  # src/server.c (clientsCron verbose: "%lu clients connected (%lu replicas), %zu bytes in use")
  log "cron" {
    level = "INFO"
    when  = "serving"
    text  = "{@mainpid}:M {int(requests_rps / 40.0) + 12} clients connected (0 replicas), {int(used_mb * 1048576.0)} bytes in use"
  }

  # src/rdb.c ("Background saving started by pid %ld")
  log "warming" {
    level = "WARN"
    when  = "serving && state.warmth < 1.0"
    text  = "{@mainpid}:M Background saving started by pid {@pid}"
  }

  # src/server.c (INFO stats evicted_keys / maxmemory), as a latency event: src/latency.c ("eviction-cycle")
  log "evicting" {
    level = "WARN"
    when  = "serving && fit < 1.0"
    text  = "{@mainpid}:M Latency monitor: eviction-cycle event took {int(evictions_per_s / 20.0) + 3} ms (evicted_keys +{int(evictions_per_s * 60.0)} since last sample, used_memory={int(used_mb)}M)"
  }

  # src/server.c (INFO stats expired_keys, keyspace_misses)
  log "short_lived" {
    level = "WARN"
    when  = "serving && ttl_factor < 1.0"
    text  = "{@mainpid}:M INFO stats: expired_keys +{int(expirations_per_s * 60.0)} keyspace_hits +{int(requests_rps * 60.0 * 0.3)} keyspace_misses +{int(requests_rps * 60.0 * 0.7)} in the last 60 s"
  }

  # src/latency.c (LATENCY DOCTOR: "fast-command" events), src/server.c (INFO memory used_memory / used_memory_rss)
  log "swapping" {
    level = "WARN"
    when  = "serving && state.swapped_mb > 0.0"
    text  = "{@mainpid}:M Latency monitor: command event took {int(swap_ms * 4.0)} ms (used_memory={int(used_mb)}M used_memory_rss={int(used_mb - state.swapped_mb)}M)"
  }

  # src/server.c (adjustOpenFilesLimit)
  log "fd_limit" {
    level = "WARN"
    when  = "serving && nofile_needed > 50032"
    text  = "{@mainpid}:M You requested maxclients of {config.max_clients} requiring at least {nofile_needed} max file descriptors. Current maximum open files is 50032. maxclients has been reduced to 50000."
  }

  # src/acl.c (ACL LOG entry fields: reason, context, object, username, client-info)
  log "auth_rejected" {
    level = "ERROR"
    when  = "serving && !config.auth_token_valid"
    text  = "{@mainpid}:M ACL LOG: entry count=1 reason=auth context=toplevel object=AUTH username=default client-info=id={@pid} addr=10.0.3.14:{@port} laddr=10.0.3.2:6379 cmd=auth"
  }

  # supervisord supervisor/process.py ("exited: %s (%s)")
  log "process_exit" {
    level = "ERROR"
    when  = "!state.up"
    text  = "supervisord: exited: redis-server (exit status {state.exit_code}; not expected)"
  }

  # src/server.c ("Server initialized"), src/rdb.c ("Loading RDB produced by version %s")
  log "starting" {
    level = "INFO"
    when  = "state.up && state.restart_ticks > 0"
    text  = "{@mainpid}:M Server initialized  Loading RDB produced by version 7.2.4"
  }

  # src/syscheck.c (checkOvercommit); the advice that follows in Redis is left out
  log "cosmetic" {
    level = "WARN"
    when  = "serving && state.cosmetic_warning"
    text  = "{@mainpid}:M WARNING Memory overcommit must be enabled! Without it, a background save or replication may fail under low memory condition."
  }

  restart {
    up            = true
    restart_ticks = 3
    exit_code     = 0
    warmth        = 0.0
    swapped_mb    = 0.0
  }

  trace {
    latency    = "latency_ms"
    error_rate = "error_rate"
  }
}
