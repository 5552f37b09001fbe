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
)

// pollEvery is how often the inbox reloads by itself, so that the pending
// count on the tab follows what other requesters park.
const pollEvery = 30 * time.Second

type pollMsg struct{ instance int64 }

// poll arms the next reload; each pollMsg re-arms it once, so one loop runs
// per screen.
func (m *Screen) poll() tea.Cmd {
	id := m.instance
	return m.s.After(pollEvery, func(time.Time) tea.Msg { return pollMsg{instance: id} })
}

// call runs fn in a request bounded by requestTimeout, with the service as
// it is now: the command never reads the session.
func (m *Screen) call(fn func(ctx context.Context, svc api.Service) tea.Msg) tea.Cmd {
	svc := m.s.Client
	return m.s.Request(func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
		defer cancel()
		return fn(ctx, svc)
	})
}

func (m *Screen) reload() tea.Cmd {
	m.gen = int(requestSeq.Add(1))
	m.incoming, m.pages, m.loading = nil, 0, true
	return m.fetchPage(m.gen, "")
}

func (m *Screen) fetchPage(gen int, cursor string) tea.Cmd {
	return m.call(func(ctx context.Context, svc api.Service) tea.Msg {
		p, err := svc.ListApproverOperations(ctx, cursor)
		return pageMsg{gen: gen, page: p, err: err}
	})
}

// fetchDetails loads the detail of the given operations a few at a time, to
// show amounts and beneficiaries in the list.
func (m *Screen) fetchDetails(gen int, ids []uuid.UUID) tea.Cmd {
	if len(ids) == 0 {
		return nil
	}
	return m.call(func(ctx context.Context, svc api.Service) tea.Msg {
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
		return detailsMsg{gen: gen, details: out}
	})
}

func (m *Screen) fetchDetail(id string) tea.Cmd {
	uid, err := uuid.Parse(id)
	if err != nil {
		return ui.Toast(ui.ToastError, "Not an operation id: "+id)
	}
	m.detailSeq[id]++
	seq := m.detailSeq[id]
	return m.call(func(ctx context.Context, svc api.Service) tea.Msg {
		op, err := svc.GetOperation(ctx, uid)
		return detailMsg{id: id, seq: seq, op: op, err: err}
	})
}

func (m *Screen) page(msg pageMsg) tea.Cmd {
	if msg.gen != m.gen {
		return nil
	}
	if msg.err != nil {
		m.loading = false
		m.err = msg.err
		return nil
	}
	m.incoming = append(m.incoming, msg.page.Items...)
	m.pages++
	if msg.page.More() && m.pages < maxPages {
		return m.fetchPage(msg.gen, msg.page.Cursor)
	}
	m.loading, m.loaded, m.err = false, true, nil
	keep := make(map[string]*item, len(m.incoming))
	m.order = m.order[:0]
	var missing []uuid.UUID
	for _, op := range m.incoming {
		id := op.ID.String()
		it := m.items[id]
		if it == nil {
			it = &item{}
		}
		if _, dup := keep[id]; dup {
			continue
		}
		it.op = mergeList(it.op, op)
		keep[id] = it
		m.order = append(m.order, id)
		missing = append(missing, op.ID)
	}
	// An operation opened by navigation stays even if the inbox omits it.
	for _, id := range []string{m.open, m.focus} {
		if it := m.items[id]; id != "" && it != nil && keep[id] == nil {
			keep[id] = it
			m.order = append(m.order, id)
		}
	}
	m.items, m.incoming = keep, nil
	m.rebuild()
	if m.focus != "" && m.table.Select(m.focus) {
		m.focus = ""
	}
	return tea.Batch(m.fetchDetails(m.gen, missing), m.s.Refreshed())
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
	it := m.items[id]
	if it == nil {
		it = &item{}
		m.items[id] = it
		m.order = append(m.order, id)
	}
	it.op, it.detail = *op, op
	it.quote = decodeQuote(op.DecodedQuote)
	return it
}

func (m *Screen) detailArrived(msg detailMsg) tea.Cmd {
	if msg.seq != m.detailSeq[msg.id] {
		return nil
	}
	if msg.err != nil {
		if m.after.id == msg.id {
			m.after.id = ""
		}
		return ui.Toast(ui.ToastError, fmt.Sprintf("Operation %s could not be loaded: %v", short(msg.id), msg.err))
	}
	m.setDetail(msg.op)
	m.rebuild()
	if m.focus == msg.id && m.table.Select(msg.id) {
		m.focus = ""
	}
	if m.after.id == msg.id {
		action := m.after.action
		m.after.id = ""
		if action == "approve" {
			return m.confirmApprove(m.items[msg.id])
		}
	}
	return nil
}
