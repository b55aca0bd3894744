# Cache: the credential the application presents was rotated three days ago
# and never redeployed. Every command is refused; reads go to the database.
# The alert comes from the edge, two hops from the cause.

incident "session_store_refused" {
  title      = "Site slower since the weekend"
  alert      = "Load balancer p95 response time has been above its 120 ms objective since Saturday; no errors are being served."
  difficulty = "medium"
  split      = "test"
  tags       = ["cache", "credentials", "class:stale-side-fix"]
  budget     = 12
  system     = "standard"

  fault "cache_auth_token_expired" {
    target         = "cache"
    versions_ahead = 2
  }
  distractor "elevated_metric" {
    target = "web_server"
  }
  distractor "db_replica_rebuilding" {
    target = "database"
  }
  noise "jitter" {}
  noise "routine_warnings" {}
  noise "retries" {}
  noise "health_check_flap" {}

  expert = [
    "inspect_traces(load_balancer)",
    "inspect_logs(web_server)",
    "inspect_logs(cache)",
    "reload_secrets(web_server)",
    "resolve_incident(\"cache: auth token expired\", \"reloaded the secrets on the web tier\")",
  ]
}
