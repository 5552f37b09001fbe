package beneficiaries

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/google/uuid"

	"tesouro/journal"
	"tesouro/ui"
	"tesouro/views/beneficiaries/form"
)

// requestTimeout bounds every call of the screen.
const requestTimeout = 20 * time.Second

// requestSeq numbers list loads across every instance of the screen: the
// root rebuilds screens when the account changes, and a late answer for the
// old account must never match a load of the new one.
var requestSeq atomic.Int64

type loadedMsg struct {
	kind, gen int
	entries   []entry
	err       error
}

type createdMsg struct {
	acct       uuid.UUID // the account it was sent for
	kind       int
	id         uuid.UUID
	alias      string
	err        error
	journalErr error
}

type deletedMsg struct {
	acct       uuid.UUID // the account it was sent for
	kind       int
	id, alias  string
	err        error
	journalErr error
}

// recorder writes journal lines; it holds copies of the session values so
// that a command never reads the session while the root changes it.
type recorder struct {
	j                     *journal.Journal
	profile, env, account string
	now                   func() time.Time
}

func (m *Screen) recorder() recorder {
	acct := "main"
	if !m.s.Account.Main() {
		acct = m.s.Account.ID.String()
	}
	return recorder{j: m.s.Journal, profile: m.s.Profile, env: string(m.s.Env), account: acct, now: time.Now}
}

func (r recorder) record(action, endpoint string, ids map[string]string, err error) error {
	outcome := "ok"
	switch {
	case err != nil:
		outcome = "error: " + err.Error()
	case strings.HasPrefix(action, "create"):
		outcome = "created"
	case strings.HasPrefix(action, "delete"):
		outcome = "deleted"
	}
	return r.j.Record(journal.Entry{Time: r.now().UTC(), Profile: r.profile, Env: r.env, Account: r.account,
		Action: action, Endpoint: endpoint, IDs: ids, Outcome: outcome})
}

// load fetches every page of one kind; the command keeps the account and
// the generation it was issued for.
func (m *Screen) load(i int) tea.Cmd {
	t := m.tabs[i]
	t.gen = int(requestSeq.Add(1))
	t.loading = true
	gen, acct, svc, k := t.gen, m.s.Account.ID, m.s.Client, m.kinds[i]
	return m.s.Request(func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
		defer cancel()
		es, err := k.load(ctx, svc, acct)
		if err != nil {
			err = fmt.Errorf("list %s beneficiaries: %w", k.title, err)
		}
		return loadedMsg{kind: i, gen: gen, entries: es, err: err}
	})
}

// Update implements ui.Screen.
func (m *Screen) Update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case loadedMsg:
		return m, m.loaded(msg)
	case createdMsg:
		return m, m.created(msg)
	case deletedMsg:
		return m, m.deleted(msg)
	case tea.KeyPressMsg:
		return m, m.key(msg)
	case ui.FilterMsg:
		m.query = msg.Query
		m.tabs[m.cur].table.SetFilter(m.query)
		return m, nil
	case ui.ThemeChangedMsg:
		for _, t := range m.tabs {
			t.table.SetStyles(m.s.Styles().TableStyles())
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
	if msg.kind < 0 || msg.kind >= len(m.tabs) {
		return nil
	}
	t := m.tabs[msg.kind]
	if msg.gen != t.gen {
		return nil // an older load answered late
	}
	t.loading = false
	t.err = msg.err
	if msg.err != nil && len(msg.entries) == 0 {
		return nil
	}
	t.loaded = true
	t.entries = make(map[string]entry, len(msg.entries))
	t.order = t.order[:0]
	for _, e := range msg.entries {
		if _, dup := t.entries[e.id]; !dup {
			t.order = append(t.order, e.id)
		}
		t.entries[e.id] = e
	}
	m.setRows(msg.kind)
	if t.selectID != "" && t.table.Select(t.selectID) {
		t.selectID = ""
	}
	return func() tea.Msg { return ui.RefreshedMsg{At: time.Now()} }
}

func (m *Screen) key(msg tea.KeyPressMsg) tea.Cmd {
	if m.form != nil {
		return m.formKey(msg)
	}
	t := m.tabs[m.cur]
	switch {
	case key.Matches(msg, m.keys.PrevKind):
		m.switchKind(-1)
	case key.Matches(msg, m.keys.NextKind):
		m.switchKind(1)
	case key.Matches(msg, m.keys.Refresh):
		return m.load(m.cur)
	case key.Matches(msg, m.keys.New):
		return m.openForm()
	case key.Matches(msg, m.keys.Delete):
		return m.confirmDelete()
	default:
		return t.table.Update(msg)
	}
	return nil
}

func (m *Screen) switchKind(d int) {
	m.cur = (m.cur + d + len(m.kinds)) % len(m.kinds)
	// The filter belongs to the list on screen: carry it over.
	m.tabs[m.cur].table.SetFilter(m.query)
}

func (m *Screen) openForm() tea.Cmd {
	if err := m.writeBlocked(); err != nil {
		return ui.Toast(ui.ToastError, "Cannot add a beneficiary: "+err.Error())
	}
	m.formKind = m.cur
	m.form = m.kinds[m.cur].newForm()
	m.form.SetStyles(formStyles(m.s))
	m.form.SetSize(m.width, m.height)
	return m.form.Focus()
}

