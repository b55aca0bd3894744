# Database: the administrative lock taken for last night's migration was
# never lifted; only superuser sessions get in, every client is rejected.
# The web tier is where it shows.

incident "login_wall_after_migration" {
  title      = "Logins and checkouts fail after the overnight migration"
  alert      = "Web tier 5xx ratio jumped from 0.1% to above 25% at 02:40, right after the overnight schema migration finished; logins and checkouts fail, cached catalogue pages still load."
  difficulty = "medium"
  split      = "dev"
  tags       = ["database", "config", "victim-alert"]
  budget     = 10
  system     = "standard"

  fault "db_maintenance_mode" {
    target    = "database"
    admin_pid = 7719
    change {
      at = "01:50"
    }
  }
  distractor "web_short_keepalive" {
    target = "web_server"
  }
  noise "jitter" {}
  noise "routine_warnings" {}
  noise "retries" {}
  noise "health_check_flap" {}

  expert = [
    "inspect_logs(web_server)",
    "inspect_logs(database)",
    "inspect_config(database, maintenance_mode)",
    "update_config(database, maintenance_mode, false)",
    "resolve_incident(\"database: left in maintenance mode, client connections rejected\", \"turned maintenance_mode off\")",
  ]
}
