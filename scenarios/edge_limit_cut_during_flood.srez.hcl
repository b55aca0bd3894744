# One client address floods the listener. The on-call, seeing the edge
# overloaded, cut the balancer's connection limit "to protect the
# backends"; the table now holds fewer connections than the site's own
# users keep open, so ordinary clients are refused too. Blocking the
# address alone leaves the table too small; undoing the cut alone leaves
# the flood.

incident "edge_limit_cut_during_flood" {
  title      = "Edge refusing users after the first response"
  alert      = "Load balancer: client errors above 30% at the edge, still, after the secondary on-call's mitigation; request rate far above the usual peak."
  difficulty = "medium"
  split      = "dev"
  tags       = ["load_balancer", "traffic", "class:responder-made-it-worse"]
  budget     = 14
  system     = "peak"

  fault "lb_flooding_address" {
    target = "load_balancer"
    rps    = 3000.0
  }
  fault "lb_max_connections_low" {
    target = "load_balancer"
    share  = 0.6
    change {
      at    = "16:05"
      actor = "sre-oncall"
    }
  }
  distractor "elevated_metric" {
    target = "web_server"
  }
  noise "jitter" {}
  noise "routine_warnings" {}
  noise "retries" {}
  noise "health_check_flap" {}

  expert = [
    "inspect_logs(load_balancer)",
    "list_changes(load_balancer)",
    "block_client(load_balancer, 203.0.113.57)",
    "update_config(load_balancer, max_connections, $before)",
    "resolve_incident(\"load_balancer: an abusive client floods the listener, one address sends most of the requests; load_balancer: connection limit too low for the site's traffic since the on-call cut it\", \"blocked the flooding address 203.0.113.57 at the listener and set max_connections back to its value before the on-call's change\")",
  ]
}
