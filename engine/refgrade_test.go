package engine_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/srezc/srezc/action"
	"github.com/srezc/srezc/compiler"
	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/lang"
	"github.com/srezc/srezc/record"
	"github.com/srezc/srezc/srezero"
	"github.com/srezc/srezc/value"
)

// The sre_zero profile must grade every trajectory exactly as the SRE-Zero
// reference environment does. These tests replay the reference's golden
// episodes (recorded from its Python environment) on tasks built straight
// from its task files, and compare every step bit for bit.
//
// The tasks graded are the imported ones: each reference task file goes
// through lang.ImportSreZeroTask to a .srez.hcl source, then lang.Analyze
// and the compiler, so no grading code reads the reference JSON.
// refBuildTask is an independent, test-only reading of the same files;
// TestRefImportMatchesDirectReading checks the two agree.

const (
	refTasksDir   = "../../shared/reference/sre-zero-tasks"
	refGoldenFile = "../../shared/reference/sre-zero-golden/episodes.jsonl"
)

// refBaseline is the reference's fixture world before a task's patches
// (spec §3).
func refBaseline() []srezero.Service {
	i, f, s, b := value.OfInt, value.OfFloat, value.OfString, value.OfBool
	field := func(name string, v value.Value) srezero.Field { return srezero.Field{Name: name, Value: v} }
	return []srezero.Service{
		{Name: "web_server", Status: "healthy",
			Logs:         []string{"INFO request_id=1001 path=/ status=200 latency_ms=42", "INFO request_id=1002 path=/checkout status=200 latency_ms=88"},
			Metrics:      []srezero.Field{field("request_rate", i(240)), field("error_rate", f(0.01)), field("p95_latency_ms", i(120)), field("upstream_timeout_rate", f(0))},
			Config:       []srezero.Field{field("TIMEOUT_MS", i(3000)), field("MAX_WORKERS", i(16))},
			Dependencies: []string{"database", "cache", "message_queue"}},
		{Name: "database", Status: "healthy",
			Logs:    []string{"INFO connection pool initialized size=50", "INFO query completed table=orders latency_ms=18"},
			Metrics: []srezero.Field{field("active_connections", i(14)), field("max_connections", i(50)), field("connection_wait_ms", i(3)), field("query_p95_latency_ms", i(35))},
			Config:  []srezero.Field{field("DB_POOL_SIZE", i(50)), field("QUERY_TIMEOUT_MS", i(2000))}},
		{Name: "cache", Status: "healthy",
			Logs:    []string{"INFO cache warmed namespace=products keys=4200", "INFO eviction cycle completed evicted=12"},
			Metrics: []srezero.Field{field("hit_rate", f(0.92)), field("p95_latency_ms", i(5)), field("memory_used_pct", i(45))},
			Config:  []srezero.Field{field("TTL_SECONDS", i(300)), field("MAX_MEMORY_MB", i(512))}},
		{Name: "message_queue", Status: "healthy",
			Logs:         []string{"INFO queue=checkout_jobs consumers=8 backlog=24", "INFO publish latency_ms=12 ack_rate=0.99"},
			Metrics:      []srezero.Field{field("queue_depth", i(24)), field("oldest_message_age_ms", i(1200)), field("publish_error_rate", f(0)), field("consumer_lag_ms", i(250)), field("dead_letter_rate", f(0))},
			Config:       []srezero.Field{field("CONSUMER_CONCURRENCY", i(8)), field("MAX_IN_FLIGHT", i(500)), field("RETRY_LIMIT", i(3)), field("VISIBILITY_TIMEOUT_MS", i(30000))},
			Dependencies: []string{"database"}},
		{Name: "load_balancer", Status: "healthy",
			Logs:         []string{"INFO backend=web_server healthy=true weight=50", "INFO listener=https status=active tls_days_remaining=45"},
			Metrics:      []srezero.Field{field("request_rate", i(260)), field("backend_5xx_rate", f(0.01)), field("healthy_backends", i(2)), field("connection_utilization_pct", i(42)), field("p95_latency_ms", i(55))},
			Config:       []srezero.Field{field("HEALTH_CHECK_PATH", s("/healthz")), field("MAX_CONNECTIONS", i(2000)), field("STICKY_SESSIONS", b(false)), field("WEB_WEIGHT_PRIMARY", i(50))},
			Dependencies: []string{"web_server"}},
	}
}

// refMember is one member of a JSON object, in document order.
type refMember struct {
	key string
	raw json.RawMessage
}

// refObject reads a JSON object keeping its members' order, which the
// reference's dicts (and so its fixtures and outputs) keep.
func refObject(raw json.RawMessage) ([]refMember, error) {
	if t := bytes.TrimSpace(raw); len(t) == 0 || bytes.Equal(t, []byte("null")) {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, fmt.Errorf("not an object: %.40s", raw)
	}
	var out []refMember
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		out = append(out, refMember{tok.(string), v})
	}
	return out, nil
}

