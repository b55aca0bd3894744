# Load balancer: a key rotation wrote a new private key into the HTTPS
# listener's PEM bundle, but nobody issued a certificate for it. The next
# config reload refused the bundle and the proxy exited; its supervisor
# starts it again and every start fails on the same files, so the
# listener on :443 stays closed. Nothing behind it is at fault. Restarting
# loads the same bundle; the proxy's own alert says what it refused, and a
# certificate issued for the key now in the bundle lets the next start
# load it.

incident "storefront_dark" {
  title      = "Storefront unreachable"
  alert      = "External probes cannot open a connection to the load balancer on :443; the storefront is unreachable from every region."
  difficulty = "easy"
  split      = "train"
  tags       = ["load_balancer", "availability", "tls", "class:restart-alone-fails"]
  budget     = 8
  system     = "standard"

  fault "lb_tls_key_replaced" {
    target     = "load_balancer"
    keys_ahead = 1
  }
  noise "jitter" {}
  noise "routine_warnings" {}
  noise "retries" {}
  noise "health_check_flap" {}

  expert = [
    "check_status(load_balancer)",
    "inspect_logs(load_balancer)",
    "renew_certificate(load_balancer)",
    "check_status(load_balancer)",
    "resolve_incident(\"load_balancer: the certificate does not match the private key in the listener's PEM bundle, so haproxy refuses its configuration at every start\", \"issued a new certificate for the key in the bundle; the next start loaded it\")",
  ]
}
