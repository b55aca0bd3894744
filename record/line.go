package record

// Version is the version of the records.jsonl line format that this
// package writes and reads. Version 1 is the format every srezc so far has
// written, and its lines carry no version field (so they stay
// byte-identical to the lines written before the format had a number); a
// later version writes "record_version" and DecodeLine refuses a line of a
// version newer than it knows, rather than misread it.
const Version = 1

// Versions identify what produced a result, so results stay comparable
// and can be re-graded.
type Versions struct {
	Srezc    string `json:"srezc"`
	Renderer string `json:"renderer"`
	Profile  string `json:"profile"`
	Rubric   int    `json:"rubric_version"`
	Format   int    `json:"ir_format"`
}

// Line is one line of records.jsonl: one episode. Its fields are written
// in this order; every change to it is a change of the format (Version).
type Line struct {
	// RecordVersion is the line's format version; 0 (absent) is version 1.
	RecordVersion int    `json:"record_version,omitempty"`
	Task          string `json:"task"`
	Hash          string `json:"hash"`
	Suite         string `json:"suite"`
	Versions             // flattened: srezc, renderer, profile, ir_format
	Agent         string `json:"agent"`
	// Model and Prompt identify an LLM agent's model and the version of
	// its system prompt and observation rendering; empty for built-in
	// agents and humans.
	Model      string `json:"model,omitempty"`
	Prompt     string `json:"prompt,omitempty"`
	Seed       uint64 `json:"seed"`
	Episode    int    `json:"episode"`
	Difficulty string `json:"difficulty"`
	Split      string `json:"split"`
	// Family is the incident family (eval.Family), Tags the incident's
	// tags: what the per-family and per-tag tables group by.
	Family string   `json:"family,omitempty"`
	Tags   []string `json:"tags,omitempty"`
	// Noise is NoiseOn or NoiseOff when a sweep ran each episode both ways
	// (--noise both), and empty when noise was as authored.
	Noise string `json:"noise,omitempty"`
	// NoiseEvents are the discrete noise events in what the agent read
	// (a latency spike in a window it read, a noise log line): the
	// grader's tags, never shown to the agent. Absent when noise touched
	// none of its reads. Optional, so a line without any is a version-1
	// line as before, and older readers skip the field.
	NoiseEvents []NoiseEvent `json:"noise_events,omitempty"`
	// Outcome is OutcomeScored or OutcomeInfraError. An infrastructure
	// error (the provider still failing after every retry) is excluded from
	// every metric and retried by --resume; InfraError says what failed.
	Outcome    string `json:"outcome"`
	InfraError string `json:"infra_error,omitempty"`
	// AgentError is set when the provider refused a request because of
	// what the agent sent (context length exceeded, a content filter): the
	// episode ends there, scored against the agent.
	AgentError string         `json:"agent_error,omitempty"`
	Terminal   string         `json:"terminal"`
	Failure    string         `json:"failure_mode"`
	Components Components     `json:"components"`
	Metrics    EpisodeMetrics `json:"metrics"`
	// Usage is what the episode cost an LLM agent; nil for the others.
	Usage *Usage `json:"usage,omitempty"`
	// Judge is the model judge's verdict on the diagnosis (--judge),
	// beside the deterministic one in Metrics.Diagnosed, which stays the
	// score; absent when no judge ran or the episode did not resolve.
	Judge *JudgeRecord `json:"judge,omitempty"`
	// HeldOut is the published hash prefix of the secret seed a held-out
	// test task was generated from (never the seed).
	HeldOut string `json:"heldout,omitempty"`
	// Intro and Trajectory are what the agent saw and did (left out for
	// held-out tasks unless asked for).
	Intro      string `json:"intro,omitempty"`
	Trajectory []Move `json:"trajectory"`
}

// Episode outcomes. A sweep that aborts (an error no retry can fix) writes
// no record for the episodes it did not finish.
const (
	OutcomeScored     = "scored"
	OutcomeInfraError = "infra_error"
)

// The halves of a --noise both sweep, as a line's "noise" names them.
const (
	NoiseOn  = "on"
	NoiseOff = "off"
)

// NoiseEvent is one noise event an agent read: at which step, the tick and
// service it belongs to, its kind (the noise effect: spike,
// phantom_restart, health_check_flap, retry, warning) and, for a spike,
// the first metric it moved.
type NoiseEvent struct {
	Step    int    `json:"step"`
	Tick    int    `json:"tick"`
	Service string `json:"service"`
	Kind    string `json:"kind"`
	Metric  string `json:"metric,omitempty"`
}

// NoiseRead reports whether noise touched any evidence the agent read.
func (r *Line) NoiseRead() bool { return len(r.NoiseEvents) > 0 }

// Usage is an LLM agent's cost over one episode. LatencyMS is wall time in
// provider calls, retries and waits: the one field of a record that
// differs between two runs of the same sweep.
type Usage struct {
	Calls            int   `json:"calls"`
	Retries          int   `json:"retries"`
	PromptTokens     int   `json:"prompt_tokens"`
	CompletionTokens int   `json:"completion_tokens"`
	LatencyMS        int64 `json:"latency_ms"`
}

// JudgeRecord is the judge's verdict in a record (records.jsonl's
// "judge"), beside the deterministic grade (metrics.diagnosed), which
// stays the score. Key is the content hash the verdict is cached under.
// An episode the judge could not grade (the provider failed after every
// retry, or its answer was not a verdict) has InfraError and no verdict.
type JudgeRecord struct {
	Prompt           string `json:"judge_prompt"`
	Model            string `json:"model"`
	Key              string `json:"key"`
	DiagnosisCorrect *bool  `json:"diagnosis_correct,omitempty"`
	Reason           string `json:"reason,omitempty"`
	InfraError       string `json:"infra_error,omitempty"`
}

// Move is one step of a trajectory. Reply is the model's whole answer when
// an LLM agent chose the action (so an invalid action shows what the model
// said).
type Move struct {
	Step        int     `json:"step"`
	Action      string  `json:"action"`
	Observation string  `json:"observation"`
	Reward      float64 `json:"reward"`
	Reply       string  `json:"reply,omitempty"`
}

// Key identifies an episode of a sweep: --resume never plays a key twice,
// and a report keeps one line per key.
type Key struct {
	Suite, Task, Hash, Agent, Model, Prompt string
	Seed                                    uint64
	Noise                                   string
}

// KeyOf is a line's key.
func KeyOf(r *Line) Key {
	return Key{r.Suite, r.Task, r.Hash, r.Agent, r.Model, r.Prompt, r.Seed, r.Noise}
}
