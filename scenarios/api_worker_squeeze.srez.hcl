# Easy: the alert names the web tier, where the cause is: its worker pool
# was cut below what the site's peak traffic needs, to a count still inside
# the documented band. A noisy database warning and a hot
# cache metric invite a detour; stale metrics lag the picture.

incident "api_worker_squeeze" {
  title      = "API queueing after a config rollout"
  alert      = "API requests are queueing: web tier p95 latency is about five times normal and roughly one request in five fails."
  difficulty = "easy"
  split      = "train"
  tags       = ["web_server", "distractor", "stale-metrics"]
  budget     = 10
  system     = "peak"

  fault "web_workers_too_low" {
    target = "web_server"
    share  = 0.85
    change {}
  }
  distractor "noisy_warning" {
    target = "database"
  }
  distractor "elevated_metric" {
    target = "cache"
  }
  noise "stale_metrics" {}
  noise "routine_warnings" {}
  noise "retries" {}
  noise "health_check_flap" {}

  expert = [
    "inspect_logs(web_server)",
    "inspect_config(web_server, max_workers)",
    "update_config(web_server, max_workers, $before)",
    "resolve_incident(\"web server: too few workers\", \"raised max_workers back to its previous value\")",
  ]
}
