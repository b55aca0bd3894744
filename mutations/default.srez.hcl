# Mutations over the default suite's incidents: each varies one shipped
# incident's fault, target and parameters (and its noise) into certified
# variants. They are not part of the default suite; srezc mutate and
# srezc suite build run them, and a user's module may name them.

mutation "queue_consumers" {
  description = "The order queue's consumers fall behind: too few of them, or too short a visibility timeout."
  from        = "mq_backlog"
  faults      = ["mq_consumer_concurrency_low", "mq_visibility_timeout_low"]
  noise       = ["none", "retries"]
}

mutation "database_connections" {
  description = "Checkout times out on storage: the pooler keeps too few connections, or statements are cut short."
  from        = "db_pool"
  faults      = ["db_pool_too_small", "db_query_timeout_low"]
  noise       = ["none", "stale_metrics"]
}

mutation "web_capacity" {
  description = "The web tier cannot serve its load: too few workers, or a request timeout too short."
  from        = "db_pool"
  faults      = ["web_workers_too_low", "web_timeout_too_low"]
}

suite_spec "embedded_sample" {
  description = "A small suite drawn from the embedded mutations, to try srezc suite build without a PATH."
  mutations   = ["queue_consumers", "database_connections", "web_capacity"]
  tasks       = 12
  seed        = 1
  splits      = { train = 2, dev = 1, test = 1 }
}
