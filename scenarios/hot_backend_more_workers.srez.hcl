# Client affinity was switched on at the balancer for a session
# experiment; nearly every client now lands on one web backend, which
# overflows at the peak while the other idles. More web workers absorb
# the hot backend's queue and the 503s fade, which is tempting, but the
# traffic is still pinned to one backend: a mask, and a wrong change.

incident "hot_backend_more_workers" {
  title      = "Web tier saturated at an ordinary peak"
  alert      = "Web tier returning 503 and p95 latency up at the evening peak, with request volume in line with last week."
  difficulty = "hard"
  split      = "test"
  tags       = ["load_balancer", "web_server", "class:symptom-masking"]
  budget     = 12
  system     = "standard"
  traffic    = 450.0

  fault "lb_sticky_sessions_hotspot" {
    target = "load_balancer"
    skew   = 0.95
    change {}
  }
  distractor "noisy_warning" {
    target = "database"
  }
  noise "jitter" {}
  noise "routine_warnings" {}
  noise "retries" {}
  noise "health_check_flap" {}

  expert = [
    "inspect_metrics(web_server)",
    "inspect_logs(load_balancer)",
    "inspect_config(load_balancer)",
    "update_config(load_balancer, sticky_sessions, false)",
    "resolve_incident(\"load_balancer: sticky sessions pin most clients to one web backend, which saturates while the other idles\", \"disabled sticky_sessions\")",
  ]
}
