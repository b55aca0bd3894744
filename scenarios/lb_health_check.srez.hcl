# Load balancer: the health probe asks the web tier for a path it does not
# serve, so every backend leaves rotation and the site answers 503. The
# probe path the web tier does serve is in its config.

incident "lb_health_check" {
  title      = "Site returns 503 for every request"
  alert      = "Synthetic checks: every request to the public site returns 503 Service Unavailable."
  difficulty = "medium"
  split      = "train"
  tags       = ["load_balancer", "config"]
  budget     = 10
  system     = "standard"

  fault "lb_health_check_path_wrong" {
    target = "load_balancer"
    path   = "/status"
    change {}
  }
  noise "jitter" {}

  expert = [
    "check_status(load_balancer)",
    "inspect_logs(load_balancer)",
    "inspect_config(web_server, health_path)",
    "update_config(load_balancer, health_check_path, \"/healthz\")",
    "resolve_incident(\"load balancer: health check probes the wrong path\", \"set health_check_path to /healthz\")",
  ]
}
