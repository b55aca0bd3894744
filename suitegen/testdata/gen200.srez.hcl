# The fault kinds whose variants of db_pool (a pool fault from a change
# in the history, on shared_primary) mostly certify under the full exploit
# panel: the builder's 1.5x margin then yields the 200 tasks.

mutation "everything" {
  from        = "db_pool"
  faults      = ["db_pool_too_small", "db_maintenance_mode", "web_memory_leak", "web_cache_host_wrong", "cache_ttl_too_low"]
  distractors = ["none", "noisy_warning", "elevated_metric"]
  noise       = ["none", "jitter", "stale_metrics"]
}

suite_spec "gen200" {
  mutations = ["everything"]
  tasks     = 200
  seed      = 7
}
