package llmtest

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode"

	"github.com/srezc/srezc/llm"
)

// JudgeAnswer is the fake judge: a rule over the case in the request, so
// that tests know every verdict in advance. A diagnosis is correct when,
// for every ground-truth cause, root_cause names the cause's service and
// at least one word of four letters or more of its mechanism's name
// ("leak" or "memory" for memory_leak; an imported sre_zero task's cause
// has no mechanism name, so there the service is enough), ignoring case
// and reading punctuation as spaces. bad makes the answer unusable: Prose is a
// sentence with no JSON, GarbageCall a JSON object whose
// diagnosis_correct is not a boolean.
func JudgeAnswer(req *llm.Request, bad Fault) llm.Message {
	content := judgeVerdict(req)
	switch bad {
	case Prose:
		content = "The diagnosis looks about right to me."
	case GarbageCall:
		content = `{"diagnosis_correct": "probably", "reason": "hard to say"}`
	}
	return llm.Message{Role: "assistant", Content: &content}
}

func judgeVerdict(req *llm.Request) string {
	var c struct {
		GroundTruth []struct {
			Service   string `json:"service"`
			Mechanism string `json:"mechanism"`
		} `json:"ground_truth"`
		Answer struct {
			RootCause string `json:"root_cause"`
		} `json:"answer"`
	}
	user := ""
	for _, m := range req.Messages {
		if m.Role == "user" {
			user = m.Text()
		}
	}
	if err := json.Unmarshal([]byte(user), &c); err != nil {
		return "I cannot read this case: " + err.Error()
	}
	said := words(c.Answer.RootCause)
	correct, reason := len(c.GroundTruth) > 0, []string{}
	for _, cause := range c.GroundTruth {
		switch {
		case !strings.Contains(said, words(cause.Service)):
			correct = false
			reason = append(reason, "does not name "+cause.Service)
		case cause.Mechanism != "" && !namesMechanism(said, cause.Mechanism):
			correct = false
			reason = append(reason, fmt.Sprintf("names %s but not %s", cause.Service, cause.Mechanism))
		case cause.Mechanism == "":
			reason = append(reason, "names "+cause.Service)
		default:
			reason = append(reason, fmt.Sprintf("names %s and %s", cause.Service, cause.Mechanism))
		}
	}
	js, _ := json.Marshal(map[string]any{"diagnosis_correct": correct, "reason": "The answer " + strings.Join(reason, "; ") + "."})
	return string(js)
}

func words(s string) string {
	return " " + strings.Join(strings.Fields(strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return r
		}
		return ' '
	}, strings.ToLower(s))), " ") + " "
}

func namesMechanism(said, mechanism string) bool {
	for _, w := range strings.Split(mechanism, "_") {
		if len(w) >= 4 && strings.Contains(said, w) {
			return true
		}
	}
	return false
}
