# Database: the server aborted on an assertion and its supervisor gave up
# restarting it; everything that needs a row fails.

incident "primary_gone_dark" {
  title      = "Database primary unreachable"
  alert      = "Database primary failed its last 5 health probes; connection attempts from every client are refused."
  difficulty = "easy"
  split      = "dev"
  tags       = ["database", "process"]
  budget     = 9
  hold       = 4
  system     = "standard"

  fault "service_crash" {
    target    = "database"
    exit_code = 134
  }
  distractor "noisy_warning" {
    target = "message_queue"
  }
  noise "spike" {}

  expert = [
    "check_status(database)",
    "inspect_logs(database)",
    "restart_service(database)",
    "check_status(database)",
    "resolve_incident(\"database process crashed\", \"restarted the database\")",
  ]
}
