# Database: a logical replication consumer for analytics was switched off
# without dropping its slot. The server keeps every WAL segment since, and
# the data volume is full: writes fail. No config was changed; restarting
# the database is an outage that frees nothing.

incident "orders_fail_volume_full" {
  title      = "Orders cannot be placed"
  alert      = "Checkout: order writes failing for 10 minutes; product pages and search still load."
  difficulty = "hard"
  split      = "train"
  tags       = ["database", "disk", "class:restart-makes-it-worse"]
  budget     = 12
  system     = "standard"

  fault "db_replication_slot_stale" {
    target      = "database"
    retained_gb = 300.0
    rate_gb     = 2.0
  }
  distractor "noisy_warning" {
    target = "web_server"
  }
  distractor "mq_consumers_paused" {
    target = "message_queue"
  }
  distractor "web_retired_job_refused" {
    target = "web_server"
  }
  noise "jitter" {}
  noise "routine_warnings" {}
  noise "retries" {}
  noise "health_check_flap" {}

  expert = [
    "inspect_logs(web_server)",
    "inspect_metrics(database)",
    "inspect_logs(database)",
    "list_replication_slots(database)",
    "drop_replication_slot(database, analytics_cdc)",
    "resolve_incident(\"database: an inactive replication slot retains WAL and the data volume is full, so writes fail\", \"dropped the inactive replication slot analytics_cdc; the checkpoint recycled the WAL\")",
  ]
}
