// Package approvals is the Approvals screen: the inbox of multi-signature
// operations the caller may decide, each with what it would do (amounts,
// pair, fees, where the money goes, the parked request) and every
// approver's state. The inbox is live: it reloads every few seconds while
// shown and less often behind other screens, and a new operation is told on
// any screen. Approving fetches the operation again and asks for a
// confirmation built on that answer, which repeats what is approved, says
// whether this approval executes the ticket and takes only "y"; several
// operations selected with space are approved behind one confirmation.
// Rejecting needs a reason; the caller's own requests are shown but can never
// be approved. Every decision is written to the local journal, one line each.
package approvals

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/ui/widget"
	"github.com/tesouro-treasury/tesouro/views/internal/listing"
)

// item is one operation of the inbox with what is known of it.
type item struct {
	op     api.Operation  // from the list, or the latest detail
	detail *api.Operation // nil until the detail has loaded
	quote  *quote
	// sending is true while an approve or reject of it is under way.
	sending bool
	// pos is where the service listed it; one it omits (opened by
	// navigation) comes after those it lists.
	pos int
}

type keyMap struct {
	Open, Back, Approve, Reject, Ticket, Refresh, Mark, MarkAll, ScrollUp, ScrollDown, Mine, Inbox key.Binding
}

// Screen is the Approvals screen.
type Screen struct {
	s   *ui.Session
	svc Service
	// table holds the operations in the order shown (pending first, each
	// group in the service's order).
	table *listing.Table[*item]

	// listing awaits the latest inbox load, fill the
	// details that load asked for, and details the latest detail of each
	// operation: an older answer, or one of another account's screen, is
	// dropped. Decisions are taken from any request of this session (each
	// names its operation).
	listing, fill ui.Slot
	details       map[string]*ui.Slot
	loaded        bool
	err           error

	open   string // operation shown in the detail view, "" for the list
	scroll int
	// focus is an operation asked for by navigation, selected once known.
	focus string
	// after is an action to offer once the detail of that operation loads
	// (the confirmation needs the decoded quote and the beneficiary).
	after struct{ id, action string }

	// visible is whether the screen is the one shown: it then polls every
	// visibleEvery, else every backgroundEvery. polling awaits the next
	// poll of the live loop; a loop armed before the last change of
	// visibility is replaced, and stops.
	visible bool
	polling ui.Slot
	// askedAt is when the inbox was last asked for: shown again just
	// after, it is not asked for twice.
	askedAt time.Time
	// deferred is a load held until the access info says whether this
	// access is an approver; notApprover is its answer when it is not (no
	// request is sent then: the service would answer 403).
	deferred, accessFailed, notApprover bool
	// seen are the operations of the last load; the first load only sets
	// it, later ones notify the ones new and waiting for this approver.
	seen     map[string]bool
	baseline bool
	// marked are the operations selected with space for a batch approval;
	// batch awaits their fresh detail before the confirmation.
	marked map[string]bool
	batch  ui.Slot

	// mine is the My requests tab (requests.go), shown instead of the
	// inbox while showMine; chosen is set once the user picked a tab
	// (else the access decides: a requester who is no approver gets it).
	mine             *requests
	showMine, chosen bool

	email  string          // the caller's e-mail the rows were built for
	shown  []int           // cells shown at this width, as indexes into allColumns
	cols   []widget.Column // their columns, sized to the rows
	width  int
	height int
	keys   keyMap
}

// New builds the screen for a session.
func New(s *ui.Session, svc Service) ui.Screen {
	m := &Screen{s: s, svc: svc, details: map[string]*ui.Slot{}, width: 80, height: 24, visible: true,
		seen: map[string]bool{}, marked: map[string]bool{}}
	m.table = listing.NewTable(func(it *item) string { return it.op.ID.String() }, m.row)
	m.table.SetEmpty("no operation waits for you")
	m.table.SetStyles(s.Styles().TableStyles())
	m.keys = keyMap{
		Open:       key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "details")),
		Back:       key.NewBinding(key.WithKeys("esc", "backspace"), key.WithHelp("esc", "back to the inbox")),
		Approve:    key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "approve")),
		Reject:     key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "reject")),
		Ticket:     key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "open the ticket")),
		Refresh:    key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "refresh")),
		Mark:       key.NewBinding(key.WithKeys("space"), key.WithHelp("space", "select for a batch approval")),
		MarkAll:    key.NewBinding(key.WithKeys("*"), key.WithHelp("*", "select all shown")),
		ScrollUp:   key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/↓", "scroll")),
		ScrollDown: key.NewBinding(key.WithKeys("down", "j")),
		Mine:       key.NewBinding(key.WithKeys("m"), key.WithHelp("m", "my requests")),
		Inbox:      key.NewBinding(key.WithKeys("m"), key.WithHelp("m", "the approval inbox")),
	}
	m.mine = newRequests(s, svc)
	m.SetSize(m.width, m.height)
	return m
}

// ID implements ui.Screen.
func (m *Screen) ID() string { return "approvals" }

