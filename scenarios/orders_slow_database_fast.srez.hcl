# Web server -> database link: the network path from the web tier to the
# database adds about 40 ms to every round trip. Each page makes several
# database calls, so /orders slows by far more than the path's delay,
# while the database serves every statement as fast as ever: its own
# query latency and connection waits are healthy. Only comparing the two
# ends shows where the time goes. The path is the network team's: the
# right end is to escalate naming it. Adding an index, a replica or
# workers, or restarting anything, are wrong changes.

incident "orders_slow_database_fast" {
  title      = "Order pages slow, database looks fine"
  alert      = "Web API: p95 latency above 150 ms on GET /orders for the last 30 minutes; no deploy since yesterday."
  difficulty = "hard"
  split      = "test"
  tags       = ["web_server", "database", "links", "class:escalation", "victim-alert"]
  budget     = 10
  system     = "standard"

  fault "link_web_db_delay" {
    target   = "web_server -> database"
    delay_ms = 40.0
  }
  distractor "elevated_metric" {
    target = "cache"
  }
  noise "jitter" {}
  noise "routine_warnings" {}
  noise "retries" {}
  noise "health_check_flap" {}

  expert = [
    "inspect_logs(web_server)",
    "inspect_traces(web_server)",
    "inspect_metrics(database)",
    "escalate(\"web_server: the network path from the web tier to the database adds about 40 ms per round trip (network latency); the database's own query latency is normal; needs the network team\")",
  ]
}
