// Package mcpserve serves incidents to coding agents (Claude Code, Codex,
// any MCP client) over the Model Context Protocol: one episode per MCP
// session. The episode's intro is the session's instructions (and the
// resource srezc://incident and the prompt "incident"); the incident's
// tools are MCP tools, each call one step, answered with the observation
// text exactly as every other agent reads it. Nothing grader-side (task id,
// difficulty, split, reward, components, terminal reason) ever reaches the
// client; the grader's record goes to records.jsonl, like srezc eval's.
package mcpserve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/srezc/srezc/action"
	"github.com/srezc/srezc/agents"
	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/eval"
	"github.com/srezc/srezc/llm"
	"github.com/srezc/srezc/record"
)

// IncidentURI is the resource holding the session's intro.
const IncidentURI = "srezc://incident"

// IncidentPrompt is the name of the prompt holding the session's intro.
const IncidentPrompt = "incident"

// EpisodeOver is the text of the error result every tool call gets once
// the session's episode has ended.
const EpisodeOver = "The episode is over: no further tool call is played in this session."

// Options configure a Server.
type Options struct {
	// Tasks are the incidents sessions play, in order: session k (counting
	// sessions from 0 in the order they initialize) plays Tasks[k mod n]
	// with seed Seed + k/n, n = len(Tasks).
	Tasks []*engine.Task
	Seed  uint64
	// RecordPath, when set, is the records.jsonl each session's episode is
	// appended to, once, when it ends or its session closes.
	RecordPath string
	// Agent names the recorded player; empty means "mcp:" followed by the
	// client's name from its initialize request.
	Agent string
	// Suite is the hash of the suite the tasks come from; Versions say
	// what produced the records.
	Suite    string
	Versions record.Versions
	// ExportHeldOut keeps the trajectories of held-out tasks in records,
	// which leave them out by default (as srezc eval does).
	ExportHeldOut bool
	// Structured adds each observation's JSON form as the result's
	// structuredContent. Off by default: some clients show a model only
	// the structured form when there is one, and every agent should read
	// the same text.
	Structured bool
	// Version is the server's version in its MCP implementation info.
	Version string
	// Log, if set, gets one line when a session begins and one when it
	// ends. It is the operator's log, so it names neither the incident
	// nor how the episode went.
	Log io.Writer
	// SessionIdle closes an HTTP session that has sent no request for
	// that long, recording its episode (default 10 minutes); MaxSessions
	// bounds the open HTTP sessions: a new one beyond it is refused with
	// 503 and Retry-After (default 1000).
	SessionIdle time.Duration
	MaxSessions int
}

// Server holds one episode per MCP session.
type Server struct {
	opt Options
	mcp *mcp.Server

	mu       sync.Mutex
	next     int // the index of the next session to initialize
	closed   bool
	sessions map[*mcp.ServerSession]*session
	watchers sync.WaitGroup

	// recordMu serialises appends to records.jsonl across sessions;
	// recordErr is the first append that failed.
	recordMu  sync.Mutex
	recordErr error

	logMu sync.Mutex

	// parses binds the sessions' text actions (action.Cache).
	parses action.Cache

	// deleted are the HTTP sessions their client ended (DELETE), to tell
	// them from sessions reaped for idleness.
	deleted sync.Map
	// changed is closed and replaced whenever a session metric moves, so
	// a waiter (the tests) synchronises on the change, not on a clock.
	changedMu sync.Mutex
	changed   chan struct{}
	reg       *prometheus.Registry
	m         struct {
		open    prometheus.GaugeFunc
		started prometheus.Counter
		ended   *prometheus.CounterVec
		refused prometheus.Counter
	}
}

// session is one MCP session's episode.
type session struct {
	mu     sync.Mutex
	index  int
	client string
	agent  string
	task   *engine.Task
	round  int // which pass over the tasks this is: the episode number
	seed   uint64
	ep     *engine.Episode
	intro  string
	specs  []agents.ToolSpec
	tools  []*mcp.Tool
	steps  []eval.Step
	buf    []byte
	// shown and noise are the noise events of the reads so far, for the
	// record (never sent to the client).
	shown    []engine.NoiseEvent
	noise    []record.NoiseEvent
	finished bool // the episode was recorded, or skipped, and takes no more steps
}

