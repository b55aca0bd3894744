package llm

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Policy is the provider-safe calling policy. srezc eval takes it from a
// Preset chosen for the endpoint (preset.go); DefaultPolicy is the
// reference's, the free-tier preset.
type Policy struct {
	// MaxRetries is how many times a transient failure is retried.
	MaxRetries int
	// MinInterval is the least time between the end of one call (or the
	// start of one still running) and the start of the next.
	MinInterval time.Duration
	// RateCalls call starts are allowed per RateWindow, paced evenly (one
	// every RateWindow/RateCalls), so no window of that length ever holds
	// more. 0 in either disables the limit.
	RateCalls  int
	RateWindow time.Duration
	// After PauseAfter consecutive failed calls, every call to the
	// provider waits Pause. 0 in either disables the pause.
	PauseAfter int
	Pause      time.Duration
	// Timeout bounds one call.
	Timeout time.Duration
	// Concurrency bounds the calls in flight to the provider.
	Concurrency int
	// Backoff before retry n (from 0) is BackoffBase·2ⁿ capped at
	// BackoffMax, jittered to between half and all of it; a longer
	// Retry-After from the server wins.
	BackoffBase, BackoffMax time.Duration
}

// DefaultPolicy is the reference's provider-safe policy (spec §11.4): 5
// retries, 15 s between calls, 5 calls per 60 s, a 60 s pause after 3
// consecutive failures, 60 s per call. It suits the strictest free tiers,
// and would make a local server wait for nothing.
func DefaultPolicy() Policy {
	return Policy{MaxRetries: 5, MinInterval: 15 * time.Second, RateCalls: 5, RateWindow: 60 * time.Second,
		PauseAfter: 3, Pause: 60 * time.Second, Timeout: 60 * time.Second, Concurrency: 4,
		BackoffBase: 2 * time.Second, BackoffMax: 60 * time.Second}
}

// Check reports a policy that cannot work.
func (p Policy) Check() error {
	switch {
	case p.MaxRetries < 0 || p.MinInterval < 0 || p.RateCalls < 0 || p.RateWindow < 0 || p.PauseAfter < 0 || p.Pause < 0 || p.BackoffBase < 0 || p.BackoffMax < 0:
		return errors.New("provider policy: counts and durations must not be negative")
	case p.Timeout <= 0:
		return errors.New("provider policy: the call timeout must be positive")
	case p.Concurrency < 1:
		return errors.New("provider policy: concurrency must be at least 1")
	}
	return nil
}

// EventKind names what a Provider reports while it works.
type EventKind uint8

const (
	// EventCall: a call is about to be sent (At is its start).
	EventCall EventKind = iota + 1
	// EventAnswer: a call came back (At is its end); Tokens is what an
	// answer cost, Err the failure of one that failed.
	EventAnswer
	// EventRetry: a call failed and will be retried after Delay.
	EventRetry
	// EventPause: consecutive failures (or a Retry-After) pause every
	// call to the provider for Delay.
	EventPause
)

// Event is something a progress display shows: a call sent or answered, a
// retry, a pause. Events of one provider are reported one at a time, in
// the order they happened on its clock.
type Event struct {
	Kind    EventKind
	At      time.Time
	Attempt int
	Delay   time.Duration
	Tokens  int
	Err     error
}

// Clock is the time a Provider paces calls by. The real one is the
// default; tests give a fake one, so that pacing is checked exactly and
// without waiting.
type Clock interface {
	Now() time.Time
	// Sleep waits d, or until ctx is done (returning its error).
	Sleep(ctx context.Context, d time.Duration) error
}

type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }

func (realClock) Sleep(ctx context.Context, d time.Duration) error { return sleep(ctx, d) }

// Provider calls one endpoint under a Policy. It is safe for concurrent
// use. All agents of a sweep that talk to the same endpoint must share its
// limits (WithConfig), so that they hold for the endpoint as a whole.
type Provider struct {
	client *Client
	*limits
}

// limits is the state the policy keeps for one endpoint.
type limits struct {
	policy  Policy
	limiter *rate.Limiter
	slots   chan struct{}
	onEvent func(Event)

	clock Clock

	mu sync.Mutex
	// answered: the endpoint has answered at least once (any status), so
	// a refused connection afterwards is a restart, worth retrying.
	answered    bool
	lastStart   time.Time
	lastFinish  time.Time
	pausedUntil time.Time
	failures    int
	// jitter only spreads waits; it never reaches an episode.
	jitter *rand.Rand
}

// NewProvider returns a provider for cfg's endpoint.
func NewProvider(cfg Config, policy Policy, hc *http.Client) (*Provider, error) {
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	if err := policy.Check(); err != nil {
		return nil, err
	}
	l := &limits{policy: policy, slots: make(chan struct{}, policy.Concurrency),
		jitter: rand.New(rand.NewPCG(0x5e2c, 0x11)), onEvent: func(Event) {}, clock: realClock{}}
	if policy.RateCalls > 0 && policy.RateWindow > 0 {
		l.limiter = rate.NewLimiter(rate.Every(policy.RateWindow/time.Duration(policy.RateCalls)), 1)
	}
	return &Provider{client: &Client{Config: cfg, HTTP: hc}, limits: l}, nil
}

// WithConfig returns a provider that asks with cfg (another model, say)
// under the same limits as p.
func (p *Provider) WithConfig(cfg Config) *Provider {
	return &Provider{client: &Client{Config: cfg, HTTP: p.client.HTTP}, limits: p.limits}
}

