# Load balancer: a canary shifted requests to web-1 (weights 70/30, inside
# the documented band) and the weights were never restored. On this site
# web-2 is the larger host and takes 70% of the requests: web-1 saturates
# while web-2 idles, and the documented even split would still overload
# web-1. The site's weight is the history's old value. The web tier's alert
# fires, though its workers and traffic are as usual.

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
    weight_pct = 30
    change {}
  }
  distractor "noisy_warning" {
    target = "database"
  }
  noise "spike" {}

  expert = [
    "inspect_logs(web_server)",
    "inspect_logs(load_balancer)",
    "inspect_config(load_balancer, backend_weight_pct)",
    "update_config(load_balancer, backend_weight_pct, $before)",
    "resolve_incident(\"load balancer: backend weights skewed toward one host\", \"set backend_weight_pct back to its previous value\")",
  ]
}
