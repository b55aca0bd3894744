# A web release at 10:40 never frees what it allocates: worker memory climbs
# until the kernel kills workers. The on-call, paged for the OOM kills, cut
# the worker count to fit the host's memory; at the peak's traffic the
# remaining workers cannot keep up, and the tier now also answers 503. The
# leak goes on regardless. Rolling back alone leaves too few workers;
# restoring the workers alone leaves the leak.

incident "workers_cut_during_leak" {
  title      = "Workers OOM-killed, then 503s at peak"
  alert      = "API workers are being OOM-killed since late morning and the web tier now answers 503 at peak; the first responder's mitigation did not stop it."
  difficulty = "hard"
  split      = "test"
  tags       = ["web_server", "deploy", "class:responder-made-it-worse"]
  budget     = 14
  system     = "peak"

  fault "web_bad_deploy_leak" {
    target  = "web_server"
    version = "v2.15.0"
    rate_mb = 600.0
    change {
      at = "10:40"
    }
  }
  fault "web_workers_too_low" {
    target = "web_server"
    share  = 0.78
    change {
      at    = "14:35"
      actor = "sre-oncall"
    }
  }
  distractor "noisy_warning" {
    target = "cache"
  }
  noise "spike" {}
  noise "routine_warnings" {}
  noise "retries" {}
  noise "health_check_flap" {}

  expert = [
    "inspect_logs(web_server)",
    "inspect_metrics(web_server)",
    "list_changes(web_server)",
    "rollback(web_server)",
    "update_config(web_server, max_workers, $before)",
    "resolve_incident(\"web_server: the 10:40 deploy of v2.15.0 is a bad release that leaks memory until workers are OOM-killed; web_server: too few workers for the peak's traffic since the on-call cut max_workers\", \"rolled back web_server to v2.14.0 and set max_workers back to its value before the on-call's change\")",
  ]
}
