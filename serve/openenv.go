package serve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"
)

// The OpenEnv face (openenv-core 0.2.3's wire protocol): /reset, /step,
// /state, /schema, /health, /metadata, /openapi.json, the WebSocket
// session /ws and the JSON-RPC route /mcp, so OpenEnv clients and
// `openenv validate` work unchanged. An OpenEnv episode is a srezc
// episode: /reset returns its id in the observation, and /step takes it
// back as the extra key episode_id (OpenEnv's own HTTP steps are
// stateless; its clients keep episodes on /ws). `reward` is a number only
// for a request with the grader token, and null otherwise; `token` is in
// the observation only for a trainer. An agent on this face can only step
// forward: choosing an episode_id, resuming from a token and closing a
// session are the trainer's; a WebSocket's episodes are its own.

func (s *Server) routeOpenEnv() {
	s.route("GET /health", "health", true, func(w http.ResponseWriter, r *http.Request) (int, any) {
		return http.StatusOK, map[string]string{"status": "healthy"}
	})
	s.route("GET /metadata", "metadata", false, func(w http.ResponseWriter, r *http.Request) (int, any) {
		return http.StatusOK, map[string]any{"name": "srezc", "description": "Simulated site-reliability incidents for tool-using agents: investigate, mitigate and resolve.",
			"readme_content": nil, "version": s.opt.Versions.Srezc, "author": nil, "documentation_url": nil}
	})
	s.route("GET /schema", "schema", false, func(w http.ResponseWriter, r *http.Request) (int, any) {
		return http.StatusOK, map[string]any{"action": actionSchema, "observation": observationSchema, "state": stateSchema}
	})
	s.route("GET /openapi.json", "openapi", false, func(w http.ResponseWriter, r *http.Request) (int, any) {
		return http.StatusOK, openAPI(s.opt.Versions.Srezc)
	})
	s.route("POST /reset", "openenv_reset", false, s.oeReset)
	s.route("POST /step", "openenv_step", false, s.oeStep)
	s.route("GET /state", "openenv_state", false, s.oeState)
	s.route("POST /mcp", "openenv_mcp", false, s.oeMCP)
	s.route("GET /ws", "openenv_ws", false, s.oeWS)
	s.route("GET /mcp", "openenv_ws_mcp", false, s.oeWSMCP)
}

var (
	actionSchema = map[string]any{"title": "SrezcAction", "type": "object", "additionalProperties": false,
		"description": "One of: a text action {\"action\": \"inspect_logs(database)\"}; a tool call {\"tool\": NAME, \"arguments\": {…}}; OpenEnv's MCP actions {\"type\": \"list_tools\"} and {\"type\": \"call_tool\", \"tool_name\": NAME, \"arguments\": {…}}.",
		"properties": map[string]any{"action": map[string]any{"type": "string"}, "tool": map[string]any{"type": "string"},
			"arguments": map[string]any{"type": "object"}, "type": map[string]any{"enum": []string{"list_tools", "call_tool"}},
			"tool_name": map[string]any{"type": "string"}, "metadata": map[string]any{"type": "object"}}}
	observationSchema = map[string]any{"title": "SrezcObservation", "type": "object",
		"properties": map[string]any{"text": map[string]any{"type": "string"}, "episode_id": map[string]any{"type": "string"},
			"step": map[string]any{"type": "integer"}, "steps_left": map[string]any{"type": "integer"}, "content": map[string]any{"type": "object"},
			"token": map[string]any{"type": "string"}, "done": map[string]any{"type": "boolean"}, "reward": map[string]any{"type": []string{"number", "null"}},
			"metadata": map[string]any{"type": "object"}}}
	stateSchema = map[string]any{"title": "State", "type": "object",
		"properties": map[string]any{"episode_id": map[string]any{"type": []string{"string", "null"}}, "step_count": map[string]any{"type": "integer", "minimum": 0}}}
)

func openAPI(version string) map[string]any {
	op := func(summary string) map[string]any {
		return map[string]any{"summary": summary, "responses": map[string]any{"200": map[string]any{"description": "OK"}}}
	}
	return map[string]any{"openapi": "3.1.0", "info": map[string]any{"title": "OpenEnv Environment HTTP API", "version": "1.0.0", "x-srezc": version},
		"paths": map[string]any{
			"/reset": map[string]any{"post": op("Start an episode")}, "/step": map[string]any{"post": op("Take a step")},
			"/state": map[string]any{"get": op("Episode state")}, "/health": map[string]any{"get": op("Health")},
			"/metadata": map[string]any{"get": op("Environment metadata")}, "/schema": map[string]any{"get": op("Action, observation and state schemas")},
			"/mcp": map[string]any{"post": op("JSON-RPC tools")},
		}}
}

