// Command minimalstack is minimaltea drawn with the dashboard's own stack:
// its header styled by Lip Gloss and a Bubbles text input below it. It
// does nothing the minimal program does not, so what it costs more at
// start-up is what importing those libraries costs any program (their
// package initialisation: Lip Gloss detects the terminal's colours when
// it loads, and asks tmux when it runs inside one; the text input's
// clipboard looks for the system's copy programs), the floor under the
// dashboard's first frame that its own code cannot lower.
package main

import (
	"fmt"
	"os"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
)

type model struct{ input textinput.Model }

func (model) Init() tea.Cmd { return nil }

func (m model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok && k.String() == "q" {
		return m, tea.Quit
	}
	return m, nil
}

var header = lipgloss.NewStyle().Bold(true)

func (m model) View() tea.View {
	v := tea.NewView(header.Render("SANDBOX  minimal program") + "\n\n" + m.input.View() + "\nq quits")
	v.AltScreen = true
	return v
}

func main() {
	if _, err := tea.NewProgram(model{input: textinput.New()}).Run(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
