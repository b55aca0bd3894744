# Web server: one of the two instances has a full local disk and fails
# every request it serves, but its health endpoint still answers, so the
# balancer keeps it in rotation. Restarting the web tier takes both
# instances down and frees nothing; the bad instance must be replaced.

incident "half_the_checkouts_fail" {
  title      = "Half of the checkouts fail"
  alert      = "Storefront: about half of checkout attempts answered 500 for 15 minutes; retries usually succeed."
  difficulty = "easy"
  split      = "train"
  tags       = ["web_server", "instances", "class:restart-makes-it-worse"]
  budget     = 12
  system     = "standard"

  fault "web_bad_instance" {
    target   = "web_server"
    instance = 2
  }
  distractor "noisy_warning" {
    target = "database"
  }
  distractor "db_replica_rebuilding" {
    target = "database"
  }
  noise "jitter" {}
  noise "routine_warnings" {}
  noise "retries" {}
  noise "health_check_flap" {}

  expert = [
    "inspect_logs(load_balancer)",
    "inspect_logs(web_server)",
    "replace_instance(web_server, web-2)",
    "resolve_incident(\"web_server: one bad instance, web-2 fails every request it serves while passing its health check\", \"replaced the failing instance web-2\")",
  ]
}
