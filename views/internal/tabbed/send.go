package tabbed

import (
	"context"

	tea "charm.land/bubbletea/v2"
	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/views/internal/form"
)

// A Request is a form's call to the service for account acct. It is built
// from the form's checked values when the form is sent, so the command
// holds only values.
type Request func(ctx context.Context, acct uuid.UUID) Sent

// Sent is what a Request did: the journal line, and what the screen shows.
type Sent struct {
	Action, Endpoint string
	IDs              map[string]string
	Outcome          string // journaled when Err is nil ("created")
	Err              error

	ID    string // the new record, selected once its list has reloaded
	Toast string // what the user is told when it worked
	Value any    // the service's answer, for a screen that keeps it
}

// Answer is a sent form's answer: what it did, into which list, and
// whether its journal line was written.
type Answer struct {
	Sent
	List       int
	JournalErr error
}

// SentMsg is the answer to a sent form.
type SentMsg = ui.Result[Answer]

// OpenForm shows fm, creating into the list on screen; request reads it
// once every field passed its checks.
func (f *Frame) OpenForm(fm *form.Form, request func(*form.Form) Request) tea.Cmd {
	return f.OpenVettedForm(fm, request, nil)
}

// OpenVettedForm is OpenForm whose checked form goes to vet instead of
// being sent: the screen asks what it must first (who a PIX key pays, and
// the user's yes) and calls Send once it may go. A nil vet sends at once.
func (f *Frame) OpenVettedForm(fm *form.Form, request func(*form.Form) Request, vet func(*form.Form) tea.Cmd) tea.Cmd {
	f.form, f.formList, f.request, f.vet = fm, f.cur, request, vet
	f.sending.Cancel()
	fm.SetStyles(formStyles(f.s))
	fm.SetSize(f.width, f.height)
	return fm.Focus()
}

func (f *Frame) formKey(msg tea.KeyPressMsg) tea.Cmd {
	res, cmd := f.form.Update(msg)
	switch res {
	case form.Cancelled:
		f.form = nil
		f.sending.Cancel()
		return nil
	case form.Submitted:
		if f.vet != nil {
			return f.vet(f.form)
		}
		return f.send()
	}
	return cmd
}

// Send sends the open form now (a vetted form, once its screen may); nil
// when no form is open.
func (f *Frame) Send() tea.Cmd {
	if f.form == nil {
		return nil
	}
	return f.send()
}

// send sends the form: the request is built now, the command only carries
// it, and writes the journal line whatever the answer.
func (f *Frame) send() tea.Cmd {
	if err := f.Blocked(); err != nil {
		f.form.SetFormError("cannot send: " + ui.ErrorText(err))
		return nil
	}
	req, list, rec, acct := f.request(f.form), f.formList, f.Recorder(), f.s.Account.ID
	f.form.SetSending(true)
	return ui.Fetch(f.s, &f.sending, 0, func(ctx context.Context) (Answer, error) {
		s := req(ctx, acct)
		jerr := rec.Record(s.Action, s.Endpoint, s.IDs, s.Outcome, s.Err)
		return Answer{Sent: s, List: list, JournalErr: jerr}, nil
	})
}

// Sent takes the answer to the sent form, if it is the one awaited: a
// refusal stays on the form, on the field it names; a success closes the
// form and selects the new record. It reports whether a record was created.
func (f *Frame) Sent(msg SentMsg) (tea.Cmd, bool) {
	if !f.sending.Take(msg) {
		return nil, false // another screen's, or a form since cancelled
	}
	a := msg.Value
	if a.Err != nil {
		if f.form != nil {
			f.form.SetSending(false)
			f.form.ApplyError(a.Err)
		}
		return JournalFailed(a.JournalErr), false
	}
	f.form = nil
	l := f.lists[a.List]
	l.list.SelectWhenLoaded(a.ID)
	return tea.Batch(JournalFailed(a.JournalErr), ui.Toast(ui.ToastSuccess, a.Toast), f.Load(a.List)), true
}

// JournalFailed tells the user that an action was not journaled (nil when
// it was).
func JournalFailed(err error) tea.Cmd {
	if err == nil {
		return nil
	}
	return ui.Toast(ui.ToastError, "journal not written: "+ui.ErrorText(err))
}

// Recorder writes journal lines for the account operated when it was made
// (Session.JournalEntry reads only what never changes in a session).
type Recorder struct {
	s       *ui.Session
	account uuid.UUID
}

// Recorder is a recorder for the operated account.
func (f *Frame) Recorder() Recorder { return Recorder{s: f.s, account: f.s.Account.ID} }

// Record journals an action: outcome when err is nil, else the error.
func (r Recorder) Record(action, endpoint string, ids map[string]string, outcome string, err error) error {
	if err != nil {
		outcome = "error: " + err.Error()
	}
	e := r.s.JournalEntry(r.account, action, endpoint)
	e.IDs, e.Outcome = ids, outcome
	return r.s.Journal.Record(e)
}

// formStyles are the theme's styles for a form.
func formStyles(s *ui.Session) form.Styles {
	t := s.Styles()
	return form.Styles{Title: t.Title, Label: t.Label, Focus: t.Value.Bold(true), Error: t.Error, Hint: t.Good, Choice: t.Selected, Footer: t.Muted}
}
