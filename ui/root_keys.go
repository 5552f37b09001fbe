package ui

import (
	"github.com/tesouro-treasury/tesouro/ui/widget"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// handleKey routes a key by mode: an open overlay or input takes every key,
// a capturing screen takes every key but ctrl+c, and only normal mode runs
// global actions.
func (r *Root) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	k := msg.String()
	switch r.Mode() {
	case ModePrompt:
		switch {
		case r.confirm != nil:
			return r.confirmKey(k)
		case r.prompt != nil:
			return r.promptKey(msg)
		case r.switcher != nil:
			return r.switcherKey(msg)
		}
	case ModeCommand:
		return r.commandKey(msg)
	case ModeFilter:
		return r.filterKey(msg)
	}
	if k == "ctrl+c" {
		return r.quit()
	}
	switch r.Mode() {
	case ModeForm:
		return r.toActive(msg)
	case ModeHelp:
		switch {
		case key.Matches(msg, r.keys.Help), key.Matches(msg, r.keys.Back), key.Matches(msg, r.keys.Quit):
			// q leaves help as esc does: help is read, not a place to quit
			// from by a key meant to close it.
			r.help = false
		default:
			switch msg.String() {
			case "down", "j":
				r.scrollHelp(1)
			case "up", "k":
				r.scrollHelp(-1)
			case "pgdown", "space":
				r.scrollHelp(max(r.layout.Content-2, 1))
			case "pgup":
				r.scrollHelp(-max(r.layout.Content-2, 1))
			}
		}
		return nil
	}
	return r.normalKey(msg)
}

// normalKey handles a key in normal mode. q, ?, : and ctrl+c are always
// global; any other key the active screen binds right now is the screen's
// (its esc closes its own detail pane, say); what is left is global.
func (r *Root) normalKey(msg tea.KeyPressMsg) tea.Cmd {
	k := msg.String()
	switch {
	case key.Matches(msg, r.keys.Quit):
		return r.quit()
	case key.Matches(msg, r.keys.Help):
		r.help, r.helpOffset = true, 0
		return nil
	case key.Matches(msg, r.keys.Command):
		r.openCommand()
		return r.cmd.input.Focus()
	}
	var retry tea.Cmd
	if k == "r" && r.session != nil && r.session.Access == nil && r.accessFails > 0 {
		// The access info failed to load: r retries it along with what
		// the screen refreshes.
		retry = r.loadAccess(r.session)
	}
	s := r.Active()
	if s != nil && bindsKey(s.KeyMap(), k) {
		return tea.Batch(retry, r.toActive(msg))
	}
	if retry != nil {
		return retry
	}
	switch {
	case key.Matches(msg, r.keys.Filter):
		if !r.filterable() {
			return Toast(ToastInfo, "This screen has no list to filter")
		}
		return r.openFilter()
	case key.Matches(msg, r.keys.Back):
		if r.filters[r.activeID()] != "" {
			return r.setFilter("")
		}
		return r.back()
	case key.Matches(msg, r.keys.Next):
		if n := len(r.screens); n > 0 {
			return r.show((r.active + 1) % n)
		}
		return nil
	case key.Matches(msg, r.keys.Prev):
		if n := len(r.screens); n > 0 {
			return r.show((r.active + n - 1) % n)
		}
		return nil
	case key.Matches(msg, r.keys.Switch):
		return r.openSwitcher()
	}
	if i, ok := screenKeyIndex(k); ok {
		if i < len(r.screens) {
			return r.show(i)
		}
		return nil
	}
	return r.toActive(msg)
}

// handlePaste gives pasted text to whatever input has focus.
func (r *Root) handlePaste(msg tea.PasteMsg) tea.Cmd {
	switch {
	case r.prompt != nil:
		var cmd tea.Cmd
		r.prompt.input, cmd = r.prompt.input.Update(msg)
		return cmd
	case r.cmd != nil:
		var cmd tea.Cmd
		r.cmd.input, cmd = r.cmd.input.Update(msg)
		return cmd
	case r.filter != nil:
		var cmd tea.Cmd
		*r.filter, cmd = r.filter.Update(msg)
		return tea.Batch(cmd, r.toActive(FilterMsg{Query: r.filter.Value()}))
	case r.switcher != nil:
		return r.switcher.update(msg)
	case r.confirm != nil:
		return nil
	}
	return r.toActive(msg)
}

func (r *Root) activeID() string {
	if s := r.Active(); s != nil {
		return s.ID()
	}
	return ""
}

func (r *Root) filterable() bool {
	f, ok := r.Active().(Filterable)
	return ok && f.Filterable()
}

// openFilter starts typing the / filter, starting from the current one.
func (r *Root) openFilter() tea.Cmd {
	in := widget.NewInput()
	in.Prompt = "/"
	in.Placeholder = "filter"
	in.SetValue(r.filters[r.activeID()])
	in.CursorEnd()
	r.filter = &in
	r.relayout()
	return in.Focus()
}

// filterKey: every keystroke refilters; enter keeps the filter, esc clears it.
func (r *Root) filterKey(msg tea.KeyPressMsg) tea.Cmd {
	switch msg.String() {
	case "enter":
		r.filter = nil
		r.relayout()
		return nil
	case "esc", "ctrl+c":
		r.filter = nil
		r.relayout()
		return r.setFilter("")
	}
	var cmd tea.Cmd
	*r.filter, cmd = r.filter.Update(msg)
	return tea.Batch(cmd, r.setFilter(r.filter.Value()))
}

func (r *Root) setFilter(q string) tea.Cmd {
	if strings.TrimSpace(q) == "" {
		q = ""
	}
	r.filters[r.activeID()] = q
	return r.toActive(FilterMsg{Query: q})
}
