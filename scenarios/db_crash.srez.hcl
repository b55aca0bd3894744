# Database crash: the server process exited and its supervisor did not
# restart it. The queue backs up while the database is away, so the expert
# checks that the backlog drains before closing.

incident "db_crash" {
  title      = "Every page errors"
  alert      = "The web tier returns 5xx for nearly every request."
  difficulty = "medium"
  split      = "dev"
  tags       = ["database", "process"]
  budget     = 8
  system     = "standard"

  fault "service_crash" {
    target    = "database"
    exit_code = 139
  }
  noise "jitter" {}

  expert = [
    "check_dependencies(web_server)",
    "inspect_logs(database)",
    "restart_service(database)",
    "check_dependencies(message_queue)",
    "resolve_incident(\"database process crashed\", \"restart the database\")",
  ]
}
