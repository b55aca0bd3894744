# Database: a session of yesterday's bulk import was left idle in
# transaction; its snapshot holds back the oldest xmin, so autovacuum runs
# and removes nothing, dead row versions pile up and every scan of orders
# gets slower. Autovacuum itself is on. The web tier's latency alert fires
# first.

incident "creeping_order_latency" {
  title      = "Order pages a little slower every hour"
  alert      = "API p95 latency has climbed steadily since yesterday's bulk import and is now above 1 s; a third of requests on /orders end in 5xx."
  difficulty = "hard"
  split      = "test"
  tags       = ["database", "config", "state", "victim-alert"]
  budget     = 12
  system     = "standard"

  fault "db_xmin_horizon_held" {
    target   = "database"
    dead_pct = 40.0
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
    "terminate_idle_transactions(database)",
    "resolve_incident(\"database: a session idle in transaction holds back the oldest xmin, so vacuum cannot remove dead tuples on orders\", \"terminated the idle in transaction session; autovacuum reclaims the dead rows\")",
  ]
}