// refValue reads a JSON scalar with Python's types: a number with a point
// or an exponent is a float, any other an int.
func refValue(raw json.RawMessage) (value.Value, error) {
	s := string(bytes.TrimSpace(raw))
	switch {
	case s == "null":
		return value.Value{}, nil
	case s == "true" || s == "false":
		return value.OfBool(s == "true"), nil
	case strings.HasPrefix(s, `"`):
		var str string
		err := json.Unmarshal(raw, &str)
		return value.OfString(str), err
	case strings.ContainsAny(s, ".eE"):
		f, err := strconv.ParseFloat(s, 64)
		return value.OfFloat(f), err
	}
	i, err := strconv.ParseInt(s, 10, 64)
	return value.OfInt(i), err
}

// refMerge is dict.update: existing keys keep their place, new ones are
// appended in the patch's order.
func refMerge(dst []srezero.Field, patch json.RawMessage) ([]srezero.Field, error) {
	members, err := refObject(patch)
	if err != nil {
		return nil, err
	}
	for _, m := range members {
		v, err := refValue(m.raw)
		if err != nil {
			return nil, err
		}
		found := false
		for i := range dst {
			if dst[i].Name == m.key {
				dst[i].Value, found = v, true
			}
		}
		if !found {
			dst = append(dst, srezero.Field{Name: m.key, Value: v})
		}
	}
	return dst, nil
}

// refTaskFile is a reference task file (spec §2).
type refTaskFile struct {
	TaskID               string            `json:"task_id"`
	Difficulty           string            `json:"difficulty"`
	Alert                string            `json:"alert"`
	RootCause            string            `json:"root_cause"`
	RootCauseKeywords    []string          `json:"root_cause_keywords"`
	RelevantEvidence     []string          `json:"relevant_evidence"`
	EvidenceDescriptions map[string]string `json:"evidence_descriptions"`
	CorrectFix           struct {
		ActionType string          `json:"action_type"`
		Service    string          `json:"service"`
		Key        *string         `json:"key"`
		MinNumeric *float64        `json:"min_numeric_value"`
		Exact      json.RawMessage `json:"exact_value"`
		Keywords   []string        `json:"fix_keywords"`
	} `json:"correct_fix"`
	ServicePatches            json.RawMessage `json:"service_patches"`
	ExpectedActionPattern     []string        `json:"expected_action_pattern"`
	Distractors               []string        `json:"distractors"`
	DistractorServices        []string        `json:"distractor_services"`
	MaxSteps                  *int            `json:"max_steps"`
	TerminalOnWrongResolution *bool           `json:"terminal_on_wrong_resolution"`
	Metadata                  json.RawMessage `json:"metadata"`
}

func refBuildTask(data []byte) (*engine.Task, error) {
	var f refTaskFile
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, err
	}
	services := refBaseline()
	patches, err := refObject(f.ServicePatches)
	if err != nil {
		return nil, err
	}
	for _, p := range patches {
		var patch struct {
			Status       *string         `json:"status"`
			Logs         []string        `json:"logs"`
			Metrics      json.RawMessage `json:"metrics"`
			Config       json.RawMessage `json:"config"`
			Dependencies []string        `json:"dependencies"`
		}
		if err := json.Unmarshal(p.raw, &patch); err != nil {
			return nil, err
		}
		s := -1
		for i := range services {
			if services[i].Name == p.key {
				s = i
			}
		}
		if s < 0 {
			return nil, fmt.Errorf("patch of unknown service %q", p.key)
		}
		svc := &services[s]
		if patch.Status != nil {
			svc.Status = *patch.Status
		}
		if patch.Logs != nil {
			svc.Logs = patch.Logs
		}
		if svc.Metrics, err = refMerge(svc.Metrics, patch.Metrics); err != nil {
			return nil, err
		}
		if svc.Config, err = refMerge(svc.Config, patch.Config); err != nil {
			return nil, err
		}
		if patch.Dependencies != nil {
			svc.Dependencies = patch.Dependencies
		}
	}
	ref := &srezero.Task{
		Services:                  services,
		RootCause:                 f.RootCause,
		RootCauseKeywords:         f.RootCauseKeywords,
		DistractorServices:        f.DistractorServices,
		Distractors:               f.Distractors,
		TerminalOnWrongResolution: f.TerminalOnWrongResolution == nil || *f.TerminalOnWrongResolution,
	}
	for _, k := range f.RelevantEvidence {
		d, ok := f.EvidenceDescriptions[k]
		if !ok {
			d = k
		}
		ref.Evidence = append(ref.Evidence, srezero.Evidence{Key: k, Description: d})
	}
	cf := &f.CorrectFix
	ref.Fix = srezero.Fix{ActionType: cf.ActionType, Service: cf.Service, FixKeywords: cf.Keywords}
	if cf.Key != nil {
		ref.Fix.Key, ref.Fix.HasKey = *cf.Key, true
	}
	if cf.MinNumeric != nil {
		ref.Fix.MinNumeric, ref.Fix.HasMin = *cf.MinNumeric, true
	}
	if len(cf.Exact) > 0 {
		if ref.Fix.Exact, err = refValue(cf.Exact); err != nil {
			return nil, err
		}
	}
	meta, err := refObject(f.Metadata)
	if err != nil {
		return nil, err
	}
	for _, m := range meta {
		var v string
		if err := json.Unmarshal(m.raw, &v); err != nil {
			return nil, err
		}
		ref.Metadata = append(ref.Metadata, srezero.Pair{Key: m.key, Value: v})
	}
	budget := 8
	if f.MaxSteps != nil {
		budget = *f.MaxSteps
	}
	t := &engine.Task{
		Format: engine.FormatVersion, ID: f.TaskID, Alert: f.Alert, Difficulty: f.Difficulty,
		Budget: budget, History: 2, InitTick: 1, Expert: f.ExpectedActionPattern,
		Profile: record.ProfileSreZero, Ref: ref,
	}
	if err := t.Validate(); err != nil {
		return nil, err
	}
	t.Hash = engine.ComputeHash(t)
	t.Prepare()
	return t, nil
}