// New returns a server over opt.Tasks, which must not be empty.
func New(opt Options) (*Server, error) {
	if len(opt.Tasks) == 0 {
		return nil, errors.New("mcpserve: no incident to serve")
	}
	if opt.SessionIdle <= 0 {
		opt.SessionIdle = 10 * time.Minute
	}
	if opt.MaxSessions <= 0 {
		opt.MaxSessions = 1000
	}
	s := &Server{opt: opt, sessions: map[*mcp.ServerSession]*session{}, reg: prometheus.NewRegistry()}
	s.m.open = prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "srezc_mcp_sessions", Help: "Open MCP sessions."}, func() float64 { return float64(s.open()) })
	s.m.started = prometheus.NewCounter(prometheus.CounterOpts{Name: "srezc_mcp_sessions_started_total", Help: "MCP sessions initialized."})
	s.m.ended = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "srezc_mcp_sessions_ended_total", Help: "MCP sessions ended, by reason (client, idle, shutdown)."}, []string{"reason"})
	s.m.refused = prometheus.NewCounter(prometheus.CounterOpts{Name: "srezc_mcp_sessions_refused_total", Help: "New HTTP sessions refused at the session cap."})
	s.reg.MustRegister(s.m.open, s.m.started, s.m.ended, s.m.refused, prometheus.NewGoCollector(), prometheus.NewProcessCollector(prometheus.ProcessCollectorOpts{}))
	s.mcp = mcp.NewServer(&mcp.Implementation{Name: "srezc", Version: opt.Version}, &mcp.ServerOptions{
		// Tools, the resource and the prompt are served per session; no
		// list ever changes within a session, and there is no logging.
		Capabilities: &mcp.ServerCapabilities{
			Tools:     &mcp.ToolCapabilities{},
			Resources: &mcp.ResourceCapabilities{},
			Prompts:   &mcp.PromptCapabilities{},
		},
		SupportedProtocolVersions: sessionVersions(),
	})
	s.mcp.AddResource(&mcp.Resource{
		URI:         IncidentURI,
		Name:        "incident",
		Title:       "The incident",
		Description: "The alert, the services and the tools of the incident this session is on call for.",
		MIMEType:    "text/plain",
	}, s.readIncident)
	s.mcp.AddPrompt(&mcp.Prompt{
		Name:        IncidentPrompt,
		Title:       "The incident",
		Description: "The alert, the services and the tools of the incident this session is on call for.",
	}, s.incidentPrompt)
	s.mcp.AddReceivingMiddleware(s.perSession)
	return s, nil
}

// sessionVersions are the protocol versions that open a session with an
// initialize handshake. From 2026-07-28 on, MCP requests are sessionless,
// and an episode is state that must live in a session; a client offering
// only those versions falls back to the handshake.
func sessionVersions() []string {
	var out []string
	for _, v := range mcp.SupportedProtocolVersions() {
		if v < "2026-07-28" {
			out = append(out, v)
		}
	}
	return out
}

// Serve serves one session on t (stdio) until the client ends it or ctx
// is done, then closes the server (Close) and returns its error or the
// connection's.
func (s *Server) Serve(ctx context.Context, t mcp.Transport) error {
	ss, err := s.Connect(ctx, t)
	if err != nil {
		return err
	}
	ended := make(chan error, 1)
	go func() { ended <- ss.Wait() }()
	select {
	case err = <-ended:
	case <-ctx.Done():
		ss.Close()
		<-ended
		err = nil
	}
	if cerr := s.Close(); cerr != nil {
		return cerr
	}
	if errors.Is(err, mcp.ErrConnectionClosed) || errors.Is(err, io.EOF) {
		err = nil
	}
	return err
}

// Connect opens one session on t, as Serve does, without waiting for it.
func (s *Server) Connect(ctx context.Context, t mcp.Transport) (*mcp.ServerSession, error) {
	return s.mcp.Connect(ctx, t, nil)
}

