package engine

import (
	"math"
	"strconv"

	"github.com/srezc/srezc/value"
)

// The one observation renderer. Every agent-visible byte comes from here;
// RendererVersion names its output. It reads only: the structured
// observation, the rows of the ring, the seed-drawn noise, and the task's
// names. Grader-side fields (fault kinds, the id, rewards) are never read.

const (
	// MetricWindow is the ticks of history a metrics read shows per
	// metric; the compiler keeps at least as many rows in the ring.
	MetricWindow = 12
	metricWindow = MetricWindow
	logWindow    = 3 // ticks of log lines shown
)

func appendFloat(b []byte, f float64) []byte { return value.AppendFloat(b, f) }

// splitmix64 hashes counters into noise, so what a read shows depends on the
// seed, the tick and the slot only, never on which reads came before.
func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// uniform draws noise number k for a key at a tick. Keys come from names
// (noiseKeys), not slot numbers, so adding a slot to a service kind does not
// move the noise every other observation shows.
func (e *Episode) uniform(tick int, key uint64, k int) float64 {
	e.draws++
	h := splitmix64(e.seed ^ splitmix64(uint64(tick)*0x100000001b3^key^uint64(k)<<52))
	return float64(h>>11) / (1 << 53)
}

// noiseKeys hashes each slot's "service.unit" and each service's name
// (FNV-1a), the keys noise is drawn under. Jitter is drawn per service and
// unit, not per metric: a service's metrics of one unit wobble by the same
// factor at a tick, so the sums, orderings and ratios a real exporter's
// counters keep (5xx = 503 + 504 + other, p50 <= p95 <= p99) still hold in
// what a read shows.
func noiseKeys(t *Task) (jitter, services []uint64) {
	fnv := func(parts ...string) uint64 {
		h := uint64(14695981039346656037)
		for i, p := range parts {
			if i > 0 {
				h = (h ^ '.') * 1099511628211
			}
			for j := 0; j < len(p); j++ {
				h = (h ^ uint64(p[j])) * 1099511628211
			}
		}
		return h
	}
	jitter = make([]uint64, len(t.Slots))
	for i, sl := range t.Slots {
		svc := ""
		if sl.Service >= 0 && int(sl.Service) < len(t.Services) {
			svc = t.Services[sl.Service].Name
		}
		jitter[i] = fnv(svc, "unit", sl.Unit)
	}
	services = make([]uint64, len(t.Services))
	for i, s := range t.Services {
		services[i] = fnv(s.Name)
	}
	return jitter, services
}

func (e *Episode) noiseApplies(n *Noise, svc int16) bool {
	return n.Service < 0 || n.Service == svc
}

// metricAt is the value an agent sees for a metric at tick k, noise applied.
func (e *Episode) metricAt(s SlotID, k int) float64 {
	t := e.t
	sl := &t.Slots[s]
	k = e.staleTick(sl.Service, k)
	return e.shownMetric(s, k, e.RowAt(k)[s])
}

// shownMetric is metric s's word w at tick k (a tick stale noise has
// already moved) as a read shows it, noise applied.
func (e *Episode) shownMetric(s SlotID, k int, w uint64) float64 {
	t := e.t
	sl := &t.Slots[s]
	v := 0.0
	switch sl.Kind {
	case value.Int:
		v = float64(int64(w))
	case value.Float:
		v = w2f(w)
	case value.Bool:
		v = float64(w)
	}
	if sl.Noise == MetricNoiseNone {
		return v
	}
	base := v
	for i := range t.Noise {
		n := &t.Noise[i]
		if !e.noiseApplies(n, sl.Service) {
			continue
		}
		switch n.Effect {
		case NoiseSpike:
			if spikes(sl) {
				v = float64(v * e.spikeFactor(i, int(sl.Service), k))
			}
		case NoiseJitter:
			amp := n.Magnitude
			if sl.Noise == MetricNoiseSlow {
				amp /= 10
			}
			v = float64(v * (1 + amp*(2*e.uniform(k, e.prep.jitterKey[s], i)-1)))
		}
	}
	// Noise never takes a value out of its natural range: a count or a
	// rate stays non-negative, a share stays at most one (a percentage at
	// most a hundred).
	if base >= 0 && v < 0 {
		v = 0
	}
	if sl.Unit == "ratio" && base <= 1 && v > 1 {
		v = 1
	}
	if sl.Unit == "%" && base <= 100 && v > 100 {
		v = 100
	}
	return v
}

