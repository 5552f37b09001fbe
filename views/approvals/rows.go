package approvals

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/ui/widget"
	"github.com/tesouro-treasury/tesouro/views/internal/listing"
)

// show lists items: pending first, each group in the service's order.
func (m *Screen) show(items []*item) {
	slices.SortStableFunc(items, func(a, b *item) int {
		pa, pb := a.op.Status == api.OperationPending, b.op.Status == api.OperationPending
		switch {
		case pa && !pb:
			return -1
		case pb && !pa:
			return 1
		}
		return a.pos - b.pos
	})
	if shown, cols := layout(m.width, items, m.s.Now(), len(m.marked)); !slices.Equal(shown, m.shown) || !slices.Equal(cols, m.cols) {
		m.shown, m.cols = shown, cols
		m.table.SetColumns(cols...)
	}
	m.table.SetItems(items)
}

// fit lays the inbox out again for its width.
func (m *Screen) fit() {
	if shown, cols := layout(m.width, m.table.Items(), m.s.Now(), len(m.marked)); !slices.Equal(shown, m.shown) || !slices.Equal(cols, m.cols) {
		m.shown, m.cols = shown, cols
		m.table.Redraw(cols...)
	}
}

// allColumns are the inbox's columns, in the order of cells' cells; the
// widths given are the least each needs (its title), layout sizes them.
var allColumns = []widget.Column{
	colRequester:   {Title: "Requester"},
	colAmount:      {Title: "Amount"},
	colDestination: {Title: "Destination"},
	colApprovals:   {Title: "Appr", Width: 4, Right: true},
	colAge:         {Title: "Age", Right: true},
	colAccount:     {Title: "Account"},
	colStatus:      {Title: "Status", Width: 8, Status: true},
}

const (
	colRequester = iota
	colAmount
	colDestination
	colApprovals
	colAge
	colAccount
	colStatus
)

var (
	fullPick   = []int{colRequester, colAmount, colDestination, colApprovals, colAge, colAccount, colStatus}
	mediumPick = []int{colRequester, colAmount, colDestination, colApprovals, colAge, colStatus}
	smallPick  = []int{colAmount, colDestination, colStatus}
	narrowPick = []int{colAmount, colStatus}
	amountPick = []int{colAmount}
)

// markWidth is the room the batch selection's "● " takes in the first
// column shown.
const markWidth = 2

const (
	// destinationMin is the least room the destination is shown in: the
	// issue asks for it in the list, and fewer cells would not tell one
	// beneficiary from another.
	destinationMin = 10
	// destinationWant is the room a destination gets before the account
	// is shown: a PIX key or a beneficiary's name with its bank.
	destinationWant = 32
	// requesterMax bounds the requester (the detail shows the whole
	// e-mail); accountMin is the account's title.
	requesterMax = 12
	accountMin   = 7
	gutter       = 2 // the table's cursor marker
)

// layout is which cells the inbox shows at width w and their columns, with
// marked the number of operations selected for a batch. The amount is as
// wide as its longest text and never cut; the requester, the age and the
// account are as wide as theirs, within bounds; the destination takes what
// is left. As the width shrinks the account shrinks first, then goes; then
// the requester, the approvals and the age go (the detail shows them);
// below destinationMin the destination goes too and the amount and the
// status stay. Where an operation's two amounts do not fit the amount's
// room there, its row shows the amount sent alone (see row), whole; the
// status goes when even that does not fit beside it.
func layout(w int, items []*item, now time.Time, marked int) ([]int, []widget.Column) {
	need := make([]int, len(allColumns))
	for i, c := range allColumns {
		need[i] = max(c.Width, ansi.StringWidth(c.Title))
	}
	sends := 0
	for _, it := range items {
		for i, c := range cellsOf(it, now) {
			need[i] = max(need[i], ansi.StringWidth(c))
		}
		sends = max(sends, ansi.StringWidth(sentOf(it)))
	}
	if marked > 0 {
		need[colAmount] += markWidth
		sends += markWidth
	}
	need[colRequester] = min(need[colRequester], requesterMax)
	cols := slices.Clone(allColumns)
	for _, i := range []int{colRequester, colAmount, colAge} {
		cols[i].Width = need[i]
	}
	room := func(pick []int) int { // cells left for the destination and the account
		r := w - gutter - (len(pick) - 1)
		for _, i := range pick {
			if i != colDestination && i != colAccount {
				r -= cols[i].Width
			}
		}
		return r
	}
	// The destination gets its longest text (up to destinationWant)
	// before the account is shown; the account then gets what is left,
	// down to its title, and the destination the rest.
	want := max(min(need[colDestination], destinationWant), destinationMin)
	if r := room(fullPick); r >= want+accountMin {
		cols[colAccount].Width = max(min(r-want, need[colAccount]), accountMin)
		return fullPick, listing.Pick(cols, fullPick)
	}
	if room(mediumPick) >= destinationMin {
		return mediumPick, listing.Pick(cols, mediumPick)
	}
	if room(smallPick) >= destinationMin {
		return smallPick, listing.Pick(cols, smallPick)
	}
	// The amount takes the room the status leaves, if the amounts sent
	// fit there; else the status goes.
	avail, status := w-gutter, cols[colStatus].Width+1
	if need[colAmount]+status <= avail || sends+status <= avail {
		cols[colAmount].Width = max(avail-status, 1)
		return narrowPick, listing.Pick(cols, narrowPick)
	}
	cols[colAmount].Width = max(avail, 1)
	return amountPick, listing.Pick(cols, amountPick)
}

