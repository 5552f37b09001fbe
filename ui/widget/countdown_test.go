package widget

import (
	tea "charm.land/bubbletea/v2"
	"strings"
	"testing"
	"time"

	"charm.land/lipgloss/v2"
)

func TestCountdownIsComputedFromTheDeadline(t *testing.T) {
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	c := Countdown{ID: "q", Deadline: start.Add(15 * time.Second), Total: 15 * time.Second}

	cases := []struct {
		at   time.Duration
		want string
	}{
		{0, "15s"},
		{300 * time.Millisecond, "15s"}, // 14.7 s left still reads 15: rounded up
		{time.Second, "14s"},
		{14*time.Second + 900*time.Millisecond, "1s"},
		{15 * time.Second, "expired"},
		{time.Hour, "expired"},
	}
	for _, tc := range cases {
		got := c.View(start.Add(tc.at), 40)
		if !strings.HasPrefix(got, tc.want) {
			t.Errorf("at +%v: view %q, want it to start with %q", tc.at, got, tc.want)
		}
	}
	if c.Expired(start.Add(14999 * time.Millisecond)) {
		t.Error("expired 1 ms before the deadline")
	}
	if !c.Expired(start.Add(15 * time.Second)) {
		t.Error("not expired at the deadline")
	}
	if r := c.Remaining(start.Add(time.Minute)); r != 0 {
		t.Errorf("remaining after the deadline = %v, want 0", r)
	}
}

func TestCountdownBarShrinks(t *testing.T) {
	start := time.Unix(1_700_000_000, 0)
	c := Countdown{ID: "q", Deadline: start.Add(10 * time.Second), Total: 10 * time.Second}
	full := strings.Count(c.View(start, 30), "█")
	half := strings.Count(c.View(start.Add(5*time.Second), 30), "█")
	none := strings.Count(c.View(start.Add(10*time.Second), 30), "█")
	if !(full > half && half > none) || none != 0 {
		t.Fatalf("bar cells full=%d half=%d expired=%d: want strictly shrinking to 0", full, half, none)
	}
	if last := strings.Count(c.View(start.Add(9990*time.Millisecond), 30), "█"); last == 0 {
		t.Error("bar empty while time is left")
	}
}

func TestCountdownFitsItsWidth(t *testing.T) {
	start := time.Unix(1_700_000_000, 0)
	c := Countdown{ID: "t", Deadline: start.Add(24 * time.Hour), Total: 24 * time.Hour}
	for w := 0; w <= 60; w++ {
		if got := lipgloss.Width(c.View(start, w)); got > w {
			t.Fatalf("width %d: rendered %d cells", w, got)
		}
	}
}

func TestFormatRemaining(t *testing.T) {
	cases := map[time.Duration]string{
		0:                                 "0s",
		-time.Second:                      "0s",
		time.Millisecond:                  "1s",
		59 * time.Second:                  "59s",
		60 * time.Second:                  "1m 00s",
		5 * time.Minute:                   "5m 00s",
		4*time.Minute + 5*time.Second:     "4m 05s",
		24 * time.Hour:                    "24h 00m",
		23*time.Hour + 59*time.Minute + 1: "24h 00m",
		2*time.Hour + 30*time.Second:      "2h 01m",
	}
	for d, want := range cases {
		if got := FormatRemaining(d); got != want {
			t.Errorf("FormatRemaining(%v) = %q, want %q", d, got, want)
		}
	}
}

// The countdown shows whole seconds, so it wakes exactly when the figure
// changes: once per displayed second, not several times.
func TestCountdownWakesWhenTheFigureChanges(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	c := Countdown{ID: "quote-1", Deadline: start.Add(15 * time.Second), Total: 15 * time.Second}
	now := start.Add(2700 * time.Millisecond) // 12.3 s left: shows "13s"
	if got := c.Next(now); got != 300*time.Millisecond {
		t.Fatalf("Next at 12.3s left = %v, want 300ms (then it shows 12s)", got)
	}
	before := FormatRemaining(c.Remaining(now))
	after := FormatRemaining(c.Remaining(now.Add(c.Next(now))))
	if before != "13s" || after != "12s" {
		t.Fatalf("the figure went %q → %q at the wake-up, want 13s → 12s", before, after)
	}
	wakes := 0
	for n := start; !c.Expired(n); n = n.Add(c.Next(n)) {
		wakes++
	}
	if wakes != 15 {
		t.Fatalf("a 15 s countdown woke %d times, want 15", wakes)
	}
	var fired tea.Msg
	cmd := c.Tick(now, func(d time.Duration, fire func(time.Time) tea.Msg) tea.Cmd {
		return func() tea.Msg { fired = fire(now.Add(d)); return fired }
	})
	if tm, ok := cmd().(TickMsg); !ok || tm.ID != "quote-1" {
		t.Fatalf("Tick gave %#v, want a TickMsg for quote-1", fired)
	}
}