// OnEvent sets what is called on every event (from the calling
// goroutines, one at a time, under the provider's lock: f must not call
// the provider). Set it before the first call.
func (p *Provider) OnEvent(f func(Event)) { p.onEvent = f }

// UseClock makes the provider pace calls by c. Set it before the first
// call.
func (p *Provider) UseClock(c Clock) { p.clock = c }

func (p *Provider) report(ev Event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.onEvent(ev)
}

// Config is the provider's configuration.
func (p *Provider) Config() Config { return p.client.Config }

// CallStats says what one Complete cost.
type CallStats struct {
	Attempts int
	Elapsed  time.Duration
}

// Complete sends req until it succeeds, fails in a way no retry can fix, or
// runs out of retries. The error is a *CallError for the last attempt,
// wrapped with the attempt count, or ctx's error.
func (p *Provider) Complete(ctx context.Context, req *Request) (*Response, CallStats, error) {
	start := time.Now()
	var stats CallStats
	for attempt := 0; ; attempt++ {
		resp, err := p.attempt(ctx, req)
		stats.Attempts++
		stats.Elapsed = time.Since(start)
		if err == nil {
			return resp, stats, nil
		}
		if ctx.Err() != nil {
			return nil, stats, ctx.Err()
		}
		var ce *CallError
		if !errors.As(err, &ce) || ce.Kind != Transient {
			return nil, stats, err
		}
		if attempt == p.policy.MaxRetries {
			if stats.Attempts == 1 {
				return nil, stats, fmt.Errorf("provider call failed: %w", err)
			}
			return nil, stats, fmt.Errorf("provider call failed after %d attempts; last: %w", stats.Attempts, err)
		}
		delay := p.backoff(attempt, ce.RetryAfter)
		p.report(Event{Kind: EventRetry, Attempt: attempt + 1, Delay: delay, Err: err})
		if err := p.clock.Sleep(ctx, delay); err != nil {
			return nil, stats, err
		}
	}
}

func (p *Provider) backoff(attempt int, retryAfter time.Duration) time.Duration {
	d := p.policy.BackoffBase << min(attempt, 30)
	if d > p.policy.BackoffMax || d < 0 {
		d = p.policy.BackoffMax
	}
	p.mu.Lock()
	if d > 0 {
		d = d/2 + time.Duration(p.jitter.Int64N(int64(d/2)+1))
	}
	p.mu.Unlock()
	return max(d, retryAfter)
}

// attempt makes one call once the policy allows it.
func (p *Provider) attempt(ctx context.Context, req *Request) (*Response, error) {
	select {
	case p.slots <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	defer func() { <-p.slots }()
	if err := p.waitTurn(ctx); err != nil {
		return nil, err
	}
	cctx, cancel := context.WithTimeout(ctx, p.policy.Timeout)
	resp, err := p.client.Call(cctx, req)
	cancel()

	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.clock.Now()
	p.lastFinish = now
	var ce *CallError
	isCallError := errors.As(err, &ce)
	if err == nil || isCallError && ce.Status != 0 {
		p.answered = true
	}
	if err == nil {
		p.failures = 0
		p.onEvent(Event{Kind: EventAnswer, At: now, Tokens: resp.Usage.PromptTokens + resp.Usage.CompletionTokens})
		return resp, nil
	}
	if isCallError && ce.Unreachable && !p.answered {
		// Nothing has ever answered there: a wrong address or a server
		// not started. Retrying for half an hour would not help.
		err = &CallError{Kind: Fatal, Unreachable: true, Msg: fmt.Sprintf("%s (nothing answers at %s: start the model server, or point --base-url or OPENAI_BASE_URL at it)", ce.Msg, p.client.Config.BaseURL)}
		ce = err.(*CallError)
	}
	p.onEvent(Event{Kind: EventAnswer, At: now, Err: err})
	if isCallError && ce.Kind == Transient && ctx.Err() == nil {
		p.failures++
		pause := time.Duration(0)
		if p.policy.PauseAfter > 0 && p.failures >= p.policy.PauseAfter {
			p.failures = 0
			pause = p.policy.Pause
		}
		// A Retry-After speaks for the whole endpoint, not this call.
		pause = max(pause, ce.RetryAfter)
		if pause > 0 && now.Add(pause).After(p.pausedUntil) {
			p.pausedUntil = now.Add(pause)
			p.onEvent(Event{Kind: EventPause, At: now, Delay: pause, Err: err})
		}
	}
	return nil, err
}

// waitTurn waits out a pause, the minimum interval and the rate limit,
// then records the call's start.
func (p *Provider) waitTurn(ctx context.Context) error {
	for {
		p.mu.Lock()
		now := p.clock.Now()
		ready := p.pausedUntil
		if !p.lastFinish.IsZero() {
			ready = later(ready, p.lastFinish.Add(p.policy.MinInterval))
		}
		if !p.lastStart.IsZero() {
			ready = later(ready, p.lastStart.Add(p.policy.MinInterval))
		}
		if wait := ready.Sub(now); wait > 0 {
			p.mu.Unlock()
			if err := p.clock.Sleep(ctx, wait); err != nil {
				return err
			}
			continue
		}
		if p.limiter != nil {
			if r := p.limiter.ReserveN(now, 1); r.DelayFrom(now) > 0 {
				// Not this caller's turn yet: give the token back and wait.
				wait := r.DelayFrom(now)
				r.CancelAt(now)
				p.mu.Unlock()
				if err := p.clock.Sleep(ctx, wait); err != nil {
					return err
				}
				continue
			}
		}
		p.lastStart = now
		p.onEvent(Event{Kind: EventCall, At: now})
		p.mu.Unlock()
		return nil
	}
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
