package ui

import (
	"time"

	tea "charm.land/bubbletea/v2"
)

// toastDuration is how long a toast stays in the footer; errors stay longer
// because they usually say what to do.
const (
	toastDuration      = 4 * time.Second
	errorToastDuration = 8 * time.Second
)

// toast is the message shown in the footer.
type toast struct {
	id    int
	text  string
	level ToastLevel
	// screen is the screen shown when the toast came: it belongs there and
	// is not carried to another screen.
	screen string
}

// toastExpiredMsg removes the toast with that id (a newer toast is kept).
type toastExpiredMsg struct{ id int }

func (r *Root) expireToast(id int, level ToastLevel) tea.Cmd {
	d := toastDuration
	if level == ToastError {
		d = errorToastDuration
	}
	return r.clock().After(d, func(time.Time) tea.Msg { return toastExpiredMsg{id: id} })
}

// toastView renders a toast with a symbol, so that its kind does not depend
// on colour.
func (t *Theme) toastView(ts *toast) string {
	switch ts.level {
	case ToastSuccess:
		return t.ToastOK.Render("✓ " + ts.text)
	case ToastError:
		return t.ToastErr.Render("✗ " + ts.text)
	}
	return t.ToastInfo.Render("• " + ts.text)
}
