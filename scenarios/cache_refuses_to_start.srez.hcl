# Cache: an eviction policy written in a form the server does not accept;
# each start exits on the config file. Every read falls through to the
# database. A restart only repeats the failed start. The site keeps its
# sessions in the cache without a TTL and runs volatile-lru: the documented
# allkeys-lru starts the server but evicts sessions and signs users out.
# The site's policy is the history's old value.

incident "cache_refuses_to_start" {
  title      = "Database read load spiked after cache maintenance"
  alert      = "Database: queries per second up fourfold and connections filling since the cache maintenance window; the cache dashboard shows no data."
  difficulty = "medium"
  split      = "dev"
  tags       = ["cache", "class:restart-alone-fails", "class:alerted-service-innocent"]
  budget     = 12
  system     = "session_cache"

  fault "cache_crash_loop_bad_config" {
    target = "cache"
    value  = "allkeys_lru"
    change {
      at    = "02:10"
      actor = "s.lindqvist"
    }
  }
  distractor "db_work_mem_tuned" {
    target = "database"
  }
  noise "jitter" {}
  noise "routine_warnings" {}
  noise "retries" {}
  noise "health_check_flap" {}

  expert = [
    "inspect_metrics(database)",
    "check_status(cache)",
    "inspect_logs(cache)",
    "update_config(cache, eviction_policy, $before)",
    "resolve_incident(\"cache: crash loop, redis refuses to start because eviction_policy allkeys_lru is invalid\", \"set eviction_policy back to its previous value\")",
  ]
}
