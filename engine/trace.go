package engine

import (
	"math"
	"strconv"

	"github.com/srezc/srezc/value"
)

// A sampled trace is the tree of one request's spans: the service read,
// then every service it calls, depth first, each service once (a service
// two callers share sits under the first), then the calls it makes to
// things outside the system (declared client spans: the web tier's call
// to the card processor). A child span is the call as its parent saw it:
// a parent that gives up on a call ends it, so a child never outlasts its
// parent (the span is cut at the parent's end).
//
// Work a service queues is done later by its consumers, in a trace of its
// own (a declared consumer span, and the services the consumers call
// under it), linked to the queueing service's span. That is how
// OpenTelemetry's messaging conventions model it (the consumer's
// "process" span carries a link to the producer's context) and how Jaeger
// (a FOLLOWS_FROM reference) and Tempo (span links) show it. A child span
// would not do: a job runs after the publish returned, seconds or hours
// later, so it would outlast its parent, and the publish would seem to
// wait for the job. The consumer trace read is the job the consumers are
// working on now; it shows how long that job waited in the queue.
//
// The trace carries an id and its time, each span an id, drawn as log
// ids are (lineHash): the same on every read of a tick, different from
// tick to tick and seed to seed.

// TraceSpan is a span a service's traces show beside its own (a trace
// block's span in the language).
type TraceSpan struct {
	Kind SpanKind `json:"kind"`
	// Name is the span's name as a tracing UI shows it.
	Name      string `json:"name"`
	Latency   SlotID `json:"latency"`
	ErrorRate SlotID `json:"error_rate"`
	// Status is a string slot shown as the span's status; NoSlot shows
	// the service's status.
	Status SlotID `json:"status"`
	// Wait is the time a consumer's work waited in the queue (consumer).
	Wait SlotID `json:"wait"`
	// Calls are the services a consumer span calls: their spans sit under
	// it rather than under the service's own.
	Calls []int16 `json:"calls,omitempty"`
}

// SpanKind is what a declared span is, as OpenTelemetry's SpanKind.
type SpanKind uint8

const (
	// SpanClient is a call to something outside the system: a leaf
	// under the service's span.
	SpanClient SpanKind = iota + 1
	// SpanConsumer is the consumers' side of the work a service queues:
	// a linked trace of its own.
	SpanConsumer
)

func (k SpanKind) String() string {
	switch k {
	case SpanClient:
		return "client"
	case SpanConsumer:
		return "consumer"
	}
	return "span_kind_" + strconv.Itoa(int(k))
}

// MaxTraceSpans bounds the spans a service declares beside its own, so
// that span ids have room (spanLine).
const MaxTraceSpans = 8

// traceNode is one span of a trace read: a service's own span (decl < 0)
// or one it declares; linked > 0 numbers the linked trace it belongs to.
type traceNode struct {
	svc    int16
	decl   int8
	depth  int8
	parent int16 // node index, -1 for a trace's root
	linked int8
	// owner is the service whose consumer span roots the linked trace.
	owner int16
}

// maxSpanDepth bounds a trace's depth (the request path is at most load
// balancer, web tier, its dependencies, theirs).
const maxSpanDepth = 4

// traceTree lays out the trace read through root: the request's tree,
// then each linked consumer trace, in dst.
func (t *Task) traceTree(dst []traceNode, root int) []traceNode {
	dst = dst[:0]
	shown := uint64(1) << uint(root&63)
	dst = t.spanTree(dst, root, 1, -1, 0, -1, &shown)
	// The consumer sides of the services the request reached, in the
	// order reached.
	main := len(dst)
	linked := int8(0)
	for i := 0; i < main; i++ {
		n := dst[i]
		if n.decl >= 0 {
			continue
		}
		for j, sp := range t.Services[n.svc].Spans {
			if sp.Kind != SpanConsumer || linked == math.MaxInt8 {
				continue
			}
			linked++
			at := int16(len(dst))
			dst = append(dst, traceNode{svc: n.svc, decl: int8(j), depth: 1, parent: -1, linked: linked, owner: n.svc})
			seen := uint64(1) << uint(n.svc&63)
			for _, d := range sp.Calls {
				if d >= 64 || seen&(1<<uint(d)) != 0 {
					continue
				}
				seen |= 1 << uint(d)
				dst = t.spanTree(dst, int(d), 2, at, linked, n.svc, &seen)
			}
		}
	}
	return dst
}

