package ui

import (
	"time"

	tea "charm.land/bubbletea/v2"
)

// Clock is the time a session lives in: what time it is, and timers. Every
// timer of the dashboard (countdowns, polls, refreshes, toasts) goes through
// it, so that a test with a fake clock decides when each one fires and runs
// without waiting.
type Clock interface {
	Now() time.Time
	// After returns a command whose message is fire(t) once d has passed.
	After(d time.Duration, fire func(time.Time) tea.Msg) tea.Cmd
}

// SystemClock is the wall clock, with Bubble Tea's timers.
type SystemClock struct{}

// Now is time.Now.
func (SystemClock) Now() time.Time { return time.Now() }

// After is tea.Tick.
func (SystemClock) After(d time.Duration, fire func(time.Time) tea.Msg) tea.Cmd {
	return tea.Tick(d, fire)
}

// clock is the session's clock, the system's when none was set.
func (s *Session) clock() Clock {
	if s == nil || s.Time == nil {
		return SystemClock{}
	}
	return s.Time
}

// Now returns the session's current time.
func (s *Session) Now() time.Time { return s.clock().Now() }

// After returns a command that delivers fire(t) once d has passed on the
// session's clock.
func (s *Session) After(d time.Duration, fire func(time.Time) tea.Msg) tea.Cmd {
	return s.clock().After(d, fire)
}
