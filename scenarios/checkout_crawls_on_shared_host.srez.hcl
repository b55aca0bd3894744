# Web server: a neighbour on the hypervisor the web tier's instances run
# on takes their CPU (steal time). The tier serves the same requests as
# ever, but each takes longer and its workers saturate: latency climbs
# and some requests are shed. The database, cache and queue are healthy.
# The host's steal, shown with the tier's metrics, against an unchanged
# request rate is the evidence. More workers only queue for the same
# CPU and are a symptom-masking change; a restart lands on the same
# host. The fix is to live-migrate the instances to another host.

incident "checkout_crawls_on_shared_host" {
  title      = "Storefront slow and shedding requests"
  alert      = "Storefront: p95 latency above 400 ms and 5xx above 3% for the last 20 minutes; traffic is at its usual level."
  difficulty = "medium"
  split      = "train"
  tags       = ["web_server", "hosts", "class:symptom-masking"]
  budget     = 10
  system     = "standard"

  fault "web_noisy_neighbour" {
    target    = "web_server"
    steal_pct = 65.0
  }
  distractor "elevated_metric" {
    target = "database"
  }
  noise "jitter" {}
  noise "routine_warnings" {}
  noise "retries" {}
  noise "health_check_flap" {}

  expert = [
    "inspect_logs(web_server)",
    "inspect_metrics(web_server)",
    "inspect_metrics(database)",
    "migrate_instance(web_server)",
    "check_status(web_server)",
    "resolve_incident(\"web_server: noisy neighbour on the hypervisor, cpu steal about 65% while request rate is unchanged\", \"live-migrated the web instances to another host\")",
  ]
}
