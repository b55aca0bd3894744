package eval

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sync"

	"github.com/srezc/srezc/action"
	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/record"
)

// The optional model judge (srezc eval --judge, srezc regrade --judge)
// grades each resolved episode's diagnosis a second time, by asking a
// model with a fixed, versioned prompt. Its verdict is stored beside the
// deterministic grade and compared with it in the report; it never
// changes success, reward or any metric.

// JudgeCase is what the judge is shown about one episode: the incident,
// its ground truth, and the agent's resolve_incident arguments. Its JSON
// form is what the judge reads (llm.JudgeSystemPrompt describes it) and
// what the verdict cache hashes.
type JudgeCase struct {
	Incident    JudgeIncident `json:"incident"`
	GroundTruth []JudgeCause  `json:"ground_truth"`
	Answer      JudgeAnswer   `json:"answer"`
}

// JudgeIncident is the incident as the judge sees it.
type JudgeIncident struct {
	Title    string   `json:"title"`
	Alert    string   `json:"alert"`
	Services []string `json:"services"`
}

// JudgeCause is one real cause of an incident.
type JudgeCause struct {
	Service              string       `json:"service"`
	Fault                string       `json:"fault,omitempty"`
	FaultDescription     string       `json:"fault_description,omitempty"`
	Mechanism            string       `json:"mechanism,omitempty"`
	MechanismDescription string       `json:"mechanism_description,omitempty"`
	Detail               string       `json:"detail,omitempty"`
	Parameters           []JudgeParam `json:"parameters,omitempty"`
}

// JudgeParam is one parameter of a fault, with the value the incident
// gives it (or its default).
type JudgeParam struct {
	Name        string `json:"name"`
	Value       string `json:"value"`
	Description string `json:"description,omitempty"`
}

// JudgeAnswer is the agent's resolve_incident arguments.
type JudgeAnswer struct {
	RootCause string `json:"root_cause"`
	Fix       string `json:"fix"`
}

// JudgeTruth is the incident and ground truth of one compiled task; Hash
// is the task's, so an episode of another version of the task is not
// judged against it.
type JudgeTruth struct {
	Hash        string
	Incident    JudgeIncident
	GroundTruth []JudgeCause
}

// ResolutionOf is the resolve_incident arguments of a scored episode that
// ended in a resolution (accepted or not); ok is false for any other
// episode, and for one whose trajectory was left out (a held-out task's).
func ResolutionOf(r *record.Line) (a JudgeAnswer, ok bool) {
	if r.Outcome != record.OutcomeScored || len(r.Trajectory) == 0 ||
		r.Terminal != engine.TermResolved.String() && r.Terminal != engine.TermRejected.String() {
		return a, false
	}
	text := r.Trajectory[len(r.Trajectory)-1].Action
	if r.Profile == record.ProfileSreZero {
		ra := action.ParseRef(text)
		if ra.Type == "resolve_incident" {
			return JudgeAnswer{RootCause: ra.RootCause, Fix: ra.Fix}, true
		}
		return JudgeAnswer{RootCause: text}, true
	}
	rootCause, fix, ok := action.Resolution(text)
	if !ok {
		return JudgeAnswer{RootCause: text}, true
	}
	a.RootCause, a.Fix = rootCause, fix
	return a, true
}

// Judge grades one case, given as its JSON (JudgeCase). An error wrapping
// ErrJudgeAbort stops the judging (no retry can help: a bad key, a missing
// model); any other error is an infrastructure error of that episode.
type Judge interface {
	Model() string
	Prompt() string
	Judge(ctx context.Context, caseJSON []byte) (correct bool, reason string, err error)
}

// ErrJudgeAbort marks a judge failure that no retry can fix.
var ErrJudgeAbort = errors.New("judging aborted")

// JudgeCacheFile is the verdict cache's name in an output folder.
const JudgeCacheFile = "judge-cache.jsonl"

// judgeCaseVersion moves when JudgeCase's shape or its filling changes,
// so that a cached verdict on the old shape is not reused.
const judgeCaseVersion = "1"

// JudgeKey is the content hash a verdict is cached under: the prompt
// version, the model and the case (ground truth and answer).
func JudgeKey(prompt, model string, caseJSON []byte) string {
	h := sha256.New()
	for _, s := range []string{judgeCaseVersion, prompt, model} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	h.Write(caseJSON)
	return hex.EncodeToString(h.Sum(nil))
}