// baselineOf is metric s's pre-incident baseline: its value in the site's
// settled fault-free world. A baseline is a long average, so it carries no
// noise.
func (e *Episode) baselineOf(s SlotID) float64 {
	w := e.t.Baseline[s]
	switch e.t.Slots[s].Kind {
	case value.Int:
		return float64(int64(w))
	case value.Float:
		return w2f(w)
	}
	return float64(w)
}

func (e *Episode) appendMetricValue(b []byte, sl *Slot, v float64) []byte {
	if sl.Kind == value.Int || sl.Kind == value.Bool {
		return strconv.AppendInt(b, int64(math.Round(v)), 10)
	}
	if sl.Precision >= 0 {
		return appendFixed(b, v, int(sl.Precision))
	}
	return appendFloat(b, v)
}

// appendWord writes a slot word as text.
func (e *Episode) appendWord(b []byte, sl *Slot, w uint64) []byte {
	switch sl.Kind {
	case value.Int:
		return strconv.AppendInt(b, int64(w), 10)
	case value.Float:
		if sl.Precision >= 0 {
			return appendFixed(b, w2f(w), int(sl.Precision))
		}
		return appendFloat(b, w2f(w))
	case value.Bool:
		return strconv.AppendBool(b, w != 0)
	case value.String:
		return append(b, e.String(StrID(w))...)
	}
	return b
}

func (e *Episode) appendWordJSON(b []byte, sl *Slot, w uint64) []byte {
	if sl.Kind == value.String {
		return value.AppendJSONString(b, e.String(StrID(w)))
	}
	return e.appendWord(b, sl, w)
}

// pad fills b with spaces to width bytes past from, and always ends in at
// least one space, so that a name as long as the column stays apart from
// what follows it.
func pad(b []byte, from, width int) []byte {
	b = append(b, ' ')
	for len(b)-from < width {
		b = append(b, ' ')
	}
	return b
}

// AppendIntro renders what an agent sees before its first step.
func (e *Episode) AppendIntro(b []byte) []byte { return e.rules.appendIntro(e, b) }

// appendIntro is AppendIntro under the native profile.
func (e *Episode) appendIntro(b []byte) []byte {
	t := e.t
	b = appendIntroHead(b, t)
	b = append(b, "\nAct with one tool call per step, e.g. check_status(SERVICE); quote free text.\nTools:\n"...)
	for i := range t.Tools {
		b = e.appendToolSignature(append(b, "  "...), i)
		b = append(b, '\n')
		if doc := t.Tools[i].Doc; doc != "" {
			b = append(b, "      "...)
			b = append(b, doc...)
			b = append(b, '\n')
		}
	}
	return b
}

// appendIntroHead writes what both profiles' intros open with: the alert,
// the budget and the services (ServiceNames, without allocating).
func appendIntroHead(b []byte, t *Task) []byte {
	b = append(b, "ALERT: "...)
	b = append(b, t.Alert...)
	b = append(b, "\nYou are on call. Step budget: "...)
	b = strconv.AppendInt(b, int64(t.Budget), 10)
	b = append(b, ".\nServices:"...)
	for i := range t.Services {
		b = append(b, ' ')
		b = append(b, t.Services[i].Name...)
	}
	if len(t.Services) == 0 && t.Ref != nil {
		for i := range t.Ref.Services {
			b = append(b, ' ')
			b = append(b, t.Ref.Services[i].Name...)
		}
	}
	return b
}

func (e *Episode) appendToolSignature(b []byte, i int) []byte {
	return appendSignature(b, &e.t.Tools[i])
}

// appendSignature writes a tool as the intro lists it: name(arg, opt?).
func appendSignature(b []byte, tl *Tool) []byte {
	b = append(b, tl.Name...)
	b = append(b, '(')
	for j, a := range tl.Args {
		if j > 0 {
			b = append(b, ", "...)
		}
		b = append(b, a.Name...)
		if a.Optional {
			b = append(b, '?')
		}
	}
	return append(b, ')')
}

// AppendText renders an observation as the text an agent reads.
func (e *Episode) AppendText(b []byte, o *Observation) []byte { return e.rules.appendText(e, b, *o) }

// AppendTextAs renders an observation as an episode of the same task and
// actions from another seed shows it. Noise is drawn from the seed, the
// tick and the slot, and changes only what reads show, never the state,
// so one played episode gives what every seed would have shown along it:
// certification's adaptive panel plays once for all its seeds. The seed
// must pick the same site variant as the episode's own.
func (e *Episode) AppendTextAs(b []byte, o *Observation, seed uint64) []byte {
	own := e.seed
	e.seed = seed
	b = e.AppendText(b, o)
	e.seed = own
	return b
}

