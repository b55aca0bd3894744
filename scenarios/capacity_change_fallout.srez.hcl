# Two faults after one "capacity" change: the balancer's idle timeout was
# cut to 10 s, and the web tier was given far more workers than its host's
# memory holds. Either alone keeps the site degraded.

incident "capacity_change_fallout" {
  title      = "502s and slow pages after a capacity change"
  alert      = "Load balancer p95 latency is up and about a fifth of requests return 502 since Tuesday's capacity change."
  difficulty = "hard"
  split      = "test"
  tags       = ["load_balancer", "web_server", "multi-fault"]
  budget     = 14
  system     = "standard"

  fault "lb_idle_timeout_low" {
    target = "load_balancer"
    share  = 0.33
    change {}
  }
  fault "web_workers_too_high" {
    target  = "web_server"
    workers = 128
    change {}
  }
  distractor "noisy_warning" {
    target = "cache"
  }
  noise "jitter" {}
  noise "routine_warnings" {}
  noise "retries" {}
  noise "health_check_flap" {}

  expert = [
    "inspect_logs(load_balancer)",
    "inspect_config(load_balancer, idle_timeout_ms)",
    "inspect_logs(web_server)",
    "inspect_metrics(web_server)",
    "update_config(load_balancer, idle_timeout_ms, $before)",
    "update_config(web_server, max_workers, $before)",
    "resolve_incident(\"load balancer: idle timeout too low; web server: too many workers for host memory\", \"raised idle_timeout_ms back to its previous value and set max_workers back to its previous value\")",
  ]
}
