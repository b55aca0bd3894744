package engine

import "strconv"

// Noise that is noise (issue 19 item 5). Noise changes only what reads
// show, never a slot, and is drawn from the seed, the tick and a name
// (uniform), never from the state: a noise line that was there before the
// fault is there after the fix. What it may do stays within what the real
// system could show:
//
//   - jitter wobbles a metric around its value, at a tenth of the amplitude
//     on a slow gauge (disk or memory use) and not at all on a value the
//     system knows exactly (Slot.Noise);
//   - a spike is a one-tick blip of a service's latencies together (a GC
//     pause, a checkpoint's stall), at most the pattern's magnitude; rates,
//     shares, counts and gauges never spike;
//   - stale shows every metric a few ticks late;
//   - phantom_restart, health_check_flap, retry and warning add log lines a
//     healthy system of the service's kind prints.
//
// Discrete events (spikes and noise lines) are what NoiseShown reports to
// the grader's record; jitter and staleness are everywhere, not events.

// staleTick is the tick a metric of service svc shows at tick k.
func (e *Episode) staleTick(svc int16, k int) int {
	for i := range e.t.Noise {
		n := &e.t.Noise[i]
		if n.Effect == NoiseStale && e.noiseApplies(n, svc) {
			k -= int(n.Lag)
		}
	}
	return k
}

// spikes reports whether a metric takes spikes: a latency that noise may
// move freely.
func spikes(sl *Slot) bool { return sl.Noise == MetricNoiseFast && sl.Unit == "ms" }

// spikeDraw is noise i's draw of a latency blip on service svc at tick k:
// whether it fires; the draw is per service, so its latencies blip
// together.
func (e *Episode) spikeDraw(i, svc, k int) bool {
	return e.uniform(k, e.prep.serviceKey[svc], i) < e.t.Noise[i].Rate
}

// spikeFactor is what noise i multiplies service svc's latencies by at
// tick k: 1 without a blip, else between 1 and the pattern's magnitude.
func (e *Episode) spikeFactor(i, svc, k int) float64 {
	if !e.spikeDraw(i, svc, k) {
		return 1
	}
	m := e.t.Noise[i].Magnitude
	if m <= 1 {
		return 1
	}
	return 1 + (m-1)*e.uniform(k, e.prep.serviceKey[svc], i|1<<8)
}

// logNoiseAt reports whether log-line noise i fires on service svc at tick k.
func (e *Episode) logNoiseAt(i, svc, k int) bool {
	n := &e.t.Noise[i]
	return e.noiseApplies(n, int16(svc)) && e.uniform(k, e.prep.serviceKey[svc], i) < n.Rate
}

// eachNoiseLine calls f with the level and text of every noise line service
// svc prints at tick k, in order. The text is in a buffer f must not keep.
func (e *Episode) eachNoiseLine(svc, k int, f func(effect NoiseEffect, level string, text []byte)) {
	t := e.t
	kind := t.Services[svc].Kind
	for i := range t.Noise {
		switch t.Noise[i].Effect {
		case NoisePhantomRestart:
			if e.logNoiseAt(i, svc, k) {
				f(NoisePhantomRestart, "WARN", phantomExit)
				f(NoisePhantomRestart, "INFO", phantomBack)
			}
		case NoiseHealthCheckFlap:
			if kind != "load_balancer" || len(t.Services[svc].Deps) == 0 {
				continue
			}
			// A check fails on one tick and passes on the next: the
			// server stays UP (fall is 3), as HAProxy logs it.
			if e.logNoiseAt(i, svc, k) {
				e.noiseText = e.appendFlapLine(e.noiseText[:0], i, svc, k, false)
				f(NoiseHealthCheckFlap, "WARN", e.noiseText)
			}
			if e.logNoiseAt(i, svc, k-1) {
				e.noiseText = e.appendFlapLine(e.noiseText[:0], i, svc, k-1, true)
				f(NoiseHealthCheckFlap, "INFO", e.noiseText)
			}
		case NoiseRetry, NoiseWarning:
			if !e.logNoiseAt(i, svc, k) {
				continue
			}
			level, text := e.appendRoutineLine(e.noiseText[:0], t.Noise[i].Effect, kind, svc, k, i)
			if text == nil {
				continue
			}
			e.noiseText = text
			f(t.Noise[i].Effect, level, text)
		}
	}
}

