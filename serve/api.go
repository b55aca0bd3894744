package serve

import (
	"encoding/json"
	"fmt"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/srezc/srezc/agents"
	"github.com/srezc/srezc/compiler"
	"github.com/srezc/srezc/eval"
	rt "github.com/srezc/srezc/runtime"
)

func (s *Server) routes() {
	s.route("GET /v1/info", "info", false, s.info)
	s.route("GET /v1/tasks", "tasks", false, s.catalogue)
	s.route("GET /v1/tasks/{task}/tools", "tools", false, s.tools)
	s.route("POST /v1/episodes", "create", false, s.create)
	s.route("POST /v1/batch/episodes", "batch_create", false, s.batchCreate)
	s.route("GET /v1/episodes/{id}", "observe", false, s.observe)
	s.route("POST /v1/episodes/{id}/step", "step", false, s.step)
	s.route("POST /v1/batch/steps", "batch_step", false, s.batchStep)
	s.route("POST /v1/episodes/{id}/fork", "fork", false, s.fork)
	s.route("DELETE /v1/episodes/{id}", "close", false, s.close)
	s.route("GET /v1/grader/tasks", "grader_tasks", false, s.graderOnly(s.graderCatalogue))
	s.route("GET /v1/grader/episodes/{id}", "grader_episode", false, s.graderOnly(s.graderEpisode))
	s.routeOpenEnv()
	s.mux.Handle("GET /metrics", promhttp.HandlerFor(s.reg, promhttp.HandlerOpts{}))
	s.route("/", "unknown", true, func(w http.ResponseWriter, r *http.Request) (int, any) {
		var allow []string
		for _, m := range []string{"GET", "POST", "DELETE"} {
			probe := r.Clone(r.Context())
			probe.Method = m
			if _, pattern := s.mux.Handler(probe); pattern != "/" {
				allow = append(allow, m)
			}
		}
		if len(allow) > 0 {
			w.Header().Set("Allow", strings.Join(allow, ", "))
			return http.StatusMethodNotAllowed, errBody(http.StatusMethodNotAllowed, fmt.Sprintf("%s takes %s, not %s", r.URL.Path, strings.Join(allow, " or "), r.Method))
		}
		return http.StatusNotFound, errBody(http.StatusNotFound, fmt.Sprintf("no route %s %s (GET /v1/info; the README lists the API)", r.Method, r.URL.Path))
	})
}

// Info is GET /v1/info.
type Info struct {
	Srezc    string `json:"srezc"`
	Suite    string `json:"suite"`
	Renderer string `json:"renderer"`
	Format   int    `json:"ir_format"`
	Profile  string `json:"rubric_profile"`
	Rubric   int    `json:"rubric_version"`
	Tasks    int    `json:"tasks"`
	Grader   bool   `json:"grader_view"`
	TTL      string `json:"episode_ttl"`
	Capacity int    `json:"capacity"`
}

func (s *Server) info(w http.ResponseWriter, r *http.Request) (int, any) {
	return http.StatusOK, Info{Srezc: s.opt.Versions.Srezc, Suite: s.suite, Renderer: rt.RendererVersion, Format: rt.FormatVersion,
		Profile: eval.Profile(s.tasks), Rubric: rt.RubricVersion, Tasks: len(s.tasks), Grader: s.opt.GraderToken != "", TTL: s.opt.TTL.String(), Capacity: s.opt.Capacity}
}

// TaskView is what an agent may know of a task: an opaque handle, the
// alert, the services, the budget and the tools. No id, difficulty,
// split or anything the grader reads.
type TaskView struct {
	Handle   string   `json:"handle"`
	Alert    string   `json:"alert"`
	Services []string `json:"services"`
	Budget   int      `json:"budget"`
	Tools    []string `json:"tools"`
}

func (s *Server) taskView(t *rt.Task) TaskView {
	v := TaskView{Handle: handle(t), Alert: t.Alert, Budget: t.Budget, Services: []string{}, Tools: []string{}}
	for _, sv := range t.Services {
		v.Services = append(v.Services, sv.Name)
	}
	for _, tool := range t.Tools {
		v.Tools = append(v.Tools, tool.Name)
	}
	return v
}