// NoiseDraws counts the noise values drawn so far, by any rendering: a
// rendering during which it did not move shows the same text for every
// seed (the seed draws nothing else after Reset), so certification's
// adaptive panel renders other seeds' views only of the others.
func (e *Episode) NoiseDraws() uint64 { return e.draws }

// appendText is AppendText under the native profile.
func (e *Episode) appendText(b []byte, o *Observation) []byte {
	t := e.t
	b = append(b, "[step "...)
	b = strconv.AppendInt(b, int64(o.Step), 10)
	b = append(b, '/')
	b = strconv.AppendInt(b, int64(t.Budget), 10)
	b = append(b, "] "...)
	if o.Err != OK {
		if o.Err == ErrEpisodeDone {
			return append(b, "The episode is over.\n"...)
		}
		b = append(b, "Invalid action: "...)
		b = append(b, o.Err.String()...)
		if o.Detail != "" {
			b = append(b, " ("...)
			b = append(b, o.Detail...)
			b = append(b, ')')
		}
		b = append(b, ".\n"...)
		return e.appendDone(b, o)
	}
	tl := &t.Tools[o.Tool]
	switch tl.Effect {
	case EffectLogs:
		if tl.Listing != "" {
			b = e.appendListing(e.appendReadStamp(b, int(o.Service)), int(o.Service), tl.Listing)
			break
		}
		b = e.appendLogs(b, int(o.Service))
	case EffectMetrics:
		b = e.appendMetrics(e.appendReadStamp(b, int(o.Service)), int(o.Service))
	case EffectConfig:
		b = e.appendConfig(e.appendReadStamp(b, int(o.Service)), int(o.Service), o.Key)
	case EffectStatus:
		b = e.appendReadStamp(b, int(o.Service))
		b = append(b, t.Services[o.Service].Name...)
		b = append(b, " status: "...)
		b = e.appendStatus(b, int(o.Service), e.tick)
		b = append(b, '\n')
	case EffectTraces:
		b = e.appendTraces(b, int(o.Service))
	case EffectDependencies:
		b = e.appendDeps(e.appendReadStamp(b, int(o.Service)), int(o.Service))
	case EffectChanges:
		b = e.appendChanges(b, o.Service)
	case EffectRestart:
		b = append(b, "Restart of "...)
		b = append(b, t.Services[o.Service].Name...)
		b = append(b, " requested.\n"...)
	case EffectRollback:
		b = append(b, "Rollback of "...)
		b = append(b, t.Services[o.Service].Name...)
		b = append(b, " to its previous version requested.\n"...)
	case EffectOperate:
		b = append(b, t.Tools[o.Tool].Name...)
		b = append(b, " of "...)
		b = append(b, t.Services[o.Service].Name...)
		b = append(b, " requested.\n"...)
	case EffectUpdate:
		sl := &t.Slots[o.Key]
		b = append(b, "Config "...)
		b = append(b, t.Services[o.Service].Name...)
		b = append(b, '.')
		b = append(b, sl.Name...)
		b = append(b, " set to "...)
		b = e.appendWord(b, sl, e.Row()[o.Key])
		b = append(b, " (was "...)
		b = e.appendWord(b, sl, o.Previous)
		b = append(b, ").\n"...)
	case EffectEscalate:
		b = append(b, "Incident escalated to a human responder.\n"...)
	case EffectResolve:
		b = append(b, "Incident closed; your resolution is recorded.\n"...)
	}
	return e.appendDone(b, o)
}

func (e *Episode) appendDone(b []byte, o *Observation) []byte {
	if o.Done {
		b = append(b, "The episode is over.\n"...)
	}
	return b
}

func (e *Episode) appendStatus(b []byte, svc, tick int) []byte {
	st := e.t.Services[svc].Status
	if st == NoSlot {
		return append(b, StatusHealthy...)
	}
	return append(b, e.String(StrID(e.RowAt(tick)[st]))...)
}

