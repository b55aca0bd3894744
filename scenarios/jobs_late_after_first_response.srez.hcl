# The consumer pool was trimmed this morning to fewer consumers than the
# peak's job rate needs, and the backlog grew. The secondary on-call, paged
# first, shortened the broker's visibility timeout "so stuck jobs come back
# sooner"; deliveries now reappear while their first run is still working,
# every job runs more than once and the backlog grows faster. Restoring
# the consumers alone leaves the redeliveries; undoing the on-call's change
# alone leaves too few consumers.

incident "jobs_late_after_first_response" {
  title      = "Job backlog still growing after the first response"
  alert      = "Background jobs are running minutes late and the queue's backlog is still climbing after the secondary on-call's mitigation."
  difficulty = "medium"
  split      = "train"
  tags       = ["message_queue", "class:responder-made-it-worse"]
  budget     = 14
  system     = "peak"

  fault "mq_consumer_concurrency_low" {
    target = "message_queue"
    share  = 0.85
    change {
      at = "09:40"
    }
  }
  fault "mq_visibility_timeout_low" {
    target = "message_queue"
    share  = 0.69
    change {
      at    = "15:10"
      actor = "sre-oncall"
    }
  }
  distractor "noisy_warning" {
    target = "database"
  }
  noise "jitter" {}
  noise "routine_warnings" {}
  noise "retries" {}
  noise "health_check_flap" {}

  expert = [
    "inspect_logs(message_queue)",
    "inspect_metrics(message_queue)",
    "list_changes(message_queue)",
    "update_config(message_queue, consumer_concurrency, $before)",
    "update_config(message_queue, visibility_timeout_ms, $before)",
    "resolve_incident(\"message_queue: too few consumers for the job rate; message_queue: visibility timeout too short, deliveries are handed out again before the job finishes\", \"raised consumer_concurrency back to its previous value and put visibility_timeout_ms back to its value before the on-call's change\")",
  ]
}
