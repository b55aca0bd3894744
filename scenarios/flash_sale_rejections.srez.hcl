# Web server: a request ceiling copied from the staging profile admits far
# less than production traffic; the rest is answered 429.

incident "flash_sale_rejections" {
  title      = "Shoppers bounced during the flash sale"
  alert      = "The web server is answering HTTP 429 to a large share of storefront requests while traffic is only modestly above a normal afternoon."
  difficulty = "easy"
  split      = "dev"
  tags       = ["web_server", "capacity"]
  budget     = 9
  system     = "scraped_storefront"
  traffic    = 420.0

  fault "web_rate_limit_too_low" {
    target = "web_server"
    limit  = 200
    change {}
  }
  noise "jitter" {}
  noise "routine_warnings" {}
  noise "retries" {}
  noise "health_check_flap" {}

  expert = [
    "inspect_logs(web_server)",
    "inspect_metrics(web_server)",
    "inspect_config(web_server, rate_limit_rps)",
    "update_config(web_server, rate_limit_rps, $before)",
    "resolve_incident(\"web server: rate limit below normal traffic\", \"raised rate_limit_rps back to its previous value\")",
  ]
}
