package subaccounts

import (
	"fmt"
	"sort"
	"strings"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/ui/widget"
)

// mainRowID is the row id of the main account (its id is not needed to
// operate it: the main account is the absence of subAccountId).
const mainRowID = "main"

// mainName is the main account's name when the accounts have loaded.
func (m *Screen) mainName() string {
	for _, a := range m.s.Accounts {
		if a.MainAccountID == "" {
			return a.Name
		}
	}
	return "Main account"
}

// rebuild turns the loaded accounts into rows.
func (m *Screen) rebuild() {
	switch {
	case m.query != "":
		m.table.SetEmpty("no account matches “" + m.query + "”")
	case m.loaded && m.err == nil:
		m.table.SetEmpty("no accounts")
	}
	rows := make([]widget.Row, 0, len(m.subs)+1)
	mainID := ""
	for _, a := range m.s.Accounts {
		if a.MainAccountID == "" {
			mainID = a.ID.String()
		}
	}
	rows = append(rows, m.row(mainRowID, m.mainName(), "main", mainID, "", ui.Account{ID: uuid.Nil}))
	for _, sa := range m.subs {
		kind := strings.ToLower(sa.AccountInfo.AccountType)
		created := ""
		if !sa.CreatedAt.IsZero() {
			created = sa.CreatedAt.Local().Format("2006-01-02")
		}
		rows = append(rows, m.row(sa.SubAccountID.String(), sa.AccountInfo.Name, kind, sa.SubAccountID.String(), created, ui.Account{ID: sa.SubAccountID}))
	}
	m.table.SetRows(fuzzyFilter(rows, m.query))
}

// fuzzyFilter keeps the rows whose name (and type) match q fuzzily, best
// match first; an empty q keeps every row in its order.
func fuzzyFilter(rows []widget.Row, q string) []widget.Row {
	if strings.TrimSpace(q) == "" {
		return rows
	}
	type scored struct {
		row   widget.Row
		score int
	}
	var ms []scored
	for _, r := range rows {
		if sc, ok := ui.FuzzyMatch(q, r.Cells[0]+" "+r.Cells[1]); ok {
			ms = append(ms, scored{r, sc})
		}
	}
	sort.SliceStable(ms, func(i, j int) bool { return ms[i].score > ms[j].score })
	out := make([]widget.Row, len(ms))
	for i, m := range ms {
		out[i] = m.row
	}
	return out
}

func (m *Screen) row(id, name, kind, shownID, created string, acc ui.Account) widget.Row {
	probe := m.s.WithAccount(acc)
	state := ""
	disabled := false
	switch {
	case probe.Blacklisted():
		state, disabled = "blacklisted", true
	case acc.ID == m.s.Account.ID:
		state = "● operating"
	}
	var cells []string
	switch m.width {
	case wide:
		cells = []string{name, kind, shownID, created, state}
	case medium:
		cells = []string{name, kind, shortID(shownID), created, state}
	default:
		cells = []string{name, kind, state}
	}
	return widget.Row{ID: id, Cells: cells, Disabled: disabled}
}

// shortID is the first block of a UUID, enough to tell accounts apart.
func shortID(id string) string {
	if len(id) > 8 {
		return id[:8]
	}
	return id
}

// widthClass says which columns fit.
type widthClass int

const (
	wide   widthClass = iota // every column, full ids
	medium                   // short ids
	narrow                   // name, type and state only
)

func classify(w int) widthClass {
	switch {
	case w >= 96:
		return wide
	case w >= 66:
		return medium
	}
	return narrow
}

// columns are the table's columns for a width class.
func columns(c widthClass) []widget.Column {
	name := widget.Column{Title: "Name"}
	kind := widget.Column{Title: "Type", Width: 10}
	state := widget.Column{Title: "State", Width: 11}
	switch c {
	case wide:
		return []widget.Column{name, kind, {Title: "Id", Width: 36}, {Title: "Created", Width: 10}, state}
	case medium:
		return []widget.Column{name, kind, {Title: "Id", Width: 8}, {Title: "Created", Width: 10}, state}
	}
	return []widget.Column{name, kind, state}
}

// SetSize implements ui.Screen.
func (m *Screen) SetSize(w, h int) {
	m.w, m.h = w, h
	if c := classify(w); c != m.width {
		m.width = c
		m.table.SetColumns(columns(c)...)
		m.rebuild()
	}
	m.table.SetSize(w, max(h-2, 0))
}

// View implements ui.Screen.
func (m *Screen) View() string {
	t := m.s.Styles()
	title := t.Title.Render("Accounts") + t.Muted.Render(fmt.Sprintf(" · %d sub-accounts · operating %s", len(m.subs), m.s.AccountName()))
	switch {
	case m.err != nil:
		title = t.Error.Render("✗ Could not list sub-accounts: "+ui.ErrorText(m.err)) + t.Muted.Render(" · r retries")
	case !m.loaded:
		title = t.Title.Render("Accounts") + t.Muted.Render(" · "+widget.SpinnerFrame(m.s.Now())+" loading…")
	case m.more:
		title += t.Warn.Render(" · more exist than are listed: filter by name")
	}
	hint := t.Muted.Render("enter operates the selected account · S opens the switcher anywhere")
	return ui.Fit(title+"\n"+hint+"\n"+m.table.View(), m.w, m.h)
}