func (e *Episode) appendLogs(b []byte, svc int) []byte {
	t := e.t
	s := &t.Services[svc]
	b = append(b, s.Name...)
	b = append(b, " logs, last "...)
	b = strconv.AppendInt(b, logWindow, 10)
	b = append(b, " ticks:\n"...)
	lines := 0
	for k := e.tick - logWindow + 1; k <= e.tick; k++ {
		row := e.RowAt(k)
		j := 0 // the line's place in its tick, which orders the timestamps
		e.eachNoiseLine(svc, k, func(_ NoiseEffect, level string, text []byte) {
			b = append(append(e.appendLogPrefix(b, svc, k, j, level), text...), '\n')
			j++
		})
		for _, li := range s.Logs {
			lr := &t.Logs[li]
			if row[lr.Active] == 0 || lr.Listing != "" {
				continue
			}
			b = e.appendLogPrefix(b, svc, k, j, lr.Level)
			b = append(e.appendLogText(b, li, k, row), '\n')
			j++
		}
		lines += j
	}
	if lines == 0 {
		b = append(b, "  (no log lines)\n"...)
	}
	return b
}

// appendLogText writes log rule li's text as it read at tick k: literals,
// holes from the row, ids drawn for the line.
func (e *Episode) appendLogText(b []byte, li int32, k int, row []uint64) []byte {
	t := e.t
	lr := &t.Logs[li]
	for pi, p := range lr.Parts {
		switch {
		case p.ID == LogIDMainPid:
			b = appendLogID(b, LogIDPid, e.lineHash(int(lr.Service), 0, -1<<20))
		case p.ID != LogIDNone:
			b = appendLogID(b, p.ID, e.lineHash(int(lr.Service), k, int(li)<<8|pi))
		case p.Hole == NoSlot:
			b = append(b, p.Lit...)
		default:
			b = e.appendWord(b, &t.Slots[p.Hole], row[p.Hole])
		}
	}
	return b
}

// lineHash draws what one line shows beyond the world's state (its ids,
// its second within the minute) from the seed, the service, the tick and
// the line, so a line reads the same on every read and differs from tick
// to tick and seed to seed.
func (e *Episode) lineHash(svc, k, line int) uint64 {
	return splitmix64(e.seed ^ splitmix64(e.prep.serviceKey[svc]^uint64(k)*0x100000001b3^uint64(line)<<40))
}

const hexDigits = "0123456789abcdef"

func appendHex(b []byte, h uint64, n int) []byte {
	for i := n - 1; i >= 0; i-- {
		b = append(b, hexDigits[h>>(4*uint(i))&15])
	}
	return b
}

func appendLogID(b []byte, id LogID, h uint64) []byte {
	switch id {
	case LogIDPid:
		return strconv.AppendUint(b, 1000+h%64536, 10)
	case LogIDPort:
		return strconv.AppendUint(b, 32768+h%28232, 10)
	case LogIDReq:
		return appendHex(b, h, 16)
	case LogIDHex:
		return appendHex(b, h, 8)
	case LogIDUUID:
		h2 := splitmix64(h)
		b = appendHex(b, h>>32, 8)
		b = append(b, '-')
		b = appendHex(b, h>>16, 4)
		b = append(b, '-', '4')
		b = appendHex(b, h, 3)
		b = append(b, '-', hexDigits[8|h2>>62])
		b = appendHex(b, h2>>48, 3)
		b = append(b, '-')
		return appendHex(b, h2, 12)
	}
	return b
}

// appendLogTime writes the wall-clock time of line j of tick k: a tick is
// a minute, the agent arrives at the alert's minute (Task.AlertMinute) at
// InitTick, and the lines of one tick take increasing seconds within it.
func (e *Episode) appendLogTime(b []byte, svc, k, j int) []byte {
	t := e.t
	m := ((int(t.AlertMinute)+k-t.InitTick)%(24*60) + 24*60) % (24 * 60)
	b = appendClock(b, m)
	ms := min(j, 11)*5000 + int(e.lineHash(svc, k, -1-j)%5000)
	b = append(b, ':', byte('0'+ms/10000), byte('0'+ms/1000%10), '.')
	return append(b, byte('0'+ms/100%10), byte('0'+ms/10%10), byte('0'+ms%10))
}

func (e *Episode) appendLogPrefix(b []byte, svc, tick, j int, level string) []byte {
	b = append(b, "  t="...)
	b = strconv.AppendInt(b, int64(tick), 10)
	b = append(b, ' ')
	b = e.appendLogTime(b, svc, tick, j)
	b = append(b, ' ')
	b = append(b, level...)
	return append(b, ' ')
}

