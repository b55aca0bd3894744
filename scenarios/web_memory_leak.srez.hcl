# Web server: a leak grows resident memory every tick until workers are
# killed. Only a restart releases it.

incident "web_memory_leak" {
  title      = "API latency climbing, intermittent errors"
  alert      = "API p95 latency has tripled over the last hour and 5xx responses are appearing."
  difficulty = "medium"
  split      = "train"
  tags       = ["web_server", "memory"]
  budget     = 10
  system     = "standard"

  fault "web_memory_leak" {
    target  = "web_server"
    rate_mb = 800.0
  }
  distractor "noisy_warning" {
    target = "cache"
  }
  noise "spike" {}
  noise "routine_warnings" {}
  noise "retries" {}
  noise "health_check_flap" {}

  expert = [
    "inspect_metrics(web_server)",
    "inspect_logs(web_server)",
    "restart_service(web_server)",
    "check_status(web_server)",
    "resolve_incident(\"web server memory leak\", \"restart the web server\")",
  ]
}
