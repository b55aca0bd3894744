# Cascade: a statement deadline cut to half the site's longest routine
# statements cancels a share of them. The job consumers' writes fail and are retried, which adds
# load to the same database; the backlog grows and the alert fires on the
# queue. A chatty queue warning, a tuned keep-alive on the web tier and
# stale dashboards invite the wrong fix.

incident "confirmations_stuck" {
  title      = "Order confirmations piling up"
  alert      = "Job queue: order-confirmation backlog growing for 20 minutes; customers report confirmation emails missing."
  difficulty = "hard"
  split      = "test"
  tags       = ["database", "message_queue", "cascade", "distractor", "stale-metrics"]
  budget     = 14
  system     = "peak"

  fault "db_query_timeout_low" {
    target = "database"
    share  = 0.5
    change {}
  }
  distractor "noisy_warning" {
    target = "message_queue"
  }
  distractor "web_short_keepalive" {
    target = "web_server"
  }
  noise "stale_metrics" {}
  noise "routine_warnings" {}
  noise "retries" {}
  noise "health_check_flap" {}

  expert = [
    "inspect_logs(message_queue)",
    "inspect_metrics(message_queue)",
    "inspect_logs(database)",
    "inspect_config(database, query_timeout_ms)",
    "update_config(database, query_timeout_ms, $before)",
    "resolve_incident(\"database: query timeout far too short, statements cancelled\", \"raised query_timeout_ms back to its previous value\")",
  ]
}
