# Web server: the external payment provider fails a share of card
# authorisations on its own side. Checkout answers 502 for those orders;
# every service of the site is healthy by its own measures, and the web
# tier's logs and its payments metric show the provider's 503 replies.
# Nothing on the site fixes it: the right end is to escalate naming the
# provider. A restart or a rollback of the web tier is a wrong change.

incident "card_payments_failing" {
  title      = "Checkout errors on card payments"
  alert      = "Checkout API: 5xx above 10% for the last 15 minutes; the failures are all on POST /checkout."
  difficulty = "easy"
  split      = "train"
  tags       = ["web_server", "class:escalation"]
  budget     = 8
  system     = "standard"

  fault "payments_provider_outage" {
    target = "web_server"
    share  = 0.6
  }
  noise "jitter" {}
  noise "routine_warnings" {}
  noise "retries" {}
  noise "health_check_flap" {}

  expert = [
    "inspect_logs(web_server)",
    "inspect_metrics(web_server)",
    "escalate(\"web_server: the external payment provider is failing card authorisations (503 from its authorisations API, about 60% of calls); nothing on our side to change, needs the provider\")",
  ]
}
