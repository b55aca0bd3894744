# Database: on a busy site whose pooler keeps 140 connections open, a
# memory-tuning change set the server's limit to 120. Every value is inside
# its documented band; what is wrong is the relation between two of them.

incident "pooler_over_server_limit" {
  title      = "Some checkouts refused at a busy site"
  alert      = "PostgreSQL primary: a steady share of new client connections refused; checkout errors at about 1 in 8 requests."
  difficulty = "easy"
  split      = "train"
  tags       = ["database", "config", "relation"]
  budget     = 10
  system     = "busy"

  fault "db_max_connections_below_pool" {
    target = "database"
    gap    = 20
    change {}
  }
  noise "jitter" {}
  noise "routine_warnings" {}
  noise "retries" {}
  noise "health_check_flap" {}

  expert = [
    "check_status(database)",
    "inspect_logs(database)",
    "inspect_config(database)",
    "update_config(database, max_connections, $before)",
    "resolve_incident(\"database: server connection limit set below the pool it must accept\", \"raised max_connections back to its previous value\")",
  ]
}
