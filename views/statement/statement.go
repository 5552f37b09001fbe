// Package statement is the ledger of the operated account: every balance
// change the service recorded (GET /v2/account/statement) with the balance
// it left, one token at a time or all together, between two dates. It
// pages as the cursor moves or to the end with G, as every list does, checks that the
// loaded entries add up (the changes equal the difference between the
// closing and the opening balance, and the latest balance equals the
// account's balance now), and exports what the filters match as CSV.
package statement

import (
	"context"
	"slices"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/money"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/ui/widget"
	"github.com/tesouro-treasury/tesouro/views/internal/listing"
)

// requestTimeout bounds the balances request.
const requestTimeout = 15 * time.Second

// exportTimeout bounds an export, which reads every page of the range.
const exportTimeout = 2 * time.Minute

// skipPages bounds how many pages one request reads to find entries of the
// chosen token: the service has no token filter, so a page of other tokens
// only is skipped, but a request never runs through the whole ledger.
const skipPages = 10

// Model is the Statement screen.
type Model struct {
	s    *ui.Session
	svc  Service
	list *listing.List[api.StatementLog]
	bar  *widget.FilterBar

	// tokens are the tabs: "" (every token) then the account's
	// currencies in catalogue order; tok is the one on screen.
	tokens []string
	tok    int

	balReq   ui.Slot
	balances api.Balances
	balErr   error

	exportReq ui.Slot
	note      string // the last export, on the count line

	detail listing.Detail[api.StatementLog]

	width, height int
	layout        listing.Layout
	keys          keyMap
}

type keyMap struct {
	Prev, Next, Open, Back, Filters, Clear, Reload, Export, Ticket, Copy key.Binding
	Scroll                                                               listing.ScrollKeys
}

// New builds the Statement for a session.
func New(s *ui.Session, svc Service) ui.Screen {
	m := &Model{
		s:      s,
		svc:    svc,
		tokens: []string{""},
		bar:    widget.NewFilterBar(listing.CreatedFrom(), listing.CreatedTo()),
		keys: keyMap{
			Prev:    ui.Binding("←", "previous token", "left"),
			Next:    ui.Binding("→", "next token", "right"),
			Open:    ui.Binding("enter", "details", "enter"),
			Back:    ui.Binding("esc", "back to the list", "esc", "backspace"),
			Filters: ui.Binding("f", "date filters", "f"),
			Clear:   ui.Binding("x", "clear filters", "x"),
			Reload:  ui.Binding("r", "reload", "r"),
			Export:  ui.Binding("e", "export CSV", "e"),
			Ticket:  ui.Binding("t", "open ticket", "t"),
			Copy:    ui.Binding("y", "copy id", "y"),
			Scroll:  listing.NewScrollKeys(),
		},
	}
	m.list = listing.New(s, "entries", func(l api.StatementLog) string { return l.ID }, m.row, m.query, layouts.Full...)
	m.list.SetBar(m.bar, m.reset)
	m.list.Extra = m.summaryLines
	m.bar.SetCheck(listing.CheckCreated(m.loc))
	return m
}

func (m *Model) loc() *time.Location { return m.s.Now().Location() }

// token is the token on screen, "" for every token.
func (m *Model) token() string { return m.tokens[m.tok] }

// ID implements ui.Screen.
func (m *Model) ID() string { return "statement" }

// Title implements ui.Screen.
func (m *Model) Title() string { return "Statement" }

// Init loads the balances (they name the tabs) and the first page.
func (m *Model) Init() tea.Cmd { return tea.Batch(m.loadBalances(), m.reset()) }

// Capturing is true while the filter form is open.
func (m *Model) Capturing() bool { return m.bar.Active() }

// Busy implements ui.Screen: an export on its way is lost by quitting.
func (m *Model) Busy() bool { return m.exportReq.Waiting() }

// Filterable says the list takes the / filter.
func (m *Model) Filterable() bool { return true }