// refLoadTasks builds every reference task, by id; it skips the test when
// the reference data is absent.
type refFile struct {
	path string
	data []byte
}

// refTaskFiles reads the reference's task files (not the split manifest).
func refTaskFiles(t testing.TB) []refFile {
	t.Helper()
	paths, _ := filepath.Glob(filepath.Join(refTasksDir, "*.json"))
	var out []refFile
	for _, p := range paths {
		if filepath.Base(p) == "task_splits.json" {
			continue
		}
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, refFile{p, data})
	}
	return out
}

func refLoadTasks(t testing.TB) map[string]*engine.Task {
	t.Helper()
	splitsData, err := os.ReadFile(filepath.Join(refTasksDir, "task_splits.json"))
	if err != nil {
		t.Skip("no SRE-Zero reference tasks at " + refTasksDir)
	}
	splits, err := lang.ParseSreZeroSplits("task_splits.json", splitsData)
	if err != nil {
		t.Fatal(err)
	}
	var srcs []*lang.File
	for _, f := range refTaskFiles(t) {
		p, data := f.path, f.data
		id := strings.TrimSuffix(filepath.Base(p), ".json")
		id, src, err := lang.ImportSreZeroTask(p, data, splits.Split(id), slices.Contains(splits["unseen_incident"], id))
		if err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, &lang.File{Name: id + lang.Ext, Src: src})
	}
	m, diags := lang.Analyze(srcs)
	compiled, more := compiler.CompileModule(m)
	if diags = append(diags, more...); diags.HasErrors() {
		var b strings.Builder
		lang.WriteText(&b, m.Files, diags)
		t.Fatalf("the imported reference tasks do not compile:\n%s", b.String())
	}
	tasks := map[string]*engine.Task{}
	for _, tk := range compiled {
		tasks[tk.ID] = tk
	}
	if len(tasks) != 40 {
		t.Fatalf("imported %d reference tasks, want 40", len(tasks))
	}
	return tasks
}

// TestRefImportMatchesDirectReading: the importer's tasks carry the same
// world and grading spec as a direct reading of the task files.
func TestRefImportMatchesDirectReading(t *testing.T) {
	imported := refLoadTasks(t)
	for _, f := range refTaskFiles(t) {
		p, data := f.path, f.data
		direct, err := refBuildTask(data)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		got := imported[direct.ID]
		if got == nil {
			t.Fatalf("%s was not imported", direct.ID)
		}
		a, _ := json.Marshal(direct.Ref)
		b, _ := json.Marshal(got.Ref)
		if string(a) != string(b) {
			t.Errorf("%s: imported world and spec differ from the direct reading\ndirect   %s\nimported %s", direct.ID, a, b)
		}
		if direct.Budget != got.Budget || direct.Alert != got.Alert || direct.Difficulty != got.Difficulty || !slices.Equal(direct.Expert, got.Expert) {
			t.Errorf("%s: budget, alert, difficulty or expert differ", direct.ID)
		}
	}
}

// refGoldenEpisode is one line of the golden file.
type refGoldenEpisode struct {
	TaskID  string          `json:"task_id"`
	Actions []string        `json:"actions"`
	Steps   []refGoldenStep `json:"steps"`
	Score   json.Number     `json:"episode_score"`
	Metrics json.RawMessage `json:"metrics"`
	Kind    string          `json:"kind"`
}

type refGoldenStep struct {
	Action        string          `json:"action"`
	Reward        json.Number     `json:"reward"`
	Done          bool            `json:"done"`
	InvalidAction bool            `json:"invalid_action"`
	Terminal      *string         `json:"terminal_reason"`
	Result        json.RawMessage `json:"result"`
	Components    json.RawMessage `json:"reward_components"`
	Coverage      json.Number     `json:"evidence_coverage"`
	Metrics       json.RawMessage `json:"metrics"`
}

func refLoadGolden(t *testing.T) []refGoldenEpisode {
	t.Helper()
	f, err := os.Open(refGoldenFile)
	if err != nil {
		t.Skip("no SRE-Zero golden episodes: " + err.Error())
	}
	defer f.Close()
	var eps []refGoldenEpisode
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<26)
	for sc.Scan() {
		var ep refGoldenEpisode
		dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		dec.UseNumber()
		if err := dec.Decode(&ep); err != nil {
			t.Fatalf("golden line %d: %v", len(eps)+1, err)
		}
		eps = append(eps, ep)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return eps
}

