# Web server: a release went out whose code imports a module the build
# does not ship. Every worker exits while it boots, the application master
# shuts down and its supervisor starts it again, on the same build. The
# load balancer is healthy but has nothing to send traffic to. A restart
# boots the same build; the deploy in the change history, and the build's
# path in the boot failure, point at the release to undo.

incident "gateway_no_upstreams" {
  title      = "Every request answered 503"
  alert      = "Load balancer answers 503 to every request and reports zero healthy backends."
  difficulty = "medium"
  split      = "train"
  tags       = ["web_server", "availability", "misleading", "deploy", "class:restart-alone-fails"]
  budget     = 10
  system     = "standard"

  fault "web_bad_deploy_outage" {
    target  = "web_server"
    version = "v2.15.0"
    change {
      at    = "16:05"
      actor = "deploy-bot"
    }
  }
  distractor "noisy_warning" {
    target = "load_balancer"
  }
  noise "spike" {}
  noise "routine_warnings" {}
  noise "retries" {}
  noise "health_check_flap" {}

  expert = [
    "check_status(load_balancer)",
    "inspect_logs(load_balancer)",
    "check_status(web_server)",
    "inspect_logs(web_server)",
    "list_changes(web_server)",
    "rollback(web_server)",
    "check_status(web_server)",
    "resolve_incident(\"web_server: the v2.15.0 deploy is a bad build; its workers fail to boot on a module it does not ship\", \"rolled back web_server to the previous version\")",
  ]
}
