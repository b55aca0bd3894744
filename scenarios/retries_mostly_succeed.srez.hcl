# Database: a capacity change raised the pooler's size to 150, the top of
# the documented band, past what this site's smaller server accepts (110 to
# 140 connections); the surplus connections are refused and their clients
# fail. The site's own pool is the history's old value. The web tier's
# error alert names only the symptom.

incident "retries_mostly_succeed" {
  title      = "Intermittent 500s after a capacity change"
  alert      = "Web tier 5xx ratio up and steady since this morning's capacity change; latency is normal and retries usually succeed."
  difficulty = "medium"
  split      = "dev"
  tags       = ["database", "config", "victim-alert"]
  budget     = 12
  system     = "small_primary"

  fault "db_pool_too_large" {
    target = "database"
    size   = 150
    change {}
  }
  distractor "noisy_warning" {
    target = "cache"
  }
  noise "stale_metrics" {}
  noise "routine_warnings" {}
  noise "retries" {}
  noise "health_check_flap" {}

  expert = [
    "inspect_logs(web_server)",
    "inspect_logs(database)",
    "inspect_config(database)",
    "update_config(database, pool_size, $before)",
    "resolve_incident(\"database: pool too large for the server's max connections\", \"reduced pool_size back to its previous value\")",
  ]
}
