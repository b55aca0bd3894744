# The agent's tools. Reads observe one service; writes change the world and
# are acknowledged the same way whether they help or not; escalate and
# resolve_incident end the episode.

tool "inspect_logs" {
  description = "Show the most recent log lines of a service."
  effect      = "logs"
  arg "service" { type = "service" }
}

tool "inspect_metrics" {
  description = "Show a service's current metrics with their recent history and units."
  effect      = "metrics"
  arg "service" { type = "service" }
}

tool "inspect_config" {
  description = "Show a service's configuration, or only the given key."
  effect      = "config"
  arg "service" { type = "service" }
  arg "key" {
    type     = "config_key"
    optional = true
  }
}

tool "check_status" {
  description = "Show whether a service is healthy, degraded, restarting or down."
  effect      = "status"
  arg "service" { type = "service" }
}

tool "inspect_traces" {
  description = "Show a request trace through a service and the services it calls, with latency and error rate per hop."
  effect      = "traces"
  arg "service" { type = "service" }
}

tool "check_dependencies" {
  description = "List the services a service depends on and their current status."
  effect      = "dependencies"
  arg "service" { type = "service" }
}

tool "list_replication_slots" {
  description = "Show a database's replication slots as pg_replication_slots lists them: name, type, whether a consumer is connected, restart LSN, WAL status and the WAL retained since the restart LSN. While the server is down, the slots are read from their state files. Services without replication slots show none."
  effect      = "logs"
  listing     = "replication_slots"
  arg "service" { type = "service" }
}

tool "list_indexes" {
  description = "Show a database's indexes as the catalog lists them (pg_index): name, table, definition and whether the planner may use it (valid). Services without indexes show none."
  effect      = "logs"
  listing     = "indexes"
  arg "service" { type = "service" }
}

tool "list_queues" {
  description = "Show a message broker's queues as rabbitmqctl list_queues name messages consumers prints them. Services without queues show none."
  effect      = "logs"
  listing     = "queues"
  arg "service" { type = "service" }
}

tool "list_changes" {
  description = "Show the site's recent change history, newest first: when, who, which service, what changed, old -> new. Give a service to see only its changes."
  effect      = "changes"
  arg "service" {
    type     = "service"
    optional = true
  }
}

tool "restart_service" {
  description = "Restart a service's process. It is unavailable for a short while and loses in-memory state (a restarted cache comes back empty)."
  effect      = "restart"
  arg "service" { type = "service" }
}

tool "update_config" {
  description = "Set one configuration key of a service to a new value; the change takes effect on the next step."
  effect      = "update"
  arg "service" { type = "service" }
  arg "key" { type = "config_key" }
  arg "value" { type = "value" }
}

tool "rollback" {
  description = "Redeploy the version a service ran before its latest deploy in the change history. Takes effect on the next step, worker by worker, without an outage."
  effect      = "rollback"
  arg "service" { type = "service" }
}

tool "renew_certificate" {
  description = "Issue a new certificate for a service's TLS listener from the site's CA, valid for 90 days, and load it without dropping connections. Services without a TLS listener are left as they are."
  effect      = "operate"
  operation   = "renew_certificate"
  arg "service" { type = "service" }
}

tool "reload_secrets" {
  description = "Make a service re-read its credentials from the site's secret store (the newest version of each) and reconnect with them, without a restart. Services that hold no client credentials are left as they are."
  effect      = "operate"
  operation   = "reload_secrets"
  arg "service" { type = "service" }
}

tool "drop_replication_slot" {
  description = "Drop one of a database's replication slots by name, terminating its walsender first if a consumer is connected, so the WAL it retains can be recycled. A consumer whose slot is dropped must be re-synced from a fresh snapshot. The drop is acknowledged whatever the name; services without replication slots are left as they are."
  effect      = "operate"
  operation   = "drop_replication_slot"
  arg "service" { type = "service" }
  arg "slot" { type = "identifier" }
}

tool "replace_instance" {
  description = "Drain the named instance of a service (as its logs and the balancer name it, e.g. web-1) from rotation, replace it with a fresh one on a new host, and put that in rotation; the other instances keep serving meanwhile. The replacement is acknowledged whatever the name; services without instances are left as they are."
  effect      = "operate"
  operation   = "replace_instance"
  arg "service" { type = "service" }
  arg "instance" { type = "identifier" }
}

tool "block_client" {
  description = "Deny, at a load balancer's listener, the client address given (as access logs print it); its requests are answered 403 from then on. The deny is acknowledged whatever the address; services without a listener are left as they are."
  effect      = "operate"
  operation   = "block_client"
  arg "service" { type = "service" }
  arg "client" { type = "ip_address" }
}

tool "delete_queue" {
  description = "Delete one queue of a message broker by name (rabbitmqctl delete_queue), with the messages it holds; consumers of it lose it. The delete is acknowledged whatever the name; services without queues are left as they are."
  effect      = "operate"
  operation   = "delete_queue"
  arg "service" { type = "service" }
  arg "queue" { type = "identifier" }
}

tool "redeclare_queue_with_deduplication" {
  description = "Declare a message broker's jobs queue again with the message-deduplication plugin's argument (x-message-deduplication: true), move its messages to it and rebind it; publishing and consuming go on. A queue that has the argument already, and services without queues, are left as they are."
  effect      = "operate"
  operation   = "redeclare_queue_with_deduplication"
  arg "service" { type = "service" }
}

tool "migrate_instance" {
  description = "Live-migrate a service's instances, one at a time, to other hosts of the pool with CPU to spare; connections stay up. Services the site does not run on virtual machines are left as they are."
  effect      = "operate"
  operation   = "migrate_instance"
  arg "service" { type = "service" }
}

tool "reindex" {
  description = "Rebuild one index of a database by name (REINDEX INDEX CONCURRENTLY); reads and writes go on meanwhile, and a build takes time and I/O in proportion to its table's size. The statement is acknowledged whatever the name; services without indexes are left as they are."
  effect      = "operate"
  operation   = "reindex"
  arg "service" { type = "service" }
  arg "index" { type = "identifier" }
}

tool "create_index" {
  description = "Create a btree index on one column of a database's table (CREATE INDEX CONCURRENTLY); reads and writes go on meanwhile, and a build takes time in proportion to its table's size. The statement is acknowledged whatever the table and column."
  effect      = "operate"
  operation   = "create_index"
  arg "service" { type = "service" }
  arg "table" { type = "identifier" }
  arg "column" { type = "identifier" }
}

tool "terminate_idle_transactions" {
  description = "End a database's sessions that have been idle in a transaction for more than an hour (pg_terminate_backend); their transactions roll back. Services without such sessions are left as they are."
  effect      = "operate"
  operation   = "terminate_idle_transactions"
  arg "service" { type = "service" }
}

tool "escalate" {
  description = "Hand the incident to a human responder, with the reason. Ends the episode."
  effect      = "escalate"
  arg "reason" { type = "text" }
}

tool "resolve_incident" {
  description = "Declare the incident resolved. Ends the episode. In root_cause give one cause per faulty service, each as the service, then what is wrong with it, in your own words (\"SERVICE: what is wrong\"); separate several causes with \";\" or new lines. Explanations are welcome: a service you mention only as affected is not blamed, but every service you state as a cause is. Tool calls may give root_cause as a list of causes, each {\"service\", \"what\", \"explanation\"}. In fix, say what you changed."
  effect      = "resolve"
  arg "root_cause" { type = "text" }
  arg "fix" { type = "text" }
}
