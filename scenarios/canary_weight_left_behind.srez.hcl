# Load balancer: a canary shifted 95% of requests to web-2 and the weights
# were never restored. web-2 saturates while web-1 idles; the web tier's
# alert fires, though its workers and traffic are as usual.

incident "canary_weight_left_behind" {
  title      = "One web host saturated at normal traffic"
  alert      = "Web tier p95 latency has tripled and some requests fail with 503, while total request volume is normal for a weekday."
  difficulty = "medium"
  split      = "test"
  tags       = ["load_balancer", "web_server", "victim-alert"]
  budget     = 11
  system     = "unequal_hosts"
  traffic    = 480.0

  fault "lb_backend_weight_skewed" {
    target     = "load_balancer"
    weight_pct = 95
    change {}
  }
  distractor "noisy_warning" {
    target = "database"
  }
  noise "spike" {}
  noise "routine_warnings" {}
  noise "retries" {}
  noise "health_check_flap" {}

  expert = [
    "inspect_logs(web_server)",
    "inspect_logs(load_balancer)",
    "inspect_config(load_balancer, backend_weight_pct)",
    "update_config(load_balancer, backend_weight_pct, $before)",
    "resolve_incident(\"load balancer: backend weights skewed toward one host\", \"set backend_weight_pct back to its previous value\")",
  ]
}
