# The job backlog grows at the peak. Two causes fit the alert and the
# history: a consumer release went out shortly before, and the consumer
# pool was trimmed this morning. The consumers' own log separates them:
# no task raises, the pool runs fewer consumers than the job rate needs,
# and the broker delivers fewer messages than are published. The release
# is innocent; rolling it back is a wrong change.

incident "backlog_after_consumer_release" {
  title      = "Job backlog growing after a consumer release"
  alert      = "The jobs queue's backlog is climbing since early afternoon and exports arrive late; a consumer release went out shortly before."
  difficulty = "easy"
  split      = "dev"
  tags       = ["message_queue", "capacity", "class:two-causes-one-read"]
  budget     = 10
  system     = "peak"
  traffic    = 560.0

  fault "mq_consumer_concurrency_low" {
    target = "message_queue"
    share  = 0.85
    change {
      at    = "10:20"
      actor = "a.ferreira"
    }
  }
  change {
    service = "message_queue"
    key     = "version"
    value   = "v4.3.1"
    at      = "13:05"
    actor   = "platform-ci"
  }
  noise "jitter" {}
  noise "routine_warnings" {}
  noise "retries" {}
  noise "health_check_flap" {}

  expert = [
    "list_changes(message_queue)",
    "inspect_logs(message_queue)",
    "update_config(message_queue, consumer_concurrency, $before)",
    "resolve_incident(\"message_queue: too few consumers for the job rate since the pool was trimmed; the consumer release raises nothing\", \"raised consumer_concurrency back to its previous value\")",
  ]
}
