package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// JudgePromptVersion identifies the judge's system prompt and the shape of
// the case it is shown. Records carry it beside every verdict, and the
// verdict cache keys on it: change it whenever JudgeSystemPrompt's wording
// or the case's fields change, so no verdict given to another question is
// reused.
const JudgePromptVersion = "judge-1"

// JudgeSystemPrompt is the judge's fixed instruction. The case follows in
// the user message as one JSON object.
const JudgeSystemPrompt = `You grade the diagnosis an on-call engineer gave when closing a simulated production incident. You are shown the incident's ground truth and the engineer's answer, as a JSON object:

- incident: title, alert, and the services of the system
- ground_truth: one entry per real cause: the faulty service, the fault (with its description), the mechanism (with its description), the concrete detail (usually the config key or state that is wrong), and the fault's parameters
- answer: root_cause (the diagnosis being graded) and fix (what the engineer says they changed)

The diagnosis is correct when, and only when, all of these hold:
1. For every ground-truth cause, root_cause asserts a cause on that same service, and what it says is wrong there is the ground truth's mechanism. Ordinary synonyms, the system's own log wording, config key names and numbers all count; exact vocabulary is not required.
2. The direction and the specific setting agree: "too many workers" is wrong when there are too few; a connect timeout is not an idle timeout; a sibling mechanism is wrong.
3. It blames no service outside the ground truth. Services mentioned only as victims or as part of the explanation ("so every web_server query failed") are not blamed. A negation ("no memory pressure") asserts nothing.
4. It is not vague ("something is wrong with the database"), and it is not a list of every possible cause (keyword stuffing is wrong).
5. It names the cause rather than only describing a value ("max_connections is 20" without saying it is too low is not a diagnosis).
Judge root_cause only; fix does not make a wrong diagnosis right, nor a right one wrong.

Answer with one JSON object and nothing else:
{"diagnosis_correct": true or false, "reason": "one sentence saying why"}`

// Verdict is the judge's answer about one diagnosis.
type Verdict struct {
	DiagnosisCorrect bool   `json:"diagnosis_correct"`
	Reason           string `json:"reason"`
}

// ErrUnusableVerdict marks an answer that is not a verdict: no JSON
// object, or one without a boolean diagnosis_correct.
var ErrUnusableVerdict = errors.New("unusable verdict")

// ParseVerdict reads a judge's answer: a JSON object with a boolean
// diagnosis_correct and a string reason. It tolerates what models wrap
// around one (a <think> block, a code fence, a sentence before or after)
// by reading, from the end of the answer back, the first "{" that starts
// a JSON value holding a boolean diagnosis_correct; nothing else counts,
// so "true" in prose, or "yes" for the boolean, is unusable.
func ParseVerdict(answer string) (Verdict, error) {
	body := strings.TrimSpace(thinkBlock.ReplaceAllString(answer, ""))
	// A verdict is a sentence long; the tail of a long answer holds it,
	// and bounding the text bounds the work.
	tail := body[max(0, len(body)-maxVerdictText):]
	tries := 0
	for open := strings.LastIndexByte(tail, '{'); open >= 0 && tries < maxVerdictTries; open = strings.LastIndexByte(tail[:open], '{') {
		tries++
		var raw struct {
			DiagnosisCorrect *bool  `json:"diagnosis_correct"`
			Reason           string `json:"reason"`
		}
		if json.NewDecoder(strings.NewReader(tail[open:])).Decode(&raw) != nil || raw.DiagnosisCorrect == nil {
			continue
		}
		return Verdict{DiagnosisCorrect: *raw.DiagnosisCorrect, Reason: clip(strings.TrimSpace(raw.Reason), 1000)}, nil
	}
	return Verdict{}, fmt.Errorf("%w: %q", ErrUnusableVerdict, clip(body, 200))
}

const (
	maxVerdictText  = 64 << 10
	maxVerdictTries = 256
)

// Judge asks a model whether diagnoses are right, through a Provider (its
// retries, pacing and failure classification).
type Judge struct {
	provider *Provider
}

// NewJudge returns a judge asking through p, whose Config names the model.
func NewJudge(p *Provider) *Judge { return &Judge{provider: p} }

// Model is the judge's model.
func (j *Judge) Model() string { return j.provider.Config().Model }

// Prompt is the version of the judge's prompt.
func (j *Judge) Prompt() string { return JudgePromptVersion }

// JudgeError is a judging that gave no verdict. Abort is set when no
// retry can help (a bad key, a missing model): judging should stop.
type JudgeError struct {
	Abort bool
	Err   error
}

func (e *JudgeError) Error() string { return e.Err.Error() }
func (e *JudgeError) Unwrap() error { return e.Err }

// Judge puts one case (the JSON object JudgeSystemPrompt describes) to
// the model. The request is sampled at temperature 0, and with the
// configured seed, so that the same case asks the same question. An
// error is a *JudgeError: the provider failed, or its answer was not a
// verdict.
func (j *Judge) Judge(ctx context.Context, caseJSON []byte) (Verdict, error) {
	cfg := j.provider.Config()
	req := &Request{Model: cfg.Model, Temperature: 0, MaxTokens: cfg.MaxTokens, Seed: cfg.Seed,
		Messages: []Message{text("system", JudgeSystemPrompt), text("user", string(caseJSON))}}
	resp, _, err := j.provider.Complete(ctx, req)
	if err != nil {
		var ce *CallError
		return Verdict{}, &JudgeError{Abort: errors.As(err, &ce) && ce.Kind == Fatal, Err: err}
	}
	v, err := ParseVerdict(resp.Choices[0].Message.Text())
	if err != nil {
		return Verdict{}, &JudgeError{Err: err}
	}
	return v, nil
}
