package widget

import (
	"time"

	tea "charm.land/bubbletea/v2"
)

// spinnerFrames are braille dots: one cell wide everywhere, readable without
// colour.
var spinnerFrames = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

// spinnerInterval is the time between frames.
const spinnerInterval = 100 * time.Millisecond

// Spinner shows that something is under way. It ticks only while a caller
// keeps re-arming it with the SpinnerTickMsg of its own ID, so two spinners
// never speed each other up and a stopped one costs nothing.
type Spinner struct {
	ID    string
	frame int
}

// SpinnerTickMsg advances the spinner with the same ID.
type SpinnerTickMsg struct{ ID string }

// Tick returns the command that produces the spinner's next tick.
func (s Spinner) Tick() tea.Cmd {
	id := s.ID
	return tea.Tick(spinnerInterval, func(time.Time) tea.Msg { return SpinnerTickMsg{ID: id} })
}

// Update advances the spinner on its own tick and returns the next tick;
// running tells whether the caller still wants it to spin.
func (s Spinner) Update(msg tea.Msg, running bool) (Spinner, tea.Cmd) {
	t, ok := msg.(SpinnerTickMsg)
	if !ok || t.ID != s.ID {
		return s, nil
	}
	s.frame = (s.frame + 1) % len(spinnerFrames)
	if !running {
		return s, nil
	}
	return s, s.Tick()
}

// View is the current frame.
func (s Spinner) View() string { return spinnerFrames[s.frame%len(spinnerFrames)] }

// SpinnerFrame is the frame for a moment in time, for views that redraw on
// their own clock instead of keeping a Spinner.
func SpinnerFrame(t time.Time) string {
	return spinnerFrames[int(t.UnixMilli()/int64(spinnerInterval/time.Millisecond))%len(spinnerFrames)]
}