func (s *Server) catalogue(w http.ResponseWriter, r *http.Request) (int, any) {
	out := make([]TaskView, len(s.tasks))
	for i, t := range s.tasks {
		out[i] = s.taskView(t)
	}
	return http.StatusOK, map[string]any{"tasks": out}
}

func (s *Server) tools(w http.ResponseWriter, r *http.Request) (int, any) {
	t, msg := s.pickTask(r.PathValue("task"), "", 0)
	if t == nil {
		return http.StatusNotFound, errBody(http.StatusNotFound, msg)
	}
	return http.StatusOK, map[string]any{"tools": s.toolSchemas(t)}
}

// CreateRequest is POST /v1/episodes.
type CreateRequest struct {
	Task  string `json:"task,omitempty"`
	Split string `json:"split,omitempty"`
	Seed  uint64 `json:"seed"`
	// ID, when given, makes creation idempotent: the same id again gives
	// the same episode.
	ID string `json:"id,omitempty"`
}

// Reply is what every episode route returns: what the agent sees, and the
// replay token. Grader is present only for a request with the grader
// token.
type Reply struct {
	Episode     string          `json:"episode"`
	Step        int             `json:"step"`
	StepsLeft   int             `json:"steps_left"`
	Done        bool            `json:"done"`
	Intro       string          `json:"intro,omitempty"`
	Observation string          `json:"observation"`
	Content     json.RawMessage `json:"content,omitempty"`
	Token       string          `json:"token"`
	Grader      *GraderView     `json:"grader,omitempty"`
}

// GraderView is the grader's side of an episode.
type GraderView struct {
	Task       string        `json:"task"`
	Hash       string        `json:"hash"`
	Difficulty string        `json:"difficulty"`
	Split      string        `json:"split"`
	Seed       uint64        `json:"seed"`
	Reward     float64       `json:"reward"`
	Return     float64       `json:"return"`
	Components rt.Components `json:"components"`
	Terminal   string        `json:"terminal,omitempty"`
	Record     *rt.Record    `json:"record,omitempty"`
	Actions    []string      `json:"actions"`
}

func (s *Server) create(w http.ResponseWriter, r *http.Request) (int, any) {
	var req CreateRequest
	if st, e := decode(r, &req, false); st != 0 {
		return st, e
	}
	return s.createOne(w, &req, s.grader(r))
}

func (s *Server) createOne(w http.ResponseWriter, req *CreateRequest, grader bool) (int, any) {
	t, msg := s.pickTask(req.Task, req.Split, req.Seed)
	if t == nil {
		return http.StatusBadRequest, errBody(http.StatusBadRequest, msg)
	}
	id := req.ID
	if id == "" {
		id = newID()
	} else if !idPattern.MatchString(id) {
		return http.StatusBadRequest, errBody(http.StatusBadRequest, "an episode id is 1 to 128 of A-Z a-z 0-9 . _ : -")
	}
	if e := s.table.get(id); e != nil {
		e.mu.Lock()
		defer e.mu.Unlock()
		if e.task != t || e.seed != req.Seed {
			return http.StatusConflict, errBody(http.StatusConflict, fmt.Sprintf("episode %s exists with another task or seed", id))
		}
		return http.StatusOK, s.reply(e, grader, true)
	}
	e := &episode{id: id, task: t, seed: req.Seed}
	e.mu.Lock()
	defer e.mu.Unlock()
	if wait, ok := s.table.add(e); !ok {
		if w != nil {
			w.Header().Set("Retry-After", strconv.Itoa(int((wait+time.Second-1)/time.Second)))
		}
		return http.StatusTooManyRequests, errBody(http.StatusTooManyRequests, fmt.Sprintf("the server holds %d episodes, its capacity; close some, or retry after %s", s.opt.Capacity, wait.Round(time.Second)))
	}
	e.lastText = append(e.lastText[:0], s.intros[t]...)
	e.lastJSON = nil
	s.m.created.Inc()
	return http.StatusCreated, s.reply(e, grader, true)
}

