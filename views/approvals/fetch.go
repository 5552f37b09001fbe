package approvals

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/views/internal/listing"
	"github.com/tesouro-treasury/tesouro/views/internal/pixholder"
)

// The inbox reloads by itself, faster while it is shown, so that the
// pending count on the tab and the Overview follow what requesters park and
// other approvers decide, and a new operation is told on any screen.
const (
	visibleEvery    = 5 * time.Second
	backgroundEvery = 30 * time.Second
)

// poll is one reload of the live loop, pollMsg its timer's firing, taken
// only by the slot awaiting it: the screen rebuilt for another account
// ignores its predecessor's, and a loop armed before the last change of
// visibility stops.
type (
	poll    struct{}
	pollMsg = ui.Result[poll]
)

// detail is the answer for one operation's detail.
type detail struct {
	id string
	op *api.Operation
	// holder is who its PIX payout reaches, looked up when the detail was
	// fetched to approve it (nil otherwise, or for another output).
	holder *pixholder.Lookup
	// today is its price now, asked when the detail was fetched to
	// approve it (nil otherwise).
	today *today
}

// poll arms the next reload of the live loop, replacing any armed before;
// each pollMsg of that loop re-arms it once, so one loop runs per screen.
func (m *Screen) poll() tea.Cmd {
	every := backgroundEvery
	if m.visible {
		every = visibleEvery
	}
	return ui.After(m.s, &m.polling, every, poll{})
}

// reload asks for the whole inbox (the pending count needs every page),
// once the access is known to be an approver's.
func (m *Screen) reload() tea.Cmd {
	switch a := m.s.Access; {
	case a == nil && !m.accessFailed:
		m.deferred = true
		return nil
	case a != nil && !a.AccountPermissions.OperationApprover:
		m.deferred, m.notApprover = false, true
		return nil
	}
	m.deferred, m.notApprover = false, false
	m.askedAt = m.s.Now()
	return listing.FetchWhole(m.s, &m.listing, requestTimeout, m.svc.ListApproverOperations)
}

// fetchDetails loads the detail of the given operations a few at a time, to
// show amounts and beneficiaries in the list.
func (m *Screen) fetchDetails(ids []uuid.UUID) tea.Cmd {
	if len(ids) == 0 {
		m.fill.Cancel()
		return nil
	}
	svc := m.svc
	return ui.Fetch(m.s, &m.fill, requestTimeout, func(ctx context.Context) ([]*api.Operation, error) {
		out, _ := getAll(ctx, svc, ids)
		return out, nil
	})
}

// getAll fetches the detail of each operation, detailWorkers at a time;
// out[i] is nil where errs[i] says why.
func getAll(ctx context.Context, svc Service, ids []uuid.UUID) (out []*api.Operation, errs []error) {
	out, errs = make([]*api.Operation, len(ids)), make([]error, len(ids))
	var wg sync.WaitGroup
	next := make(chan int)
	for range min(detailWorkers, len(ids)) {
		wg.Go(func() {
			for i := range next {
				out[i], errs[i] = svc.GetOperation(ctx, ids[i])
			}
		})
	}
	for i := range ids {
		next <- i
	}
	close(next)
	wg.Wait()
	return out, errs
}

func (m *Screen) fetchDetail(id string) tea.Cmd { return m.fetchDetailFor(id, false) }

// fetchDetailFor fetches the detail of operation id and, withHolder, who
// its PIX payout reaches (for the approval's confirmation).
func (m *Screen) fetchDetailFor(id string, withHolder bool) tea.Cmd {
	uid, err := uuid.Parse(id)
	if err != nil {
		return ui.Toast(ui.ToastError, "Not an operation id: "+id)
	}
	sl := m.details[id]
	if sl == nil {
		sl = &ui.Slot{}
		m.details[id] = sl
	}
	svc, accounts := m.svc, slices.Clone(m.s.Accounts)
	return ui.Fetch(m.s, sl, requestTimeout, func(ctx context.Context) (detail, error) {
		op, err := svc.GetOperation(ctx, uid)
		d := detail{id: id, op: op}
		if err == nil && withHolder {
			d.holder = holderOf(ctx, svc, op)
			t := priceToday(ctx, svc, op, accountOf(accounts, *op))
			d.today = &t
		}
		return d, err
	})
}

