# Load balancer: a listener template with a small connection table was
# applied to production; at launch-day traffic one new client in five is refused.

incident "launch_day_refusals" {
  title      = "New visitors refused at launch"
  alert      = "The load balancer is refusing about one new client connection in five with 503 since the launch campaign went live."
  difficulty = "easy"
  split      = "test"
  tags       = ["load_balancer", "capacity"]
  budget     = 9
  system     = "peak"

  fault "lb_max_connections_low" {
    target = "load_balancer"
    share  = 0.8
    change {}
  }
  distractor "elevated_metric" {
    target = "database"
  }
  noise "jitter" {}
  noise "routine_warnings" {}
  noise "retries" {}
  noise "health_check_flap" {}

  expert = [
    "inspect_logs(load_balancer)",
    "inspect_config(load_balancer, max_connections)",
    "update_config(load_balancer, max_connections, $before)",
    "resolve_incident(\"load balancer: connection limit too low\", \"raised max_connections back to its previous value\")",
  ]
}
