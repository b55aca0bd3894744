// Package serve is srezc's environment server: a JSON HTTP API over a
// compiled suite (episodes you create, step, observe, fork and close, one
// at a time or in groups), an OpenEnv-compatible face for OpenEnv clients,
// and Prometheus metrics.
//
// Three roles, each a header the server compares in constant time:
//
//   - An agent (no credential beyond the optional API bearer) can only
//     step forward: it names tasks by opaque handle or split, gets
//     server-drawn episode ids (bearer capabilities; a WebSocket's episodes
//     belong to its connection), and sees observations only. No replay
//     token, no rewind, fork, close or chosen id.
//   - A trainer (X-Srezc-Trainer-Token) also gets the replay token in every
//     reply and may resume or rewind from it, fork, close, choose ids and
//     name tasks by author id. Tokens let replicas sharing a key serve
//     trainers without sticky sessions: for them the table is a cache.
//   - A grader (X-Srezc-Grader-Token) reads rewards, components, records,
//     the task's identity and every branch a rewind left behind.
package serve

import (
	"crypto/hkdf"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/srezc/srezc/action"
	"github.com/srezc/srezc/agents"
	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/eval"
	"github.com/srezc/srezc/llm"
	"github.com/srezc/srezc/record"
)

// Options configure a Server.
type Options struct {
	Tasks    []*engine.Task
	Versions record.Versions
	// TTL is how long an idle episode keeps its lease; Capacity bounds the
	// leased episodes (a full server answers 429 with Retry-After); Pool
	// bounds the episodes kept materialised (the rest are rebuilt from
	// their actions when stepped).
	TTL      time.Duration
	Capacity int
	Pool     int
	// TokenKey is the secret replicas share to seal and open replay
	// tokens; empty draws a random one (tokens then work on this process
	// only).
	TokenKey []byte
	// APIToken, if set, is required as "Authorization: Bearer …" on every
	// route but /health and /metrics.
	APIToken string
	// GraderToken enables the grader view for requests that present it in
	// the X-Srezc-Grader-Token header.
	GraderToken string
	// TrainerToken enables the trainer's capabilities (replay tokens,
	// resume, rewind, fork, close, chosen ids, author ids) for requests
	// that present it in the X-Srezc-Trainer-Token header; empty turns
	// them off.
	TrainerToken string
	// MaxAction bounds one action's text in bytes (a step's action, or a
	// tool call rendered as text): every action is folded into the replay
	// token and replayed on rebuilds.
	MaxAction int
	// WSIdle closes a WebSocket session that has sent nothing for that
	// long (default: TTL, when its episode's lease runs out too); WSPing is
	// how often the server pings a session to find dead peers.
	WSIdle, WSPing time.Duration
	// MaxBody bounds a request body in bytes.
	MaxBody int64
	// Now is the clock of leases (tests set it); nothing an episode
	// computes reads it.
	Now func() time.Time
}

// Server is the environment server.
type Server struct {
	opt     Options
	tasks   []*engine.Task
	byID    map[string]*engine.Task
	byHash  map[string]*engine.Task
	handles map[string]*engine.Task
	suite   string
	specs   map[*engine.Task][]agents.ToolSpec
	// toolSpecs are the suite's tools by name; intros are each task's
	// intro, which depends on the task alone; unseen is the
	// unseen_incident subset of test.
	toolSpecs map[string]agents.ToolSpec
	intros    map[*engine.Task]string
	unseen    map[string]bool
	table     *table
	seal      *sealer
	// handleKey keys task handles: derived from the token key, so replicas
	// sharing it give tasks the same handles.
	handleKey []byte
	mux       *http.ServeMux
	reg       *prometheus.Registry
	m         metrics
	ws        *wsSessions
}

type metrics struct {
	live      prometheus.GaugeFunc
	created   prometheus.Counter
	steps     prometheus.Counter
	rejected  *prometheus.CounterVec
	latency   *prometheus.HistogramVec
	replays   prometheus.Counter
	wsOpen    prometheus.Gauge
	panics    prometheus.Counter
	requests  *prometheus.CounterVec
	expired   prometheus.Counter
	resumes   prometheus.Counter
	forks     prometheus.Counter
	closed    prometheus.Counter
	batchSize prometheus.Histogram
	wsClosed  *prometheus.CounterVec
}

