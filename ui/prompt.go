package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/tesouro-treasury/tesouro/ui/widget"
)

// promptState is an open one-line prompt (a rejection reason, a name).
type promptState struct {
	msg   PromptMsg
	input textinput.Model
	err   error
}

func newPrompt(msg PromptMsg, t *Theme, width int) *promptState {
	in := widget.NewInput()
	in.Prompt = "> "
	in.Placeholder = msg.Placeholder
	in.CharLimit = 500
	in.SetWidth(max(width-len(msg.Title)-6, 1))
	return &promptState{msg: msg, input: in}
}

// promptKey: enter submits once the text validates, esc cancels; every
// other key edits the text.
func (r *Root) promptKey(msg tea.KeyPressMsg) tea.Cmd {
	p := r.prompt
	switch msg.String() {
	case "esc", "ctrl+c":
		r.prompt = nil
		r.relayout()
		return Toast(ToastInfo, "Cancelled: "+p.msg.Title)
	case "enter":
		v := strings.TrimSpace(p.input.Value())
		if p.msg.Validate != nil {
			if err := p.msg.Validate(v); err != nil {
				p.err = err
				return nil
			}
		}
		r.prompt = nil
		r.relayout()
		if p.msg.OnSubmit == nil {
			return nil
		}
		return r.withPulse(p.msg.OnSubmit(v))
	}
	var cmd tea.Cmd
	p.input, cmd = p.input.Update(msg)
	p.err = nil
	return cmd
}

// promptLine is the prompt on the input line.
func (r *Root) promptLine() string {
	p := r.prompt
	t := r.theme
	return t.BoxTitle.Render(p.msg.Title+":") + " " + p.input.View()
}

// promptStatus is the footer under a prompt: what is wrong with the text,
// or how the prompt works.
func (r *Root) promptStatus() string {
	t := r.theme
	if r.prompt.err != nil {
		return t.Error.Render("✗ " + ErrorText(r.prompt.err))
	}
	return t.HintKey.Render("enter") + t.HintDesc.Render(" submit  ") + t.HintKey.Render("esc") + t.HintDesc.Render(" cancel")
}

// confirmView is the confirmation box over the content. The body repeats
// what is being confirmed; the default is no.
func (r *Root) confirmView(w, h int) string {
	c := r.confirm
	t := r.theme
	inner := max(min(w-4, 72), 10)
	body := lipgloss.NewStyle().Width(inner).Render(c.Body)
	hint := t.HintKey.Render("y") + t.HintDesc.Render(" confirm · any other key cancels (default: no)")
	box := t.Box.Width(min(inner+4, w)).Render(t.BoxTitle.Render(c.Title) + "\n\n" + body + "\n\n" + hint)
	if lipgloss.Height(box) > h {
		// A small window: drop the frame and spacing, keep the hint last
		// so that it is never the part cut off.
		body = lipgloss.NewStyle().Width(max(w-1, 1)).Render(c.Body)
		lines := strings.Split(body, "\n")
		if room := h - 2; len(lines) > room {
			// What y would confirm is not all on screen: say so, in the
			// place of the last line that fits, rather than cut silently.
			hidden := len(lines) - max(room-1, 0)
			more := t.Warn.Render(ansi.Truncate(fmt.Sprintf("… %d more lines: enlarge the window to read them", hidden), max(w-1, 1), "…"))
			lines = append(lines[:max(room-1, 0)], more)
			if room <= 0 {
				lines = nil
			}
		}
		return strings.Join(append(append([]string{t.BoxTitle.Render(c.Title)}, lines...), hint), "\n")
	}
	return lipgloss.Place(w, h, lipgloss.Center, lipgloss.Center, box)
}
