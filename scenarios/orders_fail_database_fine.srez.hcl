# Web server -> database link: the network path from the web tier to
# the database loses packets. The web tier's calls to the database wait
# on retransmissions and some new connections never finish their
# handshake ("timeout expired"), so /orders answers 5xx and slows. The
# database serves every call it receives as fast as ever: its own
# latency, errors and connections are healthy. Comparing the two ends
# is what separates a link from a server. The path is the network
# team's: the right end is to escalate naming it. Restarting the
# database, raising the web tier's deadline or resizing the pool are
# wrong changes.

incident "orders_fail_database_fine" {
  title      = "Order pages failing with database errors"
  alert      = "Web API: 5xx on GET /orders above 3% for the last 15 minutes, with database connection errors in the application log."
  difficulty = "medium"
  split      = "dev"
  tags       = ["web_server", "database", "links", "class:escalation", "victim-alert"]
  budget     = 10
  system     = "standard"

  fault "link_web_db_loss" {
    target   = "web_server -> database"
    loss_pct = 4.0
  }
  distractor "noisy_warning" {
    target = "cache"
  }
  noise "jitter" {}
  noise "routine_warnings" {}
  noise "retries" {}
  noise "health_check_flap" {}

  expert = [
    "inspect_logs(web_server)",
    "inspect_metrics(database)",
    "inspect_logs(database)",
    "escalate(\"web_server: packet loss on the network path from the web tier to the database (db.internal); connect attempts time out while the database's own latency, errors and connections are normal; needs the network team\")",
  ]
}
