# Mutations vary an incident along fault × target × parameter × noise
# axes; srezc mutate . runs them, and every variant that certifies is a
# task. "from" names an incident of this folder or of the embedded
# default (srezc export scenarios DIR writes those): a name declared here
# shadows the embedded one.

mutation "starter_storage" {
  description = "The pool cut to different sizes, with and without jittery metrics."
  from        = "starter_db_timeouts"
  faults      = ["db_pool_too_small"]
  noise       = ["none", "jitter"]
  param "size" {
    values = [4, 6, 8]
  }
}

mutation "starter_queue" {
  description = "The embedded incident mq_backlog as a base: its queue's consumers fall behind."
  from        = "mq_backlog"
  faults      = ["mq_consumer_concurrency_low"]
}
