package compliance

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/google/uuid"

	"tesouro/api"
	"tesouro/journal"
	"tesouro/ui"
	"tesouro/views/beneficiaries/form"
)

const requestTimeout = 20 * time.Second

// requestSeq numbers list loads across every instance of the screen: the
// root rebuilds screens when the account changes, and a late answer for the
// old account must never match a load of the new one.
var requestSeq atomic.Int64

type loadedMsg struct {
	sec, gen int
	entries  []entry
	err      error
}

type submittedMsg struct {
	acct       uuid.UUID // the account it was sent for
	sec        int
	id         string
	w8         *api.W8BEN
	label      string
	err        error
	journalErr error
}

func (m *Screen) load(i int) tea.Cmd {
	l := m.lists[i]
	l.gen = int(requestSeq.Add(1))
	l.loading = true
	gen, acct, svc, sec := l.gen, m.s.Account.ID, m.s.Client, m.sections[i]
	return m.s.Request(func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
		defer cancel()
		es, err := sec.load(ctx, svc, acct)
		if err != nil {
			err = fmt.Errorf("list %s: %w", sec.title, err)
		}
		return loadedMsg{sec: i, gen: gen, entries: es, err: err}
	})
}

// Update implements ui.Screen.
func (m *Screen) Update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case loadedMsg:
		return m, m.loaded(msg)
	case submittedMsg:
		return m, m.afterSubmit(msg)
	case tea.KeyPressMsg:
		return m, m.key(msg)
	case ui.FilterMsg:
		m.query = msg.Query
		m.lists[m.cur].table.SetFilter(m.query)
		return m, nil
	case ui.ThemeChangedMsg:
		for _, l := range m.lists {
			l.table.SetStyles(m.s.Styles().TableStyles())
		}
		if m.form != nil {
			m.form.SetStyles(formStyles(m.s))
		}
		return m, nil
	}
	if m.form != nil {
		_, cmd := m.form.Update(msg)
		return m, cmd
	}
	return m, nil
}

func (m *Screen) loaded(msg loadedMsg) tea.Cmd {
	if msg.sec < 0 || msg.sec >= len(m.lists) {
		return nil
	}
	l := m.lists[msg.sec]
	if msg.gen != l.gen {
		return nil
	}
	l.loading, l.err = false, msg.err
	if msg.err != nil && len(msg.entries) == 0 {
		return nil
	}
	l.loaded = true
	l.entries = make(map[string]entry, len(msg.entries))
	l.order = l.order[:0]
	for _, e := range msg.entries {
		if _, dup := l.entries[e.id]; !dup {
			l.order = append(l.order, e.id)
		}
		l.entries[e.id] = e
	}
	m.setRows(msg.sec)
	if l.selectID != "" && l.table.Select(l.selectID) {
		l.selectID = ""
	}
	return func() tea.Msg { return ui.RefreshedMsg{At: time.Now()} }
}

func (m *Screen) key(msg tea.KeyPressMsg) tea.Cmd {
	if m.form != nil {
		res, cmd := m.form.Update(msg)
		switch res {
		case form.Cancelled:
			m.form = nil
			return nil
		case form.Submitted:
			return m.submit()
		}
		return cmd
	}
	l := m.lists[m.cur]
	switch {
	case key.Matches(msg, m.keys.PrevSection):
		m.switchSection(-1)
	case key.Matches(msg, m.keys.NextSection):
		m.switchSection(1)
	case key.Matches(msg, m.keys.Refresh):
		return m.load(m.cur)
	case msg.String() == "n":
		return m.openForm()
	default:
		return l.table.Update(msg)
	}
	return nil
}

func (m *Screen) switchSection(d int) {
	m.cur = (m.cur + d + len(m.sections)) % len(m.sections)
	m.lists[m.cur].table.SetFilter(m.query)
}

