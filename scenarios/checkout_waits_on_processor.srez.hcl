# Web server: the card processor answers, but slowly: its authorisations
# take seconds, checkouts wait on them and a share outlasts the payments
# client's 5 s read timeout (504). The site's services are healthy by
# their own measures; the payments client's timings and the processor's
# p95 metric show where the time goes. Nothing on the site fixes it:
# raising the web tier's deadline only holds workers longer, a restart
# or a rollback changes nothing. The right end is to escalate naming the
# slow provider.

incident "checkout_waits_on_processor" {
  title      = "Checkout slow and timing out"
  alert      = "Checkout API: p95 latency above 1.5 s and 5xx above 8%, the errors on POST /checkout for the last 15 minutes."
  difficulty = "medium"
  split      = "test"
  tags       = ["web_server", "class:escalation", "third-party"]
  budget     = 10
  system     = "standard"

  fault "payments_provider_slow" {
    target = "web_server"
    p95_ms = 6000.0
  }
  distractor "noisy_warning" {
    target = "database"
  }
  noise "jitter" {}
  noise "routine_warnings" {}
  noise "retries" {}
  noise "health_check_flap" {}

  expert = [
    "inspect_logs(web_server)",
    "inspect_metrics(web_server)",
    "escalate(\"web_server: the payment provider is slow, authorisations take about 6 s at its p95 and checkouts time out on its API; nothing to change on our side, needs the provider\")",
  ]
}
