// Package llm plays LLM agents over any OpenAI-compatible Chat Completions
// endpoint (OpenAI, OpenRouter, vLLM, Ollama, LM Studio, a Bedrock
// gateway), behind a provider-safe caller: retries with backoff and
// jitter, Retry-After, a rate limit and minimum interval per provider, a
// pause after consecutive failures, a per-call timeout and bounded
// concurrency. Like package agents, it sees only what an agent is shown:
// it imports nothing of srezc but agents (layering_test.go).
//
// The HTTP client is written here rather than taken from an SDK because
// classifying each failure (retry, abort the sweep, or score against the
// agent) needs the raw status, headers and body, and an SDK's own retries
// would hide them and fight the policy.
package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/srezc/srezc/agents"
)

// Message is one chat message.
type Message struct {
	Role       string     `json:"role"`
	Content    *string    `json:"content"`
	ToolCalls  []ToolCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
}

// Text returns a message's content, "" when it has none.
func (m Message) Text() string {
	if m.Content == nil {
		return ""
	}
	return *m.Content
}

func text(role, s string) Message { return Message{Role: role, Content: &s} }

// ToolCall is a native tool call of the model.
type ToolCall struct {
	ID       string       `json:"id"`
	Type     string       `json:"type"`
	Function FunctionCall `json:"function"`
}

// FunctionCall names a function and its JSON-encoded arguments.
type FunctionCall struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// Request is a Chat Completions request.
type Request struct {
	Model       string    `json:"model"`
	Messages    []Message `json:"messages"`
	Temperature float64   `json:"temperature"`
	MaxTokens   int       `json:"max_tokens,omitempty"`
	Seed        *int64    `json:"seed,omitempty"`
	Tools       []Tool    `json:"tools,omitempty"`
	ToolChoice  string    `json:"tool_choice,omitempty"`
}

// Response is the part of a Chat Completions response srezc reads.
type Response struct {
	Choices []Choice `json:"choices"`
	Usage   struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
	} `json:"usage"`
}

// Choice is one completion.
type Choice struct {
	Message      Message `json:"message"`
	FinishReason string  `json:"finish_reason"`
}

// Config says where a model is served and how to ask it.
type Config struct {
	// BaseURL is the API root, such as https://api.openai.com/v1; requests
	// go to BaseURL + "/chat/completions".
	BaseURL string
	APIKey  string
	// KeyVar names where the key came from (OPENAI_API_KEY, or a flag), so
	// that an authentication error can say what to fix.
	KeyVar      string
	Model       string
	Temperature float64
	MaxTokens   int
	// Seed, when set, is sent with every request (providers that support
	// it sample reproducibly).
	Seed *int64
}

// FromEnv reads the reference's variables: OPENAI_BASE_URL, OPENAI_API_KEY
// and OPENAI_MODEL. A base URL without a scheme gets https://.
func FromEnv(getenv func(string) string) Config {
	c := Config{BaseURL: getenv("OPENAI_BASE_URL"), APIKey: getenv("OPENAI_API_KEY"), Model: getenv("OPENAI_MODEL"), KeyVar: "OPENAI_API_KEY", MaxTokens: 1536}
	return c
}

// Check reports a configuration that cannot work.
func (c Config) Check() error {
	switch {
	case c.BaseURL == "":
		return errors.New("no endpoint: set OPENAI_BASE_URL or --base-url (for OpenAI, https://api.openai.com/v1)")
	case c.Model == "":
		return errors.New("no model: set OPENAI_MODEL or --model")
	case strings.Contains(c.BaseURL, "api.openai.com") && c.APIKey == "":
		return fmt.Errorf("no API key for %s: set %s", c.BaseURL, c.keyVar())
	case c.MaxTokens < 0:
		return errors.New("max tokens must not be negative")
	}
	u, err := url.Parse(c.endpoint())
	if err != nil || u.Host == "" {
		return fmt.Errorf("base URL %q is not a URL", c.BaseURL)
	}
	return nil
}

func (c Config) keyVar() string {
	if c.KeyVar == "" {
		return "OPENAI_API_KEY"
	}
	return c.KeyVar
}

func (c Config) endpoint() string {
	base := c.BaseURL
	if !strings.Contains(base, "://") {
		base = "https://" + base
	}
	return strings.TrimRight(base, "/") + "/chat/completions"
}

// Kind is how a failed call is handled.
type Kind uint8

