# Message queue: the consumer pool was scaled down during a maintenance
# window, to what keeps up with 85% of the peak's jobs, and never scaled back; exports queue for minutes.

incident "export_jobs_waiting" {
  title      = "CSV exports take minutes to arrive"
  alert      = "Users report that account exports requested from the dashboard arrive late, and later every few minutes; the site itself is fast."
  difficulty = "medium"
  split      = "train"
  tags       = ["message_queue", "capacity"]
  budget     = 12
  system     = "peak"

  fault "mq_consumer_concurrency_low" {
    target = "message_queue"
    share  = 0.85
    change {}
  }
  distractor "noisy_warning" {
    target = "database"
  }
  noise "jitter" {}
  noise "routine_warnings" {}
  noise "retries" {}
  noise "health_check_flap" {}

  expert = [
    "check_dependencies(web_server)",
    "inspect_metrics(message_queue)",
    "inspect_logs(message_queue)",
    "update_config(message_queue, consumer_concurrency, $before)",
    "resolve_incident(\"message queue: too few consumers for the arrival rate\", \"raised consumer_concurrency back to its previous value\")",
  ]
}
