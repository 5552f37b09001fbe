package ui

import (
	"strings"

	tea "charm.land/bubbletea/v2"
)

// NotifyMsg tells the user of news that concerns them wherever they are
// (an operation now waits for their approval): the root shows it as a toast
// on the screen shown, rings the terminal bell and raises a desktop
// notification, each as the Notify options allow.
type NotifyMsg struct {
	Title string
	Text  string
}

// Notify returns a command that tells the user of news on any screen.
func (s *Session) Notify(title, text string) tea.Cmd {
	return func() tea.Msg { return NotifyMsg{Title: title, Text: text} }
}

// NotifyOptions say how news reaches the user (config.toml's
// [notifications] table). The zero value delivers it every way.
type NotifyOptions struct {
	NoToast, NoBell, NoDesktop bool
	// Protocol is how the terminal takes a desktop notification: "osc9",
	// "osc777", or "" when it is not known to take one.
	Protocol string
}

// DesktopProtocol guesses from the environment which escape sequence the
// terminal turns into a desktop notification: OSC 9 (iTerm2, WezTerm,
// ghostty, kitty, Windows Terminal, ConEmu), OSC 777 (rxvt-unicode, foot,
// VTE terminals), or "" when it is not known to take either. Inside tmux
// neither reaches the outer terminal, so none is sent.
func DesktopProtocol(getenv func(string) string) string {
	if getenv("TMUX") != "" || strings.HasPrefix(getenv("TERM"), "screen") {
		return ""
	}
	switch getenv("TERM_PROGRAM") {
	case "iTerm.app", "WezTerm", "ghostty":
		return "osc9"
	}
	switch {
	case getenv("KITTY_WINDOW_ID") != "", getenv("WT_SESSION") != "", getenv("ConEmuPID") != "":
		return "osc9"
	case strings.HasPrefix(getenv("TERM"), "rxvt"), strings.HasPrefix(getenv("TERM"), "foot"), getenv("VTE_VERSION") != "":
		return "osc777"
	}
	return ""
}

// notifySequence is the escape sequence of a desktop notification, "" when
// the protocol is unknown. Control characters in the text would end the
// sequence early, and ";" separates OSC 777's fields: both are replaced.
func notifySequence(protocol, title, text string) string {
	clean := func(s string) string {
		return strings.Map(func(r rune) rune {
			if r < 0x20 || r == 0x7f || r == ';' && protocol == "osc777" {
				return ' '
			}
			return r
		}, s)
	}
	switch protocol {
	case "osc9":
		return "\x1b]9;" + clean(title+": "+text) + "\x07"
	case "osc777":
		return "\x1b]777;notify;" + clean(title) + ";" + clean(text) + "\x07"
	}
	return ""
}

// notify delivers news as the options allow.
func (r *Root) notify(msg NotifyMsg) tea.Cmd {
	n := r.opts.Notify
	var cmds []tea.Cmd
	if !n.NoToast {
		cmds = append(cmds, r.update(ToastMsg{Text: msg.Text, Level: ToastInfo}))
	}
	raw := ""
	if !n.NoBell {
		raw += "\a"
	}
	if !n.NoDesktop {
		raw += notifySequence(n.Protocol, msg.Title, msg.Text)
	}
	if raw != "" {
		cmds = append(cmds, tea.Raw(raw))
	}
	return tea.Batch(cmds...)
}
