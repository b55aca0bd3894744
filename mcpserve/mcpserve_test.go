package mcpserve_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/srezc/srezc/action"
	"github.com/srezc/srezc/agents"
	"github.com/srezc/srezc/compiler"
	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/eval"
	"github.com/srezc/srezc/internal/worldtest"
	"github.com/srezc/srezc/lang"
	"github.com/srezc/srezc/mcpserve"
	"github.com/srezc/srezc/record"
)

var (
	suiteOnce  sync.Once
	suiteTasks []*engine.Task
	suiteErr   string
)

// defaultSuite is the embedded suite as srezc mcp serves it from a file:
// compiled, encoded with EncodeSuite and decoded again.
func defaultSuite(t *testing.T) []*engine.Task {
	t.Helper()
	suiteOnce.Do(func() {
		m, diags := lang.Analyze(lang.ScenarioFiles())
		tasks, more := compiler.CompileModule(m)
		if diags = append(diags, more...); diags.HasErrors() {
			var b bytes.Buffer
			lang.WriteText(&b, m.Files, diags)
			suiteErr = b.String()
			return
		}
		data, err := engine.EncodeSuite(tasks)
		if err == nil {
			suiteTasks, err = engine.DecodeSuite(data)
		}
		if err != nil {
			suiteErr = err.Error()
		}
	})
	if suiteErr != "" {
		t.Fatalf("default suite: %s", suiteErr)
	}
	return suiteTasks
}

func task(t *testing.T, id string) *engine.Task {
	t.Helper()
	for _, tk := range defaultSuite(t) {
		if tk.ID == id {
			return tk
		}
	}
	t.Fatalf("no task %s in the default suite", id)
	return nil
}

var versions = record.Versions{Srezc: "test", Renderer: engine.RendererVersion, Profile: record.ProfileNative, Format: engine.FormatVersion}

// newServer serves tasks, recording into a fresh folder; Close runs at
// the end of the test.
func newServer(t *testing.T, opt mcpserve.Options) (*mcpserve.Server, string) {
	t.Helper()
	dir := t.TempDir()
	opt.RecordPath = filepath.Join(dir, "records.jsonl")
	opt.Suite = engine.SuiteHash(defaultSuite(t))
	opt.Versions = versions
	srv, err := mcpserve.New(opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv, opt.RecordPath
}

// connect opens a session over an in-memory transport as client name.
func connect(t *testing.T, srv *mcpserve.Server, name string) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	if _, err := srv.Connect(ctx, st); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: name, Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// callText makes one tool call and returns its text; it fails the test
// on an error result unless wantError.
func callText(t *testing.T, cs *mcp.ClientSession, tool string, args any, wantError bool) string {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	if res.IsError != wantError {
		t.Fatalf("%s: IsError %v, want %v: %v", tool, res.IsError, wantError, res.Content)
	}
	if len(res.Content) != 1 {
		t.Fatalf("%s: %d content items, want one text", tool, len(res.Content))
	}
	tc, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("%s: content %T, want text", tool, res.Content[0])
	}
	if res.StructuredContent != nil || len(res.Meta) > 0 {
		t.Fatalf("%s: the result carries more than the observation text: %v %v", tool, res.StructuredContent, res.Meta)
	}
	return tc.Text
}

// expertCalls turns an expert plan's text actions into tool calls: the
// tool, and an arguments object keyed by the tool's argument names whose
// values keep their type as written (150 an int, 150.0 a float).
func expertCalls(t *testing.T, tk *engine.Task) (tools []string, args []json.RawMessage) {
	t.Helper()
	specs := action.Specs(tk)
	for _, text := range tk.Expert {
		call, diag := action.Parse(text)
		if diag != nil {
			t.Fatalf("%s: expert action %q: %s", tk.ID, text, diag.Summary)
		}
		i := slices.IndexFunc(specs, func(s agents.ToolSpec) bool { return s.Name == call.Tool })
		if i < 0 || len(call.Args) > len(specs[i].Args) {
			t.Fatalf("%s: expert action %q does not fit the tool's spec", tk.ID, text)
		}
		obj := []byte{'{'}
		for j, a := range call.Args {
			if j > 0 {
				obj = append(obj, ',')
			}
			name, _ := json.Marshal(specs[i].Args[j].Name)
			obj = append(append(obj, name...), ':')
			obj = a.Value.AppendJSON(obj)
		}
		tools = append(tools, call.Tool)
		args = append(args, append(obj, '}'))
	}
	return tools, args
}

