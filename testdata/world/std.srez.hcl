# A small world for the runtime's tests: two services, the standard tools,
# a rubric, two fault kinds, a distractor and noise.

service_kind "frontend" {
  description = "Serves requests."

  role "store" {
    kind = "store"
  }

  config "workers" {
    type    = "int"
    default = 16
    low     = 8
    high    = 64
    unit    = "workers"
  }
  config "mode" {
    type    = "string"
    default = "normal"
  }

  state "up" {
    type    = "bool"
    initial = true
  }
  state "restart_ticks" {
    type    = "int"
    initial = 0
    next    = "max(state.restart_ticks - 1, 0)"
  }
  state "cosmetic" {
    type    = "bool"
    initial = false
  }

  derived "capacity" {
    type  = "float"
    value = "state.up && state.restart_ticks == 0 ? float(config.workers) * 25.0 : 0.0"
  }
  metric "error_rate" {
    type      = "float"
    value     = "capacity <= 0.0 ? 1.0 : clamp((traffic - capacity) / traffic, 0.0, 1.0) + store.error_rate * 0.5"
    precision = 3
    low       = 0
    high      = 0.05
  }
  metric "latency_ms" {
    type      = "float"
    value     = "40.0 + store.latency_ms"
    precision = 1
    low       = 0
    high      = 200
    unit      = "ms"
  }

  status "down" { when = "!state.up" }
  status "restarting" { when = "state.restart_ticks > 0" }
  status "degraded" { when = "error_rate > 0.05" }

  log "served" {
    level = "INFO"
    when  = "state.up"
    text  = "served requests workers={config.workers}"
  }
  log "overload" {
    level = "ERROR"
    when  = "state.up && error_rate > 0.05"
    text  = "request queue full, rejected {error_rate * 100.0} percent"
  }
  log "slow_start" {
    level = "WARN"
    when  = "state.cosmetic"
    text  = "template cache rebuilt slowly"
  }
  log "unusual_mode" {
    level = "WARN"
    when  = "config.mode != \"normal\""
    text  = "running in {config.mode} mode"
  }

  restart {
    up            = true
    restart_ticks = 2
  }

  trace {
    latency    = "latency_ms"
    error_rate = "error_rate"
  }
}

service_kind "store" {
  description = "Stores data."

  config "pool" {
    type    = "int"
    default = 40
    low     = 20
    high    = 100
    unit    = "connections"
  }
  state "up" {
    type    = "bool"
    initial = true
  }
  state "restart_ticks" {
    type    = "int"
    initial = 0
    next    = "max(state.restart_ticks - 1, 0)"
  }
  state "cosmetic" {
    type    = "bool"
    initial = false
  }
  derived "utilisation" {
    type  = "float"
    value = "traffic / (float(config.pool) * 10.0)"
  }
  metric "latency_ms" {
    type      = "float"
    value     = "!state.up ? 0.0 : (utilisation > 1.0 ? 900.0 : 10.0 + 20.0 * utilisation) + (config.pool > 100 ? 300.0 : 0.0)"
    precision = 1
    low       = 0
    high      = 100
    unit      = "ms"
  }
  metric "error_rate" {
    type      = "float"
    value     = "!state.up || state.restart_ticks > 0 ? 1.0 : (utilisation > 1.0 ? 0.3 : 0.0)"
    precision = 3
    low       = 0
    high      = 0.05
  }
  status "down" { when = "!state.up" }
  status "restarting" { when = "state.restart_ticks > 0" }
  status "degraded" { when = "error_rate > 0.05 || latency_ms > 100.0" }
  log "pool" {
    level = "ERROR"
    when  = "state.up && utilisation > 1.0"
    text  = "timed out waiting for a connection active={config.pool}/{config.pool}"
  }
  log "checkpoint" {
    level = "WARN"
    when  = "state.cosmetic"
    text  = "checkpoint took longer than usual"
  }
  restart {
    up            = true
    restart_ticks = 3
  }
  trace {
    latency    = "latency_ms"
    error_rate = "error_rate"
  }
}

system "pair" {
  service "frontend" {
    kind  = "frontend"
    roles = { store = "store" }
  }
  service "store" {
    kind = "store"
  }
}

tool "inspect_logs" {
  effect = "logs"
  arg "service" { type = "service" }
}
tool "inspect_metrics" {
  effect = "metrics"
  arg "service" { type = "service" }
}
tool "inspect_config" {
  effect = "config"
  arg "service" { type = "service" }
  arg "key" {
    type     = "config_key"
    optional = true
  }
}
tool "check_status" {
  effect = "status"
  arg "service" { type = "service" }
}
tool "inspect_traces" {
  effect = "traces"
  arg "service" { type = "service" }
}
tool "check_dependencies" {
  effect = "dependencies"
  arg "service" { type = "service" }
}
tool "restart_service" {
  effect = "restart"
  arg "service" { type = "service" }
}
tool "update_config" {
  effect = "update"
  arg "service" { type = "service" }
  arg "key" { type = "config_key" }
  arg "value" { type = "value" }
}
tool "escalate" {
  effect = "escalate"
  arg "reason" { type = "text" }
}
tool "resolve_incident" {
  effect = "resolve"
  arg "root_cause" { type = "text" }
  arg "fix" { type = "text" }
}

rubric "native" {
  weights {
    evidence   = 0.15
    diagnosis  = 0.25
    mitigation = 0.25
    resolution = 0.20
    efficiency = 0.15
  }
  penalties {
    invalid_action          = -0.05
    repeated_invalid_action = -0.10
    repeated_useless_action = -0.05
    wrong_change            = -0.15
    restart_healthy         = -0.10
    distractor_action       = -0.10
    premature_resolution    = -0.20
  }
  component "frontend" {
    phrases = ["frontend", "web"]
  }
  component "store" {
    phrases = ["store", "db"]
  }
  mechanism "process_crashed" {
    phrases = ["crashed", "crash", "process down"]
  }
  mechanism "pool_exhausted" {
    phrases = ["pool exhausted", "pool exhaustion", "connection pool"]
  }
}

fault_kind "crash" {
  applies_to = ["frontend", "store"]
  mechanism  = "process_crashed"
  set_state {
    up = false
  }
  fixed_when = "state.up"
  remedy "restart_service" {}
}

fault_kind "small_pool" {
  applies_to = ["store"]
  mechanism  = "pool_exhausted"
  detail     = "pool"
  param "size" {
    type    = "int"
    default = 10
    domain  = [5, 10, 15]
  }
  set_config {
    pool = param.size
  }
  fixed_when = "config.pool >= 20 && config.pool <= 100"
  remedy "update_config" {
    key = "pool"
  }
}

distractor_kind "slow_checkpoint" {
  applies_to = ["store", "frontend"]
  set_state {
    cosmetic = true
  }
}

noise_pattern "jitter" {
  effect    = "jitter"
  magnitude = 0.02
}
