# Noise: transient changes to what the tools show. Noise never changes the
# world's state, and never leaves what the real system could show: rates,
# shares and gauges never spike, slow gauges barely wobble, and every noise
# line is one a healthy system of its kind prints. Noise is drawn from the
# seed and the tick, not the state, so it stays after a fix.

noise_pattern "spike" {
  description = "Now and then a service's latencies blip together for one step, up to half again their real value (a GC pause, a checkpoint's stall)."
  effect      = "spike"
  rate        = 0.1
  magnitude   = 1.5
}

noise_pattern "jitter" {
  description = "Metrics wobble by a few percent around their real value; slow gauges such as disk use by a tenth of that."
  effect      = "jitter"
  rate        = 1.0
  magnitude   = 0.03
}

noise_pattern "stale_metrics" {
  description = "Metrics are shown a couple of steps late."
  effect      = "stale"
  lag         = 2
}

noise_pattern "phantom_restart" {
  description = "A process appears to restart and recover on its own."
  effect      = "phantom_restart"
  rate        = 0.1
}

noise_pattern "health_check_flap" {
  description = "Now and then a load balancer's health check of a backend fails once and passes the next step; the backend stays in rotation."
  effect      = "health_check_flap"
  rate        = 0.08
}

noise_pattern "retries" {
  description = "Now and then a client retries a call once and it succeeds."
  effect      = "retry"
  rate        = 0.1
}

noise_pattern "routine_warnings" {
  description = "Services print the routine warnings they print on a healthy day (a deprecation, a client's stray statement, a scanner's bad request)."
  effect      = "warning"
  rate        = 0.15
}
