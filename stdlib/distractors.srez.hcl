# Distractors: harmless but suspicious evidence. None changes a status or any
# quantity another service reads.

distractor_kind "noisy_warning" {
  description = "A harmless warning repeats in the service's log."
  applies_to  = ["load_balancer", "web_server", "cache", "database", "message_queue"]
  set_state { cosmetic_warning = true }
}

distractor_kind "elevated_metric" {
  description = "One metric sits well above its usual value but inside its healthy band (CPU, GC pause, fragmentation, disk usage)."
  applies_to  = ["load_balancer", "web_server", "cache", "database", "message_queue"]
  set_state { cosmetic_metric = true }
}

distractor_kind "db_work_mem_tuned" {
  description = "A database memory setting has been hand-tuned to an unusual value that is still within its band."
  applies_to  = ["database"]
  set_config { work_mem_mb = 240 }
}

distractor_kind "web_short_keepalive" {
  description = "The web tier's keep-alive window is unusually short, though within its band."
  applies_to  = ["web_server"]
  set_config { keepalive_timeout_ms = 6000 }
}

distractor_kind "db_replica_rebuilding" {
  description = "A standby is being re-cloned with pg_basebackup: its physical slot has no consumer yet and checkpoints recycle no WAL. Dropping inactive slots would restart the clone."
  applies_to  = ["database"]
  set_state { replica_rebuild = true }
}

distractor_kind "mq_consumers_paused" {
  description = "The consumers of one queue were paused on purpose until a migration finishes: the queue has no consumer and keeps its jobs. Deleting queues without consumers would lose them."
  applies_to  = ["message_queue"]
  set_state { consumers_paused = true }
}

distractor_kind "web_retired_job_refused" {
  description = "A retired cron job still runs on the web hosts and the cache refuses its switched-off ACL user with WRONGPASS, the reply a stale password gets. Reloading the web tier's secrets changes nothing; the site does not depend on the job."
  applies_to  = ["web_server"]
  set_state { retired_job_auth = true }
}

distractor_kind "lb_partner_sync" {
  description = "A partner's scheduled catalogue sync makes its address the busiest client at the listener, a few percent of the usual traffic. Blocking the top client refuses the partner."
  applies_to  = ["load_balancer"]
  set_state { partner_sync = true }
}
