# Message queue: an export job was retired but its queue stayed bound to
# the jobs exchange and took a copy of every message. Its messages filled
# the broker's data disk to the last byte; the node stopped on a failed
# write and every start since fails while recovering its message store.
# The web tier cannot hand off background jobs and drops them. Restarting
# the broker is one more failed start; the queue with no consumers must go
# (with its messages), and the next start comes up.

incident "broker_offline" {
  title      = "Background jobs not being accepted"
  alert      = "The job broker stopped answering on its AMQP port; the web tier is dropping invoice and email jobs."
  difficulty = "easy"
  split      = "train"
  tags       = ["message_queue", "process", "disk", "class:restart-alone-fails"]
  budget     = 10
  system     = "standard"

  fault "mq_orphaned_binding_outage" {
    target  = "message_queue"
    held_gb = 46.0
    rate_gb = 0.5
  }
  noise "jitter" {}
  noise "routine_warnings" {}
  noise "retries" {}
  noise "health_check_flap" {}

  expert = [
    "check_status(message_queue)",
    "inspect_logs(message_queue)",
    "inspect_metrics(message_queue)",
    "delete_queue(message_queue, jobs.audit-export)",
    "check_status(message_queue)",
    "resolve_incident(\"message_queue: a queue with no consumers (jobs.audit-export) is still bound to the exchange and its messages filled the broker's disk, so every start fails\", \"deleted the orphaned queue jobs.audit-export; the next start came up\")",
  ]
}
