package tickets

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/export"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/ui/widget"
)

// exportPageMsg is a page of the export under way.
type exportPageMsg = ui.Result[exportPage]

// exportPage is what the command did with a page of tickets: it laid them
// out and wrote them to the temporary file (rows), and after the last page
// flushed and closed it (last), so that Update does no file I/O but the
// final rename.
type exportPage struct {
	rows   int // written: those the / filter keeps
	listed int // the service listed
	cursor string
	last   bool
}

// exportRun is the CSV export under way: every ticket the server filters
// match, page after page, written as each page comes into a hidden
// temporary file next to the final one, which is renamed to the final name
// only once the last row is in. A file under an export's name is always a
// whole export; a stopped or failed one leaves nothing behind.
type exportRun struct {
	q    api.TicketFilter // the first page's query; the cursor moves
	acct export.Account
	tmp  *os.File
	w    *export.Writer
	path string // the final name
	rows int    // written so far
	// slash is the / filter on screen: the export keeps the rows it
	// shows; listed counts what the service listed.
	slash  string
	listed int
	pages  int
	seen   map[string]bool // cursors already followed: a repeat would loop
}

// startExport starts exporting every ticket the applied server filters
// match and the / filter keeps: what the screen shows, every page of it,
// loaded or not. The toast says how many of how many were kept.
func (m *Model) startExport() tea.Cmd {
	if m.exp != nil {
		return ui.Toast(ui.ToastInfo, "An export is under way (esc stops it)")
	}
	q, err := valuesOf(m.bar).query(m.s.Account.ID, "", m.loc())
	if err != nil {
		return ui.Toast(ui.ToastError, "Export not started: "+ui.ErrorText(err))
	}
	dir, err := m.exportDir()
	if err != nil {
		return ui.Toast(ui.ToastError, "Export not started: "+ui.ErrorText(err))
	}
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs // "." says nothing once the toast is read
	}
	acct := m.exportAccount()
	name := acct.Name
	if acct.SubAccountName != "" {
		name += " " + acct.SubAccountName
	}
	file := export.FileName("tickets", name, m.s.Now())
	file = freeName(dir, strings.TrimSuffix(file, ".csv"), ".csv")
	tmp, err := os.CreateTemp(dir, "."+file+".*.part")
	if err != nil {
		return ui.Toast(ui.ToastError, "Export not started: "+ui.ErrorText(err))
	}
	w, err := export.NewWriter(tmp, export.TicketColumns)
	if err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return ui.Toast(ui.ToastError, "Export not started: "+ui.ErrorText(err))
	}
	m.exp = &exportRun{q: q, acct: acct, tmp: tmp, w: w, path: filepath.Join(dir, file), seen: map[string]bool{}, slash: m.list.Filter()}
	m.relayout()
	return m.exportNext()
}

// exportNext asks for the export's next page.
func (m *Model) exportNext() tea.Cmd {
	svc, q, acct, w, tmp, slash, loc := m.svc, m.exp.q, m.exp.acct, m.exp.w, m.exp.tmp, m.exp.slash, m.loc()
	// One page is in flight at a time, so the writer is only ever used by
	// one command; a stop closes and removes the file under it, and the
	// slot drops what that command answers.
	return ui.Fetch(m.s, &m.expSlot, 0, func(ctx context.Context) (exportPage, error) {
		p, err := svc.ListTickets(ctx, q)
		if err != nil {
			return exportPage{}, fmt.Errorf("list tickets: %w", err)
		}
		out := exportPage{listed: len(p.Items), cursor: p.Cursor, last: !p.More() || len(p.Items) == 0}
		for _, t := range p.Items {
			if slash != "" && !widget.Matches(newRecord(&t).row(loc), slash) {
				continue
			}
			if err := w.Row(export.TicketRow(acct, t)); err != nil {
				return exportPage{}, err
			}
			out.rows++
		}
		if out.last {
			err = w.Flush()
			if cerr := tmp.Close(); err == nil {
				err = cerr
			}
		}
		return out, err
	})
}

// onExportPage writes a page of the export and asks for the next, or
// puts the file under its name after the last.
func (m *Model) onExportPage(msg exportPageMsg) tea.Cmd {
	e := m.exp
	if msg.Err != nil {
		m.abortExport()
		return ui.Toast(ui.ToastError, fmt.Sprintf("Export stopped after %d tickets, nothing saved: %s", e.rows, ui.ErrorText(msg.Err)))
	}
	p := msg.Value
	e.rows += p.rows
	e.listed += p.listed
	e.pages++
	if !p.last {
		if e.seen[p.cursor] {
			m.abortExport()
			return ui.Toast(ui.ToastError, fmt.Sprintf("Export stopped, nothing saved: the service sent cursor %q twice", p.cursor))
		}
		e.seen[p.cursor] = true
		e.q.Cursor = p.cursor
		m.relayout()
		return m.exportNext()
	}
	m.exp = nil
	if err := os.Rename(e.tmp.Name(), e.path); err != nil {
		os.Remove(e.tmp.Name())
		m.relayout()
		return ui.Toast(ui.ToastError, "Export failed, nothing saved: "+ui.ErrorText(err))
	}
	what := fmt.Sprintf("%d tickets", e.rows)
	if e.slash != "" {
		what = fmt.Sprintf("%d of %d tickets (those matching /%s)", e.rows, e.listed, e.slash)
	}
	m.note, m.notePath = "exported "+what+" to ", e.path
	m.relayout()
	return ui.Toast(ui.ToastSuccess, "Exported "+what+" to "+e.path)
}

// stopExport stops the export under way at the user's word (esc).
func (m *Model) stopExport() tea.Cmd {
	n := m.exp.rows
	m.abortExport()
	return ui.Toast(ui.ToastInfo, fmt.Sprintf("Export stopped after %d tickets; nothing was saved", n))
}

// abortExport drops the export under way and its temporary file; the page
// on its way, if any, is not taken.
func (m *Model) abortExport() {
	e := m.exp
	m.exp = nil
	m.expSlot.Cancel()
	e.tmp.Close()
	os.Remove(e.tmp.Name())
	m.relayout()
}

// exportProgress is the progress line of the export under way.
func (m *Model) exportProgress() string {
	e := m.exp
	if e.slash != "" {
		return fmt.Sprintf("exporting: %d of %d tickets match /%s, %d pages so far · esc stops", e.rows, e.listed, e.slash, e.pages)
	}
	return fmt.Sprintf("exporting: %d tickets, %d pages so far · esc stops", e.rows, e.pages)
}

// exportAccount names the account the rows come from: the main account,
// and the sub-account when one is operated.
func (m *Model) exportAccount() export.Account {
	var a export.Account
	for _, acc := range m.s.Accounts {
		if acc.MainAccountID == "" || acc.MainAccountID == acc.ID.String() {
			a.ID, a.Name = acc.ID.String(), acc.Name
			break
		}
	}
	if m.s.Account.Main() {
		if a.Name == "" {
			a.Name = m.s.Account.Name
		}
		return a
	}
	a.SubAccountID = m.s.Account.ID.String()
	a.SubAccountName = m.s.Account.Name
	if a.SubAccountName == "" {
		a.SubAccountName = strings.TrimSpace(m.s.AccountName())
	}
	return a
}

// defaultExportDir resolves export_dir as the command line does.
func defaultExportDir() (string, error) {
	d, err := export.Dir(os.Getenv)
	if err != nil {
		return "", errors.Join(errors.New("export_dir in config.toml"), err)
	}
	return d, nil
}