// reply builds the reply for e's current state. The caller holds e.mu.
func (s *Server) reply(e *episode, grader, intro bool) *Reply {
	rep := &Reply{Episode: e.id, Step: len(e.actions), StepsLeft: max(0, e.task.Budget-len(e.actions)), Done: e.done,
		Observation: string(e.lastText), Content: e.lastJSON,
		Token: s.seal.seal(&tokenState{Episode: e.id, Hash: e.task.Hash, Seed: e.seed, Actions: e.actions})}
	if intro || len(e.actions) == 0 {
		rep.Intro = s.intros[e.task]
	}
	if grader {
		rep.Grader = s.graderView(e)
	}
	return rep
}

func (s *Server) graderView(e *episode) *GraderView {
	ep := s.table.materialise(e)
	defer s.table.unpin(e)
	g := &GraderView{Task: e.task.ID, Hash: e.task.Hash, Difficulty: e.task.Difficulty, Split: e.task.Split, Seed: e.seed,
		Reward: e.lastReward, Return: e.reward, Components: ep.Components(), Actions: append([]string{}, e.actions...)}
	if ep.Done() {
		rec := ep.Record()
		g.Record = &rec
		g.Terminal = rec.Terminal
	}
	return g
}

// StepRequest is POST /v1/episodes/{id}/step. Step is the index the step
// will have (1 for the first): a retry of a step already taken returns
// its reply again, a gap is refused. The action is a text action, or a
// structured tool call.
type StepRequest struct {
	Step   int       `json:"step"`
	Action string    `json:"action,omitempty"`
	Tool   *ToolCall `json:"tool,omitempty"`
	// Token resumes the episode on a replica that does not hold it (or
	// holds it at another step).
	Token string `json:"token,omitempty"`
}

// ToolCall is a structured action.
type ToolCall struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments,omitempty"`
}

func (s *Server) step(w http.ResponseWriter, r *http.Request) (int, any) {
	var req StepRequest
	if st, e := decode(r, &req, false); st != 0 {
		return st, e
	}
	return s.stepOne(r.PathValue("id"), &req, s.grader(r))
}

// stepOne plays one step request.
func (s *Server) stepOne(id string, req *StepRequest, grader bool) (int, any) {
	if req.Step < 1 {
		return http.StatusBadRequest, errBody(http.StatusBadRequest, "step is the index of the step to take, from 1")
	}
	action, st, msg := s.actionText(req)
	if st != 0 {
		return st, errBody(st, msg)
	}
	e, st, msg := s.resolve(id, req.Token, req.Step-1)
	if e == nil {
		return st, errBody(st, msg)
	}
	defer e.mu.Unlock()
	return s.playLocked(e, req.Step, action, grader)
}

// playLocked judges step number step of e against where e is, and plays
// it when it is the next one. The caller holds e.mu.
func (s *Server) playLocked(e *episode, step int, action string, grader bool) (int, any) {
	cur := len(e.actions)
	switch {
	case step == cur && cur > 0:
		if e.actions[cur-1] != action {
			return http.StatusConflict, errBody(http.StatusConflict, fmt.Sprintf("step %d was taken with another action; the episode is at step %d", step, cur))
		}
		return http.StatusOK, s.reply(e, grader, false) // a retry: the same reply
	case step <= cur:
		return http.StatusConflict, errBody(http.StatusConflict, fmt.Sprintf("step %d was taken long ago; the episode is at step %d (fork it to go back)", step, cur))
	case step > cur+1:
		return http.StatusConflict, errBody(http.StatusConflict, fmt.Sprintf("step %d skips ahead: the episode is at step %d, so the next is %d", step, cur, cur+1))
	case e.done:
		return http.StatusConflict, errBody(http.StatusConflict, fmt.Sprintf("the episode ended at step %d", cur))
	}
	ep := s.table.materialise(e)
	act := compiler.BindText(e.task, action)
	res := ep.Step(&act)
	e.actions = append(e.actions, action)
	e.lastText = ep.AppendText(e.lastText[:0], &res.Obs)
	e.lastJSON = ep.AppendJSON(nil, &res.Obs)
	e.lastReward = res.Reward
	e.reward += res.Reward
	e.done = ep.Done()
	s.table.unpin(e)
	s.m.steps.Inc()
	return http.StatusOK, s.reply(e, grader, false)
}

