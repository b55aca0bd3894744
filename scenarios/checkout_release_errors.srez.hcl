# Web server: a release fails a share of checkout requests with an
# unhandled exception. The change history holds the release beside routine
# tuning and other deploys; the logs show the failing handler with the
# running build's version. A restart runs the same build and fixes
# nothing; the fix is rolling the web tier back to its previous version.

incident "checkout_release_errors" {
  title      = "Checkout failing for some customers"
  alert      = "Checkout API: 5xx above 10% for the last 20 minutes; the payment provider reports no problems on their side."
  difficulty = "medium"
  split      = "train"
  tags       = ["web_server", "deploy"]
  budget     = 10
  system     = "standard"

  fault "web_bad_deploy_exception" {
    target  = "web_server"
    version = "v2.14.1"
    share   = 0.4
    change {
      at    = "14:05"
      actor = "deploy-bot"
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
    "inspect_logs(web_server)",
    "list_changes(web_server)",
    "rollback(web_server)",
    "check_status(web_server)",
    "resolve_incident(\"web_server: the 14:05 deploy of v2.14.1 introduced a regression on /checkout (TypeError in applyPromotions)\", \"rolled back web_server to v2.14.0\")",
  ]
}