func readRecords(t *testing.T, path string) []record.Line {
	t.Helper()
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := record.Decode(path, f)
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// replayRecord is the record srezc eval would write for the replay agent
// playing tk's expert plan as agent.
func replayRecord(t *testing.T, tk *engine.Task, episode int, seed uint64, agent string) record.Line {
	t.Helper()
	ep := eval.Play(tk, agents.NewReplay(strings.Join(tk.Expert, "\n")), episode, seed, true)
	rec := eval.NewRecord(agent, engine.SuiteHash(defaultSuite(t)), versions, tk, &ep, false)
	// Read back as from records.jsonl.
	js, err := json.Marshal(&rec)
	if err != nil {
		t.Fatal(err)
	}
	var back record.Line
	if err := json.Unmarshal(js, &back); err != nil {
		t.Fatal(err)
	}
	return back
}

// sameRecord compares two records field by field. Their actions may be
// written differently (a tool call's strings are quoted, an expert plan's
// service names bare) but must be the same calls with the same values.
func sameRecord(t *testing.T, a, b record.Line) bool {
	t.Helper()
	if len(a.Trajectory) != len(b.Trajectory) {
		return false
	}
	a.Trajectory, b.Trajectory = slices.Clone(a.Trajectory), slices.Clone(b.Trajectory)
	for i := range a.Trajectory {
		ca, da := action.Parse(a.Trajectory[i].Action)
		cb, db := action.Parse(b.Trajectory[i].Action)
		if da != nil || db != nil || ca.Tool != cb.Tool || len(ca.Args) != len(cb.Args) {
			return false
		}
		for j := range ca.Args {
			if !ca.Args[j].Value.Equal(cb.Args[j].Value) || ca.Args[j].Value.K != cb.Args[j].Value.K {
				return false
			}
		}
		a.Trajectory[i].Action, b.Trajectory[i].Action = "", ""
	}
	return reflect.DeepEqual(a, b)
}

// The session's starting context is the episode's intro, as instructions,
// resource and prompt, with no grader field; the tools are the incident's,
// a service argument an enum of its services.
func TestIntroAndTools(t *testing.T) {
	tk := task(t, "db_crash")
	srv, _ := newServer(t, mcpserve.Options{Tasks: []*engine.Task{tk}, Seed: 3})
	cs := connect(t, srv, "tester")
	ctx := context.Background()

	ep := engine.NewEpisode(tk)
	ep.Reset(3)
	intro := string(ep.AppendIntro(nil))
	got := cs.InitializeResult().Instructions
	if got != intro {
		t.Fatalf("instructions:\n%s\nwant the intro:\n%s", got, intro)
	}
	for _, secret := range []string{tk.ID, tk.Hash, tk.Hash[:12], "difficulty", "split"} {
		if strings.Contains(got, secret) {
			t.Errorf("the instructions show %q", secret)
		}
	}
	res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: mcpserve.IncidentURI})
	if err != nil || len(res.Contents) != 1 || res.Contents[0].Text != intro {
		t.Fatalf("resource %s: %v %+v, want the intro", mcpserve.IncidentURI, err, res)
	}
	pr, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: mcpserve.IncidentPrompt})
	if err != nil || len(pr.Messages) != 1 {
		t.Fatalf("prompt %s: %v %+v", mcpserve.IncidentPrompt, err, pr)
	}
	if tc, ok := pr.Messages[0].Content.(*mcp.TextContent); !ok || tc.Text != intro || pr.Messages[0].Role != "user" {
		t.Fatalf("prompt %s: %+v, want the intro as the user's", mcpserve.IncidentPrompt, pr.Messages[0])
	}

	lt, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names, want []string
	for _, tool := range lt.Tools {
		names = append(names, tool.Name)
	}
	for _, s := range action.Specs(tk) {
		want = append(want, s.Name)
	}
	if !slices.Equal(names, want) || !slices.Contains(names, "resolve_incident") || !slices.Contains(names, "escalate") {
		t.Fatalf("tools %v, want %v", names, want)
	}
	services := agents.ParseIntro(intro).Services
	for _, tool := range lt.Tools {
		schema, _ := json.Marshal(tool.InputSchema)
		var s struct {
			Type       string `json:"type"`
			Properties map[string]struct {
				Enum []string `json:"enum"`
			} `json:"properties"`
			Required []string `json:"required"`
		}
		if err := json.Unmarshal(schema, &s); err != nil || s.Type != "object" {
			t.Fatalf("%s: input schema %s is not an object schema", tool.Name, schema)
		}
		if tool.Name == "inspect_logs" {
			if !slices.Equal(s.Properties["service"].Enum, services) || !slices.Equal(s.Required, []string{"service"}) {
				t.Errorf("inspect_logs: schema %s, want service required, an enum of %v", schema, services)
			}
		}
		if tool.Name == "update_config" && len(s.Properties["value"].Enum) > 0 {
			t.Errorf("update_config: value is an enum: %s", schema)
		}
	}
}

