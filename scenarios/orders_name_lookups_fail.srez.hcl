# Web server -> database link: the site's resolvers fail a share of
# their answers for the database's name. Requests that reuse a pooled
# connection work; those that open a new one fail with libpq's "could
# not translate host name". The database is healthy and sees nothing
# wrong but fewer new logins. The resolvers are the network team's: the
# right end is to escalate naming the name resolution. Restarting the
# web tier opens every connection afresh; restarting the database or
# changing the pool are wrong changes.

incident "orders_name_lookups_fail" {
  title      = "Intermittent order page errors"
  alert      = "Web API: 5xx on GET /orders around 3% for the last 20 minutes; retries usually succeed."
  difficulty = "easy"
  split      = "train"
  tags       = ["web_server", "database", "links", "class:escalation"]
  budget     = 10
  system     = "standard"

  fault "link_web_db_lookup" {
    target = "web_server -> database"
    share  = 0.2
  }
  distractor "noisy_warning" {
    target = "message_queue"
  }
  noise "jitter" {}
  noise "routine_warnings" {}
  noise "retries" {}
  noise "health_check_flap" {}

  expert = [
    "inspect_logs(web_server)",
    "check_status(database)",
    "escalate(\"web_server: DNS resolution failing for db.internal (Temporary failure in name resolution) on new database connections; the database itself is healthy; needs the network team who run the resolvers\")",
  ]
}
