# Message queue: the web tier publishes background jobs; a pool of consumers
# processes them, each job costing one database write. Failed deliveries are
# retried up to a limit; a delivery not acknowledged within the visibility
# window is handed out again. The backlog is real state: it grows while
# arrivals outrun the consumers and drains at what they take beyond the
# arrivals once they catch up (state "depth").
# Consumers share one host's memory and the broker holds every unacknowledged
# delivery in its own: too many consumers are OOM-killed, too large a fetch
# window trips the broker's memory alarm and blocks publishers.
#
# Producers republish a job they have not seen finish within 5 s, with the
# job's id in the x-deduplication-header. The jobs queue is declared with
# the rabbitmq-message-deduplication plugin's argument
# (x-message-deduplication: true), so the broker drops a copy whose id is
# still queued; a queue declared without it queues every copy as new work, so a backlog deep enough to
# make jobs wait past 5 s multiplies the arrivals that keep it deep. That is
# a metastable loop: healthy while the queue is short, stuck once a trigger
# (slow jobs, a consumer outage) has made it long, even after the trigger is
# gone. While the broker is down its queue is durable: the backlog stays.

service_kind "message_queue" {
  description = "Message broker with a consumer pool that processes background jobs against the database."

  role "web" {
    kind        = "web_server"
    caller      = true
    description = "The web tier that publishes jobs."
  }

  role "database" {
    kind        = "database"
    description = "The database the consumers write to."
  }

  # ---------------------------------------------------------------- config

  config "consumer_concurrency" {
    type        = "int"
    default     = 8
    low         = 6
    high        = 64
    unit        = "consumers"
    description = "Jobs processed in parallel by the consumer pool."
    aka         = ["consumers", "consumer", "consumer concurrency", "consumer count", "consumer pool", "consumer workers", "workers", "worker pool", "queue workers", "concurrency", "worker", "celery pool", "celery workers", "celery concurrency"]
  }

  config "retry_limit" {
    type        = "int"
    default     = 3
    low         = 1
    high        = 5
    unit        = "attempts"
    description = "Redeliveries of a failing job before it is moved to the dead-letter queue."
    aka         = ["retry limit", "retries", "retried", "retrying", "max retries", "retry count", "redelivery limit", "max attempts", "attempts", "retry cap", "redelivered", "redeliveries"]
  }

  config "visibility_timeout_ms" {
    type        = "int"
    default     = 30000
    low         = 10000
    high        = 120000
    unit        = "ms"
    description = "How long a delivered job stays hidden from other consumers before it is handed out again."
    aka         = ["visibility timeout", "ack timeout", "ack deadline", "redelivery timeout", "timeout", "visibility", "visible again", "invisible"]
  }

  config "max_in_flight" {
    type        = "int"
    default     = 500
    low         = 200
    high        = 5000
    unit        = "messages"
    description = "Unacknowledged deliveries allowed per consumer channel."
    aka         = ["max in flight", "prefetch", "prefetch count", "in flight limit"]
  }

  config "dead_letter_enabled" {
    type        = "bool"
    default     = true
    description = "Move jobs that exhaust their retries to the dead-letter queue."
    aka         = ["dead letter", "dead lettering", "dead letter queue", "dlq"]
  }

  config "queue_name" {
    type        = "string"
    default     = "jobs"
    description = "Name of the queue the web tier publishes to."
    aka         = ["queue name"]
  }

  # ---------------------------------------------------------------- state

  state "up" {
    type        = "bool"
    initial     = true
    description = "The broker process is running."
  }

  state "restart_ticks" {
    type        = "int"
    initial     = 0
    next        = "max(state.restart_ticks - 1, 0)"
    description = "Ticks left until a restarted broker delivers again."
  }

  state "exit_code" {
    type        = "int"
    initial     = 0
    description = "Exit code of the last broker process that stopped."
  }

  state "poison_share" {
    type        = "float"
    initial     = 0.03
    unit        = "ratio"
    description = "Share of jobs that fail on every attempt (malformed payloads)."
  }

  # A tick is a minute of the site's clock (the logs' timestamps advance a
  # minute a tick), so a backlog moves by a minute of its rates each tick:
  # it grows by what arrives beyond what the consumers take and drains by
  # what they take beyond what arrives, never below the jobs in flight
  # (Little's law: what they take times the time one job takes) and never
  # above the queue's x-max-length.
  state "tick_s" {
    type        = "float"
    initial     = 60.0
    unit        = "s"
    description = "Seconds one tick stands for: the logs' clock advances a minute a tick. A backlog grows and drains by tick_s seconds of its rates each tick."
  }

  state "max_length" {
    type        = "float"
    initial     = 5000.0
    unit        = "messages"
    description = "The jobs queue's x-max-length policy, with x-overflow reject-publish: a full queue nacks new publishes instead of queueing them. Sized so that a full queue's payloads (about 200 KB each) fit under the broker's memory watermark: 5000 x 0.2 MB = 1638.4 - 638.4 MB."
  }

  state "depth" {
    type        = "float"
    initial     = 8.0
    next        = "!serving ? state.depth : clamp(state.depth + state.tick_s * (work_rate - capacity_rps), in_flight, state.max_length)"
    unit        = "messages"
    description = "Messages waiting or in flight."
  }

  state "scheduled_jobs" {
    type        = "float"
    initial     = 50000.0
    unit        = "messages"
    description = "Jobs published with a countdown (reminders, delayed retries): consumers fetch them as soon as their channel allows and hold them unacknowledged until due."
  }

  # The jobs queue's declaration arguments, as rabbitmqctl list_queues name
  # arguments prints them. A queue re-declared without the deduplication
  # plugin's argument (from a definitions export that lacks it) queues
  # every republished copy. The site's change history records the broker's
  # definitions imports.
  state "queue_arguments" {
    type        = "string"
    initial     = "x-message-deduplication: true, x-queue-type: classic"
    audited     = true
    description = "The jobs queue's declaration arguments: x-message-deduplication (the rabbitmq-message-deduplication plugin drops a message whose x-deduplication-header is already queued) and the queue type."
  }

  state "version" {
    type        = "string"
    initial     = "v4.3.0"
    description = "The consumers' build deployed and running; a change of it is a deploy."
  }

  state "build_fail_share" {
    type        = "float"
    initial     = 0.0
    unit        = "ratio"
    description = "Share of jobs the consumers' running build fails with an exception; each is retried."
  }

  state "relay_reject_share" {
    type        = "float"
    initial     = 0.0
    unit        = "ratio"
    description = "Share of outgoing mail the external mail relay turns away on its own side; email jobs are about 40% of the queue's jobs."
  }

  state "long_job_ms" {
    type        = "float"
    initial     = 2900.0
    unit        = "ms"
    description = "The site's longest routine jobs (exports, invoice batches): about twenty ordinary jobs' time unless the site runs heavier ones. A delivery hidden for less is handed out again while it still runs."
  }

  state "orphan_queue_gb" {
    type        = "float"
    initial     = 0.0
    next        = "serving ? min(60.0, state.orphan_queue_gb + state.orphan_rate_gb) : state.orphan_queue_gb"
    unit        = "GB"
    description = "Messages held on the broker's disk by a queue still bound to the exchange that no consumer reads any more."
  }

  # The consumers of a queue paused on purpose (a reindex waiting for a
  # migration): the queue has no consumer and holds its jobs until the
  # consumers resume. Benign state a careless operator "cleans up".
  state "consumers_paused" {
    type        = "bool"
    initial     = false
    description = "The consumers of the jobs.reindex queue were told to stop consuming (Celery cancel_consumer) until a migration finishes; the queue keeps its jobs meanwhile."
  }

  # A queue whose jobs were still wanted, deleted with them: the paused
  # reindex queue, or the jobs queue the consumers read.
  state "queue_lost" {
    type        = "bool"
    initial     = false
    description = "A queue whose jobs were still wanted (the paused jobs.reindex, or the jobs queue itself) was deleted with the messages it held."
  }

  state "orphan_rate_gb" {
    type        = "float"
    initial     = 0.0
    unit        = "GB per tick"
    description = "How fast an orphaned queue grows: a copy of every published message lands in it."
  }

  state "start_failed" {
    type        = "bool"
    initial     = false
    next        = "state.up && (state.restart_ticks == 1 || state.start_failed) && 46.0 - state.orphan_queue_gb <= 0.5"
    description = "The last start of the broker node failed while recovering its message store: with its data disk full it cannot write. The supervisor starts it again each tick; a start succeeds once the disk has room. A running node is not stopped by a full disk (its disk alarm blocks publishers); a starting one is."
  }

  state "vhost_password_version" {
    type        = "int"
    initial     = 9
    description = "Version, as the site's secret store numbers it, of the app user's password the broker accepts for publishing."
  }

  state "db_password_version" {
    type        = "int"
    initial     = 17
    description = "Version of the database's app password the consumers loaded from the site's secret store at their last reload of secrets."
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

  # ---------------------------------------------------------------- derived

  derived "serving" {
    type  = "bool"
    value = "state.up && state.restart_ticks == 0 && !state.start_failed"
  }

  derived "held_unacked" {
    type  = "float"
    value = "min(state.scheduled_jobs, float(config.max_in_flight))"
    unit  = "messages"
  }

  derived "broker_mem_mb" {
    type        = "float"
    value       = "638.4 + 0.2 * held_unacked"
    unit        = "MB"
    description = "Broker memory: its base plus about 200 KB per unacknowledged delivery it keeps (job payloads with attachments). The alarm watermark is 1638.4 MB (0.4 of 4 GB)."
  }

  derived "disk_free_gb" {
    type        = "float"
    value       = "max(0.0, 50.0 - 4.0 - state.orphan_queue_gb)"
    unit        = "GB"
    description = "Free space on the broker's 50 GB data disk (4 GB hold its own queues); below the disk_free_limit of 5 GB the disk alarm blocks every publisher."
  }

  derived "db_credential_version" {
    type        = "int"
    value       = "state.db_password_version"
    description = "The database password version the consumers present."
  }

  derived "blocked_share" {
    type        = "float"
    value       = "disk_free_gb < 5.0 ? 1.0 : clamp((broker_mem_mb - 1638.4) / 409.6, 0.0, 1.0)"
    unit        = "ratio"
    description = "Share of time publishers are blocked by the memory alarm; held deliveries are not freed, so past a quarter above the watermark it never clears."
  }

  derived "vhost_version" {
    type        = "int"
    value       = "state.vhost_password_version"
    description = "The publishing password version the broker accepts, as its clients' secret reloads read it from the store."
  }

  derived "publish_auth_ok" {
    type        = "bool"
    value       = "web.mq_credential_version == state.vhost_password_version"
    description = "The web tier logs in to publish with the password the broker accepts."
  }

  derived "publish_in" {
    type  = "float"
    value = "serving && publish_auth_ok ? web.publish_rps * (1.0 - blocked_share) : 0.0"
    unit  = "messages/s"
  }

  derived "consumer_mem_mb" {
    type        = "float"
    value       = "60.0 * float(config.consumer_concurrency)"
    unit        = "MB"
    description = "Memory of the consumer processes, about 60 MB each; the consumer host has 3840 MB for them."
  }

  derived "oom_kill_share" {
    type        = "float"
    value       = "clamp(max(0.0, consumer_mem_mb - 3840.0) / 3840.0 * 0.05, 0.0, 0.5)"
    unit        = "ratio"
    description = "Share of jobs whose consumer is killed by the kernel's OOM killer mid-run; the job is handed out again."
  }

  derived "job_ms" {
    type        = "float"
    value       = "120.0 + 2.0 * database.latency_ms"
    unit        = "ms"
    description = "Time one consumer spends on one job."
  }

  derived "fail_share" {
    type  = "float"
    value = "clamp(state.poison_share + state.build_fail_share + 0.4 * state.relay_reject_share + database.error_rate, 0.0, 1.0)"
    unit  = "ratio"
  }

  derived "attempts" {
    type  = "float"
    value = "1.0 + fail_share * float(config.retry_limit)"
    unit  = "deliveries per job"
  }

  derived "redelivery_share" {
    type  = "float"
    value = "clamp(1.0 - float(config.visibility_timeout_ms) / max(job_ms * 20.0, state.long_job_ms), 0.0, 0.9)"
    unit  = "ratio"
  }

  derived "in_flight" {
    type        = "float"
    value       = "throughput * job_ms / 1000.0"
    unit        = "messages"
    description = "Deliveries being worked on: what the consumers take per second times the seconds one job takes (Little's law); a drained queue holds these."
  }

  derived "wait_s" {
    type        = "float"
    value       = "state.depth / max(capacity_rps, 1.0)"
    unit        = "s"
    description = "How long a newly published job waits for a consumer."
  }

  derived "deduplicating" {
    type        = "bool"
    value       = "state.queue_arguments == \"x-message-deduplication: true, x-queue-type: classic\""
    description = "The jobs queue is declared with x-message-deduplication, so the broker drops a copy whose id is still queued."
  }

  derived "republish_factor" {
    type        = "float"
    value       = "deduplicating ? 1.0 : 1.0 + clamp((wait_s - 5.0) / 5.0, 0.0, 2.0)"
    unit        = "messages per job"
    description = "Published messages per job: producers republish a job not finished within 5 s, and without deduplication each copy is queued."
  }

  derived "work_rate" {
    type  = "float"
    value = "publish_in * republish_factor * attempts / (1.0 - redelivery_share) / (1.0 - oom_kill_share)"
    unit  = "deliveries/s"
  }

  derived "capacity_rps" {
    type  = "float"
    value = "serving ? float(config.consumer_concurrency) * 1000.0 / job_ms : 0.0"
    unit  = "deliveries/s"
  }

  derived "throughput" {
    type  = "float"
    value = "min(work_rate, capacity_rps)"
    unit  = "deliveries/s"
  }

  derived "consumer_qps" {
    type  = "float"
    value = "throughput"
    unit  = "queries/s"
  }

  # A full queue with x-overflow reject-publish nacks what it cannot
  # take: the publisher's confirms come back negative.
  derived "nack_share" {
    type  = "float"
    value = "serving && state.depth >= state.max_length ? max(0.0, 1.0 - capacity_rps / max(work_rate, 0.001)) : 0.0"
    unit  = "ratio"
  }

  derived "error_rate" {
    type  = "float"
    value = "serving ? clamp(nack_share + blocked_share + (publish_auth_ok ? 0.0 : 1.0), 0.0, 1.0) : 1.0"
    unit  = "ratio"
  }

  derived "latency_ms" {
    type  = "float"
    value = "serving ? 3.0 + blocked_share * 250.0 : 0.0"
    unit  = "ms"
  }

  derived "stranded_msgs" {
    type        = "float"
    value       = "throughput * 0.02 * max(0.0, float(config.visibility_timeout_ms) - 120000.0) / 1000.0"
    unit        = "messages"
    description = "Deliveries held by consumers that hung or died mid-job, waiting out the hidden window before another consumer may take them; up to two minutes this is within the jobs' deadline."
  }

  derived "lag_ms" {
    type  = "float"
    value = "float(int(state.depth + stranded_msgs)) / max(throughput, 0.05) * 1000.0"
    unit  = "ms"
  }

  # ---------------------------------------------------------------- metrics

  metric "queue_depth" {
    type  = "int"
    value = "int(state.depth + stranded_msgs)"
    unit  = "messages"
    low   = 0
    high  = 500
  }

  metric "consumer_lag_ms" {
    type  = "int"
    value = "int(min(lag_ms, 86400000.0))"
    unit  = "ms"
    low   = 0
    high  = 5000
  }

  # RabbitMQ's message_stats.ack_details.rate: what the consumers
  # acknowledge per second, the rate the backlog drains at.
  metric "ack_rate" {
    type        = "float"
    value       = "throughput"
    unit        = "messages/s"
    precision   = 1
    low         = 0
    high        = 100000
    description = "Messages the consumers acknowledge per second."
  }

  metric "publish_error_rate" {
    type      = "float"
    value     = "error_rate"
    unit      = "ratio"
    precision = 3
    low       = 0
    high      = 0.01
  }

  metric "redelivery_rate" {
    type      = "float"
    value     = "redelivery_share"
    unit      = "ratio"
    precision = 3
    low       = 0
    high      = 0.05
  }

  metric "retries_per_s" {
    type      = "float"
    value     = "publish_in * (attempts - 1.0)"
    unit      = "deliveries/s"
    precision = 1
    low       = 0
    high      = 8
  }

  metric "republished_per_s" {
    type      = "float"
    value     = "publish_in * (republish_factor - 1.0)"
    unit      = "messages/s"
    precision = 1
    low       = 0
    high      = 1
  }

  metric "disk_used_pct" {
    type      = "float"
    value     = "max(state.cosmetic_metric ? 68.0 : 22.0, (50.0 - disk_free_gb) / 50.0 * 100.0)"
    unit      = "%"
    precision = 1
    low       = 0
    high      = 85
    noise     = "slow"
  }

  # ---------------------------------------------------------------- status

  status "down" { when = "!state.up" }
  status "restarting" { when = "state.restart_ticks > 0 || state.start_failed" }
  status "degraded" { when = "error_rate > 0.01 || lag_ms > 5000.0 || republish_factor > 1.02 || redelivery_share > 0.05 || publish_in * (attempts - 1.0) > 8.0 || oom_kill_share > 0.02" }

  # ---------------------------------------------------------------- logs

  # celery celery/worker/consumer/consumer.py ("%s ready." on_consumer_ready) with the worker's banner fields (celery/apps/worker.py)
  log "queue_ok" {
    level = "INFO"
    when  = "serving"
    text  = "jobs-worker[{@mainpid}]: celery@jobs-1 ready. app=jobs-worker {state.version} concurrency={config.consumer_concurrency} (prefork) queues={config.queue_name}"
  }

  # celery celery/app/trace.py ("Task %(name)s[%(id)s] raised unexpected: %(exc)s")
  log "consumer_exception" {
    level = "ERROR"
    when  = "serving && state.build_fail_share > 0.0"
    text  = "jobs-worker[{@pid}]: Task invoice.render[{@uuid}] raised unexpected: KeyError('tax_region')"
  }

  # deps/rabbit/src/rabbit_reader.erl ("closing AMQP connection %ts (duration: %ts)")
  log "publish_ok" {
    level = "INFO"
    when  = "serving && error_rate <= 0.01"
    text  = "<0.{@pid}.0> closing AMQP connection 10.0.2.11:{@port} -> 10.0.4.2:5672 (vhost: '/', user: 'web', duration: '{int(latency_ms)}ms')"
  }

  # deps/rabbit/src/rabbit_amqqueue.erl (queue info items messages_ready, messages_unacknowledged)
  log "backlog_growing" {
    level = "WARN"
    when  = "serving && work_rate > capacity_rps"
    text  = "<0.{@pid}.0> queue '{config.queue_name}' in vhost '/': messages_ready={int(state.depth)} publish={int(work_rate)}/s deliver_get={int(capacity_rps)}/s"
  }

  # deps/rabbit/src/rabbit_amqqueue.erl (queue info items messages,
  # arguments); with x-overflow reject-publish the broker answers each
  # publish over the limit with basic.nack (publisher confirms)
  log "queue_full" {
    level = "WARN"
    when  = "serving && state.depth >= state.max_length"
    text  = "<0.{@pid}.0> queue '{config.queue_name}' in vhost '/': messages={int(state.depth)} x-max-length={int(state.max_length)} x-overflow=reject-publish publish={int(work_rate)}/s confirm.nack={int(max(0.0, work_rate - capacity_rps))}/s"
  }

  # celery celery/worker/strategy.py ("Task %s[%s] received")
  log "lagging" {
    level = "ERROR"
    when  = "serving && lag_ms > 5000.0"
    text  = "jobs-worker[{@pid}]: Task invoice.render[{@uuid}] received (published {int(lag_ms / 1000.0)}s earlier)"
  }

  # deps/rabbit/src/rabbit_channel.erl (consumer ack timeout, PRECONDITION_FAILED); the value and advice that follow are left out
  log "receipt_expired" {
    level = "WARN"
    when  = "serving && redelivery_share > 0.05"
    text  = "<0.{@pid}.0> Channel error on connection 10.0.4.21:{@port} -> 10.0.4.2:5672, channel 1: operation none caused a channel exception precondition_failed: delivery acknowledgement on channel 1 timed out"
  }

  # deps/rabbit/src/rabbit_amqqueue.erl (queue info items), message ids as the publisher sets them
  log "republished" {
    level = "WARN"
    when  = "serving && republish_factor > 1.02"
    text  = "<0.{@pid}.0> queue 'jobs' in vhost '/' (arguments: {state.queue_arguments}): publish={int(publish_in * republish_factor)}/s; message_id=job-{@hex} published 3 times, 3 copies ready"
  }

  # celery celery/app/task.py (Retry: "Retry in %ss: %r")
  log "job_retry" {
    level = "WARN"
    when  = "serving && publish_in * (attempts - 1.0) > 8.0"
    text  = "jobs-worker[{@pid}]: Task invoice.render[{@uuid}] retry: Retry in 1s: ValueError('malformed payload') (retries={config.retry_limit})"
  }

  # Linux mm/oom_kill.c ("Out of memory: Killed process %d (%s)"), celery billiard/pool.py (WorkerLostError)
  log "consumer_oom" {
    level = "ERROR"
    when  = "serving && oom_kill_share > 0.0"
    text  = "kernel: Out of memory: Killed process {@pid} (jobs-worker) total-vm:{int(consumer_mem_mb * 1024.0 / float(config.consumer_concurrency))}kB, anon-rss:61440kB  jobs-worker: WorkerLostError('Worker exited prematurely: signal 9 (SIGKILL) Job: {@pid}.')"
  }

  # deps/rabbit/src/rabbit_amqqueue.erl (queue info items messages_unacknowledged)
  log "stranded" {
    level = "WARN"
    when  = "serving && stranded_msgs >= 1.0"
    text  = "<0.{@pid}.0> queue '{config.queue_name}' in vhost '/': messages_unacknowledged={int(stranded_msgs)} on consumers with no ack in the last 60 s"
  }

  log "disk_alarm" {
    level = "WARN"
    when  = "serving && disk_free_gb < 5.0"
    text  = "Free disk space is insufficient. Free bytes: {int(disk_free_gb * 1073741824.0)}. Limit: 5000000000; disk resource alarm set on node rabbit@mq-1, publishers blocked"
  }

  log "orphan_queue" {
    level = "INFO"
    when  = "serving && state.orphan_rate_gb > 0.0"
    text  = "queue 'jobs.audit-export' in vhost '/': 0 consumers, {int(state.orphan_queue_gb * 1000.0)} MB on disk, bound to exchange 'jobs' (x-queue-type classic)"
  }

  # deps/rabbit/src/rabbit_vhost.erl ("Recovering %b queues of type %ts"), deps/rabbit/src/rabbit_prelaunch_errors.erl ("BOOT FAILED", "Exception during startup:")
  log "start_failed" {
    level = "ERROR"
    when  = "state.up && state.restart_ticks == 0 && state.start_failed"
    text  = "<0.{@pid}.0> Recovering 2 queues of type rabbit_classic_queue: '{config.queue_name}' ({int(state.depth)} messages), 'jobs.audit-export' ({int(state.orphan_queue_gb * 1000.0)} MB on disk)  BOOT FAILED  Exception during startup: error:enospc in rabbit_msg_store:write_message/3  supervisord: exited: rabbitmq-server (exit status 1; not expected), spawned again"
  }

  log "publish_login_refused" {
    level = "ERROR"
    when  = "serving && !publish_auth_ok"
    text  = "Error on AMQP connection <0.8815.0> (10.0.2.11:53210 -> 10.0.6.5:5672, state: starting): PLAIN login refused: user 'app' - invalid credentials"
  }

  log "db_auth_version" {
    level = "ERROR"
    when  = "serving && database.serving && !database.queue_auth_ok"
    text  = "consumer: sqlalchemy.exc.OperationalError: (psycopg.OperationalError) FATAL:  password authentication failed for user \"app\"; job requeued"
  }

  log "db_auth_reconnect" {
    level = "INFO"
    when  = "serving && database.serving && !database.queue_auth_ok"
    text  = "consumer: secrets: reconnecting to db.internal:5432 as app with db/app-password (version {state.db_password_version}, loaded at consumer boot)"
  }

  # deps/rabbit_common/src/vm_memory_monitor.erl ("vm_memory_high_watermark set. Memory used:%p allowed:%p"), deps/rabbit/src/rabbit_alarm.erl ("%ts resource limit alarm set on node %tp")
  log "memory_alarm" {
    level = "ERROR"
    when  = "serving && blocked_share > 0.001"
    text  = "<0.{@pid}.0> vm_memory_high_watermark set. Memory used:{int(broker_mem_mb * 1048576.0)} allowed:1717986918  memory resource limit alarm set on node rabbit@mq-1."
  }

  # The relay's own SMTP reply, as the mail task logs it.
  log "mail_relay_reply" {
    level = "ERROR"
    when  = "serving && state.relay_reject_share > 0.0"
    text  = "jobs-worker {state.version}: task email.send raised SMTPDataError: (421, b'4.7.0 Temporary System Problem. Try again later.') from mx-out.postwell.example:587 (attempt 1/{config.retry_limit}); requeued"
  }

  # celery celery/app/trace.py ("Task %(name)s[%(id)s] raised unexpected: %(exc)s"), psycopg2 OperationalError
  log "job_failures" {
    level = "ERROR"
    when  = "serving && database.error_rate > 0.05"
    text  = "jobs-worker[{@pid}]: Task invoice.persist[{@uuid}] raised unexpected: OperationalError('server closed the connection unexpectedly')"
  }

  # celery celery/app/trace.py ("Task %(name)s[%(id)s] succeeded in %(runtime)ss: %(return_value)s")
  log "slow_jobs" {
    level = "WARN"
    when  = "serving && database.latency_ms > 40.0"
    text  = "jobs-worker[{@pid}]: Task invoice.persist[{@uuid}] succeeded in {int(job_ms)}ms: None"
  }

  # supervisord supervisor/process.py ("exited: %s (%s)")
  log "process_exit" {
    level = "ERROR"
    when  = "!state.up"
    text  = "supervisord: exited: rabbitmq-server (exit status {state.exit_code}; not expected)"
  }

  # deps/rabbit/src/rabbit.erl ("Starting RabbitMQ %s on Erlang %s")
  log "starting" {
    level = "INFO"
    when  = "state.up && state.restart_ticks > 0"
    text  = "<0.{@pid}.0> Starting RabbitMQ 3.13.7 on Erlang 26.2.5"
  }

  # deps/rabbit/src/rabbit_reader.erl ("closing AMQP connection ... missed heartbeats from client, timeout: %ps")
  log "cosmetic" {
    level = "WARN"
    when  = "serving && state.cosmetic_warning"
    text  = "<0.{@pid}.0> closing AMQP connection <0.{@pid}.0> (10.0.4.21:{@port} -> 10.0.4.2:5672): missed heartbeats from client, timeout: 60s"
  }

  # celery/worker/control.py (cancel_consumer: "no longer consuming from
  # %s"); rabbitmq-diagnostics list_queues columns
  log "queue_paused" {
    level = "INFO"
    when  = "serving && state.consumers_paused"
    text  = "jobs-worker[{@mainpid}]: celery@jobs-1: remote control cancel_consumer: no longer consuming from 'jobs.reindex'; queue 'jobs.reindex' in vhost '/': 0 consumers, 310 MB on disk, bound to exchange 'jobs' (x-queue-type classic)"
  }

  operation "reload_secrets" {
    description = "Make the consumers re-read their credentials from the site's secret store (the newest version of each) and reconnect with them, without a restart."
    aka         = ["reloaded the secrets", "reloaded secrets", "reloaded the credentials", "reloaded the password", "picked up the new password", "picked up the rotated password", "synced the secret", "synced the password"]
    set {
      db_password_version = "database.password_version"
    }
  }

  # Queue arguments cannot change in place: the operation declares the
  # queue again with the plugin's argument and moves its messages there
  # (a shovel), while publishing and consuming go on.
  operation "redeclare_queue_with_deduplication" {
    description = "Declare the jobs queue again with the rabbitmq-message-deduplication plugin's argument (x-message-deduplication: true), move its messages to it with a shovel and rebind it, while publishing and consuming go on. A queue declared with the argument already is left as it is."
    aka         = ["redeclared the queue with deduplication", "redeclared the jobs queue", "re declared the queue", "recreated the queue with deduplication", "restored deduplication", "restored message deduplication", "re enabled deduplication", "reenabled deduplication", "enabled deduplication", "turned deduplication back on", "added x message deduplication", "x message deduplication"]
    set {
      queue_arguments = "\"x-message-deduplication: true, x-queue-type: classic\""
    }
  }

  # Listing: rabbitmqctl list_queues name messages consumers, as it
  # prints them (tab-separated, after its banner); a node that is down
  # answers with the CLI's error.
  log "queues_header" {
    level   = "INFO"
    listing = "queues"
    when    = "serving"
    text    = "Timeout: 60.0 seconds ...  Listing queues for vhost / ...  name\tmessages\tconsumers"
  }

  log "queues_down" {
    level   = "INFO"
    listing = "queues"
    when    = "!serving"
    text    = "Error: unable to perform an operation on node 'rabbit@mq-1'."
  }

  log "queues_jobs" {
    level   = "INFO"
    listing = "queues"
    when    = "serving"
    text    = "{config.queue_name}\t{int(state.depth)}\t{config.consumer_concurrency}"
  }

  log "queues_reindex" {
    level   = "INFO"
    listing = "queues"
    when    = "serving && state.consumers_paused"
    text    = "jobs.reindex\t48210\t0"
  }

  log "queues_audit_export" {
    level   = "INFO"
    listing = "queues"
    when    = "serving && (state.orphan_queue_gb > 0.0 || state.orphan_rate_gb > 0.0)"
    text    = "jobs.audit-export\t{int(state.orphan_queue_gb * 51000.0)}\t0"
  }

  # The responder names the queue, as rabbitmqctl list_queues prints it:
  # the retired export's (jobs.audit-export) where one hoards the disk, the
  # paused reindex queue (jobs.reindex) while its consumers wait for a
  # migration, and the jobs queue the consumers read. Deleting the retired
  # one frees its disk; deleting one whose jobs are still wanted loses
  # them; a name the broker has not changes nothing.
  operation "delete_queue" {
    description = "Delete one queue by name, with the messages it holds (rabbitmqctl delete_queue); its consumers, if any, are cancelled."
    args        = ["queue"]
    aka         = ["deleted the orphaned queue", "deleted the orphan queue", "deleted the unused queue", "purged the orphaned queue", "purged the orphan queue", "removed the orphaned queue", "deleted jobs audit export", "deleted the audit export queue", "deleted the queue", "deleted jobs.audit-export"]
    set {
      orphan_rate_gb   = "arg.queue == \"jobs.audit-export\" ? 0.0 : state.orphan_rate_gb"
      orphan_queue_gb  = "arg.queue == \"jobs.audit-export\" ? 0.0 : state.orphan_queue_gb"
      consumers_paused = "arg.queue == \"jobs.reindex\" ? false : state.consumers_paused"
      queue_lost       = "state.queue_lost || (arg.queue == \"jobs.reindex\" && state.consumers_paused) || arg.queue == config.queue_name"
    }
  }

  restart {
    up            = true
    restart_ticks = 3
    exit_code     = 0
  }

  # A rollback redeploys the consumers' previous build one at a time; the
  # broker keeps serving.
  rollback {
    build_fail_share = 0.0
  }

  trace {
    latency    = "latency_ms"
    error_rate = "error_rate"

    # The consumers' side: the job the workers run now, as Celery's
    # OpenTelemetry instrumentation names it, in a trace of its own linked
    # to the publish span, with the time it waited in the queue and the
    # database calls it makes (the publish itself touches no database).
    span "job_run" {
      kind       = "consumer"
      name       = "run/invoice.persist"
      latency    = "job_ms"
      error_rate = "fail_share"
      wait       = "consumer_lag_ms"
      calls      = ["database"]
    }
  }
}
