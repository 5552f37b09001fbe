package quote

import "charm.land/bubbles/v2/key"

// keyMap holds every binding of the screen; KeyMap returns those live in
// the current stage, disabled when the access may not use them.
type keyMap struct {
	Edit, GetQuote, Requote, Auto, Continue  key.Binding
	Choose, Back, Submit                     key.Binding
	Confirm, Cancel                          key.Binding
	Copy, Fund, NewQuote, Approvals, Tickets key.Binding
	Scroll, Unlock, Move, Done               key.Binding
}

func newKeyMap() keyMap {
	b := func(help string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(keys[0], help))
	}
	// Submit names ctrl+s: enter reviews only from the last field of the
	// details (elsewhere it moves on), ctrl+s from any field.
	return keyMap{
		Edit:      b("edit", "e"),
		GetQuote:  b("get a quote", "enter"),
		Requote:   b("re-quote", "r"),
		Auto:      b("auto re-quote", "a"),
		Continue:  key.NewBinding(key.WithKeys("enter", "c"), key.WithHelp("enter/c", "continue")),
		Choose:    key.NewBinding(key.WithKeys("left", "right"), key.WithHelp("←/→", "choose")),
		Back:      b("back", "esc"),
		Submit:    b("review and confirm", "ctrl+s"),
		Confirm:   b("create the ticket", "y"),
		Cancel:    b("any other key: back (default no)", "n"),
		Copy:      b("copy the BR Code", "y"),
		Fund:      b("simulate the payment (sandbox)", "f"),
		NewQuote:  b("new quote", "n"),
		Approvals: b("open in Approvals", "o"),
		Tickets:   b("open in Tickets", "t"),
		Scroll:    key.NewBinding(key.WithKeys("up", "down", "pgup", "pgdown", "space"), key.WithHelp("↑/↓/PgDn/space", "scroll")),
		Unlock:    b("edit the external id", "ctrl+e"),
		// Move and Done are what the hint lines show for the keys that
		// move the focus and leave the quote form.
		Move: key.NewBinding(key.WithKeys("tab", "down", "shift+tab", "up"), key.WithHelp("↑/↓", "move")),
		Done: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "done")),
	}
}