// refFlat reads a JSON object of scalars (nested objects are flattened
// with their key as a prefix), in order, each as Python's JSON text of it.
func refFlat(raw json.RawMessage, prefix string, out *[]refMember) error {
	members, err := refObject(raw)
	if err != nil {
		return err
	}
	for _, m := range members {
		if t := bytes.TrimSpace(m.raw); len(t) > 0 && t[0] == '{' {
			if err := refFlat(m.raw, prefix+m.key+".", out); err != nil {
				return err
			}
			continue
		}
		*out = append(*out, refMember{prefix + m.key, bytes.TrimSpace(m.raw)})
	}
	return nil
}

// refPyJSON writes a value as Python's json.dumps writes it, after a
// JSON-mode dump (non-finite floats become null).
func refPyJSON(b []byte, v value.Value) []byte {
	switch v.K {
	case value.Float:
		if math.IsNaN(v.F) || math.IsInf(v.F, 0) {
			return append(b, "null"...)
		}
		return value.AppendPyFloat(b, v.F)
	case value.String:
		return refPyJSONString(b, v.S)
	}
	return v.Append(b)
}

// refPyJSONString is json.dumps of a str (ensure_ascii).
func refPyJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b = append(b, '\\', byte(r))
		case r == '\n':
			b = append(b, `\n`...)
		case r == '\r':
			b = append(b, `\r`...)
		case r == '\t':
			b = append(b, `\t`...)
		case r == '\b':
			b = append(b, `\b`...)
		case r == '\f':
			b = append(b, `\f`...)
		case r < 0x20 || r > 0x7e && r < 0x10000:
			b = fmt.Appendf(b, `\u%04x`, r)
		case r >= 0x10000:
			r -= 0x10000
			b = fmt.Appendf(b, `\u%04x\u%04x`, 0xd800+(r>>10), 0xdc00+(r&0x3ff))
		default:
			b = append(b, byte(r))
		}
	}
	return append(b, '"')
}

// refWant is the golden step's numbers and flags, flattened, in the
// reference's order.
func refWant(s *refGoldenStep) ([]refMember, error) {
	var out []refMember
	out = append(out, refMember{"reward", json.RawMessage(s.Reward)})
	out = append(out, refMember{"done", json.RawMessage(strconv.FormatBool(s.Done))})
	term := "null"
	if s.Terminal != nil {
		term = strconv.Quote(*s.Terminal)
	}
	out = append(out, refMember{"terminal_reason", json.RawMessage(term)})
	out = append(out, refMember{"invalid_action", json.RawMessage(strconv.FormatBool(s.InvalidAction))})
	if err := refFlat(s.Components, "reward_components.", &out); err != nil {
		return nil, err
	}
	out = append(out, refMember{"evidence_coverage", json.RawMessage(s.Coverage)})
	if err := refFlat(s.Metrics, "metrics.", &out); err != nil {
		return nil, err
	}
	return out, nil
}

// refGot is the same as refWant for our step, floats as Python's repr so
// that equal text means equal bits.
func refGot(r engine.StepResult, ep *engine.Episode) []refMember {
	var out []refMember
	f := func(k string, x float64) { out = append(out, refMember{k, value.AppendPyFloat(nil, x)}) }
	i := func(k string, x int) { out = append(out, refMember{k, strconv.AppendInt(nil, int64(x), 10)}) }
	bl := func(k string, x bool) { out = append(out, refMember{k, strconv.AppendBool(nil, x)}) }
	f("reward", r.Reward)
	bl("done", r.Obs.Done)
	term := "null"
	if r.Obs.Done {
		term = strconv.Quote(r.Terminal.String())
	}
	out = append(out, refMember{"terminal_reason", json.RawMessage(term)})
	bl("invalid_action", r.Obs.Err != engine.OK)
	c := ep.RefComponents()
	for _, x := range []struct {
		k string
		v float64
	}{
		{"components.evidence", c.Components.Evidence}, {"components.root_cause", c.Components.RootCause},
		{"components.remediation", c.Components.Remediation}, {"components.resolution", c.Components.Resolution},
		{"components.efficiency", c.Components.Efficiency},
		{"penalties.invalid_action", c.Penalties.InvalidAction}, {"penalties.repeated_invalid_action", c.Penalties.RepeatedInvalidAction},
		{"penalties.wrong_remediation", c.Penalties.WrongRemediation}, {"penalties.premature_resolution", c.Penalties.PrematureResolution},
		{"penalties.restart_unrelated_service", c.Penalties.RestartUnrelatedService},
		{"penalties.repeated_useless_action", c.Penalties.RepeatedUselessAction},
		{"raw_total", c.RawTotal}, {"total", c.Total},
	} {
		f("reward_components."+x.k, x.v)
	}
	rec := ep.Record()
	f("evidence_coverage", rec.EvidenceCoverage)
	i("metrics.total_steps", rec.TotalSteps)
	i("metrics.invalid_actions", rec.InvalidActions)
	i("metrics.repeated_actions", rec.RepeatedActions)
	i("metrics.evidence_actions", rec.EvidenceActions)
	i("metrics.remediation_actions", rec.RemediationActions)
	i("metrics.correct_service_remediations", rec.CorrectServiceRemediations)
	i("metrics.correct_remediations", rec.CorrectRemediations)
	i("metrics.wrong_remediations", rec.WrongRemediations)
	i("metrics.distractor_failures", rec.DistractorFailures)
	i("metrics.premature_resolutions", rec.PrematureResolutions)
	bl("metrics.root_cause_identified", rec.RootCauseIdentified)
	bl("metrics.fix_identified", rec.FixIdentified)
	bl("metrics.correct_remediation_applied", rec.CorrectRemediationApplied)
	bl("metrics.success", rec.Success)
	f("metrics.final_reward", rec.FinalReward)
	return out
}

