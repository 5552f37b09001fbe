package ui

import (
	"charm.land/bubbles/v2/key"
)

// GlobalKeys are the bindings the root handles in normal mode. Help and the
// footer are built from them together with the active screen's KeyMap.
type GlobalKeys struct {
	Quit      key.Binding
	Help      key.Binding
	Command   key.Binding
	Filter    key.Binding
	Back      key.Binding
	Next      key.Binding
	Prev      key.Binding
	Switch    key.Binding
	Screens   key.Binding // help entry for the number keys
	Interrupt key.Binding
}

// DefaultGlobalKeys returns the global bindings.
func DefaultGlobalKeys() GlobalKeys {
	return GlobalKeys{
		Quit:      key.NewBinding(key.WithKeys("q"), key.WithHelp("q", "quit")),
		Help:      key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		Command:   key.NewBinding(key.WithKeys(":"), key.WithHelp(":", "command")),
		Filter:    key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter")),
		Back:      key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),
		Next:      key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next screen")),
		Prev:      key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "previous screen")),
		Switch:    key.NewBinding(key.WithKeys("S"), key.WithHelp("S", "switch account")),
		Screens:   key.NewBinding(key.WithKeys("1", "2", "3", "4", "5", "6", "7", "8", "9", "0"), key.WithHelp("1-0", "go to screen")),
		Interrupt: key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "quit now")),
	}
}

// screenKeyIndex maps a number key to a screen index (1..9 then 0).
func screenKeyIndex(k string) (int, bool) {
	if len(k) != 1 || k[0] < '0' || k[0] > '9' {
		return 0, false
	}
	if k[0] == '0' {
		return 9, true
	}
	return int(k[0] - '1'), true
}

// bindsKey reports whether an enabled binding of bs answers to k.
func bindsKey(bs []key.Binding, k string) bool {
	for _, b := range bs {
		if !b.Enabled() {
			continue
		}
		for _, bk := range b.Keys() {
			if bk == k {
				return true
			}
		}
	}
	return false
}