// spanTree appends svc's span and, depth first, the spans under it.
func (t *Task) spanTree(dst []traceNode, svc, depth int, parent int16, linked int8, owner int16, shown *uint64) []traceNode {
	at := int16(len(dst))
	dst = append(dst, traceNode{svc: int16(svc), decl: -1, depth: int8(depth), parent: parent, linked: linked, owner: owner})
	if depth >= maxSpanDepth {
		return dst
	}
	s := &t.Services[svc]
	for _, d := range s.Deps {
		if d >= 64 || *shown&(1<<uint(d)) != 0 || consumerCalls(s, d) {
			continue
		}
		*shown |= 1 << uint(d)
		dst = t.spanTree(dst, int(d), depth+1, at, linked, owner, shown)
	}
	for j, sp := range s.Spans {
		if sp.Kind == SpanClient {
			dst = append(dst, traceNode{svc: int16(svc), decl: int8(j), depth: int8(depth + 1), parent: at, linked: linked, owner: owner})
		}
	}
	return dst
}

// consumerCalls says a consumer span of s calls d: d's span sits under
// the consumer's, not under s's own.
func consumerCalls(s *Service, d int16) bool {
	for _, sp := range s.Spans {
		if sp.Kind != SpanConsumer {
			continue
		}
		for _, c := range sp.Calls {
			if c == d {
				return true
			}
		}
	}
	return false
}

// traceLine is the lineHash line of a trace's id; span ids and linked
// traces take lines above it (spanLine).
const traceLine = -3 << 20

// spanLine is the lineHash line of a node's span id in the trace read
// through root: services' spans of the request's tree keep the lines they
// had before spans were declared; declared spans and the spans of linked
// traces take lines of their own, all within 2^20 above traceLine.
func spanLine(root int, n traceNode) int {
	switch {
	case n.decl >= 0:
		return traceLine + 1<<16 + root<<10 + int(n.svc)<<4 + int(n.decl)
	case n.linked > 0:
		return traceLine + 4<<16 + root<<12 + int(n.owner)<<6 + int(n.svc)
	}
	return traceLine + 1 + int(n.svc) + root<<8
}

func (e *Episode) nodeID(root int, n traceNode) uint64 {
	return e.lineHash(int(n.svc), e.tick, spanLine(root, n))
}

// appendLinkedTraceID writes the id of the consumer trace of owner read
// through root.
func (e *Episode) appendLinkedTraceID(b []byte, root, owner int) []byte {
	b = appendHex(b, e.lineHash(owner, e.tick, traceLine+2<<16+root<<8+owner), 16)
	return appendHex(b, e.lineHash(owner, e.tick, traceLine+3<<16+root<<8+owner), 16)
}

// Span figures are derived quantities, not metrics, so they carry no
// precision of their own.
const (
	spanLatencyDigits = 1
	spanErrorDigits   = 3
)

// spanFigures are a node's shown figures: its duration, already cut at
// its parent's end (parent: the parent's duration, +Inf for a root), its
// error share, and (consumer) its queue wait.
type spanFigures struct {
	dur, errs, wait       float64
	hasDur, hasErr, hasWt bool
}

func (e *Episode) spanFigures(n traceNode, parent float64) (f spanFigures) {
	lat, errs, wait := e.nodeSlots(n)
	if lat != NoSlot {
		f.dur, f.hasDur = e.metricAt(lat, e.tick), true
		if f.dur > parent {
			f.dur = parent
		}
	} else {
		f.dur = parent
	}
	if errs != NoSlot {
		f.errs, f.hasErr = e.metricAt(errs, e.tick), true
	}
	if wait != NoSlot {
		f.wait, f.hasWt = e.metricAt(wait, e.tick), true
	}
	return f
}

// nodeSlots are the slots of a node's latency, error share and queue
// wait.
func (t *Task) nodeSlots(n traceNode) (lat, errs, wait SlotID) {
	s := &t.Services[n.svc]
	if n.decl < 0 {
		return s.Latency, s.ErrorRate, NoSlot
	}
	sp := &s.Spans[n.decl]
	return sp.Latency, sp.ErrorRate, sp.Wait
}

