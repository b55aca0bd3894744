# A held-out test split (issue 20 item 4): the variants whose warning
# distractor sits on the cache are reserved, and the secret seed "s3cret"
# (whose SHA-256 is secret_hash) draws the test split from them. The
# held-out test deletes the reserve line and builds the public spec again.

mutation "cachey" {
  from        = "db_pool"
  faults      = ["db_pool_too_small"]
  distractors = ["none", "noisy_warning"]
  noise       = ["none", "jitter"]
}

suite_spec "hidden" {
  mutations   = ["cachey"]
  tasks       = 16
  seed        = 5
  reserve     = "distractor_target == \"cache\""
  secret_hash = "1ec1c26b50d5d3c58d9583181af8076655fe00756bf7285940ba3670f99fcba0"
}
