# Web server: the balancer speaks TLS to the web instances and verifies
# their certificate, which ran out two days ago; the renewal job skipped
# the backends. The edge's own certificate is fine. Every forwarded
# request fails at the upstream handshake.

incident "gateway_handshakes_fail" {
  title      = "Every page answers 502"
  alert      = "Load balancer: 502 on nearly every request for 5 minutes; the edge certificate was checked and is valid for another 40 days."
  difficulty = "easy"
  split      = "train"
  tags       = ["web_server", "certificates", "class:certificate-expiry"]
  budget     = 12
  system     = "standard"

  fault "web_tls_cert_expired" {
    target    = "web_server"
    days_past = 2
  }
  distractor "noisy_warning" {
    target = "database"
  }
  distractor "db_replica_rebuilding" {
    target = "database"
  }
  noise "jitter" {}
  noise "routine_warnings" {}
  noise "retries" {}
  noise "health_check_flap" {}

  expert = [
    "inspect_logs(load_balancer)",
    "inspect_logs(web_server)",
    "inspect_metrics(web_server)",
    "renew_certificate(web_server)",
    "resolve_incident(\"web_server: the tls certificate it serves to the balancer expired, so every upstream handshake fails\", \"renewed the certificate on the web tier\")",
  ]
}
