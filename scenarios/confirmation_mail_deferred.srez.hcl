# Message queue: the external mail relay turns away outgoing mail with a
# temporary SMTP error. Email jobs fail and are retried, so the retry rate
# climbs and the backlog grows, while every other job succeeds. A routine
# consumer release in the change history invites a rollback, which changes
# nothing: the consumers' logs show the relay's own 421 reply for the
# email task alone. The right end is to escalate naming the relay; any
# write is a wrong change.

incident "confirmation_mail_deferred" {
  title      = "Order confirmation emails not arriving"
  alert      = "Jobs queue: retries per second above 40 for the last 20 minutes; support reports customers without order confirmation emails."
  difficulty = "medium"
  split      = "dev"
  tags       = ["message_queue", "class:escalation", "misleading"]
  budget     = 10
  system     = "standard"

  fault "mail_relay_outage" {
    target = "message_queue"
    share  = 1.0
  }
  change {
    service = "message_queue"
    key     = "version"
    value   = "v4.3.1"
    at      = "13:40"
    actor   = "platform-ci"
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
    "inspect_metrics(message_queue)",
    "escalate(\"message_queue: the external mail relay is rejecting outgoing mail with 421 4.7.0 (temporary system problem), so email.send jobs fail and are retried; the consumer release is not the cause; needs the mail provider\")",
  ]
}
