# Load balancer: the proxy process died during a config reload and its
# supervisor gave up, so the listener on :443 is closed. Nothing behind it
# is at fault.

incident "storefront_dark" {
  title      = "Storefront unreachable"
  alert      = "External probes cannot open a connection to the load balancer on :443; the storefront is unreachable from every region."
  difficulty = "easy"
  split      = "train"
  tags       = ["load_balancer", "availability"]
  budget     = 8
  system     = "standard"

  fault "service_crash" {
    target    = "load_balancer"
    exit_code = 134
  }
  noise "jitter" {}

  expert = [
    "check_status(load_balancer)",
    "inspect_logs(load_balancer)",
    "restart_service(load_balancer)",
    "check_status(load_balancer)",
    "resolve_incident(\"load balancer process crashed\", \"restarted the load balancer\")",
  ]
}
