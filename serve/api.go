package serve

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/srezc/srezc/agents"
	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/eval"
	"github.com/srezc/srezc/record"
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
	// Trainer says whether the trainer's capabilities (tokens, rewind,
	// fork, close, chosen ids) are on; MaxAction is an action's cap.
	Trainer   bool   `json:"trainer_api"`
	MaxAction int    `json:"max_action_bytes"`
	TTL       string `json:"episode_ttl"`
	Capacity  int    `json:"capacity"`
}

func (s *Server) info(w http.ResponseWriter, r *http.Request) (int, any) {
	return http.StatusOK, Info{Srezc: s.opt.Versions.Srezc, Suite: s.suite, Renderer: engine.RendererVersion, Format: engine.FormatVersion,
		Profile: eval.Profile(s.tasks), Rubric: engine.RubricVersion, Tasks: len(s.tasks), Grader: s.opt.GraderToken != "", TTL: s.opt.TTL.String(), Capacity: s.opt.Capacity,
		Trainer: s.opt.TrainerToken != "", MaxAction: s.opt.MaxAction}
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

func (s *Server) taskView(t *engine.Task) TaskView {
	v := TaskView{Handle: s.handle(t), Alert: t.Alert, Budget: t.Budget, Services: t.ServiceNames(), Tools: []string{}}
	for _, tool := range t.ToolSet() {
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
	t, msg := s.pickTask(r.PathValue("task"), "", 0, s.trainer(r))
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
	// the same episode. Choosing an id is a trainer's capability.
	ID string `json:"id,omitempty"`
	// task, when set, is the task already picked (OpenEnv's default).
	task *engine.Task
}

// Reply is what every episode route returns: what the agent sees, the
// replay token for a trainer, and for a request with the grader token
// the grader's view.
type Reply struct {
	Episode     string          `json:"episode"`
	Step        int             `json:"step"`
	StepsLeft   int             `json:"steps_left"`
	Done        bool            `json:"done"`
	Intro       string          `json:"intro,omitempty"`
	Observation string          `json:"observation"`
	Content     json.RawMessage `json:"content,omitempty"`
	Token       string          `json:"token,omitempty"`
	Grader      *GraderView     `json:"grader,omitempty"`
}

// GraderView is the grader's side of an episode.
type GraderView struct {
	Task       string                 `json:"task"`
	Hash       string                 `json:"hash"`
	Difficulty string                 `json:"difficulty"`
	Split      string                 `json:"split"`
	Seed       uint64                 `json:"seed"`
	Reward     float64                `json:"reward"`
	Return     float64                `json:"return"`
	Components record.Components      `json:"components"`
	Terminal   string                 `json:"terminal,omitempty"`
	Record     *record.EpisodeMetrics `json:"record,omitempty"`
	Actions    []string               `json:"actions"`
	// ForkedFrom is "EPISODE@STEP" for a fork; Abandoned are the action
	// lists of the branches a rewind left, oldest first: what the trainer
	// tried and took back stays on the record.
	ForkedFrom string     `json:"forked_from,omitempty"`
	Abandoned  [][]string `json:"abandoned_branches,omitempty"`
}

func (s *Server) create(w http.ResponseWriter, r *http.Request) (int, any) {
	var req CreateRequest
	if st, e := decode(r, &req, false); st != 0 {
		return st, e
	}
	return s.createOne(&req, s.callerOf(r))
}

func (s *Server) createOne(req *CreateRequest, c caller) (int, any) {
	t := req.task
	if t == nil {
		var msg string
		if t, msg = s.pickTask(req.Task, req.Split, req.Seed, c.trainer); t == nil {
			return http.StatusBadRequest, errBody(http.StatusBadRequest, msg)
		}
	}
	id := req.ID
	switch {
	case id == "":
		id = newID()
	case !c.trainer:
		// An agent that chose ids could close nothing but could re-create
		// an id that expired, or attach to another's: ids are drawn.
		return forbidden("choosing an episode id")
	case !idPattern.MatchString(id):
		return http.StatusBadRequest, errBody(http.StatusBadRequest, "an episode id is 1 to 128 of A-Z a-z 0-9 . _ : -")
	}
	if e := s.table.get(id); e != nil {
		e.mu.Lock()
		defer e.mu.Unlock()
		if e.task != t || e.seed != req.Seed {
			return http.StatusConflict, errBody(http.StatusConflict, fmt.Sprintf("episode %s exists with another task or seed", id))
		}
		return http.StatusOK, s.reply(e, c, true)
	}
	e := &episode{id: id, task: t, seed: req.Seed, owner: c.owner}
	e.mu.Lock()
	defer e.mu.Unlock()
	if wait, ok := s.table.add(e); !ok {
		return http.StatusTooManyRequests, s.busy(wait)
	}
	e.lastText = append(e.lastText[:0], s.intros[t]...)
	e.lastJSON = nil
	s.m.created.Inc()
	return http.StatusCreated, s.reply(e, c, true)
}

// state is e as a token holds it. The caller holds e.mu.
func (e *episode) state() *tokenState {
	return &tokenState{Episode: e.id, Hash: e.task.Hash, Seed: e.seed, Actions: e.actions, Origin: e.origin, Abandoned: e.abandoned}
}

// reply builds the reply for e's current state. The caller holds e.mu.
func (s *Server) reply(e *episode, c caller, intro bool) *Reply {
	rep := &Reply{Episode: e.id, Step: len(e.actions), StepsLeft: max(0, e.task.Budget-len(e.actions)), Done: e.done,
		Observation: string(e.lastText), Content: e.lastJSON}
	if c.trainer {
		rep.Token = s.seal.seal(e.state())
	}
	if intro || len(e.actions) == 0 {
		rep.Intro = s.intros[e.task]
	}
	if c.grader {
		rep.Grader = s.graderView(e)
	}
	return rep
}

func (s *Server) graderView(e *episode) *GraderView {
	ep := s.table.materialise(e)
	defer s.table.unpin(e)
	g := &GraderView{Task: e.task.ID, Hash: e.task.Hash, Difficulty: e.task.Difficulty, Split: e.task.Split, Seed: e.seed,
		Reward: e.lastReward, Return: e.reward, Components: ep.Components(), Actions: append([]string{}, e.actions...),
		ForkedFrom: e.origin, Abandoned: e.abandoned}
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
	// Token resumes the episode on a replica that does not hold it, or
	// rewinds it to the token's step (a trainer's capability).
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
	return s.stepOne(r.PathValue("id"), &req, s.callerOf(r))
}

// stepOne plays one step request.
func (s *Server) stepOne(id string, req *StepRequest, c caller) (int, any) {
	if req.Step < 1 {
		return http.StatusBadRequest, errBody(http.StatusBadRequest, "step is the index of the step to take, from 1")
	}
	action, st, msg := s.actionText(req)
	if st != 0 {
		return st, errBody(st, msg)
	}
	e, fail := s.resolve(id, req.Token, req.Step-1, c)
	if e == nil {
		return fail.Error.Status, fail
	}
	defer e.mu.Unlock()
	return s.playLocked(e, req.Step, action, c)
}

// playLocked judges step number step of e against where e is, and plays
// it when it is the next one. The caller holds e.mu.
func (s *Server) playLocked(e *episode, step int, action string, c caller) (int, any) {
	cur := len(e.actions)
	switch {
	case step == cur && cur > 0:
		if e.actions[cur-1] != action {
			return http.StatusConflict, errBody(http.StatusConflict, fmt.Sprintf("step %d was taken with another action; the episode is at step %d", step, cur))
		}
		return http.StatusOK, s.reply(e, c, false) // a retry: the same reply
	case step <= cur:
		return http.StatusConflict, errBody(http.StatusConflict, fmt.Sprintf("step %d was taken long ago; the episode is at step %d (a trainer may fork it to go back)", step, cur))
	case step > cur+1:
		return http.StatusConflict, errBody(http.StatusConflict, fmt.Sprintf("step %d skips ahead: the episode is at step %d, so the next is %d", step, cur, cur+1))
	case e.done:
		return http.StatusConflict, errBody(http.StatusConflict, fmt.Sprintf("the episode ended at step %d", cur))
	}
	ep := s.table.materialise(e)
	act := s.table.parses.Bind(e.task, action)
	res := ep.Step(&act)
	e.actions = append(e.actions, action)
	e.lastText = ep.AppendText(e.lastText[:0], &res.Obs)
	e.lastJSON = ep.AppendJSON(nil, &res.Obs)
	e.lastReward = res.Reward
	e.reward += res.Reward
	e.done = ep.Done()
	s.table.unpin(e)
	s.m.steps.Inc()
	return http.StatusOK, s.reply(e, c, false)
}

// actionText is a step request's action as text, within MaxAction bytes:
// every action is folded into the replay token and replayed on rebuilds.
func (s *Server) actionText(req *StepRequest) (string, int, string) {
	var action string
	switch {
	case req.Tool != nil && req.Action != "":
		return "", http.StatusBadRequest, "give action or tool, not both"
	case req.Tool != nil:
		if req.Tool.Name == "" {
			return "", http.StatusBadRequest, "a tool call needs a name"
		}
		if len(req.Tool.Arguments) > s.opt.MaxAction {
			return "", http.StatusRequestEntityTooLarge, s.actionTooLong(len(req.Tool.Arguments))
		}
		action = agents.CallText(s.toolSpecsFor(req.Tool.Name), req.Tool.Name, string(req.Tool.Arguments))
	case req.Action == "":
		return "", http.StatusBadRequest, `a step needs an action ("action": "inspect_logs(database)") or a tool call ("tool": {"name": …, "arguments": {…}})`
	default:
		action = req.Action
	}
	if len(action) > s.opt.MaxAction {
		return "", http.StatusRequestEntityTooLarge, s.actionTooLong(len(action))
	}
	return action, 0, ""
}

func (s *Server) actionTooLong(n int) string {
	return fmt.Sprintf("the action is %d bytes; an action is at most %d (srezc serve --max-action)", n, s.opt.MaxAction)
}

// toolSpecsFor is the spec of a tool, as a list for agents.CallText (every
// task of a suite shares the stdlib's tools).
func (s *Server) toolSpecsFor(name string) []agents.ToolSpec {
	if sp, ok := s.toolSpecs[name]; ok {
		return []agents.ToolSpec{sp}
	}
	return nil
}

// resolve finds episode id, locked, for c. Without a token it is the
// table's copy, if c may use it. A token (a trainer's) is opened and
// checked first, whatever the table holds, so a tampered token is refused
// even when the copy is current. For a step (want ≥ 0, the step the
// episode must be at or just past, a retry) the token must be at want or
// want+1; the table's copy serves when the token's actions are its own
// (or the prefix a retry leaves), else the token's state replaces the
// copy: a resume, or a rewind whose abandoned branch the grader keeps.
// For a read (want < 0) the copy serves when it continues the token.
func (s *Server) resolve(id, token string, want int, c caller) (*episode, *apiError) {
	var st *tokenState
	if token != "" {
		if !c.trainer && !c.grader {
			_, e := forbidden("resuming or rewinding an episode from a token")
			return nil, e
		}
		var fail *apiError
		if st, fail = s.openToken(id, token); st == nil {
			return nil, fail
		}
		if want >= 0 && len(st.Actions) != want && len(st.Actions) != want+1 {
			return nil, errBody(http.StatusConflict, fmt.Sprintf("the token is at step %d; step %d needs the episode at step %d", len(st.Actions), want+1, want))
		}
	}
	for range 3 {
		e := s.table.get(id)
		if e != nil {
			e.mu.Lock()
			if e.gone {
				e.mu.Unlock()
				continue
			}
			if !c.mayUse(e) {
				e.mu.Unlock()
				return nil, notHere(id, c)
			}
			if st == nil || continues(e.actions, st.Actions, want) {
				return e, nil
			}
			e.mu.Unlock()
		}
		if st == nil {
			return nil, notHere(id, c)
		}
		ne, fail := s.rebuild(id, s.byHash[st.Hash], st.Seed, st.Actions, st.Origin, st.Abandoned)
		if ne == nil {
			return nil, fail
		}
		s.m.resumes.Inc()
		return ne, nil
	}
	return nil, errBody(http.StatusServiceUnavailable, "the episode changed under the request three times; retry")
}

// continues reports whether a copy at actions may serve a request whose
// token is at tok: the same history, or for a step (want ≥ 0) a copy one
// step past it (a retry), or for a read a copy further along it.
func continues(actions, tok []string, want int) bool {
	if len(actions) < len(tok) || !slices.Equal(actions[:len(tok)], tok) {
		return false
	}
	return want < 0 || len(actions) == want || len(actions) == want+1
}

func notHere(id string, c caller) *apiError {
	msg := fmt.Sprintf("no episode %s here (it expired, was closed or never existed)", id)
	if c.trainer {
		msg += "; send its token to take it up"
	}
	return errBody(http.StatusNotFound, msg)
}

// openToken opens a token that must be episode id's, of a task this
// server has.
func (s *Server) openToken(id, token string) (*tokenState, *apiError) {
	st, err := s.seal.open(token)
	if err != nil {
		return nil, errBody(http.StatusBadRequest, err.Error())
	}
	if st.Episode != id {
		return nil, errBody(http.StatusBadRequest, fmt.Sprintf("the token is episode %s's, not %s's", st.Episode, id))
	}
	if s.byHash[st.Hash] == nil {
		return nil, errBody(http.StatusConflict, "the token's task is not in this server's suite (the replicas serve different suites)")
	}
	return st, nil
}

// maxBranches and maxBranchBytes bound the branches an episode keeps for
// the grader, and so the size of its token (each action is bounded by
// MaxAction, an episode's actions by its budget).
const (
	maxBranches    = 32
	maxBranchBytes = 256 << 10
)

func branchBytes(bs [][]string) int {
	n := 0
	for _, b := range bs {
		for _, a := range b {
			n += len(a)
		}
	}
	return n
}

// rebuild leases an episode from its fold, replacing any copy under id,
// and returns it locked. A replaced copy whose actions the new state does
// not continue is a branch given up: it joins the abandoned ones, so the
// grader's view keeps every branch this replica saw.
func (s *Server) rebuild(id string, t *engine.Task, seed uint64, actions []string, origin string, abandoned [][]string) (*episode, *apiError) {
	for range 3 {
		e := &episode{id: id, task: t, seed: seed, actions: slices.Clone(actions), origin: origin, abandoned: slices.Clone(abandoned)}
		// The old copy's lock, then the table's (the lock order); nobody
		// can wait on e before the table holds it.
		old := s.table.peek(id)
		if old != nil {
			old.mu.Lock()
			for _, b := range old.abandoned {
				if !slices.ContainsFunc(e.abandoned, func(x []string) bool { return slices.Equal(x, b) }) {
					e.abandoned = append(e.abandoned, b)
				}
			}
			if len(old.actions) > len(actions) || !slices.Equal(old.actions, actions[:len(old.actions)]) {
				e.abandoned = append(e.abandoned, slices.Clone(old.actions))
			}
		}
		if len(e.abandoned) > maxBranches || branchBytes(e.abandoned) > maxBranchBytes {
			if old != nil {
				old.mu.Unlock()
			}
			return nil, errBody(http.StatusConflict, fmt.Sprintf("episode %s has been rewound as often as it can keep for the grader (%d branches, %d KiB); fork it instead", id, maxBranches, maxBranchBytes>>10))
		}
		e.mu.Lock()
		wait, ok, raced := s.table.replace(e, old)
		if old != nil {
			old.mu.Unlock()
		}
		switch {
		case raced:
			e.mu.Unlock()
			continue
		case !ok:
			e.mu.Unlock()
			return nil, s.busy(wait)
		}
		s.rebuildLast(e)
		return e, nil
	}
	return nil, errBody(http.StatusServiceUnavailable, "the episode changed under the request three times; retry")
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
		act := s.table.parses.Bind(e.task, a)
		res := ep.Step(&act)
		e.lastText = ep.AppendText(e.lastText[:0], &res.Obs)
		e.lastJSON = ep.AppendJSON(nil, &res.Obs)
		e.lastReward = res.Reward
		e.reward += res.Reward
	}
	e.done = ep.Done()
}

func (s *Server) observe(w http.ResponseWriter, r *http.Request) (int, any) {
	c := s.callerOf(r)
	e, fail := s.resolve(r.PathValue("id"), r.URL.Query().Get("token"), -1, c)
	if e == nil {
		return fail.Error.Status, fail
	}
	defer e.mu.Unlock()
	return http.StatusOK, s.reply(e, c, false)
}

// ForkRequest is POST /v1/episodes/{id}/fork: a new episode that continues
// from this one at a step (default: where it is now).
type ForkRequest struct {
	At    *int   `json:"at,omitempty"`
	ID    string `json:"id,omitempty"`
	Token string `json:"token,omitempty"`
}

func (s *Server) fork(w http.ResponseWriter, r *http.Request) (int, any) {
	c := s.callerOf(r)
	if !c.trainer {
		return forbidden("forking an episode")
	}
	var req ForkRequest
	if st, e := decode(r, &req, true); st != 0 {
		return st, e
	}
	var t *engine.Task
	var seed uint64
	var actions []string
	if req.Token != "" {
		// Fork from the token's state, whatever the table holds.
		st, fail := s.openToken(r.PathValue("id"), req.Token)
		if st == nil {
			return fail.Error.Status, fail
		}
		t, seed, actions = s.byHash[st.Hash], st.Seed, st.Actions
	} else {
		e, fail := s.resolve(r.PathValue("id"), "", -1, c)
		if e == nil {
			return fail.Error.Status, fail
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
	ne, fail := s.rebuild(id, t, seed, actions[:at], fmt.Sprintf("%s@%d", r.PathValue("id"), at), nil)
	if ne == nil {
		return fail.Error.Status, fail
	}
	defer ne.mu.Unlock()
	s.m.forks.Inc()
	return http.StatusCreated, s.reply(ne, c, true)
}

func (s *Server) close(w http.ResponseWriter, r *http.Request) (int, any) {
	if !s.trainer(r) {
		// Closing and creating again under the same id would be a rewind
		// that erases the first attempt from the grader's view.
		return forbidden("closing an episode")
	}
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

// BatchItem is one result of a batch: the reply, or the error, and for a
// 429 the seconds to wait (the Retry-After a single request would get).
type BatchItem struct {
	Status     int     `json:"status"`
	Reply      *Reply  `json:"reply,omitempty"`
	Error      *string `json:"error,omitempty"`
	RetryAfter int     `json:"retry_after,omitempty"`
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
	c := s.callerOf(r)
	out := make([]BatchItem, len(reqs))
	for i := range reqs {
		st, body := s.createOne(&reqs[i], c)
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
	c := s.callerOf(r)
	out := make([]BatchItem, len(req.Steps))
	for i := range req.Steps {
		st, body := s.stepOne(req.Steps[i].Episode, &req.Steps[i].StepRequest, c)
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
		if b.retryAfter > 0 {
			it.RetryAfter = retrySeconds(b.retryAfter)
		}
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
	e, fail := s.resolve(r.PathValue("id"), r.URL.Query().Get("token"), -1, s.callerOf(r))
	if e == nil {
		return fail.Error.Status, fail
	}
	defer e.mu.Unlock()
	return http.StatusOK, s.graderView(e)
}
