# Database read load is up and pages are slower: the cache misses more.
# The history shows two cache changes: the memory ceiling was lowered
# (still enough for the working set) and the entry lifetime was cut below
# the time the site's hot entries go between reads. The cache's metrics
# separate them: keys expire by the hundreds a second while none is
# evicted and memory is not full. Raising memory back is a wrong change.

incident "db_load_two_cache_changes" {
  title      = "Database read load up, pages slower"
  alert      = "Database queries per second are up by half against last week at the same hour and product pages are slower; two cache changes went out this week."
  difficulty = "hard"
  split      = "train"
  tags       = ["cache", "database", "victim-alert", "class:two-causes-one-read"]
  budget     = 12
  system     = "peak"

  fault "cache_ttl_too_low" {
    target = "cache"
    share  = 0.34
    change {}
  }
  change {
    service = "cache"
    key     = "max_memory_mb"
    value   = 1400
    actor   = "s.lindqvist"
  }
  distractor "noisy_warning" {
    target = "database"
  }
  noise "jitter" {}
  noise "routine_warnings" {}
  noise "retries" {}
  noise "health_check_flap" {}

  expert = [
    "inspect_metrics(database)",
    "list_changes(cache)",
    "inspect_metrics(cache)",
    "inspect_logs(cache)",
    "update_config(cache, ttl_seconds, $before)",
    "resolve_incident(\"cache: ttl too low, entries expire before the site reads them again, so misses load the database\", \"raised ttl_seconds back to its previous value\")",
  ]
}
