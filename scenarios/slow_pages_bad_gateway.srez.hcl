# Load balancer: a config push cut the balancer's idle timeout to half the
# site's slowest routine responses, so it
# hangs up on the slower pages (reports, exports) before the web tier
# answers and returns 502. The alert names the balancer, where the cause is.

incident "slow_pages_bad_gateway" {
  title      = "502s on report and export pages"
  alert      = "The load balancer is answering 502 Bad Gateway on report and export pages since this morning's balancer config push."
  difficulty = "easy"
  split      = "dev"
  tags       = ["load_balancer", "config"]
  budget     = 9
  system     = "peak"

  fault "lb_idle_timeout_low" {
    target = "load_balancer"
    share  = 0.5
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
    "update_config(load_balancer, idle_timeout_ms, $before)",
    "resolve_incident(\"load balancer: idle timeout too low, closing upstream connections\", \"restored idle_timeout_ms back to its previous value\")",
  ]
}
