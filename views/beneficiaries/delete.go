package beneficiaries

import (
	"context"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/views/internal/tabbed"
)

// deletedMsg is the answer to a delete. Deletes are not awaited one at a
// time: any answer of this screen's session is taken.
type deletedMsg = ui.Result[deleted]

type deleted struct {
	kind       int
	alias      string
	err        error
	journalErr error
}

// confirmDelete asks before the selected beneficiary is deleted, repeating
// what it is and from which account.
func (m *Screen) confirmDelete() tea.Cmd {
	if err := m.Blocked(); err != nil {
		return ui.Toast(ui.ToastError, "Cannot delete: "+ui.ErrorText(err))
	}
	i := m.Cur()
	k := m.kinds[i]
	if k.del == nil {
		return ui.Toast(ui.ToastError, "The service offers no delete for "+k.noun+"s")
	}
	e, ok := k.Selected()
	if !ok {
		return nil
	}
	id, err := uuid.Parse(e.ID)
	if err != nil {
		return ui.Toast(ui.ToastError, "This beneficiary has no valid id: "+e.ID)
	}
	var body strings.Builder
	for _, d := range e.Detail {
		if d[1] != "" {
			fmt.Fprintf(&body, "%s: %s\n", d[0], d[1])
		}
	}
	fmt.Fprintf(&body, "Account: %s\nTickets can no longer pay it. This cannot be undone.", m.accountName())
	del, action, path, alias, rec := k.del, "delete-beneficiary-"+k.key, k.delPath+id.String(), e.Name, m.Recorder()
	svc, acct := k.svc, m.s.Account.ID
	_, onYes := ui.Call(m.s, 0, func(ctx context.Context) (deleted, error) {
		err := del(svc, ctx, acct, id)
		jerr := rec.Record(action, path, map[string]string{"beneficiary": id.String(), "alias": alias}, "deleted", err)
		return deleted{kind: i, alias: alias, err: err, journalErr: jerr}, nil
	})
	return ui.Confirm(fmt.Sprintf("Delete %s %q?", k.noun, e.Name), body.String(), onYes)
}

func (m *Screen) deleted(msg deleted) tea.Cmd {
	k := m.kinds[msg.kind]
	if msg.err != nil {
		return tea.Batch(tabbed.JournalFailed(msg.journalErr),
			ui.Toast(ui.ToastError, fmt.Sprintf("Delete %s %q failed: %s", k.noun, msg.alias, ui.ErrorText(msg.err))))
	}
	return tea.Batch(tabbed.JournalFailed(msg.journalErr),
		ui.Toast(ui.ToastSuccess, fmt.Sprintf("%s %q deleted", capital(k.noun), msg.alias)), m.Load(msg.kind), m.changed())
}

// accountName names the operated account with its id, so that a delete is
// never confirmed for the wrong one.
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
