# The same surface as backlog_after_consumer_release, the other cause: the
# job backlog grows at the peak, and the history shows both a consumer
# release and a consumer pool retune shortly before. The queue's metrics
# and the consumers' log separate them: retries run at several times their
# usual rate and a task raises, so jobs are failing, not waiting for a
# consumer. The retune is harmless (the
# pool still covers the job rate); the release is the fault.

incident "backlog_after_consumer_retune" {
  title      = "Job backlog growing after a consumer retune"
  alert      = "The jobs queue's backlog is climbing since early afternoon and exports arrive late; the consumer pool was retuned shortly before."
  difficulty = "medium"
  split      = "test"
  tags       = ["message_queue", "deploy", "class:two-causes-one-read"]
  budget     = 10
  system     = "peak"
  traffic    = 520.0

  fault "mq_bad_deploy_exception" {
    target  = "message_queue"
    version = "v4.4.0"
    share   = 0.4
    change {
      at = "10:20"
    }
  }
  change {
    service = "message_queue"
    key     = "consumer_concurrency"
    value   = 10
    at      = "13:05"
    actor   = "a.ferreira"
  }
  noise "jitter" {}
  noise "routine_warnings" {}
  noise "retries" {}
  noise "health_check_flap" {}

  expert = [
    "list_changes(message_queue)",
    "inspect_metrics(message_queue)",
    "inspect_logs(message_queue)",
    "rollback(message_queue)",
    "check_status(message_queue)",
    "inspect_metrics(message_queue)",
    "inspect_traces(message_queue)",
    "resolve_incident(\"message_queue: the consumer release v4.4.0 is a bad deploy; jobs fail and are retried, multiplying deliveries\", \"rolled back the message_queue consumers to their previous build\")",
  ]
}
