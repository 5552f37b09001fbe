package ui

import (
	"fmt"
	"time"

	"charm.land/lipgloss/v2"
)

// Fresh is how fresh one panel's values are: when they were last read
// from the service, and why the last read failed (nil when it did not).
// A failed read keeps the values before it: a panel shows them dimmed,
// with their age, instead of an error in their place.
type Fresh struct {
	At  time.Time
	Err error
}

// Took records an answer read at now; it reports whether the answer's
// values replace the panel's (they do unless the read failed).
func (f *Fresh) Took(now time.Time, err error) bool {
	f.Err = err
	if err == nil {
		f.At = now
	}
	return err == nil
}

// Known reports whether the panel has values, fresh or not.
func (f Fresh) Known() bool { return !f.At.IsZero() }

// Stale reports whether the panel shows values that the last read could
// not refresh.
func (f Fresh) Stale() bool { return f.Err != nil && f.Known() }

// Note is what a panel's title says of its values: "as of 14:02:11", and
// how old they are when the last read failed.
func (f Fresh) Note(t *Theme, now time.Time) string {
	if !f.Known() {
		return ""
	}
	return f.NoteStyle(t).Render(" · " + f.Text(now))
}

// Text is the note's words: "as of 14:02:11", then "2m ago, not
// refreshed" while stale; "" before any value.
func (f Fresh) Text(now time.Time) string {
	if !f.Known() {
		return ""
	}
	at := f.At.In(now.Location()).Format("15:04:05")
	if f.Stale() {
		return fmt.Sprintf("as of %s, %s ago, not refreshed", at, Ago(now.Sub(f.At)))
	}
	return "as of " + at
}

// NoteStyle is the note's style: amber while stale.
func (f Fresh) NoteStyle(t *Theme) lipgloss.Style {
	if f.Stale() {
		return t.Warn
	}
	return t.Muted
}

// Style is the style of the panel's values: dimmed while stale.
func (f Fresh) Style(t *Theme, st lipgloss.Style) lipgloss.Style {
	if f.Stale() {
		return t.Disabled
	}
	return st
}

// Ago says a duration briefly: "40s", "3m", "2h", "3d".
func Ago(d time.Duration) string {
	d = max(d, 0)
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh", int(d.Hours()))
	}
	return fmt.Sprintf("%dd", int(d.Hours()/24))
}
