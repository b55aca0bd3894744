# Cascading: a disabled index makes every orders lookup scan the table. The
# alert fires on the load balancer; the web tier times out waiting on the
# database; a hand-tuned keep-alive on the web tier and a noisy cache warning
# invite the wrong fix.

incident "cascade_index" {
  title      = "Slow and failing pages after a migration"
  alert      = "Load balancer p95 latency is above 2 s and upstream errors are rising."
  difficulty = "hard"
  split      = "test"
  tags       = ["database", "cascade", "victim-alert"]
  budget     = 14
  system     = "standard"

  fault "db_index_disabled" {
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
    "inspect_config(database, orders_user_id_index)",
    "update_config(database, orders_user_id_index, true)",
    "resolve_incident(\"database: index disabled on orders, full table scan\", \"re-enabled the orders_user_id_index\")",
  ]
}
