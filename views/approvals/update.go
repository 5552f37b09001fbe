package approvals

import (
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/views/internal/listing"
)

const (
	requestTimeout = 20 * time.Second
	// detailWorkers bounds the detail requests made to fill the list.
	detailWorkers = 4
)

// decision is the outcome of an approval or rejection of operation id.
type decision struct {
	id, action string
	account    uuid.UUID // the account the operation acts on
	op         *api.Operation
	journalErr error
	err        error
}

// Update implements ui.Screen.
func (m *Screen) Update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	if e := m.myEmail(); e != m.email {
		// The access info arrived or changed: own requests change with it.
		m.email = e
		m.rebuild()
	}
	switch msg.(type) {
	case ui.Result[mine], minePollMsg:
		return m, m.mine.update(msg, m.visible && m.showMine)
	case ui.ThemeChangedMsg:
		m.mine.update(msg, false)
	}
	switch msg := msg.(type) {
	case listing.WholeMsg[api.Operation]:
		return m, m.inbox(msg)
	case ui.Result[detail]:
		return m, m.detailArrived(msg)
	case pollMsg:
		if !m.polling.Take(msg) {
			return m, nil
		}
		cmds := []tea.Cmd{m.poll()}
		if !m.listing.Waiting() {
			cmds = append(cmds, m.reload())
		}
		if m.open != "" && m.visible {
			cmds = append(cmds, m.fetchDetail(m.open))
		}
		return m, tea.Batch(cmds...)
	case ui.ShownMsg:
		visible := msg.Screen == m.ID()
		if visible == m.visible {
			return m, nil
		}
		// A new loop at the new pace; shown again, the inbox is loaded now
		// rather than at the end of the slow loop's wait.
		m.visible = visible
		cmds := []tea.Cmd{m.poll()}
		if visible && m.showMine {
			cmds = append(cmds, m.mine.load(), m.mine.follow())
		}
		if visible && !m.listing.Waiting() && m.s.Now().Sub(m.askedAt) >= visibleEvery {
			cmds = append(cmds, m.reload())
		}
		return m, tea.Batch(cmds...)
	case ui.AccessLoadedMsg:
		m.accessFailed = msg.Err != nil
		tab := m.pickTab()
		if m.deferred {
			return m, tea.Batch(tab, m.reload())
		}
		return m, tab
	case ui.ChangedMsg:
		// An operation was parked from another screen: the inbox shows it.
		if msg.By == m.ID() || !msg.For(m.s, ui.ChangedOperations) {
			return m, nil
		}
		cmds := []tea.Cmd{m.reload()}
		if m.showMine {
			cmds = append(cmds, m.mine.load())
		}
		if m.open != "" {
			cmds = append(cmds, m.fetchDetail(m.open))
		}
		return m, tea.Batch(cmds...)
	case sendingMsg:
		if !m.s.Owns(msg) {
			return m, nil // confirmed on the screen of another account
		}
		for _, id := range msg.Value {
			if it := m.item(id); it != nil {
				it.sending = true
			}
		}
		return m, nil
	case ui.Result[decision]:
		return m, m.decided(msg)
	case ui.Result[fresh]:
		if m.batch.Take(msg) {
			return m, m.confirmBatch(msg)
		}
		return m, nil
	case ui.Result[[]*api.Operation]:
		m.filled(msg)
		return m, nil
	case ui.Result[[]decision]:
		return m, m.batchDecided(msg)
	case ui.NavigateMsg:
		if msg.Screen == m.ID() && msg.ID != "" {
			return m, m.navigate(msg.ID)
		}
		return m, nil
	case tea.KeyPressMsg:
		return m, m.key(msg)
	case ui.FilterMsg:
		return m, m.table.SetFilter(msg.Query)
	case ui.ThemeChangedMsg:
		m.table.SetStyles(m.s.Styles().TableStyles())
		return m, nil
	}
	return m, nil
}

// navigate selects and opens an operation, loading it when the inbox does
// not have it.
func (m *Screen) navigate(id string) tea.Cmd {
	if _, err := uuid.Parse(id); err != nil {
		return ui.Toast(ui.ToastError, "Not an operation id: "+id)
	}
	m.open, m.scroll = id, 0
	if !m.table.Select(id) {
		m.focus = id
	}
	return m.fetchDetail(id)
}

func (m *Screen) key(msg tea.KeyPressMsg) tea.Cmd {
	if msg.String() == "m" && m.open == "" {
		m.showMine, m.chosen = !m.showMine, true
		if m.showMine {
			return tea.Batch(m.mine.load(), m.mine.follow())
		}
		return nil
	}
	if m.showMine {
		switch {
		case key.Matches(msg, m.keys.Refresh):
			return m.mine.load()
		case msg.String() == "t":
			if id := m.mine.ticket(); id != "" {
				return ui.Navigate("tickets", id)
			}
			return nil
		}
		return m.mine.update(msg, true)
	}
	it := m.current()
	switch {
	case key.Matches(msg, m.keys.Refresh):
		cmds := []tea.Cmd{m.reload()}
		if m.open != "" {
			cmds = append(cmds, m.fetchDetail(m.open))
		}
		return tea.Batch(cmds...)
	case msg.String() == "a" && m.open == "" && len(m.marked) > 0:
		return m.approveMarked()
	case msg.String() == "a":
		return m.approve(it)
	case msg.String() == "space" && m.open == "":
		return m.mark(it)
	case key.Matches(msg, m.keys.MarkAll) && m.open == "":
		return m.markAll()
	case msg.String() == "x":
		return m.reject(it)
	case msg.String() == "t":
		if it == nil || it.op.ExecutedID == "" {
			return nil
		}
		return ui.Navigate("tickets", it.op.ExecutedID)
	}
	if m.open != "" {
		switch {
		case key.Matches(msg, m.keys.Back):
			m.open = ""
		case key.Matches(msg, m.keys.ScrollUp):
			m.scroll = max(m.scroll-1, 0)
		case key.Matches(msg, m.keys.ScrollDown):
			m.scroll++
		case msg.String() == "pgdown" || msg.String() == "space":
			m.scroll += max(m.height-3, 1)
		case msg.String() == "pgup":
			m.scroll = max(m.scroll-max(m.height-3, 1), 0)
		}
		return nil
	}
	if key.Matches(msg, m.keys.Open) && it != nil {
		m.open, m.scroll = it.op.ID.String(), 0
		return m.fetchDetail(m.open)
	}
	return m.table.Update(msg)
}