// Title carries the number of operations still pending.
func (m *Screen) Title() string {
	if n := m.Pending(); n > 0 {
		return fmt.Sprintf("Approvals (%d)", n)
	}
	return "Approvals"
}

// Pending is the number of loaded operations still waiting for decisions.
func (m *Screen) Pending() int {
	n := 0
	for _, it := range m.table.Items() {
		if it.op.Status == api.OperationPending {
			n++
		}
	}
	return n
}

// Init loads the inbox, and the requests of this access.
func (m *Screen) Init() tea.Cmd {
	return tea.Batch(m.reload(), m.poll(), m.pickTab())
}

// pickTab shows My requests to an access that requests approvals but
// does not approve, until the user picks a tab; the tab loads when it
// comes on.
func (m *Screen) pickTab() tea.Cmd {
	if a := m.s.Access; a != nil && !m.chosen {
		p := a.AccountPermissions
		was := m.showMine
		m.showMine = p.OperationRequester && !p.OperationApprover
		if m.showMine && !was {
			return tea.Batch(m.mine.load(), m.mine.follow())
		}
	}
	return nil
}

// Filterable implements ui.Filterable: the root's / filter narrows the inbox.
func (m *Screen) Filterable() bool { return true }

// Capturing implements ui.Screen: the screen has no text input of its own
// (the reason of a rejection is asked by the root's prompt).
func (m *Screen) Capturing() bool { return false }

// Busy implements ui.Screen.
func (m *Screen) Busy() bool {
	for _, it := range m.table.Items() {
		if it.sending {
			return true
		}
	}
	return false
}

// SetSize implements ui.Screen.
func (m *Screen) SetSize(w, h int) {
	m.width, m.height = max(w, 1), max(h, 1)
	m.mine.setSize(m.width, m.height)
	m.table.SetSize(m.width, max(m.height-2, 1))
	m.fit()
}

// KeyMap implements ui.Screen.
func (m *Screen) KeyMap() []key.Binding {
	k := m.keys
	if m.showMine {
		return append([]key.Binding{k.Inbox}, m.mine.bindings(k)...)
	}
	it := m.current()
	k.Approve.SetEnabled(it != nil && m.approveBlock(it) == nil)
	k.Reject.SetEnabled(it != nil && m.rejectBlock(it) == nil)
	k.Ticket.SetEnabled(it != nil && it.op.ExecutedID != "")
	if m.open != "" {
		return []key.Binding{k.Back, k.Approve, k.Reject, k.Ticket, k.Refresh, k.ScrollUp, k.ScrollDown}
	}
	k.Open.SetEnabled(it != nil)
	k.Mark.SetEnabled(it != nil && (m.marked[it.op.ID.String()] || m.approveBlock(it) == nil))
	if n := len(m.marked); n > 0 {
		k.Approve.SetEnabled(true)
		k.Approve.SetHelp("a", fmt.Sprintf("approve the %d selected", n))
	}
	return append([]key.Binding{k.Open, k.Mark, k.MarkAll, k.Approve, k.Reject, k.Ticket, k.Refresh, k.Mine}, m.table.KeyMap()...)
}

// current is the operation in the detail view, else the selected row.
func (m *Screen) current() *item {
	if m.open != "" {
		return m.item(m.open)
	}
	it, _ := m.table.Selected()
	return it
}

// item is the operation with id, nil when it is not listed.
func (m *Screen) item(id string) *item {
	it, _ := m.table.Item(id)
	return it
}

func (m *Screen) myEmail() string {
	if m.s.Access == nil {
		return ""
	}
	return m.s.Access.Email
}

// own reports whether the caller requested the operation.
func (m *Screen) own(it *item) bool {
	me := m.myEmail()
	return me != "" && strings.EqualFold(strings.TrimSpace(it.op.RequesterEmail), strings.TrimSpace(me))
}

// approvedByMe reports whether the detail shows the caller's approval.
func (m *Screen) approvedByMe(it *item) bool {
	if it.detail == nil {
		return false
	}
	for _, a := range it.detail.Approvers {
		if a.HasApproved && strings.EqualFold(a.Email, m.myEmail()) {
			return true
		}
	}
	return false
}

// rejectBlock says why the caller may not reject the operation now.
func (m *Screen) rejectBlock(it *item) error {
	if err := m.s.Can(ui.ActApprove); err != nil {
		return err
	}
	if it.op.Status != api.OperationPending {
		return fmt.Errorf("already decided: %s", it.op.Status)
	}
	if m.own(it) {
		return errors.New("you requested this operation: another approver must decide it")
	}
	if it.sending {
		return errors.New("a decision on it is being sent")
	}
	return nil
}

// approveBlock says why the caller may not approve the operation now.
func (m *Screen) approveBlock(it *item) error {
	if err := m.rejectBlock(it); err != nil {
		return err
	}
	if m.approvedByMe(it) {
		return errors.New("you already approved it: waiting for another approver")
	}
	return nil
}
