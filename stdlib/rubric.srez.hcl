# srezc's own grading profile. Components name the service kinds; mechanisms
# are the closed vocabulary of what goes wrong. A diagnosis is read as a set
# of causes (runtime/diagnose.go): each names a service and asserts what is
# wrong with it, either with one of its mechanism's phrases (which say it
# outright: "pool exhausted", "crashed") or by saying that a setting or part
# is in a state ("the connection pool is too small", "the certificate
# expired"). The settings' names come from the service kinds' config keys and
# their `aka`; a mechanism's `about` and `states` name the parts and states
# that assert it when no config key is at issue. Phrases match whole words,
# case-insensitively; no phrase of one mechanism contains a phrase of another.

rubric "native" {
  description = "srezc's own grading: evidence, diagnosis, mitigation, resolution and efficiency, with penalties."

  weights {
    evidence   = 0.15
    diagnosis  = 0.20
    mitigation = 0.30
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

  # ------------------------------------------------------------ components

  component "database" {
    phrases = ["database", "db", "pg", "postgres", "postgresql", "postmaster", "sql", "primary", "the primary", "database primary"]
  }

  component "web_server" {
    phrases = ["web server", "webserver", "web", "api", "app server", "application server", "application", "app", "gunicorn"]
  }

  component "cache" {
    phrases = ["cache", "redis", "memcached", "caching server", "caching layer", "cache server", "cache cluster"]
  }

  component "message_queue" {
    phrases = ["message queue", "queue", "mq", "broker", "rabbitmq", "rabbit", "celery", "amqp"]
  }

  component "load_balancer" {
    phrases = ["load balancer", "loadbalancer", "lb", "balancer", "proxy", "haproxy", "nginx"]
  }

  # ------------------------------------------------------------ mechanisms

  mechanism "process_crashed" {
    description = "The process is not running."
    # "a bad deploy hook" killed the process: the hook is how it crashed,
    # not a bad build running (bad_deploy), so it reads as a crash.
    phrases = ["crashed", "process crashed", "process died", "process exited", "not running", "bad deploy hook"]
    about   = ["itself", "process", "service", "instance", "server", "primary", "broker", "daemon"]
    states  = ["down"]
  }

  mechanism "crash_loop" {
    description = "Startup rejects an unparseable setting, again and again."
    phrases     = ["crash loop", "crash looping", "crashlooping", "crashloop", "boot loop", "restart loop", "fails to start", "failing to start", "fails to boot", "failing to boot", "will not start", "won t start", "cannot start", "can t start", "startup failure", "fails at startup", "exits at startup", "exits on startup", "invalid config value", "invalid configuration value", "refuses to start", "refused to start", "rejected at startup", "rejected at boot", "exits at boot", "dies at startup", "dies on start", "each start dies", "every start dies", "keeps restarting", "keeps being restarted", "restarting it", "respawns", "respawned", "unable to start", "not able to start", "refuses its config", "refuses the config", "rejects its config", "rejects the config", "exits reading its config", "fails reading its config", "won t come back", "can t come back", "cannot come back", "not been able to start", "hasn t been able to start", "haven t been able to start", "has not been able to start", "have not been able to start", "won t boot", "will not boot", "cannot boot", "can t boot", "doesn t start", "does not start", "never starts", "never comes up", "never came up"]
    about       = ["startup", "boot", "config file", "configuration file", "each start", "every start", "each restart", "every restart", "start attempt", "start attempts"]
    states      = ["wrong"]
  }

  mechanism "bad_instance" {
    description = "One replica misbehaves while its peers are fine."
    phrases     = ["bad instance", "faulty instance", "broken instance", "unhealthy instance", "one bad instance", "one instance failing", "one instance is failing", "bad node", "faulty node", "failing node", "bad host", "faulty host", "one host failing", "disk full on one instance", "one instance out of disk"]
    about       = ["one instance", "an instance", "single instance", "one of the instances", "one node", "one host", "web 1", "web 2", "local disk"]
    states      = ["wrong", "full", "down"]
  }

  mechanism "abusive_client" {
    description = "A single abusive address hogs capacity."
    phrases     = ["abusive client", "abusive traffic", "one client flooding", "single client flooding", "flood from one client", "request flood", "bot traffic", "bot flood", "misbehaving client", "misbehaving integration", "runaway client", "top talker", "ddos", "dos attack", "flooding", "flooded", "flood of requests", "hammering", "hammered", "one client", "single client", "one address", "single address", "one ip", "single ip", "a bot", "bots", "crawler"]
  }

  mechanism "replication_slot_retains_wal" {
    description = "An abandoned replication slot pins WAL."
    phrases     = ["inactive replication slot", "stale replication slot", "abandoned replication slot", "orphaned replication slot", "inactive slot", "stale slot", "pinned by a replication slot", "pinned by the replication slot", "pinned by a slot", "pins wal", "pinned wal", "wal pinned", "slot retaining wal", "slot holds wal", "wal retained by a slot", "slot is inactive", "slot inactive", "retains wal", "retaining wal", "holding wal", "holds wal", "keeps wal", "replication slot", "logical replication slot", "logical slot", "inactive logical replication slot", "abandoned logical replication slot"]
  }

  mechanism "abandoned_binding" {
    description = "An abandoned binding hoards storage."
    phrases     = ["orphaned queue", "orphan queue", "abandoned queue", "unconsumed queue", "queue with no consumers", "queue without consumers", "dead queue", "unused queue", "no consumers", "nobody consumes", "no one consumes", "never consumed", "not consumed", "retired queue", "leftover queue", "stale queue", "abandoned export queue", "export queue", "queue left behind", "left behind queue", "nobody consuming", "no one consuming", "with no consumer", "without a consumer", "retired export", "retired audit export", "queue nobody reads", "queue that nobody reads"]
  }

  mechanism "memory_leak" {
    description = "The running process retains memory it never frees until it is restarted."
    phrases     = ["memory leak", "leaking memory", "leaks memory", "memory keeps growing", "unbounded memory growth", "memory growth"]
    about       = ["memory", "mem", "rss", "heap", "resident memory", "memory usage"]
    states      = ["leaking"]
  }

  mechanism "bad_deploy" {
    description = "A newly deployed version carries a defect its predecessor lacked; restarts run the same version."
    phrases     = ["bad deploy", "bad deployment", "bad release", "bad build", "bad version", "bad rollout", "faulty deploy", "faulty release", "faulty build", "broken deploy", "broken release", "broken build", "buggy release", "buggy build", "buggy deploy", "regression", "introduced a regression", "code regression", "deploy regression", "release regression", "defective build", "defective release", "has a bug", "has a defect", "buggy", "defect in the release", "release throws", "build throws", "version throws", "release fails", "build fails", "release is failing", "build is failing", "new release", "new build", "new version", "bad consumer build", "bad consumer release", "release has a bug", "build has a bug", "unhandled exception", "throws an exception", "raises an exception", "throws keyerror", "throwing keyerror", "raises keyerror", "raising keyerror"]
    about       = ["release", "build", "deploy", "deployment", "rollout", "new code", "consumer release", "consumer build"]
    states      = ["wrong"]
  }

  # A third party's own outage: nothing on the site is wrong, so the
  # answer names which provider is failing and hands it over. Each third
  # party is its own mechanism: blaming the mail relay for card payments
  # is the wrong cause.
  mechanism "payment_provider_outage" {
    description = "The external payment provider the site calls is failing on its own side; only its operator can fix it."
    phrases = [
      "third party outage", "external outage", "vendor outage", "external dependency outage", "external dependency failure",
      "outage at the payment provider", "outage on the provider side", "provider side outage", "provider side issue", "provider side problem",
      "issue on the provider side", "problem on the provider side", "payment provider outage", "payment provider is having an outage", "payment provider having an outage",
      "payment provider has an outage", "payment provider is failing", "payment provider failing", "payment provider is returning errors", "payment provider returning errors",
      "payment provider is erroring", "payment provider is rejecting", "payment provider rejecting", "payment provider is refusing", "payment provider refusing",
      "payment provider is deferring", "payment provider deferring", "payment provider is returning 503", "payment provider returning 503", "payment provider is returning 503s",
      "payment provider returning 503s", "payment provider returns 503", "payment provider is returning 502", "payment provider returning 502s", "payment provider is timing out",
      "payment provider timing out", "payments provider outage", "payments provider is having an outage", "payments provider having an outage", "payments provider has an outage",
      "payments provider is failing", "payments provider failing", "payments provider is returning errors", "payments provider returning errors", "payments provider is erroring",
      "payments provider is rejecting", "payments provider rejecting", "payments provider is refusing", "payments provider refusing", "payments provider is deferring",
      "payments provider deferring", "payments provider is returning 503", "payments provider returning 503", "payments provider is returning 503s", "payments provider returning 503s",
      "payments provider returns 503", "payments provider is returning 502", "payments provider returning 502s", "payments provider is timing out", "payments provider timing out",
      "psp outage", "psp is having an outage", "psp having an outage", "psp has an outage", "psp is failing",
      "psp failing", "psp is returning errors", "psp returning errors", "psp is erroring", "psp is rejecting",
      "psp rejecting", "psp is refusing", "psp refusing", "psp is deferring", "psp deferring",
      "psp is returning 503", "psp returning 503", "psp is returning 503s", "psp returning 503s", "psp returns 503",
      "psp is returning 502", "psp returning 502s", "psp is timing out", "psp timing out", "payment gateway outage",
      "payment gateway is having an outage", "payment gateway having an outage", "payment gateway has an outage", "payment gateway is failing", "payment gateway failing",
      "payment gateway is returning errors", "payment gateway returning errors", "payment gateway is erroring", "payment gateway is rejecting", "payment gateway rejecting",
      "payment gateway is refusing", "payment gateway refusing", "payment gateway is deferring", "payment gateway deferring", "payment gateway is returning 503",
      "payment gateway returning 503", "payment gateway is returning 503s", "payment gateway returning 503s", "payment gateway returns 503", "payment gateway is returning 502",
      "payment gateway returning 502s", "payment gateway is timing out", "payment gateway timing out", "payments gateway outage", "payments gateway is having an outage",
      "payments gateway having an outage", "payments gateway has an outage", "payments gateway is failing", "payments gateway failing", "payments gateway is returning errors",
      "payments gateway returning errors", "payments gateway is erroring", "payments gateway is rejecting", "payments gateway rejecting", "payments gateway is refusing",
      "payments gateway refusing", "payments gateway is deferring", "payments gateway deferring", "payments gateway is returning 503", "payments gateway returning 503",
      "payments gateway is returning 503s", "payments gateway returning 503s", "payments gateway returns 503", "payments gateway is returning 502", "payments gateway returning 502s",
      "payments gateway is timing out", "payments gateway timing out", "payment processor outage", "payment processor is having an outage", "payment processor having an outage",
      "payment processor has an outage", "payment processor is failing", "payment processor failing", "payment processor is returning errors", "payment processor returning errors",
      "payment processor is erroring", "payment processor is rejecting", "payment processor rejecting", "payment processor is refusing", "payment processor refusing",
      "payment processor is deferring", "payment processor deferring", "payment processor is returning 503", "payment processor returning 503", "payment processor is returning 503s",
      "payment processor returning 503s", "payment processor returns 503", "payment processor is returning 502", "payment processor returning 502s", "payment processor is timing out",
      "payment processor timing out", "card processor outage", "card processor is having an outage", "card processor having an outage", "card processor has an outage",
      "card processor is failing", "card processor failing", "card processor is returning errors", "card processor returning errors", "card processor is erroring",
      "card processor is rejecting", "card processor rejecting", "card processor is refusing", "card processor refusing", "card processor is deferring",
      "card processor deferring", "card processor is returning 503", "card processor returning 503", "card processor is returning 503s", "card processor returning 503s",
      "card processor returns 503", "card processor is returning 502", "card processor returning 502s", "card processor is timing out", "card processor timing out",
      # A slow provider is failing on its own side too: the hand-over names
      # the provider and what it does.
      "payment provider is slow", "slow payment provider", "payment provider slow", "payment provider latency", "payment provider is degraded",
      "payment provider degraded", "payment provider is responding slowly", "payment provider responding slowly", "payments provider is slow", "slow payments provider",
      "payments provider latency", "psp is slow", "slow psp", "psp latency", "psp is degraded",
      "payment gateway is slow", "slow payment gateway", "payment gateway latency", "payment processor is slow", "slow payment processor",
      "payment processor latency", "card processor is slow", "slow card processor", "card processor latency", "provider is slow",
    "slow provider", "provider latency", "provider is responding slowly", "slow third party", "third party latency", "provider outage", "provider side outage", "outage on their side", "on the provider s side", "provider s side", "provider fails", "provider failing", "provider is failing", "provider is down", "provider down", "provider errors", "provider returns 503", "provider answers 503", "provider answered 503", "external provider", "external dependency", "third party", "third party provider", "paylane outage", "paylane is down", "paylane failing", "paylane fails", "paylane is failing", "paylane errors", "paylane is slow", "paylane slow", "paylane latency", "processor is slow", "processor answers slowly", "processor takes", "provider takes", "slow authorisations", "slow authorizations", "authorisations slow", "authorizations slow", "card auth outage"]
    # Its names, the product's among them: an answer is about the provider
    # when it names it any way, and asserts the outage when it says the
    # provider fails its callers ("failing": slow, errors, refusals).
    about  = ["payment provider", "payments provider", "psp", "payment gateway", "payments gateway", "payment processor", "payments processor", "card processor", "card provider", "card payment provider", "payments api", "authorisation api", "authorization api", "provider", "paylane", "paylane api"]
    states = ["down", "failing"]
  }

  mechanism "mail_relay_outage" {
    description = "The external mail relay that takes the site's outgoing mail is turning it away on its own side; only its operator can fix it."
    phrases = [
      "smtp outage", "mail outage", "outage at the mail relay", "relay side outage", "mail relay outage",
      "mail relay is having an outage", "mail relay having an outage", "mail relay has an outage", "mail relay is failing", "mail relay failing",
      "mail relay is returning errors", "mail relay returning errors", "mail relay is erroring", "mail relay is rejecting", "mail relay rejecting",
      "mail relay is refusing", "mail relay refusing", "mail relay is deferring", "mail relay deferring", "mail relay is returning 421",
      "mail relay returning 421", "mail relay returns 421", "mail relay is returning 4xx", "mail relay returning 4xx", "smtp relay outage",
      "smtp relay is having an outage", "smtp relay having an outage", "smtp relay has an outage", "smtp relay is failing", "smtp relay failing",
      "smtp relay is returning errors", "smtp relay returning errors", "smtp relay is erroring", "smtp relay is rejecting", "smtp relay rejecting",
      "smtp relay is refusing", "smtp relay refusing", "smtp relay is deferring", "smtp relay deferring", "smtp relay is returning 421",
      "smtp relay returning 421", "smtp relay returns 421", "smtp relay is returning 4xx", "smtp relay returning 4xx", "email relay outage",
      "email relay is having an outage", "email relay having an outage", "email relay has an outage", "email relay is failing", "email relay failing",
      "email relay is returning errors", "email relay returning errors", "email relay is erroring", "email relay is rejecting", "email relay rejecting",
      "email relay is refusing", "email relay refusing", "email relay is deferring", "email relay deferring", "email relay is returning 421",
      "email relay returning 421", "email relay returns 421", "email relay is returning 4xx", "email relay returning 4xx", "email provider outage",
      "email provider is having an outage", "email provider having an outage", "email provider has an outage", "email provider is failing", "email provider failing",
      "email provider is returning errors", "email provider returning errors", "email provider is erroring", "email provider is rejecting", "email provider rejecting",
      "email provider is refusing", "email provider refusing", "email provider is deferring", "email provider deferring", "email provider is returning 421",
      "email provider returning 421", "email provider returns 421", "email provider is returning 4xx", "email provider returning 4xx", "mail provider outage",
      "mail provider is having an outage", "mail provider having an outage", "mail provider has an outage", "mail provider is failing", "mail provider failing",
      "mail provider is returning errors", "mail provider returning errors", "mail provider is erroring", "mail provider is rejecting", "mail provider rejecting",
      "mail provider is refusing", "mail provider refusing", "mail provider is deferring", "mail provider deferring", "mail provider is returning 421",
      "mail provider returning 421", "mail provider returns 421", "mail provider is returning 4xx", "mail provider returning 4xx", "smtp provider outage",
      "smtp provider is having an outage", "smtp provider having an outage", "smtp provider has an outage", "smtp provider is failing", "smtp provider failing",
      "smtp provider is returning errors", "smtp provider returning errors", "smtp provider is erroring", "smtp provider is rejecting", "smtp provider rejecting",
      "smtp provider is refusing", "smtp provider refusing", "smtp provider is deferring", "smtp provider deferring", "smtp provider is returning 421",
      "smtp provider returning 421", "smtp provider returns 421", "smtp provider is returning 4xx", "smtp provider returning 4xx",
    "smtp server is having an outage", "smtp server having an outage", "smtp server has an outage", "smtp server is failing", "smtp server is returning errors", "smtp server returning errors", "smtp server is rejecting", "smtp server rejecting", "smtp server is refusing", "smtp server refusing", "smtp server is deferring", "smtp server deferring", "smtp server is returning 421", "smtp server returning 421", "smtp server returns 421", "smtp server is returning 4xx", "smtp server returning 4xx", "mail server is having an outage", "mail server having an outage", "mail server has an outage", "mail server is failing", "mail server is returning errors", "mail server returning errors", "mail server is rejecting", "mail server rejecting", "mail server is refusing", "mail server refusing", "mail server is deferring", "mail server deferring", "mail server is returning 421", "mail server returning 421", "mail server returns 421", "mail server is returning 4xx", "mail server returning 4xx", "relay is having an outage", "relay having an outage", "relay has an outage", "relay is failing", "relay is returning errors", "relay returning errors", "relay is rejecting", "relay rejecting", "relay is refusing", "relay refusing", "relay is deferring", "relay deferring", "relay is returning 421", "relay returning 421", "relay returns 421", "relay is returning 4xx", "relay returning 4xx", "relay outage", "relay is down", "relay down", "relay fails", "relay is failing", "relay failing", "relay is deferring", "relay deferring", "relay defers", "relay 421", "smtp 421", "421 from the relay", "postwell outage", "postwell is failing", "postwell failing", "postwell is deferring", "postwell deferring", "postwell 421", "relay we hand mail to", "mail relay is turning", "relay turns away", "relay is turning away", "turns away all outgoing mail", "turning away outgoing mail", "deferring all our outgoing mail", "deferring outgoing mail"]
    about  = ["mail relay", "smtp relay", "email relay", "email provider", "mail provider", "smtp provider", "smtp server", "mail server", "relay", "outbound relay", "smtp", "postwell", "postwell relay"]
    states = ["down", "failing"]
  }

  # The network path between two services (the network team's, not the
  # site's): both ends are healthy by their own measures; what the client
  # sees is the path. The cause names the client's end.
  mechanism "network_path_degraded" {
    description = "The network path between two services drops or delays packets; both ends are healthy."
    phrases = [
      "packet loss", "packets dropped", "dropping packets", "dropped packets", "drops packets", "losing packets", "lost packets",
      "lossy link", "lossy network", "lossy path", "lossy network path", "network latency", "network delay", "added network latency",
      "network is slow", "slow network", "network degradation", "degraded network", "network degraded", "network path degraded",
      "network issue", "network problem", "network fault", "flaky network", "unreliable network", "network path", "network link",
      "link latency", "slow link", "degraded link", "link degraded", "link is degraded", "link is lossy", "link is slow",
    "round trip time", "round trip times", "rtt", "tcp retransmissions", "retransmissions", "retransmits", "network team", "per round trip", "round trip", "on the wire", "on the network itself", "path between", "network between", "latency on the path", "delay on the path", "loss on the path", "packet drops"]
  }

  # The site's resolvers fail to answer for a service's name: the server
  # is healthy, new connections to it cannot find it.
  mechanism "name_resolution_failure" {
    description = "The resolvers the site's services ask fail to answer for a peer's name; the peer is healthy."
    phrases = [
      "dns failure", "dns failures", "dns resolution failure", "dns resolution failing", "dns resolution fails",
      "dns is failing", "dns failing", "dns outage", "dns problem",
      "dns issue", "dns servers failing", "dns server failing", "name resolution failure", "name resolution failing", "name resolution fails",
      "name resolution failures",
      "resolver failing", "resolvers failing",
    "resolver is failing", "resolvers are failing", "resolver failure", "resolver outage", "resolver timeouts", "servfail", "servfails", "can t always resolve", "cannot always resolve", "resolver failures", "resolvers fail", "resolver fails", "dns lookups fail", "dns lookup failures", "dns lookups failing", "name lookups fail", "name lookups failing"]
  }

  # Another guest of the hypervisor takes the CPU the service's instances
  # are ready to use (steal time): the service's own work is unchanged.
  mechanism "noisy_neighbour" {
    description = "Another tenant of the same physical machine takes its share of the processor."
    phrases = [
      "noisy neighbour", "noisy neighbor", "noisy neighbours", "noisy neighbors", "cpu steal", "steal time", "stolen cpu",
      "high steal", "steal is high", "cpu contention", "host contention", "contended host", "oversubscribed host", "overcommitted host",
      "hypervisor contention", "contended hypervisor", "neighbouring vm", "neighboring vm", "co located vm", "colocated vm", "another guest",
      "other guests", "another tenant", "other tenants", "cpu starved", "starved of cpu",
      "neighbour vm", "neighbor vm", "neighbouring vms", "neighboring vms", "stealing cpu", "steals cpu", "stealing the cpu",
      "steals the cpu", "cpu stolen", "cpu is stolen", "cpu being stolen",
    ]
  }

  mechanism "connection_pool_exhausted" {
    description = "Too few pooled connections for the load: callers wait for a connection and time out."
    phrases     = ["pool exhausted", "pool exhaustion", "pool saturated", "pool saturation", "pool starvation", "out of pooled connections", "no free connections", "waiting for a pooled connection", "pool too small", "pool undersized"]
  }

  mechanism "connection_limit_exceeded" {
    description = "A connection limit is below what clients open, so connections are refused."
    phrases     = ["too many connections", "connection limit exceeded", "connection limit reached", "max connections reached", "pool too large", "pool oversized"]
    # A limit that is full is one the clients outgrew: "the connection
    # table is full", "all connection slots are taken".
    about  = ["connection table", "connection slots", "connection limit", "max connections", "maxconn", "listener limit", "connection cap"]
    states = ["full"]
  }

  mechanism "worker_pool_misconfigured" {
    description = "The application's worker count is wrong for the load: too few saturate, too many exhaust memory."
    phrases     = ["worker pool misconfigured", "workers misconfigured"]
  }

  mechanism "timeout_too_low" {
    description = "A request, statement or idle deadline is shorter than normal work takes, so work is cut off."
    phrases     = ["timeout too low", "timeout too short", "deadline too short", "timeouts too aggressive"]
  }

  mechanism "rate_limited" {
    description = "A rate limit below normal traffic rejects legitimate requests."
    phrases     = ["rate limited", "rate limiting", "throttling legitimate traffic"]
  }

  mechanism "health_check_misconfigured" {
    description = "Health probes fail against healthy backends, which are taken out of rotation."
    phrases     = ["health check misconfigured", "health checks misconfigured", "wrong health check path", "wrong probe path"]
  }

  mechanism "tls_certificate_expired" {
    description = "The listener presents an expired certificate; clients abort the handshake."
    phrases     = ["certificate expired", "expired certificate", "cert expired", "expired cert", "expired tls certificate", "tls certificate expired"]
    about       = ["tls certificate", "ssl certificate", "certificate", "cert", "tls cert", "x509 certificate", "https certificate", "tls"]
    states      = ["expired"]
  }

  mechanism "tls_key_mismatch" {
    description = "The certificate installed and the private key beside it are not a pair; the listener refuses to load them."
    phrases     = ["key mismatch", "certificate key mismatch", "cert key mismatch", "private key mismatch", "mismatched key", "mismatched private key", "mismatched certificate", "mismatched cert", "key does not match", "key doesn t match", "certificate does not match", "certificate doesn t match", "cert does not match", "cert doesn t match", "wrong private key", "key and certificate do not match", "key and certificate don t match", "certificate and key do not match", "certificate and key don t match", "cert and key don t match", "cert and key do not match", "not a matching pair", "key pair mismatch"]
    about       = ["private key", "tls key", "ssl key", "key pair", "certificate key", "pem bundle", "pem file"]
    states      = ["wrong"]
  }

  mechanism "sticky_session_hotspot" {
    description = "Client affinity concentrates traffic on one backend, which saturates while others idle."
    phrases     = ["sticky sessions", "sticky session", "session affinity", "hotspot", "hot spot", "hot backend"]
    about       = ["sticky sessions", "sticky session", "session affinity", "affinity", "stickiness", "session stickiness"]
    states      = ["skewed"]
  }

  mechanism "read_path_bypassed" {
    description = "Lookups do not reach the cache (wrong host name), so every read goes to the origin."
    phrases     = ["cache bypassed", "cache bypass", "bypassing the cache", "bypasses the cache", "wrong cache host", "cache host wrong", "wrong cache hostname"]
  }

  mechanism "maintenance_mode" {
    description = "An administrative restriction left in place rejects client connections."
    phrases     = ["maintenance mode", "admin only mode", "admin only", "locked to admins", "superusers only", "admin only lock", "restricted to administrators", "restricted to admins", "administrators only"]
    about       = ["maintenance mode", "maintenance", "admin only mode"]
    states      = ["on"]
  }

  mechanism "missing_index" {
    description = "A query's index is missing or disabled, so it scans the whole table."
    phrases     = ["missing index", "index missing", "dropped index", "no index", "unindexed", "full table scan", "full table scans", "sequential scan", "sequential scans", "index disabled", "invalid index"]
    about       = ["index", "the index", "orders index", "user id index", "orders user id index", "orders uid idx", "orders user id idx", "index on orders", "index on user id"]
    states      = ["off"]
  }

  mechanism "read_replica_disabled" {
    description = "Reads are not offloaded to the replica and overload the primary."
    phrases     = ["replica disabled", "replication disabled", "read replica disabled", "no read replica", "replica not used"]
  }

  mechanism "autovacuum_disabled" {
    description = "Dead row versions accumulate because background vacuuming is off, slowing every scan."
    phrases     = ["autovacuum disabled", "autovacuum off", "vacuum disabled", "table bloat", "dead tuples", "dead rows", "bloat", "bloated tables", "bloated"]
  }

  mechanism "xmin_horizon_held" {
    description = "A transaction left open holds back the oldest xmin, so vacuum runs but cannot remove dead row versions and the tables bloat."
    phrases     = ["idle in transaction", "idle-in-transaction", "long running transaction", "long-running transaction", "open transaction", "transaction left open", "xmin horizon", "oldest xmin", "held back xmin", "xmin held back", "vacuum cannot remove", "vacuum can't remove", "snapshot held", "xmin", "old transaction", "idle transaction", "idle transactions", "idle session", "idle sessions"]
  }

  mechanism "memory_eviction" {
    description = "The data does not fit in the memory allowed (limit too low, or values stored uncompressed), so keys are evicted."
    phrases     = ["eviction storm", "evictions", "evicting", "memory too low", "out of memory evictions"]
  }

  mechanism "memory_ceiling_over_host" {
    description = "The memory ceiling lets the process grow past what its host has, so the kernel's OOM killer ends it."
    phrases     = ["maxmemory above host memory", "maxmemory exceeds host memory", "maxmemory larger than the host", "memory limit above host memory", "exceeds the host s memory", "exceeds host ram", "more than the host has", "bigger than the host"]
  }

  mechanism "auth_token_expired" {
    description = "The credential clients present is no longer accepted."
    phrases     = ["token expired", "expired token", "auth failure", "auth failures", "authentication failure", "authentication failures", "credentials expired", "expired credentials", "auth token expired", "password rotated", "rotated password", "stale password", "stale credentials", "stale credential", "secret rotated", "rotated secret", "stale secret"]
    about       = ["auth token", "token", "access token", "credentials", "credential", "password", "auth", "secret", "secrets", "acl password"]
    states      = ["expired", "wrong", "off"]
  }

  mechanism "ttl_too_low" {
    description = "Entries expire before they are reused, so the hit rate collapses."
    phrases     = ["ttl too low", "ttl too short", "expire too quickly", "expiring too quickly", "short expiry", "expiry too short", "expire before reuse", "expire before they are reused", "expire before being reused", "expire before they re reused", "expire before", "expires before", "expire long before", "expire well before"]
  }

  mechanism "consumer_capacity_low" {
    description = "Too few consumers for the arrival rate: the backlog grows."
    phrases     = ["too few consumers", "not enough consumers", "insufficient consumers", "consumers scaled down", "consumer capacity", "under provisioned consumers", "consumer starvation"]
  }

  mechanism "retry_storm" {
    description = "Failing jobs are retried so many times that retries crowd out real work."
    phrases     = ["retry storm", "too many retries", "excessive retries", "poison message", "poison messages", "retrying forever", "endless retries", "infinite retries"]
  }

  mechanism "wal_retention_too_large" {
    description = "The server is told to keep more WAL than its volume can hold beside the data."
    phrases     = ["wal_keep_size too large", "wal_keep_size too high", "wal_keep_size raised", "wal retention too large", "wal retention too high", "wal retention raised", "keeps too much wal", "keeping too much wal", "too much wal kept", "too much wal retained", "wal retention never lowered", "wal retention left high", "wal retention was never lowered", "retention was never lowered", "from wal retention", "due to wal retention", "because of wal retention", "too much write ahead log", "far too much write ahead log"]
    about       = ["wal_keep_size", "wal keep size", "wal retention", "wal retained", "retained wal", "kept wal"]
    states      = ["high"]
  }

  mechanism "disk_full" {
    description = "The data volume is full, so statements that write fail."
    phrases     = ["disk full", "disk is full", "out of disk", "out of disk space", "volume full", "volume is full", "disk space exhausted", "data volume full"]
    about       = ["disk", "volume", "data volume", "disk space", "storage", "device", "data disk"]
    states      = ["full"]
  }

  mechanism "backend_weight_skewed" {
    description = "The balancer's backend weights send most traffic to one web backend."
    phrases     = ["skewed weights", "weights skewed", "uneven weights", "unbalanced weights", "skewed backend weights"]
    about       = ["backend weight", "backend weights", "weights", "weight", "weighting", "traffic split"]
    states      = ["skewed"]
  }

  mechanism "deduplication_disabled" {
    description = "The broker queues every republished copy of a job, so a long queue feeds itself."
    phrases     = ["dedup disabled", "deduplication disabled", "deduplication off", "dedup off", "no deduplication", "duplicate publishes", "republished copies", "duplicate messages queued"]
    about       = ["dedup", "deduplication", "de duplication", "duplicate detection", "duplicate suppression", "message deduplication", "x message deduplication", "dedup plugin", "deduplication plugin"]
    states      = ["off"]
  }

  mechanism "premature_redelivery" {
    description = "Deliveries become visible again before consumers finish them, so jobs are processed twice."
    phrases     = ["premature redelivery", "redelivered before", "duplicate deliveries", "duplicate processing", "processed twice", "jobs run twice", "double processing"]
  }
}
