# Message queue: the broker's password for the publishing user was rotated
# on the broker only. The web tier keeps presenting the version it loaded
# before; every publish is refused at login and jobs are dropped. The
# broker is where the rotation happened; the stale side is the web tier.

incident "jobs_not_published" {
  title      = "Receipts and exports stopped after the rotation window"
  alert      = "Web tier: error rate above 5% for 10 minutes; no new jobs reaching the queue since the 11:00 credential rotation window."
  difficulty = "medium"
  split      = "dev"
  tags       = ["message_queue", "credentials", "class:stale-side-fix"]
  budget     = 12
  system     = "standard"

  fault "mq_publish_password_rotated" {
    target         = "message_queue"
    versions_ahead = 1
  }
  distractor "noisy_warning" {
    target = "database"
  }
  distractor "db_replica_rebuilding" {
    target = "database"
  }
  noise "jitter" {}
  noise "routine_warnings" {}
  noise "retries" {}
  noise "health_check_flap" {}

  expert = [
    "inspect_logs(web_server)",
    "inspect_logs(message_queue)",
    "reload_secrets(web_server)",
    "resolve_incident(\"message_queue: the broker's password for the app user was rotated and the web tier still presents the old version\", \"reloaded the secrets on the web tier\")",
  ]
}
