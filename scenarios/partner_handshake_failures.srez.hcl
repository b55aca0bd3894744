# Load balancer: the certificate on the HTTPS listener ran out three weeks
# ago on a host the renewal job skipped; clients abort the handshake.

incident "partner_handshake_failures" {
  title      = "Partners and mobile clients cannot connect"
  alert      = "Partner integrations and the mobile app fail to connect to the storefront over HTTPS; browsers show a security warning. The web tier reports a normal error rate."
  difficulty = "medium"
  split      = "train"
  tags       = ["load_balancer", "security", "class:certificate-expiry"]
  budget     = 12
  system     = "standard"

  fault "lb_tls_cert_expired" {
    target    = "load_balancer"
    days_past = 21
  }
  distractor "noisy_warning" {
    target = "web_server"
  }
  distractor "db_replica_rebuilding" {
    target = "database"
  }
  noise "jitter" {}
  noise "routine_warnings" {}
  noise "retries" {}
  noise "health_check_flap" {}

  expert = [
    "check_status(load_balancer)",
    "inspect_logs(load_balancer)",
    "inspect_metrics(load_balancer)",
    "renew_certificate(load_balancer)",
    "resolve_incident(\"load balancer: tls certificate expired\", \"renewed the certificate on the listener\")",
  ]
}
