package llmtest

import (
	"context"
	"sync"
	"time"
)

// Clock is a fake llm.Clock that never waits: Sleep moves the time on by
// the duration asked for and returns. Sleepers in several goroutines each
// move it on, so every one wakes no earlier than it asked to (the time can
// only run ahead of a sleeper, never behind), which is all that pacing
// promises: tests check that no limit was broken on this clock.
type Clock struct {
	mu  sync.Mutex
	now time.Time
}

// NewClock returns a clock at a fixed start.
func NewClock() *Clock { return &Clock{now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)} }

// Now is the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Sleep moves the clock on by d, unless ctx is done.
func (c *Clock) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if d > 0 {
		c.now = c.now.Add(d)
	}
	return nil
}