// Every incident of the default suite, played over MCP by its expert plan
// turned into tool calls, is recorded exactly as srezc eval records the
// replay agent playing that plan: final reward, metrics, components and
// trajectory. Sessions take the incidents in order; the second pass uses
// the next seed.
func TestExpertPlansOverMCP(t *testing.T) {
	tasks := defaultSuite(t)
	srv, path := newServer(t, mcpserve.Options{Tasks: tasks, Seed: 7, Agent: "mcp:expert"})
	for k, tk := range append(tasks, tasks[0]) {
		cs := connect(t, srv, "expert")
		tools, args := expertCalls(t, tk)
		for i := range tools {
			obs := callText(t, cs, tools[i], args[i], false)
			if !strings.HasPrefix(obs, "[step ") {
				t.Fatalf("%s: %s: %q is not an observation", tk.ID, tools[i], obs)
			}
		}
		recs := readRecords(t, path)
		if len(recs) != k+1 {
			t.Fatalf("%s: %d records after %d episodes", tk.ID, len(recs), k+1)
		}
		got := recs[k]
		round := k / len(tasks)
		want := replayRecord(t, tk, round, 7+uint64(round), "mcp:expert")
		if !sameRecord(t, got, want) {
			gj, _ := json.Marshal(got)
			wj, _ := json.Marshal(want)
			t.Fatalf("%s: the MCP record\n%s\ndiffers from the replay agent's\n%s", tk.ID, gj, wj)
		}
		end := "resolved"
		if tk.OutOfReach() {
			end = "escalated" // the expert hands a third party's outage over
		}
		if tk.Certified && (!got.Metrics.Success || got.Terminal != end) {
			t.Errorf("%s: the expert plan did not succeed over MCP: %s", tk.ID, got.Terminal)
		}
		cs.Close()
	}
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	if n := len(readRecords(t, path)); n != len(tasks)+1 {
		t.Fatalf("%d records after the sessions closed, want %d: an episode was recorded twice", n, len(tasks)+1)
	}
}

