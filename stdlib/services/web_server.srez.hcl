# Web server: the application tier. It takes the traffic the load balancer
# forwards, serves it with a fixed pool of workers, reads through the cache
# to the database, writes to the database and publishes background jobs to
# the message queue. Its latency and error rate are built from those of its
# dependencies (as they were one tick ago). Each worker, socket and
# admitted request has a cost: long deadlines tie workers up, long keep-alive
# windows use up descriptors, and a lax limit admits scrapers.

service_kind "web_server" {
  description = "Application server: a pool of workers serving HTTP requests, backed by a cache, a database and a job queue."

  role "lb" {
    kind        = "load_balancer"
    caller      = true
    description = "The load balancer that forwards client requests to this tier."
  }

  role "database" {
    kind        = "database"
    description = "Primary data store; every write and every cache miss goes here."
  }

  role "cache" {
    kind        = "cache"
    description = "Read-through cache in front of the database."
  }

  role "queue" {
    kind        = "message_queue"
    description = "Queue that receives background jobs (emails, invoices, exports)."
  }

  # ---------------------------------------------------------------- config

  config "max_workers" {
    type        = "int"
    default     = 16
    low         = 12
    high        = 64
    unit        = "workers"
    description = "Worker processes serving requests, 8 threads each; each process has the CPU for about 32 requests/s and holds about 20 MB."
    aka         = ["workers", "worker pool", "worker count", "worker processes", "worker threads", "threads", "max workers", "worker"]
  }

  config "timeout_ms" {
    type        = "int"
    default     = 3000
    low         = 1000
    high        = 10000
    unit        = "ms"
    description = "Deadline for one upstream call (database, cache, queue) before the request fails."
    aka         = ["request timeout", "upstream timeout", "timeout", "call timeout", "client timeout", "deadline", "upstream deadline", "call deadline", "upstream call deadline", "time limit", "gives up", "give up", "gave up", "giving up"]
  }

  config "rate_limit_rps" {
    type        = "int"
    default     = 2000
    low         = 500
    high        = 10000
    unit        = "requests/s"
    description = "Requests per second admitted before the server answers 429."
    aka         = ["rate limit", "ratelimit", "rate limiter", "request limit", "rps limit", "throttle", "rate limiting", "request ceiling", "rate cap", "admission limit"]
  }

  config "keepalive_timeout_ms" {
    type        = "int"
    default     = 75000
    low         = 5000
    high        = 120000
    unit        = "ms"
    description = "How long an idle HTTP keep-alive connection from the balancer is kept."
    aka         = ["keepalive timeout", "keep alive timeout", "keepalive", "keep alive"]
  }

  config "cache_host" {
    type        = "string"
    default     = "cache.internal"
    description = "Host name of the cache the application reads through."
    aka         = ["cache host", "cache hostname", "cache endpoint", "cache address", "redis host", "cache_host setting", "cache client", "host name", "hostname"]
  }

  config "health_path" {
    type        = "string"
    default     = "/healthz"
    description = "Path the application answers health probes on."
    aka         = ["health path", "health endpoint path"]
  }

  config "use_cache" {
    type        = "bool"
    default     = true
    description = "Whether reads go through the cache before the database."
    aka         = ["use cache", "cache usage"]
  }

  config "log_level" {
    type        = "string"
    default     = "info"
    description = "Verbosity of the application log."
    aka         = ["log level", "logging level", "verbosity"]
  }

  # ---------------------------------------------------------------- state

  state "up" {
    type        = "bool"
    initial     = true
    description = "The application process is running."
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

  state "leak_rate_mb" {
    type        = "float"
    initial     = 0.0
    unit        = "MB per tick"
    description = "Memory retained and never freed per tick by the running process."
  }

  state "leak_mb" {
    type        = "float"
    initial     = 0.0
    next        = "min(state.leak_mb + state.leak_rate_mb + state.build_leak_mb, 8000.0)"
    unit        = "MB"
    description = "Memory retained so far by the running process."
  }

  state "version" {
    type        = "string"
    initial     = "v2.14.0"
    description = "The application build deployed and running; a change of it is a deploy."
  }

  state "build_error_share" {
    type        = "float"
    initial     = 0.0
    unit        = "ratio"
    description = "Share of checkout requests the running build fails with an unhandled exception."
  }

  state "build_leak_mb" {
    type        = "float"
    initial     = 0.0
    unit        = "MB per tick"
    description = "Memory the running build retains and never frees per tick; a restart starts it over on the same build."
  }

  state "build_boot_fail" {
    type        = "bool"
    initial     = false
    description = "The running build cannot boot its workers (a module its code imports is not in the build); a restart boots the same build."
  }

  state "psp_error_share" {
    type        = "float"
    initial     = 0.0
    unit        = "ratio"
    description = "Share of card authorisations the external payment provider fails on its own side; nothing on this site changes it."
  }

  state "psp_p95_ms" {
    type        = "float"
    initial     = 420.0
    unit        = "ms"
    description = "95th percentile of the card processor's answer time to the payments client, as the processor itself serves it; nothing on this site changes it."
  }

  # The network path from this tier to its database (the client's end of
  # the link): round trips the path adds, and the share of packets it
  # drops. The network team's, not the site's: nothing here changes it.
  state "db_path_delay_ms" {
    type        = "float"
    initial     = 0.0
    unit        = "ms"
    description = "Round-trip time the network path to the database adds beyond the same-rack baseline."
  }

  state "db_path_loss_pct" {
    type        = "float"
    initial     = 0.0
    unit        = "%"
    description = "Share of packets the network path to the database drops."
  }

  state "db_lookup_fail_share" {
    type        = "float"
    initial     = 0.0
    unit        = "ratio"
    description = "Share of the site resolver's answers for the database's name that fail (SERVFAIL or no answer in time); the network team runs the resolvers."
  }

  # The hypervisor the tier's instances run on: CPU time its other guests
  # take from them. A site's hosts show a little.
  state "host_steal_pct" {
    type        = "float"
    initial     = 0.6
    unit        = "%"
    description = "CPU time the hypervisor gives the tier's other guests while the tier's instances wait to run (steal)."
  }

  state "slow_call_ms" {
    type        = "float"
    initial     = 480.0
    unit        = "ms"
    description = "The site's slowest routine upstream calls (reports, exports) at a healthy database: 40 statements' time (480 ms) unless the site serves heavier ones. A deadline below it fails them."
  }

  state "cache_password_version" {
    type        = "int"
    initial     = 41
    description = "Version of the cache's app password the application loaded from the site's secret store at its last reload of secrets."
  }

  state "bad_instance" {
    type        = "int"
    initial     = 0
    description = "Which of the two instances (web-1, web-2) has a full local disk and fails every request it serves while its health endpoint still answers; 0 for none."
  }

  state "healthy_replaced" {
    type        = "bool"
    initial     = false
    description = "An instance that served well was drained and replaced for nothing: the tier ran on one instance while the fresh host warmed up."
  }

  state "mq_password_version" {
    type        = "int"
    initial     = 9
    description = "Version of the broker's app password the application loaded from the site's secret store at its last reload of secrets."
  }

  state "db_password_version" {
    type        = "int"
    initial     = 17
    description = "Version of the database's app password the application loaded from the site's secret store at its last reload of secrets."
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

  state "scraper_floor_rps" {
    type        = "float"
    initial     = 10000.0
    unit        = "requests/s"
    description = "Request rate above which the site's scrapers' bursts start to get through a rate limit set higher (10000 on most sites; a storefront that scrapers watch closely sees them from a few hundred)."
  }

  state "scraper_share" {
    type        = "float"
    initial     = 0.01
    unit        = "ratio"
    description = "Share of the limit's excess over the scraper floor that scrapers' bursts fill once admitted."
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

  # A job retired from the site (its cache ACL user was switched off)
  # whose cron entry was left on the web hosts: every run is refused by
  # the cache with the same reply a stale password gets. Nothing reads
  # what it would have written.
  state "retired_job_auth" {
    type        = "bool"
    initial     = false
    description = "A retired cron job (stock_sync) still runs on the web hosts and authenticates to the cache as an ACL user that was switched off when it was retired; its runs fail and nothing depends on them."
  }

  # ---------------------------------------------------------------- derived

  derived "health_route" {
    type  = "string"
    value = "config.health_path"
  }

  derived "log_level_ok" {
    type        = "bool"
    value       = "config.log_level == \"debug\" || config.log_level == \"info\" || config.log_level == \"warn\" || config.log_level == \"warning\" || config.log_level == \"error\" || config.log_level == \"critical\""
    description = "The application's config loads: it exits at boot on a log level it does not know."
  }

  derived "boot_ok" {
    type        = "bool"
    value       = "log_level_ok && !state.build_boot_fail"
    description = "A worker boots: the config loads and the running build imports."
  }

  derived "serving" {
    type  = "bool"
    value = "state.up && state.restart_ticks == 0 && boot_ok"
  }

  derived "offered_rps" {
    type  = "float"
    value = "lb.forwarded_rps"
    unit  = "requests/s"
  }

  derived "scraper_rps" {
    type        = "float"
    value       = "serving ? state.scraper_share * max(0.0, float(config.rate_limit_rps) - state.scraper_floor_rps) : 0.0"
    unit        = "requests/s"
    description = "Scraper traffic the limiter no longer turns away: scrapers burst above the site's scraper floor (10000 requests/s on most sites) on a few multiplexed connections and back off for good once refused; a higher limit serves a growing share of each burst."
  }

  derived "admitted_rps" {
    type  = "float"
    value = "serving ? min(offered_rps, float(config.rate_limit_rps)) + scraper_rps : 0.0"
    unit  = "requests/s"
  }

  derived "throttled_share" {
    type  = "float"
    value = "offered_rps > 0.0 ? clamp(1.0 - min(offered_rps, float(config.rate_limit_rps)) / offered_rps, 0.0, 1.0) : 0.0"
    unit  = "ratio"
  }

  derived "blocked_workers" {
    type        = "float"
    value       = "admitted_rps * 0.001 * max(0.0, float(config.timeout_ms) - 10000.0) / 1000.0"
    unit        = "workers"
    description = "Workers stuck on upstream calls that never answer (about 1 in 1000: a half-open socket, a lost reply). Each waits out the deadline; the serving rate per worker already allows for waits of up to 10 s."
  }

  derived "cpu_share" {
    type        = "float"
    value       = "1.0 - clamp(state.host_steal_pct - 1.0, 0.0, 90.0) / 100.0"
    unit        = "ratio"
    description = "Share of the CPU time the instances ask for that the hypervisor gives them; steal under 1% is within the headroom the serving rate allows for."
  }

  derived "cpu_capacity_rps" {
    type        = "float"
    value       = "max(float(config.max_workers) - blocked_workers, 1.0) * 32.0 * cpu_share"
    unit        = "requests/s"
    description = "Requests per second the workers' CPU can serve: about 30 ms of CPU a request."
  }

  derived "threads" {
    type        = "float"
    value       = "max(float(config.max_workers) - blocked_workers, 1.0) * 8.0"
    unit        = "threads"
    description = "Request threads free to serve (8 per worker): a request holds one from the moment a worker takes it until it answers."
  }

  # Little's law: requests in service = throughput x time in service, so the
  # threads serve at most threads / service time requests per second.
  derived "capacity_rps" {
    type  = "float"
    value = "min(cpu_capacity_rps, threads * 1000.0 / max(service_ms, 1.0))"
    unit  = "requests/s"
  }

  derived "cpu_utilisation" {
    type  = "float"
    value = "admitted_rps * 2.0 * lb.hot_share / cpu_capacity_rps"
    unit  = "ratio"
  }

  derived "utilisation" {
    type        = "float"
    value       = "admitted_rps * 2.0 * lb.hot_share / capacity_rps"
    unit        = "ratio"
    description = "Load of the busiest half of the workers relative to what they can serve."
  }

  derived "overload_share" {
    type  = "float"
    value = "utilisation > 1.0 ? 1.0 - 1.0 / utilisation : 0.0"
    unit  = "ratio"
  }

  # What reaches the tier's dependencies: the requests its CPU gets to.
  # Requests that wait out their deadline for a thread are counted here
  # too (the database keeps its load while the web tier queues), which
  # keeps the database's load free of a cycle through its own latency.
  derived "served_rps" {
    type  = "float"
    value = "admitted_rps * (cpu_utilisation > 1.0 ? 1.0 / cpu_utilisation : 1.0)"
    unit  = "requests/s"
  }

  derived "cache_reachable" {
    type  = "bool"
    value = "config.use_cache && config.cache_host == \"cache.internal\""
  }

  derived "hit_rate" {
    type  = "float"
    value = "cache_reachable ? cache.hit_rate : 0.0"
    unit  = "ratio"
  }

  derived "cache_rps" {
    type  = "float"
    value = "cache_reachable ? served_rps * 0.8 : 0.0"
    unit  = "requests/s"
  }

  derived "db_share" {
    type        = "float"
    value       = "0.8 * (1.0 - hit_rate) + 0.2"
    unit        = "ratio"
    description = "Share of requests that reach the database (writes plus cache misses)."
  }

  derived "db_qps" {
    type  = "float"
    value = "served_rps * db_share"
    unit  = "queries/s"
  }

  derived "publish_rps" {
    type  = "float"
    value = "max(served_rps - scraper_rps * (cpu_utilisation > 1.0 ? 1.0 / cpu_utilisation : 1.0), 0.0) * 0.1"
    unit  = "messages/s"
  }

  derived "memory_mb" {
    type  = "float"
    value = "state.up ? 400.0 + 20.0 * float(config.max_workers) + state.leak_mb : 0.0"
    unit  = "MB"
  }

  derived "gc_penalty_ms" {
    type  = "float"
    value = "memory_mb > 2048.0 ? (memory_mb - 2048.0) / 2048.0 * 200.0 : 0.0"
    unit  = "ms"
  }

  derived "oom_share" {
    type  = "float"
    value = "clamp((memory_mb - 4096.0) / 2048.0, 0.0, 0.8)"
    unit  = "ratio"
  }

  derived "cache_wait_ms" {
    type  = "float"
    value = "cache_reachable ? cache.latency_ms : (config.use_cache ? 50.0 : 0.0)"
    unit  = "ms"
  }

  derived "db_rtt_ms" {
    type        = "float"
    value       = "database.latency_ms + state.db_path_delay_ms + 12.0 * state.db_path_loss_pct"
    unit        = "ms"
    description = "A database call as this tier waits for it: the server's own time plus what the path adds (delay, and retransmissions of dropped segments: a 200 ms timeout for about 6% of calls per point of loss)."
  }

  derived "db_link_fail_share" {
    type        = "float"
    value       = "serving ? clamp(state.db_path_loss_pct * 0.03, 0.0, 0.6) * db_share : 0.0"
    unit        = "ratio"
    description = "Requests whose new database connection never completes its handshake before the connect timeout: a few percent of calls per point of loss."
  }

  derived "db_lookup_error_share" {
    type        = "float"
    value       = "serving ? clamp(state.db_lookup_fail_share * 0.5, 0.0, 1.0) * db_share : 0.0"
    unit        = "ratio"
    description = "Requests whose new database connection fails because the database's name did not resolve: about half of the calls open a connection, the rest reuse a pooled one."
  }

  derived "payment_wait_ms" {
    type        = "float"
    value       = "serving ? 0.3 * 0.5 * max(state.psp_p95_ms - 420.0, 0.0) : 0.0"
    unit        = "ms"
    description = "Mean extra time a request waits on the card processor (checkout is about 30% of requests; the mean is about half the p95)."
  }

  derived "payment_timeout_share" {
    type        = "float"
    value       = "serving ? 0.3 * clamp((state.psp_p95_ms - 2500.0) / 10000.0, 0.0, 1.0) : 0.0"
    unit        = "ratio"
    description = "Requests whose card authorisation outlasts the payments client's 5 s read timeout."
  }

  # The payments client's call to the card processor as a sampled
  # checkout's trace shows it: most authorisations answer far below the
  # processor's p95 (about a tenth of it while the tail is healthy), a
  # slow tail adds its mean excess, and the client's 5 s read timeout ends
  # the call.
  derived "paylane_call_ms" {
    type        = "float"
    value       = "serving ? min(0.1 * state.psp_p95_ms + 0.5 * max(state.psp_p95_ms - 420.0, 0.0), 5000.0) : 0.0"
    unit        = "ms"
    description = "Time of a sampled checkout's card authorisation call to the card processor, ended by the payments client's 5 s read timeout."
  }

  derived "paylane_call_error_share" {
    type        = "float"
    value       = "serving ? clamp(state.psp_error_share + clamp((state.psp_p95_ms - 2500.0) / 10000.0, 0.0, 1.0), 0.0, 1.0) : 0.0"
    unit        = "ratio"
    description = "Share of card authorisation calls that fail: the processor's errors and the calls that outlast the payments client's 5 s read timeout."
  }

  # The client span's status as OpenTelemetry's HTTP instrumentation sets
  # it (error, with error.type "timeout" for a read timeout), summed up
  # over the tick's checkouts as a service's status is.
  derived "paylane_call_status" {
    type        = "string"
    value       = "!serving ? \"unset\" : (paylane_call_ms >= 5000.0 || (state.psp_p95_ms - 2500.0) / 10000.0 > 0.02 ? \"timeout\" : (state.psp_error_share > 0.02 ? \"error\" : \"ok\"))"
    description = "Status of the card authorisation calls: timeout while more than 2% outlast the read timeout, error while more than 2% fail at the processor, else ok."
  }

  derived "upstream_tail_ms" {
    type        = "float"
    value       = "max(40.0 * db_rtt_ms, state.slow_call_ms * db_rtt_ms / 12.0)"
    unit        = "ms"
    description = "Slowest database calls (reports, exports) one request may wait for: the site's slowest routine calls, slower as every statement slows."
  }

  derived "timeout_share" {
    type  = "float"
    value = "clamp(1.0 - float(config.timeout_ms) / upstream_tail_ms, 0.0, 1.0) * 0.4"
    unit  = "ratio"
  }

  derived "service_ms" {
    type        = "float"
    value       = "serving ? 30.0 / cpu_share + 0.8 * cache_wait_ms + db_share * 4.0 * min(db_rtt_ms, float(config.timeout_ms)) + 0.1 * queue.latency_ms + gc_penalty_ms + payment_wait_ms : 0.0"
    unit        = "ms"
    description = "Mean time a request holds a thread: its CPU time and its waits on the cache, the database, the queue and the card processor."
  }

  # Requests wait in the listen queue for a thread: the wait grows as the
  # busiest workers fill up, and past their capacity the queue holds
  # requests until the deadline, when they are answered 504.
  derived "queue_wait_ms" {
    type        = "float"
    value       = "serving ? (utilisation >= 1.0 ? float(config.timeout_ms) : min(service_ms * max(utilisation - 0.75, 0.0) / (1.02 - utilisation), float(config.timeout_ms))) : 0.0"
    unit        = "ms"
    description = "Mean time a request waits in the listen queue before a thread takes it."
  }

  derived "queued_requests" {
    type        = "float"
    value       = "admitted_rps * queue_wait_ms / 1000.0"
    unit        = "requests"
    description = "Requests waiting in the listen queue (arrivals times their wait)."
  }

  derived "latency_ms" {
    type        = "float"
    value       = "serving ? queue_wait_ms + (1.0 - overload_share) * service_ms : 0.0"
    unit        = "ms"
    description = "Mean time from arrival to answer: the queue wait, then the service time for the requests a thread takes (those that time out in the queue end at the deadline)."
  }

  derived "idle_sockets" {
    type        = "float"
    value       = "32.0 * float(config.keepalive_timeout_ms) / 1000.0"
    unit        = "sockets"
    description = "Keep-alive connections idling open: about 32 connections/s finish their last request and stay open for the keep-alive window."
  }

  derived "fds_wanted" {
    type        = "float"
    value       = "idle_sockets + 256.0"
    unit        = "file descriptors"
    description = "Descriptors the server wants: idle keep-alive sockets plus 256 for listeners, upstream pools, logs and active requests. The process may open 4096."
  }

  derived "accept_fail_share" {
    type        = "float"
    value       = "clamp(1.0 - 4096.0 / fds_wanted, 0.0, 1.0) * 0.1"
    unit        = "ratio"
    description = "Requests lost because their new connection could not be accepted (about 10% of requests arrive on a new connection)."
  }

  derived "session_lost_share" {
    type        = "float"
    value       = "cache_reachable ? cache.session_loss_share : 0.0"
    unit        = "ratio"
    description = "Requests refused because the user's session is no longer in the cache."
  }

  derived "stale_read_share" {
    type        = "float"
    value       = "cache_reachable ? 0.8 * hit_rate * cache.purged_share : 0.0"
    unit        = "ratio"
    description = "Requests failing on a cached entry that refers to a purged row."
  }

  derived "dependency_error_share" {
    type  = "float"
    value = "db_share * database.error_rate + 0.1 * queue.error_rate"
    unit  = "ratio"
  }

  derived "checkout_error_share" {
    type        = "float"
    value       = "serving ? 0.3 * state.build_error_share : 0.0"
    unit        = "ratio"
    description = "Requests failing in the running build's checkout handler (checkout is about 30% of requests)."
  }

  derived "payment_error_share" {
    type        = "float"
    value       = "serving ? 0.3 * state.psp_error_share : 0.0"
    unit        = "ratio"
    description = "Requests failing because the payment provider refused their card authorisation (checkout is about 30% of requests)."
  }

  derived "tls_ok" {
    type        = "bool"
    value       = "state.cert_not_after_min > state.clock_min"
    description = "The certificate the application serves to the balancer (TLS to the backends) is current; the balancer verifies it."
  }

  derived "mq_credential_version" {
    type        = "int"
    value       = "state.mq_password_version"
    description = "The broker password version the application presents when it publishes."
  }

  derived "db_credential_version" {
    type        = "int"
    value       = "state.db_password_version"
    description = "The database password version the application presents."
  }

  derived "cache_credential_version" {
    type        = "int"
    value       = "state.cache_password_version"
    description = "The cache password version the application presents."
  }

  derived "bad_instance_share" {
    type        = "float"
    value       = "serving && state.bad_instance > 0 ? 0.5 : 0.0"
    unit        = "ratio"
    description = "Requests the balancer sends to an instance that fails them: half, as both stay in rotation."
  }

  derived "error_rate" {
    type  = "float"
    value = "serving ? clamp(throttled_share + overload_share + timeout_share + dependency_error_share + oom_share + accept_fail_share + stale_read_share + checkout_error_share + bad_instance_share + payment_error_share + db_link_fail_share + payment_timeout_share + db_lookup_error_share + session_lost_share, 0.0, 1.0) : 1.0"
    unit  = "ratio"
  }

  derived "client_error_share" {
    type        = "float"
    value       = "serving ? clamp(throttled_share + session_lost_share, 0.0, 1.0) : 0.0"
    unit        = "ratio"
    description = "Requests answered with a client error: 429 from the rate limiter, 403 for a session the cache no longer holds."
  }

  derived "timeout_error_share" {
    type        = "float"
    value       = "serving ? min(overload_share + timeout_share + payment_timeout_share, max(error_rate - client_error_share, 0.0)) : 0.0"
    unit        = "ratio"
    description = "Requests answered 504 Gateway Timeout: they waited out the deadline in the listen queue, an upstream call outlasted timeout_ms, or the card processor outlasted the payments client's read timeout."
  }

  # ---------------------------------------------------------------- metrics

  metric "request_rate" {
    type      = "float"
    value     = "admitted_rps"
    unit      = "requests/s"
    precision = 1
    low       = 50
    high      = 5000
  }

  metric "error_rate_5xx" {
    type        = "float"
    value       = "admitted_rps > 0.0 ? max(error_rate - client_error_share, 0.0) : 0.0"
    unit        = "ratio"
    precision   = 3
    low         = 0
    high        = 0.02
    description = "Share of requests answered with a server error (5xx)."
  }

  metric "error_rate_504" {
    type        = "float"
    value       = "admitted_rps > 0.0 ? timeout_error_share : 0.0"
    unit        = "ratio"
    precision   = 3
    low         = 0
    high        = 0.02
    description = "Share of requests answered 504 Gateway Timeout (counted in error_rate_5xx): the deadline passed in the listen queue, on an upstream call or on the card processor."
  }

  metric "error_rate_4xx" {
    type        = "float"
    value       = "admitted_rps > 0.0 ? min(client_error_share, error_rate) : 0.0"
    unit        = "ratio"
    precision   = 3
    low         = 0
    high        = 0.05
    description = "Share of requests answered with a client error (4xx: 429 from the rate limiter, 403 and the like)."
  }

  metric "p95_latency_ms" {
    type      = "float"
    value     = "latency_ms * 2.0"
    unit      = "ms"
    precision = 1
    low       = 0
    high      = 150
  }

  metric "paylane_api_error_rate" {
    type        = "float"
    value       = "serving ? state.psp_error_share : 0.0"
    unit        = "ratio"
    precision   = 3
    low         = 0
    high        = 0.02
    description = "Share of calls to the card processor's API (api.paylane.example) that returned an error."
  }

  metric "paylane_api_p95_ms" {
    type        = "float"
    value       = "serving ? state.psp_p95_ms : 0.0"
    unit        = "ms"
    precision   = 0
    low         = 0
    high        = 1500
    description = "95th percentile time of calls to the card processor's API (api.paylane.example)."
  }

  metric "worker_utilization" {
    type      = "float"
    value     = "min(utilisation, 1.0)"
    unit      = "ratio"
    precision = 2
    low       = 0
    high      = 0.85
  }

  # The listen socket's Recv-Q (ss -lnt): connections accepted by the
  # kernel that no worker thread has taken yet.
  metric "listen_queue" {
    type        = "float"
    value       = "queued_requests"
    unit        = "requests"
    precision   = 0
    low         = 0
    high        = 50
    description = "Requests waiting in the listen queue for a worker thread."
  }

  # node_exporter's node_cpu_seconds_total{mode="steal"}, as a share of
  # the instances' CPU time: the host's, shown with the service.
  metric "cpu_steal_pct" {
    type        = "float"
    value       = "state.host_steal_pct"
    unit        = "%"
    precision   = 1
    low         = 0
    high        = 5
    description = "Share of CPU time the hypervisor gave other guests while the instances were ready to run (steal)."
  }

  metric "memory_rss_mb" {
    type      = "float"
    value     = "memory_mb"
    unit      = "MB"
    precision = 0
    low       = 0
    high      = 1800
    noise     = "slow"
  }

  metric "gc_pause_ms" {
    type      = "float"
    value     = "serving ? 8.0 + gc_penalty_ms + (state.cosmetic_metric ? 34.0 : 0.0) : 0.0"
    unit      = "ms"
    precision = 1
    low       = 0
    high      = 60
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
  status "degraded" { when = "error_rate > 0.05 || latency_ms > 100.0 || memory_mb > 3500.0" }

  # ---------------------------------------------------------------- logs

  # gunicorn gunicorn/glogging.py (access log, access_log_format)
  log "request_ok" {
    level = "INFO"
    when  = "serving && admitted_rps > 0.0"
    text  = "10.0.1.4 - - \"GET /checkout HTTP/1.1\" 200 5214 \"-\" \"Mozilla/5.0\" request_id={@req} {int(latency_ms)}ms app={state.version}"
  }

  # gunicorn gunicorn/workers/base.py (handle_error: "Error handling request %s %s") with the traceback's last line
  log "checkout_exception" {
    level = "ERROR"
    when  = "serving && checkout_error_share > 0.001"
    text  = "[{@pid}] [ERROR] Error handling request POST /checkout request_id={@req} app={state.version}: KeyError: 'currency' (cart/pricing.py, line 212, in apply_promotions)"
  }

  # The provider's own answer, as a payments client logs it: the status
  # and the provider's request id, never why.
  log "payment_upstream_error" {
    level = "ERROR"
    when  = "serving && payment_error_share > 0.001"
    text  = "POST /checkout 502: upstream api.paylane.example POST /v1/charges answered 503 Service Unavailable in 41ms (req_8Jd2kQ)"
  }

  # requests' ReadTimeout text (urllib3 "Read timed out. (read timeout=%s)") as a payments client logs it
  log "payment_read_timeout" {
    level = "ERROR"
    when  = "serving && payment_timeout_share > 0.001"
    text  = "POST /checkout 504: upstream api.paylane.example POST /v1/charges: requests.exceptions.ReadTimeout: HTTPSConnectionPool(host='api.paylane.example', port=443): Read timed out. (read timeout=5)"
  }

  # The payments client's own timing line for a call that answered.
  log "payment_slow_answer" {
    level = "WARN"
    when  = "serving && state.psp_p95_ms > 1500.0"
    text  = "paylane: POST /v1/charges answered 201 Created in {int(state.psp_p95_ms * 0.8)}ms (req_{@req})"
  }

  # gunicorn gunicorn/glogging.py (access log)
  log "request_ok_2" {
    level = "INFO"
    when  = "serving && error_rate <= 0.02"
    text  = "10.0.1.4 - - \"GET / HTTP/1.1\" 200 18342 \"-\" \"Mozilla/5.0\" request_id={@req} {int(latency_ms * 0.6)}ms"
  }

  # gunicorn gunicorn/glogging.py (access log)
  log "throttled" {
    level = "WARN"
    when  = "serving && throttled_share > 0.01"
    text  = "10.0.1.4 - - \"POST /checkout HTTP/1.1\" 429 61 \"-\" \"Mozilla/5.0\" request_id={@req} 0ms"
  }

  # gunicorn gunicorn/glogging.py (access log; request time above the usual)
  log "workers_busy" {
    level = "WARN"
    when  = "serving && utilisation > 0.85 && utilisation <= 1.0"
    text  = "10.0.1.4 - - \"GET /orders HTTP/1.1\" 200 9120 \"-\" \"Mozilla/5.0\" request_id={@req} {int(latency_ms * 1.5)}ms"
  }

  # gunicorn gunicorn/glogging.py (access log)
  log "workers_overflow" {
    level = "ERROR"
    when  = "serving && utilisation > 1.0"
    text  = "10.0.1.4 - - \"GET /orders HTTP/1.1\" 504 0 \"-\" \"Mozilla/5.0\" request_id={@req} {config.timeout_ms}ms"
  }

  # gunicorn gunicorn/workers/base.py ("Error handling request %s %s"); CPython Lib/socket.py (socket.timeout: "timed out")
  log "upstream_deadline" {
    level = "ERROR"
    when  = "serving && timeout_share > 0.01"
    text  = "[{@pid}] [ERROR] Error handling request GET /orders request_id={@req}: socket.timeout: timed out (elapsed {config.timeout_ms}ms)"
  }

  # gunicorn gunicorn/arbiter.py ("WORKER TIMEOUT (pid:%s)")
  log "upstream_hung" {
    level = "WARN"
    when  = "serving && blocked_workers >= 0.5"
    text  = "[{@pid}] [CRITICAL] WORKER TIMEOUT (pid:{@pid})"
  }

  # gunicorn gunicorn/glogging.py (access log)
  log "scraper" {
    level = "WARN"
    when  = "serving && scraper_rps >= 1.0"
    text  = "203.0.113.57 - - \"GET /products?page={@port} HTTP/1.1\" 200 48211 \"-\" \"Scrapy/2.11 (+https://scrapy.org)\" request_id={@req} {int(latency_ms)}ms"
  }

  # gunicorn gunicorn/workers/sync.py / Python socket: OSError [Errno 24]
  log "accept_emfile" {
    level = "ERROR"
    when  = "serving && accept_fail_share > 0.001"
    text  = "[{@pid}] [ERROR] Error in accept(): [Errno 24] Too many open files"
  }

  # gunicorn gunicorn/workers/base.py ("Error handling request %s %s"); PostgreSQL src/backend/utils/adt/ri_triggers.c (ri_ReportViolation) as psycopg2 raises it

  log "purged_row" {
    level = "ERROR"
    when  = "serving && stale_read_share > 0.001"
    text  = "[{@pid}] [ERROR] Error handling request POST /checkout request_id={@req}: psycopg2.errors.ForeignKeyViolation: insert or update on table \"order_items\" violates foreign key constraint \"order_items_product_id_fkey\" DETAIL:  Key (product_id)=(4411) is not present in table \"products\"."
  }

  # gunicorn gunicorn/workers/base.py; libpq fe-connect.c ("connection to server at \"%s\" (%s), port %s failed: " + "timeout expired") as psycopg2 raises it
  log "db_connect_timeout" {
    level = "ERROR"
    when  = "serving && db_link_fail_share > 0.001"
    text  = "[{@pid}] [ERROR] Error handling request GET /orders request_id={@req}: psycopg2.OperationalError: connection to server at \"db.internal\" (10.0.4.10), port 5432 failed: timeout expired"
  }

  # gunicorn gunicorn/workers/base.py; libpq fe-connect.c ("could not translate host name \"%s\" to address: %s", gai_strerror(EAI_AGAIN)) as psycopg2 raises it
  log "db_name_unresolved" {
    level = "ERROR"
    when  = "serving && db_lookup_error_share > 0.001"
    text  = "[{@pid}] [ERROR] Error handling request GET /orders request_id={@req}: psycopg2.OperationalError: could not translate host name \"db.internal\" to address: Temporary failure in name resolution"
  }

  # gunicorn gunicorn/glogging.py (access log): database calls slower than the server's own time
  log "db_calls_slow" {
    level = "WARN"
    when  = "serving && db_rtt_ms - database.latency_ms > 15.0"
    text  = "10.0.1.4 - - \"GET /orders HTTP/1.1\" 200 9120 \"-\" \"Mozilla/5.0\" request_id={@req} {int(latency_ms)}ms"
  }

  # gunicorn gunicorn/workers/base.py ("Error handling request %s %s"); psycopg2 OperationalError text from libpq (fe-misc.c: "server closed the connection unexpectedly")
  log "db_errors" {
    level = "ERROR"
    when  = "serving && database.error_rate > 0.02"
    text  = "[{@pid}] [ERROR] Error handling request GET /orders request_id={@req}: psycopg2.OperationalError: server closed the connection unexpectedly"
  }

  # gunicorn gunicorn/glogging.py (access log)
  log "db_slow" {
    level = "WARN"
    when  = "serving && database.latency_ms > 40.0"
    text  = "10.0.1.4 - - \"GET /orders HTTP/1.1\" 200 9120 \"-\" \"Mozilla/5.0\" request_id={@req} {int(latency_ms)}ms"
  }

  # redis-py redis/connection.py ("Error %s connecting to %s:%s. %s.")
  log "cache_lookup_failed" {
    level = "ERROR"
    when  = "serving && config.use_cache && config.cache_host != \"cache.internal\""
    text  = "[{@pid}] [ERROR] request_id={@req} redis.exceptions.ConnectionError: Error -2 connecting to {config.cache_host}:6379. Name or service not known."
  }

  # redis-py redis/connection.py ("Error %s connecting to %s:%s. %s.")
  log "cache_unavailable" {
    level = "ERROR"
    when  = "serving && cache_reachable && (cache.status == \"down\" || cache.status == \"restarting\")"
    text  = "[{@pid}] [ERROR] request_id={@req} redis.exceptions.ConnectionError: Error 111 connecting to cache.internal:6379. Connection refused."
  }

  # src/acl.c (the -WRONGPASS reply) as redis-py raises it
  log "cache_rejected" {
    level = "ERROR"
    when  = "serving && cache_reachable && cache.error_rate > 0.05 && cache.status != \"down\" && cache.status != \"restarting\" && !cache.auth_ok"
    text  = "[{@pid}] [ERROR] request_id={@req} redis.exceptions.AuthenticationError: WRONGPASS invalid username-password pair or user is disabled."
  }

  # The client's reconnect line quotes the credential it holds, as the
  # app's secrets loader logs it; the error itself is the library's own.
  log "cache_auth_version" {
    level = "INFO"
    when  = "serving && cache_reachable && cache.serving && !cache.auth_ok"
    text  = "secrets: reconnecting to cache.internal:6379 as app with cache/app-password (version {state.cache_password_version}, loaded at worker boot)"
  }

  log "mq_auth_version" {
    level = "ERROR"
    when  = "serving && queue.serving && !queue.publish_auth_ok"
    text  = "pika.exceptions.ProbableAuthenticationError: (403) 'ACCESS_REFUSED - Login was refused using authentication mechanism PLAIN'; job not published"
  }

  log "mq_auth_reconnect" {
    level = "INFO"
    when  = "serving && queue.serving && !queue.publish_auth_ok"
    text  = "secrets: reconnecting to 10.0.6.5:5672 as app with mq/app-password (version {state.mq_password_version}, loaded at worker boot)"
  }

  log "db_auth_version" {
    level = "ERROR"
    when  = "serving && database.serving && !database.web_auth_ok"
    text  = "psycopg.OperationalError: connection to server at \"db.internal\" (10.0.4.10), port 5432 failed: FATAL:  password authentication failed for user \"app\""
  }

  log "db_auth_reconnect" {
    level = "INFO"
    when  = "serving && database.serving && !database.web_auth_ok"
    text  = "secrets: reconnecting to db.internal:5432 as app with db/app-password (version {state.db_password_version}, loaded at worker boot)"
  }

  log "cache_tls_failed" {
    level = "ERROR"
    when  = "serving && cache_reachable && cache.serving && !cache.tls_ok"
    text  = "cache client: Error 1 connecting to cache.internal:6380. [SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: certificate has expired (_ssl.c:1006); falling through to database"
  }

  # gunicorn gunicorn/glogging.py (access log)
  log "cache_lookups_off" {
    level = "INFO"
    when  = "serving && !config.use_cache"
    text  = "10.0.1.4 - - \"GET /products/4411 HTTP/1.1\" 200 3310 \"-\" \"Mozilla/5.0\" request_id={@req} {int(latency_ms)}ms"
  }

  # A publish fails the way pika reports its cause (pika/exceptions.py):
  # the broker down refuses the connection (pika's connection workflow),
  # a full queue with reject-publish nacks the confirm (NackError), and a
  # resource alarm blocks the connection until blocked_connection_timeout
  # (ConnectionBlockedTimeout). A refused login has its own lines above.
  log "publish_refused" {
    level = "ERROR"
    when  = "serving && !queue.serving"
    text  = "[{@pid}] [ERROR] request_id={@req} job publish failed: pika.exceptions.AMQPConnectionError: AMQPConnectionWorkflowFailed: 1 exceptions in all; last exception - AMQPConnectorSocketConnectError: ConnectionRefusedError(111, 'Connection refused'); first exception - None"
  }

  log "publish_nacked" {
    level = "ERROR"
    when  = "serving && queue.serving && queue.publish_auth_ok && queue.nack_share > 0.01"
    text  = "[{@pid}] [ERROR] request_id={@req} job publish failed: pika.exceptions.NackError: 1 message(s) NACKed"
  }

  log "publish_blocked" {
    level = "ERROR"
    when  = "serving && queue.serving && queue.publish_auth_ok && queue.blocked_share > 0.01"
    text  = "[{@pid}] [ERROR] request_id={@req} job publish failed: pika.exceptions.ConnectionBlockedTimeout"
  }

  # Python gc callbacks as an app logs them
  log "gc_pressure" {
    level = "WARN"
    when  = "serving && memory_mb > 2048.0"
    text  = "[{@pid}] [WARNING] gc: collection of generation 2 took {int(8.0 + gc_penalty_ms)}ms, rss={int(memory_mb)}MB"
  }

  # gunicorn gunicorn/arbiter.py ("Worker (pid:%s) was sent %s!"); Linux mm/oom_kill.c
  log "oom_kill" {
    level = "ERROR"
    when  = "serving && oom_share > 0.0"
    text  = "[{@pid}] [ERROR] Worker (pid:{@pid}) was sent SIGKILL! Perhaps out of memory?"
  }

  # supervisord supervisor/process.py ("exited: %s (%s)")
  log "process_exit" {
    level = "ERROR"
    when  = "!state.up"
    text  = "supervisord: exited: gunicorn (exit status {state.exit_code}; not expected)"
  }

  log "boot_failed" {
    level = "ERROR"
    when  = "state.up && state.restart_ticks == 0 && !log_level_ok"
    text  = "[ERROR] Exception in worker process: ValueError: Unknown level: '{config.log_level}'; Worker failed to boot. supervisord: exited: app (exit status 3; not expected), spawned again (attempt {state.boot_attempts})"
  }

  # gunicorn gunicorn/arbiter.py ("Worker (pid:%s) exited with code %s", "Shutting down: %s", "Reason: %s"), CPython import traceback
  log "build_boot_failed" {
    level = "ERROR"
    when  = "state.up && state.restart_ticks == 0 && log_level_ok && state.build_boot_fail"
    text  = "[{@pid}] [ERROR] Worker (pid:{@pid}) exited with code 3:  File \"/srv/shop/{state.version}/shop/pricing/__init__.py\", line 7, in <module>  from shop.pricing.rules_v2 import apply_rules  ModuleNotFoundError: No module named 'shop.pricing.rules_v2'  [ERROR] Shutting down: Master  [ERROR] Reason: Worker failed to boot.  supervisord: exited: app (exit status 3; not expected), spawned again (attempt {state.boot_attempts})"
  }

  log "instance_disk_full" {
    level = "ERROR"
    when  = "serving && state.bad_instance > 0"
    text  = "[web-{state.bad_instance}] OSError: [Errno 28] No space left on device: '/var/lib/app/tmp/upload-7f3a'; \"POST /checkout HTTP/1.1\" 500; \"GET {config.health_path} HTTP/1.1\" 200"
  }

  log "tls_handshake_rejected" {
    level = "ERROR"
    when  = "serving && !tls_ok"
    text  = "[ERROR] ssl.SSLError: [SSL] handshake failure: peer 10.0.1.5 sent TLS alert 45 (_ssl.c:2580)"
  }

  # gunicorn gunicorn/arbiter.py ("Booting worker with pid: %s")
  log "starting" {
    level = "INFO"
    when  = "state.up && state.restart_ticks > 0"
    text  = "[{@pid}] [INFO] Booting worker with pid: {@pid}"
  }

  # CPython Lib/datetime.py DeprecationWarning text
  log "cosmetic" {
    level = "WARN"
    when  = "serving && state.cosmetic_warning"
    text  = "[{@pid}] [WARNING] DeprecationWarning: datetime.datetime.utcnow() is deprecated and scheduled for removal in a future version."
  }

  # django/middleware/csrf.py (REASON_CSRF_TOKEN_MISSING, logged by django.security.csrf) with sessions in the cache
  log "session_lost" {
    level = "WARN"
    when  = "serving && session_lost_share > 0.0"
    text  = "[{@pid}] [WARNING] django.security.csrf: Forbidden (CSRF token missing.): /checkout request_id={@req} session_key={@hex} not in cache.internal:6379"
  }

  # src/acl.c (the -WRONGPASS reply, also for a user switched off) as
  # redis-py raises it, from a cron job's runner
  log "retired_job_refused" {
    level = "ERROR"
    when  = "serving && state.retired_job_auth"
    text  = "[{@pid}] [ERROR] cron stock_sync run={@hex}: redis.exceptions.AuthenticationError: WRONGPASS invalid username-password pair or user is disabled."
  }

  restart {
    up            = true
    restart_ticks = 3
    exit_code     = 0
    leak_mb       = 0.0
    leak_rate_mb  = 0.0
  }

  # A rollback redeploys the previous build worker by worker: no outage,
  # fresh processes, none of the build's defects.
  rollback {
    leak_mb           = 0.0
    build_error_share = 0.0
    build_leak_mb     = 0.0
    build_boot_fail   = false
  }

  operation "renew_certificate" {
    description = "Issue a certificate for the listener's names from the site's CA, valid for 90 days, and load it without dropping connections."
    aka         = ["renewed the certificate", "renewed the tls certificate", "renewed the cert", "installed a renewed certificate", "installed a new certificate", "replaced the certificate", "reissued the certificate"]
    set {
      cert_not_after_min = "state.clock_min + 129600"
    }
  }

  # Replacing an instance drains it from the balancer, starts a fresh one
  # on a new host and puts that in rotation: its local disk starts empty.
  # The responder names the instance (web-1 or web-2), as the logs and the
  # balancer's server lines name it. Replacing the failing one frees its
  # disk; replacing a healthy one halves the tier's capacity while the
  # fresh host warms up, for nothing; a name the tier has not changes
  # nothing.
  operation "replace_instance" {
    description = "Drain the named instance from rotation, replace it with a fresh one on a new host, and put that in rotation. The other instances keep serving."
    args        = ["instance"]
    aka         = ["replaced the failing instance", "replaced the bad instance", "replaced web 2", "replaced web 1", "drained the bad instance", "drained the failing instance", "drained and replaced", "recycled the bad instance", "replaced the instance", "drained web 2", "drained web 1"]
    set {
      bad_instance     = "(arg.instance == \"web-1\" && state.bad_instance == 1) || (arg.instance == \"web-2\" && state.bad_instance == 2) ? 0 : state.bad_instance"
      healthy_replaced = "state.healthy_replaced || (arg.instance == \"web-1\" && state.bad_instance != 1) || (arg.instance == \"web-2\" && state.bad_instance != 2)"
    }
  }

  # Live migration moves each instance to a host of the pool with room
  # to spare; connections stay up.
  operation "migrate_instance" {
    description = "Live-migrate the service's instances, one at a time, to other hosts of the pool that have CPU to spare; connections stay up."
    aka         = ["migrated the instances", "migrated the instance", "migrated to another host", "migrated them to another host", "moved the instances to another host", "moved to another host", "moved off the host", "live migrated", "live-migrated", "rescheduled on another host", "moved the vms", "migrated the vms"]
    set {
      host_steal_pct = "0.6"
    }
  }

  # Secrets are read from the site's store at a reload; a client that
  # missed a rotation keeps presenting the old version until then.
  operation "reload_secrets" {
    description = "Re-read the service's credentials from the site's secret store (the newest version of each) and reconnect with them, without a restart."
    aka         = ["reloaded the secrets", "reloaded secrets", "reloaded the credentials", "reloaded the password", "picked up the new password", "picked up the rotated password", "synced the secret", "synced the password"]
    set {
      cache_password_version = "cache.acl_version"
      db_password_version    = "database.password_version"
      mq_password_version    = "queue.vhost_version"
    }
  }

  trace {
    latency    = "latency_ms"
    error_rate = "error_rate"

    # OpenTelemetry's HTTP client span of the payments client's call to the
    # card processor: the processor is outside the site, so its only span
    # is the call as this tier makes it.
    span "card_authorization" {
      kind       = "client"
      name       = "POST api.paylane.example/v1/authorizations"
      latency    = "paylane_call_ms"
      error_rate = "paylane_call_error_share"
      status     = "paylane_call_status"
    }
  }
}