// The phantom_restart noise pattern's lines: what a process supervisor
// (supervisord, supervisor/process.py) prints when a child dies and it
// starts it again.
var (
	phantomExit = []byte("exited: worker (terminated by SIGKILL; not expected)")
	phantomBack = []byte("success: worker entered RUNNING state, process has stayed up for > than 1 seconds (startsecs)")
)

func (e *Episode) mainPid(b []byte, svc int) []byte {
	return appendLogID(b, LogIDPid, e.lineHash(svc, 0, -1<<20))
}

// noiseLineID keys the ids of noise i's line at a tick apart from every
// log rule's (lineHash's line is a rule index shifted by 8, or negative).
func noiseLineID(i int) int { return -(1 << 21) - i }

// appendFlapLine writes HAProxy's line for a health check of a backend
// server that failed (or, passed, succeeded again) without taking the
// server out of rotation (haproxy src/check.c, set_server_check_status).
func (e *Episode) appendFlapLine(b []byte, i, svc, k int, passed bool) []byte {
	t := e.t
	h := e.lineHash(svc, k, noiseLineID(i))
	b = append(b, "haproxy["...)
	b = append(e.mainPid(b, svc), "]: Health check for server "...)
	b = append(b, t.Services[t.Services[svc].Deps[0]].Name...)
	b = append(b, "/web-"...)
	b = strconv.AppendUint(b, 1+h%2, 10)
	if passed {
		return append(b, " succeeded, reason: Layer7 check passed, code: 200, check duration: 3ms, status: 3/3 UP."...)
	}
	b = append(b, " failed, reason: Layer4 timeout, check duration: 200"...)
	b = strconv.AppendUint(b, h>>8%10, 10)
	return append(b, "ms, status: 2/3 UP."...)
}

// appendRoutineLine writes a retry that succeeded or a routine warning in
// the dialect of the service's kind, or returns a nil text where the kind
// prints no such line. Each is a real message of its system, printed on
// healthy days too.
func (e *Episode) appendRoutineLine(b []byte, eff NoiseEffect, kind string, svc, k, i int) (string, []byte) {
	h := e.lineHash(svc, k, noiseLineID(i))
	switch {
	case eff == NoiseRetry && kind == "web_server":
		// urllib3/connectionpool.py, urlopen's retry warning.
		b = append(b, '[')
		b = appendLogID(b, LogIDPid, h)
		return "WARN", append(b, "] [WARNING] urllib3.connectionpool: Retrying (Retry(total=2, connect=None, read=None, redirect=None, status=None)) after connection broken by 'ProtocolError('Connection aborted.', RemoteDisconnected('Remote end closed connection without response'))': /v1/charges"...)
	case eff == NoiseRetry && kind == "message_queue":
		// celery/app/task.py, Task.retry's log line.
		b = append(b, "jobs-worker["...)
		b = appendLogID(b, LogIDPid, h)
		b = append(b, "]: Task mail.send_receipt["...)
		b = appendLogID(b, LogIDUUID, h)
		return "INFO", append(b, "] retry: Retry in 2s: ConnectionResetError(104, 'Connection reset by peer')"...)
	case eff == NoiseWarning && kind == "web_server":
		// Python's warnings module through logging.captureWarnings.
		b = append(b, '[')
		b = appendLogID(b, LogIDPid, h)
		return "WARN", append(b, "] [WARNING] py.warnings: /srv/app/cart/receipts.py:88: DeprecationWarning: datetime.datetime.utcnow() is deprecated and scheduled for removal in a future version."...)
	case eff == NoiseWarning && kind == "database":
		// PostgreSQL, xact.c: a client's COMMIT outside a transaction.
		b = append(b, '[')
		b = appendLogID(b, LogIDPid, h)
		return "WARN", append(b, "] WARNING:  there is no transaction in progress"...)
	case eff == NoiseWarning && kind == "cache":
		// Redis, server.c: linuxMemoryWarnings, printed at each start
		// and again by the periodic check of a managed instance.
		b = e.mainPid(b, svc)
		return "WARN", append(b, ":M WARNING Memory overcommit must be enabled! Without it, a background save or replication may fail under low memory condition."...)
	case eff == NoiseWarning && kind == "message_queue":
		// RabbitMQ, rabbit_deprecated_features.erl.
		b = append(b, "<0."...)
		b = appendLogID(b, LogIDPid, h)
		return "WARN", append(b, ".0> Deprecated features: `transient_nonexcl_queues`: Feature `transient_nonexcl_queues` is deprecated."...)
	case eff == NoiseWarning && kind == "load_balancer":
		// HAProxy's HTTP log of a request it could not parse (a scanner).
		b = append(b, "haproxy["...)
		b = append(e.mainPid(b, svc), "]: 192.0.2."...)
		b = strconv.AppendUint(b, 10+h%200, 10)
		b = append(b, ':')
		b = appendLogID(b, LogIDPort, h>>16)
		return "WARN", append(b, " https~ https/<NOSRV> -1/-1/-1/-1/0 400 187 - - PR-- 1/1/0/0/0 0/0 \"<BADREQ>\""...)
	}
	return "", nil
}