func (e *Episode) nodeSlots(n traceNode) (lat, errs, wait SlotID) { return e.t.nodeSlots(n) }

// appendNodeStatus writes a node's status: a declared span's own, else
// its service's.
func (e *Episode) appendNodeStatus(b []byte, n traceNode) []byte {
	if n.decl >= 0 {
		if st := e.t.Services[n.svc].Spans[n.decl].Status; st != NoSlot {
			return append(b, e.String(StrID(e.Row()[st]))...)
		}
	}
	return e.appendStatus(b, int(n.svc), e.tick)
}

// traceDurations fills e.spanDur with each node's shown duration.
func (e *Episode) traceDurations() {
	e.spanDur = e.spanDur[:0]
	for _, n := range e.spans {
		parent := math.Inf(1)
		if n.parent >= 0 {
			parent = e.spanDur[n.parent]
		}
		e.spanDur = append(e.spanDur, e.spanFigures(n, parent).dur)
	}
}

func (e *Episode) appendTraceHeader(b []byte, svc int) []byte {
	b = append(b, " trace_id="...)
	b = appendHex(b, e.lineHash(svc, e.tick, traceLine), 16)
	b = appendHex(b, e.lineHash(svc, e.tick, traceLine-1), 16)
	b = append(b, " t="...)
	b = strconv.AppendInt(b, int64(e.tick), 10)
	b = append(b, ' ')
	return e.appendLogTime(b, svc, e.tick, 0)
}

func (e *Episode) appendTraces(b []byte, svc int) []byte {
	t := e.t
	b = append(b, "sampled trace through "...)
	b = append(b, t.Services[svc].Name...)
	b = e.appendTraceHeader(b, svc)
	b = append(b, ":\n"...)
	e.spans = t.traceTree(e.spans, svc)
	e.traceDurations()
	for _, n := range e.spans {
		if n.linked > 0 && n.parent < 0 {
			b = append(b, "linked trace trace_id="...)
			b = e.appendLinkedTraceID(b, svc, int(n.owner))
			b = append(b, " t="...)
			b = strconv.AppendInt(b, int64(e.tick), 10)
			b = append(b, ' ')
			b = e.appendLogTime(b, int(n.owner), e.tick, 1)
			b = append(b, " (consumer side, follows from the "...)
			b = append(b, t.Services[n.owner].Name...)
			b = append(b, " span):\n"...)
		}
		for d := int8(0); d < n.depth; d++ {
			b = append(b, "  "...)
		}
		b = append(b, "span "...)
		if n.decl >= 0 {
			sp := &t.Services[n.svc].Spans[n.decl]
			b = append(b, sp.Name...)
			b = append(b, " span_id="...)
			b = appendHex(b, e.nodeID(svc, n), 16)
			b = append(b, " kind="...)
			b = append(b, sp.Kind.String()...)
			b = append(b, " service="...)
			b = append(b, t.Services[n.svc].Name...)
		} else {
			b = append(b, t.Services[n.svc].Name...)
			b = append(b, " span_id="...)
			b = appendHex(b, e.nodeID(svc, n), 16)
		}
		parent := math.Inf(1)
		if n.parent >= 0 {
			parent = e.spanDur[n.parent]
		}
		f := e.spanFigures(n, parent)
		if f.hasWt {
			b = append(b, " queue_wait_ms="...)
			b = appendFixed(b, f.wait, 0)
		}
		if f.hasDur {
			b = append(b, " duration_ms="...)
			b = appendFixed(b, f.dur, spanLatencyDigits)
		}
		if f.hasErr {
			b = append(b, " error_rate="...)
			b = appendFixed(b, f.errs, spanErrorDigits)
		}
		b = append(b, " status="...)
		b = e.appendNodeStatus(b, n)
		b = append(b, '\n')
	}
	return b
}