// Handler serves sessions over MCP's streamable HTTP transport. A session
// idle for SessionIdle is closed (its episode recorded); a request that
// would open a session beyond MaxSessions gets 503 with Retry-After.
func (s *Server) Handler() http.Handler {
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.mcp }, &mcp.StreamableHTTPOptions{SessionTimeout: s.opt.SessionIdle})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get("Mcp-Session-Id")
		switch {
		case id == "" && r.Method == http.MethodPost && s.open() >= s.opt.MaxSessions:
			s.m.refused.Inc()
			s.metricsMoved()
			w.Header().Set("Retry-After", strconv.Itoa(max(1, int(s.opt.SessionIdle/time.Second))))
			http.Error(w, fmt.Sprintf("srezc mcp holds %d sessions, its cap (--max-sessions); retry when one ends", s.opt.MaxSessions), http.StatusServiceUnavailable)
			return
		case id != "" && r.Method == http.MethodDelete:
			s.deleted.Store(id, true)
		}
		h.ServeHTTP(w, r)
	})
}

// MetricsHandler serves the sessions' metrics for Prometheus.
func (s *Server) MetricsHandler() http.Handler {
	return promhttp.HandlerFor(s.reg, promhttp.HandlerOpts{})
}

func (s *Server) open() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.sessions)
}

// Close closes every open session, recording the episodes they leave
// unfinished, refuses new sessions, and returns the first record that
// could not be written.
func (s *Server) Close() error {
	s.mu.Lock()
	s.closed = true
	open := make([]*mcp.ServerSession, 0, len(s.sessions))
	for ss := range s.sessions {
		open = append(open, ss)
	}
	// In the order the sessions began, so that the records they leave
	// are appended in an order that does not depend on a map's.
	slices.SortFunc(open, func(a, b *mcp.ServerSession) int { return s.sessions[a].index - s.sessions[b].index })
	s.mu.Unlock()
	// Closing waits for the session's calls in flight, which take the
	// session's lock: never close while holding a lock.
	for _, ss := range open {
		ss.Close()
		_ = s.end(ss)
	}
	s.watchers.Wait()
	s.recordMu.Lock()
	defer s.recordMu.Unlock()
	return s.recordErr
}

// perSession answers what differs from session to session: the
// instructions at initialize, the tool list and the tool calls. Every
// other method is the SDK's.
func (s *Server) perSession(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		switch method {
		case "initialize":
			res, err := next(ctx, method, req)
			if err != nil {
				return res, err
			}
			result, ok := res.(*mcp.InitializeResult)
			ss, ok2 := req.GetSession().(*mcp.ServerSession)
			if !ok || !ok2 {
				return nil, fmt.Errorf("mcpserve: unexpected initialize result %T", res)
			}
			params, _ := req.GetParams().(*mcp.InitializeParams)
			sess, err := s.begin(ss, params)
			if err != nil {
				return nil, err
			}
			result.Instructions = sess.intro
			return result, nil
		case "tools/list":
			sess, err := s.lookup(req)
			if err != nil {
				return nil, err
			}
			return &mcp.ListToolsResult{Tools: sess.tools}, nil
		case "tools/call":
			sess, err := s.lookup(req)
			if err != nil {
				return nil, err
			}
			call, ok := req.(*mcp.CallToolRequest)
			if !ok || call.Params == nil {
				return nil, fmt.Errorf("mcpserve: unexpected tools/call request %T", req)
			}
			return s.call(sess, call.Params.Name, call.Params.Arguments), nil
		}
		return next(ctx, method, req)
	}
}

