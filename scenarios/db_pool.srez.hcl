# Database: the pooler keeps far too few server connections for the load;
# callers queue for a connection and time out.

incident "db_pool" {
  title      = "Checkout failing with timeouts"
  alert      = "The web tier's 5xx rate is above 10%; most failures are timeouts talking to storage."
  difficulty = "medium"
  split      = "train"
  tags       = ["database", "config", "stale-metrics"]
  budget     = 12
  system     = "shared_primary"

  fault "db_pool_too_small" {
    target = "database"
    size   = 6
    change {}
  }
  distractor "web_short_keepalive" {
    target = "web_server"
  }
  noise "stale_metrics" {}
  noise "routine_warnings" {}
  noise "retries" {}
  noise "health_check_flap" {}

  expert = [
    "inspect_logs(web_server)",
    "inspect_logs(database)",
    "inspect_config(database, pool_size)",
    "update_config(database, pool_size, $before)",
    "check_status(database)",
    "resolve_incident(\"database connection pool exhausted\", \"raised the database pool_size back to its previous value\")",
  ]
}
