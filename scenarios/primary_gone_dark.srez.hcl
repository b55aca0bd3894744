# Database: the primary PANICked on a WAL write and went down. A logical
# replication slot whose consumer was switched off weeks ago had kept every
# WAL segment since, until the data volume was full. The supervisor starts
# the server again and again; each start aborts in crash recovery, which
# needs room to write. Restarting it changes nothing; the WAL the slot pins
# must go (the site's wal_keep_size is ordinary, and no change in the
# history touched it), and the next start comes up.

incident "primary_gone_dark" {
  title      = "Database primary unreachable"
  alert      = "Database primary failed its last 5 health probes; connection attempts from every client are refused."
  difficulty = "easy"
  split      = "dev"
  tags       = ["database", "process", "disk", "class:restart-alone-fails"]
  budget     = 9
  hold       = 4
  system     = "standard"

  fault "db_replication_slot_outage" {
    target      = "database"
    retained_gb = 320.0
    rate_gb     = 0.5
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
  noise "spike" {}
  noise "routine_warnings" {}
  noise "retries" {}
  noise "health_check_flap" {}

  expert = [
    "check_status(database)",
    "inspect_logs(database)",
    "inspect_metrics(database)",
    "list_replication_slots(database)",
    "drop_replication_slot(database, analytics_cdc)",
    "check_status(database)",
    "resolve_incident(\"database: the data volume is full of WAL that an inactive replication slot retains, so crash recovery cannot write and the server will not start\", \"dropped the inactive replication slot analytics_cdc; the next start came up\")",
  ]
}
