# A consumer release fails a share of invoice jobs with an exception; each
# is retried, deliveries multiply and the backlog grows past what the
# consumers clear. More consumers drain the backlog, which is what the
# alert asks about, and so are tempting, but the release still fails jobs
# and retries them: a mask, and a wrong change. The rollback is the fix.

incident "consumers_added_retries_stay" {
  title      = "Job backlog growing at peak"
  alert      = "The jobs queue's backlog has been growing for twenty minutes and invoice emails are arriving late; the consumers look busy."
  difficulty = "medium"
  split      = "dev"
  tags       = ["message_queue", "deploy", "class:symptom-masking"]
  budget     = 12
  system     = "peak"

  fault "mq_bad_deploy_exception" {
    target  = "message_queue"
    version = "v4.4.0"
    share   = 0.4
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
    "inspect_metrics(message_queue)",
    "inspect_logs(message_queue)",
    "list_changes(message_queue)",
    "rollback(message_queue)",
    "resolve_incident(\"message_queue: the consumer release v4.4.0 is a bad deploy; invoice.render jobs raise KeyError and are retried, multiplying deliveries\", \"rolled back the message_queue consumers to v4.3.0\")",
  ]
}
