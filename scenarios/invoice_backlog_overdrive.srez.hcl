# Recovery: reads stopped going to the replica after a failover drill, so
# the primary is saturated and every job's database write is slow; the job
# queue backs up and its alert fires. Raising consumer_concurrency is the
# tempting fix: the backlog shrinks a little, but the extra consumers load the
# saturated primary and the storefront's error rate climbs. A responder who
# tried it must put the consumers back and re-enable the replica.

incident "invoice_backlog_overdrive" {
  title      = "Invoice jobs backing up"
  alert      = "The job queue's backlog has passed 2,000 messages and keeps growing; invoices are going out late."
  difficulty = "hard"
  split      = "dev"
  tags       = ["database", "message_queue", "recovery", "victim-alert"]
  budget     = 14
  system     = "standard"

  fault "db_read_replica_disabled" {
    target        = "database"
    read_fraction = 0.8
    change {}
  }
  distractor "noisy_warning" {
    target = "cache"
  }
  noise "jitter" {}
  noise "routine_warnings" {}
  noise "retries" {}
  noise "health_check_flap" {}

  expert = [
    "inspect_logs(message_queue)",
    "inspect_logs(database)",
    "inspect_config(database, read_replica_enabled)",
    "update_config(database, read_replica_enabled, true)",
    "resolve_incident(\"database: read replica disabled, reads on the primary\", \"re-enabled read_replica_enabled\")",
  ]
}
