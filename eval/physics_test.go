package eval_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/srezc/srezc/action"
	"github.com/srezc/srezc/agents"
	"github.com/srezc/srezc/compiler"
	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/eval"
	"github.com/srezc/srezc/lang"
	"github.com/srezc/srezc/value"
	"golang.org/x/tools/txtar"
)

// The invariants of the world model (issue 19 item 2): what an SRE takes
// for granted in telemetry, written against what a read shows (metrics as
// rounded, noise off) of every service at a tick. Each names the rule it
// holds; a violation names the incident, tick, service and values.

// world is every service's snapshot at one tick, by name.
type world struct {
	t     *engine.Task
	snaps map[string]*engine.ServiceSnapshot
	// traces holds, per service, the spans of the trace read through it
	// (the next tick's, as a read shows it).
	traces map[string][]span
}

// span is one span of a trace read, as the JSON observation gives it: a
// service's own span, or one it declares (Name and Kind: a client call to
// something outside the system, a consumer's run of queued work). Spans
// of a linked trace carry its id in Linked.
type span struct {
	Service  string   `json:"service"`
	Name     string   `json:"name"`
	Kind     string   `json:"kind"`
	Depth    int      `json:"depth"`
	ID       string   `json:"span_id"`
	Parent   string   `json:"parent_id"`
	Duration *float64 `json:"duration_ms"`
	Linked   string   `json:"-"`
}

func (w world) metric(svc, name string) (float64, bool) {
	s := w.snaps[svc]
	if s == nil {
		return 0, false
	}
	for _, f := range s.Metrics {
		if f.Name == name {
			return f.Value.AsFloat(), true
		}
	}
	return 0, false
}

func (w world) config(svc, name string) (value.Value, bool) {
	s := w.snaps[svc]
	if s == nil {
		return value.Value{}, false
	}
	for _, f := range s.Config {
		if f.Name == name {
			return f.Value, true
		}
	}
	return value.Value{}, false
}

// invariant checks one service (kind "" for every kind) and returns what
// breaks, "" when it holds.
type invariant struct {
	name string
	kind string
	// check sees the whole tick, so that rules across services (rates along
	// the request path) can be written.
	check func(w world, svc string) string
}

// shareMetrics are shares of something, between 0 and 1.
var shareMetrics = []string{"error_rate_5xx", "error_rate_504", "http_5xx_rate", "refused_503_rate", "timeout_504_rate", "other_5xx_rate", "client_error_rate", "query_error_rate", "publish_error_rate", "redelivery_rate",
	"hit_rate", "paylane_api_error_rate"}

// requestRates name, per kind, the metric counting the work whose errors
// the kind's error share counts.
var requestRates = map[string][2]string{
	"web_server":    {"request_rate", "error_rate_5xx"},
	"load_balancer": {"request_rate", "client_error_rate"},
	"database":      {"queries_per_s", "query_error_rate"},
	"cache":         {"requests_per_s", "hit_rate"},
	"message_queue": {"", "publish_error_rate"},
}