// NoiseEvent is one discrete noise event a read showed: a spike on a
// service's latencies (Slot is the first latency it moved) or a noise log
// line (Slot is NoSlot). It is the grader's: agents never see it.
type NoiseEvent struct {
	Tick    int
	Service int16
	Effect  NoiseEffect
	Slot    SlotID
}

// AppendNoiseShown appends the discrete noise events the observation of the
// current tick shows: spikes in a metrics read's window or a trace's spans,
// noise lines in a logs read. Jitter and staleness, which touch every read
// of a task that has them, are not events. It renders nothing and
// allocates only to grow dst.
func (e *Episode) AppendNoiseShown(dst []NoiseEvent, o *Observation) []NoiseEvent {
	t := e.t
	if len(t.Noise) == 0 || o.Err != OK || o.Tool < 0 || int(o.Tool) >= len(t.Tools) || o.Service < 0 || int(o.Service) >= len(t.Services) {
		return dst
	}
	svc := int(o.Service)
	spiked := func(dst []NoiseEvent, svc, k int, only SlotID) []NoiseEvent {
		s := &t.Services[svc]
		shown := e.staleTick(int16(svc), k)
		for i := range t.Noise {
			if t.Noise[i].Effect != NoiseSpike || !e.noiseApplies(&t.Noise[i], int16(svc)) || t.Noise[i].Magnitude <= 1 || !e.spikeDraw(i, svc, shown) {
				continue
			}
			for _, m := range s.Metrics {
				if spikes(&t.Slots[m]) && (only == NoSlot || only == m) {
					dst = append(dst, NoiseEvent{Tick: shown, Service: int16(svc), Effect: NoiseSpike, Slot: m})
					break
				}
			}
		}
		return dst
	}
	switch t.Tools[o.Tool].Effect {
	case EffectMetrics:
		for k := e.tick - metricWindow + 1; k <= e.tick; k++ {
			dst = spiked(dst, svc, k, NoSlot)
		}
	case EffectTraces:
		if l := t.Services[svc].Latency; l != NoSlot && spikes(&t.Slots[l]) {
			dst = spiked(dst, svc, e.tick, l)
		}
		for _, d := range t.Services[svc].Deps {
			if l := t.Services[d].Latency; l != NoSlot && spikes(&t.Slots[l]) {
				dst = spiked(dst, int(d), e.tick, l)
			}
		}
	case EffectLogs:
		if t.Tools[o.Tool].Listing != "" {
			break // a listing shows no noise lines
		}
		for k := e.tick - logWindow + 1; k <= e.tick; k++ {
			last := NoiseEffect(noiseCount)
			e.eachNoiseLine(svc, k, func(eff NoiseEffect, _ string, _ []byte) {
				if eff != last { // one event per pattern and tick
					dst = append(dst, NoiseEvent{Tick: k, Service: int16(svc), Effect: eff, Slot: NoSlot})
					last = eff
				}
			})
		}
	}
	return dst
}
