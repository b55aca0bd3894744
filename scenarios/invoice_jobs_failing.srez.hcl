# Message queue: a release of the job consumers fails a share of invoice
# jobs with an exception. Each failure is retried, so deliveries multiply
# and the backlog grows; the consumers' logs show the exception under the
# new build. Raising consumer concurrency or lowering the retry limit
# hides the symptom on a healthy site and is a wrong change; a restart runs
# the same build. Rolling the consumers back fixes it.

incident "invoice_jobs_failing" {
  title      = "Invoice emails delayed, job retries climbing"
  alert      = "Jobs queue: retries per second above 40 and invoice emails arriving late for the last half hour."
  difficulty = "medium"
  split      = "dev"
  tags       = ["message_queue", "deploy"]
  budget     = 10
  system     = "standard"

  fault "mq_bad_deploy_exception" {
    target  = "message_queue"
    version = "v4.4.0"
    share   = 0.5
    change {}
  }
  distractor "elevated_metric" {
    target = "database"
  }
  noise "jitter" {}
  noise "routine_warnings" {}
  noise "retries" {}
  noise "health_check_flap" {}

  expert = [
    "inspect_logs(message_queue)",
    "list_changes(message_queue)",
    "rollback(message_queue)",
    "check_status(message_queue)",
    "resolve_incident(\"message_queue: the consumer release v4.4.0 is a bad deploy; invoice.render jobs raise KeyError and are retried\", \"rolled back the message_queue consumers to v4.3.0\")",
  ]
}
