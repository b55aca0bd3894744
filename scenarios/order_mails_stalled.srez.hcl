# Message queue: an export job was retired but its queue is still bound to
# the exchange and takes a copy of every message. The broker's disk is
# nearly full and its disk alarm blocks every publisher; the web tier's
# job publishes stall. The alert names the web tier, which is a victim.

incident "order_mails_stalled" {
  title      = "Order confirmations stopped going out"
  alert      = "Web tier: job publishes timing out for 12 minutes; order confirmation e-mails are not being sent."
  difficulty = "hard"
  split      = "test"
  tags       = ["message_queue", "disk", "class:alerted-service-innocent"]
  budget     = 12
  system     = "standard"

  fault "mq_orphaned_binding" {
    target  = "message_queue"
    held_gb = 44.0
    rate_gb = 0.5
  }
  distractor "noisy_warning" {
    target = "web_server"
  }
  distractor "db_replica_rebuilding" {
    target = "database"
  }
  noise "jitter" {}
  noise "routine_warnings" {}
  noise "retries" {}
  noise "health_check_flap" {}

  expert = [
    "inspect_logs(web_server)",
    "inspect_logs(message_queue)",
    "delete_queue(message_queue, jobs.audit-export)",
    "resolve_incident(\"message_queue: an orphaned queue with no consumers filled the broker's disk and the disk alarm blocks publishers\", \"deleted the orphaned queue jobs.audit-export\")",
  ]
}
