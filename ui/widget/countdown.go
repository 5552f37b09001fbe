package widget

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
)

// Countdown shows the time left until a deadline (a quote's 15 s, a ticket's
// 5 min or 24 h). It holds no running state: what it shows is always
// recomputed as Deadline minus now, so it cannot drift the way a timer that
// subtracts a fixed step per tick does.
type Countdown struct {
	// ID routes ticks: several countdowns can run at once, each re-arming
	// only on its own TickMsg.
	ID       string
	Deadline time.Time
	// Total is the full lifetime, used to scale the bar; zero shows no bar.
	Total time.Duration
}

// Remaining is the time left at now; never negative.
func (c Countdown) Remaining(now time.Time) time.Duration {
	d := c.Deadline.Sub(now)
	if d < 0 {
		return 0
	}
	return d
}

// Expired reports whether the deadline has been reached at now.
func (c Countdown) Expired(now time.Time) bool {
	return !now.Before(c.Deadline)
}

// View renders the time left and, when there is room, a bar of the share
// of Total left: "12s ▕████░░░░▏". width is the cells available; the result
// never exceeds it.
func (c Countdown) View(now time.Time, width int) string {
	if width <= 0 {
		return ""
	}
	text := FormatRemaining(c.Remaining(now))
	if c.Expired(now) {
		text = "expired"
	}
	if len(text) >= width {
		return text[:width]
	}
	// Bar cells between the two edge glyphs; below 4 cells it says nothing.
	cells := width - len(text) - 3
	if c.Total <= 0 || cells < 4 {
		return text
	}
	if cells > 30 {
		cells = 30
	}
	frac := float64(c.Remaining(now)) / float64(c.Total)
	if frac > 1 {
		frac = 1
	}
	full := int(frac*float64(cells) + 0.5)
	if full == 0 && !c.Expired(now) {
		full = 1 // time is left: never draw an empty bar
	}
	return text + " ▕" + strings.Repeat("█", full) + strings.Repeat("░", cells-full) + "▏"
}

// FormatRemaining shows a duration the way a countdown reads it, rounded up
// to the next whole second so that "0s" only ever means "over": "12s",
// "4m 05s", "23h 59m".
func FormatRemaining(d time.Duration) string {
	if d <= 0 {
		return "0s"
	}
	secs := int64((d + time.Second - 1) / time.Second)
	switch {
	case secs < 60:
		return fmt.Sprintf("%ds", secs)
	case secs < 3600:
		return fmt.Sprintf("%dm %02ds", secs/60, secs%60)
	default:
		// Hours and minutes; the minutes are rounded up too.
		mins := (secs + 59) / 60
		return fmt.Sprintf("%dh %02dm", mins/60, mins%60)
	}
}

// TickMsg is one tick of the countdown with the given ID.
type TickMsg struct {
	ID string
	At time.Time
}

// Next is how long after now the figure the countdown shows changes: the
// remaining time is shown rounded up to the whole second, so it changes
// exactly when the remainder crosses a whole second. A countdown thus wakes
// once per displayed second, never between.
func (c Countdown) Next(now time.Time) time.Duration {
	rem := c.Remaining(now)
	if rem <= 0 {
		return time.Second
	}
	if d := rem % time.Second; d > 0 {
		return d
	}
	return time.Second
}

// Tick schedules the next tick of c with after (the session's clock) for
// when the figure changes. Re-arm it only when a TickMsg of c's ID
// arrives, so that each countdown has exactly one ticker however many
// times it is redrawn.
func (c Countdown) Tick(now time.Time, after func(time.Duration, func(time.Time) tea.Msg) tea.Cmd) tea.Cmd {
	id := c.ID
	return after(c.Next(now), func(t time.Time) tea.Msg { return TickMsg{ID: id, At: t} })
}
