# Cache: the memory ceiling was cut to three quarters of the site's hot
# product data as stored, a value inside the documented band.
# Keys are dropped before they are read again and the misses land on the
# database, which is where the alert fires.

incident "catalog_reads_spill" {
  title      = "Database read load up sharply"
  alert      = "Database queries per second are up by half against last week's baseline at the same hour; no database change is on the calendar."
  difficulty = "medium"
  split      = "train"
  tags       = ["cache", "memory", "stale-metrics"]
  budget     = 12
  system     = "peak"

  fault "cache_memory_too_low" {
    target = "cache"
    share  = 0.75
    change {}
  }
  distractor "db_work_mem_tuned" {
    target = "database"
  }
  noise "stale_metrics" {}
  noise "routine_warnings" {}
  noise "retries" {}
  noise "health_check_flap" {}

  expert = [
    "inspect_metrics(database)",
    "inspect_logs(cache)",
    "inspect_config(cache, max_memory_mb)",
    "update_config(cache, max_memory_mb, $before)",
    "resolve_incident(\"cache: memory limit too low, keys evicted before reuse\", \"raised the cache max_memory_mb back to its previous value\")",
  ]
}