// begin starts the episode of a session that has just initialized.
func (s *Server) begin(ss *mcp.ServerSession, params *mcp.InitializeParams) (*session, error) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil, errors.New("the server is shutting down")
	}
	k := s.next
	s.next++
	s.mu.Unlock()

	n := len(s.opt.Tasks)
	sess := &session{index: k, task: s.opt.Tasks[k%n], round: k / n}
	sess.seed = s.opt.Seed + uint64(sess.round)
	sess.ep = engine.NewEpisode(sess.task)
	sess.ep.Reset(sess.seed)
	sess.intro = string(sess.ep.AppendIntro(nil))
	sess.specs = action.Specs(sess.task)
	sess.tools = mcpTools(sess.specs, sess.task.ServiceNames())
	sess.client = "unknown"
	if params != nil && params.ClientInfo != nil && strings.TrimSpace(params.ClientInfo.Name) != "" {
		// The client names itself: nothing it sends reaches the log or a
		// record raw.
		sess.client = CleanName(strings.TrimSpace(params.ClientInfo.Name))
	}
	sess.agent = s.opt.Agent
	if sess.agent == "" {
		sess.agent = "mcp:" + sess.client
	}

	s.mu.Lock()
	s.sessions[ss] = sess
	s.watchers.Add(1)
	s.mu.Unlock()
	// A session of the HTTP transport ends when the client deletes it or
	// the server closes it; its episode is recorded then if it has not
	// been already.
	s.m.started.Inc()
	s.metricsMoved()
	go func() {
		defer s.watchers.Done()
		defer s.metricsMoved()
		_ = ss.Wait()
		s.mu.Lock()
		shutdown := s.closed
		s.mu.Unlock()
		_, byClient := s.deleted.LoadAndDelete(ss.ID())
		switch {
		case shutdown:
			// Close ends the open sessions itself, in the order they
			// began, so that their records land in that order.
			s.m.ended.WithLabelValues("shutdown").Inc()
			return
		case byClient || ss.ID() == "":
			s.m.ended.WithLabelValues("client").Inc()
		default:
			s.m.ended.WithLabelValues("idle").Inc()
		}
		_ = s.end(ss)
	}()
	s.logf("session %d (%s) began", k, sess.client)
	return sess, nil
}

// metricsMoved wakes whoever waits for the session metrics to change.
func (s *Server) metricsMoved() {
	s.changedMu.Lock()
	if s.changed != nil {
		close(s.changed)
		s.changed = nil
	}
	s.changedMu.Unlock()
}

// metricsChange is closed at the next change of the session metrics.
func (s *Server) metricsChange() <-chan struct{} {
	s.changedMu.Lock()
	defer s.changedMu.Unlock()
	if s.changed == nil {
		s.changed = make(chan struct{})
	}
	return s.changed
}

// lookup finds the session a request belongs to.
func (s *Server) lookup(req mcp.Request) (*session, error) {
	ss, _ := req.GetSession().(*mcp.ServerSession)
	s.mu.Lock()
	sess := s.sessions[ss]
	s.mu.Unlock()
	if sess == nil {
		return nil, errors.New("this session has no incident: it has not initialized, or it has ended")
	}
	return sess, nil
}

// end records the episode of a session that closed, once, and forgets
// the session. It returns the error of that record.
func (s *Server) end(ss *mcp.ServerSession) error {
	s.mu.Lock()
	sess := s.sessions[ss]
	delete(s.sessions, ss)
	s.mu.Unlock()
	if sess == nil {
		return nil
	}
	sess.mu.Lock()
	defer sess.mu.Unlock()
	return s.finish(sess)
}

// call plays one tool call as one step. The result is the observation
// text an agent of any kind reads, an invalid action's included; only a
// call after the episode's end is an error result.
func (s *Server) call(sess *session, name string, args json.RawMessage) *mcp.CallToolResult {
	sess.mu.Lock()
	defer sess.mu.Unlock()
	if sess.finished || sess.ep.Done() {
		return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: EpisodeOver}}}
	}
	action := actionText(sess.specs, name, args)
	act := s.parses.Bind(sess.task, action)
	r := sess.ep.Step(&act)
	sess.buf = sess.ep.AppendText(sess.buf[:0], &r.Obs)
	obs := string(sess.buf)
	sess.shown = sess.ep.AppendNoiseShown(sess.shown[:0], &r.Obs)
	sess.noise = eval.AppendNoiseEvents(sess.noise, sess.task, int(r.Obs.Step), sess.shown)
	// The step as eval.PlayTurns traces it, so the record has the shape
	// of every other agent's.
	step := eval.Step{Task: sess.task.ID, Episode: sess.round, Seed: sess.seed, Step: int(r.Obs.Step),
		Action: action, Observation: obs, Reward: r.Reward, Done: r.Obs.Done}
	if r.Obs.Step == 1 {
		step.Intro = sess.intro
	}
	if r.Obs.Done {
		rec := sess.ep.Record()
		step.Terminal = r.Terminal.String()
		step.Record = &rec
	}
	sess.steps = append(sess.steps, step)

	res := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: obs}}}
	if s.opt.Structured {
		res.StructuredContent = json.RawMessage(sess.ep.AppendJSON(nil, &r.Obs))
	}
	if sess.ep.Done() {
		// A failed record is the operator's problem, never the agent's:
		// Close reports it.
		_ = s.finish(sess)
	}
	return res
}

