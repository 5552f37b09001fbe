package ui

import (
	"strings"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

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
