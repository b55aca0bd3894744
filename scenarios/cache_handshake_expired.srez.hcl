# Cache: the certificate on its TLS port ran out overnight. Clients abort
# the handshake and every read falls through to the database. Restarting
# the cache loads the same certificate and empties it as well.

incident "cache_handshake_expired" {
  title      = "Database read load jumped overnight"
  alert      = "Database: read queries per second four times the usual level since 00:00; cache hit rate panel shows zero."
  difficulty = "medium"
  split      = "dev"
  tags       = ["cache", "certificates", "class:certificate-expiry", "class:restart-makes-it-worse", "class:alerted-service-innocent"]
  budget     = 12
  system     = "standard"

  fault "cache_tls_cert_expired" {
    target    = "cache"
    days_past = 1
  }
  distractor "db_work_mem_tuned" {
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
    "inspect_logs(web_server)",
    "inspect_logs(cache)",
    "inspect_metrics(cache)",
    "renew_certificate(cache)",
    "resolve_incident(\"cache: its tls certificate expired, clients abort the handshake and read from the database\", \"renewed the certificate on the cache\")",
  ]
}