// SetSize implements ui.Screen.
func (m *Model) SetSize(w, h int) {
	m.width, m.height = max(w, 0), max(h, 0)
	if l := layouts.For(m.width); l != m.layout {
		m.layout = l
		m.list.Redraw(layouts.Columns(l)...)
	}
	m.relayout()
	m.bar.SetWidth(m.width)
}

// relayout gives the list what the tabs leave (the summary lines over the
// table change with the token and the data).
func (m *Model) relayout() { m.list.SetSize(m.width, max(m.height-1, 0)) }

// reset drops the list and asks for its first page under the token and
// dates applied now; answers to earlier requests are dropped.
func (m *Model) reset() tea.Cmd {
	m.note = "" // it told of an export of other entries
	switch {
	case !m.bar.Empty():
		m.list.SetEmpty("no entries between these dates (x clears them)")
	case m.token() != "":
		m.list.SetEmpty("no " + m.token() + " entries in " + m.s.AccountName())
	default:
		m.list.SetEmpty("no entries in the statement of " + m.s.AccountName())
	}
	return m.list.Reload()
}

func (m *Model) loadBalances() tea.Cmd {
	svc, account := m.svc, m.s.Account.ID
	return ui.Fetch(m.s, &m.balReq, requestTimeout, func(ctx context.Context) (api.Balances, error) {
		return svc.Balances(ctx, account)
	})
}

// filter is the service's query under the dates applied now.
func (m *Model) filter() (api.StatementFilter, error) {
	f := api.StatementFilter{SubAccountID: m.s.Account.ID}
	var err error
	f.CreatedAfter, f.CreatedBefore, err = listing.Created(m.bar.Value(listing.FromKey), m.bar.Value(listing.ToKey), m.loc())
	return f, err
}

// query is the request of the page at cursor, fixed now by value. The
// service has no token filter: the entries of other tokens are left out
// here, and a page holding none of the token's is followed by the next
// (up to skipPages) so that the list does not stop on an empty page.
func (m *Model) query(cursor string) (listing.PageCall[api.StatementLog], error) {
	f, err := m.filter()
	if err != nil {
		return nil, err
	}
	f.Cursor = cursor
	svc, token := m.svc, m.token()
	return func(ctx context.Context) (api.Page[api.StatementLog], error) {
		return tokenPage(ctx, svc, f, token)
	}, nil
}

func tokenPage(ctx context.Context, svc Service, f api.StatementFilter, token string) (api.Page[api.StatementLog], error) {
	for range skipPages {
		p, err := svc.Statement(ctx, f)
		if err != nil || token == "" {
			return p, err
		}
		p.Items = slices.DeleteFunc(p.Items, func(l api.StatementLog) bool { return l.Token != token })
		if len(p.Items) > 0 || !p.More() || p.Cursor == f.Cursor {
			return p, nil
		}
		f.Cursor = p.Cursor
	}
	return api.Page[api.StatementLog]{Cursor: f.Cursor}, nil
}

// switchToken shows the tab d steps away and loads its entries.
func (m *Model) switchToken(d int) tea.Cmd {
	if len(m.tokens) < 2 {
		return nil
	}
	m.tok = (m.tok + d + len(m.tokens)) % len(m.tokens)
	m.detail.Close()
	cmd := m.reset()
	m.relayout()
	return cmd
}

// setTokens names the tabs after the account's currencies, keeping the one
// on screen.
func (m *Model) setTokens(b api.Balances) {
	cur := m.token()
	tokens := []string{""}
	for _, c := range money.Currencies() {
		if _, ok := b[c]; ok {
			tokens = append(tokens, c)
		}
	}
	for c := range b {
		if !slices.Contains(tokens, c) {
			tokens = append(tokens, c)
		}
	}
	slices.Sort(tokens[1+countKnown(b):])
	if cur != "" && !slices.Contains(tokens, cur) {
		tokens = append(tokens, cur)
	}
	m.tokens, m.tok = tokens, max(slices.Index(tokens, cur), 0)
}

func countKnown(b api.Balances) int {
	n := 0
	for _, c := range money.Currencies() {
		if _, ok := b[c]; ok {
			n++
		}
	}
	return n
}