// refDetails writes the reference's result details for a step, as
// json.dumps does, from our world: it checks the fixtures and the world's
// changes (restart status and log line, config writes). Resolutions and
// escalations are left out: their details only restate the metrics.
func refDetails(r engine.StepResult, ep *engine.Episode, a *engine.Action, correct bool) (string, bool) {
	ra := a.Ref
	var b []byte
	kv := func(k string) { b = append(refPyJSONString(append(b, ", "...), k), ": "...) }
	if r.Obs.Err != engine.OK {
		b = append(b, `{"action": `...)
		b = refPyJSONString(b, ra.Canonical)
		if r.Obs.Err == engine.ErrUnknownService {
			kv("service")
			b = refPyJSONString(b, ra.Service)
		}
		return string(append(b, '}')), true
	}
	if ra.Type == "resolve_incident" || ra.Type == "escalate" {
		return "", false
	}
	var svc *srezero.Service
	for _, s := range ep.RefWorld() {
		if s.Name == ra.Service {
			svc = &s
		}
	}
	fields := func(fs []srezero.Field) {
		b = append(b, '{')
		for i, f := range fs {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = refPyJSON(append(refPyJSONString(b, f.Name), ": "...), f.Value)
		}
		b = append(b, '}')
	}
	b = append(b, `{"service": `...)
	b = refPyJSONString(b, svc.Name)
	switch ra.Type {
	case "inspect_logs":
		kv("logs")
		b = append(b, '[')
		for i, l := range svc.Logs {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = refPyJSONString(b, l)
		}
		b = append(b, ']')
	case "inspect_metrics":
		kv("metrics")
		fields(svc.Metrics)
	case "check_status":
		kv("status")
		b = refPyJSONString(b, svc.Status)
	case "inspect_config":
		kv("config")
		if !ra.HasKey {
			fields(svc.Config)
			break
		}
		one := srezero.Field{Name: ra.Key}
		for _, f := range svc.Config {
			if f.Name == ra.Key {
				one.Value = f.Value
			}
		}
		fields([]srezero.Field{one})
	case "restart_service":
		if correct {
			kv("status")
			b = refPyJSONString(b, svc.Status)
		}
		kv("correct_remediation")
		b = strconv.AppendBool(b, correct)
	case "update_config":
		kv("key")
		b = refPyJSONString(b, ra.Key)
		kv("previous")
		b = refPyJSON(b, r.Obs.RefPrevious)
		kv("value")
		b = refPyJSON(b, ra.Value)
		kv("correct_remediation")
		b = strconv.AppendBool(b, correct)
	}
	return string(append(b, '}')), true
}

// refFirstDiff describes the first difference between two member lists.
func refFirstDiff(want, got []refMember) string {
	for i := 0; i < len(want) || i < len(got); i++ {
		switch {
		case i >= len(got):
			return fmt.Sprintf("%s: want %s, got nothing", want[i].key, want[i].raw)
		case i >= len(want):
			return fmt.Sprintf("%s: want nothing, got %s", got[i].key, got[i].raw)
		case want[i].key != got[i].key || !bytes.Equal(want[i].raw, got[i].raw):
			return fmt.Sprintf("%s: want %s, got %s %s", want[i].key, want[i].raw, got[i].key, got[i].raw)
		}
	}
	return ""
}

// refSecrets are texts no observation may show: the task id, the
// difficulty's name, every finding, the root cause.
func refSecrets(tk *engine.Task) []string {
	s := []string{tk.ID, "difficulty", tk.Ref.RootCause, "correct_remediation", "persists"}
	for _, ev := range tk.Ref.Evidence {
		s = append(s, ev.Description)
	}
	return s
}