var invariants = []invariant{
	{name: "a share lies in [0, 1]", check: func(w world, svc string) string {
		for _, m := range shareMetrics {
			if v, ok := w.metric(svc, m); ok && (v < 0 || v > 1) {
				return fmt.Sprintf("%s = %g", m, v)
			}
		}
		return ""
	}},
	{name: "a percentage lies in [0, 100]", check: func(w world, svc string) string {
		for _, f := range w.snaps[svc].Metrics {
			if strings.HasSuffix(f.Name, "_pct") && (f.Value.AsFloat() < 0 || f.Value.AsFloat() > 100) {
				return fmt.Sprintf("%s = %g", f.Name, f.Value.AsFloat())
			}
		}
		return ""
	}},
	{name: "a rate, count or duration is not negative", check: func(w world, svc string) string {
		for _, f := range w.snaps[svc].Metrics {
			if f.Name != "cert_days_to_expiry" && f.Value.K.Numeric() && f.Value.AsFloat() < 0 {
				return fmt.Sprintf("%s = %g", f.Name, f.Value.AsFloat())
			}
		}
		return ""
	}},
	{name: "errors and hits need requests", check: func(w world, svc string) string {
		// A stopped or restarting process counts nothing; what its
		// clients see is "a down service serves nothing".
		if st := w.snaps[svc].Status; st == statusDown || st == "restarting" {
			return ""
		}
		kind := w.kind(svc)
		pair, ok := requestRates[kind]
		if !ok || pair[0] == "" {
			return ""
		}
		rate, ok1 := w.metric(svc, pair[0])
		share, ok2 := w.metric(svc, pair[1])
		if ok1 && ok2 && rate == 0 && share > 0 {
			return fmt.Sprintf("%s = %g with %s = 0", pair[1], share, pair[0])
		}
		return ""
	}},
	{name: "worker utilisation is at most 1 (no request queue is shown)", kind: "web_server", check: func(w world, svc string) string {
		if u, ok := w.metric(svc, "worker_utilization"); ok && u > 1 {
			return fmt.Sprintf("worker_utilization = %g", u)
		}
		return ""
	}},
	{name: "Little's law: requests in flight fit the workers", kind: "web_server", check: func(w world, svc string) string {
		rate, ok1 := w.metric(svc, "request_rate")
		p95, ok2 := w.metric(svc, "p95_latency_ms")
		workers, ok3 := w.config(svc, "max_workers")
		if !ok1 || !ok2 || !ok3 {
			return ""
		}
		// Requests in the tier are those its threads serve (8 per worker,
		// as max_workers documents) and those the listen queue shows. The
		// median is at most the 95th percentile; half of it is a generous
		// mean for the latency shapes the world draws.
		queued, _ := w.metric(svc, "listen_queue")
		inFlight := rate * p95 / 2 / 1000
		if limit := workers.AsFloat()*threadsPerWorker*1.1 + 1 + queued; inFlight > limit {
			return fmt.Sprintf("%g requests/s × %g ms p95 ≈ %.0f in flight, %g workers × %d threads, %g queued", rate, p95, inFlight, workers.AsFloat(), threadsPerWorker, queued)
		}
		return ""
	}},
	{name: "open connections fit the connection limit", kind: "database", check: func(w world, svc string) string {
		active, ok1 := w.metric(svc, "active_connections")
		limit, ok2 := w.config(svc, "max_connections")
		if ok1 && ok2 && active > limit.AsFloat() {
			return fmt.Sprintf("active_connections = %g, max_connections = %g", active, limit.AsFloat())
		}
		return ""
	}},
	{name: "a backlog's age needs a backlog", kind: "message_queue", check: func(w world, svc string) string {
		depth, ok1 := w.metric(svc, "queue_depth")
		lag, ok2 := w.metric(svc, "consumer_lag_ms")
		if ok1 && ok2 && depth == 0 && lag > 0 {
			return fmt.Sprintf("consumer_lag_ms = %g with queue_depth = 0", lag)
		}
		return ""
	}},
	{name: "a down service serves nothing", check: func(w world, svc string) string {
		if w.snaps[svc].Status != statusDown {
			return ""
		}
		pair, ok := requestRates[w.kind(svc)]
		if !ok || pair[0] == "" {
			return ""
		}
		if v, ok := w.metric(svc, pair[0]); ok && v > 0 {
			return fmt.Sprintf("down, %s = %g", pair[0], v)
		}
		return ""
	}},
	{name: "a parent span lasts at least as long as each of its children", check: func(w world, svc string) string {
		spans := w.traces[svc]
		byID := map[string]span{}
		for _, s := range spans {
			byID[s.ID] = s
		}
		for _, s := range spans {
			p, ok := byID[s.Parent]
			if ok && s.Duration != nil && p.Duration != nil && *s.Duration > *p.Duration {
				return fmt.Sprintf("span %s %g ms under %s %g ms", s.Service, *s.Duration, p.Service, *p.Duration)
			}
		}
		return ""
	}},
	{name: "every hop on the request path has a span", check: func(w world, svc string) string {
		spans, ok := w.traces[svc]
		if !ok {
			return ""
		}
		shown := map[string]bool{}
		for _, s := range spans {
			if s.Name == "" {
				shown[s.Service] = true
			}
		}
		path := w.path(svc)
		for _, hop := range path {
			if !shown[hop] {
				return fmt.Sprintf("the trace through %s has no span for %s", svc, hop)
			}
		}
		// The hops the system does not model as services: every call a
		// service on the path declares to something outside (the card
		// processor), and the consumer side of the work it queues, with
		// the services the consumers call under it.
		for _, on := range append([]string{svc}, path...) {
			for _, decl := range w.service(on).Spans {
				var found *span
				for i := range spans {
					if spans[i].Service == on && spans[i].Name == decl.Name && spans[i].Kind == decl.Kind.String() {
						found = &spans[i]
					}
				}
				if found == nil {
					return fmt.Sprintf("the trace through %s has no %s span %q of %s", svc, decl.Kind, decl.Name, on)
				}
				for _, d := range decl.Calls {
					callee := w.t.Services[d].Name
					under := false
					for _, s := range spans {
						under = under || s.Service == callee && s.Name == "" && s.Parent == found.ID
					}
					if !under {
						return fmt.Sprintf("the trace through %s shows no %s span under %s's %q", svc, callee, on, decl.Name)
					}
				}
			}
		}
		return ""
	}},
	{name: "a request's queue wait fits its deadline and shows in p95 and errors", kind: "web_server", check: func(w world, svc string) string {
		rate, ok1 := w.metric(svc, "request_rate")
		queued, ok2 := w.metric(svc, "listen_queue")
		p95, ok3 := w.metric(svc, "p95_latency_ms")
		deadline, ok4 := w.config(svc, "timeout_ms")
		if !ok1 || !ok2 || !ok3 || !ok4 || rate <= 0 {
			return ""
		}
		// Little's law on the queue: its mean wait is its length over the
		// arrival rate (the length is shown rounded to a request).
		wait := queued / rate * 1000
		slack := 0.5 / rate * 1000
		switch limit := deadline.AsFloat(); {
		case wait > limit*1.02+slack:
			return fmt.Sprintf("listen_queue %g at %g requests/s waits %.0f ms, deadline %g ms", queued, rate, wait, limit)
		case p95 < wait-slack:
			return fmt.Sprintf("p95 %g ms below the queue's mean wait %.0f ms", p95, wait)
		case wait >= limit*0.98 && p95 < limit:
			return fmt.Sprintf("requests wait out the %g ms deadline, p95 %g ms", limit, p95)
		}
		if e, ok := w.metric(svc, "error_rate_5xx"); ok && wait >= deadline.AsFloat()*0.98 && e == 0 {
			return fmt.Sprintf("requests wait out the %g ms deadline with error_rate_5xx = 0", deadline.AsFloat())
		}
		return ""
	}},
	{name: "a backlog's age is its depth over its drain rate", kind: "message_queue", check: func(w world, svc string) string {
		depth, ok1 := w.metric(svc, "queue_depth")
		lag, ok2 := w.metric(svc, "consumer_lag_ms")
		ack, ok3 := w.metric(svc, "ack_rate")
		if !ok1 || !ok2 || !ok3 || ack <= 0 || depth == 0 {
			return ""
		}
		// ack_rate is shown to 0.1 messages/s.
		lo, hi := depth/(ack+0.05)*1000, depth/max(ack-0.05, 0.01)*1000
		if lag < lo*0.98-1 || lag > hi*1.02+1 {
			return fmt.Sprintf("consumer_lag_ms = %g with queue_depth = %g draining at %g/s (%.0f ms)", lag, depth, ack, depth/ack*1000)
		}
		return ""
	}},
	{name: "4xx and 5xx are counted apart, and every 5xx fails at the balancer", kind: "load_balancer", check: func(w world, svc string) string {
		lbRate, ok1 := w.metric(svc, "request_rate")
		lbErr, ok2 := w.metric(svc, "client_error_rate")
		if !ok1 || !ok2 {
			return ""
		}
		for _, d := range w.snaps[svc].Dependencies {
			if w.kind(d) != "web_server" {
				continue
			}
			rate, _ := w.metric(d, "request_rate")
			e5, ok5 := w.metric(d, "error_rate_5xx")
			e4, ok4 := w.metric(d, "error_rate_4xx")
			if !ok5 || !ok4 {
				return fmt.Sprintf("%s shows no separate 4xx and 5xx shares", d)
			}
			// Shares are shown to 0.001.
			if e4+e5 > 1.002 {
				return fmt.Sprintf("%s: error_rate_4xx %g + error_rate_5xx %g > 1", d, e4, e5)
			}
			if rate*e5 > lbRate*lbErr*1.02+rate*0.001+lbRate*0.001 {
				return fmt.Sprintf("%s answers %.1f 5xx/s, %s counts %.1f failed requests/s", d, rate*e5, svc, lbRate*lbErr)
			}
		}
		return ""
	}},
	{name: "refused, timed out and other 5xx add up to the balancer's 5xx, and the web tier's 5xx show there", kind: "load_balancer", check: func(w world, svc string) string {
		lbRate, ok0 := w.metric(svc, "request_rate")
		all, ok1 := w.metric(svc, "http_5xx_rate")
		refused, ok2 := w.metric(svc, "refused_503_rate")
		timedOut, ok3 := w.metric(svc, "timeout_504_rate")
		other, ok4 := w.metric(svc, "other_5xx_rate")
		failed, ok5 := w.metric(svc, "client_error_rate")
		if !ok0 || !ok1 || !ok2 || !ok3 || !ok4 || !ok5 {
			return "the balancer shows no 5xx split into refused, timed out and other"
		}
		// Shares are shown to 0.001: four roundings.
		if d := refused + timedOut + other - all; d > 0.002 || d < -0.002 {
			return fmt.Sprintf("refused %g + timed out %g + other %g = %g, http_5xx_rate %g", refused, timedOut, other, refused+timedOut+other, all)
		}
		if all > failed+0.001 {
			return fmt.Sprintf("http_5xx_rate %g above client_error_rate %g", all, failed)
		}
		for _, d := range w.snaps[svc].Dependencies {
			if w.kind(d) != "web_server" {
				continue
			}
			rate, _ := w.metric(d, "request_rate")
			e5, ok5 := w.metric(d, "error_rate_5xx")
			e504, ok504 := w.metric(d, "error_rate_504")
			if !ok5 || !ok504 {
				return fmt.Sprintf("%s shows no 504 share apart from its 5xx", d)
			}
			if e504 > e5+0.001 {
				return fmt.Sprintf("%s: error_rate_504 %g above error_rate_5xx %g", d, e504, e5)
			}
			slack := rate*0.001 + lbRate*0.001
			if rate*e504 > lbRate*timedOut*1.02+slack {
				return fmt.Sprintf("%s answers %.1f 504/s, %s shows %.1f timed out/s", d, rate*e504, svc, lbRate*timedOut)
			}
			// A 500 the server answers after the balancer's own timeout is
			// a 504 there (sH), so the server's 5xx show as timed out or
			// other 5xx together.
			if rate*e5 > lbRate*(timedOut+other)*1.02+slack+rate*0.001 {
				return fmt.Sprintf("%s answers %.1f 5xx/s, %s shows %.1f timed out or other 5xx/s", d, rate*e5, svc, lbRate*(timedOut+other))
			}
		}
		return ""
	}},
	{name: "the web tier serves no more than the load balancer forwards", kind: "load_balancer", check: func(w world, svc string) string {
		lb, ok := w.metric(svc, "request_rate")
		if !ok {
			return ""
		}
		for _, d := range w.snaps[svc].Dependencies {
			if w.kind(d) != "web_server" {
				continue
			}
			if web, ok := w.metric(d, "request_rate"); ok && web > lb*1.05+1 {
				return fmt.Sprintf("%s.request_rate = %g, %s.request_rate = %g", d, web, svc, lb)
			}
		}
		return ""
	}},
}

