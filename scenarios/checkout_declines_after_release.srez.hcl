# Web server: a release of the application went out shortly before card
# payments started failing, and the alert arrives in its wake. The
# release is innocent: the failures are the payment provider's own 503
# replies, which the logs and the payments metric show, and rolling back
# changes nothing. Two plausible causes; the web tier's logs separate them.
# The right end is to escalate naming the provider.

incident "checkout_declines_after_release" {
  title      = "Checkout failing since this afternoon's release"
  alert      = "Checkout API: 5xx above 8% for the last 10 minutes, starting shortly after the 14:20 application release."
  difficulty = "hard"
  split      = "test"
  tags       = ["web_server", "class:escalation", "misleading", "deploy"]
  budget     = 10
  system     = "standard"

  fault "payments_provider_outage" {
    target = "web_server"
    share  = 0.4
  }
  change {
    service = "web_server"
    key     = "version"
    value   = "v2.14.1"
    at      = "14:20"
    actor   = "deploy-bot"
  }
  distractor "noisy_warning" {
    target = "cache"
  }
  noise "jitter" {}
  noise "routine_warnings" {}
  noise "retries" {}
  noise "health_check_flap" {}

  expert = [
    "list_changes(web_server)",
    "inspect_logs(web_server)",
    "inspect_metrics(web_server)",
    "escalate(\"web_server: the payment provider is failing about 40% of card authorisations on its side (503 Service Unavailable from its API); the 14:20 release is not the cause; needs the provider\")",
  ]
}
