# Database: the server's client ceiling was lowered a fifth below what the
# pooler keeps open (still inside the documented band); every connection past it is turned away.

incident "checkout_db_refusals" {
  title      = "Database turning clients away"
  alert      = "PostgreSQL primary: client error ratio above 5% for 10 minutes; checkout and account pages fail intermittently."
  difficulty = "easy"
  split      = "train"
  tags       = ["database", "config"]
  budget     = 10
  system     = "peak"

  fault "db_max_connections_low" {
    target = "database"
    short  = 0.2
    change {}
  }
  noise "jitter" {}
  noise "routine_warnings" {}
  noise "retries" {}
  noise "health_check_flap" {}

  expert = [
    "check_status(database)",
    "inspect_logs(database)",
    "inspect_config(database, max_connections)",
    "update_config(database, max_connections, $before)",
    "resolve_incident(\"database: server connection limit below the pool\", \"raised max_connections back to its previous value\")",
  ]
}
