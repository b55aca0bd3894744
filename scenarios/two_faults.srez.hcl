# Two faults: the web tier looks the cache up under a stale host name, so
# every read falls through to the database, whose pool is also undersized.
# Fixing either alone leaves the site failing.

incident "two_faults" {
  title      = "Errors everywhere after a config push"
  alert      = "The web tier's error rate is above 20% and the database reports connection timeouts."
  difficulty = "hard"
  split      = "dev"
  tags       = ["web_server", "database", "multi-fault"]
  budget     = 16
  system     = "shared_primary"

  fault "web_cache_host_wrong" {
    target = "web_server"
    host   = "cache-old.internal"
    change {}
  }
  fault "db_pool_too_small" {
    target = "database"
    size   = 10
    change {}
  }
  noise "jitter" {}
  noise "routine_warnings" {}
  noise "retries" {}
  noise "health_check_flap" {}

  expert = [
    "inspect_logs(web_server)",
    "inspect_config(web_server, cache_host)",
    "inspect_logs(database)",
    "update_config(web_server, cache_host, \"cache.internal\")",
    "update_config(database, pool_size, $before)",
    "check_status(web_server)",
    "resolve_incident(\"web server: wrong cache host; database: connection pool too small\", \"set cache_host to cache.internal and raised pool_size back to its previous value\")",
  ]
}