const (
	// Transient failures are retried: 408, 425, 429, 5xx, timeouts,
	// dropped connections, a body that is not the JSON promised, no
	// choices.
	Transient Kind = iota + 1
	// Fatal failures abort the sweep: no retry can fix a bad key, a
	// missing model or endpoint, or a request the API rejects as
	// malformed.
	Fatal
	// AgentFault failures are the agent's doing: the conversation exceeds
	// the model's context, or a content filter refused it.
	AgentFault
)

func (k Kind) String() string {
	switch k {
	case Transient:
		return "transient"
	case Fatal:
		return "fatal"
	case AgentFault:
		return "agent"
	}
	return "unknown"
}

// CallError is one failed call, classified.
type CallError struct {
	Kind   Kind
	Status int // HTTP status, 0 for a transport or payload problem
	// RetryAfter is the server's Retry-After (at most MaxRetryAfter), 0
	// when absent.
	RetryAfter time.Duration
	// Unreachable: nothing answered at the address (connection refused,
	// unknown host). Before the endpoint has ever answered, the Provider
	// makes this Fatal: it is a wrong --base-url or a server not started,
	// which no retry fixes.
	Unreachable bool
	Msg         string
}

func (e *CallError) Error() string {
	if e.Status != 0 {
		return fmt.Sprintf("HTTP %d: %s", e.Status, e.Msg)
	}
	return e.Msg
}

// Client makes single Chat Completions calls and classifies what comes
// back; Provider adds the policy around it.
type Client struct {
	Config Config
	HTTP   *http.Client
}