// path is every service a request through svc reaches: its dependencies
// and theirs.
func (w world) path(svc string) []string {
	idx := map[string]int{}
	for i, s := range w.t.Services {
		idx[s.Name] = i
	}
	seen := map[string]bool{svc: true}
	var out []string
	var walk func(i int)
	walk = func(i int) {
		for _, d := range w.t.Services[i].Deps {
			n := w.t.Services[d].Name
			if !seen[n] {
				seen[n] = true
				out = append(out, n)
				walk(int(d))
			}
		}
	}
	if i, ok := idx[svc]; ok {
		walk(i)
	}
	return out
}

// readTraces reads the trace through every service, one fork each (a
// read is a step, so the spans are the next tick's).
func readTraces(ep *engine.Episode) map[string][]span {
	out := map[string][]span{}
	if ep.Done() {
		return out
	}
	var buf []byte
	for _, s := range ep.Task().Services {
		f := ep.Fork()
		a := action.Bind(ep.Task(), "inspect_traces("+s.Name+")")
		r := f.Step(&a)
		buf = f.AppendJSON(buf[:0], &r.Obs)
		var v struct {
			Content struct {
				Spans  []span `json:"spans"`
				Linked []struct {
					TraceID string `json:"trace_id"`
					Spans   []span `json:"spans"`
				} `json:"linked"`
			} `json:"content"`
		}
		if err := json.Unmarshal(buf, &v); err == nil && len(v.Content.Spans) > 0 {
			spans := v.Content.Spans
			for _, l := range v.Content.Linked {
				for _, sp := range l.Spans {
					sp.Linked = l.TraceID
					spans = append(spans, sp)
				}
			}
			out[s.Name] = spans
		}
	}
	return out
}

