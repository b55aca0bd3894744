# Benign changes: the tuning a healthy site makes week after week. The
# compiler draws two to six per incident (never on a key a fault, remedy or
# distractor of the incident touches), applies them to the site, and lists
# them in the change history (list_changes) beside any fault's change. So a
# value that differs from the docs, or a recent change, is not by itself a
# fault; certification proves every draw harmless. Every value lies inside
# its key's healthy band and differs from the docs. The actors of the
# changes that apply to a kind are who changes that kind, a fault's change
# included.

benign_change "web_deploy" {
  description = "A routine application release: the site deploys several a week."
  applies_to  = ["web_server"]
  key         = "version"
  values      = ["v2.14.1", "v2.14.2", "v2.15.0"]
  actors      = ["deploy-bot", "platform-ci"]
}

benign_change "mq_consumer_deploy" {
  description = "A routine release of the job consumers."
  applies_to  = ["message_queue"]
  key         = "version"
  values      = ["v4.3.1", "v4.4.0"]
  actors      = ["deploy-bot", "platform-ci"]
}

benign_change "web_log_level" {
  description = "Application log verbosity changed while chasing an unrelated question."
  applies_to  = ["web_server"]
  key         = "log_level"
  values      = ["debug", "warn"]
  actors      = ["m.okafor", "deploy-bot"]
}

benign_change "web_keepalive" {
  description = "Client keep-alive retuned."
  applies_to  = ["web_server"]
  key         = "keepalive_timeout_ms"
  values      = [60000, 90000]
  actors      = ["platform-ci", "m.okafor"]
}

benign_change "web_rate_limit" {
  description = "Per-instance request ceiling raised ahead of a campaign."
  applies_to  = ["web_server"]
  key         = "rate_limit_rps"
  values      = [3000, 4000, 5000]
  actors      = ["deploy-bot"]
}

benign_change "cache_ttl" {
  description = "Cache entry lifetime lengthened."
  applies_to  = ["cache"]
  key         = "ttl_seconds"
  values      = [900, 1200, 1800]
  actors      = ["s.lindqvist", "platform-ci"]
}

benign_change "cache_max_clients" {
  description = "Client connection ceiling raised."
  applies_to  = ["cache"]
  key         = "max_clients"
  values      = [12000, 15000, 20000]
  actors      = ["s.lindqvist"]
}

benign_change "lb_health_interval" {
  description = "Health probe interval retuned."
  applies_to  = ["load_balancer"]
  key         = "health_check_interval_s"
  values      = [5, 15]
  actors      = ["netops-automation", "r.baptiste"]
}

benign_change "lb_connect_timeout" {
  description = "Upstream connect timeout retuned."
  applies_to  = ["load_balancer"]
  key         = "connect_timeout_ms"
  values      = [500, 1500, 2000]
  actors      = ["r.baptiste"]
}

benign_change "lb_idle_timeout" {
  description = "Idle connection timeout lengthened."
  applies_to  = ["load_balancer"]
  key         = "idle_timeout_ms"
  values      = [120000, 180000]
  actors      = ["netops-automation"]
}

benign_change "db_query_timeout" {
  description = "Statement timeout raised for a reporting job."
  applies_to  = ["database"]
  key         = "query_timeout_ms"
  values      = [5000, 8000]
  actors      = ["dba-oncall", "k.tanaka"]
}

benign_change "db_wal_keep" {
  description = "WAL retention retuned after a replica rebuild."
  applies_to  = ["database"]
  key         = "wal_keep_size_gb"
  values      = [8, 24, 32]
  actors      = ["k.tanaka"]
}

benign_change "mq_visibility" {
  description = "Message visibility timeout lengthened for slow consumers."
  applies_to  = ["message_queue"]
  key         = "visibility_timeout_ms"
  values      = [60000, 90000]
  actors      = ["a.ferreira", "platform-ci"]
  # A longer lease redelivers less, which these faults' symptoms feed on.
  conflicts_with = ["mq_dedup_disabled", "mq_retry_limit_high", "mq_consumer_concurrency_low"]
}

benign_change "mq_concurrency" {
  description = "Consumer workers scaled up a step."
  applies_to  = ["message_queue"]
  key         = "consumer_concurrency"
  values      = [12, 16, 20]
  actors      = ["a.ferreira"]
  # More consumers drain the backlog these faults build.
  conflicts_with = ["mq_dedup_disabled", "mq_retry_limit_high", "mq_visibility_timeout_low"]
}

benign_change "cache_eviction_policy" {
  description = "Eviction policy switched after a key-frequency study."
  applies_to  = ["cache"]
  key         = "eviction_policy"
  values      = ["allkeys-lfu", "volatile-lru"]
  actors      = ["s.lindqvist", "platform-ci"]
}