// Call makes one request. The error, if any, is a *CallError.
func (c *Client) Call(ctx context.Context, req *Request) (*Response, error) {
	body, err := json.Marshal(req)
	if err != nil {
		return nil, &CallError{Kind: Fatal, Msg: "cannot encode the request: " + err.Error()}
	}
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, c.Config.endpoint(), bytes.NewReader(body))
	if err != nil {
		return nil, &CallError{Kind: Fatal, Msg: err.Error()}
	}
	hreq.Header.Set("Content-Type", "application/json")
	hreq.Header.Set("User-Agent", "srezc")
	hreq.Header.Set("X-Title", "srezc")
	if c.Config.APIKey != "" {
		hreq.Header.Set("Authorization", "Bearer "+c.Config.APIKey)
	}
	hc := c.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(hreq)
	if err != nil {
		return nil, transportError(ctx, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err != nil {
		return nil, transportError(ctx, err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, c.statusError(resp.StatusCode, resp.Header, data)
	}
	// Some gateways answer 200 with an error object.
	var envelope struct {
		Error *apiError `json:"error"`
	}
	if json.Unmarshal(data, &envelope) == nil && envelope.Error != nil && envelope.Error.Message != "" {
		status := envelope.Error.status()
		if status == 0 {
			// No status given: a rejected request says so in its type;
			// anything else is the gateway's failure.
			status = http.StatusBadGateway
			if strings.Contains(envelope.Error.words(), "invalid_request") {
				status = http.StatusBadRequest
			}
		}
		return nil, c.statusError(status, resp.Header, data)
	}
	var out Response
	if err := json.Unmarshal(data, &out); err != nil {
		return nil, &CallError{Kind: Transient, Msg: "the provider's answer is not valid JSON: " + clip(string(data), 200)}
	}
	if len(out.Choices) == 0 {
		return nil, &CallError{Kind: Transient, Msg: "the provider's answer has no choices: " + clip(string(data), 200)}
	}
	// A choice that is null, or has no message object, is a malformed
	// payload (the provider's fault), not an empty answer of the model.
	var shape struct {
		Choices []map[string]json.RawMessage `json:"choices"`
	}
	if err := json.Unmarshal(data, &shape); err != nil || len(shape.Choices) == 0 || shape.Choices[0] == nil ||
		!bytes.HasPrefix(bytes.TrimSpace(shape.Choices[0]["message"]), []byte("{")) {
		return nil, &CallError{Kind: Transient, Msg: "the provider's answer is malformed (its first choice has no message): " + clip(string(data), 200)}
	}
	if out.Choices[0].FinishReason == "content_filter" && out.Choices[0].Message.Text() == "" && len(out.Choices[0].Message.ToolCalls) == 0 {
		return nil, &CallError{Kind: AgentFault, Msg: "content_filter: the provider's content filter withheld the answer"}
	}
	return &out, nil
}

type apiError struct {
	Message string          `json:"message"`
	Type    string          `json:"type"`
	Code    json.RawMessage `json:"code"`
}

// status reads a numeric error code (OpenRouter puts the HTTP status there).
func (e *apiError) status() int {
	n, err := strconv.Atoi(strings.Trim(string(e.Code), `"`))
	if err != nil || n < 100 || n > 599 {
		return 0
	}
	return n
}

func (e *apiError) words() string {
	return strings.ToLower(e.Message + " " + e.Type + " " + strings.Trim(string(e.Code), `"`))
}

// statusError classifies an HTTP error answer (README: "How failures are
// classified").
func (c *Client) statusError(status int, h http.Header, body []byte) *CallError {
	var envelope struct {
		Error apiError `json:"error"`
	}
	_ = json.Unmarshal(body, &envelope)
	words := envelope.Error.words()
	if envelope.Error.Message == "" {
		words = strings.ToLower(string(body))
	}
	msg := envelope.Error.Message
	if msg == "" {
		msg = clip(strings.TrimSpace(string(body)), 200)
	}
	e := &CallError{Status: status, Msg: msg, RetryAfter: retryAfter(h.Get("Retry-After"))}
	// The status class decides first: a 429 or a 5xx is the provider's
	// trouble whatever its body says (an overloaded server may well
	// mention tokens or a content policy), so it is retried, never
	// scored against the agent.
	switch {
	case status == http.StatusRequestTimeout || status == http.StatusTooEarly || status == http.StatusTooManyRequests || status == http.StatusConflict || status >= 500:
		e.Kind = Transient
	case status == http.StatusRequestEntityTooLarge || contextExceeded(words):
		e.Kind = AgentFault
		e.Msg = "context_length_exceeded: " + msg
	case strings.Contains(words, "content_filter") || strings.Contains(words, "content_policy") || strings.Contains(words, "content management policy"):
		e.Kind = AgentFault
		e.Msg = "content_filter: " + msg
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		e.Kind = Fatal
		e.Msg = fmt.Sprintf("%s (the provider rejected the API key: check %s)", msg, c.Config.keyVar())
	case status == http.StatusNotFound || strings.Contains(words, "model_not_found") || strings.Contains(words, "does not exist") && strings.Contains(words, "model"):
		e.Kind = Fatal
		e.Msg = fmt.Sprintf("%s (no such endpoint or model: check OPENAI_BASE_URL %q and OPENAI_MODEL %q)", msg, c.Config.BaseURL, c.Config.Model)
	default:
		// Any other 4xx: the request itself is wrong, and sending it again
		// cannot help.
		e.Kind = Fatal
	}
	return e
}

func contextExceeded(words string) bool {
	for _, w := range []string{"context_length_exceeded", "context length", "context window", "maximum context", "too many tokens", "prompt is too long", "reduce the length"} {
		if strings.Contains(words, w) {
			return true
		}
	}
	return false
}

func transportError(ctx context.Context, err error) *CallError {
	var ne net.Error
	switch {
	case ctx.Err() == context.DeadlineExceeded || errors.As(err, &ne) && ne.Timeout():
		return &CallError{Kind: Transient, Msg: "the call timed out"}
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		return &CallError{Kind: Transient, Msg: "the provider dropped the connection"}
	}
	return &CallError{Kind: Transient, Unreachable: unreachable(err), Msg: "could not reach the provider: " + err.Error()}
}

// unreachable reports an error that says nothing listens at the address:
// a refused connection or a host name that does not resolve.
func unreachable(err error) bool {
	var dns *net.DNSError
	return errors.Is(err, syscall.ECONNREFUSED) || errors.As(err, &dns) && dns.IsNotFound
}

// MaxRetryAfter is the longest wait a Retry-After header can impose
// (README: "Provider policy"): a provider asking for more (a daily quota's
// 86400) gets this, and the sweep's retries and --abort-after-infra take
// it from there instead of one header freezing a sweep for a day.
const MaxRetryAfter = 5 * time.Minute

// retryAfter reads a Retry-After header: seconds, or an HTTP date (taken
// relative to now, the one place the wall clock is read, for waiting
// only), capped at MaxRetryAfter.
func retryAfter(v string) time.Duration {
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
		switch {
		case math.IsNaN(s) || s <= 0:
			return 0
		case s >= MaxRetryAfter.Seconds():
			// Compared before converting: 1e300 seconds overflows a
			// Duration.
			return MaxRetryAfter
		}
		return time.Duration(s * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil {
		return min(max(0, time.Until(t)), MaxRetryAfter)
	}
	return 0
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// failure maps a call's classification to what it means for the episode.
func failure(k Kind) agents.Failure {
	switch k {
	case Fatal:
		return agents.Abort
	case AgentFault:
		return agents.Refused
	}
	return agents.Infra
}
