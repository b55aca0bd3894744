# Database: the primary relational store. Load arrives from the web tier
# (writes and cache misses) and from the queue consumers (one write per job).
# Each query holds a pooled connection for about ten times its execution time
# (the surrounding transaction); when the busy connections exceed the pool,
# callers wait and eventually time out. The host commits memory strictly:
# sessions and sort memory beyond its budget fail with ENOMEM and squeeze the
# page cache; a long statement deadline lets runaway statements hold
# connections. Data and retained WAL share one 500 GB volume: retaining too
# much WAL fills it, and once it is full every statement that writes fails.

service_kind "database" {
  description = "Relational database (PostgreSQL-like) behind a connection pool, with a read replica."

  role "web" {
    kind        = "web_server"
    caller      = true
    description = "The web tier: reads on cache misses and all writes."
  }

  role "queue" {
    kind        = "message_queue"
    caller      = true
    description = "Queue consumers: one write per processed job."
  }

  # ---------------------------------------------------------------- config

  config "pool_size" {
    type        = "int"
    default     = 50
    low         = 20
    high        = 150
    unit        = "connections"
    description = "Server connections the pooler keeps open for clients."
    aka         = ["connection pool", "pool", "pool size", "pooled connections", "pooler", "pooler pool", "pgbouncer pool", "connection pool size"]
  }

  config "max_connections" {
    type        = "int"
    default     = 100
    low         = 100
    high        = 500
    unit        = "connections"
    description = "Connections the database server accepts before refusing new ones."
    aka         = ["max connections", "max conn", "maximum connections", "connection limit", "connections limit", "max_connections limit", "server connection limit", "connection cap", "connection ceiling", "client limit", "clients limit", "connection slots", "maxconn"]
  }

  config "query_timeout_ms" {
    type        = "int"
    default     = 2000
    low         = 1000
    high        = 10000
    unit        = "ms"
    description = "Statement deadline; longer statements are cancelled."
    aka         = ["query timeout", "statement timeout", "statement deadline", "query deadline", "statement_timeout", "timeout", "query time limit", "statement time limit", "per query time limit", "time limit"]
  }

  config "work_mem_mb" {
    type        = "int"
    default     = 64
    low         = 16
    high        = 256
    unit        = "MB"
    description = "Memory one sort or hash operation may use before spilling to disk."
    aka         = ["work mem", "work memory", "sort memory"]
  }

  config "wal_keep_size_gb" {
    type        = "int"
    default     = 16
    low         = 4
    high        = 64
    unit        = "GB"
    description = "Write-ahead log the server retains for replicas and point-in-time recovery, on the data volume."
    aka         = ["wal retention", "wal keep size", "retained wal", "wal", "wal size", "write ahead log", "write ahead log retention"]
  }

  config "maintenance_mode" {
    type        = "bool"
    default     = false
    description = "Restrict connections to administrators (used during migrations)."
    aka         = ["maintenance mode", "maintenance", "admin only mode", "admin mode"]
  }

  config "read_replica_enabled" {
    type        = "bool"
    default     = true
    description = "Route read-only statements to the streaming replica."
    aka         = ["read replica", "replica", "replicas", "replica routing", "read routing", "streaming replica", "standby", "read standby", "hot standby"]
  }

  config "autovacuum_enabled" {
    type        = "bool"
    default     = true
    description = "Background reclaiming of dead row versions and refresh of planner statistics."
    aka         = ["autovacuum", "vacuum", "vacuuming", "vacuumed", "auto vacuum", "autovac", "cleanup", "clean up", "cleaning up", "cleaning"]
  }

  # ---------------------------------------------------------------- state

  state "up" {
    type        = "bool"
    initial     = true
    description = "The database server is running."
  }

  state "restart_ticks" {
    type        = "int"
    initial     = 0
    next        = "max(state.restart_ticks - 1, 0)"
    description = "Ticks left until a restarted server accepts queries again."
  }

  state "exit_code" {
    type        = "int"
    initial     = 0
    description = "Exit code of the last server process that stopped."
  }

  state "dead_tuple_pct" {
    type        = "float"
    initial     = 5.0
    next        = "config.autovacuum_enabled && state.oldest_xact_age_xids <= 0.0 ? max(5.0, state.dead_tuple_pct - state.vacuum_rate_pct) : min(90.0, state.dead_tuple_pct + 8.0)"
    unit        = "%"
    description = "Share of row versions that are dead and still scanned."
  }

  state "volume_gb" {
    type        = "float"
    initial     = 500.0
    unit        = "GB"
    description = "Size of the data volume that holds the data and the retained WAL."
  }

  state "data_gb" {
    type        = "float"
    initial     = 199.0
    unit        = "GB"
    description = "Table and index data on the data volume."
  }

  state "orders_rows_m" {
    type        = "float"
    initial     = 40.0
    unit        = "million rows"
    description = "Size of the orders table."
  }

  state "read_fraction" {
    type        = "float"
    initial     = 0.7
    unit        = "ratio"
    description = "Share of statement time spent in read-only statements."
  }

  state "admin_pid" {
    type        = "int"
    initial     = 0
    description = "Process id of the administrative session holding the server, 0 when none."
  }

  state "report_ms" {
    type        = "float"
    initial     = 96.0
    unit        = "ms"
    description = "The site's longest routine statements (reports, exports) on a healthy server: eight ordinary statements' time (96 ms) unless the site runs heavier ones. A statement deadline below it cancels them."
  }

  state "direct_sessions" {
    type        = "float"
    initial     = 0.0
    unit        = "connections"
    description = "Server sessions the site's other clients hold open directly, past the pooler (reporting tools, cron jobs, the consumers' own pools); they count against max_connections, so the pooler may open only what they leave (0 where every client goes through the pooler)."
  }

  state "report_sort_mb" {
    type        = "float"
    initial     = 0.0
    unit        = "MB"
    description = "The largest sort or hash of the site's routine reports (0 where they are small). With work_mem below it, it spills to temporary files and the report runs about eight times slower."
  }

  state "slot_wal_gb" {
    type        = "float"
    initial     = 0.0
    next        = "min(400.0, state.slot_wal_gb + state.slot_wal_rate_gb)"
    unit        = "GB"
    description = "WAL kept on the data volume for a replication slot whose consumer is not connected: the server may not recycle it."
  }

  state "slot_wal_rate_gb" {
    type        = "float"
    initial     = 0.0
    unit        = "GB per tick"
    description = "WAL written per tick that an inactive replication slot retains; 0 while every slot's consumer keeps up."
  }

  # A standby being re-cloned (pg_basebackup with a slot) keeps a physical
  # slot that no consumer reads until the clone finishes: checkpoints
  # recycle no WAL meanwhile, and dropping the slot makes the rebuild
  # start over. Benign state a careless operator "fixes".
  state "replica_rebuild" {
    type        = "bool"
    initial     = false
    description = "A standby is being re-cloned from this server with pg_basebackup; its physical replication slot has no consumer until the clone finishes."
  }

  # A slot still in use dropped by name: the streaming standby's
  # (standby_1, always connected) or the clone's (standby_2, while a
  # re-clone runs). Its consumer must be re-cloned from a fresh base
  # backup; nothing undoes it.
  state "slot_dropped_in_use" {
    type        = "bool"
    initial     = false
    description = "A replication slot a consumer still needed (the standby's, or a running clone's) was dropped; that consumer must be re-cloned from a fresh base backup."
  }

  state "app_password_version" {
    type        = "int"
    initial     = 17
    description = "Version, as the site's secret store numbers it, of the app role's password the server accepts."
  }

  state "boot_attempts" {
    type        = "int"
    initial     = 0
    next        = "state.up && (!boot_ok || state.recovery_failed) ? state.boot_attempts + 1 : 0"
    description = "Consecutive starts the supervisor has made that exited during boot."
  }

  state "recovery_failed" {
    type        = "bool"
    initial     = false
    next        = "state.up && (state.restart_ticks == 1 || state.recovery_failed) && state.data_gb + float(config.wal_keep_size_gb) + state.slot_wal_gb >= 500.0"
    description = "The last start aborted in crash recovery: the startup process could not write WAL on a full volume. The supervisor starts the server again each tick; a start succeeds once the volume has room. A running server is not stopped by a full volume (its writes fail); a starting one is."
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

  # Indexes and vacuum as state (issues 18–19): an index a failed
  # concurrent build left INVALID is in the catalog but the planner ignores
  # it; rebuilding it takes time proportional to the table. A transaction
  # left open holds back the oldest xmin, so vacuum runs and removes
  # nothing; once it ends, autovacuum reclaims dead rows at its declared
  # rate.
  # The orders table's indexes, as \d orders and pg_indexes list them: a
  # migration that dropped one (or a restore that never created it) leaves
  # it out, and lookups by user scan the table until it is created again.
  # The site's change history records schema changes (its migrations).
  state "orders_indexes" {
    type        = "string"
    initial     = "orders_pkey, orders_uid_idx, orders_created_at_idx"
    audited     = true
    description = "The indexes of the orders table, as pg_indexes lists them (primary key, user_id, created_at)."
  }

  state "orders_index_invalid" {
    type        = "bool"
    initial     = false
    next        = "state.orders_index_invalid && state.index_build_ticks != 1"
    description = "The index orders_uid_idx is marked INVALID (a CREATE INDEX CONCURRENTLY or REINDEX CONCURRENTLY that failed): it is kept up to date but the planner does not use it."
  }

  state "index_build_ticks" {
    type        = "int"
    initial     = 0
    next        = "max(state.index_build_ticks - 1, 0)"
    description = "Ticks left of a running concurrent index rebuild; it ends valid at the last."
  }

  state "index_build_mrows_per_tick" {
    type        = "float"
    initial     = 10.0
    unit        = "million rows per tick"
    description = "Declared rate of a concurrent index build: rows it scans, sorts and validates per tick. A build of N million rows takes 1 + floor(N / rate) ticks."
  }

  # REINDEX CONCURRENTLY of an index that is valid already builds a
  # second copy for nothing: a table's worth of reads, sorts and WAL.
  state "valid_index_rebuilt" {
    type        = "bool"
    initial     = false
    description = "A valid index was rebuilt concurrently for nothing: the build read the whole table and wrote its WAL."
  }

  state "index_build_statement" {
    type        = "string"
    initial     = "REINDEX INDEX CONCURRENTLY public.orders_uid_idx"
    description = "The statement of the running (or last) concurrent index build, as log_statement logs it."
  }

  state "vacuum_rate_pct" {
    type        = "float"
    initial     = 40.0
    unit        = "% per tick"
    description = "Declared rate at which autovacuum reclaims dead row versions, in points of dead_tuple_pct per tick, while nothing holds the xmin horizon back: a table with D% dead takes about (D - 5) / rate ticks."
  }

  state "oldest_xact_age_xids" {
    type        = "float"
    initial     = 0.0
    next        = "state.oldest_xact_age_xids > 0.0 ? state.oldest_xact_age_xids + 41000.0 : 0.0"
    unit        = "XIDs"
    description = "Age of a session left idle in transaction that holds back the oldest xmin, 0 when none: vacuum cannot remove row versions that died after its snapshot."
  }

  # ---------------------------------------------------------------- derived

  derived "boot_ok" {
    type        = "bool"
    value       = "config.work_mem_mb <= 2097151"
    description = "postgresql.conf loads: work_mem above 2147483647 kB is outside the parameter's valid range, and the postmaster will not start."
  }

  derived "serving" {
    type  = "bool"
    value = "state.up && state.restart_ticks == 0 && boot_ok && !state.recovery_failed"
  }

  derived "qps" {
    type  = "float"
    value = "serving ? web.db_qps + queue.consumer_qps : 0.0"
    unit  = "queries/s"
  }

  derived "user_id_indexed" {
    type        = "bool"
    value       = "state.orders_indexes == \"orders_pkey, orders_uid_idx, orders_created_at_idx\""
    description = "The catalog lists the index on orders(user_id), valid or not."
  }

  derived "index_factor" {
    type  = "float"
    value = "user_id_indexed && !state.orders_index_invalid ? 1.0 : 1.0 + state.orders_rows_m / 8.0"
    unit  = "ratio"
  }

  derived "replica_factor" {
    type  = "float"
    value = "config.read_replica_enabled ? 1.0 : 1.0 + state.read_fraction * 5.0"
    unit  = "ratio"
  }

  derived "bloat_factor" {
    type  = "float"
    value = "1.0 + (state.dead_tuple_pct - 5.0) / 20.0"
    unit  = "ratio"
  }

  derived "session_mem_mb" {
    type        = "float"
    value       = "10.0 * float(config.max_connections)"
    unit        = "MB"
    description = "Memory committed to server processes: clients that bypass the pooler (reports, cron, the consumers' own pools) keep a session in every slot the pooler leaves free, about 10 MB each."
  }

  derived "sort_mem_mb" {
    type        = "float"
    value       = "16.0 * float(config.work_mem_mb)"
    unit        = "MB"
    description = "Memory the large sorts and hashes of reports and exports may take: about 16 run at once, each using up to work_mem before it spills to disk."
  }

  derived "overcommit_mb" {
    type        = "float"
    value       = "max(0.0, session_mem_mb - 5000.0) + max(0.0, sort_mem_mb - 4096.0)"
    unit        = "MB"
    description = "Memory asked for beyond what the 16 GB host can commit (strict overcommit): 4 GB of shared buffers, 5 GB for sessions, 4 GB for sorts and hashes, the rest for the kernel and page cache."
  }

  derived "alloc_fail_share" {
    type        = "float"
    value       = "overcommit_mb / (overcommit_mb + 16384.0) * 0.2"
    unit        = "ratio"
    description = "Statements and connection attempts failing with ENOMEM."
  }

  derived "memory_factor" {
    type        = "float"
    value       = "1.0 + min(overcommit_mb, 49152.0) / 16384.0"
    unit        = "ratio"
    description = "Slow-down of every statement as committed memory squeezes the page cache and reads go to disk."
  }

  derived "spill_factor" {
    type        = "float"
    value       = "1.0 + clamp((16.0 - float(config.work_mem_mb)) / 16.0, 0.0, 1.0) * 0.5"
    unit        = "ratio"
    description = "Slow-down from sorts and hashes spilling to temporary files: below 16 MB even ordinary ones no longer fit in memory."
  }

  derived "query_ms" {
    type  = "float"
    value = "12.0 * index_factor * replica_factor * bloat_factor * memory_factor * spill_factor"
    unit  = "ms"
  }

  derived "runaway_connections" {
    type        = "float"
    value       = "1.0 * max(0.0, float(config.query_timeout_ms) - 10000.0) / 1000.0"
    unit        = "connections"
    description = "Connections held by runaway statements (ad-hoc reports, a missing LIMIT), about one a second, each running until the deadline cancels it; the first 10 s of each are part of the usual load."
  }

  derived "busy_connections" {
    type  = "float"
    value = "qps * query_ms * 10.0 / 1000.0 + runaway_connections"
    unit  = "connections"
  }

  derived "usable_pool" {
    type  = "float"
    value = "min(float(config.pool_size), float(config.max_connections) - state.direct_sessions)"
    unit  = "connections"
  }

  derived "utilisation" {
    type  = "float"
    value = "busy_connections / usable_pool"
    unit  = "ratio"
  }

  derived "wait_ms" {
    type  = "float"
    value = "utilisation > 0.85 ? (min(utilisation, 3.0) - 0.85) * 2000.0 : 0.0"
    unit  = "ms"
  }

  derived "pool_timeout_share" {
    type  = "float"
    value = "utilisation > 1.0 ? 1.0 - 1.0 / utilisation : 0.0"
    unit  = "ratio"
  }

  derived "refused_share" {
    type  = "float"
    value = "config.pool_size > 0 && float(config.pool_size) + state.direct_sessions > float(config.max_connections) ? min(float(config.pool_size) + state.direct_sessions - float(config.max_connections), float(config.pool_size)) / float(config.pool_size) : 0.0"
    unit  = "ratio"
  }

  derived "report_spill" {
    type        = "float"
    value       = "float(config.work_mem_mb) < state.report_sort_mb ? 8.0 : 1.0"
    unit        = "ratio"
    description = "Slow-down of the site's reports when their largest sort no longer fits in work_mem and goes to disk."
  }

  derived "statement_tail_ms" {
    type        = "float"
    value       = "query_ms / 12.0 * max(96.0, state.report_ms) * report_spill"
    unit        = "ms"
    description = "The longest routine statements as they run now: the site's reports and exports, slower as every statement slows."
  }

  derived "cancel_share" {
    type  = "float"
    value = "clamp(1.0 - float(config.query_timeout_ms) / statement_tail_ms, 0.0, 1.0) * 0.5"
    unit  = "ratio"
  }

  derived "volume_used_pct" {
    type        = "float"
    value       = "min(100.0, (state.data_gb + float(config.wal_keep_size_gb) + state.slot_wal_gb) / state.volume_gb * 100.0)"
    unit        = "%"
    description = "Share of the data volume taken by data and retained WAL."
  }

  derived "write_fail_share" {
    type        = "float"
    value       = "volume_used_pct >= 100.0 ? 0.35 : 0.0"
    unit        = "ratio"
    description = "Statements failing because the volume is full: every write (about a third of the statements) needs new WAL."
  }

  derived "password_version" {
    type        = "int"
    value       = "state.app_password_version"
    description = "The app password version the server accepts, as its clients' secret reloads read it from the store."
  }

  derived "web_auth_ok" {
    type        = "bool"
    value       = "web.db_credential_version == state.app_password_version"
    description = "The web tier logs in with the password the server accepts."
  }

  derived "queue_auth_ok" {
    type        = "bool"
    value       = "queue.db_credential_version == state.app_password_version"
    description = "The queue's consumers log in with the password the server accepts."
  }

  derived "auth_fail_share" {
    type        = "float"
    value       = "(web_auth_ok ? 0.0 : 0.8) + (queue_auth_ok ? 0.0 : 0.2)"
    unit        = "ratio"
    description = "Statements lost to refused logins: the web tier issues about 80% of them, the consumers the rest."
  }

  derived "error_rate" {
    type  = "float"
    value = "serving && !config.maintenance_mode ? clamp(pool_timeout_share + refused_share + cancel_share + alloc_fail_share + write_fail_share + auth_fail_share, 0.0, 1.0) : 1.0"
    unit  = "ratio"
  }

  derived "latency_ms" {
    type  = "float"
    value = "serving ? query_ms + wait_ms : 0.0"
    unit  = "ms"
  }

  # ---------------------------------------------------------------- metrics

  metric "queries_per_s" {
    type      = "float"
    value     = "qps"
    unit      = "queries/s"
    precision = 1
    low       = 10
    high      = 3000
  }

  metric "active_connections" {
    type  = "int"
    value = "int(min(busy_connections, usable_pool))"
    unit  = "connections"
    low   = 0
    high  = 35
  }

  metric "connection_wait_ms" {
    type      = "float"
    value     = "wait_ms"
    unit      = "ms"
    precision = 1
    low       = 0
    high      = 50
  }

  metric "query_p95_latency_ms" {
    type      = "float"
    value     = "serving ? query_ms * 2.0 + wait_ms : 0.0"
    unit      = "ms"
    precision = 1
    low       = 0
    high      = 60
  }

  metric "query_error_rate" {
    type      = "float"
    value     = "qps > 0.0 ? error_rate : 0.0"
    unit      = "ratio"
    precision = 3
    low       = 0
    high      = 0.01
  }

  metric "dead_tuple_pct" {
    type      = "float"
    value     = "state.dead_tuple_pct"
    unit      = "%"
    precision = 1
    low       = 0
    high      = 20
    noise     = "slow"
  }

  metric "disk_used_pct" {
    type      = "float"
    value     = "state.cosmetic_metric ? 71.0 : volume_used_pct"
    unit      = "%"
    precision = 1
    low       = 0
    high      = 85
    noise     = "slow"
  }

  # ---------------------------------------------------------------- status

  status "down" { when = "!state.up" }
  status "restarting" { when = "state.restart_ticks > 0 || !boot_ok || state.recovery_failed" }
  # A pooler whose server logins are refused marks the server degraded,
  # however small the refused share.
  status "degraded" { when = "error_rate > 0.02 || utilisation > 0.95 || latency_ms > 100.0 || refused_share > 0.0" }

  # ---------------------------------------------------------------- logs

  # pgbouncer src/stats.c (log_stats)
  log "pool_ready" {
    level = "INFO"
    when  = "serving && !config.maintenance_mode"
    text  = "pgbouncer[{@mainpid}]: stats: {int(qps / 10.0)} xacts/s, {int(qps)} queries/s, 0 client parses/s, 0 server parses/s, 0 binds/s, 3 client logins/s, in {int(qps * 310.0)} B/s, out {int(qps * 1660.0)} B/s, xact {int(query_ms * 10000.0)} us, query {int(query_ms * 1000.0)} us, wait {int(wait_ms * 1000.0)} us"
  }

  # src/backend/access/transam/xlog.c (LogCheckpointEnd)
  log "query_ok" {
    level = "INFO"
    when  = "serving && error_rate <= 0.01 && !state.replica_rebuild"
    text  = "[{@pid}] LOG:  checkpoint complete: wrote 2184 buffers (1.7%); 0 WAL file(s) added, 0 removed, 3 recycled; write=269.312 s, sync=0.012 s, total=269.345 s; sync files=41, longest=0.004 s, average=0.001 s; distance=51230 kB, estimate=53110 kB"
  }

  # pgbouncer src/server.c (new server connection)
  log "pool_busy" {
    level = "WARN"
    when  = "serving && utilisation > 0.7 && utilisation <= 1.0"
    text  = "pgbouncer[{@mainpid}]: S-0x{@hex}: shop/app@10.0.1.5:5432 new connection to server (from 10.0.1.9:{@port})"
  }

  # pgbouncer src/janitor.c (disconnect_client "query_wait_timeout"), src/objects.c ("closing because: %s (age=%ds)")
  log "pool_wait_timeout" {
    level = "ERROR"
    when  = "serving && utilisation > 1.0"
    text  = "pgbouncer[{@mainpid}]: C-0x{@hex}: shop/app@10.0.2.11:{@port} closing because: query_wait_timeout (age=1s)"
  }

  # src/backend/storage/lmgr/proc.c (InitProcess, ERRCODE_TOO_MANY_CONNECTIONS)
  log "too_many_clients" {
    level = "ERROR"
    when  = "serving && refused_share > 0.0"
    text  = "[{@pid}] FATAL:  sorry, too many clients already"
  }

  # src/backend/tcop/postgres.c (ProcessInterrupts)
  log "statement_cancelled" {
    level = "ERROR"
    when  = "serving && cancel_share > 0.01 && report_spill <= 1.0"
    text  = "[{@pid}] ERROR:  canceling statement due to statement timeout  STATEMENT:  SELECT id, status, total FROM orders WHERE user_id = $1 ORDER BY created_at DESC LIMIT 50"
  }

  # src/backend/postmaster/postmaster.c ("could not fork new process for connection: %m")
  log "fork_failed" {
    level = "ERROR"
    when  = "serving && session_mem_mb > 5000.0"
    text  = "[{@pid}] LOG:  could not fork new process for connection: Cannot allocate memory"
  }

  # src/backend/utils/mmgr/mcxt.c (MemoryContextSizeFailure)
  log "sort_oom" {
    level = "ERROR"
    when  = "serving && sort_mem_mb > 4096.0"
    text  = "[{@pid}] ERROR:  out of memory  DETAIL:  Failed on request of size {config.work_mem_mb * 1048576} in memory context \"ExecutorState\".  STATEMENT:  SELECT customer_id, sum(total) FROM orders GROUP BY customer_id ORDER BY 2 DESC"
  }

  # src/backend/storage/file/fd.c (ReportTemporaryFileUsage)
  log "temp_files" {
    level = "WARN"
    when  = "serving && spill_factor > 1.0"
    text  = "[{@pid}] LOG:  temporary file: path \"base/pgsql_tmp/pgsql_tmp{@pid}.4\", size 41943040  STATEMENT:  SELECT * FROM orders WHERE user_id = $1 ORDER BY created_at DESC LIMIT 50"
  }

  # src/backend/tcop/postgres.c (check_log_duration: "duration: %s ms  statement: %s")
  log "long_statements" {
    level = "WARN"
    when  = "serving && runaway_connections >= 0.5"
    text  = "[{@pid}] LOG:  duration: {config.query_timeout_ms - 412}.118 ms  statement: SELECT o.*, i.* FROM orders o JOIN order_items i USING (order_id) ORDER BY o.created_at"
  }

  # contrib/auto_explain/auto_explain.c ("duration: %.3f ms  plan:")
  log "seq_scan" {
    level = "WARN"
    when  = "serving && (!user_id_indexed || state.orders_index_invalid)"
    text  = "[{@pid}] LOG:  duration: {int(query_ms * 6.0)}.512 ms  plan:  Query Text: SELECT * FROM orders WHERE user_id = $1  Seq Scan on orders  (cost=0.00..{int(state.orders_rows_m * 18334.0)}.00 rows=41 width=97)  Filter: (user_id = $1)"
  }

  # src/backend/tcop/postgres.c (check_log_duration)
  log "primary_reads" {
    level = "WARN"
    when  = "serving && !config.read_replica_enabled"
    text  = "[{@pid}] LOG:  duration: {int(query_ms * 5.0)}.904 ms  statement: SELECT p.id, p.name, p.price FROM products p WHERE p.category_id = $1 ORDER BY p.rank LIMIT 48"
  }

  # src/backend/tcop/postgres.c (check_log_duration)
  log "bloat" {
    level = "WARN"
    when  = "serving && state.dead_tuple_pct > 20.0"
    text  = "[{@pid}] LOG:  duration: {int(query_ms * 4.0)}.207 ms  statement: UPDATE orders SET status = $1, updated_at = now() WHERE id = $2"
  }

  # src/backend/utils/init/postinit.c (CheckMyDatabase, !datallowconn)
  log "admin_lock" {
    level = "ERROR"
    when  = "serving && config.maintenance_mode"
    text  = "[{@pid}] FATAL:  database \"shop\" is not currently accepting connections"
  }

  # src/backend/tcop/postgres.c (check_log_duration)
  log "slow_statements" {
    level = "WARN"
    when  = "serving && latency_ms > 60.0"
    text  = "[{@pid}] LOG:  duration: {int(latency_ms)}.330 ms  statement: SELECT id, status, total FROM orders WHERE user_id = $1 ORDER BY created_at DESC LIMIT 50"
  }

  # src/backend/access/transam/xlog.c (XLogWrite, "could not write to file \"%s\": %m")
  log "volume_full" {
    level = "ERROR"
    when  = "serving && write_fail_share > 0.0"
    text  = "[{@pid}] PANIC:  could not write to file \"pg_wal/xlogtemp.{@pid}\": No space left on device"
  }

  # src/backend/postmaster/checkpointer.c / xlog.c (LogCheckpointEnd)
  log "volume_filling" {
    level = "WARN"
    when  = "serving && volume_used_pct > 85.0 && write_fail_share == 0.0"
    text  = "[{@pid}] LOG:  checkpoint complete: wrote 1934 buffers (1.5%); 0 WAL file(s) added, 0 removed, 0 recycled; write=269.870 s, sync=0.009 s, total=269.901 s; sync files=38, longest=0.003 s, average=0.001 s; distance={config.wal_keep_size_gb * 1024}000 kB, estimate={config.wal_keep_size_gb * 1024}000 kB"
  }

  # src/backend/postmaster/postmaster.c (LogChildExit: "%s (PID %d) exited with exit code %d"), "database system is shut down" (xlog.c)
  log "process_exit" {
    level = "ERROR"
    when  = "!state.up"
    text  = "[{@pid}] LOG:  server process (PID {@pid}) exited with exit code {state.exit_code}"
  }

  log "boot_failed" {
    level = "ERROR"
    when  = "state.up && state.restart_ticks == 0 && !boot_ok"
    text  = "LOG:  {config.work_mem_mb * 1024} kB is outside the valid range for parameter \"work_mem\" (64 .. 2147483647); FATAL:  configuration file \"/etc/postgresql/16/main/postgresql.conf\" contains errors; systemd: postgresql@16-main.service: Failed with result 'protocol' (start attempt {state.boot_attempts})"
  }

  # src/backend/access/transam/xlog.c (XLogFileInit: "could not write to file"), src/backend/postmaster/postmaster.c (LogChildExit)
  log "recovery_aborted" {
    level = "ERROR"
    when  = "state.up && state.restart_ticks == 0 && boot_ok && state.recovery_failed"
    text  = "LOG:  redo starts at 3A/9B000028  PANIC:  could not write to file \"pg_wal/xlogtemp.{@pid}\": No space left on device  LOG:  startup process (PID {@pid}) was terminated by signal 6: Aborted  LOG:  database system is shut down (start attempt {state.boot_attempts})"
  }

  log "slot_inactive" {
    level = "INFO"
    when  = "serving && state.slot_wal_rate_gb > 0.0"
    text  = "LOG:  checkpoint complete: wrote 1893 buffers (1.4%); 0 WAL file(s) added, 0 removed, 0 recycled; write=26.904 s, sync=0.012 s, total=26.958 s; sync files=61, longest=0.004 s, average=0.001 s; distance=20480 kB, estimate=20480 kB; lsn=3A/9C000000, redo lsn=3A/9B000028"
  }

  log "password_auth_failed" {
    level = "ERROR"
    when  = "serving && auth_fail_share > 0.0"
    text  = "FATAL:  password authentication failed for user \"app\"; DETAIL:  Connection matched pg_hba.conf line 98: \"host all app 10.0.0.0/8 scram-sha-256\" (from {web_auth_ok ? \"10.0.5.21\" : \"10.0.2.11\"})"
  }

  # src/backend/access/transam/xlogrecovery.c ("database system was interrupted; last known up at %s", "redo starts at %X/%X")
  log "starting" {
    level = "INFO"
    when  = "state.up && state.restart_ticks > 0"
    text  = "[{@pid}] LOG:  database system was interrupted; last known up at 2026-11-24 03:12:45 UTC  LOG:  redo starts at 2F/9A0012B8"
  }

  # src/backend/postmaster/checkpointer.c (CheckpointWriteDelay/RequestCheckpoint: "checkpoints are occurring too frequently (%d seconds apart)")
  log "cosmetic" {
    level = "WARN"
    when  = "serving && state.cosmetic_warning"
    text  = "[{@pid}] LOG:  checkpoints are occurring too frequently (24 seconds apart)"
  }

  # src/backend/tcop/postgres.c (ProcessInterrupts), the report whose sort spilled
  log "report_cancelled" {
    level = "ERROR"
    when  = "serving && cancel_share > 0.01 && report_spill > 1.0"
    text  = "[{@pid}] ERROR:  canceling statement due to statement timeout  STATEMENT:  SELECT customer_id, date_trunc('day', created_at), sum(total) FROM orders GROUP BY 1, 2 ORDER BY 3 DESC"
  }

  # src/backend/storage/file/fd.c (ReportTemporaryFileUsage), a report's aggregate
  log "report_temp_files" {
    level = "WARN"
    when  = "serving && report_spill > 1.0"
    text  = "[{@pid}] LOG:  temporary file: path \"base/pgsql_tmp/pgsql_tmp{@pid}.0\", size {int(state.report_sort_mb * 1048576.0)}  STATEMENT:  SELECT customer_id, date_trunc('day', created_at), sum(total) FROM orders GROUP BY 1, 2 ORDER BY 3 DESC"
  }

  # src/backend/replication/walsender.c (log_replication_commands:
  # "received replication command: %s")
  log "base_backup_running" {
    level = "INFO"
    when  = "serving && state.replica_rebuild"
    text  = "[{@pid}] LOG:  received replication command: BASE_BACKUP ( LABEL 'pg_basebackup base backup',  PROGRESS,  CHECKPOINT 'fast',  WAIT 0,  MANIFEST 'yes',  TARGET 'client')"
  }

  # xlog.c (LogCheckpointEnd). While the clone's slot holds WAL the
  # checkpoints recycle nothing, flagged as the volume_filling checkpoint
  # of a slot without a consumer is: the same warning from a benign cause.
  log "base_backup_checkpoint" {
    level = "WARN"
    when  = "serving && state.replica_rebuild"
    text  = "[{@pid}] LOG:  checkpoint complete: wrote 2184 buffers (1.7%); 0 WAL file(s) added, 0 removed, 0 recycled; write=269.312 s, sync=0.012 s, total=269.345 s; sync files=41, longest=0.004 s, average=0.001 s; distance=51230 kB, estimate=53110 kB"
  }

  # src/backend/tcop/utility.c via log_statement = 'ddl': the rebuild's
  # statement while it runs (pg_stat_progress_create_index's phase and
  # blocks, as the site's DBA dashboard prints them).
  log "index_rebuild_running" {
    level = "INFO"
    when  = "serving && state.index_build_ticks > 0"
    text  = "[{@pid}] LOG:  statement: {state.index_build_statement}  (pg_stat_progress_create_index: phase \"building index: scanning table\", blocks {max(0, int(state.orders_rows_m * 13000.0) - (state.index_build_ticks - 1) * int(state.index_build_mrows_per_tick * 13000.0))} of {int(state.orders_rows_m * 13000.0)})"
  }

  # src/backend/access/heap/vacuumlazy.c (heap_vacuum_rel, log_autovacuum_min_duration),
  # PostgreSQL 16 wording: nothing removed while a snapshot holds the horizon.
  log "vacuum_nothing_removable" {
    level = "INFO"
    when  = "serving && state.oldest_xact_age_xids > 0.0"
    text  = "[{@pid}] LOG:  automatic vacuum of table \"shop.public.orders\": index scans: 0  pages: 0 removed, {int(state.orders_rows_m * 13000.0)} remain, {int(state.orders_rows_m * 13000.0)} scanned (100.00% of total)  tuples: 0 removed, {int(state.orders_rows_m * 1000000.0)} remain, {int(state.orders_rows_m * 10000.0 * state.dead_tuple_pct)} are dead but not yet removable  removable cutoff: 48213377, which was {int(state.oldest_xact_age_xids)} XIDs old when operation ended"
  }

  # The same report once the horizon moves: dead rows are reclaimed at the
  # declared rate.
  log "vacuum_reclaiming" {
    level = "INFO"
    when  = "serving && state.oldest_xact_age_xids <= 0.0 && config.autovacuum_enabled && state.dead_tuple_pct > 20.0"
    text  = "[{@pid}] LOG:  automatic vacuum of table \"shop.public.orders\": index scans: 1  pages: 0 removed, {int(state.orders_rows_m * 13000.0)} remain, {int(state.orders_rows_m * 13000.0)} scanned (100.00% of total)  tuples: {int(state.orders_rows_m * 10000.0 * min(state.vacuum_rate_pct, state.dead_tuple_pct - 5.0))} removed, {int(state.orders_rows_m * 1000000.0)} remain, 0 are dead but not yet removable"
  }

  restart {
    up                   = true
    restart_ticks        = 3
    exit_code            = 0
    oldest_xact_age_xids = 0.0
  }

  # Listings: what a responder's query of the catalog prints, in psql's
  # aligned format. pg_replication_slots (slot_name, slot_type, active,
  # restart_lsn, wal_status; the retained WAL as
  # pg_wal_lsn_diff(pg_current_wal_lsn(), restart_lsn)). While the server
  # is down the slots are read from their state files under pg_replslot,
  # which keep the same names and positions; no consumer is active then.
  log "slots_header" {
    level   = "INFO"
    listing = "replication_slots"
    when    = "true"
    text    = " slot_name     | slot_type | active | restart_lsn | wal_status | retained_wal"
  }

  log "slots_standby" {
    level   = "INFO"
    listing = "replication_slots"
    when    = "true"
    text    = " standby_1     | physical  | {serving && !state.slot_dropped_in_use ? \"t\" : \"f\"}      | 3A/9B000028 | reserved   | 16 MB"
  }

  log "slots_clone" {
    level   = "INFO"
    listing = "replication_slots"
    when    = "state.replica_rebuild"
    text    = " standby_2     | physical  | f      | 3A/41000000 | extended   | 2 GB"
  }

  log "slots_abandoned" {
    level   = "INFO"
    listing = "replication_slots"
    when    = "state.slot_wal_gb > 0.0 || state.slot_wal_rate_gb > 0.0"
    text    = " analytics_cdc | logical   | f      | 2E/17000060 | extended   | {int(state.slot_wal_gb)} GB"
  }

  # The orders table's indexes as pg_index and pg_indexes show them
  # (indexrelid::regclass, indisvalid, indexdef's method and columns).
  log "indexes_header" {
    level   = "INFO"
    listing = "indexes"
    when    = "true"
    text    = " index                 | table  | definition         | valid"
  }

  log "indexes_pkey" {
    level   = "INFO"
    listing = "indexes"
    when    = "true"
    text    = " orders_pkey           | orders | btree (id)         | t"
  }

  log "indexes_uid" {
    level   = "INFO"
    listing = "indexes"
    when    = "user_id_indexed"
    text    = " orders_uid_idx        | orders | btree (user_id)    | {state.orders_index_invalid ? \"f\" : \"t\"}"
  }

  log "indexes_created_at" {
    level   = "INFO"
    listing = "indexes"
    when    = "true"
    text    = " orders_created_at_idx | orders | btree (created_at) | t"
  }

  # The responder names the slot, as pg_replication_slots lists it: the
  # abandoned logical slot (analytics_cdc) where one retains WAL, the
  # streaming standby's physical slot (standby_1, always active) and, while
  # a standby is re-cloned, the clone's (standby_2, inactive until the
  # clone finishes). Dropping the abandoned slot frees its WAL; dropping a
  # slot in use breaks its consumer; a name the server has not changes
  # nothing.
  operation "drop_replication_slot" {
    description = "Drop one replication slot by name (pg_drop_replication_slot), terminating its walsender first if a consumer is connected, so the next checkpoint recycles the WAL it retained. A consumer whose slot is dropped must be re-synced from a fresh snapshot."
    args        = ["slot"]
    aka         = ["dropped the replication slot", "dropped the inactive replication slot", "dropped the slot", "dropped the stale slot", "removed the replication slot", "removed the inactive slot", "dropped analytics_cdc", "dropped the analytics_cdc slot", "pg_drop_replication_slot"]
    set {
      slot_wal_rate_gb    = "arg.slot == \"analytics_cdc\" ? 0.0 : state.slot_wal_rate_gb"
      slot_wal_gb         = "arg.slot == \"analytics_cdc\" ? 0.0 : state.slot_wal_gb"
      replica_rebuild     = "arg.slot == \"standby_2\" ? false : state.replica_rebuild"
      slot_dropped_in_use = "arg.slot == \"standby_1\" || (arg.slot == \"standby_2\" && state.replica_rebuild) || state.slot_dropped_in_use"
    }
  }

  # The responder names the index, as \di lists it (schema-qualified or
  # not). Rebuilding the INVALID one starts its build; rebuilding a valid
  # one is a table's worth of I/O for nothing; a name the server has not
  # changes nothing.
  operation "reindex" {
    description = "Rebuild one index by name with REINDEX INDEX CONCURRENTLY; reads and writes go on meanwhile. A build takes time in proportion to its table's size; it ends valid."
    args        = ["index"]
    aka         = ["rebuilt the invalid index", "reindexed the invalid index", "rebuilt the index", "reindexed", "reindexed orders", "rebuilt orders_uid_idx", "reindexed orders_uid_idx", "reindex concurrently"]
    set {
      index_build_ticks     = "(arg.index == \"orders_uid_idx\" || arg.index == \"public.orders_uid_idx\") && state.orders_index_invalid && state.index_build_ticks == 0 ? 1 + int(state.orders_rows_m / state.index_build_mrows_per_tick) : state.index_build_ticks"
      index_build_statement = "(arg.index == \"orders_uid_idx\" || arg.index == \"public.orders_uid_idx\") && state.orders_index_invalid && state.index_build_ticks == 0 ? \"REINDEX INDEX CONCURRENTLY public.orders_uid_idx\" : state.index_build_statement"
      valid_index_rebuilt   = "state.valid_index_rebuilt || arg.index == \"orders_pkey\" || arg.index == \"public.orders_pkey\" || arg.index == \"orders_created_at_idx\" || arg.index == \"public.orders_created_at_idx\" || ((arg.index == \"orders_uid_idx\" || arg.index == \"public.orders_uid_idx\") && user_id_indexed && !state.orders_index_invalid)"
    }
  }

  # CREATE INDEX CONCURRENTLY enters the index in the catalog INVALID at
  # once, builds it at the declared rate while reads and writes go on, and
  # marks it valid at the end: the same build a REINDEX CONCURRENTLY runs.
  # The responder names the table and the column, as the plans the slow
  # lookups log show them. Only the index the lookups by user need changes
  # what the world does; an index on any other column, or on a table the
  # database does not have, is a statement that changes nothing here.
  operation "create_index" {
    description = "Create, with CREATE INDEX CONCURRENTLY, a btree index on one column of a table; reads and writes go on meanwhile. The index is listed at once, INVALID until its build, which takes time in proportion to its table's size, ends."
    args        = ["table", "column"]
    aka         = ["created the missing index", "created the index", "recreated the index", "recreated the dropped index", "rebuilt the missing index", "added the index", "added the missing index", "added back the index", "restored the index", "create index concurrently", "created orders_uid_idx"]
    set {
      orders_indexes        = "arg.table == \"orders\" && arg.column == \"user_id\" ? \"orders_pkey, orders_uid_idx, orders_created_at_idx\" : state.orders_indexes"
      orders_index_invalid  = "(arg.table == \"orders\" && arg.column == \"user_id\" && !user_id_indexed) || state.orders_index_invalid"
      index_build_ticks     = "arg.table == \"orders\" && arg.column == \"user_id\" && !user_id_indexed && state.index_build_ticks == 0 ? 1 + int(state.orders_rows_m / state.index_build_mrows_per_tick) : state.index_build_ticks"
      index_build_statement = "arg.table == \"orders\" && arg.column == \"user_id\" && !user_id_indexed && state.index_build_ticks == 0 ? \"CREATE INDEX CONCURRENTLY orders_uid_idx ON public.orders USING btree (user_id)\" : state.index_build_statement"
    }
  }

  operation "terminate_idle_transactions" {
    description = "End the sessions idle in a transaction for more than an hour (pg_terminate_backend); their transactions roll back and the oldest xmin advances, so vacuum can reclaim the row versions they kept."
    aka         = ["terminated the idle transaction", "terminated the idle in transaction session", "killed the idle transaction", "killed the long running transaction", "terminated the long running transaction", "ended the open transaction", "pg_terminate_backend"]
    set {
      oldest_xact_age_xids = "0.0"
    }
  }

  trace {
    latency    = "latency_ms"
    error_rate = "error_rate"
  }
}
