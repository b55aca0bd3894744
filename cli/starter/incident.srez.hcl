# A starter incident: the database's connection pool was cut to a few
# connections, so the web tier times out talking to storage. srezc show
# starter_db_timeouts . prints what the agent sees and what is hidden.

incident "starter_db_timeouts" {
  title      = "Checkout failing with timeouts"
  alert      = "The web tier's 5xx rate is above 10%; most failures are timeouts talking to storage."
  difficulty = "easy"
  split      = "train"
  budget     = 10
  system     = "shared_primary"

  fault "db_pool_too_small" {
    target = "database"
    size   = 6
    change {}
  }

  expert = [
    "inspect_logs(database)",
    "inspect_config(database, pool_size)",
    "update_config(database, pool_size, $before)",
    "inspect_metrics(web_server)",
    "resolve_incident(\"database connection pool exhausted\", \"raised the database pool_size back to its previous value\")",
  ]
}
