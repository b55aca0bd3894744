# Database: a statement deadline meant for a one-off backfill was left in
# the server config; ordinary order lookups are cancelled mid-flight.

incident "orders_statements_cut" {
  title      = "Order lookups failing at the database"
  alert      = "Database error ratio on the orders statements is above 15% since the 14:05 config rollout; the storefront shows sporadic 500s."
  difficulty = "easy"
  split      = "test"
  tags       = ["database", "config"]
  budget     = 10
  system     = "peak"

  fault "db_query_timeout_low" {
    target = "database"
    share  = 0.6
    change {
      at = "14:05"
    }
  }
  distractor "elevated_metric" {
    target = "web_server"
  }
  noise "jitter" {}
  noise "routine_warnings" {}
  noise "retries" {}
  noise "health_check_flap" {}

  expert = [
    "inspect_metrics(database)",
    "inspect_logs(database)",
    "inspect_config(database, query_timeout_ms)",
    "update_config(database, query_timeout_ms, $before)",
    "resolve_incident(\"database: query timeout far too short, statements cancelled\", \"raised query_timeout_ms back to its previous value\")",
  ]
}
