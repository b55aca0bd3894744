# Web server: the upstream call deadline was cut to about two fifths of the
# site's slowest routine calls in a latency experiment; the slower database calls (reports, exports) now fail. The
# load balancer sees the 5xx first.

incident "orders_page_errors" {
  title      = "Order history pages failing"
  alert      = "Load balancer: upstream 5xx responses above 10% for the last 30 minutes, concentrated on /orders."
  difficulty = "medium"
  split      = "test"
  tags       = ["web_server", "misleading"]
  budget     = 11
  system     = "peak"

  fault "web_timeout_too_low" {
    target = "web_server"
    share  = 0.42
    change {}
  }
  distractor "db_work_mem_tuned" {
    target = "database"
  }
  noise "jitter" {}
  noise "routine_warnings" {}
  noise "retries" {}
  noise "health_check_flap" {}

  expert = [
    "inspect_logs(load_balancer)",
    "inspect_logs(web_server)",
    "inspect_config(web_server, timeout_ms)",
    "update_config(web_server, timeout_ms, $before)",
    "resolve_incident(\"web server: upstream timeout too short\", \"raised timeout_ms back to its previous value\")",
  ]
}