// JudgeCache holds verdicts by JudgeKey in a JSON-lines file: a line per
// verdict, appended as it arrives (so a killed process loses at most the
// line being written, and keeps every verdict paid for), synced by Close.
// Only verdicts are cached; a failure is asked again next time.
type JudgeCache struct {
	path    string
	mu      sync.Mutex
	entries map[string]cachedVerdict
	f       *os.File
}

type cachedVerdict struct {
	Key              string `json:"key"`
	Prompt           string `json:"judge_prompt"`
	Model            string `json:"model"`
	DiagnosisCorrect bool   `json:"diagnosis_correct"`
	Reason           string `json:"reason"`
}

// OpenJudgeCache reads the cache at path (none yet is an empty cache). A
// line that is not a verdict is an error naming path:line, except a last
// line with no newline, which a crash cut short and is dropped.
func OpenJudgeCache(path string) (*JudgeCache, error) {
	c := &JudgeCache{path: path, entries: map[string]cachedVerdict{}}
	data, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<24)
	for line := 1; sc.Scan(); line++ {
		text := bytes.TrimSpace(sc.Bytes())
		if len(text) == 0 {
			continue
		}
		var v cachedVerdict
		if err := json.Unmarshal(text, &v); err != nil || v.Key == "" {
			if !bytes.HasSuffix(data, []byte{'\n'}) && bytes.HasSuffix(bytes.TrimSpace(data), text) {
				break // a torn last line
			}
			return nil, fmt.Errorf("%s:%d: not a cached verdict", path, line)
		}
		c.entries[v.Key] = v
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return c, nil
}

// Len is how many verdicts the cache holds.
func (c *JudgeCache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.entries)
}

func (c *JudgeCache) get(key string) (cachedVerdict, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.entries[key]
	return v, ok
}

func (c *JudgeCache) put(v cachedVerdict) error {
	line, err := json.Marshal(v)
	if err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.entries[v.Key] = v
	if c.f == nil {
		f, err := os.OpenFile(c.path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return err
		}
		c.f = f
	}
	_, err = c.f.Write(append(line, '\n'))
	return err
}

// Close syncs and closes the cache file.
func (c *JudgeCache) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.f == nil {
		return nil
	}
	err := c.f.Sync()
	if cerr := c.f.Close(); err == nil {
		err = cerr
	}
	c.f = nil
	return err
}

// JudgeStats says what a judging pass did.
type JudgeStats struct {
	// Resolved counts the episodes judged (scored, ended in a resolution,
	// trajectory kept, task known at the hash played); Cached those whose
	// verdict came from the cache; Asked the distinct cases put to the
	// model; Infra the episodes left without a verdict.
	Resolved, Cached, Asked, Infra int
	// Agree and Disagree compare the verdicts with metrics.diagnosed.
	Agree, Disagree int
}