func (w world) service(name string) *engine.Service {
	for i := range w.t.Services {
		if w.t.Services[i].Name == name {
			return &w.t.Services[i]
		}
	}
	return &engine.Service{}
}

func (w world) kind(svc string) string {
	for _, s := range w.t.Services {
		if s.Name == svc {
			return s.Kind
		}
	}
	return ""
}

// violation is one broken invariant at one tick.
type violation struct {
	incident, invariant, service, what, trajectory string
	tick                                           int
}

// checkTick evaluates every invariant on every service of the episode's
// current tick.
func checkTick(ep *engine.Episode, trajectory string, out []violation) []violation {
	snaps := ep.Snapshot()
	w := world{t: ep.Task(), snaps: map[string]*engine.ServiceSnapshot{}, traces: readTraces(ep)}
	for i := range snaps {
		w.snaps[snaps[i].Name] = &snaps[i]
	}
	for _, s := range ep.Task().Services {
		for _, inv := range invariants {
			if inv.kind != "" && inv.kind != s.Kind {
				continue
			}
			if what := inv.check(w, s.Name); what != "" {
				out = append(out, violation{ep.Task().ID, inv.name, s.Name, what, trajectory, ep.Tick()})
			}
		}
	}
	return out
}

// replayChecked plays actions from seed, checking every tick: the first
// one and the one after each action.
func replayChecked(t *engine.Task, seed uint64, actions []string, trajectory string, out []violation) []violation {
	ep := engine.NewEpisode(t)
	ep.Reset(seed)
	out = checkTick(ep, trajectory, out)
	for _, a := range actions {
		if ep.Done() {
			break
		}
		act := action.Bind(t, a)
		ep.Step(&act)
		out = checkTick(ep, trajectory, out)
	}
	return out
}