// New builds a server over opt.Tasks.
func New(opt Options) (*Server, error) {
	if len(opt.Tasks) == 0 {
		return nil, errors.New("no tasks to serve")
	}
	if opt.TTL <= 0 {
		opt.TTL = 10 * time.Minute
	}
	if opt.Capacity <= 0 {
		opt.Capacity = 10000
	}
	if opt.Pool <= 0 {
		opt.Pool = 256
	}
	if opt.MaxBody <= 0 {
		opt.MaxBody = 1 << 20
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.MaxAction <= 0 {
		opt.MaxAction = 4096
	}
	if opt.WSIdle <= 0 {
		opt.WSIdle = opt.TTL
	}
	if opt.WSPing <= 0 {
		opt.WSPing = 30 * time.Second
	}
	secret := opt.TokenKey
	if len(secret) == 0 {
		secret = make([]byte, 32)
		if _, err := rand.Read(secret); err != nil {
			return nil, err
		}
	}
	seal, err := newSealer(secret)
	if err != nil {
		return nil, err
	}
	handleKey, err := hkdf.Key(sha256.New, secret, nil, "srezc task handle v1", 32)
	if err != nil {
		return nil, err
	}
	s := &Server{opt: opt, tasks: opt.Tasks, byID: map[string]*engine.Task{}, byHash: map[string]*engine.Task{}, handles: map[string]*engine.Task{},
		suite: engine.SuiteHash(opt.Tasks), specs: map[*engine.Task][]agents.ToolSpec{}, seal: seal, handleKey: handleKey, mux: http.NewServeMux(), reg: prometheus.NewRegistry()}
	s.toolSpecs, s.intros, s.unseen = map[string]agents.ToolSpec{}, map[*engine.Task]string{}, eval.UnseenIncidents(opt.Tasks)
	for _, t := range opt.Tasks {
		s.byID[t.ID] = t
		s.byHash[t.Hash] = t
		s.handles[s.handle(t)] = t
		s.specs[t] = action.Specs(t)
		for _, sp := range s.specs[t] {
			if _, ok := s.toolSpecs[sp.Name]; !ok {
				s.toolSpecs[sp.Name] = sp
			}
		}
		ep := engine.NewEpisode(t)
		ep.Reset(0)
		s.intros[t] = string(ep.AppendIntro(nil))
	}
	s.table = newTable(opt.Capacity, opt.Pool, opt.TTL, opt.Now)
	s.ws = newWSSessions(s)
	s.registerMetrics()
	s.table.onRebuild = s.m.replays.Inc
	s.routes()
	return s, nil
}

// handle is a task's opaque public name: an HMAC of its hash under the
// deployment's key, so that nobody without the key can map a handle to
// the task's id or hash (a prefix of the public hash could be).
func (s *Server) handle(t *engine.Task) string {
	m := hmac.New(sha256.New, s.handleKey)
	m.Write([]byte(t.Hash))
	return "t-" + hex.EncodeToString(m.Sum(nil)[:12])
}

func (s *Server) registerMetrics() {
	s.m.live = prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "srezc_episodes_live", Help: "Leased episodes."}, func() float64 { return float64(s.table.live()) })
	s.m.created = prometheus.NewCounter(prometheus.CounterOpts{Name: "srezc_episodes_created_total", Help: "Episodes created."})
	s.m.steps = prometheus.NewCounter(prometheus.CounterOpts{Name: "srezc_steps_total", Help: "Steps played."})
	s.m.rejected = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "srezc_rejections_total", Help: "Requests refused, by reason."}, []string{"reason"})
	s.m.latency = prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "srezc_request_duration_seconds", Help: "Request latency by route.",
		Buckets: []float64{.0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, 1}}, []string{"route"})
	s.m.requests = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "srezc_requests_total", Help: "Requests by route and status."}, []string{"route", "code"})
	s.m.replays = prometheus.NewCounter(prometheus.CounterOpts{Name: "srezc_episode_rebuilds_total", Help: "Episodes rebuilt from their actions (evicted from the pool, or resumed from a token)."})
	s.m.resumes = prometheus.NewCounter(prometheus.CounterOpts{Name: "srezc_token_resumes_total", Help: "Episodes taken up from a replay token."})
	s.m.forks = prometheus.NewCounter(prometheus.CounterOpts{Name: "srezc_forks_total", Help: "Episodes forked."})
	s.m.closed = prometheus.NewCounter(prometheus.CounterOpts{Name: "srezc_episodes_closed_total", Help: "Episodes closed by clients."})
	s.m.expired = prometheus.NewCounter(prometheus.CounterOpts{Name: "srezc_episodes_expired_total", Help: "Leases that ran out."})
	s.m.wsOpen = prometheus.NewGauge(prometheus.GaugeOpts{Name: "srezc_websocket_sessions", Help: "Open OpenEnv WebSocket sessions."})
	s.m.panics = prometheus.NewCounter(prometheus.CounterOpts{Name: "srezc_handler_panics_total", Help: "Handler panics turned into 500s."})
	s.m.batchSize = prometheus.NewHistogram(prometheus.HistogramOpts{Name: "srezc_batch_size", Help: "Items per batch request.", Buckets: prometheus.ExponentialBuckets(1, 2, 10)})
	s.m.wsClosed = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "srezc_websocket_closed_total", Help: "OpenEnv WebSocket sessions ended, by reason (client, idle, dead_peer, capacity, protocol)."}, []string{"reason"})
	s.reg.MustRegister(s.m.live, s.m.created, s.m.steps, s.m.rejected, s.m.latency, s.m.requests, s.m.replays, s.m.resumes, s.m.forks,
		s.m.closed, s.m.expired, s.m.wsOpen, s.m.panics, s.m.batchSize, s.m.wsClosed, prometheus.NewGoCollector(), prometheus.NewProcessCollector(prometheus.ProcessCollectorOpts{}))
}

