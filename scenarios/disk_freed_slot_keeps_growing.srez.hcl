# A logical replication consumer (the analytics CDC feed) was switched off
# without dropping its slot; the server keeps every WAL segment since and
# the data volume has filled, so order writes fail. Cutting the WAL the
# server keeps for replicas frees a few gigabytes and writes succeed again
# for a while, which is tempting, but the slot goes on retaining WAL and
# the volume fills again: a mask, and a wrong change. Dropping the slot is
# the fix.

incident "disk_freed_slot_keeps_growing" {
  title      = "Order writes failing, database volume full"
  alert      = "Checkout: order writes failing for 10 minutes with errors from the database; reads still work."
  difficulty = "medium"
  split      = "train"
  tags       = ["database", "disk", "class:symptom-masking"]
  budget     = 12
  hold       = 6
  system     = "peak"

  fault "db_replication_slot_stale" {
    target      = "database"
    retained_gb = 270.0
    rate_gb     = 2.0
  }
  change {
    service = "database"
    key     = "wal_keep_size_gb"
    value   = 24
    actor   = "dba-oncall"
  }
  distractor "noisy_warning" {
    target = "message_queue"
  }
  distractor "web_retired_job_refused" {
    target = "web_server"
  }
  distractor "mq_consumers_paused" {
    target = "message_queue"
  }
  noise "jitter" {}
  noise "routine_warnings" {}
  noise "retries" {}
  noise "health_check_flap" {}

  expert = [
    "inspect_metrics(database)",
    "inspect_logs(database)",
    "list_replication_slots(database)",
    "drop_replication_slot(database, analytics_cdc)",
    "resolve_incident(\"database: an inactive replication slot retains WAL and the data volume is full, so writes fail\", \"dropped the inactive replication slot analytics_cdc so the retained WAL is recycled\")",
  ]
}
