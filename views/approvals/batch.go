package approvals

import (
	"context"
	"fmt"
	"sort"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/views/internal/pixholder"
)

// A batch approval clears several operations with one confirmation, for
// the queue a batch of payouts parks (one operation per row). Each one is
// fetched again first, the confirmation lists each with its destination and
// whether this approval executes it, and each approval is sent and
// journalled on its own.

// mark selects or unselects an operation for a batch approval.
func (m *Screen) mark(it *item) tea.Cmd {
	if it == nil {
		return nil
	}
	id := it.op.ID.String()
	if m.marked[id] {
		delete(m.marked, id)
		m.rebuild()
		return nil
	}
	if err := m.approveBlock(it); err != nil {
		return ui.Toast(ui.ToastError, "Cannot select it: "+ui.ErrorText(err))
	}
	m.marked[id] = true
	m.rebuild()
	return nil
}

// markAll selects every operation shown (the / filter applies) that can be
// approved, or unselects them all when each one already is.
func (m *Screen) markAll() tea.Cmd {
	var can []string
	for _, r := range m.table.VisibleRows() {
		if it := m.item(r.ID); it != nil && m.approveBlock(it) == nil {
			can = append(can, r.ID)
		}
	}
	all := len(can) > 0
	for _, id := range can {
		all = all && m.marked[id]
	}
	for _, id := range can {
		if all {
			delete(m.marked, id)
		} else {
			m.marked[id] = true
		}
	}
	m.rebuild()
	if len(can) == 0 {
		return ui.Toast(ui.ToastInfo, "No operation shown can be approved by you")
	}
	return nil
}

// markedItems are the selected operations in the order shown.
func (m *Screen) markedItems() []*item {
	var out []*item
	for _, it := range m.table.Items() {
		if m.marked[it.op.ID.String()] {
			out = append(out, it)
		}
	}
	return out
}

// approveMarked fetches every selected operation again, with who each
// PIX payout reaches; the confirmation follows from those answers.
func (m *Screen) approveMarked() tea.Cmd {
	its := m.markedItems()
	if len(its) == 0 {
		return nil
	}
	ids := make([]uuid.UUID, len(its))
	for i, it := range its {
		ids[i] = it.op.ID
	}
	svc := m.svc
	return ui.Fetch(m.s, &m.batch, requestTimeout, func(ctx context.Context) (fresh, error) {
		out, errs := getAll(ctx, svc, ids)
		for _, err := range errs {
			if err != nil {
				return fresh{}, err
			}
		}
		holders := map[string]*pixholder.Lookup{}
		for _, op := range out {
			if h := holderOf(ctx, svc, op); h != nil {
				holders[op.ID.String()] = h
			}
		}
		return fresh{ops: out, holders: holders}, nil
	})
}

// fresh is the batch's operations fetched again, and who their PIX
// payouts reach by operation id.
type fresh struct {
	ops     []*api.Operation
	holders map[string]*pixholder.Lookup
}