// Handler is the server's HTTP handler.
func (s *Server) Handler() http.Handler { return s.mux }

// Expire drops leases past their time; serve's caller runs it on a ticker.
func (s *Server) Expire() {
	if n := s.table.expire(); n > 0 {
		s.m.expired.Add(float64(n))
	}
}

// route wraps a handler: authentication, body limit, panic recovery,
// latency and status metrics.
func (s *Server) route(pattern, name string, public bool, h func(w http.ResponseWriter, r *http.Request) (int, any)) {
	obs := s.m.latency.WithLabelValues(name)
	s.mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		status := http.StatusInternalServerError
		defer func() {
			if p := recover(); p != nil {
				s.m.panics.Inc()
				writeJSON(w, http.StatusInternalServerError, errBody(http.StatusInternalServerError, fmt.Sprintf("internal error: %v", p)))
			}
			obs.Observe(time.Since(start).Seconds())
			s.m.requests.WithLabelValues(name, strconv.Itoa(status)).Inc()
		}()
		if !public && s.opt.APIToken != "" && !bearer(r, s.opt.APIToken) {
			status = http.StatusUnauthorized
			s.m.rejected.WithLabelValues("unauthorized").Inc()
			w.Header().Set("WWW-Authenticate", `Bearer realm="srezc"`)
			writeJSON(w, status, errBody(status, "this server needs Authorization: Bearer <token>"))
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, s.opt.MaxBody)
		var body any
		status, body = h(w, r)
		if status == 0 {
			return // the handler wrote its own reply (a WebSocket)
		}
		if status >= 400 {
			s.m.rejected.WithLabelValues(reason(status)).Inc()
		}
		if e, ok := body.(*apiError); ok && e.retryAfter > 0 {
			w.Header().Set("Retry-After", strconv.Itoa(retrySeconds(e.retryAfter)))
		}
		writeJSON(w, status, body)
	})
}

func reason(status int) string {
	switch status {
	case http.StatusTooManyRequests:
		return "capacity"
	case http.StatusConflict:
		return "conflict"
	case http.StatusNotFound:
		return "not_found"
	case http.StatusRequestEntityTooLarge:
		return "too_large"
	case http.StatusUnauthorized, http.StatusForbidden:
		return "unauthorized"
	}
	if status >= 500 {
		return "internal"
	}
	return "bad_request"
}

func bearer(r *http.Request, token string) bool {
	got := r.Header.Get("Authorization")
	want := "Bearer " + token
	return subtle.ConstantTimeCompare([]byte(got), []byte(want)) == 1
}

// grader reports whether r presents the grader token (and the server has
// one).
func (s *Server) grader(r *http.Request) bool {
	return presents(r, "X-Srezc-Grader-Token", s.opt.GraderToken)
}

// trainer reports whether r presents the trainer token (and the server has
// one).
func (s *Server) trainer(r *http.Request) bool {
	return presents(r, "X-Srezc-Trainer-Token", s.opt.TrainerToken)
}

func presents(r *http.Request, header, secret string) bool {
	if secret == "" {
		return false
	}
	return subtle.ConstantTimeCompare([]byte(r.Header.Get(header)), []byte(secret)) == 1
}

// caller is who a request acts as: what it may do and see.
type caller struct {
	grader, trainer bool
	// owner is the WebSocket connection a request comes over; episodes it
	// creates are its own. Over plain HTTP it is empty: the episode id,
	// drawn by the server, is the capability.
	owner string
}

func (s *Server) callerOf(r *http.Request) caller {
	return caller{grader: s.grader(r), trainer: s.trainer(r)}
}

