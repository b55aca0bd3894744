# Medium: the alert names the job queue, where the cause is: failing jobs
# are retried far too many times. A hand-tuned database setting and spiky
# metrics are on the way.

incident "jobs_retry_churn" {
  title      = "Job queue busy but throughput flat"
  alert      = "The job queue backlog keeps growing and jobs wait longer every minute, though publish traffic is normal."
  difficulty = "medium"
  split      = "dev"
  tags       = ["message_queue", "distractor", "noisy"]
  budget     = 10
  system     = "standard"

  fault "mq_retry_limit_high" {
    target = "message_queue"
    limit  = 60
    change {}
  }
  distractor "db_work_mem_tuned" {
    target = "database"
  }
  noise "spike" {}

  expert = [
    "inspect_logs(message_queue)",
    "inspect_config(message_queue, retry_limit)",
    "update_config(message_queue, retry_limit, $before)",
    "resolve_incident(\"message queue: retry storm\", \"set retry_limit back to its previous value\")",
  ]
}
