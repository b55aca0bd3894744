# Message queue: on a site where a tenth of the jobs fail on every attempt
# and the consumer pool is small, a change raised the retry limit from the
# site's one or two to 5 (inside the documented band; the documented 3 is
# still too many here). Failing jobs are redelivered five times each; the
# consumers spend their time on them and hammer the database.

incident "writes_from_workers" {
  title      = "Invoices late, extra database writes"
  alert      = "Invoice emails are going out minutes late, and database writes from the jobs-worker account are up about a fifth since this morning."
  difficulty = "medium"
  split      = "dev"
  tags       = ["message_queue", "config"]
  budget     = 12
  system     = "retry_lean"
  warmup     = 2

  fault "mq_retry_limit_high" {
    target = "message_queue"
    limit  = 5
    change {}
  }
  noise "spike" {}
  noise "routine_warnings" {}
  noise "retries" {}
  noise "health_check_flap" {}

  expert = [
    "inspect_metrics(database)",
    "inspect_logs(message_queue)",
    "inspect_config(message_queue, retry_limit)",
    "update_config(message_queue, retry_limit, $before)",
    "check_status(message_queue)",
    "inspect_metrics(message_queue)",
    "resolve_incident(\"message queue: retry storm, retry limit far too high\", \"lowered retry_limit back to its previous value\")",
  ]
}
