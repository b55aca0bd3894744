# Message queue: a job stays hidden for less time than a consumer needs to
# finish it, so it is handed to a second consumer while the first still works.

incident "jobs_run_twice" {
  title      = "Customers receive the same email several times"
  alert      = "Support reports customers getting the same receipt email two or three times; the job queue's backlog is climbing."
  difficulty = "easy"
  split      = "test"
  tags       = ["message_queue", "config"]
  budget     = 10
  system     = "peak"

  fault "mq_visibility_timeout_low" {
    target = "message_queue"
    share  = 0.69
    change {}
  }
  noise "jitter" {}
  noise "routine_warnings" {}
  noise "retries" {}
  noise "health_check_flap" {}

  expert = [
    "inspect_logs(message_queue)",
    "inspect_metrics(message_queue)",
    "update_config(message_queue, visibility_timeout_ms, $before)",
    "resolve_incident(\"message queue: visibility timeout too short, jobs redelivered\", \"raised visibility_timeout_ms back to its previous value\")",
  ]
}