func (m *Screen) formKey(msg tea.KeyPressMsg) tea.Cmd {
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

// submit sends the form: the request is built now from the checked values,
// the command only carries it.
func (m *Screen) submit() tea.Cmd {
	if err := m.writeBlocked(); err != nil {
		m.form.SetFormError("cannot send: " + err.Error())
		return nil
	}
	i := m.formKind
	k := m.kinds[i]
	send := k.prepare(m.form)
	alias := m.form.Normalized("alias")
	m.form.SetSending(true)
	svc, acct, rec := m.s.Client, m.s.Account.ID, m.recorder()
	return m.s.Request(func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
		defer cancel()
		id, err := send(ctx, svc, acct)
		ids := map[string]string{"alias": alias}
		if err == nil {
			ids["beneficiary"] = id.String()
		}
		jerr := rec.record("create-beneficiary-"+k.key, k.createPath, ids, err)
		return createdMsg{acct: acct, kind: i, id: id, alias: alias, err: err, journalErr: jerr}
	})
}

func (m *Screen) created(msg createdMsg) tea.Cmd {
	if msg.acct != m.s.Account.ID {
		return nil // sent by the screen of another account
	}
	var cmds []tea.Cmd
	if msg.journalErr != nil {
		cmds = append(cmds, ui.Toast(ui.ToastError, "journal not written: "+msg.journalErr.Error()))
	}
	if msg.err != nil {
		if m.form != nil && m.formKind == msg.kind {
			m.form.SetSending(false)
			m.form.ApplyError(msg.err)
		}
		return tea.Batch(cmds...)
	}
	if m.form != nil && m.formKind == msg.kind {
		m.form = nil
	}
	k := m.kinds[msg.kind]
	m.tabs[msg.kind].selectID = msg.id.String()
	cmds = append(cmds, ui.Toast(ui.ToastSuccess, fmt.Sprintf("%s %q registered", capital(k.noun), msg.alias)), m.load(msg.kind))
	return tea.Batch(cmds...)
}

func (m *Screen) confirmDelete() tea.Cmd {
	if err := m.writeBlocked(); err != nil {
		return ui.Toast(ui.ToastError, "Cannot delete: "+err.Error())
	}
	i := m.cur
	k := m.kinds[i]
	if k.del == nil {
		return ui.Toast(ui.ToastError, "The service offers no delete for "+k.noun+"s")
	}
	row, ok := m.tabs[i].table.Selected()
	if !ok {
		return nil
	}
	e := m.tabs[i].entries[row.ID]
	id, err := uuid.Parse(e.id)
	if err != nil {
		return ui.Toast(ui.ToastError, "This beneficiary has no valid id: "+e.id)
	}
	var body strings.Builder
	for _, d := range e.detail {
		if d[1] != "" {
			fmt.Fprintf(&body, "%s: %s\n", d[0], d[1])
		}
	}
	fmt.Fprintf(&body, "Account: %s\nTickets can no longer pay it. This cannot be undone.", m.accountName())
	svc, acct, rec, alias := m.s.Client, m.s.Account.ID, m.recorder(), e.alias
	onYes := m.s.Request(func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
		defer cancel()
		err := k.del(ctx, svc, acct, id)
		jerr := rec.record("delete-beneficiary-"+k.key, k.delPath+id.String(), map[string]string{"beneficiary": id.String(), "alias": alias}, err)
		return deletedMsg{acct: acct, kind: i, id: id.String(), alias: alias, err: err, journalErr: jerr}
	})
	return func() tea.Msg {
		return ui.ConfirmMsg{Title: fmt.Sprintf("Delete %s %q?", k.noun, e.alias), Body: body.String(), OnYes: onYes}
	}
}

func (m *Screen) deleted(msg deletedMsg) tea.Cmd {
	if msg.acct != m.s.Account.ID {
		return nil
	}
	var cmds []tea.Cmd
	if msg.journalErr != nil {
		cmds = append(cmds, ui.Toast(ui.ToastError, "journal not written: "+msg.journalErr.Error()))
	}
	k := m.kinds[msg.kind]
	if msg.err != nil {
		cmds = append(cmds, ui.Toast(ui.ToastError, fmt.Sprintf("Delete %s %q failed: %v", k.noun, msg.alias, msg.err)))
		return tea.Batch(cmds...)
	}
	cmds = append(cmds, ui.Toast(ui.ToastSuccess, fmt.Sprintf("%s %q deleted", capital(k.noun), msg.alias)), m.load(msg.kind))
	return tea.Batch(cmds...)
}

func (m *Screen) accountName() string {
	if m.s.Account.Main() {
		if m.s.Account.Name != "" {
			return m.s.Account.Name + " (main account)"
		}
		return "main account"
	}
	return m.s.Account.Name + " (" + m.s.Account.ID.String() + ")"
}

func capital(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// formStyles are the theme's styles for a form.
func formStyles(s *ui.Session) form.Styles {
	t := s.Styles()
	return form.Styles{Title: t.Title, Label: t.Label, Focus: t.Value.Bold(true), Error: t.Error, Hint: t.Good, Choice: t.Selected, Footer: t.Muted}
}
