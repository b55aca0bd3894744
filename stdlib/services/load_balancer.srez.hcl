# Load balancer: the entry point of the standard system. Client traffic
# (`traffic`, requests/s) arrives here; the balancer admits what its connection
# table can hold, terminates TLS, health-checks the web tier and forwards the
# rest to it. Connection limits past the open-file limit, slow connect
# deadlines and sparse probes each cost a share of the requests.

service_kind "load_balancer" {
  description = "Layer-7 load balancer in front of the web tier: TLS termination, health checks, connection limits."

  role "web" {
    kind        = "web_server"
    description = "The web tier the balancer forwards requests to."
  }

  # ---------------------------------------------------------------- config

  config "max_connections" {
    type        = "int"
    default     = 2000
    low         = 1000
    high        = 8000
    unit        = "connections"
    description = "Client connections the listener holds open at once; further connections are refused."
    aka         = ["max connections", "max conn", "maximum connections", "connection limit", "connections limit", "max_connections limit", "listener limit", "maxconn", "connection cap", "connection ceiling", "connection table", "connection slots"]
  }

  config "idle_timeout_ms" {
    type        = "int"
    default     = 60000
    low         = 30000
    high        = 300000
    unit        = "ms"
    description = "How long an idle client or upstream connection is kept before the balancer closes it."
    aka         = ["idle timeout", "timeout", "client timeout", "keep alive timeout on the balancer", "gives up", "give up", "gave up", "giving up"]
  }

  config "connect_timeout_ms" {
    type        = "int"
    default     = 1000
    low         = 200
    high        = 5000
    unit        = "ms"
    description = "Time allowed to open a connection to a backend."
    aka         = ["connect timeout", "connection timeout", "backend connect timeout"]
  }

  config "health_check_interval_s" {
    type        = "int"
    default     = 10
    low         = 5
    high        = 30
    unit        = "s"
    description = "Seconds between two health probes of each backend."
    aka         = ["health check interval", "probe interval"]
  }

  config "health_check_path" {
    type        = "string"
    default     = "/healthz"
    description = "HTTP path probed on each backend to decide whether it stays in rotation."
    aka         = ["health check", "health check path", "healthcheck", "health check url", "probe path", "health probe", "health probes", "probe", "probes", "health checks", "probing", "health endpoint", "check path", "probe url", "check url", "url"]
  }

  config "backend_weight_pct" {
    type        = "int"
    default     = 50
    low         = 30
    high        = 70
    unit        = "%"
    description = "Share of forwarded requests sent to the second web backend (web-2); the first (web-1) receives the rest."
    aka         = ["backend weight", "backend weights", "weights", "weight", "weighting", "traffic split", "traffic weights"]
  }

  config "sticky_sessions" {
    type        = "bool"
    default     = false
    description = "Pin each client to the backend that served its first request."
    aka         = ["sticky sessions", "sticky session", "session affinity", "affinity", "stickiness", "session stickiness"]
  }

  # ---------------------------------------------------------------- state

  state "up" {
    type        = "bool"
    initial     = true
    description = "The balancer process is running."
  }

  state "restart_ticks" {
    type        = "int"
    initial     = 0
    next        = "max(state.restart_ticks - 1, 0)"
    description = "Ticks left until a restarted process serves again."
  }

  state "exit_code" {
    type        = "int"
    initial     = 0
    description = "Exit code of the last process that stopped."
  }

  state "sticky_skew" {
    type        = "float"
    initial     = 0.9
    description = "Share of traffic the busiest backend receives while clients are pinned."
  }

  state "clock_min" {
    type        = "int"
    initial     = 0
    next        = "state.clock_min + 1"
    unit        = "min"
    description = "The site's clock, in minutes since the incident's warm-up began: one tick is one minute."
  }

  state "cert_not_after_min" {
    type        = "int"
    initial     = 86400
    unit        = "min"
    description = "The notAfter date of the certificate installed on the HTTPS listener, on the clock of clock_min: a site renews 30 days before expiry, so a current one has 30 to 90 days left."
  }

  state "key_serial" {
    type        = "int"
    initial     = 7
    description = "Serial, as the site's PKI numbers them, of the private key in the HTTPS listener's PEM bundle."
  }

  state "cert_key_serial" {
    type        = "int"
    initial     = 7
    description = "Serial of the private key the installed certificate was issued for: certificate and key belong together when it equals key_serial. HAProxy refuses to load a bundle whose two halves do not."
  }

  state "boot_attempts" {
    type        = "int"
    initial     = 0
    next        = "state.up && !boot_ok ? state.boot_attempts + 1 : 0"
    description = "Consecutive starts the supervisor has made that exited while loading the configuration."
  }

  state "abuser_rps" {
    type        = "float"
    initial     = 0.0
    unit        = "requests/s"
    description = "Requests per second from one client address far above any real user's: a misbehaving integration or a bot."
  }

  state "blocked_share" {
    type        = "float"
    initial     = 0.0
    unit        = "ratio"
    description = "Share of legitimate clients denied at the listener: blocking the top talker when no client abuses denies a busy real one."
  }

  state "web2_capacity_share" {
    type        = "float"
    initial     = 0.5
    unit        = "ratio"
    description = "Share of the web tier's capacity that runs on web-2: 0.5 where both hosts are alike; a site whose web-2 is the smaller host weights it accordingly."
  }

  state "slow_response_ms" {
    type        = "float"
    initial     = 30000.0
    unit        = "ms"
    description = "The site's slowest routine responses (exports, large reports) an idle upstream connection waits on: 30 s unless the site serves heavier ones. An idle timeout below it cuts them off with 502."
  }

  state "conns_per_request" {
    type        = "float"
    initial     = 2.5
    unit        = "connections per request/s"
    description = "Client connections the site's traffic keeps open per request/s at ordinary keep-alive: 2.5 where clients multiplex, more where they open a connection per resource."
  }

  state "cosmetic_warning" {
    type        = "bool"
    initial     = false
    description = "Drives a harmless repeating warning."
  }

  state "cosmetic_metric" {
    type        = "bool"
    initial     = false
    description = "Drives a harmless, elevated but in-band metric."
  }

  # A partner's scheduled bulk sync: a real client, the busiest address
  # for the length of its window, inside the site's usual traffic.
  # Benign state a careless operator blocks.
  state "partner_sync" {
    type        = "bool"
    initial     = false
    description = "A partner's scheduled catalogue sync is running: its address is the busiest client at the listener for the sync's window, a few percent of the site's usual traffic."
  }

  # ---------------------------------------------------------------- derived

  derived "boot_ok" {
    type        = "bool"
    value       = "state.cert_key_serial == state.key_serial"
    description = "The configuration loads: every bind's certificate matches the private key beside it."
  }

  derived "serving" {
    type  = "bool"
    value = "state.up && state.restart_ticks == 0 && boot_ok"
  }

  derived "conns_per_rps" {
    type  = "float"
    value = "state.conns_per_request + max(0.0, float(config.idle_timeout_ms) - 300000.0) / 20000.0"
    unit  = "connections per request/s"
  }

  derived "conn_capacity_rps" {
    type  = "float"
    value = "float(config.max_connections) / conns_per_rps"
    unit  = "requests/s"
  }

  derived "demand_rps" {
    type        = "float"
    value       = "traffic + state.abuser_rps"
    unit        = "requests/s"
    description = "Requests arriving at the listener: the clients' traffic and any abusive client's."
  }

  derived "admitted_rps" {
    type  = "float"
    value = "serving ? min(demand_rps, conn_capacity_rps) : 0.0"
    unit  = "requests/s"
  }

  derived "reject_share" {
    type  = "float"
    value = "demand_rps > 0.0 ? clamp(1.0 - admitted_rps / demand_rps, 0.0, 1.0) : 0.0"
    unit  = "ratio"
  }

  derived "open_connections" {
    type  = "float"
    value = "min(admitted_rps * conns_per_rps, float(config.max_connections))"
    unit  = "connections"
  }

  derived "backends_in_rotation" {
    type  = "int"
    value = "config.health_check_path == web.health_route && web.status != \"down\" && web.status != \"restarting\" ? 2 : 0"
    unit  = "backends"
  }

  derived "cert_days_left" {
    type        = "float"
    value       = "float(state.cert_not_after_min - state.clock_min) / 1440.0"
    unit        = "days"
    description = "Days until the listener's certificate expires; negative once it has."
  }

  derived "tls_fail_share" {
    type        = "float"
    value       = "state.cert_not_after_min <= state.clock_min ? 0.9 : 0.0"
    unit        = "ratio"
    description = "Clients that abort the handshake: most verify the chain; a few old integrations do not."
  }

  derived "reset_share" {
    type  = "float"
    value = "clamp((state.slow_response_ms - float(config.idle_timeout_ms)) / state.slow_response_ms, 0.0, 1.0) * 0.3"
    unit  = "ratio"
  }

  derived "hot_share" {
    type        = "float"
    value       = "config.sticky_sessions ? state.sticky_skew : 0.5 * max(float(min(max(config.backend_weight_pct, 0), 100)) / 100.0 / state.web2_capacity_share, float(100 - min(max(config.backend_weight_pct, 0), 100)) / 100.0 / (1.0 - state.web2_capacity_share))"
    unit        = "ratio"
    description = "Load on the busiest of the two backends, as the share of forwarded traffic that load would be on two alike hosts (its share of the traffic where they are alike)."
  }

  derived "forwarded_rps" {
    type  = "float"
    value = "backends_in_rotation > 0 ? admitted_rps * (1.0 - tls_fail_share) : 0.0"
    unit  = "requests/s"
  }

  derived "fds_needed" {
    type        = "float"
    value       = "2.0 * float(config.max_connections) + 384.0"
    unit        = "file descriptors"
    description = "Descriptors the listener may need: a client and an upstream socket per connection, plus listeners, probes, resolvers and logs."
  }

  derived "accept_fail_share" {
    type        = "float"
    value       = "clamp(1.0 - 16384.0 / fds_needed, 0.0, 1.0) * 0.03"
    unit        = "ratio"
    description = "Clients reset because accept4() or an upstream socket() ran out of descriptors: the open-file limit (16384) covers 8000 connections; past that, connection bursts the listener still admits hit EMFILE."
  }

  derived "dropped_share" {
    type  = "float"
    value = "clamp(reject_share + accept_fail_share + state.blocked_share, 0.0, 1.0)"
    unit  = "ratio"
  }

  derived "connect_stall_ms" {
    type        = "float"
    value       = "0.01 * max(0.0, float(config.connect_timeout_ms) - 5000.0)"
    unit        = "ms"
    description = "Mean wait added by backend connects that are never answered (about 1% of requests: SYNs dropped by a busy backend or sent to a replaced address). Within 5 s the kernel's SYN retries land or the request is retried elsewhere; past that, it waits out the whole deadline."
  }

  derived "connect_fail_share" {
    type        = "float"
    value       = "clamp((200.0 - float(config.connect_timeout_ms)) / 200.0, 0.0, 1.0) * 0.05"
    unit        = "ratio"
    description = "Requests failed because a backend connect did not complete in time: below 200 ms, ordinary connects to a busy backend are cut off."
  }

  derived "stale_backend_s" {
    type        = "float"
    value       = "max(0.0, 3.0 * float(config.health_check_interval_s) - 90.0)"
    unit        = "s"
    description = "How long a retired web instance stays in rotation after it stops listening: instances drain for 90 s, and taking one out takes three failed probes, one per interval."
  }

  derived "stale_backend_share" {
    type        = "float"
    value       = "stale_backend_s / 3600.0"
    unit        = "ratio"
    description = "Share of requests sent to a retired instance: each of the two backends is replaced about once an hour and receives half the traffic."
  }

  derived "upstream_fail_share" {
    type  = "float"
    value = "backends_in_rotation > 0 ? clamp(reset_share + max(web.error_rate - web.client_error_share, 0.0) + stale_backend_share + connect_fail_share + (web.tls_ok ? 0.0 : 1.0), 0.0, 1.0) : 1.0"
    unit  = "ratio"
  }

  # What the balancer answers 5xx for, as HAProxy's termination states
  # tell them apart: refused (503: no server in rotation, the server
  # refused or failed the connection, SC, or did not accept it in time,
  # sC), timed out (504: the server did not answer in time, sH, or
  # answered 504 itself) and the other 5xx the server sent (500, 502). A
  # request refused at connect reaches no server, so a refusal counts
  # first; together they are upstream_fail_share.
  derived "refused_share" {
    type  = "float"
    value = "backends_in_rotation > 0 ? min(stale_backend_share + connect_fail_share + (web.tls_ok ? 0.0 : 1.0), 1.0) : 1.0"
    unit  = "ratio"
  }

  derived "timed_out_share" {
    type  = "float"
    value = "backends_in_rotation > 0 ? min(reset_share + web.timeout_error_share, 1.0 - refused_share) : 0.0"
    unit  = "ratio"
  }

  derived "other_5xx_share" {
    type  = "float"
    value = "backends_in_rotation > 0 ? min(max(web.error_rate - web.client_error_share - web.timeout_error_share, 0.0), 1.0 - refused_share - timed_out_share) : 0.0"
    unit  = "ratio"
  }

  derived "answered_share" {
    type        = "float"
    value       = "serving ? 1.0 - tls_fail_share : 0.0"
    unit        = "ratio"
    description = "Share of the requests counted in request_rate that the balancer answers over HTTP: the client's handshake completed (connections refused at the connection limit are not counted there)."
  }

  derived "error_rate" {
    type  = "float"
    value = "serving ? clamp(dropped_share + (1.0 - dropped_share) * (tls_fail_share + (1.0 - tls_fail_share) * upstream_fail_share), 0.0, 1.0) : 1.0"
    unit  = "ratio"
  }

  derived "latency_ms" {
    type  = "float"
    value = "serving ? 2.0 + web.latency_ms + connect_stall_ms : 0.0"
    unit  = "ms"
  }

  # ---------------------------------------------------------------- metrics

  metric "request_rate" {
    type        = "float"
    value       = "admitted_rps + web.scraper_rps"
    unit        = "requests/s"
    precision   = 1
    low         = 50
    high        = 5000
    description = "Requests received from clients, including those answered with an error."
  }

  metric "client_error_rate" {
    type        = "float"
    value       = "error_rate"
    unit        = "ratio"
    precision   = 3
    low         = 0
    high        = 0.02
    description = "Share of client requests that failed: refused, aborted handshake or a 5xx answer."
  }

  # HAProxy's hrsp_5xx, split by the termination state its log shows for
  # each request (SC/sC: 503 refused, sH: 504 timed out, other 5xx passed
  # through from the server), over the requests received.
  metric "http_5xx_rate" {
    type        = "float"
    value       = "answered_share * upstream_fail_share"
    unit        = "ratio"
    precision   = 3
    low         = 0
    high        = 0.02
    description = "Share of client requests answered with a 5xx: refused, timed out or another server error."
  }

  metric "refused_503_rate" {
    type        = "float"
    value       = "answered_share * refused_share"
    unit        = "ratio"
    precision   = 3
    low         = 0
    high        = 0.02
    description = "Share of client requests answered 503 because no server took the connection: none in rotation, the connection refused or failed (SC), or not accepted within connect_timeout_ms (sC)."
  }

  metric "timeout_504_rate" {
    type        = "float"
    value       = "answered_share * timed_out_share"
    unit        = "ratio"
    precision   = 3
    low         = 0
    high        = 0.02
    description = "Share of client requests answered 504: the server did not answer in time (sH), or answered 504 itself."
  }

  metric "other_5xx_rate" {
    type        = "float"
    value       = "answered_share * other_5xx_share"
    unit        = "ratio"
    precision   = 3
    low         = 0
    high        = 0.02
    description = "Share of client requests answered with another 5xx the server sent (500, 502)."
  }

  metric "p95_latency_ms" {
    type      = "float"
    value     = "latency_ms * 2.0"
    unit      = "ms"
    precision = 1
    low       = 0
    high      = 250
  }

  metric "connection_utilization_pct" {
    type      = "float"
    value     = "open_connections / float(config.max_connections) * 100.0"
    unit      = "%"
    precision = 1
    low       = 0
    high      = 85
  }

  metric "healthy_backends" {
    type  = "int"
    value = "serving ? backends_in_rotation : 0"
    unit  = "backends"
    low   = 1
    high  = 4
    noise = "none"
  }

  metric "cpu_pct" {
    type      = "float"
    value     = "serving ? (state.cosmetic_metric ? min(58.0 + admitted_rps * 0.04, 78.0) : 6.0 + admitted_rps * 0.04) : 0.0"
    unit      = "%"
    precision = 1
    low       = 0
    high      = 80
  }

  metric "cert_days_to_expiry" {
    type        = "float"
    value       = "cert_days_left"
    unit        = "days"
    precision   = 1
    low         = 7
    high        = 400
    description = "Days until the certificate on the HTTPS listener expires (x509 notAfter), negative once it has."
    noise       = "none"
  }

  # ---------------------------------------------------------------- status

  status "down" { when = "!state.up" }
  status "restarting" { when = "state.restart_ticks > 0 || !boot_ok" }
  status "degraded" { when = "error_rate > 0.05 || backends_in_rotation == 0 || open_connections >= float(config.max_connections) * 0.95" }

  # ---------------------------------------------------------------- logs

  # doc/configuration.txt (HTTP log format), src/log.c
  log "listener_ok" {
    level = "INFO"
    when  = "serving && error_rate <= 0.02"
    text  = "haproxy[{@mainpid}]: 198.51.100.23:{@port} https~ web_server/web-1 0/0/1/{int(web.latency_ms)}/{int(web.latency_ms) + 1} 200 5214 - - ---- {int(open_connections)}/{int(open_connections)}/{int(open_connections / 2.0)}/{int(open_connections / 4.0)}/0 0/0 \"GET /checkout HTTP/1.1\""
  }

  # src/stats.c (show stat: pxname,svname,status,weight)
  log "backend_ok" {
    level = "INFO"
    when  = "serving && backends_in_rotation > 0"
    text  = "haproxy[{@mainpid}]: stats: web_server/web-1 status=UP weight={100 - min(max(config.backend_weight_pct, 0), 100)}, web_server/web-2 status=UP weight={min(max(config.backend_weight_pct, 0), 100)}, {backends_in_rotation} active servers"
  }

  # src/server.c (srv_update_status: "Server %s/%s is going DOWN for maintenance")
  log "backend_drained" {
    level = "WARN"
    when  = "serving && backends_in_rotation > 0 && (config.backend_weight_pct <= 0 || config.backend_weight_pct >= 100)"
    text  = "haproxy[{@mainpid}]: Server web_server/web-{config.backend_weight_pct <= 0 ? 2 : 1} is UP with weight 0 (DRAIN). 1 active and 0 backup servers online. 0 sessions requeued, 0 total in queue."
  }

  # doc/configuration.txt (HTTP log format: actconn/feconn and srv_queue/backend_queue fields)
  log "conn_table_full" {
    level = "WARN"
    when  = "serving && open_connections >= float(config.max_connections) * 0.95"
    text  = "haproxy[{@mainpid}]: 198.51.100.77:{@port} https~ https/<NOSRV> -1/-1/-1/-1/3001 503 217 - - sQ-- {int(open_connections)}/{int(open_connections)}/0/0/0 0/{int(open_connections / 8.0)} \"GET / HTTP/1.1\""
  }

  # doc/configuration.txt (HTTP log format: termination state sQ, status 503)
  log "conn_refused" {
    level = "ERROR"
    when  = "serving && reject_share > 0.01"
    text  = "haproxy[{@mainpid}]: 203.0.113.9:{@port} https~ https/<NOSRV> -1/3000/-1/-1/3000 503 217 - - sQ-- {int(open_connections)}/{int(open_connections)}/0/0/0 0/{int(traffic - admitted_rps)} \"GET /checkout HTTP/1.1\""
  }

  # src/limits.c ("Cannot raise FD limit to %d, limit is %d."), with the configured maxconn as "show info" prints it
  log "fd_limit" {
    level = "WARN"
    when  = "serving && fds_needed > 16384.0"
    text  = "haproxy[{@mainpid}]: [haproxy.main()] Cannot raise FD limit to {int(fds_needed)}, limit is 16384. maxconn={config.max_connections}"
  }

  # src/sock.c ("Proxy %s reached process FD limit (maxsock=%d)")
  log "accept_emfile" {
    level = "ERROR"
    when  = "serving && accept_fail_share > 0.001"
    text  = "haproxy[{@mainpid}]: Proxy https reached process FD limit (maxsock=16384)."
  }

  # doc/configuration.txt (HTTP log format: Tc connect time, retries field and "+" flag)
  log "connect_stalled" {
    level = "WARN"
    when  = "serving && connect_stall_ms > 0.0"
    text  = "haproxy[{@mainpid}]: 198.51.100.41:{@port} https~ web_server/web-1 0/0/+{config.connect_timeout_ms}/{int(web.latency_ms)}/{config.connect_timeout_ms + int(web.latency_ms)} 200 5214 - - ---- {int(open_connections)}/{int(open_connections)}/{int(open_connections / 2.0)}/{int(open_connections / 4.0)}/+1 0/0 \"GET /checkout HTTP/1.1\""
  }

  # doc/configuration.txt (termination state sC: server connect timeout, status 503)
  log "connect_cut" {
    level = "ERROR"
    when  = "serving && backends_in_rotation > 0 && connect_fail_share > 0.001"
    text  = "haproxy[{@mainpid}]: 198.51.100.62:{@port} https~ web_server/web-1 0/0/-1/-1/{config.connect_timeout_ms} 503 217 - - sC-- {int(open_connections)}/{int(open_connections)}/{int(open_connections / 2.0)}/{int(open_connections / 4.0)}/3 0/0 \"POST /checkout HTTP/1.1\""
  }

  # doc/configuration.txt (termination state SC: connection refused by the server, status 503); src/check.c (inter, fall)
  log "stale_backend" {
    level = "ERROR"
    when  = "serving && backends_in_rotation > 0 && stale_backend_share > 0.001"
    text  = "haproxy[{@mainpid}]: 198.51.100.18:{@port} https~ web_server/web-2 0/0/-1/-1/1 503 217 - - SC-- {int(open_connections)}/{int(open_connections)}/{int(open_connections / 2.0)}/{int(open_connections / 4.0)}/0 0/0 \"GET /orders HTTP/1.1\""
  }

  # src/server.c (srv_update_status: "Server %s/%s is DOWN, reason: ..."), src/check.c (HCHK_STATUS_L7STS "Layer7 wrong status")
  log "probe_failed" {
    level = "ERROR"
    when  = "serving && config.health_check_path != web.health_route"
    text  = "haproxy[{@mainpid}]: Server web_server/web-1 is DOWN, reason: Layer7 wrong status, code: 404, info: \"Not Found\", check duration: 2ms. 0 active and 0 backup servers left. 0 sessions active, 0 requeued, 0 remaining in queue."
  }

  # src/backend.c ("%s %s has no server available!"), src/check.c (L4CON "Layer4 connection problem")
  log "backend_gone" {
    level = "ERROR"
    when  = "serving && config.health_check_path == web.health_route && backends_in_rotation == 0"
    text  = "haproxy[{@mainpid}]: backend web_server has no server available!"
  }

  # src/connection.c (CO_ER_SSL_HANDSHAKE "SSL handshake failure"), logged by the frontend
  log "handshake_failed" {
    level = "ERROR"
    when  = "serving && state.cert_not_after_min <= state.clock_min"
    text  = "haproxy[{@mainpid}]: 198.51.100.90:{@port} [https] https/1: SSL handshake failure"
  }

  log "upstream_tls" {
    level = "ERROR"
    when  = "serving && backends_in_rotation > 0 && !web.tls_ok"
    text  = "upstream=web_server SSL handshake failure with 10.0.2.11:8443; returned 502"
  }

  # doc/configuration.txt (termination state sH: server header timeout, status 504)
  log "upstream_reset" {
    level = "WARN"
    when  = "serving && reset_share > 0.0"
    text  = "haproxy[{@mainpid}]: 198.51.100.35:{@port} https~ web_server/web-1 0/0/1/-1/{config.idle_timeout_ms} 504 194 - - sH-- {int(open_connections)}/{int(open_connections)}/{int(open_connections / 2.0)}/{int(open_connections / 4.0)}/0 0/0 \"GET /orders/export HTTP/1.1\""
  }

  # doc/configuration.txt (HTTP log format, server status passed through)
  log "upstream_5xx" {
    level = "ERROR"
    when  = "serving && backends_in_rotation > 0 && web.error_rate > 0.05"
    text  = "haproxy[{@mainpid}]: 198.51.100.52:{@port} https~ web_server/web-2 0/0/1/{int(web.latency_ms)}/{int(web.latency_ms) + 1} 500 311 - - ---- {int(open_connections)}/{int(open_connections)}/{int(open_connections / 2.0)}/{int(open_connections / 4.0)}/0 0/0 \"POST /checkout HTTP/1.1\""
  }

  # doc/configuration.txt (HTTP log format: Tr server response time)
  log "upstream_slow" {
    level = "WARN"
    when  = "serving && web.latency_ms > 120.0"
    text  = "haproxy[{@mainpid}]: 198.51.100.14:{@port} https~ web_server/web-1 0/0/1/{int(web.latency_ms * 1.8)}/{int(web.latency_ms * 1.8) + 1} 200 18342 - - ---- {int(open_connections)}/{int(open_connections)}/{int(open_connections / 2.0)}/{int(open_connections / 4.0)}/0 0/0 \"GET /orders HTTP/1.1\""
  }

  # supervisord supervisor/process.py ("exited: %s (%s)")
  log "process_exit" {
    level = "ERROR"
    when  = "!state.up"
    text  = "supervisord: exited: haproxy (exit status {state.exit_code}; not expected)"
  }

  # src/ssl_ckch.c ("inconsistencies between private key and certificate loaded from PEM file '%s'"), src/cfgparse.c ("Fatal errors found in configuration.")
  log "bundle_rejected" {
    level = "ERROR"
    when  = "state.up && state.restart_ticks == 0 && !boot_ok"
    text  = "haproxy[{@pid}]: [ALERT]    (1) : config : parsing [/etc/haproxy/haproxy.cfg:31] : 'bind :::443' in section 'frontend' : inconsistencies between private key and certificate loaded from PEM file '/etc/haproxy/certs/shop.pem'.  [ALERT]    (1) : config : Fatal errors found in configuration.  supervisord: exited: haproxy (exit status 1; not expected), spawned again (attempt {state.boot_attempts})"
  }

  # src/proxy.c ("Proxy %s started.")
  log "starting" {
    level = "INFO"
    when  = "state.up && state.restart_ticks > 0"
    text  = "haproxy[{@mainpid}]: Proxy https started."
  }

  log "top_client" {
    level = "WARN"
    when  = "serving && state.abuser_rps > 0.0"
    text  = "top client 203.0.113.57 (User-Agent: python-requests/2.31.0): {int(state.abuser_rps)} req/s over 6 connections, {int(state.abuser_rps / demand_rps * 100.0)}% of all requests; next busiest client {int(traffic * 0.004)} req/s"
  }

  log "client_denied" {
    level = "WARN"
    when  = "serving && state.blocked_share > 0.0"
    text  = "acl denied_src matched: {int(traffic * state.blocked_share)} req/s from a denied address answered 403"
  }

  # doc/configuration.txt (termination state CR with status 400 for a request the proxy refused to parse)
  log "cosmetic" {
    level = "WARN"
    when  = "serving && state.cosmetic_warning"
    text  = "haproxy[{@mainpid}]: 192.0.2.201:{@port} https~ https/<NOSRV> -1/-1/-1/-1/0 400 187 - - PR-- 1/1/0/0/0 0/0 \"<BADREQ>\""
  }

  # The same stick-table summary as top_client, for a real partner.
  log "top_client_partner" {
    level = "WARN"
    when  = "serving && state.partner_sync && state.abuser_rps <= 0.0"
    text  = "top client 198.51.100.23 (User-Agent: NorthwindCatalogSync/4.2): {int(traffic * 0.06)} req/s over 2 connections, 6% of all requests; next busiest client {int(traffic * 0.004)} req/s"
  }

  restart {
    up            = true
    restart_ticks = 3
    exit_code     = 0
  }

  # The responder names the address, as the stick table's summary and the
  # access log print it. Denying the abusive address removes its load;
  # denying an address the access log shows as a real client refuses its
  # users (the partner's sync, 6% of requests; any other, about 2%);
  # denying an address that sends nothing changes nothing.
  operation "block_client" {
    description = "Deny, at the listener, the client address given (an ACL on the source address). Its requests are answered 403 from then on; an address that sends nothing changes nothing."
    args        = ["client"]
    aka         = ["blocked the abusive client", "blocked the top client", "blocked the client", "denied the client", "blocked the bot", "blocked the top talker", "denied the abusive client", "blocked 203.0.113.57", "denied 203.0.113.57", "blocked the address", "denied the address"]
    set {
      blocked_share = "arg.client == \"198.51.100.23\" && state.partner_sync ? min(state.blocked_share + 0.06, 1.0) : (arg.client == \"198.51.100.23\" || arg.client == \"198.51.100.77\" || arg.client == \"203.0.113.9\" || arg.client == \"198.51.100.41\" || arg.client == \"198.51.100.62\" || arg.client == \"198.51.100.18\" || arg.client == \"198.51.100.90\" || arg.client == \"198.51.100.35\" || arg.client == \"198.51.100.52\" || arg.client == \"198.51.100.14\" ? min(state.blocked_share + 0.02, 1.0) : state.blocked_share)"
      abuser_rps    = "arg.client == \"203.0.113.57\" ? 0.0 : state.abuser_rps"
      partner_sync  = "arg.client == \"198.51.100.23\" ? false : state.partner_sync"
    }
  }

  operation "renew_certificate" {
    description = "Issue a certificate for the listener's names from the site's CA, valid for 90 days, and load it without dropping connections."
    aka         = ["renewed the certificate", "renewed the tls certificate", "renewed the cert", "installed a renewed certificate", "installed a new certificate", "replaced the certificate", "reissued the certificate"]
    set {
      cert_not_after_min = "state.clock_min + 129600"
      cert_key_serial    = "state.key_serial"
    }
  }

  trace {
    latency    = "latency_ms"
    error_rate = "error_rate"
  }
}
