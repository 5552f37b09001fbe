package tabbed

import (
	"context"

	tea "charm.land/bubbletea/v2"
	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/views/internal/form"
)

// A Request is a form's call to the service. It is built from the form's
// checked values when the form is sent, so the command holds only values.
type Request func(ctx context.Context, svc api.Service, acct uuid.UUID) Sent

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

// SentMsg is the answer to a sent form.
type SentMsg struct {
	Sent
	acct       uuid.UUID // the account it was sent for
	list       int
	journalErr error
}

// OpenForm shows fm, creating into the list on screen; request reads it
// once every field passed its checks.
func (f *Frame) OpenForm(fm *form.Form, request func(*form.Form) Request) tea.Cmd {
	f.form, f.formList, f.request = fm, f.cur, request
	fm.SetStyles(formStyles(f.s))
	fm.SetSize(f.width, f.height)
	return fm.Focus()
}

func (f *Frame) formKey(msg tea.KeyPressMsg) tea.Cmd {
	res, cmd := f.form.Update(msg)
	switch res {
	case form.Cancelled:
		f.form = nil
		return nil
	case form.Submitted:
		return f.send()
	}
	return cmd
}

// send sends the form: the request is built now, the command only carries
// it, and writes the journal line whatever the answer.
func (f *Frame) send() tea.Cmd {
	if err := f.Blocked(); err != nil {
		f.form.SetFormError("cannot send: " + err.Error())
		return nil
	}
	req, list, rec := f.request(f.form), f.formList, f.Recorder()
	f.form.SetSending(true)
	return f.Call(func(ctx context.Context, svc api.Service, acct uuid.UUID) tea.Msg {
		s := req(ctx, svc, acct)
		jerr := rec.Record(s.Action, s.Endpoint, s.IDs, s.Outcome, s.Err)
		return SentMsg{Sent: s, acct: acct, list: list, journalErr: jerr}
	})
}

// Sent takes the answer to a sent form: a refusal stays on the form, on the
// field it names; a success closes the form and selects the new record. It
// reports whether a record was created for this screen's account.
func (f *Frame) Sent(msg SentMsg) (tea.Cmd, bool) {
	if msg.acct != f.s.Account.ID {
		return nil, false // sent by the screen of another account
	}
	ours := f.form != nil && f.formList == msg.list
	if msg.Err != nil {
		if ours {
			f.form.SetSending(false)
			f.form.ApplyError(msg.Err)
		}
		return JournalFailed(msg.journalErr), false
	}
	if ours {
		f.form = nil
	}
	f.lists[msg.list].selectID = msg.ID
	return tea.Batch(JournalFailed(msg.journalErr), ui.Toast(ui.ToastSuccess, msg.Toast), f.Load(msg.list)), true
}

// JournalFailed tells the user that an action was not journaled (nil when
// it was).
func JournalFailed(err error) tea.Cmd {
	if err == nil {
		return nil
	}
	return ui.Toast(ui.ToastError, "journal not written: "+err.Error())
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
