# Load balancer: the health probe asks the web tier for a path it does not
# serve, so every backend leaves rotation and the site answers 503. A
# config template put the documented /healthz back on the balancer, but
# this site's application serves its probe at its own route: the path it
# serves is in the web tier's config (health_path) and the history's old
# value, never in the docs.

incident "lb_health_check" {
  title      = "Site returns 503 for every request"
  alert      = "Synthetic checks: every request to the public site returns 503 Service Unavailable."
  difficulty = "medium"
  split      = "train"
  tags       = ["load_balancer", "config"]
  budget     = 10
  system     = "app_routes"

  fault "lb_health_check_path_wrong" {
    target = "load_balancer"
    path   = "/healthz"
    change {}
  }
  noise "jitter" {}
  noise "routine_warnings" {}
  noise "retries" {}
  noise "health_check_flap" {}

  expert = [
    "check_status(load_balancer)",
    "inspect_logs(load_balancer)",
    "inspect_config(web_server, health_path)",
    "update_config(load_balancer, health_check_path, \"/-/ready\")",
    "resolve_incident(\"load balancer: health check probes the wrong path\", \"set health_check_path to /-/ready, the route the web tier serves\")",
  ]
}
