# Web server: a capacity drill scaled the worker pool down to what serves
# four fifths of the peak traffic, and nobody scaled it back. The load balancer alerts; an elevated CPU on the
# balancer and a harmless header warning there look suspicious, and
# metrics lag.

incident "capacity_drill_fallout" {
  title      = "Intermittent 5xx at the edge"
  alert      = "Load balancer client error rate above 20% and climbing p95 latency; no deploys to the balancer this week."
  difficulty = "hard"
  split      = "dev"
  tags       = ["web_server", "misleading", "noisy"]
  budget     = 12
  system     = "peak"

  fault "web_workers_too_low" {
    target = "web_server"
    share  = 0.78
    change {}
  }
  distractor "elevated_metric" {
    target = "load_balancer"
  }
  distractor "noisy_warning" {
    target = "load_balancer"
  }
  noise "stale_metrics" {}
  noise "routine_warnings" {}
  noise "retries" {}
  noise "health_check_flap" {}

  expert = [
    "inspect_logs(load_balancer)",
    "inspect_logs(web_server)",
    "inspect_config(web_server)",
    "update_config(web_server, max_workers, $before)",
    "resolve_incident(\"web server: too few workers for the load\", \"raised max_workers back to its previous value\")",
  ]
}
