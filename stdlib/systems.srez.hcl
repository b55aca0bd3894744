# The standard system: load_balancer -> web_server -> {cache, database,
# message_queue}, message_queue -> database. Every role of every kind is
# bound, the inbound (caller) edges as well as the dependencies.

system "standard" {
  description = "A load balancer in front of a web tier backed by a cache, a database and a job queue."

  service "load_balancer" {
    kind  = "load_balancer"
    roles = { web = "web_server" }
  }

  service "web_server" {
    kind = "web_server"
    roles = {
      lb       = "load_balancer"
      database = "database"
      cache    = "cache"
      queue    = "message_queue"
    }
  }

  service "cache" {
    kind  = "cache"
    roles = { web = "web_server" }
  }

  service "database" {
    kind = "database"
    roles = {
      web   = "web_server"
      queue = "message_queue"
    }
  }

  service "message_queue" {
    kind = "message_queue"
    roles = {
      web      = "web_server"
      database = "database"
    }
  }
}