// actionText is a step request's action as text.
func (s *Server) actionText(req *StepRequest) (string, int, string) {
	switch {
	case req.Tool != nil && req.Action != "":
		return "", http.StatusBadRequest, "give action or tool, not both"
	case req.Tool != nil:
		if req.Tool.Name == "" {
			return "", http.StatusBadRequest, "a tool call needs a name"
		}
		return agents.CallText(s.toolSpecsFor(req.Tool.Name), req.Tool.Name, string(req.Tool.Arguments)), 0, ""
	case req.Action == "":
		return "", http.StatusBadRequest, `a step needs an action ("action": "inspect_logs(database)") or a tool call ("tool": {"name": …, "arguments": {…}})`
	}
	return req.Action, 0, ""
}

// toolSpecsFor is the spec of a tool, as a list for agents.CallText (every
// task of a suite shares the stdlib's tools).
func (s *Server) toolSpecsFor(name string) []agents.ToolSpec {
	if sp, ok := s.toolSpecs[name]; ok {
		return []agents.ToolSpec{sp}
	}
	return nil
}

// resolve finds episode id, locked. For a step (want ≥ 0, the step the
// episode must be at or just past) it is the table's copy when that is at
// want or want+1 (a retry), else the token's state, which must be too and
// then replaces the copy. For a read (want < 0) it is the table's copy,
// or the token's state when the table has none. It returns the status and
// message of a failure.
func (s *Server) resolve(id, token string, want int) (*episode, int, string) {
	for range 3 {
		e := s.table.get(id)
		if e != nil {
			e.mu.Lock()
			if e.gone {
				e.mu.Unlock()
				continue
			}
			if token == "" || want < 0 || len(e.actions) == want || len(e.actions) == want+1 {
				return e, 0, ""
			}
			e.mu.Unlock()
		}
		if token == "" {
			return nil, http.StatusNotFound, fmt.Sprintf("no episode %s here (it expired, was closed or never existed); send its token to take it up", id)
		}
		st, status, msg := s.openToken(id, token)
		if st == nil {
			return nil, status, msg
		}
		if want >= 0 && len(st.Actions) != want && len(st.Actions) != want+1 {
			return nil, http.StatusConflict, fmt.Sprintf("the token is at step %d; step %d needs the episode at step %d", len(st.Actions), want+1, want)
		}
		ne, err := s.rebuild(id, s.byHash[st.Hash], st.Seed, st.Actions)
		if err != "" {
			return nil, http.StatusTooManyRequests, err
		}
		s.m.resumes.Inc()
		return ne, 0, ""
	}
	return nil, http.StatusServiceUnavailable, "the episode changed under the request three times; retry"
}

// openToken opens a token that must be episode id's, of a task this
// server has.
func (s *Server) openToken(id, token string) (*tokenState, int, string) {
	st, err := s.seal.open(token)
	if err != nil {
		return nil, http.StatusBadRequest, err.Error()
	}
	if st.Episode != id {
		return nil, http.StatusBadRequest, fmt.Sprintf("the token is episode %s's, not %s's", st.Episode, id)
	}
	if s.byHash[st.Hash] == nil {
		return nil, http.StatusConflict, "the token's task is not in this server's suite (the replicas serve different suites)"
	}
	return st, 0, ""
}

// rebuild leases an episode from its fold, replacing any copy under id,
// and returns it locked.
func (s *Server) rebuild(id string, t *rt.Task, seed uint64, actions []string) (*episode, string) {
	e := &episode{id: id, task: t, seed: seed, actions: slices.Clone(actions)}
	e.mu.Lock()
	if wait, ok := s.table.replace(e); !ok {
		e.mu.Unlock()
		return nil, fmt.Sprintf("the server is at capacity; retry after %s", wait.Round(time.Second))
	}
	s.rebuildLast(e)
	return e, ""
}

// rebuildLast materialises e and renders its last observation, replaying
// its actions.
func (s *Server) rebuildLast(e *episode) {
	s.m.replays.Inc()
	ep, _ := s.table.pin(e)
	defer s.table.unpin(e)
	// Replay from the start (whatever the slot held) to render the last
	// step's observation and sum the rewards as they came.
	ep.Reset(e.seed)
	e.reward, e.lastReward = 0, 0
	e.lastText = append(e.lastText[:0], s.intros[e.task]...)
	e.lastJSON = nil
	for _, a := range e.actions {
		act := compiler.BindText(e.task, a)
		res := ep.Step(&act)
		e.lastText = ep.AppendText(e.lastText[:0], &res.Obs)
		e.lastJSON = ep.AppendJSON(nil, &res.Obs)
		e.lastReward = res.Reward
		e.reward += res.Reward
	}
	e.done = ep.Done()
}

