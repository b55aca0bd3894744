# Metastable: bloat from disabled autovacuum slows every job write (the
# trigger) until jobs wait past the producers' 5 s republish deadline, and
# with the jobs queue declared without the deduplication plugin's argument
# (the constraint, harmless on its own) every republished copy is queued. The copies keep arrivals above what the
# consumers finish, so re-enabling autovacuum alone leaves the backlog
# growing; the loop breaks only when the broker drops the copies again.

incident "jobs_never_catch_up" {
  title      = "Job backlog that will not drain"
  alert      = "The job queue's backlog keeps growing; invoices and confirmation emails are going out late."
  difficulty = "hard"
  split      = "test"
  budget     = 12
  system     = "standard"
  tags       = ["database", "message_queue", "metastable", "multi-fault"]

  fault "db_autovacuum_disabled" {
    target   = "database"
    dead_pct = 50.0
    change {}
  }
  fault "mq_dedup_disabled" {
    target = "message_queue"
    change {}
  }
  noise "jitter" {}
  noise "routine_warnings" {}
  noise "retries" {}
  noise "health_check_flap" {}

  expert = [
    "inspect_logs(message_queue)",
    "inspect_logs(database)",
    "update_config(database, autovacuum_enabled, true)",
    "redeclare_queue_with_deduplication(message_queue)",
    "resolve_incident(\"database: autovacuum disabled, table bloat; message queue: deduplication disabled, republished copies queued\", \"re-enabled autovacuum and redeclared the jobs queue with x-message-deduplication\")",
  ]
}
