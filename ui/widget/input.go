package widget

import "charm.land/bubbles/v2/textinput"

// NewInput is the dashboard's one-line text input: a steady cursor, so an
// open form costs no blink ticks and every command it returns answers at
// once (which is also what lets the tests drive screens synchronously).
func NewInput() textinput.Model {
	in := textinput.New()
	st := in.Styles()
	st.Cursor.Blink = false
	in.SetStyles(st)
	return in
}
