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

  # ---------------------------------------------------------------- state

  state "up" {
    type        = "bool"
    initial     = true
    next        = "state.up && !oom_kill"
    description = "The cache process is running; the kernel's OOM killer ends it when its memory outgrows the host."
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
    next        = "oom_kill ? 137 : state.exit_code"
    description = "Exit code of the last process that stopped."
  }

  state "host_ram_mb" {
    type        = "float"
    initial     = 8192.0
    unit        = "MB"
    description = "Memory the cache's host can give redis-server; the host has no swap for more. A process whose dataset fills a ceiling above it is killed by the kernel."
  }

  state "warmth" {
    type        = "float"
    initial     = 1.0
    next        = "state.up && state.restart_ticks == 0 ? min(1.0, state.warmth + state.fill_rate) : 0.0"
    unit        = "ratio"
    description = "Share of the working set currently loaded; 0 after a restart."
  }

  state "fill_rate" {
    type        = "float"
    initial     = 0.35
    unit        = "share of the working set per tick"
    description = "Declared rate at which a serving cache loads its working set from misses: an empty cache is warm after ceil(1 / rate) ticks of serving."
  }

  state "working_set_mb" {
    type        = "float"
    initial     = 1400.0
    unit        = "MB"
    description = "Uncompressed size of the data the application keeps hot."
  }

  state "scraped_mb_per_rps" {
    type        = "float"
    initial     = 0.0
    unit        = "MB"
    description = "Uncompressed cache entries that each request/s of admitted scraper traffic adds to the hot set: scrapers walk the catalogue's long tail, and each page they load is cached beside the shoppers' (0 where scrapers never get in)."
  }

  state "acl_password_version" {
    type        = "int"
    initial     = 41
    description = "Version, as the site's secret store numbers it, of the app user's password in the cache's ACL: what the cache accepts."
  }

  state "swapped_mb" {
    type        = "float"
    initial     = 0.0
    next        = "state.up ? min(state.swapped_mb + 2048.0, max(0.0, float(config.max_memory_mb) - 4096.0)) : 0.0"
    unit        = "MB"
    description = "Data paged out to swap: the host keeps 4096 MB resident for the dataset; a higher ceiling lets cold keys pile up past it (nothing is evicted below the ceiling), about 2 GB more per tick."
  }

  state "persistent_mb" {
    type        = "float"
    initial     = 0.0
    unit        = "MB"
    description = "Memory held by keys the site stores without a TTL (sessions, carts), 0 where it keeps none here. An allkeys eviction policy evicts them with the cached entries; a volatile one keeps them."
  }

  state "reuse_s" {
    type        = "float"
    initial     = 60.0
    unit        = "s"
    description = "How long the site's hot entries go between two reads: a minute unless its traffic is spread wider. An entry that expires sooner is fetched again from the database."
  }

  state "clock_min" {
    type        = "int"
    initial     = 0
    next        = "state.clock_min + 1"
    unit        = "min"
    description = "The site's clock, in minutes since the incident's warm-up began: one tick is one minute."
  }

  state "cert_not_after_min" {
    type        = "int"
    initial     = 86400
    unit        = "min"
    description = "The notAfter date of the certificate on the service's TLS listener, on the clock of clock_min: a site renews 30 days before expiry, so a current one has 30 to 90 days left."
  }

  state "boot_attempts" {
    type        = "int"
    initial     = 0
    next        = "state.up && !boot_ok ? state.boot_attempts + 1 : 0"
    description = "Consecutive starts the supervisor has made that exited during boot."
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

  derived "boot_ok" {
    type        = "bool"
    value       = "config.eviction_policy == \"noeviction\" || config.eviction_policy == \"allkeys-lru\" || config.eviction_policy == \"allkeys-lfu\" || config.eviction_policy == \"allkeys-random\" || config.eviction_policy == \"volatile-lru\" || config.eviction_policy == \"volatile-lfu\" || config.eviction_policy == \"volatile-random\" || config.eviction_policy == \"volatile-ttl\""
    description = "The server's config file loads: it refuses to start on an eviction policy it does not know."
  }

  derived "evicts_persistent" {
    type        = "bool"
    value       = "state.persistent_mb > 0.0 && (config.eviction_policy == \"allkeys-lru\" || config.eviction_policy == \"allkeys-lfu\" || config.eviction_policy == \"allkeys-random\")"
    description = "The full cache evicts keys stored without a TTL (the site's sessions) along with its cached entries."
  }

  derived "session_loss_share" {
    type        = "float"
    value       = "serving && evicts_persistent ? 0.08 : 0.0"
    unit        = "ratio"
    description = "Share of requests whose session was evicted: signed-in users' posts are refused."
  }

  derived "serving" {
    type  = "bool"
    value = "state.up && state.restart_ticks == 0 && boot_ok"
  }

  derived "oom_kill" {
    type        = "bool"
    value       = "serving && state.warmth >= 0.7 && float(config.max_memory_mb) > state.host_ram_mb"
    description = "Refilled after a start, the dataset grows to the memory ceiling (nothing is evicted below it); a ceiling above the host's memory ends in the kernel's OOM killer."
  }

  derived "requests_rps" {
    type  = "float"
    value = "serving ? web.cache_rps : 0.0"
    unit  = "requests/s"
  }

  derived "stored_mb" {
    type  = "float"
    value = "(state.working_set_mb + web.scraper_rps * state.scraped_mb_per_rps) * (config.compression_enabled ? 0.4 : 1.0)"
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
    value = "clamp(float(config.ttl_seconds) / state.reuse_s, 0.0, 1.0)"
    unit  = "ratio"
  }

  derived "acl_version" {
    type        = "int"
    value       = "state.acl_password_version"
    description = "The password version the cache accepts, as its clients' secret reloads read it from the store."
  }

  derived "tls_ok" {
    type        = "bool"
    value       = "state.cert_not_after_min > state.clock_min"
    description = "The certificate on the TLS port is current: clients verify it and abort on an expired one."
  }

  derived "auth_ok" {
    type        = "bool"
    value       = "web.cache_credential_version == state.acl_password_version"
    description = "The password the web tier presents is the one the ACL holds."
  }

  derived "error_rate" {
    type  = "float"
    value = "serving ? (auth_ok && tls_ok ? 0.0 : 1.0) : 1.0"
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
    value     = "serving && requests_rps > 0.0 ? 0.92 * ttl_factor * fit * state.warmth * (1.0 - error_rate) : 0.0"
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
    noise     = "slow"
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
    noise     = "slow"
  }

  # ---------------------------------------------------------------- status

  metric "cert_days_to_expiry" {
    type        = "float"
    value       = "float(state.cert_not_after_min - state.clock_min) / 1440.0"
    unit        = "days"
    precision   = 1
    low         = 7
    high        = 400
    description = "Days until the certificate on the TLS listener expires (x509 notAfter), negative once it has."
    noise       = "none"
  }

  status "down" { when = "!state.up" }
  status "restarting" { when = "state.restart_ticks > 0 || !boot_ok" }
  status "degraded" { when = "error_rate > 0.05 || requests_rps > 0.0 && hit_rate < 0.6 || latency_ms > 20.0" }

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
    when  = "serving && !auth_ok"
    text  = "{@mainpid}:M ACL LOG: entry count=1 reason=auth context=toplevel object=AUTH username=default client-info=id={@pid} addr=10.0.3.14:{@port} laddr=10.0.3.2:6379 cmd=auth"
  }

  log "tls_accept_failed" {
    level = "ERROR"
    when  = "serving && !tls_ok"
    text  = "Error accepting a client connection: error:0A000412:SSL routines::sslv3 alert bad certificate (addr=10.0.3.14:51442 laddr=10.0.3.20:6380)"
  }

  # supervisord supervisor/process.py ("exited: %s (%s)")
  # mm/oom_kill.c (__oom_kill_process: "Out of memory: Killed process %d (%s) total-vm:%lukB, anon-rss:%lukB, ..."), mm/page_alloc.c (show_mem: "%lu pages RAM")
  log "oom_killed" {
    level = "ERROR"
    when  = "!state.up && state.exit_code == 137 && float(config.max_memory_mb) > state.host_ram_mb"
    text  = "kernel: redis-server invoked oom-killer: gfp_mask=0x140cca(GFP_HIGHUSER_MOVABLE|__GFP_COMP), order=0, oom_score_adj=0; {int(state.host_ram_mb * 256.0 + 32768.0)} pages RAM; Out of memory: Killed process {@pid} (redis-server) total-vm:{int(state.host_ram_mb * 1024.0 + 61440.0)}kB, anon-rss:{int(state.host_ram_mb * 1024.0 - 12288.0)}kB, file-rss:0kB, shmem-rss:0kB, UID:999 pgtables:4712kB oom_score_adj:0"
  }

  log "process_exit" {
    level = "ERROR"
    when  = "!state.up"
    text  = "supervisord: exited: redis-server (exit status {state.exit_code}; not expected)"
  }

  # src/config.c: loadServerConfigFromString's loaderr block, with
  # enumConfigSet's error for a value outside the enum (Redis 7).
  log "boot_failed" {
    level = "ERROR"
    when  = "state.up && state.restart_ticks == 0 && !boot_ok"
    text  = "*** FATAL CONFIG FILE ERROR (Redis 7.2.4) *** Reading the configuration file, at line 87 >>> 'maxmemory-policy {config.eviction_policy}' argument(s) must be one of the following: volatile-lru, volatile-lfu, volatile-random, volatile-ttl, allkeys-lru, allkeys-lfu, allkeys-random, noeviction; systemd: redis-server.service: Failed with result 'exit-code'; scheduled restart job, restart counter is at {state.boot_attempts}"
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

  operation "renew_certificate" {
    description = "Issue a certificate for the listener's names from the site's CA, valid for 90 days, and load it without dropping connections."
    aka         = ["renewed the certificate", "renewed the tls certificate", "renewed the cert", "installed a renewed certificate", "installed a new certificate", "replaced the certificate", "reissued the certificate"]
    set {
      cert_not_after_min = "state.clock_min + 129600"
    }
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