// trajectory is a sequence of actions from a seed.
type trajectory struct {
	seed    uint64
	actions []string
}

// trajectories are the action sequences the test checks on one incident:
// the expert plan, its near misses, and episodes of the random agent, the
// greedy baseline and every adaptive blind policy.
func trajectories(t *testing.T, tk *engine.Task, k *agents.Knowledge) map[string]trajectory {
	t.Helper()
	out := map[string]trajectory{"expert": {1, tk.Expert}}
	if ar, err := txtar.ParseFile(filepath.Join(tracesDir, tk.ID+".txtar")); err == nil {
		for name, plan := range plans(t, tk, ar) {
			out["near miss "+name] = trajectory{1, plan}
		}
	}
	played := func(name string, a agents.Agent, seed uint64) {
		ep := eval.Play(tk, a, 0, seed, true)
		var acts []string
		for _, s := range ep.Steps {
			acts = append(acts, s.Action)
		}
		out[fmt.Sprintf("%s seed %d", name, seed)] = trajectory{seed, acts}
	}
	for seed := uint64(1); seed <= 2; seed++ {
		played("random", agents.NewRandom(seed), seed)
	}
	for _, p := range agents.Adversaries(k) {
		played(p.Name, p.New(), 1)
	}
	return out
}

// threadsPerWorker is the web tier's request threads per worker process
// (stdlib/services/web_server.srez.hcl, max_workers).
const threadsPerWorker = 8

// statusDown is the status a stopped service shows.
const statusDown = "down"

