# Two faults from one migration: the balancer probes a path the web tier
# never served, so nothing reaches the site; behind it, the web tier was
# pointed at a cache host that does not resolve. Fixing the probe alone
# sends every read to the database.

incident "migration_double_fault" {
  title      = "Site down after the platform migration"
  alert      = "Synthetic checks: the public site has returned 503 for every request since the platform migration finished."
  difficulty = "hard"
  split      = "train"
  tags       = ["load_balancer", "web_server", "multi-fault", "masked"]
  budget     = 14
  system     = "standard"

  fault "lb_health_check_path_wrong" {
    target = "load_balancer"
    path   = "/ping"
    change {}
  }
  fault "web_cache_host_wrong" {
    target = "web_server"
    host   = "cache01.internal"
    change {}
  }
  distractor "elevated_metric" {
    target = "cache"
  }
  noise "jitter" {}
  noise "routine_warnings" {}
  noise "retries" {}
  noise "health_check_flap" {}

  expert = [
    "inspect_logs(load_balancer)",
    "inspect_config(web_server, health_path)",
    "inspect_logs(web_server)",
    "inspect_config(web_server, cache_host)",
    "update_config(load_balancer, health_check_path, \"/healthz\")",
    "update_config(web_server, cache_host, \"cache.internal\")",
    "resolve_incident(\"load balancer: health check probes the wrong path; web server: wrong cache host\", \"set health_check_path to /healthz and cache_host to cache.internal\")",
  ]
}
