# Cache: entries are given a lifetime far shorter than the interval between
# reads of the same product, so almost every lookup misses.

incident "product_reads_cold" {
  title      = "Cache hit ratio collapsed"
  alert      = "The product cache's hit ratio fell below 50% this morning and has not recovered."
  difficulty = "easy"
  split      = "dev"
  tags       = ["cache", "config"]
  budget     = 10
  system     = "peak"

  fault "cache_ttl_too_low" {
    target = "cache"
    share  = 0.5
    change {}
  }
  noise "spike" {}
  noise "routine_warnings" {}
  noise "retries" {}
  noise "health_check_flap" {}

  expert = [
    "inspect_metrics(cache)",
    "inspect_logs(cache)",
    "update_config(cache, ttl_seconds, $before)",
    "resolve_incident(\"cache: ttl too low, entries expire before reuse\", \"raised ttl_seconds back to its previous value\")",
  ]
}
