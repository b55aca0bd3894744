# Message queue: the broker node died and its supervisor gave up restarting
# it. The web tier cannot hand off background jobs and drops them.

incident "broker_offline" {
  title      = "Background jobs not being accepted"
  alert      = "The job broker stopped answering on its AMQP port; the web tier is dropping invoice and email jobs."
  difficulty = "easy"
  split      = "train"
  tags       = ["message_queue", "process"]
  budget     = 10
  system     = "standard"

  fault "service_crash" {
    target    = "message_queue"
    exit_code = 1
  }
  noise "jitter" {}

  expert = [
    "check_status(message_queue)",
    "inspect_logs(message_queue)",
    "restart_service(message_queue)",
    "check_status(message_queue)",
    "resolve_incident(\"message queue: broker process crashed\", \"restarted the message queue broker\")",
  ]
}
