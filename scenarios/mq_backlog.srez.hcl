# Message queue: too few consumers for the arrival rate; the backlog and
# the lag grow every tick.

incident "mq_backlog" {
  title      = "Order confirmations delayed"
  alert      = "Customers report order confirmation emails arriving many minutes late."
  difficulty = "medium"
  split      = "test"
  tags       = ["message_queue", "capacity"]
  budget     = 10
  system     = "peak"

  fault "mq_consumer_concurrency_low" {
    target = "message_queue"
    share  = 0.8
    change {}
  }
  distractor "elevated_metric" {
    target = "database"
  }
  noise "phantom_restart" {}
  noise "routine_warnings" {}
  noise "retries" {}
  noise "health_check_flap" {}

  expert = [
    "inspect_metrics(message_queue)",
    "inspect_logs(message_queue)",
    "inspect_config(message_queue, consumer_concurrency)",
    "update_config(message_queue, consumer_concurrency, $before)",
    "resolve_incident(\"message queue: too few consumers for the arrival rate\", \"raised consumer_concurrency back to its previous value\")",
  ]
}