// JudgeRecords judges every resolved episode of recs in place, setting
// its Judge (and clearing it on episodes that cannot be judged). Cases
// already in the cache are not asked again, and a case several episodes
// share (the same task and answer) is asked once. workers bounds the
// cases in flight (the judge's provider bounds its own calls too). An
// error wrapping ErrJudgeAbort stops the pass and is returned; the
// verdicts got so far stay in the records and the cache.
func JudgeRecords(ctx context.Context, recs []record.Line, truths map[string]*JudgeTruth, j Judge, cache *JudgeCache, workers int) (JudgeStats, error) {
	var st JudgeStats
	prompt, model := j.Prompt(), j.Model()
	type job struct {
		key     string
		caseJS  []byte
		records []int
	}
	var jobs []*job
	pending := map[string]*job{}
	for i := range recs {
		r := &recs[i]
		r.Judge = nil
		truth := truths[r.Task]
		answer, ok := ResolutionOf(r)
		if !ok || truth == nil || truth.Hash != r.Hash {
			continue
		}
		st.Resolved++
		js, err := json.MarshalIndent(JudgeCase{Incident: truth.Incident, GroundTruth: truth.GroundTruth, Answer: answer}, "", "  ")
		if err != nil {
			return st, err
		}
		key := JudgeKey(prompt, model, js)
		r.Judge = &record.JudgeRecord{Prompt: prompt, Model: model, Key: key}
		if v, hit := cache.get(key); hit {
			st.Cached++
			correct := v.DiagnosisCorrect
			r.Judge.DiagnosisCorrect, r.Judge.Reason = &correct, v.Reason
			continue
		}
		if jb := pending[key]; jb != nil {
			jb.records = append(jb.records, i)
			continue
		}
		jb := &job{key: key, caseJS: js, records: []int{i}}
		pending[key] = jb
		jobs = append(jobs, jb)
	}
	st.Asked = len(jobs)

	parent := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		mu       sync.Mutex
		abortErr error
		wg       sync.WaitGroup
	)
	next := make(chan *job)
	for range max(1, min(workers, len(jobs))) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for jb := range next {
				if ctx.Err() != nil {
					continue // stopped: left without a verdict, below
				}
				correct, reason, err := j.Judge(ctx, jb.caseJS)
				if err == nil {
					err = cache.put(cachedVerdict{Key: jb.key, Prompt: prompt, Model: model, DiagnosisCorrect: correct, Reason: reason})
					if err != nil {
						err = fmt.Errorf("%w: cannot write the verdict cache: %v", ErrJudgeAbort, err)
					}
				}
				mu.Lock()
				if err != nil && (errors.Is(err, ErrJudgeAbort) || ctx.Err() != nil) {
					if abortErr == nil {
						abortErr = err
						cancel()
					}
				}
				for _, i := range jb.records {
					jr := recs[i].Judge
					if err != nil {
						jr.InfraError = err.Error()
						continue
					}
					c := correct
					jr.DiagnosisCorrect, jr.Reason = &c, reason
				}
				mu.Unlock()
			}
		}()
	}
	for _, jb := range jobs {
		select {
		case next <- jb:
			continue
		case <-ctx.Done():
		}
		break
	}
	close(next)
	wg.Wait()
	if abortErr == nil && parent.Err() != nil {
		abortErr = parent.Err()
	}
	if err := cache.Close(); err != nil && abortErr == nil {
		abortErr = err
	}
	for i := range recs {
		jr := recs[i].Judge
		switch {
		case jr == nil:
		case jr.DiagnosisCorrect == nil:
			if jr.InfraError == "" {
				jr.InfraError = "not judged: judging stopped first"
			}
			st.Infra++
		case *jr.DiagnosisCorrect == recs[i].Metrics.Diagnosed:
			st.Agree++
		default:
			st.Disagree++
		}
	}
	if abortErr != nil && !errors.Is(abortErr, ErrJudgeAbort) {
		abortErr = fmt.Errorf("%w: %v", ErrJudgeAbort, abortErr)
	}
	return st, abortErr
}

// JudgeRecordsFile judges the records of a records.jsonl in place (see
// JudgeRecords), rewriting only the lines whose verdict changed, through
// a temporary file and a rename. The records are written even when the
// pass stops on an error, so verdicts got are kept.
func JudgeRecordsFile(ctx context.Context, path string, truths map[string]*JudgeTruth, j Judge, cache *JudgeCache, workers int) (JudgeStats, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return JudgeStats{}, err
	}
	var lines [][]byte
	var recs []record.Line
	for n, line := range bytes.SplitAfter(data, []byte{'\n'}) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		r, err := record.DecodeLine(line)
		if err != nil {
			return JudgeStats{}, fmt.Errorf("%s:%d: %v", path, n+1, err)
		}
		lines = append(lines, line)
		recs = append(recs, r)
	}
	before := make([][]byte, len(recs))
	for i := range recs {
		before[i], _ = json.Marshal(recs[i].Judge)
	}
	st, jerr := JudgeRecords(ctx, recs, truths, j, cache, workers)
	var buf bytes.Buffer
	for i := range recs {
		after, _ := json.Marshal(recs[i].Judge)
		if bytes.Equal(before[i], after) {
			buf.Write(lines[i])
			if !bytes.HasSuffix(lines[i], []byte{'\n'}) {
				buf.WriteByte('\n')
			}
			continue
		}
		line, err := record.Marshal(&recs[i])
		if err != nil {
			return st, err
		}
		buf.Write(line)
	}
	if err := record.WriteFileAtomic(path, buf.Bytes()); err != nil {
		return st, err
	}
	return st, jerr
}
