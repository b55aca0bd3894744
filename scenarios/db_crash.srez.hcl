# Database crash: a logical replication slot for an analytics consumer that
# was switched off kept every WAL segment since. The data volume filled,
# the server PANICked on a WAL write and went down, and every start the
# supervisor makes aborts in crash recovery for want of space. The queue
# backs up while the database is away. Restarting it is one more aborted
# start; the skill is to see why it cannot start (the volume is full of WAL
# that checkpoints do not recycle, with wal_keep_size as the site set it)
# and free the slot's WAL, then check that the backlog drains.

incident "db_crash" {
  title      = "Every page errors"
  alert      = "The web tier returns 5xx for nearly every request."
  difficulty = "medium"
  split      = "dev"
  tags       = ["database", "process", "disk", "class:restart-alone-fails"]
  budget     = 8
  system     = "standard"

  fault "db_replication_slot_outage" {
    target      = "database"
    retained_gb = 300.0
    rate_gb     = 1.0
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
    "check_dependencies(web_server)",
    "inspect_logs(database)",
    "inspect_metrics(database)",
    "list_replication_slots(database)",
    "drop_replication_slot(database, analytics_cdc)",
    "check_dependencies(message_queue)",
    "resolve_incident(\"database: an inactive replication slot retains WAL and the data volume is full, so every start aborts in crash recovery\", \"dropped the inactive replication slot analytics_cdc; the next start recovered and the backlog drains\")",
  ]
}