func (e *Episode) appendMetrics(b []byte, svc int) []byte {
	t := e.t
	s := &t.Services[svc]
	b = append(b, s.Name...)
	b = append(b, " metrics, last "...)
	b = strconv.AppendInt(b, metricWindow, 10)
	if len(t.Baseline) > 0 {
		b = append(b, " ticks (oldest first; baseline: mean at this hour over the last 7 days):\n"...)
	} else {
		b = append(b, " ticks (oldest first):\n"...)
	}
	// The window's rows are looked up once for all the service's metrics
	// (its own slots, which stale noise moves per service): the ring is
	// laid out by tick, so reading it metric by metric would walk every
	// row once per metric.
	var ticks [metricWindow]int
	var rows [metricWindow][]uint64
	first := e.tick - metricWindow + 1
	for j := range rows {
		ticks[j] = e.staleTick(int16(svc), first+j)
		rows[j] = e.RowAt(ticks[j])
	}
	for _, m := range s.Metrics {
		sl := &t.Slots[m]
		start := len(b)
		b = append(b, "  "...)
		b = append(b, sl.Name...)
		b = pad(b, start, 28)
		if len(t.Baseline) > 0 {
			// Before the window, so that the newest value stays the last
			// number on the line.
			b = append(b, "baseline "...)
			b = e.appendMetricValue(b, sl, e.baselineOf(m))
			b = append(b, " | "...)
		}
		for j := range rows {
			if j > 0 {
				b = append(b, ' ')
			}
			b = e.appendMetricValue(b, sl, e.shownMetric(m, ticks[j], rows[j][m]))
		}
		if sl.Unit != "" {
			b = append(b, ' ')
			b = append(b, sl.Unit...)
		}
		b = append(b, '\n')
	}
	return b
}

func (e *Episode) appendConfig(b []byte, svc int, key SlotID) []byte {
	t := e.t
	s := &t.Services[svc]
	row := e.Row()
	b = append(b, s.Name...)
	b = append(b, " config:\n"...)
	for _, c := range s.Config {
		if key != NoSlot && c != key {
			continue
		}
		sl := &t.Slots[c]
		b = append(b, "  "...)
		b = append(b, sl.Name...)
		b = append(b, " = "...)
		b = e.appendWord(b, sl, row[c])
		b = append(b, '\n')
	}
	return b
}

// appendFixed writes v with digits decimals, byte for byte as
// strconv.AppendFloat(b, v, 'f', digits, 64) does. Reads print thousands
// of such numbers, and strconv's exact decimal conversion is most of their
// cost; scaling by 10^digits and rounding in floating point gives the same
// digits whenever the scaled value is small enough that its rounding error
// (at most 2^-14 below 2^40) cannot carry it across a half, so the fast
// path takes only values whose fraction is further than that from one
// half, and strconv takes the rest.
func appendFixed(b []byte, v float64, digits int) []byte {
	if digits < 0 || digits >= len(pow10) || !(v >= 0) || math.Signbit(v) {
		return strconv.AppendFloat(b, v, 'f', digits, 64)
	}
	x := v * pow10[digits]
	if x >= 1<<40 {
		return strconv.AppendFloat(b, v, 'f', digits, 64)
	}
	whole := math.Floor(x)
	if f := x - whole; f > 0.5-1.0/(1<<12) && f < 0.5+1.0/(1<<12) {
		return strconv.AppendFloat(b, v, 'f', digits, 64)
	} else if f > 0.5 {
		whole++
	}
	n := uint64(whole)
	if digits == 0 {
		return strconv.AppendUint(b, n, 10)
	}
	scale := uint64(pow10[digits])
	b = strconv.AppendUint(b, n/scale, 10)
	b = append(b, '.')
	frac := n % scale
	for range digits {
		b = append(b, '0')
	}
	for i := len(b) - 1; frac > 0; i-- {
		b[i] = byte('0' + frac%10)
		frac /= 10
	}
	return b
}

// pow10 are the scales appendFixed's fast path takes.
var pow10 = [...]float64{1, 10, 100, 1e3, 1e4, 1e5, 1e6}

// appendReadStamp writes when a read of state (metrics, config, status,
// dependencies) was taken: the tick and the clock time, as a log line
// shows them.
func (e *Episode) appendReadStamp(b []byte, svc int) []byte {
	b = append(b, "t="...)
	b = strconv.AppendInt(b, int64(e.tick), 10)
	b = append(b, ' ')
	return append(e.appendLogTime(b, svc, e.tick, 0), ' ')
}

// appendTimeJSON writes a read's time as the first member of its content.
func (e *Episode) appendTimeJSON(b []byte, svc int) []byte {
	b = append(b, `"time":"`...)
	return append(e.appendLogTime(b, svc, e.tick, 0), `",`...)
}