func (m *Screen) openForm() tea.Cmd {
	sec := m.sections[m.cur]
	if sec.newForm == nil {
		return ui.Toast(ui.ToastInfo, "Proof-of-address attempts are created by uploads, not from here")
	}
	if err := m.writeBlocked(); err != nil {
		return ui.Toast(ui.ToastError, "Cannot submit: "+err.Error())
	}
	m.formSec = m.cur
	m.form = sec.newForm()
	m.form.SetStyles(formStyles(m.s))
	m.form.SetSize(m.width, m.height)
	return m.form.Focus()
}

// submit sends the form; the request is built now, by value.
func (m *Screen) submit() tea.Cmd {
	if err := m.writeBlocked(); err != nil {
		m.form.SetFormError("cannot send: " + err.Error())
		return nil
	}
	i := m.formSec
	svc, acct := m.s.Client, m.s.Account.ID
	jr, profile, env := m.s.Journal, m.s.Profile, string(m.s.Env)
	account := "main"
	if !m.s.Account.Main() {
		account = acct.String()
	}
	record := func(action, endpoint string, ids map[string]string, err error) error {
		outcome := "submitted"
		if err != nil {
			outcome = "error: " + err.Error()
		}
		return jr.Record(journal.Entry{Time: time.Now().UTC(), Profile: profile, Env: env, Account: account,
			Action: action, Endpoint: endpoint, IDs: ids, Outcome: outcome})
	}
	var send func(ctx context.Context) submittedMsg
	switch m.sections[i].key {
	case "ubos":
		req := uboRequest(m.form)
		send = func(ctx context.Context) submittedMsg {
			id, err := svc.CreateUBO(ctx, acct, req)
			ids := map[string]string{}
			if err == nil {
				ids["ubo"] = id.String()
			}
			jerr := record("create-ubo", "POST /v2/account/ubos/", ids, err)
			return submittedMsg{acct: acct, sec: i, id: id.String(), label: req.FullName, err: err, journalErr: jerr}
		}
	case "w8ben":
		req := w8benRequest(m.form)
		send = func(ctx context.Context) submittedMsg {
			w, err := svc.SubmitW8BEN(ctx, acct, req)
			ids := map[string]string{}
			msg := submittedMsg{acct: acct, sec: i, w8: w, label: "W-8BEN", err: err}
			if err == nil && w != nil {
				ids["w8ben"] = w.ID.String()
				msg.id = w.ID.String()
			}
			msg.journalErr = record("submit-w8ben", "POST /v2/kyc/w8ben/", ids, err)
			return msg
		}
	default:
		return nil
	}
	m.form.SetSending(true)
	return m.s.Request(func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
		defer cancel()
		return send(ctx)
	})
}

func (m *Screen) afterSubmit(msg submittedMsg) tea.Cmd {
	if msg.acct != m.s.Account.ID {
		return nil // sent by the screen of another account
	}
	var cmds []tea.Cmd
	if msg.journalErr != nil {
		cmds = append(cmds, ui.Toast(ui.ToastError, "journal not written: "+msg.journalErr.Error()))
	}
	if msg.err != nil {
		if m.form != nil && m.formSec == msg.sec {
			m.form.SetSending(false)
			m.form.ApplyError(msg.err)
		}
		return tea.Batch(cmds...)
	}
	if m.form != nil && m.formSec == msg.sec {
		m.form = nil
	}
	text := fmt.Sprintf("UBO %q created", msg.label)
	if msg.w8 != nil {
		w := *msg.w8
		m.submitted = &w
		text = "W-8BEN submitted: " + w.W8BenURL
	}
	m.lists[msg.sec].selectID = msg.id
	cmds = append(cmds, ui.Toast(ui.ToastSuccess, text), m.load(msg.sec))
	return tea.Batch(cmds...)
}

// formStyles are the theme's styles for a form.
func formStyles(s *ui.Session) form.Styles {
	t := s.Styles()
	return form.Styles{Title: t.Title, Label: t.Label, Focus: t.Value.Bold(true), Error: t.Error, Hint: t.Good, Choice: t.Selected, Footer: t.Muted}
}
