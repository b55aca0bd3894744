# Web server: a release retains memory on every request, so resident memory
# climbs until workers are killed. A restart brings memory down for a few
# ticks, then the same build climbs again. After the release, the job
# consumers were deployed too (routine, harmless), so the newest deploy in
# the history is not the one to roll back; the web tier's memory, its logs'
# build version and its own deploy are the evidence.

incident "release_leak_then_deploy" {
  title      = "API memory climbing, workers killed"
  alert      = "API p95 latency has doubled since the afternoon and worker processes are being killed; restarting a worker helped only for a few minutes."
  difficulty = "hard"
  split      = "test"
  tags       = ["web_server", "deploy", "memory"]
  budget     = 12
  system     = "standard"

  fault "web_bad_deploy_leak" {
    target  = "web_server"
    version = "v2.15.0"
    rate_mb = 600.0
    change {
      at = "13:10"
    }
  }
  change {
    service = "message_queue"
    key     = "version"
    value   = "v4.3.1"
    at      = "13:40"
    actor   = "platform-ci"
  }
  distractor "noisy_warning" {
    target = "database"
  }
  noise "spike" {}
  noise "routine_warnings" {}
  noise "retries" {}
  noise "health_check_flap" {}

  expert = [
    "inspect_metrics(web_server)",
    "inspect_logs(web_server)",
    "list_changes()",
    "rollback(web_server)",
    "check_status(web_server)",
    "resolve_incident(\"web_server: the 13:10 deploy of v2.15.0 is a bad release: workers on the new build hold more memory every minute until they are OOM-killed\", \"rolled back web_server to v2.14.0\")",
  ]
}
