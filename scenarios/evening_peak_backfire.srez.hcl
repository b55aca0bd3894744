# Recovery: the database server's client ceiling was cut a fifth below
# the pooler's size during a memory-tuning change. Under the evening peak the
# pooler reports waits and timeouts, which invites raising pool_size; that
# only asks the server for more connections it refuses, and the error rate
# climbs. A responder who tried it must put pool_size back and raise the
# server's limit instead.

incident "evening_peak_backfire" {
  title      = "Evening peak: checkout errors and slow queries"
  alert      = "Checkout API: 5xx around 5%, with upstream waits at the database, since the evening peak started; the errors began right after the 17:30 tuning change."
  difficulty = "hard"
  split      = "dev"
  tags       = ["database", "recovery", "victim-alert"]
  budget     = 12
  system     = "peak"
  traffic    = 500.0

  fault "db_max_connections_low" {
    target = "database"
    short  = 0.2
    change {
      at = "17:30"
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
    "inspect_logs(web_server)",
    "inspect_logs(database)",
    "inspect_config(database)",
    "update_config(database, max_connections, $before)",
    "resolve_incident(\"database: max connections set below the pool, connections refused\", \"raised max_connections back to its previous value; left pool_size as it was\")",
  ]
}
