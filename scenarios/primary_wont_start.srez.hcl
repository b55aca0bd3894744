# Database: work_mem was entered in kilobytes into a megabyte setting. After
# the host's patch reboot the postmaster rejects its configuration file at
# every start. Restarting it again changes nothing. The site runs heavy
# reports whose sorts need more than the documented 64 MB: that value boots
# the server, but the reports then spill to disk and hit the statement
# deadline. The site's own value is the history's old value.

incident "primary_wont_start" {
  title      = "Orders down after the patch window"
  alert      = "Web tier: 5xx on every page that reads or writes orders since the database host's patch reboot at 03:00."
  difficulty = "hard"
  split      = "test"
  tags       = ["database", "class:restart-alone-fails"]
  budget     = 12
  system     = "reporting"

  fault "db_crash_loop_bad_config" {
    target = "database"
    value  = 4194304
    change {
      at    = "Mon 16:20"
      actor = "k.tanaka"
    }
  }
  distractor "elevated_metric" {
    target = "web_server"
  }
  noise "jitter" {}
  noise "routine_warnings" {}
  noise "retries" {}
  noise "health_check_flap" {}

  expert = [
    "inspect_logs(web_server)",
    "check_status(database)",
    "inspect_logs(database)",
    "update_config(database, work_mem_mb, $before)",
    "check_status(database)",
    "resolve_incident(\"database: crash loop, postgres will not start because work_mem_mb is outside its valid range\", \"set work_mem_mb back to its previous value\")",
  ]
}