// inbox takes the whole inbox, merged with the details already loaded.
func (m *Screen) inbox(msg listing.WholeMsg[api.Operation]) tea.Cmd {
	if !m.listing.Take(msg) {
		return nil
	}
	if msg.Err != nil {
		m.err = msg.Err
		return nil
	}
	m.loaded, m.err = true, nil
	ops := msg.Value.Items
	news, changed := m.news(ops)
	keep := make(map[string]bool, len(ops))
	fresh := make([]*item, 0, len(ops)+2)
	var missing []uuid.UUID
	for _, op := range ops {
		id := op.ID.String()
		if keep[id] {
			continue
		}
		it := m.item(id)
		if it == nil {
			it = &item{}
		}
		it.op, it.pos = mergeList(it.op, op), len(fresh)
		keep[id] = true
		fresh = append(fresh, it)
		if it.detail == nil || it.detail.Status != op.Status || it.detail.Approvals != op.Approvals {
			missing = append(missing, op.ID)
		}
	}
	// An operation opened by navigation stays even if the inbox omits it.
	for _, id := range []string{m.open, m.focus} {
		if it := m.item(id); id != "" && it != nil && !keep[id] {
			keep[id], it.pos = true, len(fresh)
			fresh = append(fresh, it)
		}
	}
	m.show(fresh)
	if m.focus != "" && m.table.Select(m.focus) {
		m.focus = ""
	}
	for id := range m.marked {
		if it := m.item(id); it == nil || m.approveBlock(it) != nil {
			delete(m.marked, id)
		}
	}
	cmds := []tea.Cmd{m.fetchDetails(missing), m.s.Refreshed(), news}
	if changed {
		// The Overview counts the same inbox: it loads it again.
		cmds = append(cmds, ui.ChangedIn(m.s.Account.ID, ui.ChangedOperations, m.ID()))
	}
	return tea.Batch(cmds...)
}

// news compares a load with the one before: it returns the notification
// of the operations that are new and wait for this approver, and whether
// the pending ones changed. The first load only sets what was seen: what
// already waited at start is on the tab, not news.
func (m *Screen) news(ops []api.Operation) (tea.Cmd, bool) {
	seen := make(map[string]bool, len(ops))
	var fresh []api.Operation
	changed := false
	for _, op := range ops {
		id := op.ID.String()
		seen[id] = true
		prev := m.item(id)
		if op.Status == api.OperationPending && !m.seen[id] {
			changed = true
			if !m.own(&item{op: op}) {
				fresh = append(fresh, op)
			}
		}
		if prev != nil && (prev.op.Status != op.Status || prev.op.Approvals != op.Approvals) {
			changed = true
		}
	}
	for id := range m.seen {
		if !seen[id] {
			changed = true
		}
	}
	first := !m.baseline
	m.seen, m.baseline = seen, true
	if first || len(fresh) == 0 {
		return nil, changed && !first
	}
	text := fmt.Sprintf("New operation to approve from %s on %s: see Approvals", fresh[0].RequesterEmail, accountName(fresh[0]))
	if len(fresh) > 1 {
		text = fmt.Sprintf("%d new operations to approve, from %s and others: see Approvals", len(fresh), fresh[0].RequesterEmail)
	}
	return m.s.Notify("Tesouro: approval needed", text), true
}

// filled takes the details the latest load asked for.
func (m *Screen) filled(msg ui.Result[[]*api.Operation]) {
	if !m.fill.Take(msg) {
		return
	}
	for _, op := range msg.Value {
		if op != nil {
			m.setDetail(op)
		}
	}
	m.rebuild()
}

// mergeList takes a fresh list entry but keeps what only the detail has.
func mergeList(old, fresh api.Operation) api.Operation {
	if len(fresh.Approvers) == 0 {
		fresh.Approvers = old.Approvers
	}
	if len(fresh.DecodedQuote) == 0 {
		fresh.DecodedQuote = old.DecodedQuote
	}
	if len(fresh.Beneficiary) == 0 {
		fresh.Beneficiary = old.Beneficiary
	}
	return fresh
}

func (m *Screen) setDetail(op *api.Operation) *item {
	id := op.ID.String()
	it := m.item(id)
	if it == nil {
		it = &item{pos: len(m.table.Items())}
		m.table.Put(it)
	}
	it.op, it.detail = *op, op
	it.quote = decodeQuote(op.DecodedQuote)
	return it
}

func (m *Screen) detailArrived(msg ui.Result[detail]) tea.Cmd {
	id := msg.Value.id
	if sl := m.details[id]; sl == nil || !sl.Take(msg) {
		return nil
	}
	if msg.Err != nil {
		if m.after.id == id {
			m.after.id = ""
		}
		return ui.Toast(ui.ToastError, fmt.Sprintf("Operation %s could not be loaded: %s", short(id), ui.ErrorText(msg.Err)))
	}
	m.setDetail(msg.Value.op)
	m.rebuild()
	if m.focus == id && m.table.Select(id) {
		m.focus = ""
	}
	if m.after.id == id {
		action := m.after.action
		m.after.id = ""
		switch action {
		case "approve":
			return m.confirmApprove(m.item(id), msg.Value.holder, msg.Value.today)
		case "reject":
			return m.promptReject(m.item(id))
		}
	}
	return nil
}
