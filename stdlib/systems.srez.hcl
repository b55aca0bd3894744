# The standard system: load_balancer -> web_server -> {cache, database,
# message_queue}, message_queue -> database. Every role of every kind is
# bound, the inbound (caller) edges as well as the dependencies.
#
# Each service carries the site's own tuning (set_config): healthy values
# that differ from the kinds' defaults, as production configuration does.
# Resetting a service to its defaults is therefore a change, not a fix.

system "standard" {
  description = "A load balancer in front of a web tier backed by a cache, a database and a job queue."

  service "load_balancer" {
    kind  = "load_balancer"
    roles = { web = "web_server" }
    set_config {
      max_connections = 4000
      idle_timeout_ms = 90000
    }
  }

  service "web_server" {
    kind = "web_server"
    roles = {
      lb       = "load_balancer"
      database = "database"
      cache    = "cache"
      queue    = "message_queue"
    }
    set_config {
      max_workers = 24
      timeout_ms  = 4000
    }
  }

  service "cache" {
    kind  = "cache"
    roles = { web = "web_server" }
    set_config {
      max_memory_mb = 2048
      ttl_seconds   = 600
    }
  }

  service "database" {
    kind = "database"
    roles = {
      web   = "web_server"
      queue = "message_queue"
    }
    set_config {
      max_connections = 300
      work_mem_mb     = 96
    }
  }

  service "message_queue" {
    kind = "message_queue"
    roles = {
      web      = "web_server"
      database = "database"
    }
    set_config {
      max_in_flight         = 800
      visibility_timeout_ms = 45000
    }
  }
}
