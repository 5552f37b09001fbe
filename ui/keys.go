package ui

import (
	"slices"

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
	Screens   key.Binding // help entry for the number row (1-0, - and =)
	Interrupt key.Binding
}

// DefaultGlobalKeys returns the global bindings.
func DefaultGlobalKeys() GlobalKeys {
	return GlobalKeys{
		Quit:      Binding("q", "quit", "q"),
		Help:      Binding("?", "help", "?"),
		Command:   Binding(":", "command", ":"),
		Filter:    Binding("/", "filter", "/"),
		Back:      Binding("esc", "back", "esc"),
		Next:      Binding("tab", "next screen", "tab"),
		Prev:      Binding("shift+tab", "previous screen", "shift+tab"),
		Switch:    Binding("S", "switch account", "S"),
		Screens:   Binding("1-0 - =", "go to screen", screenKeys...),
		Interrupt: Binding("ctrl+c", "quit now", "ctrl+c"),
	}
}

// screenKeys are the keys that show a screen, in tab order: the number
// row, 1 to 9, then 0, - and =.
var screenKeys = []string{"1", "2", "3", "4", "5", "6", "7", "8", "9", "0", "-", "="}

// screenKeyIndex maps a screen key to a screen index.
func screenKeyIndex(k string) (int, bool) {
	i := slices.Index(screenKeys, k)
	return i, i >= 0
}

// screenKey is the key of screen i, or "" past the last key.
func screenKey(i int) string {
	if i < 0 || i >= len(screenKeys) {
		return ""
	}
	return screenKeys[i]
}

// bindsKey reports whether an enabled binding of bs answers to k.
func bindsKey(bs []key.Binding, k string) bool {
	return slices.ContainsFunc(bs, func(b key.Binding) bool {
		return b.Enabled() && slices.Contains(b.Keys(), k)
	})
}
