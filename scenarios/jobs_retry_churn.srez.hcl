# Medium: the alert names the job queue, where the cause is: failing jobs
# are retried too many times for this site. A tenth of its jobs fail on
# every attempt and its consumer pool is small, so it retries them once or
# twice; a change raised the limit to 5, inside the documented band, and
# the documented 3 is still too many here. The history's old value is the
# fix. A hand-tuned database setting and spiky metrics are on the way.

incident "jobs_retry_churn" {
  title      = "Job queue busy but throughput flat"
  alert      = "The job queue backlog keeps growing and jobs wait longer every minute, though publish traffic is normal."
  difficulty = "medium"
  split      = "dev"
  tags       = ["message_queue", "distractor", "noisy"]
  budget     = 10
  system     = "retry_lean"
  warmup     = 2

  fault "mq_retry_limit_high" {
    target = "message_queue"
    limit  = 5
    change {}
  }
  distractor "db_work_mem_tuned" {
    target = "database"
  }
  noise "spike" {}
  noise "routine_warnings" {}
  noise "retries" {}
  noise "health_check_flap" {}

  expert = [
    "inspect_logs(message_queue)",
    "inspect_config(message_queue, retry_limit)",
    "update_config(message_queue, retry_limit, $before)",
    "check_status(message_queue)",
    "resolve_incident(\"message queue: retry storm\", \"set retry_limit back to its previous value\")",
  ]
}
