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

// account is one row: the main account or a sub-account.
type account struct {
	acc     ui.Account // what operating it switches to
	rowID   string     // mainRowID, or the sub-account's id
	kind    string
	shownID string
	created string
}

// rebuild lists the main account and the loaded sub-accounts, narrowed by
// the / filter.
func (m *Screen) rebuild() {
	switch {
	case m.query != "":
		m.table.SetEmpty("no account matches “" + m.query + "”")
	case m.loaded && m.err == nil:
		m.table.SetEmpty("no accounts")
	}
	all := make([]account, 0, len(m.subs)+1)
	mainID := ""
	for _, a := range m.s.Accounts {
		if a.MainAccountID == "" {
			mainID = a.ID.String()
		}
	}
	all = append(all, account{acc: ui.Account{ID: uuid.Nil, Name: m.mainName()}, rowID: mainRowID, kind: "main", shownID: mainID})
	for _, sa := range m.subs {
		a := account{acc: ui.Account{ID: sa.SubAccountID, Name: sa.AccountInfo.Name}, rowID: sa.SubAccountID.String(),
			kind: strings.ToLower(sa.AccountInfo.AccountType), shownID: sa.SubAccountID.String()}
		if !sa.CreatedAt.IsZero() {
			a.created = sa.CreatedAt.Local().Format("2006-01-02")
		}
		all = append(all, a)
	}
	m.table.SetItems(fuzzyFilter(all, m.query))
}

// fuzzyFilter keeps the accounts whose name (and type) match q fuzzily,
// best match first; an empty q keeps every account in its order.
func fuzzyFilter(all []account, q string) []account {
	if strings.TrimSpace(q) == "" {
		return all
	}
	type scored struct {
		a     account
		score int
	}
	var ms []scored
	for _, a := range all {
		if sc, ok := ui.FuzzyMatch(q, a.acc.Name+" "+a.kind); ok {
			ms = append(ms, scored{a, sc})
		}
	}
	sort.SliceStable(ms, func(i, j int) bool { return ms[i].score > ms[j].score })
	out := make([]account, len(ms))
	for i, m := range ms {
		out[i] = m.a
	}
	return out
}

// blacklisted reports whether this access may not operate a.
func (m *Screen) blacklisted(a account) bool { return m.s.WithAccount(a.acc).Blacklisted() }

// row draws an account in the columns of the width.
func (m *Screen) row(a account) widget.Row {
	state := ""
	disabled := m.blacklisted(a)
	switch {
	case disabled:
		state = "blacklisted"
	case a.acc.ID == m.s.Account.ID:
		state = "● operating"
	}
	var cells []string
	switch m.width {
	case wide:
		cells = []string{a.acc.Name, a.kind, a.shownID, a.created, state}
	case medium:
		cells = []string{a.acc.Name, a.kind, shortID(a.shownID), a.created, state}
	default:
		cells = []string{a.acc.Name, a.kind, state}
	}
	return widget.Row{Cells: cells, Disabled: disabled}
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
		m.table.Redraw(columns(c)...)
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
