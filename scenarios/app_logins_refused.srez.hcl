# Database: the app role's password was rotated on the server only. The
# web tier and the job consumers still present the version they loaded
# before and every login is refused. The server is right; the stale side
# is each client, and both must reload their secrets.

incident "app_logins_refused" {
  title      = "Orders and jobs failing after the credential rotation"
  alert      = "Web tier: 5xx on order pages above 60% for 7 minutes; background jobs failing too."
  difficulty = "hard"
  split      = "test"
  tags       = ["database", "credentials", "class:stale-side-fix"]
  budget     = 12
  system     = "standard"

  fault "db_app_password_rotated" {
    target         = "database"
    versions_ahead = 1
  }
  distractor "noisy_warning" {
    target = "cache"
  }
  distractor "mq_consumers_paused" {
    target = "message_queue"
  }
  distractor "lb_partner_sync" {
    target = "load_balancer"
  }
  noise "jitter" {}
  noise "routine_warnings" {}
  noise "retries" {}
  noise "health_check_flap" {}

  expert = [
    "inspect_logs(web_server)",
    "inspect_logs(database)",
    "reload_secrets(web_server)",
    "reload_secrets(message_queue)",
    "check_status(database)",
    "resolve_incident(\"database: the app password was rotated on the server and its clients still present the old version\", \"reloaded the secrets on the web tier and the queue consumers\")",
  ]
}
