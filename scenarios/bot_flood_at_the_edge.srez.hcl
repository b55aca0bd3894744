# Load balancer: one client address sends thousands of requests a second.
# The listener's connection table and the web workers are spent on it and
# real users are refused. Raising limits or adding workers only feeds the
# flood; restarting the balancer drops every connection and the client
# comes straight back. Blocking the one address is the fix.

incident "bot_flood_at_the_edge" {
  title      = "Users refused at the edge"
  alert      = "Load balancer: client error rate above 30% for 8 minutes; request rate at the edge far above the usual evening level."
  difficulty = "easy"
  split      = "dev"
  tags       = ["load_balancer", "traffic", "class:restart-makes-it-worse"]
  budget     = 12
  system     = "standard"

  fault "lb_flooding_address" {
    target = "load_balancer"
    rps    = 3000.0
  }
  distractor "elevated_metric" {
    target = "web_server"
  }
  distractor "db_replica_rebuilding" {
    target = "database"
  }
  noise "jitter" {}
  noise "routine_warnings" {}
  noise "retries" {}
  noise "health_check_flap" {}

  expert = [
    "inspect_metrics(load_balancer)",
    "inspect_logs(load_balancer)",
    "block_client(load_balancer, 203.0.113.57)",
    "resolve_incident(\"load_balancer: an abusive client floods the listener, one address sends most of the requests\", \"blocked the flooding address 203.0.113.57 at the listener\")",
  ]
}
