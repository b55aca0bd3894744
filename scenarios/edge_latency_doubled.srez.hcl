# Cascading: the cache process died (SIGABRT) and was not restarted. Every
# read now goes to the database, whose pooler gets busy, and every page is
# slower. The alert fires at the edge, two hops from the cause; the busy
# pooler, a full-looking disk on the database and a warning on the queue
# invite the wrong fix (growing the database pool is a change, not a fix).

incident "edge_latency_doubled" {
  title      = "Pages slow, database busy"
  alert      = "Load balancer p95 latency has nearly doubled in the last half hour; database connections in use are at 39 of 50."
  difficulty = "hard"
  split      = "test"
  tags       = ["cache", "process", "cascade", "victim-alert", "stale-metrics"]
  budget     = 14
  system     = "standard"

  fault "service_crash" {
    target    = "cache"
    exit_code = 134
  }
  distractor "noisy_warning" {
    target = "message_queue"
  }
  distractor "elevated_metric" {
    target = "database"
  }
  noise "stale_metrics" {}

  expert = [
    "inspect_traces(load_balancer)",
    "inspect_logs(database)",
    "check_dependencies(web_server)",
    "inspect_logs(cache)",
    "restart_service(cache)",
    "check_status(cache)",
    "resolve_incident(\"cache: process crashed\", \"restarted the cache\")",
  ]
}