// fastAPIError is FastAPI's 422 body.
func fastAPIError(typ string, loc []string, msg string, input any) map[string]any {
	l := make([]any, len(loc))
	for i, x := range loc {
		l[i] = x
	}
	return map[string]any{"detail": []any{map[string]any{"type": typ, "loc": l, "msg": msg, "input": input}}}
}

// oeObservation is OpenEnv's wire split of an observation.
type oeObservation struct {
	Observation map[string]any `json:"observation"`
	Reward      *float64       `json:"reward"`
	Done        bool           `json:"done"`
}

func (s *Server) oeFromReply(rep *Reply) *oeObservation {
	obs := map[string]any{"text": rep.Observation, "episode_id": rep.Episode, "step": rep.Step, "steps_left": rep.StepsLeft}
	if rep.Token != "" {
		obs["token"] = rep.Token
	}
	if len(rep.Content) > 0 {
		obs["content"] = rep.Content
	}
	out := &oeObservation{Observation: obs, Done: rep.Done}
	if rep.Grader != nil {
		r := rep.Grader.Reward
		out.Reward = &r
	}
	return out
}

// oeResetArgs are /reset's keyword arguments.
type oeResetArgs struct {
	Seed      *int64 `json:"seed,omitempty"`
	EpisodeID string `json:"episode_id,omitempty"`
	Task      string `json:"task,omitempty"`
	Split     string `json:"split,omitempty"`
}

func (s *Server) oeResetWith(args oeResetArgs, c caller) (int, any) {
	if args.Seed != nil && *args.Seed < 0 {
		return http.StatusUnprocessableEntity, fastAPIError("greater_than_equal", []string{"body", "seed"}, "Input should be greater than or equal to 0", *args.Seed)
	}
	seed := uint64(0)
	if args.Seed != nil {
		seed = uint64(*args.Seed)
	}
	req := CreateRequest{Task: args.Task, Split: args.Split, Seed: seed, ID: args.EpisodeID}
	if req.Task == "" && req.Split == "" {
		req.task = s.tasks[seed%uint64(len(s.tasks))]
	}
	st, body := s.createOne(&req, c)
	rep, ok := body.(*Reply)
	if !ok {
		return st, body
	}
	return http.StatusOK, s.oeFromReply(rep)
}

func (s *Server) oeReset(w http.ResponseWriter, r *http.Request) (int, any) {
	var args oeResetArgs
	if st, e := decode(r, &args, true); st != 0 {
		if st == http.StatusBadRequest {
			return http.StatusUnprocessableEntity, fastAPIError("json_invalid", []string{"body"}, e.Error.Message, nil)
		}
		return st, e
	}
	return s.oeResetWith(args, s.callerOf(r))
}

// oeAction is an OpenEnv action.
type oeAction struct {
	Action    string          `json:"action,omitempty"`
	Tool      string          `json:"tool,omitempty"`
	Arguments json.RawMessage `json:"arguments,omitempty"`
	Type      string          `json:"type,omitempty"`
	ToolName  string          `json:"tool_name,omitempty"`
	Metadata  json.RawMessage `json:"metadata,omitempty"`
}

type oeStepRequest struct {
	Action    *oeAction `json:"action"`
	TimeoutS  *float64  `json:"timeout_s,omitempty"`
	RequestID string    `json:"request_id,omitempty"`
	EpisodeID string    `json:"episode_id,omitempty"`
	Token     string    `json:"token,omitempty"`
}

func (s *Server) oeStep(w http.ResponseWriter, r *http.Request) (int, any) {
	var req oeStepRequest
	if st, e := decode(r, &req, false); st != 0 {
		if st == http.StatusBadRequest {
			return http.StatusUnprocessableEntity, fastAPIError("json_invalid", []string{"body"}, e.Error.Message, nil)
		}
		return st, e
	}
	if req.Action == nil {
		return http.StatusUnprocessableEntity, fastAPIError("missing", []string{"body", "action"}, "Field required", nil)
	}
	if req.EpisodeID == "" {
		return http.StatusUnprocessableEntity, fastAPIError("missing", []string{"body", "episode_id"},
			"srezc keeps episodes: pass the episode_id /reset returned (or use the /ws session)", nil)
	}
	return s.oeStepWith(req.EpisodeID, req.Token, req.Action, s.callerOf(r))
}

