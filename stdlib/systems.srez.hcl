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

# A busier site on the same topology: the database keeps a large pool open
# and the tiers are tuned for more load. Its healthy values still lie inside
# the documented bands, and several differ from the docs.
system "busy" {
  description = "The standard topology at a busier site: a larger database pool and more workers."

  service "load_balancer" {
    kind  = "load_balancer"
    roles = { web = "web_server" }
    set_config {
      max_connections = 6000
      idle_timeout_ms = 120000
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
      max_workers = 40
      timeout_ms  = 5000
    }
  }

  service "cache" {
    kind  = "cache"
    roles = { web = "web_server" }
    set_config {
      max_memory_mb = 4096
      ttl_seconds   = 900
    }
  }

  service "database" {
    kind = "database"
    roles = {
      web   = "web_server"
      queue = "message_queue"
    }
    set_config {
      pool_size       = 140
      max_connections = 300
      work_mem_mb     = 128
    }
  }

  service "message_queue" {
    kind = "message_queue"
    roles = {
      web      = "web_server"
      database = "database"
    }
    set_config {
      max_in_flight         = 1200
      visibility_timeout_ms = 60000
      consumer_concurrency  = 16
    }
  }
}
