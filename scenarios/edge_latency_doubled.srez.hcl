# Cascading: the cache's maxmemory was raised for a larger instance that
# it never moved to. Its host has less memory than the new ceiling and no
# swap, so once the dataset filled past it the kernel's OOM killer ended
# redis-server, and it stays down. Every read now goes to the database,
# whose pooler gets busy, and every page is slower. The alert fires at the
# edge, two hops from the cause; the busy pooler, a full-looking disk on
# the database and a warning on the queue invite the wrong fix (growing the
# database pool is a change, not a fix). Restarting the cache alone helps
# for a few minutes: it refills and is killed again. The ceiling must go
# back under the host's memory (its previous value is in the history), and
# the cache be started again.

incident "edge_latency_doubled" {
  title      = "Pages slow, database busy"
  alert      = "Load balancer p95 latency has nearly doubled in the last half hour; database connections in use are at 39 of 50."
  difficulty = "hard"
  split      = "test"
  tags       = ["cache", "process", "cascade", "victim-alert", "stale-metrics", "class:restart-alone-fails"]
  budget     = 14
  system     = "standard"

  fault "cache_memory_over_host" {
    target  = "cache"
    limit   = 3584
    host_mb = 2304.0
    change {
      at    = "10:50"
      actor = "s.lindqvist"
    }
  }
  distractor "noisy_warning" {
    target = "message_queue"
  }
  distractor "elevated_metric" {
    target = "database"
  }
  noise "stale_metrics" {}
  noise "routine_warnings" {}
  noise "retries" {}
  noise "health_check_flap" {}

  expert = [
    "inspect_traces(load_balancer)",
    "inspect_logs(database)",
    "check_dependencies(web_server)",
    "inspect_logs(cache)",
    "list_changes(cache)",
    "update_config(cache, max_memory_mb, $before)",
    "restart_service(cache)",
    "check_status(cache)",
    "resolve_incident(\"cache: max_memory_mb was raised to 3584 MB, above the memory of its host, so the kernel OOM-killed redis once its data outgrew the host\", \"set max_memory_mb back to its previous value and restarted the cache\")",
  ]
}
