# Database: a failover drill switched read routing off and nobody switched
# it back; every read now lands on the primary, which saturates. The alert
# fires at the edge.

incident "sawtooth_latency" {
  title      = "Site-wide slowness, no deploy"
  alert      = "Load balancer p95 response time swinging between 150 ms and over 1 s for the last 15 minutes, with bursts of 5xx; no deploys in the last 24 hours."
  difficulty = "medium"
  split      = "train"
  tags       = ["database", "config", "victim-alert"]
  budget     = 12
  system     = "standard"

  fault "db_read_replica_disabled" {
    target        = "database"
    read_fraction = 0.6
    change {}
  }
  distractor "elevated_metric" {
    target = "web_server"
  }
  noise "jitter" {}
  noise "routine_warnings" {}
  noise "retries" {}
  noise "health_check_flap" {}

  expert = [
    "inspect_traces(load_balancer)",
    "inspect_logs(database)",
    "inspect_config(database, read_replica_enabled)",
    "update_config(database, read_replica_enabled, true)",
    "resolve_incident(\"database: read replica disabled, reads on the primary\", \"re-enabled read_replica_enabled\")",
  ]
}
