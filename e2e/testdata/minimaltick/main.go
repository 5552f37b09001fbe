// Command minimaltick is minimaltea with a counter redrawn once a second:
// the least a screen with a running countdown does. What it costs more
// idle than the minimal program is what one redraw a second costs any
// Bubble Tea program (a timer, an update, a frame), the floor under the
// Quote screen's countdown.
package main

import (
	"fmt"
	"os"
	"time"

	tea "charm.land/bubbletea/v2"
)

type tickMsg struct{}

type model struct{ seconds int }

func tick() tea.Cmd {
	return tea.Tick(time.Second, func(time.Time) tea.Msg { return tickMsg{} })
}

func (model) Init() tea.Cmd { return tick() }

func (m model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		if msg.String() == "q" {
			return m, tea.Quit
		}
	case tickMsg:
		m.seconds++
		return m, tick()
	}
	return m, nil
}

func (m model) View() tea.View {
	v := tea.NewView(fmt.Sprintf("SANDBOX  minimal program\n\n%d s\nq quits", m.seconds))
	v.AltScreen = true
	return v
}

func main() {
	if _, err := tea.NewProgram(model{}).Run(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
