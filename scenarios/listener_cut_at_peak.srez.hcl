# Load balancer: at a busy site, a change meant for a staging listener cut
# the production listener's connection table from 6000 to 1500. 1500 lies
# inside the documented band and would carry an ordinary day; at this
# evening's traffic it holds too few connections and new clients are refused.

incident "listener_cut_at_peak" {
  title      = "New visitors refused at peak"
  alert      = "Edge: new client connections refused at about 1 in 7 during the evening peak; returning users with open connections unaffected."
  difficulty = "medium"
  split      = "train"
  tags       = ["load_balancer", "config", "relation"]
  budget     = 10
  system     = "busy"
  traffic    = 700.0

  fault "lb_max_connections_cut" {
    target = "load_balancer"
    cut    = 4500
    change {}
  }
  noise "jitter" {}
  noise "routine_warnings" {}
  noise "retries" {}
  noise "health_check_flap" {}

  expert = [
    "check_status(load_balancer)",
    "inspect_logs(load_balancer)",
    "inspect_metrics(load_balancer)",
    "update_config(load_balancer, max_connections, $before)",
    "resolve_incident(\"load_balancer: listener connection limit too low for the peak traffic\", \"raised max_connections back to its previous value\")",
  ]
}
