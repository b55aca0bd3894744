# Cascading: the migration's concurrent rebuild of the orders(user_id) index
# failed and left it INVALID, so every orders lookup scans the table. The
# alert fires on the load balancer; the web tier times out waiting on the
# database; a hand-tuned keep-alive on the web tier and a noisy cache warning
# invite the wrong fix. The rebuild takes ticks in proportion to the table.

incident "cascade_index" {
  title      = "Slow and failing pages after a migration"
  alert      = "Load balancer p95 latency is above 2 s and upstream errors are rising."
  difficulty = "hard"
  split      = "test"
  tags       = ["database", "cascade", "victim-alert"]
  budget     = 14
  system     = "standard"

  fault "db_index_invalid" {
    target = "database"
    rows_m = 60.0
  }
  distractor "web_short_keepalive" {
    target = "web_server"
  }
  distractor "noisy_warning" {
    target = "cache"
  }
  noise "spike" {}
  noise "jitter" {}
  noise "routine_warnings" {}
  noise "retries" {}
  noise "health_check_flap" {}

  expert = [
    "inspect_traces(load_balancer)",
    "inspect_logs(web_server)",
    "inspect_logs(database)",
    "list_indexes(database)",
    "reindex(database, orders_uid_idx)",
    "inspect_logs(database)",
    "inspect_metrics(database)",
    "check_status(database)",
    "inspect_metrics(web_server)",
    "check_status(load_balancer)",
    "resolve_incident(\"database: invalid index on orders(user_id), lookups do a full table scan\", \"rebuilt the invalid index with REINDEX INDEX CONCURRENTLY\")",
  ]
}