// After resolve_incident, a call is an error result saying the episode is
// over; it plays no step and the episode is recorded once.
func TestCallAfterTheEnd(t *testing.T) {
	tk := task(t, "db_crash")
	srv, path := newServer(t, mcpserve.Options{Tasks: []*engine.Task{tk}, Seed: 1})
	cs := connect(t, srv, "late")
	obs := callText(t, cs, "resolve_incident", map[string]any{"root_cause": "unknown", "fix": "none"}, false)
	// A wrong diagnosis is acknowledged like a right one.
	if obs != "[step 1/8] Incident closed; your resolution is recorded.\nThe episode is over.\n" {
		t.Fatalf("resolve: %q", obs)
	}
	for _, tool := range []string{"inspect_logs", "no_such_tool"} {
		if got := callText(t, cs, tool, map[string]any{"service": "database"}, true); got != mcpserve.EpisodeOver {
			t.Fatalf("%s after the end: %q", tool, got)
		}
	}
	cs.Close()
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	recs := readRecords(t, path)
	if len(recs) != 1 || recs[0].Metrics.TotalSteps != 1 || len(recs[0].Trajectory) != 1 || recs[0].Agent != "mcp:late" {
		t.Fatalf("records %+v, want one episode of one step by mcp:late", recs)
	}
	if recs[0].Metrics.Success {
		t.Fatal("a resolution naming no cause succeeded")
	}
}

// An unknown tool and a malformed argument are invalid actions, answered
// with the runtime's observation as a normal result; a session that closes
// with its episode unfinished is recorded as it stands.
func TestInvalidCallsAndUnfinishedEpisode(t *testing.T) {
	tk := task(t, "db_crash")
	srv, path := newServer(t, mcpserve.Options{Tasks: []*engine.Task{tk}, Seed: 1})
	cs := connect(t, srv, "clumsy")
	calls := []struct {
		tool string
		args any
	}{
		{"drop_database", map[string]any{"service": "database"}},
		{"inspect_logs", map[string]any{"service": 42}},
		{"inspect_logs", map[string]any{"service": "mainframe"}},
		{"update_config", json.RawMessage(`{"service":"database","key":"max_connections","value":{"a":1}}`)},
		// pool_size is an int: 50.5 has a fraction, so no conversion
		// makes it one (50.0 and "50" would be 50, as the schema says).
		{"update_config", json.RawMessage(`{"value":50.5,"key":"pool_size","service":"database"}`)},
		{"inspect_logs(database)", nil},
		{"inspect_logs", map[string]any{"service": "database"}},
	}
	var texts []string
	for i, c := range calls {
		obs := callText(t, cs, c.tool, c.args, false)
		texts = append(texts, obs)
		invalid := strings.Contains(obs, "Invalid action")
		if invalid != (i < len(calls)-1) {
			t.Fatalf("%s %v: %q", c.tool, c.args, obs)
		}
	}
	cs.Close()
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	recs := readRecords(t, path)
	if len(recs) != 1 {
		t.Fatalf("%d records, want the unfinished episode's", len(recs))
	}
	r := recs[0]
	if r.Metrics.InvalidActions != len(calls)-1 || r.Metrics.TotalSteps != len(calls) || r.Metrics.Success || r.Terminal != "" {
		t.Fatalf("record metrics %+v terminal %q, want %d invalid actions in %d steps, unfinished", r.Metrics, r.Terminal, len(calls)-1, len(calls))
	}
	for i, m := range r.Trajectory {
		if m.Observation != texts[i] {
			t.Fatalf("move %d: recorded %q, the agent saw %q", i, m.Observation, texts[i])
		}
	}
	for _, m := range []struct {
		i    int
		want string
	}{{0, `drop_database("database")`}, {1, "inspect_logs(42)"}, {4, `update_config("database", "pool_size", 50.5)`}} {
		if r.Trajectory[m.i].Action != m.want {
			t.Errorf("move %d recorded as %q, want %q", m.i, r.Trajectory[m.i].Action, m.want)
		}
	}
}

