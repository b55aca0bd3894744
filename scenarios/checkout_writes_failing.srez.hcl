# Database: WAL retention was raised to 56 GB for a replica rebuild and
# never lowered. On this site's 250 GB data volume, with about 200 GB of
# data, that fills it (a value inside the documented band), and every
# statement that writes fails. The site keeps 4 to 8 GB; the documented
# 16 GB would leave the volume over 85% full. The alert names the database.

incident "checkout_writes_failing" {
  title      = "Checkouts failing on database writes"
  alert      = "Database write errors: about a third of database statements have failed for the last 20 minutes; checkouts and sign-ups error out."
  difficulty = "easy"
  split      = "train"
  tags       = ["database", "disk"]
  budget     = 9
  system     = "small_volume"

  fault "db_wal_retention_full" {
    target  = "database"
    keep_gb = 56
    change {}
  }
  distractor "elevated_metric" {
    target = "cache"
  }
  noise "jitter" {}
  noise "routine_warnings" {}
  noise "retries" {}
  noise "health_check_flap" {}

  expert = [
    "inspect_logs(database)",
    "inspect_config(database, wal_keep_size_gb)",
    "update_config(database, wal_keep_size_gb, $before)",
    "check_status(database)",
    "resolve_incident(\"database: wal_keep_size_gb was raised and never lowered, the retained WAL filled the data volume so writes fail\", \"lowered wal_keep_size_gb back to its previous value\")",
  ]
}
