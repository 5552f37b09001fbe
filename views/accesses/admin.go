package accesses

import (
	"context"
	"errors"
	"maps"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/views/internal/form"
)

// Every administration write goes the same way: the screen builds it whole
// (by value) from the selection or the form, the confirmation says what
// changes, the yes asks for the acting access's current TOTP code, and the
// code sends it. The journal records it whatever the answer, never with the
// code.

// errNotManager is why an access without manageAccesses is offered no
// administration.
var errNotManager = errors.New("this access lacks the manageAccesses permission")

// errNoTOTP is why a manager without a second factor is offered no write:
// each one needs the current code of the acting access's TOTP.
var errNoTOTP = errors.New("no TOTP second factor on this access: activate one to change accesses and API keys")

// canManage says why the session may not administer accesses and API keys
// now (nil when it may): the dashboard's own rules for any write (read-only,
// frozen, view only), then manageAccesses.
func (m *Screen) canManage() error {
	if err := m.s.Can(ui.ActWrite); err != nil {
		return err
	}
	if !m.s.Access.AccountPermissions.ManageAccesses {
		return errNotManager
	}
	if !m.s.Access.MFAActivated {
		return errNoTOTP
	}
	return nil
}

// manager reports whether the access holds manageAccesses, whatever else
// stops it writing now: the administration is shown to managers only.
func (m *Screen) manager() bool {
	return m.s.Access != nil && m.s.Access.AccountPermissions.ManageAccesses
}

// write is one administration change.
type write struct {
	title, body      string
	action, endpoint string
	ids              map[string]string
	outcome          string // journaled when it worked ("invited")
	done             string // told when it worked
	list             int    // the tab whose list loads again after it
	selectID         string // the row selected once it has
	// form is the form it was built from (nil for none): it stays open
	// with the service's complaint when the write fails.
	form *form.Form
	// call makes the request with the code.
	call func(ctx context.Context, otp string) (outcome, error)
}

// outcome is what a write's call learnt: what to tell instead of done
// ("" keeps it), and ids to journal beside the write's own.
type outcome struct {
	said string
	ids  map[string]string
}

type (
	// otpGiven is a write whose code was typed; done is its answer.
	otpGiven struct {
		w   *write
		otp string
	}
	otpGivenMsg = ui.Result[otpGiven]
	written     struct {
		w          *write
		said       string
		err        error
		journalErr error
	}
	writtenMsg = ui.Result[written]
)

// ask confirms w, then asks for the TOTP code, which sends it.
func (m *Screen) ask(w *write) tea.Cmd {
	if err := m.canManage(); err != nil {
		return ui.Toast(ui.ToastError, "Cannot change accesses: "+ui.ErrorText(err))
	}
	s := m.s
	body := strings.TrimRight(w.body, "\n") + "\nAccount: " + m.s.AccountName() + " · " + string(m.s.Env) +
		"\nNext: the current 6-digit code of your authenticator (TOTP) for " + m.s.Access.Email + "."
	if m.s.Env == ui.EnvSandbox {
		body += " (A demo access's code: tesouro sandbox totp NAME.)"
	}
	otp := ui.Prompt("TOTP code for "+m.s.Access.Email, "6 digits from your authenticator", validOTP, func(code string) tea.Cmd {
		_, cmd := ui.Answer(s, otpGiven{w: w, otp: code})
		return cmd
	})
	return ui.Confirm(w.title, body, otp)
}

// validOTP accepts a TOTP code as authenticators show it: 6 digits, spaces
// allowed between them.
func validOTP(s string) error {
	if len(otpDigits(s)) != 6 || strings.Trim(s, "0123456789 ") != "" {
		return errors.New("type the 6 digits your authenticator shows now")
	}
	return nil
}

func otpDigits(s string) string { return strings.ReplaceAll(s, " ", "") }

// send makes the write with the code, and journals it.
func (m *Screen) send(w *write, otp string) tea.Cmd {
	if err := m.canManage(); err != nil {
		return ui.Toast(ui.ToastError, "Cannot change accesses: "+ui.ErrorText(err))
	}
	otp = otpDigits(otp)
	if w.form != nil {
		w.form.SetSending(true)
	}
	s, acct := m.s, m.s.Account.ID
	_, cmd := ui.Call(s, 0, func(ctx context.Context) (written, error) {
		out, err := w.call(ctx, otp)
		return written{w: w, said: out.said, err: err, journalErr: record(s, acct, w, out.ids, otp, err)}, nil
	})
	return cmd
}

// record journals w: what it changed, or the error, with the code masked
// wherever the error repeats it (a failed request names its URL).
func record(s *ui.Session, acct uuid.UUID, w *write, more map[string]string, otp string, err error) error {
	e := s.JournalEntry(acct, w.action, w.endpoint)
	e.IDs, e.Outcome = maps.Clone(w.ids), w.outcome
	if len(more) > 0 && e.IDs == nil {
		e.IDs = map[string]string{}
	}
	maps.Copy(e.IDs, more)
	if err != nil {
		e.Outcome = "error: " + err.Error()
		if otp != "" {
			e.Outcome = strings.ReplaceAll(e.Outcome, otp, "******")
		}
	}
	return s.Journal.Record(e)
}

// written takes a write's answer: a refusal is told (on the form it came
// from, when that is still open), a success closes the form and loads the
// list again.
func (m *Screen) written(msg written) tea.Cmd {
	w := msg.w
	journal := journalFailed(msg.journalErr)
	if msg.err != nil {
		text := ui.ErrorText(msg.err)
		switch {
		case api.IsInvalidOTP(msg.err) || api.IsOTPRequired(msg.err):
			text = "the TOTP code was refused (a code is good for 30 seconds, once): nothing changed; try again with the next code"
		case errors.Is(msg.err, api.ErrForbidden):
			text = "the service refused: " + text
		}
		if w.form != nil && m.form == w.form {
			w.form.SetSending(false)
			var fe fieldError
			if errors.As(msg.err, &fe) && w.form.SetFieldError(fe.key, ui.ErrorText(fe.err)) {
				w.form.FocusField(fe.key)
			} else if w.form.ApplyError(msg.err) == "" {
				w.form.SetFormError(text)
			}
		}
		return tea.Batch(journal, ui.Toast(ui.ToastError, strings.TrimSuffix(w.title, "?")+" failed: "+text))
	}
	if w.form != nil && m.form == w.form {
		m.closeForm()
	}
	done := w.done
	if msg.said != "" {
		done = msg.said
	}
	return tea.Batch(journal, ui.Toast(ui.ToastSuccess, done), m.reload(w.list, w.selectID))
}

// fieldError is the screen's own refusal of one field of the form (a
// profile name taken since the form was checked).
type fieldError struct {
	key string
	err error
}

func (e fieldError) Error() string { return e.key + ": " + e.err.Error() }
func (e fieldError) Unwrap() error { return e.err }

// journalFailed tells the user that a write was not journaled.
func journalFailed(err error) tea.Cmd {
	if err == nil {
		return nil
	}
	return ui.Toast(ui.ToastError, "journal not written: "+ui.ErrorText(err))
}