// Sessions cycle through the selection in the order they start, the seed
// growing by one per pass; a session that plays no step is not recorded.
func TestSessionsCycle(t *testing.T) {
	tasks := defaultSuite(t)[:2]
	srv, path := newServer(t, mcpserve.Options{Tasks: tasks, Seed: 5})
	idle := connect(t, srv, "probe") // session 0: tasks[0], seed 5
	idle.Close()
	for k := 1; k <= 4; k++ {
		cs := connect(t, srv, "cycler")
		callText(t, cs, "check_status", map[string]any{"service": agents.ParseIntro(cs.InitializeResult().Instructions).Services[0]}, false)
		cs.Close()
	}
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	recs := readRecords(t, path)
	var got []string
	for _, r := range recs {
		got = append(got, r.Task+"@"+itoa(r.Seed)+"#"+itoa(uint64(r.Episode)))
	}
	want := []string{tasks[1].ID + "@5#0", tasks[0].ID + "@6#1", tasks[1].ID + "@6#1", tasks[0].ID + "@7#2"}
	// A session's record is written as the server sees it close, after
	// the client's Close returns, so records of sessions closed in turn
	// may land in either order: compare which episodes were played.
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("sessions 1-4 played %v, want %v", got, want)
	}
}

func itoa(n uint64) string { b, _ := json.Marshal(n); return string(b) }

// Over streamable HTTP on loopback, with structured content asked for: a
// session plays an incident to resolution, each result's text is the
// observation and its structured form the runtime's JSON of it.
func TestStreamableHTTP(t *testing.T) {
	tk := task(t, "db_pool")
	srv, path := newServer(t, mcpserve.Options{Tasks: []*engine.Task{tk}, Seed: 2, Structured: true})
	hs := httptest.NewServer(srv.Handler())
	defer hs.Close()
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "http-agent", Version: "1"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: hs.URL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(cs.InitializeResult().Instructions, tk.ID) || !strings.HasPrefix(cs.InitializeResult().Instructions, "ALERT: ") {
		t.Fatalf("instructions %q", cs.InitializeResult().Instructions)
	}
	tools, args := expertCalls(t, tk)
	for i := range tools {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tools[i], Arguments: args[i]})
		if err != nil || res.IsError {
			t.Fatalf("%s: %v %+v", tools[i], err, res)
		}
		text := res.Content[0].(*mcp.TextContent).Text
		js, _ := json.Marshal(res.StructuredContent)
		var structured struct {
			Step int    `json:"step"`
			Text string `json:"text"`
		}
		if err := json.Unmarshal(js, &structured); err != nil || structured.Text != text || structured.Step != i+1 {
			t.Fatalf("%s: structured content %s does not hold step %d's text %q", tools[i], js, i+1, text)
		}
		for _, grader := range []string{"reward", "components", "terminal", tk.ID} {
			if bytes.Contains(js, []byte(grader)) {
				t.Fatalf("%s: structured content shows %q: %s", tools[i], grader, js)
			}
		}
	}
	cs.Close()
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	recs := readRecords(t, path)
	if len(recs) != 1 {
		t.Fatalf("%d records, want 1", len(recs))
	}
	want := replayRecord(t, tk, 0, 2, "mcp:http-agent")
	if !sameRecord(t, recs[0], want) {
		t.Fatalf("record over HTTP %+v, want the replay agent's %+v", recs[0].Metrics, want.Metrics)
	}
}

var refTask = worldtest.Reference

// The MCP tools of an imported SRE-Zero task are the task's (the
// profile's tool list), not read back from the intro it renders, and a
// call's arguments bind in the tool's order: inspect_config {key,
// service} is inspect_config(service, key) (issue 17).
func TestReferenceToolsComeFromTheTask(t *testing.T) {
	tk := refTask(t, "db_pool_exhaustion.json")
	srv, _ := newServer(t, mcpserve.Options{Tasks: []*engine.Task{tk}, Seed: 1})
	cs := connect(t, srv, "ref")
	defer cs.Close()
	lt, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := tk.ToolSet()
	if len(lt.Tools) != len(want) {
		t.Fatalf("%d tools, want the task's %d", len(lt.Tools), len(want))
	}
	for i, tool := range lt.Tools {
		if tool.Name != want[i].Name || tool.Description != want[i].Doc {
			t.Errorf("tool %d is %s %q, want the task's %s %q", i, tool.Name, tool.Description, want[i].Name, want[i].Doc)
		}
		schema, _ := json.Marshal(tool.InputSchema)
		for _, a := range want[i].Args {
			if !strings.Contains(string(schema), strconv.Quote(a.Name)) {
				t.Errorf("%s: schema %s lacks the argument %s", tool.Name, schema, a.Name)
			}
		}
	}
	obs := callText(t, cs, "inspect_config", map[string]any{"key": "DB_POOL_SIZE", "service": "database"}, false)
	if strings.Contains(obs, "Invalid action") || !strings.Contains(obs, "DB_POOL_SIZE") {
		t.Errorf("inspect_config {key, service}: %q, want the key's value", obs)
	}
}