// mayUse reports whether c may act on e: its own, an HTTP episode whose
// id it holds, or anything for a trainer or grader.
func (c caller) mayUse(e *episode) bool {
	return c.trainer || c.grader || e.owner == "" || e.owner == c.owner
}

const trainerOnly = "is a trainer capability: it needs the X-Srezc-Trainer-Token header (an agent under evaluation only steps forward)"

func forbidden(what string) (int, *apiError) {
	return http.StatusForbidden, errBody(http.StatusForbidden, what+" "+trainerOnly)
}

// apiError is the body of every error reply. retryAfter, when set, goes
// out as the Retry-After header (or a batch item's retry_after).
type apiError struct {
	Error struct {
		Status  int    `json:"status"`
		Message string `json:"message"`
	} `json:"error"`
	retryAfter time.Duration
}

func errBody(status int, msg string) *apiError {
	e := &apiError{}
	e.Error.Status, e.Error.Message = status, msg
	return e
}

// busy is the 429 of a full server, saying when a lease runs out.
func (s *Server) busy(wait time.Duration) *apiError {
	e := errBody(http.StatusTooManyRequests, fmt.Sprintf("the server holds %d episodes, its capacity; close some, or retry after %s", s.opt.Capacity, wait.Round(time.Second)))
	e.retryAfter = max(wait, time.Second)
	return e
}

// retrySeconds rounds a wait up to whole seconds, as Retry-After counts.
func retrySeconds(d time.Duration) int { return int((d + time.Second - 1) / time.Second) }

func writeJSON(w http.ResponseWriter, status int, body any) {
	if r, ok := body.(*Reply); ok && r.Grader == nil {
		data := r.appendJSON(make([]byte, 0, 512+len(r.Observation)+len(r.Content)+len(r.Intro)))
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", strconv.Itoa(len(data)+1))
		w.WriteHeader(status)
		w.Write(append(data, '\n'))
		return
	}
	data, err := json.Marshal(body)
	if err != nil {
		status = http.StatusInternalServerError
		data, _ = json.Marshal(errBody(status, "cannot encode the reply: "+err.Error()))
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(data)+1))
	w.WriteHeader(status)
	w.Write(append(data, '\n'))
}

// decode reads a JSON body into v, refusing unknown fields; it returns the
// status and error body to send, or 0.
func decode(r *http.Request, v any, optional bool) (int, *apiError) {
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var tooBig *http.MaxBytesError
		switch {
		case errors.As(err, &tooBig):
			return http.StatusRequestEntityTooLarge, errBody(http.StatusRequestEntityTooLarge, fmt.Sprintf("the body is over %d bytes", tooBig.Limit))
		case optional && err.Error() == "EOF":
			return 0, nil
		}
		return http.StatusBadRequest, errBody(http.StatusBadRequest, "the body is not the JSON this route takes: "+err.Error())
	}
	if dec.More() {
		return http.StatusBadRequest, errBody(http.StatusBadRequest, "the body holds more than one JSON value")
	}
	return 0, nil
}

var idPattern = regexp.MustCompile(`^[A-Za-z0-9._:-]{1,128}$`)

func newID() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return "ep-" + hex.EncodeToString(b[:])
}

// toolSchemas are a task's tools in the OpenAI function format, the
// services enum filled in from the task.
func (s *Server) toolSchemas(t *engine.Task) []llm.Tool {
	return llm.Schemas(s.specs[t], t.ServiceNames())
}

// pickTask finds the task a create request names: an opaque handle
// (task), or for a trainer also an author id or a full hash, or a split
// (the seed picks among its tasks, in suite order). An agent naming a
// task by author id gets the same answer as for a name that exists
// nowhere, so the route is no oracle for guessed ids.
func (s *Server) pickTask(task, split string, seed uint64, trainer bool) (*engine.Task, string) {
	switch {
	case task != "" && split != "":
		return nil, "give task or split, not both"
	case task != "":
		if t := s.handles[task]; t != nil {
			return t, ""
		}
		if trainer {
			if t := s.byID[task]; t != nil {
				return t, ""
			}
			if t := s.byHash[task]; t != nil {
				return t, ""
			}
		}
		return nil, fmt.Sprintf("no task %q in this suite (GET /v1/tasks lists the handles)", task)
	case split != "":
		var in []*engine.Task
		for _, t := range s.tasks {
			if t.Split == split || split == "unseen_incident" && s.unseen[t.ID] {
				in = append(in, t)
			}
		}
		if len(in) == 0 {
			return nil, fmt.Sprintf("no task in split %q (train, dev, test)", split)
		}
		return in[seed%uint64(len(in))], ""
	}
	return nil, "name a task or a split"
}