// confirmBatch asks for one confirmation of the selected operations, from
// their fresh details: each with its amount, pair, destination (and the
// holder of a PIX payout), account and whether this approval executes it,
// then the totals per currency. The ones that can no longer be approved
// are named and left out.
func (m *Screen) confirmBatch(res ui.Result[fresh]) tea.Cmd {
	if res.Err != nil {
		return ui.Toast(ui.ToastError, "The selected operations could not be loaded again: "+ui.ErrorText(res.Err)+" (nothing was approved)")
	}
	var ok []*item
	var skipped []string
	for _, op := range res.Value.ops {
		it := m.setDetail(op)
		if err := m.approveBlock(it); err != nil {
			delete(m.marked, op.ID.String())
			skipped = append(skipped, short(op.ID.String())+": "+ui.ErrorText(err))
			continue
		}
		ok = append(ok, it)
	}
	m.rebuild()
	if len(ok) == 0 {
		return ui.Toast(ui.ToastError, "None of the selected operations can be approved now: "+strings.Join(skipped, "; "))
	}
	th := m.s.Styles()
	sends, receives := map[string]decimal.Decimal{}, map[string]decimal.Decimal{}
	executing := 0
	var lines []string
	for i, it := range ok {
		op, q := it.op, it.quote
		amt := "amount unknown"
		if q != nil {
			amt = q.Short() + " · " + q.price().String()
			sends[q.InputCurrency] = sends[q.InputCurrency].Add(q.InputAmount)
			receives[q.OutputCurrency] = receives[q.OutputCurrency].Add(q.OutputAmount)
		}
		l := fmt.Sprintf("%d. %s %s · %s · %s · ", i+1, short(op.ID.String()), amt, destinationOf(op, q).Line(op), accountName(op))
		if op.Approvals+1 >= op.MinApprovals {
			executing++
			l += th.Warn.Render(fmt.Sprintf("▶ EXECUTES NOW (%d of %d)", op.Approvals+1, op.MinApprovals))
		} else {
			l += fmt.Sprintf("%d of %d after yours", op.Approvals+1, op.MinApprovals)
		}
		lines = append(lines, l)
		if h, ok := m.holderLine(res.Value.holders[op.ID.String()]); ok {
			lines = append(lines, "   Holder: "+h)
		}
	}
	head := fmt.Sprintf("%d approvals · %d execute a ticket now", len(ok), executing)
	if executing > 0 {
		head = th.Warn.Render(head)
	}
	body := []string{head, "Sends:    " + totals(sends), "Receives: " + totals(receives), ""}
	body = append(body, lines...)
	if len(skipped) > 0 {
		body = append(body, "", "Left out: "+strings.Join(skipped, "; "))
	}
	body = append(body, "", fmt.Sprintf("State as of %s · environment %s", m.s.Now().Local().Format("15:04:05"), strings.ToUpper(string(m.s.Env))))
	title := fmt.Sprintf("Approve %d operations?", len(ok))
	if executing > 0 {
		title = fmt.Sprintf("Approve %d operations? %d execute now", len(ok), executing)
	}
	onYes := m.decide(ok, "approve", "")
	return func() tea.Msg { return ui.ConfirmMsg{Title: title, Body: strings.Join(body, "\n"), OnYes: onYes} }
}

// totals lists amounts per currency, in currency order.
func totals(by map[string]decimal.Decimal) string {
	if len(by) == 0 {
		return "unknown"
	}
	curs := make([]string, 0, len(by))
	for c := range by {
		curs = append(curs, c)
	}
	sort.Strings(curs)
	out := make([]string, len(curs))
	for i, c := range curs {
		out[i] = amount(by[c], c)
	}
	return strings.Join(out, " + ")
}

// batchDecided takes the outcome of a batch approval: each approval's own,
// summed up in one toast.
func (m *Screen) batchDecided(res ui.Result[[]decision]) tea.Cmd {
	if !m.s.Owns(res) {
		return nil
	}
	var cmds []tea.Cmd
	approved, executed := 0, 0
	var failed []string
	// Each account whose operation moved is told, and the session's own
	// (the Overview counts the whole inbox).
	changed := map[uuid.UUID]ui.Changed{m.s.Account.ID: ui.ChangedOperations}
	for _, d := range res.Value {
		delete(m.marked, d.id)
		if it := m.item(d.id); it != nil {
			it.sending = false
		}
		if d.journalErr != nil {
			cmds = append(cmds, ui.Toast(ui.ToastError, "journal not written: "+ui.ErrorText(d.journalErr)))
		}
		if d.err != nil {
			failed = append(failed, short(d.id)+": "+ui.ErrorText(d.err))
			cmds = append(cmds, m.fetchDetail(d.id))
			continue
		}
		approved++
		changed[d.account] |= ui.ChangedOperations
		if d.op != nil {
			m.setDetail(d.op)
			if d.op.Status == api.OperationExecuted {
				executed++
				changed[d.account] |= ui.ChangedTickets | ui.ChangedBalances
			}
		}
	}
	m.rebuild()
	text := fmt.Sprintf("Approved %d operations: %d executed, %d wait for more approvals", approved, executed, approved-executed)
	level := ui.ToastSuccess
	if len(failed) > 0 {
		text += fmt.Sprintf("; %d failed (%s)", len(failed), strings.Join(failed, "; "))
		level = ui.ToastError
	}
	cmds = append(cmds, ui.Toast(level, text), m.reload())
	for acct, what := range changed {
		cmds = append(cmds, ui.ChangedIn(acct, what, m.ID()))
	}
	return tea.Batch(cmds...)
}
