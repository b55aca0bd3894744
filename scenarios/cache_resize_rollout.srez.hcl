# Two faults on one host: a config rollout both cut the cache's memory
# ceiling (to 85% of the site's compressed hot set) and switched value
# compression off; together the cache keeps well under half of the hot set.
# Re-enabling compression alone, or raising the ceiling to the documented
# default, still leaves it evicting. The alert names the web tier,
# which is only the messenger.

incident "cache_resize_rollout" {
  title      = "Slower pages after a config rollout"
  alert      = "Web tier p95 latency is up by about half since this afternoon's config rollout; no application deploy went out."
  difficulty = "hard"
  split      = "dev"
  tags       = ["cache", "multi-fault"]
  budget     = 14
  system     = "peak"

  fault "cache_memory_too_low" {
    target = "cache"
    share  = 0.85
    change {}
  }
  fault "cache_compression_disabled" {
    target         = "cache"
    working_set_mb = 2000.0
    change {}
  }
  distractor "elevated_metric" {
    target = "message_queue"
  }
  noise "spike" {}
  noise "routine_warnings" {}
  noise "retries" {}
  noise "health_check_flap" {}

  expert = [
    "inspect_logs(web_server)",
    "inspect_logs(cache)",
    "inspect_config(cache)",
    "update_config(cache, max_memory_mb, $before)",
    "update_config(cache, compression_enabled, true)",
    "inspect_metrics(cache)",
    "resolve_incident(\"cache: memory limit too low and compression disabled, keys evicted\", \"raised max_memory_mb back to its previous value and re-enabled compression\")",
  ]
}
