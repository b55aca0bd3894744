# Web server: a log-level change the application does not accept; it
# exits at boot and its supervisor keeps starting it. Restarting it is one
# more failed boot; the change history holds the value it ran with before.

incident "app_boot_loop" {
  title      = "Storefront returning 503 after a logging change"
  alert      = "Load balancer: no healthy web backends for 6 minutes; every storefront request is answered 503."
  difficulty = "easy"
  split      = "train"
  tags       = ["web_server", "class:restart-alone-fails"]
  budget     = 10
  system     = "standard"

  fault "web_crash_loop_bad_config" {
    target = "web_server"
    value  = "verbose"
    change {
      at    = "09:40"
      actor = "m.okafor"
    }
  }
  distractor "noisy_warning" {
    target = "cache"
  }
  noise "jitter" {}
  noise "routine_warnings" {}
  noise "retries" {}
  noise "health_check_flap" {}

  expert = [
    "check_status(web_server)",
    "inspect_logs(web_server)",
    "update_config(web_server, log_level, $before)",
    "resolve_incident(\"web_server: crash loop, the application exits at boot on log_level verbose, a level it does not know\", \"set log_level back to its previous value; the next start boots\")",
  ]
}