// oeStepWith plays an OpenEnv action on an episode: the next step, or a
// tools listing.
func (s *Server) oeStepWith(id, token string, a *oeAction, c caller) (int, any) {
	step := StepRequest{Step: 1}
	switch {
	case a.Type == "list_tools":
		e, fail := s.resolve(id, token, -1, c)
		if e == nil {
			return fail.Error.Status, fail
		}
		t := e.task
		e.mu.Unlock()
		var tools []map[string]any
		for _, tl := range s.toolSchemas(t) {
			tools = append(tools, map[string]any{"name": tl.Function.Name, "description": tl.Function.Description, "input_schema": tl.Function.Parameters})
		}
		return http.StatusOK, &oeObservation{Observation: map[string]any{"tools": tools}}
	case a.Type == "call_tool":
		step.Tool = &ToolCall{Name: a.ToolName, Arguments: a.Arguments}
	case a.Type != "":
		return http.StatusUnprocessableEntity, fastAPIError("literal_error", []string{"type"}, "Input should be 'list_tools' or 'call_tool'", a.Type)
	case a.Tool != "":
		step.Tool = &ToolCall{Name: a.Tool, Arguments: a.Arguments}
	default:
		step.Action = a.Action
	}
	action, st, msg := s.actionText(&step)
	if st != 0 {
		return st, errBody(st, msg)
	}
	e, fail := s.resolve(id, token, -1, c)
	if e == nil {
		return fail.Error.Status, fail
	}
	// OpenEnv steps carry no index: the next one is meant, judged under
	// the same lock that found where the episode is.
	st, body := s.playLocked(e, len(e.actions)+1, action, c)
	e.mu.Unlock()
	rep, ok := body.(*Reply)
	if !ok {
		return st, body
	}
	out := s.oeFromReply(rep)
	if a.Type == "call_tool" {
		out.Observation["tool_name"] = a.ToolName
		out.Observation["result"] = map[string]any{"content": []any{map[string]any{"type": "text", "text": rep.Observation}},
			"structured_content": rep.Content, "meta": nil, "data": rep.Observation, "is_error": false}
		out.Observation["error"] = nil
	}
	return http.StatusOK, out
}

func (s *Server) oeState(w http.ResponseWriter, r *http.Request) (int, any) {
	id := r.URL.Query().Get("episode_id")
	if id == "" {
		return http.StatusOK, map[string]any{"episode_id": nil, "step_count": 0}
	}
	e, fail := s.resolve(id, r.URL.Query().Get("token"), -1, s.callerOf(r))
	if e == nil {
		return fail.Error.Status, fail
	}
	defer e.mu.Unlock()
	return http.StatusOK, map[string]any{"episode_id": e.id, "step_count": len(e.actions), "done": e.done, "steps_left": max(0, e.task.Budget-len(e.actions))}
}

// JSON-RPC on /mcp.

type rpcRequest struct {
	JSONRPC string          `json:"jsonrpc"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params,omitempty"`
	ID      json.RawMessage `json:"id,omitempty"`
}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Data    any    `json:"data"`
}

