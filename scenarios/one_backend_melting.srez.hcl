# Load balancer: client affinity was switched on for a session experiment;
# nearly every client lands on one web backend, which overflows while the
# other idles. The web tier alerts; its worker count is not the problem.

incident "one_backend_melting" {
  title      = "Web tier overloaded at ordinary traffic"
  alert      = "Web server p95 latency has doubled and it is returning 503 at peak, although request volume is in line with last week."
  difficulty = "hard"
  split      = "dev"
  tags       = ["load_balancer", "web_server", "misleading"]
  budget     = 11
  system     = "standard"
  traffic    = 480.0

  fault "lb_sticky_sessions_hotspot" {
    target = "load_balancer"
    skew   = 1.0
    change {}
  }
  noise "jitter" {}
  noise "routine_warnings" {}
  noise "retries" {}
  noise "health_check_flap" {}

  expert = [
    "inspect_logs(web_server)",
    "inspect_logs(load_balancer)",
    "inspect_config(load_balancer, sticky_sessions)",
    "update_config(load_balancer, sticky_sessions, false)",
    "resolve_incident(\"load balancer: sticky sessions pin traffic to one backend\", \"disabled sticky_sessions\")",
  ]
}
