# Noise: transient changes to what the tools show. Noise never changes the
# world's state.

noise_pattern "spike" {
  description = "Now and then a metric reads several times its real value for one step."
  effect      = "spike"
  rate        = 0.1
  magnitude   = 3.0
}

noise_pattern "jitter" {
  description = "Metrics wobble by a few percent around their real value."
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