// TestRefGoldenEpisodes replays the reference's 440 golden episodes and
// compares every step: reward, done, terminal reason, invalid flag, every
// reward component, raw and clamped totals, evidence coverage and every
// metric, floats bit for bit; and the result's details, which show the
// world. It also checks that no observation shows a secret.
func TestRefGoldenEpisodes(t *testing.T) {
	tasks := refLoadTasks(t)
	golden := refLoadGolden(t)
	if len(golden) != 440 {
		t.Fatalf("%d golden episodes, want 440", len(golden))
	}
	passed, steps := 0, 0
	var text, js []byte
	for n, g := range golden {
		tk := tasks[g.TaskID]
		if tk == nil {
			t.Errorf("episode %d: unknown task %q", n, g.TaskID)
			continue
		}
		if len(g.Actions) != len(g.Steps) {
			t.Errorf("episode %d (%s): %d actions, %d steps", n, g.TaskID, len(g.Actions), len(g.Steps))
			continue
		}
		secrets := refSecrets(tk)
		ep := engine.NewEpisode(tk)
		ep.Reset(uint64(n))
		intro := string(ep.AppendIntro(nil))
		fail := ""
		for i, s := range g.Steps {
			a := action.Bind(tk, g.Actions[i])
			before := ep.Record().CorrectRemediations
			r := ep.Step(&a)
			steps++
			ctx := fmt.Sprintf("episode %d (%s, %s) step %d %q", n, g.TaskID, g.Kind, i+1, g.Actions[i])
			want, err := refWant(&s)
			if err != nil {
				t.Fatalf("%s: golden: %v", ctx, err)
			}
			if d := refFirstDiff(want, refGot(r, ep)); d != "" {
				fail = ctx + ": " + d
				break
			}
			if details, ok := refDetails(r, ep, &a, ep.Record().CorrectRemediations > before); ok {
				var result struct {
					Details json.RawMessage `json:"details"`
				}
				if err := json.Unmarshal(s.Result, &result); err != nil {
					t.Fatalf("%s: golden result: %v", ctx, err)
				}
				if string(result.Details) != details {
					fail = fmt.Sprintf("%s: details:\nwant %s\ngot  %s", ctx, result.Details, details)
					break
				}
			}
			text = ep.AppendText(text[:0], &r.Obs)
			js = ep.AppendJSON(js[:0], &r.Obs)
			if !json.Valid(js) {
				fail = fmt.Sprintf("%s: invalid JSON observation %s", ctx, js)
				break
			}
			for _, secret := range secrets {
				if strings.Contains(intro, secret) || bytes.Contains(text, []byte(secret)) || bytes.Contains(js, []byte(secret)) {
					fail = fmt.Sprintf("%s: the agent sees %q:\n%s%s", ctx, secret, intro, text)
				}
			}
			if fail != "" {
				break
			}
		}
		if fail == "" && !ep.Done() {
			fail = fmt.Sprintf("episode %d (%s): not done after the golden steps", n, g.TaskID)
		}
		if fail == "" {
			if d := refFirstDiff([]refMember{{"episode_score", json.RawMessage(g.Score)}},
				[]refMember{{"episode_score", value.AppendPyFloat(nil, ep.RefComponents().Total)}}); d != "" {
				fail = fmt.Sprintf("episode %d (%s): %s", n, g.TaskID, d)
			}
		}
		if fail != "" {
			t.Error(fail)
			continue
		}
		passed++
	}
	t.Logf("%d of %d golden episodes match at every step (%d steps)", passed, len(golden), steps)
}

// refPlay plays texts from a reset; the scripted expert's way of running
// past its plan (repeating the last action) is the caller's.
func refPlay(tk *engine.Task, texts []string) (*engine.Episode, []engine.StepResult) {
	ep := engine.NewEpisode(tk)
	ep.Reset(1)
	var rs []engine.StepResult
	for _, text := range texts {
		if ep.Done() {
			break
		}
		a := action.Bind(tk, text)
		rs = append(rs, ep.Step(&a))
	}
	return ep, rs
}