// actionText renders a tool call as a text action. A name that is not an
// identifier cannot be a tool; it is written so that it parses as no
// call at all, never as a call of another tool.
func actionText(specs []agents.ToolSpec, name string, args json.RawMessage) string {
	if !isIdentifier(name) {
		return fmt.Sprintf("%q", name)
	}
	return agents.CallText(specs, name, string(args))
}

func isIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		letter := c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
		if !letter && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// finish records a session's episode once (sess.mu held). An episode that
// took no step is not recorded: nothing was played (a client checking
// that the server starts opens and closes a session).
func (s *Server) finish(sess *session) error {
	if sess.finished {
		return nil
	}
	sess.finished = true
	steps := len(sess.steps)
	if s.opt.RecordPath == "" || steps == 0 {
		s.logf("session %d (%s) ended after %s", sess.index, sess.client, plural(steps, "step"))
		return nil
	}
	ep := eval.Episode{Task: sess.task.ID, Episode: sess.round, Seed: sess.seed,
		Record: sess.ep.Record(), Components: sess.ep.Components(), Steps: sess.steps, NoiseEvents: sess.noise}
	rec := eval.NewRecord(sess.agent, s.opt.Suite, s.opt.Versions, sess.task, &ep, s.opt.ExportHeldOut)
	s.recordMu.Lock()
	err := record.Append(s.opt.RecordPath, &rec)
	if err != nil {
		err = fmt.Errorf("cannot record session %d: %w", sess.index, err)
		if s.recordErr == nil {
			s.recordErr = err
		}
	}
	s.recordMu.Unlock()
	if err != nil {
		s.logf("session %d (%s) ended after %s; %v", sess.index, sess.client, plural(steps, "step"), err)
		return err
	}
	s.logf("session %d (%s) ended after %s; recorded as %s", sess.index, sess.client, plural(steps, "step"), sess.agent)
	return nil
}

func (s *Server) readIncident(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	sess, err := s.lookup(req)
	if err != nil {
		return nil, err
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: IncidentURI, MIMEType: "text/plain", Text: sess.intro}}}, nil
}

func (s *Server) incidentPrompt(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	sess, err := s.lookup(req)
	if err != nil {
		return nil, err
	}
	return &mcp.GetPromptResult{
		Description: "The incident you are on call for.",
		Messages:    []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: sess.intro}}},
	}, nil
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func (s *Server) logf(format string, args ...any) {
	if s.opt.Log == nil {
		return
	}
	s.logMu.Lock()
	defer s.logMu.Unlock()
	fmt.Fprintf(s.opt.Log, "srezc mcp: "+format+"\n", args...)
}

// mcpTools are the MCP tools of an episode: each tool's JSON Schema as the
// tools agent sends it, a service argument an enum of the episode's
// services. No tool carries annotations: a client may run tools it is
// told only read in parallel, and the order of steps must be the
// agent's, not a scheduler's (each step is a tick of the world).
func mcpTools(specs []agents.ToolSpec, services []string) []*mcp.Tool {
	out := make([]*mcp.Tool, 0, len(specs))
	for _, t := range llm.Schemas(specs, services) {
		out = append(out, &mcp.Tool{Name: t.Function.Name, Description: t.Function.Description, InputSchema: t.Function.Parameters})
	}
	return out
}