func (s *Server) observe(w http.ResponseWriter, r *http.Request) (int, any) {
	e, st, msg := s.resolve(r.PathValue("id"), r.URL.Query().Get("token"), -1)
	if e == nil {
		return st, errBody(st, msg)
	}
	defer e.mu.Unlock()
	return http.StatusOK, s.reply(e, s.grader(r), false)
}

// ForkRequest is POST /v1/episodes/{id}/fork: a new episode that continues
// from this one at a step (default: where it is now).
type ForkRequest struct {
	At    *int   `json:"at,omitempty"`
	ID    string `json:"id,omitempty"`
	Token string `json:"token,omitempty"`
}

func (s *Server) fork(w http.ResponseWriter, r *http.Request) (int, any) {
	var req ForkRequest
	if st, e := decode(r, &req, true); st != 0 {
		return st, e
	}
	var t *rt.Task
	var seed uint64
	var actions []string
	if req.Token != "" {
		// Fork from the token's state, whatever the table holds.
		st, status, msg := s.openToken(r.PathValue("id"), req.Token)
		if st == nil {
			return status, errBody(status, msg)
		}
		t, seed, actions = s.byHash[st.Hash], st.Seed, st.Actions
	} else {
		e, status, msg := s.resolve(r.PathValue("id"), "", -1)
		if e == nil {
			return status, errBody(status, msg)
		}
		t, seed, actions = e.task, e.seed, slices.Clone(e.actions)
		e.mu.Unlock()
	}
	at := len(actions)
	if req.At != nil {
		at = *req.At
	}
	if at < 0 || at > len(actions) {
		return http.StatusBadRequest, errBody(http.StatusBadRequest, fmt.Sprintf("at must be a step from 0 to %d", len(actions)))
	}
	id := req.ID
	if id == "" {
		id = newID()
	} else if !idPattern.MatchString(id) {
		return http.StatusBadRequest, errBody(http.StatusBadRequest, "an episode id is 1 to 128 of A-Z a-z 0-9 . _ : -")
	} else if s.table.get(id) != nil {
		return http.StatusConflict, errBody(http.StatusConflict, fmt.Sprintf("episode %s exists already", id))
	}
	ne, err := s.rebuild(id, t, seed, actions[:at])
	if err != "" {
		return http.StatusTooManyRequests, errBody(http.StatusTooManyRequests, err)
	}
	defer ne.mu.Unlock()
	s.m.forks.Inc()
	return http.StatusCreated, s.reply(ne, s.grader(r), true)
}

func (s *Server) close(w http.ResponseWriter, r *http.Request) (int, any) {
	id := r.PathValue("id")
	if !s.table.remove(id) {
		return http.StatusNotFound, errBody(http.StatusNotFound, fmt.Sprintf("no episode %s here", id))
	}
	s.m.closed.Inc()
	return http.StatusOK, map[string]any{"episode": id, "closed": true}
}

// BatchCreateRequest is POST /v1/batch/episodes: a list of creations, or
// a group (GRPO: Count episodes of one task and seed, ids ID-0 … ID-(G-1)
// when ID is given).
type BatchCreateRequest struct {
	Episodes []CreateRequest `json:"episodes,omitempty"`
	Group    *struct {
		CreateRequest
		Count int `json:"count"`
	} `json:"group,omitempty"`
}

// BatchItem is one result of a batch: the reply, or the error.
type BatchItem struct {
	Status int     `json:"status"`
	Reply  *Reply  `json:"reply,omitempty"`
	Error  *string `json:"error,omitempty"`
}

const maxBatch = 1024