// A task imported from the SRE-Zero reference has the reference's tools,
// not the stdlib's, and its expert plan played over MCP is recorded as
// the replay agent's.
func TestReferenceTaskOverMCP(t *testing.T) {
	tk := refTask(t, "cache_crash.json")
	tasks := []*engine.Task{tk}
	dir := t.TempDir()
	path := filepath.Join(dir, "records.jsonl")
	srv, err := mcpserve.New(mcpserve.Options{Tasks: tasks, Seed: 1, RecordPath: path, Suite: engine.SuiteHash(defaultSuite(t)), Versions: versions})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	cs := connect(t, srv, "ref")
	lt, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range lt.Tools {
		names = append(names, tool.Name)
		if tool.Description == "" {
			t.Errorf("%s has no description", tool.Name)
		}
	}
	want := []string{"inspect_logs", "inspect_metrics", "check_status", "inspect_config", "restart_service", "update_config", "resolve_incident", "escalate"}
	if !slices.Equal(names, want) {
		t.Fatalf("tools %v, want the reference's %v", names, want)
	}
	tools, args := expertCalls(t, tk)
	for i := range tools {
		callText(t, cs, tools[i], args[i], false)
	}
	cs.Close()
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	recs := readRecords(t, path)
	if len(recs) != 1 {
		t.Fatalf("%d records, want 1", len(recs))
	}
	ep := eval.Play(tk, agents.NewReplay(strings.Join(tk.Expert, "\n")), 0, 1, true)
	if recs[0].Metrics != ep.Record || !recs[0].Metrics.Success {
		t.Fatalf("record metrics %+v, want the replay agent's %+v", recs[0].Metrics, ep.Record)
	}
}

// Closing the server records every open session's unfinished episode, in
// the order the sessions began, whatever order they played in.
func TestCloseRecordsOpenSessionsInOrder(t *testing.T) {
	tasks := defaultSuite(t)[:4]
	srv, path := newServer(t, mcpserve.Options{Tasks: tasks, Seed: 1})
	var sessions []*mcp.ClientSession
	for range tasks {
		sessions = append(sessions, connect(t, srv, "open"))
	}
	for i := len(sessions) - 1; i >= 0; i-- {
		callText(t, sessions[i], "check_status", map[string]any{"service": "database"}, false)
	}
	if recs := readRecords(t, path); len(recs) != 0 {
		t.Fatalf("%d records while every episode is still open", len(recs))
	}
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	var got, want []string
	for _, r := range readRecords(t, path) {
		got = append(got, r.Task)
		if r.Terminal != "" || r.Metrics.TotalSteps != 1 {
			t.Errorf("%s: terminal %q after %d steps, want unfinished after 1", r.Task, r.Terminal, r.Metrics.TotalSteps)
		}
	}
	for _, tk := range tasks {
		want = append(want, tk.ID)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("recorded %v, want the sessions' order %v", got, want)
	}
	// A session of a closed server cannot play on.
	if _, err := sessions[0].CallTool(context.Background(), &mcp.CallToolParams{Name: "check_status", Arguments: map[string]any{"service": "database"}}); err == nil {
		t.Fatal("a call on a closed server's session succeeded")
	}
}
