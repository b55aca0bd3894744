# Cache: the token the web tier presents was rotated out. The cache looks
# idle; the symptoms surface on the database, which now takes every read.

incident "cache_auth_token" {
  title      = "Database overloaded after a quiet deploy"
  alert      = "Database query volume has roughly quadrupled in the last hour and its connections are filling up; nothing was deployed to the database."
  difficulty = "medium"
  split      = "dev"
  tags       = ["cache", "credentials", "class:stale-side-fix"]
  budget     = 12
  system     = "standard"

  fault "cache_auth_token_expired" {
    target         = "cache"
    versions_ahead = 1
  }
  distractor "db_work_mem_tuned" {
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
    "inspect_metrics(database)",
    "inspect_logs(web_server)",
    "inspect_logs(cache)",
    "reload_secrets(web_server)",
    "resolve_incident(\"cache: auth token expired\", \"reloaded the secrets on the web tier\")",
  ]
}
