# Two faults: Saturday's migration dropped the index on orders(user_id), so
# lookups scan the table; and a cache TTL meant for a load test
# was pushed to production, so most reads miss and fall through to that
# same database. Either fix alone leaves the site degraded.

incident "storefront_double_trouble" {
  title      = "Storefront slow and erroring after the weekend changes"
  alert      = "Storefront mostly failing since Saturday's change window: 5xx near 80% and p95 latency around 10 s on the API and the order history pages."
  difficulty = "hard"
  split      = "train"
  tags       = ["database", "cache", "multi-fault"]
  budget     = 14
  system     = "peak"

  fault "db_index_disabled" {
    target = "database"
    rows_m = 10.0
    change {
      at = "Sat 06:10"
    }
  }
  fault "cache_ttl_too_low" {
    target = "cache"
    share  = 0.34
    change {
      at = "Sat 06:40"
    }
  }
  distractor "web_short_keepalive" {
    target = "web_server"
  }
  noise "jitter" {}
  noise "routine_warnings" {}
  noise "retries" {}
  noise "health_check_flap" {}

  expert = [
    "inspect_logs(web_server)",
    "inspect_logs(database)",
    "create_index(database, orders, user_id)",
    "inspect_metrics(cache)",
    "inspect_config(cache, ttl_seconds)",
    "update_config(cache, ttl_seconds, $before)",
    "inspect_logs(database)",
    "resolve_incident(\"database: orders user_id index missing, sequential scans; cache: ttl far too short, entries expire before reuse\", \"created the missing index on orders(user_id) and restored ttl_seconds back to its previous value\")",
  ]
}
