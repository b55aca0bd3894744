# Multi-fault mutations over the default suite's incidents: pairs of
# faults on two services and on one, and cascades, where the alert names
# a victim downstream of the faulty service. Like default.srez.hcl, they
# are not part of the default suite.

mutation "pool_and_web_tier" {
  description   = "Two causes on two services: the database pooler keeps too few connections, and the web tier runs too few workers or times out too soon."
  from          = "db_pool"
  faults        = ["db_pool_too_small"]
  second_faults = ["web_timeout_too_low", "web_workers_too_low"]
  pairs         = "distinct"
}

mutation "queue_consumers_pair" {
  description   = "Two causes on the order queue: too few consumers and too short a visibility timeout, at once."
  from          = "mq_backlog"
  faults        = ["mq_consumer_concurrency_low"]
  second_faults = ["mq_visibility_timeout_low"]
  pairs         = "same_service"
}

mutation "database_cascade" {
  description = "The database is at fault and the page names the tier in front of it: too few pooled connections, or statements cut short."
  from        = "db_pool"
  faults      = ["db_pool_too_small", "db_query_timeout_low"]
  cascade     = true
}
