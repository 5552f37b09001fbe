package statement

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/export"
	"github.com/tesouro-treasury/tesouro/ui"
)

// exported is what an export wrote.
type exported struct {
	path string
	rows int
}

// Update implements ui.Screen.
func (m *Model) Update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	if cmd, ok := m.list.Handle(msg); ok {
		return m, cmd
	}
	switch msg := msg.(type) {
	case ui.Result[api.Balances]:
		if !m.balReq.Take(msg) {
			return m, nil
		}
		m.balances, m.balErr = msg.Value, msg.Err
		if msg.Err == nil {
			m.setTokens(msg.Value)
		}
		m.relayout() // the balance line may come or go
		return m, nil
	case ui.Result[exported]:
		if !m.exportReq.Take(msg) {
			return m, nil
		}
		if msg.Err != nil {
			return m, ui.Toast(ui.ToastError, "Export failed: "+ui.ErrorText(msg.Err))
		}
		m.note = fmt.Sprintf("exported %d to %s", msg.Value.rows, msg.Value.path)
		return m, ui.Toast(ui.ToastSuccess, fmt.Sprintf("Exported %d entries to %s", msg.Value.rows, msg.Value.path))
	case ui.ChangedMsg:
		if msg.For(m.s, ui.ChangedBalances) {
			return m, tea.Batch(m.loadBalances(), m.list.Refresh())
		}
		return m, nil
	case ui.NavigateMsg:
		if msg.Screen == m.ID() && msg.ID != "" {
			m.list.SelectWhenLoaded(msg.ID)
		}
		return m, nil
	case tea.KeyPressMsg:
		return m, m.onKey(msg)
	}
	return m, m.list.Rest(msg)
}

// current is the entry the keys act on: the open one, else the selected.
func (m *Model) current() (api.StatementLog, bool) {
	if m.detail.Open != nil {
		return *m.detail.Open, true
	}
	return m.list.Selected()
}

func (m *Model) syncKeys() {
	l, ok := m.current()
	m.keys.Open.SetEnabled(ok && m.detail.Open == nil)
	m.keys.Copy.SetEnabled(ok)
	m.keys.Ticket.SetEnabled(ok && l.TicketID != "")
	m.keys.Clear.SetEnabled(!m.bar.Empty())
	m.keys.Export.SetEnabled(!m.exportReq.Waiting())
	m.keys.Prev.SetEnabled(len(m.tokens) > 1)
	m.keys.Next.SetEnabled(len(m.tokens) > 1)
}

// KeyMap returns the bindings live right now.
func (m *Model) KeyMap() []key.Binding {
	m.syncKeys()
	k := m.keys
	return m.list.Bindings(m.detail.Open != nil, []key.Binding{k.Back, k.Ticket, k.Copy}, k.Scroll,
		k.Prev, k.Next, k.Open, k.Filters, k.Clear, k.Reload, k.Export, k.Ticket, k.Copy)
}

func (m *Model) onKey(msg tea.KeyPressMsg) tea.Cmd {
	m.syncKeys()
	k := m.keys
	switch {
	case key.Matches(msg, k.Ticket):
		l, _ := m.current()
		return ui.Navigate("tickets", l.TicketID)
	case key.Matches(msg, k.Copy):
		l, _ := m.current()
		if l.TicketID != "" {
			return ui.Copy("ticket id", l.TicketID)
		}
		return ui.Copy("entry id", l.ID)
	}
	if m.detail.Key(msg, k.Back, k.Scroll, m.height) {
		return nil
	}
	if cmd, ok := m.list.FilterKey(msg, k.Filters, k.Clear); ok {
		return cmd
	}
	switch {
	case key.Matches(msg, k.Prev):
		return m.switchToken(-1)
	case key.Matches(msg, k.Next):
		return m.switchToken(1)
	case key.Matches(msg, k.Open):
		if l, ok := m.list.Selected(); ok {
			m.detail.Show(l)
		}
		return nil
	case key.Matches(msg, k.Reload):
		return tea.Batch(m.loadBalances(), m.reset())
	case key.Matches(msg, k.Export):
		return m.export()
	}
	return m.list.Key(msg)
}

// account names the operated account on every exported row and in the
// file name.
func (m *Model) account() (export.Account, string) {
	var a export.Account
	for _, acc := range m.s.Accounts {
		if acc.MainAccountID == "" {
			a.ID, a.Name = acc.ID.String(), acc.Name
			break
		}
	}
	name := a.Name
	if !m.s.Account.Main() {
		a.SubAccountID, a.SubAccountName = m.s.Account.ID.String(), m.s.AccountName()
		name = a.SubAccountName
	}
	if name == "" {
		name = m.s.AccountName()
	}
	return a, name
}

// export writes every entry the token and dates match, read from the
// service to the last page (not only the loaded rows), to
// tesouro-statement[-TOKEN]-ACCOUNT-TIME.csv in export_dir (else the current
// directory), where the Tickets screen and the command line write theirs.
func (m *Model) export() tea.Cmd {
	f, err := m.filter()
	if err != nil {
		return ui.Toast(ui.ToastError, "Export failed: "+ui.ErrorText(err))
	}
	acct, name := m.account()
	kind := "statement"
	if m.token() != "" {
		kind += "-" + m.token()
	}
	file := export.FileName(kind, name, m.s.Now())
	svc, token := m.svc, m.token()
	return ui.Fetch(m.s, &m.exportReq, exportTimeout, func(ctx context.Context) (exported, error) {
		dir, err := export.Dir(os.Getenv)
		if err != nil {
			return exported{}, errors.Join(errors.New("export_dir in config.toml"), err)
		}
		var buf bytes.Buffer
		w, err := export.NewWriter(&buf, export.StatementColumns)
		if err != nil {
			return exported{}, err
		}
		for l, err := range api.All(ctx, func(ctx context.Context, cursor string) (api.Page[api.StatementLog], error) {
			q := f
			q.Cursor = cursor
			return svc.Statement(ctx, q)
		}) {
			if err != nil {
				return exported{}, fmt.Errorf("read the statement: %w", err)
			}
			if token != "" && l.Token != token {
				continue
			}
			if err := w.Row(export.StatementRow(acct, l)); err != nil {
				return exported{}, err
			}
		}
		if err := w.Flush(); err != nil {
			return exported{}, err
		}
		path, err := export.WriteFile(dir, file, buf.Bytes())
		return exported{path: path, rows: w.Rows()}, err
	})
}

// stamp is an entry's time in the session's zone.
func stamp(t api.Time, loc *time.Location, layout string) string {
	if t.IsZero() {
		return ""
	}
	return t.In(loc).Format(layout)
}