func refTaskIDs(tasks map[string]*engine.Task) []string {
	ids := make([]string, 0, len(tasks))
	for id := range tasks {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// TestRefExpertSucceeds plays every task's expected_action_pattern as the
// reference's scripted expert does: the plan, then its last action again.
func TestRefExpertSucceeds(t *testing.T) {
	tasks := refLoadTasks(t)
	for _, id := range refTaskIDs(tasks) {
		tk := tasks[id]
		plan := append([]string(nil), tk.Expert...)
		for len(plan) < tk.Budget {
			plan = append(plan, plan[len(plan)-1])
		}
		ep, rs := refPlay(tk, plan)
		rec := ep.Record()
		if !rec.Success || ep.Terminal() != engine.TermResolved || len(rs) != len(tk.Expert) {
			t.Errorf("%s: expert: success %v, terminal %s after %d steps (plan %d)", id, rec.Success, ep.Terminal(), len(rs), len(tk.Expert))
		}
		// A perfect run: 0.90 + 0.10 × (budget − steps) / budget, when it
		// gathers all the evidence.
		if rec.EvidenceCoverage == 1 && math.Abs(rec.FinalReward-(0.9+0.1*float64(tk.Budget-len(rs))/float64(tk.Budget))) > 1e-12 {
			t.Errorf("%s: expert final reward %v", id, rec.FinalReward)
		}
	}
}

// refWrongValue is a value of the fix key's kind that is not the fix.
func refWrongValue(f *srezero.Fix, cur value.Value) string {
	switch {
	case f.Exact.K == value.Bool:
		return strconv.FormatBool(!f.Exact.B)
	case f.Exact.K == value.String:
		return "wrong.example"
	case f.Exact.K != value.Null:
		return strconv.FormatInt(f.Exact.I+7, 10)
	case f.HasMin:
		return "1"
	}
	return cur.String()
}

// refTypedSpans find what the agent typed in a remediation's
// observation: the service restarted, the value written.
var refTypedSpans = []*regexp.Regexp{
	regexp.MustCompile(`(Restart of )[a-z_]+`),
	regexp.MustCompile(`("service":)"[a-z_]+"`),
	regexp.MustCompile(`( set to )[^ ]+`),
	regexp.MustCompile(`("value":)("[^"]*"|[^,}]+)`),
}

// TestRefRemediationAndResolutionLookAlike: the agent cannot tell a right
// write from a wrong one, or an accepted resolution from a rejected one,
// except by what it typed itself.
func TestRefRemediationAndResolutionLookAlike(t *testing.T) {
	tasks := refLoadTasks(t)
	for _, id := range refTaskIDs(tasks) {
		tk := tasks[id]
		fix := &tk.Ref.Fix
		var right, wrong string
		if fix.ActionType == "restart_service" {
			other := "web_server"
			if fix.Service == other {
				other = "database"
			}
			right = "restart_service(" + fix.Service + ")"
			wrong = "restart_service(" + other + ")"
		} else {
			good := ""
			for _, a := range tk.Expert {
				if strings.HasPrefix(a, "update_config(") {
					good = a
				}
			}
			parts := strings.Split(strings.TrimSuffix(strings.TrimPrefix(good, "update_config("), ")"), ", ")
			if len(parts) != 3 {
				t.Fatalf("%s: no update in the expert plan", id)
			}
			bad := refWrongValue(fix, value.Value{})
			right = good
			wrong = "update_config(" + parts[0] + ", " + parts[1] + ", " + bad + ")"
		}
		look := func(text string) (string, record.EpisodeMetrics) {
			ep, rs := refPlay(tk, []string{text})
			r := rs[len(rs)-1]
			obs := string(ep.AppendText(nil, &r.Obs)) + string(ep.AppendJSON(nil, &r.Obs))
			for _, re := range refTypedSpans {
				obs = re.ReplaceAllString(obs, "$1<typed>")
			}
			return obs, ep.Record()
		}
		ro, rr := look(right)
		wo, wr := look(wrong)
		if rr.CorrectRemediations != 1 || wr.WrongRemediations != 1 {
			t.Fatalf("%s: %q right %d, %q wrong %d", id, right, rr.CorrectRemediations, wrong, wr.WrongRemediations)
		}
		if ro != wo {
			t.Errorf("%s: a right and a wrong remediation look different:\n%s\n%s", id, ro, wo)
		}

		// Resolutions: the expert's, and a wrong one, after the same
		// steps.
		last := len(tk.Expert) - 1
		prefix := tk.Expert[:last]
		accepted, ra := refPlay(tk, tk.Expert)
		rejected, rj := refPlay(tk, append(append([]string(nil), prefix...), "resolve_incident(unknown, unknown)"))
		if accepted.Terminal() != engine.TermResolved || rejected.Terminal() != engine.TermRejected {
			t.Fatalf("%s: terminals %s and %s", id, accepted.Terminal(), rejected.Terminal())
		}
		ao := string(accepted.AppendText(nil, &ra[last].Obs)) + string(accepted.AppendJSON(nil, &ra[last].Obs))
		jo := string(rejected.AppendText(nil, &rj[last].Obs)) + string(rejected.AppendJSON(nil, &rj[last].Obs))
		if ao != jo {
			t.Errorf("%s: an accepted and a rejected resolution look different:\n%s\n%s", id, ao, jo)
		}
	}
}

// TestRefAfterTheEnd: a step after the episode ended is acknowledged,
// earns nothing and counts nothing.
func TestRefAfterTheEnd(t *testing.T) {
	tasks := refLoadTasks(t)
	tk := tasks["cache_crash"]
	ep, _ := refPlay(tk, tk.Expert)
	if !ep.Done() {
		t.Fatal("the expert did not finish")
	}
	rec, comp := ep.Record(), ep.RefComponents()
	for _, text := range []string{"inspect_logs(cache)", "nonsense", "restart_service(cache)"} {
		a := action.Bind(tk, text)
		r := ep.Step(&a)
		if r.Reward != 0 || !r.Obs.Done || r.Obs.Err != engine.ErrEpisodeDone || r.Terminal != engine.TermResolved {
			t.Errorf("%q after the end: %+v", text, r)
		}
		if ep.Record() != rec || ep.RefComponents() != comp {
			t.Errorf("%q after the end changed the record", text)
		}
		if got := string(ep.AppendText(nil, &r.Obs)); got != "[step 5/8] The episode is over.\n" {
			t.Errorf("%q after the end reads %q", text, got)
		}
	}
}

// TestRefStateRoundTrip replays the golden episodes through snapshots and
// forks at every step: an episode restored from MarshalState, or forked,
// goes on exactly as the original.
func TestRefStateRoundTrip(t *testing.T) {
	tasks := refLoadTasks(t)
	golden := refLoadGolden(t)
	for n, g := range golden {
		tk := tasks[g.TaskID]
		straight := engine.NewEpisode(tk)
		straight.Reset(1)
		hopping := engine.NewEpisode(tk)
		hopping.Reset(1)
		for i, text := range g.Actions {
			a := action.Bind(tk, text)
			r1 := straight.Step(&a)
			r2 := hopping.Step(&a)
			o1 := string(straight.AppendJSON(nil, &r1.Obs))
			o2 := string(hopping.AppendJSON(nil, &r2.Obs))
			same := r1.Obs.RefPrevious.Equal(r2.Obs.RefPrevious)
			r1.Obs.RefPrevious, r2.Obs.RefPrevious = value.Value{}, value.Value{}
			if !same || r1 != r2 || o1 != o2 || straight.Record() != hopping.Record() || straight.RefComponents() != hopping.RefComponents() {
				t.Fatalf("episode %d (%s) step %d: diverged:\n%+v %s\n%+v %s", n, g.TaskID, i+1, r1, o1, r2, o2)
			}
			if i%2 == 0 {
				next := engine.NewEpisode(tk)
				if err := next.RestoreState(hopping.MarshalState(nil)); err != nil {
					t.Fatalf("episode %d step %d: restore: %v", n, i+1, err)
				}
				hopping = next
			} else {
				hopping = hopping.Fork()
			}
		}
	}
}

// TestRefIRRoundTrip: an sre_zero task survives the IR encoding.
func TestRefIRRoundTrip(t *testing.T) {
	tasks := refLoadTasks(t)
	for _, id := range refTaskIDs(tasks) {
		data, err := engine.EncodeTask(tasks[id])
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		back, err := engine.DecodeTask(data)
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		if back.Hash != tasks[id].Hash {
			t.Errorf("%s: hash changed in the round trip", id)
		}
	}
}

// refPlan is a reference task and a plan over it that touches every kind
// of step: reads, a write of a new key, a wrong-case service, a parse
// error, the fix and an accepted resolution.
func refPlan(tb testing.TB) (*engine.Task, []engine.Action) {
	tk := refLoadTasks(tb)["web_cache_host_misconfig"]
	texts := []string{
		"inspect_logs(web_server)", "inspect_config(web_server)", "inspect_config(web_server, cache_host)",
		"update_config(web_server, NEW_KEY, 5)", "inspect_logs(Cache)", "nonsense",
		"update_config(web_server, CACHE_HOST, cache.internal)",
		"resolve_incident(web server cache host configuration is wrong, update web cache host)",
	}
	acts := make([]engine.Action, len(texts))
	for i, text := range texts {
		acts[i] = action.Bind(tk, text)
	}
	return tk, acts
}

// TestRefStepDoesNotAllocate: stepping bound actions allocates nothing.
func TestRefStepDoesNotAllocate(t *testing.T) {
	tk, acts := refPlan(t)
	ep := engine.NewEpisode(tk)
	var buf []byte
	allocs := testing.AllocsPerRun(50, func() {
		ep.Reset(1)
		for i := range acts {
			r := ep.Step(&acts[i])
			buf = ep.AppendText(buf[:0], &r.Obs)
		}
	})
	if allocs != 0 {
		t.Errorf("an sre_zero episode allocates %v times", allocs)
	}
	if !ep.Record().Success {
		t.Errorf("the plan did not succeed: %+v", ep.Record())
	}
}

// TestRefStepNeverPanics: whatever the action (unbound, hand-built,
// malformed), Step answers with an invalid action.
func TestRefStepNeverPanics(t *testing.T) {
	tasks := refLoadTasks(t)
	tk := tasks["cache_crash"]
	odd := []*engine.Action{
		nil,
		{},
		{Tool: 3, Service: 2},
		{Ref: &srezero.Action{}},
		{Ref: &srezero.Action{Type: "inspect_config", Service: "cache", Key: "x", HasKey: true}},
		{Ref: &srezero.Action{Type: "update_config", Service: "cache", Key: "K"}},
		{Ref: &srezero.Action{Type: "resolve_incident"}},
		{Ref: &srezero.Action{Type: "escalate"}},
		{Ref: &srezero.Action{Type: "bogus"}},
		{Ref: &srezero.Action{Type: "update_config", Service: "cache", Key: "K", Value: value.Value{K: 99}}},
	}
	ep := engine.NewEpisode(tk)
	ep.Reset(1)
	for i, a := range odd {
		if ep.Done() {
			ep.Reset(1)
		}
		r := ep.Step(a)
		_ = ep.AppendText(nil, &r.Obs)
		if !json.Valid(ep.AppendJSON(nil, &r.Obs)) {
			t.Errorf("action %d: invalid JSON observation", i)
		}
	}
	if !utf8.ValidString(string(ep.AppendIntro(nil))) {
		t.Error("intro is not UTF-8")
	}
}

// BenchmarkRefEpisode plays one sre_zero episode of eight steps, each
// rendered as text, from a reset.
func BenchmarkRefEpisode(b *testing.B) {
	tk, acts := refPlan(b)
	ep := engine.NewEpisode(tk)
	var buf []byte
	b.ReportAllocs()
	for b.Loop() {
		ep.Reset(1)
		for i := range acts {
			r := ep.Step(&acts[i])
			buf = ep.AppendText(buf[:0], &r.Obs)
		}
	}
}