func (s *Server) batchCreate(w http.ResponseWriter, r *http.Request) (int, any) {
	var req BatchCreateRequest
	if st, e := decode(r, &req, false); st != 0 {
		return st, e
	}
	reqs := req.Episodes
	if req.Group != nil {
		if len(reqs) > 0 {
			return http.StatusBadRequest, errBody(http.StatusBadRequest, "give episodes or group, not both")
		}
		if req.Group.Count < 1 || req.Group.Count > maxBatch {
			return http.StatusBadRequest, errBody(http.StatusBadRequest, fmt.Sprintf("a group has 1 to %d episodes", maxBatch))
		}
		for k := 0; k < req.Group.Count; k++ {
			c := req.Group.CreateRequest
			if c.ID != "" {
				c.ID = fmt.Sprintf("%s-%d", c.ID, k)
			}
			reqs = append(reqs, c)
		}
	}
	if len(reqs) == 0 || len(reqs) > maxBatch {
		return http.StatusBadRequest, errBody(http.StatusBadRequest, fmt.Sprintf("a batch has 1 to %d episodes", maxBatch))
	}
	s.m.batchSize.Observe(float64(len(reqs)))
	grader := s.grader(r)
	out := make([]BatchItem, len(reqs))
	for i := range reqs {
		st, body := s.createOne(nil, &reqs[i], grader)
		out[i] = batchItem(st, body)
	}
	return http.StatusOK, map[string]any{"episodes": out}
}

// BatchStepRequest is POST /v1/batch/steps.
type BatchStepRequest struct {
	Steps []struct {
		Episode string `json:"episode"`
		StepRequest
	} `json:"steps"`
}

func (s *Server) batchStep(w http.ResponseWriter, r *http.Request) (int, any) {
	var req BatchStepRequest
	if st, e := decode(r, &req, false); st != 0 {
		return st, e
	}
	if len(req.Steps) == 0 || len(req.Steps) > maxBatch {
		return http.StatusBadRequest, errBody(http.StatusBadRequest, fmt.Sprintf("a batch has 1 to %d steps", maxBatch))
	}
	s.m.batchSize.Observe(float64(len(req.Steps)))
	grader := s.grader(r)
	out := make([]BatchItem, len(req.Steps))
	for i := range req.Steps {
		st, body := s.stepOne(req.Steps[i].Episode, &req.Steps[i].StepRequest, grader)
		out[i] = batchItem(st, body)
	}
	return http.StatusOK, map[string]any{"results": out}
}

func batchItem(status int, body any) BatchItem {
	it := BatchItem{Status: status}
	switch b := body.(type) {
	case *Reply:
		it.Reply = b
	case *apiError:
		it.Error = &b.Error.Message
	}
	return it
}

func (s *Server) graderOnly(h func(w http.ResponseWriter, r *http.Request) (int, any)) func(w http.ResponseWriter, r *http.Request) (int, any) {
	return func(w http.ResponseWriter, r *http.Request) (int, any) {
		if s.opt.GraderToken == "" {
			return http.StatusNotFound, errBody(http.StatusNotFound, "the grader view is off (start srezc serve with --grader-token)")
		}
		if !s.grader(r) {
			return http.StatusForbidden, errBody(http.StatusForbidden, "the grader view needs the X-Srezc-Grader-Token header")
		}
		return h(w, r)
	}
}

// GraderTask is a task as the grader sees it.
type GraderTask struct {
	TaskView
	ID         string   `json:"id"`
	Hash       string   `json:"hash"`
	Difficulty string   `json:"difficulty"`
	Split      string   `json:"split"`
	Tags       []string `json:"tags,omitempty"`
	Optimal    int      `json:"optimal_steps"`
	Certified  bool     `json:"certified"`
}

func (s *Server) graderCatalogue(w http.ResponseWriter, r *http.Request) (int, any) {
	out := make([]GraderTask, len(s.tasks))
	for i, t := range s.tasks {
		out[i] = GraderTask{TaskView: s.taskView(t), ID: t.ID, Hash: t.Hash, Difficulty: t.Difficulty, Split: t.Split, Tags: t.Tags, Optimal: t.Optimal, Certified: t.Certified}
	}
	return http.StatusOK, map[string]any{"tasks": out}
}

func (s *Server) graderEpisode(w http.ResponseWriter, r *http.Request) (int, any) {
	e, st, msg := s.resolve(r.PathValue("id"), r.URL.Query().Get("token"), -1)
	if e == nil {
		return st, errBody(st, msg)
	}
	defer e.mu.Unlock()
	return http.StatusOK, s.graderView(e)
}
