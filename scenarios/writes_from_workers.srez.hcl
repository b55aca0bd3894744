# Message queue: a batch of malformed jobs is redelivered up to 100 times
# each; the consumer pool spends its time on them and hammers the database.

incident "writes_from_workers" {
  title      = "Invoices late, extra database writes"
  alert      = "Invoice emails are going out minutes late, and database writes from the jobs-worker account are up about a fifth since this morning."
  difficulty = "medium"
  split      = "dev"
  tags       = ["message_queue", "config"]
  budget     = 12
  system     = "standard"

  fault "mq_retry_limit_high" {
    target = "message_queue"
    limit  = 100
    change {}
  }
  noise "spike" {}

  expert = [
    "inspect_metrics(database)",
    "inspect_logs(message_queue)",
    "inspect_config(message_queue, retry_limit)",
    "update_config(message_queue, retry_limit, $before)",
    "resolve_incident(\"message queue: retry storm, retry limit far too high\", \"lowered retry_limit back to its previous value\")",
  ]
}