// appendTracesJSON writes a trace read's content: the request's spans,
// and the linked consumer traces with the span each follows from.
func (e *Episode) appendTracesJSON(b []byte, svc int) []byte {
	t := e.t
	b = append(b, `{"trace_id":"`...)
	b = appendHex(b, e.lineHash(svc, e.tick, traceLine), 16)
	b = appendHex(b, e.lineHash(svc, e.tick, traceLine-1), 16)
	b = append(b, `","time":"`...)
	b = e.appendLogTime(b, svc, e.tick, 0)
	b = append(b, `","spans":[`...)
	e.spans = t.traceTree(e.spans, svc)
	e.traceDurations()
	first := true
	inLinked := false
	for _, n := range e.spans {
		if n.linked > 0 && n.parent < 0 {
			if !inLinked {
				b = append(b, `],"linked":[`...)
			} else {
				b = append(b, "]},"...)
			}
			inLinked, first = true, true
			b = append(b, `{"trace_id":"`...)
			b = e.appendLinkedTraceID(b, svc, int(n.owner))
			b = append(b, `","time":"`...)
			b = e.appendLogTime(b, int(n.owner), e.tick, 1)
			b = append(b, `","follows_from":"`...)
			b = appendHex(b, e.nodeID(svc, e.ownerNode(n.owner)), 16)
			b = append(b, `","spans":[`...)
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = e.appendNodeJSON(b, svc, n)
	}
	if inLinked {
		b = append(b, "]}"...)
	}
	return append(b, "]}"...)
}

// ownerNode is the node of owner's own span in the request's tree.
func (e *Episode) ownerNode(owner int16) traceNode {
	for _, n := range e.spans {
		if n.svc == owner && n.decl < 0 && n.linked == 0 {
			return n
		}
	}
	return traceNode{svc: owner, decl: -1}
}

func (e *Episode) appendNodeJSON(b []byte, root int, n traceNode) []byte {
	t := e.t
	b = append(b, `{"service":`...)
	b = value.AppendJSONString(b, t.Services[n.svc].Name)
	if n.decl >= 0 {
		sp := &t.Services[n.svc].Spans[n.decl]
		b = append(b, `,"name":`...)
		b = value.AppendJSONString(b, sp.Name)
		b = append(b, `,"kind":"`...)
		b = append(b, sp.Kind.String()...)
		b = append(b, '"')
	}
	b = append(b, `,"depth":`...)
	b = strconv.AppendInt(b, int64(n.depth), 10)
	b = append(b, `,"span_id":"`...)
	b = appendHex(b, e.nodeID(root, n), 16)
	b = append(b, '"')
	parent := math.Inf(1)
	if n.parent >= 0 {
		b = append(b, `,"parent_id":"`...)
		b = appendHex(b, e.nodeID(root, e.spans[n.parent]), 16)
		b = append(b, '"')
		parent = e.spanDur[n.parent]
	}
	f := e.spanFigures(n, parent)
	for _, x := range [3]struct {
		name   string
		v      float64
		has    bool
		digits int
	}{{`,"queue_wait_ms":`, f.wait, f.hasWt, 0}, {`,"duration_ms":`, f.dur, f.hasDur, spanLatencyDigits}, {`,"error_rate":`, f.errs, f.hasErr, spanErrorDigits}} {
		if !x.has {
			continue
		}
		b = append(b, x.name...)
		if math.IsNaN(x.v) || math.IsInf(x.v, 0) {
			b = append(b, "null"...)
		} else {
			b = appendFixed(b, x.v, x.digits)
		}
	}
	b = append(b, `,"status":`...)
	e.line = e.appendNodeStatus(e.line[:0], n)
	b = value.AppendJSONBytes(b, e.line)
	return append(b, '}')
}

// appendTraceReadSlots appends the slots a trace read through root shows
// (AppendReadSlots).
func (t *Task) appendTraceReadSlots(dst []Shown, root, tick int, status func([]Shown, int) []Shown, at func(SlotID, int, int8) Shown) []Shown {
	var buf [64]traceNode
	for _, n := range t.traceTree(buf[:0], root) {
		lat, errs, wait := t.nodeSlots(n)
		for _, x := range [3]struct {
			sl     SlotID
			digits int8
		}{{wait, 0}, {lat, spanLatencyDigits}, {errs, spanErrorDigits}} {
			if x.sl != NoSlot {
				dst = append(dst, at(x.sl, tick, x.digits))
			}
		}
		if n.decl >= 0 {
			if st := t.Services[n.svc].Spans[n.decl].Status; st != NoSlot {
				dst = append(dst, at(st, tick, -1))
				continue
			}
		}
		dst = status(dst, int(n.svc))
	}
	return dst
}
