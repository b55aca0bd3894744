# Web server: the application master exited after a bad deploy hook and its
# supervisor gave up. The load balancer is healthy but has nothing to send
# traffic to.

incident "gateway_no_upstreams" {
  title      = "Every request answered 503"
  alert      = "Load balancer answers 503 to every request and reports zero healthy backends."
  difficulty = "medium"
  split      = "train"
  tags       = ["web_server", "availability", "misleading"]
  budget     = 10
  system     = "standard"

  fault "service_crash" {
    target    = "web_server"
    exit_code = 1
  }
  distractor "noisy_warning" {
    target = "load_balancer"
  }
  noise "spike" {}

  expert = [
    "check_status(load_balancer)",
    "inspect_logs(load_balancer)",
    "check_status(web_server)",
    "inspect_logs(web_server)",
    "restart_service(web_server)",
    "check_status(web_server)",
    "resolve_incident(\"web server process crashed\", \"restarted the web server\")",
  ]
}
