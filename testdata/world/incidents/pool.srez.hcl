incident "pool" {
  title      = "Slow pages"
  alert      = "Users report errors on the frontend."
  difficulty = "medium"
  split      = "train"
  budget     = 10
  system     = "pair"

  fault "small_pool" {
    target = "store"
    size   = 10
  }
  distractor "slow_checkpoint" {
    target = "frontend"
  }
  noise "jitter" {}

  expert = [
    "inspect_metrics(frontend)",
    "inspect_logs(store)",
    "update_config(store, pool, 40)",
    "resolve_incident(\"store: connection pool exhausted\", \"raise pool\")",
  ]
}

incident "crash" {
  alert      = "The frontend is failing every request."
  difficulty = "easy"
  split      = "dev"
  budget     = 8
  system     = "pair"

  fault "crash" {
    target = "frontend"
  }

  expert = [
    "check_status(frontend)",
    "restart_service(frontend)",
    "resolve_incident(\"frontend crashed\", \"restart the frontend\")",
  ]
}