// mutatedSample is a sample of a mutation over db_pool's database fault
// kinds, whose expert plans the physics test also checks. Its seed draws
// variants of each kind that certify under the full panel (seed 19 drew
// none).
func mutatedSample(t *testing.T) []*engine.Task {
	t.Helper()
	src := `mutation "physics_sample" {
  from        = "db_pool"
  faults      = ["db_pool_too_small", "db_max_connections_low", "db_query_timeout_low", "db_maintenance_mode"]
  distractors = ["none", "noisy_warning"]
  noise       = ["none", "jitter"]
}
`
	m, diags := lang.Analyze(append(lang.ScenarioFiles(), &lang.File{Name: "physics.srez.hcl", Src: []byte(src)}))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	var out []*engine.Task
	compiler.Mutate(m, m.Mutation("physics_sample"), compiler.MutateOptions{Sample: 8, Seed: 4}, func(v *compiler.Variant) {
		if v.Task != nil {
			out = append(out, v.Task)
		}
	})
	if len(out) == 0 {
		t.Fatal("the mutation emitted no variant")
	}
	return out
}

const physicsKnown = "testdata/physics_known.txt"

// TestWorldPhysics evaluates the invariants on every tick of every shipped
// incident along its expert plan, near misses, random episodes and the
// blind panel. The world does not hold them all yet: the (invariant,
// incident) pairs that break are listed in testdata/physics_known.txt,
// which may only shrink (SREZC_UPDATE=1 rewrites it); a break not listed
// fails, naming the incident, trajectory, tick, service and values.
func TestWorldPhysics(t *testing.T) {
	tasks, k := shippedSuite(t)
	first := map[[2]string]violation{}
	for _, tk := range tasks {
		paths := trajectories(t, tk, k)
		names := make([]string, 0, len(paths))
		for n := range paths {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			for _, v := range replayChecked(tk, paths[n].seed, paths[n].actions, n, nil) {
				key := [2]string{v.invariant, v.incident}
				if _, seen := first[key]; !seen {
					first[key] = v
				}
			}
		}
	}
	for _, tk := range mutatedSample(t) {
		for _, v := range replayChecked(tk, 1, tk.Expert, "expert", nil) {
			// Variants are named by their content hash; the pair is the
			// mutation's.
			key := [2]string{v.invariant, "mutated db_pool variants"}
			if _, seen := first[key]; !seen {
				v.trajectory = v.incident + " expert"
				v.incident = key[1]
				first[key] = v
			}
		}
	}
	keys := make([][2]string, 0, len(first))
	for key := range first {
		keys = append(keys, key)
	}
	slices.SortFunc(keys, func(a, b [2]string) int { return strings.Compare(a[0]+"\x00"+a[1], b[0]+"\x00"+b[1]) })
	var b bytes.Buffer
	b.WriteString("# (invariant, incident) pairs the world still breaks, with the first tick seen.\n")
	b.WriteString("# TestWorldPhysics fails on a pair not listed here; the list only shrinks.\n")
	b.WriteString("# Regenerate: SREZC_UPDATE=1 go test ./eval -run TestWorldPhysics\n")
	perInvariant := map[string]int{}
	for _, key := range keys {
		v := first[key]
		perInvariant[v.invariant]++
		fmt.Fprintf(&b, "%s | %s | %s tick %d | %s: %s\n", v.invariant, v.incident, v.trajectory, v.tick, v.service, v.what)
	}
	if os.Getenv("SREZC_UPDATE") == "1" {
		if err := os.WriteFile(physicsKnown, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	known := map[[2]string]bool{}
	data, err := os.ReadFile(physicsKnown)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		parts := strings.Split(line, " | ")
		if strings.HasPrefix(line, "#") || len(parts) < 2 {
			continue
		}
		known[[2]string{parts[0], parts[1]}] = true
	}
	for _, key := range keys {
		if !known[key] {
			v := first[key]
			t.Errorf("%s: %s, tick %d, %s breaks %q: %s", v.incident, v.trajectory, v.tick, v.service, v.invariant, v.what)
		}
	}
	for key := range known {
		if _, ok := first[key]; !ok {
			t.Errorf("%s no longer breaks %q: remove it from %s (SREZC_UPDATE=1)", key[1], key[0], physicsKnown)
		}
	}
	for _, inv := range invariants {
		t.Logf("%-70s broken in %d incidents", inv.name, perInvariant[inv.name])
	}
}

// TestWorldPhysicsCatchesPlantedViolations: each invariant fails on a tick
// planted to break it, and holds on the same tick repaired.
func TestWorldPhysicsCatchesPlantedViolations(t *testing.T) {
	tasks, _ := shippedSuite(t)
	var tk *engine.Task
	for _, c := range tasks {
		if c.ID == "db_pool" {
			tk = c
		}
	}
	if tk == nil {
		t.Fatal("db_pool is not shipped")
	}
	ep := engine.NewEpisode(tk)
	ep.Reset(1)
	base := ep.Snapshot()
	baseTraces := readTraces(ep)
	set := func(snaps []engine.ServiceSnapshot, svc, name string, v float64) {
		for i := range snaps {
			if snaps[i].Name != svc {
				continue
			}
			for j := range snaps[i].Metrics {
				if snaps[i].Metrics[j].Name == name {
					snaps[i].Metrics[j].Value = value.OfFloat(v)
					return
				}
			}
			for j := range snaps[i].Config {
				if snaps[i].Config[j].Name == name {
					snaps[i].Config[j].Value = value.OfFloat(v)
					return
				}
			}
		}
		t.Fatalf("no %s.%s to plant", svc, name)
	}
	plants := map[string]func(s []engine.ServiceSnapshot){
		"a share lies in [0, 1]":                    func(s []engine.ServiceSnapshot) { set(s, "web_server", "error_rate_5xx", 1.3) },
		"a percentage lies in [0, 100]":             func(s []engine.ServiceSnapshot) { set(s, "cache", "memory_used_pct", 130) },
		"a rate, count or duration is not negative": func(s []engine.ServiceSnapshot) { set(s, "database", "connection_wait_ms", -4) },
		"errors and hits need requests": func(s []engine.ServiceSnapshot) {
			set(s, "load_balancer", "request_rate", 0)
			set(s, "load_balancer", "client_error_rate", 1)
		},
		"worker utilisation is at most 1 (no request queue is shown)": func(s []engine.ServiceSnapshot) { set(s, "web_server", "worker_utilization", 1.7) },
		"Little's law: requests in flight fit the workers": func(s []engine.ServiceSnapshot) {
			set(s, "web_server", "request_rate", 300)
			set(s, "web_server", "p95_latency_ms", 3480)
			set(s, "web_server", "max_workers", 6)
			set(s, "web_server", "listen_queue", 0)
		},
		"open connections fit the connection limit": func(s []engine.ServiceSnapshot) {
			set(s, "database", "active_connections", 500)
			set(s, "database", "max_connections", 100)
		},
		"a backlog's age needs a backlog": func(s []engine.ServiceSnapshot) {
			set(s, "message_queue", "queue_depth", 0)
			set(s, "message_queue", "consumer_lag_ms", 20000)
		},
		"a down service serves nothing": func(s []engine.ServiceSnapshot) {
			for i := range s {
				if s[i].Name == "database" {
					s[i].Status = statusDown
				}
			}
			set(s, "database", "queries_per_s", 120)
		},
		"a request's queue wait fits its deadline and shows in p95 and errors": func(s []engine.ServiceSnapshot) {
			// 9000 requests queued at 300 requests/s wait 30 s, past a 3 s deadline.
			set(s, "web_server", "request_rate", 300)
			set(s, "web_server", "listen_queue", 9000)
			set(s, "web_server", "timeout_ms", 3000)
		},
		"a backlog's age is its depth over its drain rate": func(s []engine.ServiceSnapshot) {
			// "backlog 20000, oldest message 20000 s" while 50 jobs/s drain.
			set(s, "message_queue", "queue_depth", 20000)
			set(s, "message_queue", "consumer_lag_ms", 20000000)
			set(s, "message_queue", "ack_rate", 50)
		},
		"4xx and 5xx are counted apart, and every 5xx fails at the balancer": func(s []engine.ServiceSnapshot) {
			// 429s counted as 5xx: both shares show the throttled requests.
			set(s, "web_server", "error_rate_4xx", 0.6)
			set(s, "web_server", "error_rate_5xx", 0.6)
		},
		"refused, timed out and other 5xx add up to the balancer's 5xx, and the web tier's 5xx show there": func(s []engine.ServiceSnapshot) {
			// Refused connections counted as timeouts too: a backend
			// down (SC) shown in both the 503 and the 504 share.
			set(s, "load_balancer", "http_5xx_rate", 0.4)
			set(s, "load_balancer", "client_error_rate", 0.4)
			set(s, "load_balancer", "refused_503_rate", 0.4)
			set(s, "load_balancer", "timeout_504_rate", 0.4)
		},
		"the web tier serves no more than the load balancer forwards": func(s []engine.ServiceSnapshot) {
			set(s, "load_balancer", "request_rate", 100)
			set(s, "web_server", "request_rate", 400)
		},
	}
	spanPlants := map[string]func(tr map[string][]span){
		// The quoted 10,974 ms balancer span over a 69 ms child, reversed.
		"a parent span lasts at least as long as each of its children": func(tr map[string][]span) {
			d := 10974.0
			tr["load_balancer"][1].Duration = &d
		},
		// A trace that stops at the web tier.
		"every hop on the request path has a span": func(tr map[string][]span) {
			tr["load_balancer"] = tr["load_balancer"][:2]
		},
	}
	// db_pool's first tick, its pool fault's latency and queue mended,
	// holds every invariant: what each plant breaks is its own.
	set(base, "web_server", "p95_latency_ms", 40)
	set(base, "web_server", "listen_queue", 0)
	for _, sp := range baseTraces {
		for i := range sp {
			if sp[i].Duration != nil {
				d := 1.0 / float64(sp[i].Depth)
				sp[i].Duration = &d
			}
		}
	}
	check := func(snaps []engine.ServiceSnapshot, traces map[string][]span, name string) string {
		w := world{t: tk, snaps: map[string]*engine.ServiceSnapshot{}, traces: traces}
		for i := range snaps {
			w.snaps[snaps[i].Name] = &snaps[i]
		}
		for _, inv := range invariants {
			if inv.name != name {
				continue
			}
			for _, s := range tk.Services {
				if inv.kind == "" || inv.kind == s.Kind {
					if what := inv.check(w, s.Name); what != "" {
						return what
					}
				}
			}
		}
		return ""
	}
	for _, inv := range invariants {
		plant, ok := plants[inv.name]
		spanPlant, spanOK := spanPlants[inv.name]
		if !ok && !spanOK {
			t.Errorf("no planted violation for %q", inv.name)
			continue
		}
		if what := check(base, baseTraces, inv.name); what != "" {
			t.Errorf("%q breaks on the mended first tick: %s", inv.name, what)
		}
		planted, plantedTraces := cloneSnaps(base), map[string][]span{}
		for k, v := range baseTraces {
			plantedTraces[k] = slices.Clone(v)
		}
		if ok {
			plant(planted)
		}
		if spanOK {
			spanPlant(plantedTraces)
		}
		if check(planted, plantedTraces, inv.name) == "" {
			t.Errorf("%q misses its planted violation", inv.name)
		}
	}
	// The hops the system does not model as services, each cut on its
	// own: the web tier's call to the card processor, the consumer side
	// of the queue's work, and the database call under it.
	const hops = "every hop on the request path has a span"
	for _, cut := range []struct {
		what string
		drop func(s span) bool
	}{
		{"the card processor's client span", func(s span) bool { return s.Kind == "client" }},
		{"the consumer trace", func(s span) bool { return s.Linked != "" }},
		{"the consumer's database span", func(s span) bool { return s.Linked != "" && s.Service == "database" }},
	} {
		planted := map[string][]span{}
		dropped := 0
		for k, v := range baseTraces {
			for _, s := range v {
				if cut.drop(s) {
					dropped++
				} else {
					planted[k] = append(planted[k], s)
				}
			}
		}
		if dropped == 0 {
			t.Errorf("db_pool's traces show no %s to cut", cut.what)
		}
		if check(base, planted, hops) == "" {
			t.Errorf("%q misses a trace without %s", hops, cut.what)
		}
	}
}

func cloneSnaps(in []engine.ServiceSnapshot) []engine.ServiceSnapshot {
	out := make([]engine.ServiceSnapshot, len(in))
	for i, s := range in {
		s.Metrics = slices.Clone(s.Metrics)
		s.Config = slices.Clone(s.Config)
		out[i] = s
	}
	return out
}
