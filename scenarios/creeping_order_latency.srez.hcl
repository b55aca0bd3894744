# Database: background vacuuming was switched off to speed up a bulk load
# and left off; dead row versions pile up every minute and every scan of
# orders gets slower. The web tier's latency alert fires first.

incident "creeping_order_latency" {
  title      = "Order pages a little slower every hour"
  alert      = "API p95 latency has climbed steadily since yesterday's bulk import and is now above 1 s; a third of requests on /orders end in 5xx."
  difficulty = "hard"
  split      = "test"
  tags       = ["database", "config", "state", "victim-alert"]
  budget     = 12
  system     = "standard"

  fault "db_autovacuum_disabled" {
    target   = "database"
    dead_pct = 40.0
    change {}
  }
  distractor "noisy_warning" {
    target = "web_server"
  }
  noise "jitter" {}
  noise "routine_warnings" {}
  noise "retries" {}
  noise "health_check_flap" {}

  expert = [
    "inspect_logs(web_server)",
    "inspect_metrics(database)",
    "inspect_logs(database)",
    "update_config(database, autovacuum_enabled, true)",
    "resolve_incident(\"database: autovacuum disabled, dead tuples bloating orders\", \"re-enabled autovacuum\")",
  ]
}
