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
// session's clock. A timer whose firing must be dropped once it is replaced
// or its session ended is armed with the package's After instead, and
// awaited by a Slot; this one serves the tickers that need neither (a
// countdown redrawn every second).
func (s *Session) After(d time.Duration, fire func(time.Time) tea.Msg) tea.Cmd {
	return s.clock().After(d, fire)
}

// After is Fetch for a timer (a poll, a periodic refresh, the pause that
// ends a debounce): once d has passed on the session's clock, the command
// delivers Result[T]{Value: v} as the answer to a request that sl awaits
// from now on. Arming the slot again (another After, a Fetch) replaces the
// timer, whose firing is then dropped as any older answer is, and so is the
// firing of a timer of an ended session: the screen takes the firing with
// sl.Take and re-arms it from there. A timer is not a request under way:
// the footer does not count it.
func After[T any](s *Session, sl *Slot, d time.Duration, v T) tea.Cmd {
	req := s.newReq()
	sl.Await(req)
	return s.After(d, func(time.Time) tea.Msg { return Result[T]{Req: req, Value: v} })
}