func (e *Episode) appendDeps(b []byte, svc int) []byte {
	t := e.t
	s := &t.Services[svc]
	b = append(b, s.Name...)
	if len(s.Deps) == 0 {
		return append(b, " has no dependencies.\n"...)
	}
	b = append(b, " depends on:\n"...)
	for i, d := range s.Deps {
		b = append(b, "  "...)
		b = append(b, s.DepRoles[i]...)
		b = append(b, " -> "...)
		b = append(b, t.Services[d].Name...)
		b = append(b, " ("...)
		b = e.appendStatus(b, int(d), e.tick)
		b = append(b, ")\n"...)
	}
	return b
}

// appendWeekMinute writes a minute of the week as an audit trail does,
// "Tue 17:30".
func appendWeekMinute(b []byte, m int) []byte {
	m = ((m % MinutesPerWeek) + MinutesPerWeek) % MinutesPerWeek
	b = append(b, weekdays[m/(24*60)]...)
	b = append(b, ' ')
	return appendClock(b, m%(24*60))
}

// WeekMinute is a minute of the week as the change history shows it.
func WeekMinute(m int) string { return string(appendWeekMinute(nil, m)) }

func appendClock(b []byte, m int) []byte {
	h, mm := m/60, m%60
	return append(b, byte('0'+h/10), byte('0'+h%10), ':', byte('0'+mm/10), byte('0'+mm%10))
}

var weekdays = [7]string{"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"}

// appendChanges writes the change history, newest first, of one service
// (svc >= 0) or of all. Every entry has one form, whoever made it and
// whatever it did: an operator's audit trail, not a verdict.
func (e *Episode) appendChanges(b []byte, svc int16) []byte {
	t := e.t
	b = append(b, "change history"...)
	if svc >= 0 {
		b = append(b, " of "...)
		b = append(b, t.Services[svc].Name...)
	}
	b = append(b, ", newest first (alert raised "...)
	b = appendWeekMinute(b, int(t.AlertMinute))
	b = append(b, "):\n"...)
	n := 0
	for i := range t.Changes {
		c := &t.Changes[i]
		if svc >= 0 && c.Service != svc {
			continue
		}
		n++
		sl := &t.Slots[c.Slot]
		b = append(b, "  "...)
		b = appendWeekMinute(b, int(c.Minute))
		start := len(b)
		b = append(b, "  "...)
		b = append(b, c.Actor...)
		b = pad(b, start, 21)
		start = len(b)
		b = append(b, t.Services[c.Service].Name...)
		b = pad(b, start, 15)
		switch {
		case sl.Class == ClassConfig:
			b = append(b, "config "...)
			b = append(b, sl.Name...)
			b = append(b, ": "...)
		case t.IsDeploy(c):
			b = append(b, "deploy "...)
		default:
			b = append(b, sl.Name...)
			b = append(b, ": "...)
		}
		b = e.appendWord(b, sl, c.Old)
		b = append(b, " -> "...)
		b = e.appendWord(b, sl, c.New)
		b = append(b, '\n')
	}
	if n == 0 {
		b = append(b, "  (no changes recorded)\n"...)
	}
	return b
}

// AppendJSON renders an observation as one JSON object: the step header,
// the same text an agent reads ("text"), and the content as data
// ("content"), shaped by the tool's effect:
//
//	logs          {"lines":[{"tick","level","text"}]}
//	metrics       {"metrics":[{"name","unit","baseline","values":[oldest … newest]}]}
//	config        {"config":{"key":value}}
//	status        {"status":"healthy"}
//	traces        {"spans":[{"service","depth","duration_ms","error_rate","status"}]}
//	dependencies  {"dependencies":[{"role","service","status"}]}
//	changes       {"alert_at","changes":[{"at","minutes_before_alert","actor","service","kind":"config"|"deploy"|"state","key" (config and state),"old","new"}]}
//	restart       {"restarted":true}
//	rollback      {"rolled_back":true}
//	update        {"key","value","previous"}
//	escalate, resolve  {"closed":true}
func (e *Episode) AppendJSON(b []byte, o *Observation) []byte {
	b = append(b, `{"step":`...)
	b = strconv.AppendInt(b, int64(o.Step), 10)
	b = append(b, `,"steps_left":`...)
	b = strconv.AppendInt(b, int64(o.StepsLeft), 10)
	b = append(b, `,"done":`...)
	b = strconv.AppendBool(b, o.Done)
	if o.Err != OK {
		b = append(b, `,"error":`...)
		b = value.AppendJSONString(b, o.Err.Name())
		b = append(b, `,"message":`...)
		b = value.AppendJSONString(b, o.Err.String())
		if o.Detail != "" {
			b = append(b, `,"detail":`...)
			b = value.AppendJSONString(b, o.Detail)
		}
		b = append(b, `,"text":`...)
		e.text = e.AppendText(e.text[:0], o)
		b = value.AppendJSONBytes(b, e.text)
		return append(b, '}')
	}
	return e.rules.appendResultJSON(e, b, *o)
}

