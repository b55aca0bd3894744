# Near-duplicates (issue 20 item 5): pools of 9 and 10 connections are one
# band (within 10% of each other), 14 another; noise makes another task.

fault_kind "db_pool_cut" {
  description    = "The connection pool is sized far below demand; queries wait for a connection and time out."
  applies_to     = ["database"]
  conflicts_with = []
  mechanism      = "connection_pool_exhausted"
  detail         = "pool_size"

  param "size" {
    type    = "int"
    default = 10
    domain  = [9, 10, 14]
  }

  set_config { pool_size = param.size }

  fixed_when = "utilisation <= 0.85 && refused_share == 0.0"

  remedy "update_config" {
    key = "pool_size"
  }
}

mutation "cut" {
  from   = "db_pool"
  faults = ["db_pool_cut"]
  noise  = ["none", "jitter"]
}

suite_spec "cut" {
  mutations = ["cut"]
  tasks     = 6
}

suite_spec "cut_twice" {
  mutations       = ["cut"]
  tasks           = 6
  near_duplicates = 2
}
