package approvals

import (
	"context"
	"fmt"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/views/internal/listing"
)

// pollEvery is how often the inbox reloads by itself, so that the pending
// count on the tab follows what other requesters park.
const pollEvery = 30 * time.Second

// pollMsg is a poll armed by the screen of session s: the screen rebuilt
// for another account ignores its predecessor's.
type pollMsg struct{ s *ui.Session }

// detail is the answer for one operation's detail.
type detail struct {
	id string
	op *api.Operation
}

// poll arms the next reload; each pollMsg re-arms it once, so one loop runs
// per screen.
func (m *Screen) poll() tea.Cmd {
	s := m.s
	return m.s.After(pollEvery, func(time.Time) tea.Msg { return pollMsg{s: s} })
}

// reload asks for the whole inbox: the pending count needs every page.
func (m *Screen) reload() tea.Cmd {
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
		out := make([]*api.Operation, len(ids))
		var wg sync.WaitGroup
		next := make(chan int)
		for range min(detailWorkers, len(ids)) {
			wg.Go(func() {
				for i := range next {
					if op, err := svc.GetOperation(ctx, ids[i]); err == nil {
						out[i] = op
					}
				}
			})
		}
		for i := range ids {
			next <- i
		}
		close(next)
		wg.Wait()
		return out, nil
	})
}

func (m *Screen) fetchDetail(id string) tea.Cmd {
	uid, err := uuid.Parse(id)
	if err != nil {
		return ui.Toast(ui.ToastError, "Not an operation id: "+id)
	}
	sl := m.details[id]
	if sl == nil {
		sl = &ui.Slot{}
		m.details[id] = sl
	}
	svc := m.svc
	return ui.Fetch(m.s, sl, requestTimeout, func(ctx context.Context) (detail, error) {
		op, err := svc.GetOperation(ctx, uid)
		return detail{id: id, op: op}, err
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
		missing = append(missing, op.ID)
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
	return tea.Batch(m.fetchDetails(missing), m.s.Refreshed())
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
		if action == "approve" {
			return m.confirmApprove(m.item(id))
		}
	}
	return nil
}