// appendResultJSON writes a valid step's fields of AppendJSON under the
// native profile.
func (e *Episode) appendResultJSON(b []byte, o *Observation) []byte {
	t := e.t
	b = append(b, `,"tool":`...)
	b = value.AppendJSONString(b, t.Tools[o.Tool].Name)
	if o.Service >= 0 {
		b = append(b, `,"service":`...)
		b = value.AppendJSONString(b, t.Services[o.Service].Name)
	}
	b = append(b, `,"text":`...)
	e.text = e.AppendText(e.text[:0], o)
	b = value.AppendJSONBytes(b, e.text)
	b = append(b, `,"content":`...)
	b = e.appendContentJSON(b, o)
	return append(b, '}')
}

func (e *Episode) appendContentJSON(b []byte, o *Observation) []byte {
	t := e.t
	svc := int(o.Service)
	switch t.Tools[o.Tool].Effect {
	case EffectLogs:
		if l := t.Tools[o.Tool].Listing; l != "" {
			return e.appendListingJSON(b, svc, l)
		}
		return e.appendLogsJSON(b, svc)
	case EffectMetrics:
		b = append(b, `{"metrics":[`...)
		for i, m := range t.Services[svc].Metrics {
			sl := &t.Slots[m]
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"name":`...)
			b = value.AppendJSONString(b, sl.Name)
			b = append(b, `,"unit":`...)
			b = value.AppendJSONString(b, sl.Unit)
			if len(t.Baseline) > 0 {
				b = append(b, `,"baseline":`...)
				if v := e.baselineOf(m); math.IsNaN(v) || math.IsInf(v, 0) {
					b = append(b, "null"...)
				} else {
					b = e.appendMetricValue(b, sl, v)
				}
			}
			b = append(b, `,"values":[`...)
			for k := e.tick - metricWindow + 1; k <= e.tick; k++ {
				if k > e.tick-metricWindow+1 {
					b = append(b, ',')
				}
				v := e.metricAt(m, k)
				if math.IsNaN(v) || math.IsInf(v, 0) {
					b = append(b, "null"...)
				} else {
					b = e.appendMetricValue(b, sl, v)
				}
			}
			b = append(b, "]}"...)
		}
		return append(b, "]}"...)
	case EffectConfig:
		b = append(e.appendTimeJSON(append(b, '{'), svc), `"config":{`...)
		row := e.Row()
		first := true
		for _, c := range t.Services[svc].Config {
			if o.Key != NoSlot && c != o.Key {
				continue
			}
			if !first {
				b = append(b, ',')
			}
			first = false
			sl := &t.Slots[c]
			b = value.AppendJSONString(b, sl.Name)
			b = append(b, ':')
			b = e.appendWordJSON(b, sl, row[c])
		}
		return append(b, "}}"...)
	case EffectStatus:
		b = append(e.appendTimeJSON(append(b, '{'), svc), `"status":`...)
		e.line = e.appendStatus(e.line[:0], svc, e.tick)
		b = value.AppendJSONBytes(b, e.line)
		return append(b, '}')
	case EffectTraces:
		return e.appendTracesJSON(b, svc)
	case EffectDependencies:
		b = append(e.appendTimeJSON(append(b, '{'), svc), `"dependencies":[`...)
		s := &t.Services[svc]
		for i, d := range s.Deps {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"role":`...)
			b = value.AppendJSONString(b, s.DepRoles[i])
			b = append(b, `,"service":`...)
			b = value.AppendJSONString(b, t.Services[d].Name)
			b = append(b, `,"status":`...)
			e.line = e.appendStatus(e.line[:0], int(d), e.tick)
			b = value.AppendJSONBytes(b, e.line)
			b = append(b, '}')
		}
		return append(b, "]}"...)
	case EffectChanges:
		return e.appendChangesJSON(b, o.Service)
	case EffectRestart:
		return append(b, `{"restarted":true}`...)
	case EffectRollback:
		return append(b, `{"rolled_back":true}`...)
	case EffectOperate:
		b = append(b, `{"operation":`...)
		b = value.AppendJSONString(b, t.Tools[o.Tool].Name)
		return append(b, `,"requested":true}`...)
	case EffectUpdate:
		sl := &t.Slots[o.Key]
		b = append(b, `{"key":`...)
		b = value.AppendJSONString(b, sl.Name)
		b = append(b, `,"value":`...)
		b = e.appendWordJSON(b, sl, e.Row()[o.Key])
		b = append(b, `,"previous":`...)
		b = e.appendWordJSON(b, sl, o.Previous)
		return append(b, '}')
	}
	return append(b, `{"closed":true}`...)
}

func (e *Episode) appendChangesJSON(b []byte, svc int16) []byte {
	t := e.t
	b = append(b, `{"alert_at":"`...)
	b = appendWeekMinute(b, int(t.AlertMinute))
	b = append(b, `","changes":[`...)
	first := true
	for i := range t.Changes {
		c := &t.Changes[i]
		if svc >= 0 && c.Service != svc {
			continue
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		sl := &t.Slots[c.Slot]
		b = append(b, `{"at":"`...)
		b = appendWeekMinute(b, int(c.Minute))
		b = append(b, `","minutes_before_alert":`...)
		b = strconv.AppendInt(b, int64(t.Age(c)), 10)
		b = append(b, `,"actor":`...)
		b = value.AppendJSONString(b, c.Actor)
		b = append(b, `,"service":`...)
		b = value.AppendJSONString(b, t.Services[c.Service].Name)
		switch {
		case sl.Class == ClassConfig:
			b = append(b, `,"kind":"config","key":`...)
			b = value.AppendJSONString(b, sl.Name)
		case t.IsDeploy(c):
			b = append(b, `,"kind":"deploy"`...)
		default:
			b = append(b, `,"kind":"state","key":`...)
			b = value.AppendJSONString(b, sl.Name)
		}
		b = append(b, `,"old":`...)
		b = e.appendWordJSON(b, sl, c.Old)
		b = append(b, `,"new":`...)
		b = e.appendWordJSON(b, sl, c.New)
		b = append(b, '}')
	}
	return append(b, "]}"...)
}

func (e *Episode) appendLogsJSON(b []byte, svc int) []byte {
	t := e.t
	s := &t.Services[svc]
	b = append(b, `{"lines":[`...)
	first := true
	j := 0
	line := func(b []byte, k int, level string, text []byte) []byte {
		if !first {
			b = append(b, ',')
		}
		first = false
		b = append(b, `{"tick":`...)
		b = strconv.AppendInt(b, int64(k), 10)
		b = append(b, `,"time":"`...)
		b = append(e.appendLogTime(b, svc, k, j), '"')
		j++
		b = append(b, `,"level":`...)
		b = value.AppendJSONString(b, level)
		b = append(b, `,"text":`...)
		b = value.AppendJSONBytes(b, text)
		return append(b, '}')
	}
	for k := e.tick - logWindow + 1; k <= e.tick; k++ {
		row := e.RowAt(k)
		j = 0
		e.eachNoiseLine(svc, k, func(_ NoiseEffect, level string, text []byte) {
			b = line(b, k, level, text)
		})
		for _, li := range s.Logs {
			lr := &t.Logs[li]
			if row[lr.Active] == 0 || lr.Listing != "" {
				continue
			}
			e.line = e.appendLogText(e.line[:0], li, k, row)
			b = line(b, k, lr.Level, e.line)
		}
	}
	return append(b, "]}"...)
}

// appendListing writes the rows of listing its service writes as of the
// current tick, one a line, as the real command prints them (the first
// row is its header where the kind declares one).
func (e *Episode) appendListing(b []byte, svc int, listing string) []byte {
	t := e.t
	row := e.Row()
	rows := 0
	for _, li := range t.Services[svc].Logs {
		lr := &t.Logs[li]
		if lr.Listing != listing || row[lr.Active] == 0 {
			continue
		}
		if rows == 0 {
			b = append(b, '\n')
		}
		b = append(e.appendLogText(b, li, e.tick, row), '\n')
		rows++
	}
	if rows == 0 {
		b = append(b, "(0 rows)\n"...)
	}
	return b
}

// appendListingJSON is appendListing's structured form.
func (e *Episode) appendListingJSON(b []byte, svc int, listing string) []byte {
	t := e.t
	row := e.Row()
	b = append(e.appendTimeJSON(append(b, '{'), svc), `"rows":[`...)
	first := true
	for _, li := range t.Services[svc].Logs {
		lr := &t.Logs[li]
		if lr.Listing != listing || row[lr.Active] == 0 {
			continue
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		e.line = e.appendLogText(e.line[:0], li, e.tick, row)
		b = value.AppendJSONBytes(b, e.line)
	}
	return append(b, "]}"...)
}