// sentOf is the amount an operation sends, what its row shows where its
// two amounts do not fit: its operation type when it has no quote.
func sentOf(it *item) string {
	if it.quote == nil {
		return strings.ToLower(it.op.OperationType)
	}
	return it.quote.Sends()
}

// rebuild lists the operations again, after one changed.
func (m *Screen) rebuild() { m.show(slices.Clone(m.table.Items())) }

// row draws an operation in the columns shown at this width. The batch
// selection shows in the first column shown, at every width.
func (m *Screen) row(it *item) widget.Row {
	cells := cellsOf(it, m.s.Now())
	first, mark := colRequester, ""
	if len(m.shown) > 0 {
		first = m.shown[0]
	}
	if m.marked[it.op.ID.String()] {
		mark = "● "
	}
	// Both amounts where they fit whole, else the amount sent alone: an
	// amount is never cut (the detail shows the other).
	if i := slices.Index(m.shown, colAmount); i >= 0 {
		room := m.cols[i].Width
		if first == colAmount {
			room -= ansi.StringWidth(mark)
		}
		if ansi.StringWidth(cells[colAmount]) > room {
			cells[colAmount] = sentOf(it)
		}
	}
	cells[first] = mark + cells[first]
	if m.shown != nil {
		cells = listing.Pick(cells, m.shown)
	}
	return widget.Row{Cells: cells, Disabled: m.own(it)}
}

// cellsOf are the cells of an operation in allColumns' order, unmarked.
func cellsOf(it *item, now time.Time) []string {
	amt := strings.ToLower(it.op.OperationType)
	if it.quote != nil {
		amt = it.quote.Short()
	}
	return []string{requesterName(it.op.RequesterEmail), amt, destinationOf(it.op, it.quote).Short(),
		fmt.Sprintf("%d/%d", it.op.Approvals, it.op.MinApprovals), age(now, it.op.CreatedAt.Time),
		accountName(it.op), string(it.op.Status)}
}

// requesterName is the part of the e-mail before "@": requesters of one
// business share the domain, and the detail shows the whole address.
func requesterName(email string) string {
	if i := strings.IndexByte(email, '@'); i > 0 {
		return email[:i]
	}
	return email
}

func accountName(op api.Operation) string {
	if op.SubAccountName != "" {
		return op.SubAccountName
	}
	if op.SubAccountID == "" || op.SubAccountID == uuid.Nil.String() {
		return "main"
	}
	return short(op.SubAccountID)
}

func short(id string) string {
	if len(id) > 8 {
		return id[:8]
	}
	return id
}

// age is a compact duration since t ("45s", "12m", "3h", "2d").
func age(now, t time.Time) string {
	if t.IsZero() {
		return ""
	}
	d := now.Sub(t)
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", max(int(d.Seconds()), 0))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh", int(d.Hours()))
	}
	return fmt.Sprintf("%dd", int(d.Hours()/24))
}
