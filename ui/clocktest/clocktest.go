// Package clocktest is a fake ui.Clock for tests: time moves only when the
// test says, and a timer is a message that a test driver keeps until its
// time comes (see ui/screentest), so nothing in a test waits on the wall
// clock.
package clocktest

import (
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
)

// Epoch is where a fake clock starts unless a test says otherwise.
var Epoch = time.Date(2026, 3, 10, 14, 0, 0, 0, time.UTC)

// Clock is a fake ui.Clock.
type Clock struct {
	mu  sync.Mutex
	now time.Time
}

// New is a fake clock showing t.
func New(t time.Time) *Clock { return &Clock{now: t} }

// Now is the fake time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Set moves the clock to t without firing timers (a driver fires them).
func (c *Clock) Set(t time.Time) {
	c.mu.Lock()
	c.now = t
	c.mu.Unlock()
}

// After returns a command whose message is a Timer due d from now.
func (c *Clock) After(d time.Duration, fire func(time.Time) tea.Msg) tea.Cmd {
	at := c.Now().Add(d)
	return func() tea.Msg { return Timer{At: at, fire: fire} }
}

// Timer is a timer of a fake clock, waiting for its time.
type Timer struct {
	At   time.Time
	fire func(time.Time) tea.Msg
}

// Fire is the timer's message, as it would come at its time.
func (t Timer) Fire() tea.Msg { return t.fire(t.At) }

// Queue holds the timers a driver parked, and fires them in time order.
type Queue struct{ timers []Timer }

// Park keeps t until its time.
func (q *Queue) Park(t Timer) { q.timers = append(q.timers, t) }

// Len is how many timers wait.
func (q *Queue) Len() int { return len(q.timers) }

// Advance moves c by d, handing each timer that falls due on the way to
// handle in time order (timers parked by handle fire too once due).
func (q *Queue) Advance(c *Clock, d time.Duration, handle func(tea.Msg)) {
	end := c.Now().Add(d)
	for {
		best := -1
		for i, t := range q.timers {
			if !t.At.After(end) && (best < 0 || t.At.Before(q.timers[best].At)) {
				best = i
			}
		}
		if best < 0 {
			break
		}
		t := q.timers[best]
		q.timers = append(q.timers[:best], q.timers[best+1:]...)
		if t.At.After(c.Now()) {
			c.Set(t.At)
		}
		handle(t.Fire())
	}
	c.Set(end)
}
