# srezc's own grading profile. Components name the service kinds; mechanisms
# are the closed vocabulary a diagnosis is matched against. Phrases match
# whole words, case-insensitively, punctuation read as spaces. Mechanisms are
# matched first and their words masked, so "cache host" names the mechanism
# without blaming the cache. No phrase of one mechanism contains a phrase of
# another.

rubric "native" {
  description = "srezc's own grading: evidence, diagnosis, mitigation, resolution and efficiency, with penalties."

  weights {
    evidence   = 0.15
    diagnosis  = 0.25
    mitigation = 0.25
    resolution = 0.20
    efficiency = 0.15
  }

  penalties {
    invalid_action          = -0.05
    repeated_invalid_action = -0.10
    repeated_useless_action = -0.05
    wrong_change            = -0.15
    restart_healthy         = -0.10
    distractor_action       = -0.10
    premature_resolution    = -0.20
  }

  # ------------------------------------------------------------ components

  component "database" {
    phrases = ["database", "db", "postgres", "postgresql", "sql"]
  }

  component "web_server" {
    phrases = ["web server", "webserver", "web", "api", "app server", "application server", "application", "app"]
  }

  component "cache" {
    phrases = ["cache", "redis", "memcached"]
  }

  component "message_queue" {
    phrases = ["message queue", "queue", "mq", "broker", "rabbitmq"]
  }

  component "load_balancer" {
    phrases = ["load balancer", "loadbalancer", "lb", "balancer", "proxy", "haproxy", "nginx"]
  }

  # ------------------------------------------------------------ mechanisms

  mechanism "process_crashed" {
    description = "The process is not running."
    phrases     = ["crashed", "crash", "crashes", "process died", "process exited", "not running"]
  }

  mechanism "memory_leak" {
    description = "The running process retains memory it never frees until it is restarted."
    phrases     = ["memory leak", "leaking memory", "leak", "leaking", "leaks"]
  }

  mechanism "connection_pool_exhausted" {
    description = "Too few pooled connections for the load: callers wait for a connection and time out."
    phrases     = ["connection pool", "pool exhausted", "pool exhaustion", "pool too small", "pool undersized", "pool size", "pool saturation", "pool saturated"]
  }

  mechanism "connection_limit_exceeded" {
    description = "A connection limit is below what clients open, so connections are refused."
    phrases     = ["connection limit", "connections limit", "max connections", "maximum connections", "too many connections", "pool too large", "pool oversized"]
  }

  mechanism "worker_pool_misconfigured" {
    description = "The application's worker count is wrong for the load: too few saturate, too many exhaust memory."
    phrases     = ["worker pool", "max workers", "worker count", "too few workers", "too many workers", "worker saturation", "workers saturated", "worker starvation"]
  }

  mechanism "timeout_too_low" {
    description = "A request, statement or idle deadline is shorter than normal work takes, so work is cut off."
    phrases     = ["request timeout", "query timeout", "upstream timeout", "idle timeout", "deadline too short", "timeout misconfigured"]
  }

  mechanism "rate_limited" {
    description = "A rate limit below normal traffic rejects legitimate requests."
    phrases     = ["rate limit", "rate limiting", "rate limited", "throttling", "throttled"]
  }

  mechanism "health_check_misconfigured" {
    description = "Health probes fail against healthy backends, which are taken out of rotation."
    phrases     = ["health check", "healthcheck", "health probe", "probe path", "health endpoint"]
  }

  mechanism "tls_certificate_expired" {
    description = "The listener presents an expired certificate; clients abort the handshake."
    phrases     = ["tls certificate", "ssl certificate", "certificate expired", "expired certificate", "tls cert", "expired cert", "cert expired"]
  }

  mechanism "sticky_session_hotspot" {
    description = "Client affinity concentrates traffic on one backend, which saturates while others idle."
    phrases     = ["sticky sessions", "sticky session", "session affinity", "hotspot", "hot spot", "uneven load", "load imbalance"]
  }

  mechanism "read_path_bypassed" {
    description = "Lookups do not reach the cache (wrong host name), so every read goes to the origin."
    phrases     = ["wrong host", "wrong hostname", "host misconfigured", "hostname misconfigured", "unresolvable host", "bypassed", "bypassing", "cache host", "wrong cache host", "cache hostname", "cache bypassed", "cache bypass"]
  }

  mechanism "maintenance_mode" {
    description = "An administrative restriction left in place rejects client connections."
    phrases     = ["maintenance mode", "maintenance", "admin only mode"]
  }

  mechanism "missing_index" {
    description = "A query's index is missing or disabled, so it scans the whole table."
    phrases     = ["missing index", "index disabled", "dropped index", "no index", "invalid index", "full table scan", "sequential scan", "unindexed"]
  }

  mechanism "read_replica_disabled" {
    description = "Reads are not offloaded to the replica and overload the primary."
    phrases     = ["read replica", "replica disabled", "replica", "replicas", "replication disabled"]
  }

  mechanism "autovacuum_disabled" {
    description = "Dead row versions accumulate because background vacuuming is off, slowing every scan."
    phrases     = ["autovacuum", "vacuum", "vacuuming", "table bloat", "dead tuples", "bloat"]
  }

  mechanism "memory_eviction" {
    description = "The data does not fit in the memory allowed (limit too low, or values stored uncompressed), so keys are evicted."
    phrases     = ["memory limit", "max memory", "maxmemory", "eviction storm", "evictions", "evicting", "compression", "memory too low"]
  }

  mechanism "auth_token_expired" {
    description = "The credential clients present is no longer accepted."
    phrases     = ["auth token", "authentication", "token expired", "expired token", "credentials", "credential", "auth failure"]
  }

  mechanism "ttl_too_low" {
    description = "Entries expire before they are reused, so the hit rate collapses."
    phrases     = ["ttl", "time to live", "expire too quickly", "short expiry", "expiry too short"]
  }

  mechanism "consumer_capacity_low" {
    description = "Too few consumers for the arrival rate: the backlog grows."
    phrases     = ["consumer concurrency", "too few consumers", "not enough consumers", "consumer pool", "consumer count", "consumers too low"]
  }

  mechanism "retry_storm" {
    description = "Failing jobs are retried so many times that retries crowd out real work."
    phrases     = ["retry storm", "retry limit", "too many retries", "excessive retries", "poison message", "poison messages"]
  }

  mechanism "disk_full" {
    description = "The data volume is full, so statements that write fail."
    phrases     = ["disk full", "disk is full", "out of disk", "disk space", "volume full", "volume is full", "wal retention", "retained wal", "wal keep size"]
  }

  mechanism "backend_weight_skewed" {
    description = "The balancer's backend weights send most traffic to one web backend."
    phrases     = ["backend weight", "backend weights", "uneven weights", "skewed weights", "weights skewed", "unbalanced weights", "weighting"]
  }

  mechanism "deduplication_disabled" {
    description = "The broker queues every republished copy of a job, so a long queue feeds itself."
    phrases     = ["deduplication disabled", "deduplication off", "dedup disabled", "dedup off", "no deduplication", "duplicate publishes", "republished copies", "duplicate messages"]
  }

  mechanism "premature_redelivery" {
    description = "Deliveries become visible again before consumers finish them, so jobs are processed twice."
    phrases     = ["visibility timeout", "redelivery", "redeliveries", "redelivered", "duplicate deliveries", "duplicate processing"]
  }
}
