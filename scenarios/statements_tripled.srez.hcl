# Two faults, one victim: product entries were given a ten-second lifetime,
# so reads miss the cache and land on the database; independently, a batch
# of malformed jobs is retried forty times each and the consumers' writes
# land there too. The alert fires on the database, which is healthy.

incident "statements_tripled" {
  title      = "Database load up from two directions"
  alert      = "Database statements per second have nearly tripled against last week while its query latency is flat; invoice jobs are also running late."
  difficulty = "hard"
  split      = "train"
  tags       = ["cache", "message_queue", "multi-fault", "victim-alert"]
  budget     = 16
  system     = "standard"

  fault "cache_ttl_too_low" {
    target = "cache"
    share  = 0.17
    change {}
  }
  fault "mq_retry_limit_high" {
    target = "message_queue"
    limit  = 40
    change {}
  }
  distractor "db_work_mem_tuned" {
    target = "database"
  }
  noise "jitter" {}
  noise "spike" {}
  noise "routine_warnings" {}
  noise "retries" {}
  noise "health_check_flap" {}

  expert = [
    "inspect_logs(web_server)",
    "inspect_logs(database)",
    "inspect_logs(cache)",
    "inspect_logs(message_queue)",
    "update_config(cache, ttl_seconds, $before)",
    "update_config(message_queue, retry_limit, $before)",
    "resolve_incident(\"cache: ttl too low; message queue: retry storm\", \"raised cache ttl_seconds back to its previous value and lowered the queue retry_limit back to its previous value\")",
  ]
}