type rpcReply struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  any             `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

func (s *Server) oeMCP(w http.ResponseWriter, r *http.Request) (int, any) {
	var raw json.RawMessage
	if err := json.NewDecoder(r.Body).Decode(&raw); err != nil {
		return http.StatusOK, rpcFail(nil, -32700, "Parse error")
	}
	return http.StatusOK, s.rpc(raw, "", s.callerOf(r))
}

func rpcFail(id json.RawMessage, code int, msg string) *rpcReply {
	if id == nil {
		id = json.RawMessage("null")
	}
	return &rpcReply{JSONRPC: "2.0", ID: id, Error: &rpcError{Code: code, Message: msg}}
}

// rpc answers one JSON-RPC request; session, when set, is the episode a
// WebSocket connection holds. Errors carry a message, never a Go value.
func (s *Server) rpc(raw json.RawMessage, session string, c caller) *rpcReply {
	var req rpcRequest
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		return rpcFail(nil, -32600, "Invalid request: "+err.Error())
	}
	if req.JSONRPC != "2.0" || req.Method == "" {
		return rpcFail(req.ID, -32600, "Invalid request: jsonrpc must be \"2.0\" and method is required")
	}
	var p struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
		SessionID string          `json:"session_id"`
		Task      string          `json:"task"`
		Seed      *int64          `json:"seed"`
	}
	if len(req.Params) > 0 {
		if err := json.Unmarshal(req.Params, &p); err != nil {
			return rpcFail(req.ID, -32602, "Invalid params: "+err.Error())
		}
	}
	if p.SessionID == "" {
		p.SessionID = session
	}
	ok := func(result any) *rpcReply { return &rpcReply{JSONRPC: "2.0", ID: orNull(req.ID), Result: result} }
	switch req.Method {
	case "openenv/session/create":
		st, body := s.oeResetWith(oeResetArgs{Task: p.Task, Seed: p.Seed}, c)
		o, isObs := body.(*oeObservation)
		if st != http.StatusOK || !isObs {
			return rpcFailBody(req.ID, -32000, "cannot create a session: ", body)
		}
		return ok(map[string]any{"session_id": o.Observation["episode_id"]})
	case "openenv/session/close":
		if p.SessionID == "" {
			return rpcFail(req.ID, -32602, "Invalid params: session_id is required")
		}
		if !c.trainer {
			return rpcFail(req.ID, -32001, "closing a session "+trainerOnly)
		}
		if !s.table.remove(p.SessionID) {
			return rpcFail(req.ID, -32602, "Invalid params: unknown session_id "+p.SessionID)
		}
		return ok(map[string]any{"session_id": p.SessionID, "closed": true})
	case "tools/list":
		t := s.tasks[0]
		if p.SessionID != "" {
			e := s.table.get(p.SessionID)
			if e == nil || !c.mayUse(e) {
				return rpcFail(req.ID, -32602, "Invalid params: unknown session_id "+p.SessionID)
			}
			t = e.task
		}
		var tools []map[string]any
		for _, tl := range s.toolSchemas(t) {
			tools = append(tools, map[string]any{"name": tl.Function.Name, "description": tl.Function.Description, "inputSchema": tl.Function.Parameters})
		}
		return ok(map[string]any{"tools": tools})
	case "tools/call":
		if p.Name == "" {
			return rpcFail(req.ID, -32602, "Invalid params: name is required")
		}
		id := p.SessionID
		if id == "" {
			// Without a session each call plays on a fresh episode, as
			// OpenEnv's reference does.
			st, body := s.oeResetWith(oeResetArgs{}, c)
			o, isObs := body.(*oeObservation)
			if st != http.StatusOK || !isObs {
				return rpcFailBody(req.ID, -32000, "cannot create an episode: ", body)
			}
			id = o.Observation["episode_id"].(string)
			defer s.table.remove(id)
		} else if e := s.table.get(id); e == nil || !c.mayUse(e) {
			return rpcFail(req.ID, -32602, "Invalid params: unknown session_id "+id)
		}
		st, body := s.oeStepWith(id, "", &oeAction{Type: "call_tool", ToolName: p.Name, Arguments: p.Arguments}, c)
		o, isObs := body.(*oeObservation)
		if st != http.StatusOK || !isObs {
			return rpcFailBody(req.ID, -32603, "", body)
		}
		return ok(o.Observation["result"])
	}
	return rpcFail(req.ID, -32601, "Method not found: "+req.Method)
}

// rpcFailBody is the JSON-RPC error for an HTTP-style failure: its
// message, and for a 429 the seconds to wait in data.retry_after.
func rpcFailBody(id json.RawMessage, code int, prefix string, body any) *rpcReply {
	out := rpcFail(id, code, prefix+messageOf(body))
	if e, ok := body.(*apiError); ok {
		data := map[string]any{"status": e.Error.Status}
		if e.retryAfter > 0 {
			data["retry_after"] = retrySeconds(e.retryAfter)
		}
		out.Error.Data = data
	}
	return out
}

func orNull(id json.RawMessage) json.RawMessage {
	if id == nil {
		return json.RawMessage("null")
	}
	return id
}

// WebSocket sessions.

type wsSessions struct {
	mu   sync.Mutex
	open int
	max  int
}

func newWSSessions(s *Server) *wsSessions { return &wsSessions{max: s.opt.Capacity} }

func (ws *wsSessions) enter() (int, bool) {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	if ws.open >= ws.max {
		return ws.open, false
	}
	ws.open++
	return ws.open, true
}

func (ws *wsSessions) leave() {
	ws.mu.Lock()
	ws.open--
	ws.mu.Unlock()
}

type wsMessage struct {
	Type string          `json:"type"`
	Data json.RawMessage `json:"data,omitempty"`
}

func wsSend(ctx context.Context, c *websocket.Conn, typ string, data any) error {
	js, err := json.Marshal(map[string]any{"type": typ, "data": data})
	if err != nil {
		return err
	}
	return c.Write(ctx, websocket.MessageText, js)
}

func wsError(ctx context.Context, c *websocket.Conn, code, msg string, extra map[string]any) error {
	d := map[string]any{"message": msg, "code": code}
	for k, v := range extra {
		d[k] = v
	}
	return wsSend(ctx, c, "error", d)
}

// oeWS is OpenEnv's /ws: a session holding one episode at a time, in
// strict request-reply lockstep.
func (s *Server) oeWS(w http.ResponseWriter, r *http.Request) (int, any) {
	return s.serveWS(w, r, false)
}

// oeWSMCP is /mcp over WebSocket: JSON-RPC messages on one session.
func (s *Server) oeWSMCP(w http.ResponseWriter, r *http.Request) (int, any) {
	if !strings.EqualFold(r.Header.Get("Upgrade"), "websocket") {
		return http.StatusMethodNotAllowed, errBody(http.StatusMethodNotAllowed, "/mcp takes POST (JSON-RPC) or a WebSocket")
	}
	return s.serveWS(w, r, true)
}

func (s *Server) serveWS(w http.ResponseWriter, r *http.Request, mcp bool) (int, any) {
	// Accept hijacks the connection, which clears the server's per-request
	// deadlines (TestWebSocketOutlivesRequestDeadlines): the session's own
	// idle timeout and pings bound it instead.
	c, err := websocket.Accept(w, r, nil)
	if err != nil {
		return 0, nil // Accept wrote the refusal
	}
	c.SetReadLimit(s.opt.MaxBody)
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	// The session's episodes are its own: another connection naming their
	// ids finds nothing.
	who := s.callerOf(r)
	who.owner = "ws:" + newID()
	n, ok := s.ws.enter()
	if !ok {
		s.m.wsClosed.WithLabelValues("capacity").Inc()
		wsError(ctx, c, "CAPACITY_REACHED", fmt.Sprintf("Server at capacity: %d/%d sessions active. Cannot accept new connections.", n, s.ws.max),
			map[string]any{"active_sessions": n, "max_sessions": s.ws.max})
		c.Close(websocket.StatusTryAgainLater, "capacity")
		return 0, nil
	}
	defer s.ws.leave()
	s.m.wsOpen.Inc()
	defer s.m.wsOpen.Dec()
	var reasonMu sync.Mutex
	reason := ""
	endAs := func(why string) {
		reasonMu.Lock()
		if reason == "" {
			reason = why
		}
		reasonMu.Unlock()
	}
	defer func() {
		endAs("client")
		s.m.wsClosed.WithLabelValues(reason).Inc()
	}()
	// Pings find a peer that vanished without closing; the pong is read by
	// the loop below, which is always waiting in Read between messages.
	go func() {
		tick := time.NewTicker(s.opt.WSPing)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				pctx, pcancel := context.WithTimeout(ctx, s.opt.WSPing)
				err := c.Ping(pctx)
				pcancel()
				if err != nil && ctx.Err() == nil {
					endAs("dead_peer")
					c.CloseNow()
					return
				}
			}
		}
	}()
	// An episode a session leaves (by a new reset, or by closing) keeps
	// its lease, so the grader can still read it; it is nobody's to step.
	episode := ""
	if mcp {
		if st, body := s.oeResetWith(oeResetArgs{}, who); st == http.StatusOK {
			episode = body.(*oeObservation).Observation["episode_id"].(string)
		}
	}
	// A session that says nothing for WSIdle (by default its episode's
	// lease) is closed with a close frame: it would hold a place under the
	// session cap forever.
	idle := time.AfterFunc(s.opt.WSIdle, func() {
		endAs("idle")
		c.Close(websocket.StatusPolicyViolation, "idle")
	})
	defer idle.Stop()
	for {
		typ, data, err := c.Read(ctx)
		if err != nil {
			return 0, nil // closed or broken: the session ends
		}
		if !idle.Reset(s.opt.WSIdle) {
			return 0, nil // the idle close won the race
		}
		if typ != websocket.MessageText {
			endAs("protocol")
			wsError(ctx, c, "SESSION_ERROR", "binary frames are not part of the protocol", nil)
			c.Close(websocket.StatusUnsupportedData, "binary frame")
			return 0, nil
		}
		if mcp {
			if err := c.Write(ctx, websocket.MessageText, mustJSON(s.rpc(data, episode, who))); err != nil {
				return 0, nil
			}
			continue
		}
		if !json.Valid(data) {
			if wsError(ctx, c, "INVALID_JSON", "Invalid JSON: the message does not parse", nil) != nil {
				return 0, nil
			}
			continue
		}
		var m wsMessage
		dec := json.NewDecoder(strings.NewReader(string(data)))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&m); err != nil {
			var te *json.UnmarshalTypeError
			switch {
			case errors.As(err, &te) && te.Field == "":
				endAs("protocol")
				wsError(ctx, c, "SESSION_ERROR", "a message is a JSON object", nil)
				c.Close(websocket.StatusUnsupportedData, "not an object")
				return 0, nil
			default:
				err = wsError(ctx, c, "VALIDATION_ERROR", "Invalid message", map[string]any{"errors": []any{err.Error()}})
			}
			if err != nil {
				return 0, nil
			}
			continue
		}
		var werr error
		switch m.Type {
		case "reset":
			var args oeResetArgs
			if len(m.Data) > 0 {
				if err := json.Unmarshal(m.Data, &args); err != nil {
					werr = wsError(ctx, c, "VALIDATION_ERROR", "Invalid message", map[string]any{"errors": []any{err.Error()}})
					break
				}
			}
			st, body := s.oeResetWith(args, who)
			if o, isObs := body.(*oeObservation); st == http.StatusOK && isObs {
				episode = o.Observation["episode_id"].(string)
				werr = wsSend(ctx, c, "observation", o)
			} else {
				werr = wsError(ctx, c, "EXECUTION_ERROR", messageOf(body), retryExtra(body))
			}
		case "step":
			var a oeAction
			d := json.NewDecoder(strings.NewReader(string(m.Data)))
			d.DisallowUnknownFields()
			if len(m.Data) == 0 || d.Decode(&a) != nil {
				werr = wsError(ctx, c, "VALIDATION_ERROR", "Invalid message", map[string]any{"errors": []any{"data must be an action object"}})
				break
			}
			if episode == "" {
				st, body := s.oeResetWith(oeResetArgs{}, who)
				if st != http.StatusOK {
					werr = wsError(ctx, c, "EXECUTION_ERROR", messageOf(body), retryExtra(body))
					break
				}
				episode = body.(*oeObservation).Observation["episode_id"].(string)
			}
			st, body := s.oeStepWith(episode, "", &a, who)
			if o, isObs := body.(*oeObservation); st == http.StatusOK && isObs {
				werr = wsSend(ctx, c, "observation", o)
			} else {
				werr = wsError(ctx, c, "EXECUTION_ERROR", messageOf(body), retryExtra(body))
			}
		case "state":
			state := map[string]any{"episode_id": nil, "step_count": 0}
			if e := s.table.get(episode); e != nil {
				e.mu.Lock()
				state = map[string]any{"episode_id": e.id, "step_count": len(e.actions), "done": e.done}
				e.mu.Unlock()
			}
			werr = wsSend(ctx, c, "state", state)
		case "close":
			c.Close(websocket.StatusNormalClosure, "")
			return 0, nil
		case "mcp":
			werr = wsSend(ctx, c, "mcp", json.RawMessage(mustJSON(s.rpc(m.Data, episode, who))))
		default:
			werr = wsError(ctx, c, "UNKNOWN_TYPE", "Unknown message type: "+m.Type, nil)
		}
		if werr != nil {
			return 0, nil
		}
	}
}

// retryExtra is the retry_after of a 429, for a WebSocket error.
func retryExtra(body any) map[string]any {
	if e, ok := body.(*apiError); ok && e.retryAfter > 0 {
		return map[string]any{"retry_after": retrySeconds(e.retryAfter)}
	}
	return nil
}

func mustJSON(v any) []byte {
	js, err := json.Marshal(v)
	if err != nil {
		js, _ = json.Marshal(rpcFail(nil, -32603, err.Error()))
	}
	return js
}

// messageOf is the human message of a failure's body.
func messageOf(body any) string {
	switch b := body.(type) {
	case *apiError:
		return b.Error.Message
	case map[string]any: // FastAPI's 422
		if d, ok := b["detail"].([]any); ok && len(d) > 0 {
			if m, ok := d[0].(map[string]any); ok {
				return fmt.Sprint(m["msg"])
			}
		}
	}
	js, _ := json.Marshal(body)
	return string(js)
}
