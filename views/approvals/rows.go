package approvals

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/ui/widget"
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
	m.table.SetItems(items)
}

// rebuild lists the operations again, after one changed.
func (m *Screen) rebuild() { m.show(slices.Clone(m.table.Items())) }

// row draws an operation in the columns shown at this width.
func (m *Screen) row(it *item) widget.Row {
	amt := strings.ToLower(it.op.OperationType)
	if it.quote != nil {
		amt = it.quote.Short()
	}
	who := requesterName(it.op.RequesterEmail)
	if m.marked[it.op.ID.String()] {
		// The selection for a batch approval shows in the first column
		// shown at every width.
		who, amt = "● "+who, "● "+amt
		if m.shown == nil || m.shown[0] == 0 {
			amt = amt[len("● "):]
		} else {
			who = who[len("● "):]
		}
	}
	cells := []string{who, amt, destinationOf(it.op, it.quote).Short(),
		fmt.Sprintf("%d/%d", it.op.Approvals, it.op.MinApprovals), age(m.s.Now(), it.op.CreatedAt.Time),
		accountName(it.op), string(it.op.Status)}
	if m.shown != nil {
		cells = pick(cells, m.shown)
	}
	return widget.Row{Cells: cells, Disabled: m.own(it)}
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
