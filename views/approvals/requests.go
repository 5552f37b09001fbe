package approvals

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/journal"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/ui/widget"
)

// My requests is the Approvals screen's other tab, for an access whose
// payments wait for approvers: the operations it requested, found in the
// local journal (which outlives the program) and followed on the service,
// each with its state, the approvals so far, who rejected it and why, and
// the ticket with its status once executed. An access that requests but
// does not approve opens the screen on it; m switches between the tabs.

// maxRequests bounds how many of the latest requests are followed.
const maxRequests = 50

// requestsEvery is how often the tab follows its requests while shown.
const requestsEvery = 10 * time.Second

// request is one operation this access requested.
type request struct {
	id      uuid.UUID
	at      time.Time
	account string // as the journal names it: "main" or an id
	amounts string // what the journal recorded: "input → output"
	op      *api.Operation
	err     error
	ticket  *api.Ticket // once executed
}

type (
	// mine is the answer of a load of the tab.
	mine struct{ rows []*request }
	// minePoll is the next follow-up of the tab, minePollMsg its firing.
	minePoll    struct{}
	minePollMsg = ui.Result[minePoll]
)

// requests is the tab's state.
type requests struct {
	s       *ui.Session
	svc     Service
	loading ui.Slot
	polling ui.Slot
	rows    []*request
	err     error
	loaded  bool
	at      time.Time // when the rows were read from the service
	table   *widget.Table
	w, h    int
}

// requestColumns are the tab's columns, the amounts as wide as the widest
// (the outcome, a reason, takes the rest).
func requestColumns(amounts int) []widget.Column {
	return []widget.Column{
		{Title: "Requested", Width: 11},
		{Title: "State", Width: 9, Status: true},
		{Title: "Approvals", Width: 9},
		{Title: "Amount", Width: amounts},
		{Title: "Outcome"},
	}
}

func newRequests(s *ui.Session, svc Service) *requests {
	t := widget.NewTable(requestColumns(len("Amount"))...)
	t.SetStyles(s.Styles().TableStyles())
	t.SetEmpty("no request of this access in the journal")
	return &requests{s: s, svc: svc, table: t}
}

// load reads the journal's requests of this access and follows each on
// the service.
func (r *requests) load() tea.Cmd {
	if r.s.Journal == nil {
		r.loaded, r.err = true, fmt.Errorf("no journal is kept: requests cannot be found")
		return nil
	}
	path, svc, env := r.s.Journal.Path(), r.svc, string(r.s.Env)
	email, profile := "", r.s.Profile
	if r.s.Access != nil {
		email = r.s.Access.Email
	}
	acct := "main"
	if !r.s.Account.Main() {
		acct = r.s.Account.ID.String()
	}
	account := r.s.Account.ID
	return ui.Fetch(r.s, &r.loading, requestTimeout, func(ctx context.Context) (mine, error) {
		es, err := journal.ReadFile(path)
		if err != nil {
			return mine{}, err
		}
		rows := requested(es, email, profile, env, acct)
		ids := make([]uuid.UUID, len(rows))
		for i, rq := range rows {
			ids[i] = rq.id
		}
		ops, errs := getAll(ctx, svc, ids)
		for i, rq := range rows {
			rq.op, rq.err = ops[i], errs[i]
			if op := rq.op; op != nil && op.Status == api.OperationExecuted {
				if tid, err := uuid.Parse(op.ExecutedID); err == nil {
					rq.ticket, _ = svc.GetTicket(ctx, account, tid)
				}
			}
		}
		return mine{rows: rows}, nil
	})
}

// requested are the operations the journal says this access parked in
// this environment and account, newest first, each once.
func requested(es []journal.Entry, email, profile, env, acct string) []*request {
	var out []*request
	seen := map[string]bool{}
	for _, e := range slices.Backward(es) {
		id := e.IDs["operationId"]
		if id == "" || seen[id] || !strings.HasPrefix(e.Outcome, "parked") || e.Env != env || e.Account != acct {
			continue
		}
		if (email != "" && e.Email != "" && !strings.EqualFold(e.Email, email)) || (e.Email == "" && e.Profile != profile) {
			continue
		}
		uid, err := uuid.Parse(id)
		if err != nil {
			continue
		}
		seen[id] = true
		rq := &request{id: uid, at: e.Time, account: e.Account}
		if in, out := e.Amounts["input"], e.Amounts["output"]; in != "" || out != "" {
			rq.amounts = strings.TrimSpace(in + " → " + out)
		}
		out = append(out, rq)
		if len(out) == maxRequests {
			break
		}
	}
	return out
}

// follow arms the tab's next follow-up.
func (r *requests) follow() tea.Cmd { return ui.After(r.s, &r.polling, requestsEvery, minePoll{}) }

// update takes the tab's answers; shown says whether the tab is on screen
// (it follows its requests only then).
func (r *requests) update(msg tea.Msg, shown bool) tea.Cmd {
	switch msg := msg.(type) {
	case ui.Result[mine]:
		if !r.loading.Take(msg) {
			return nil
		}
		r.loaded = true
		r.err = msg.Err
		if msg.Err == nil {
			r.rows, r.at = msg.Value.rows, r.s.Now()
			rows := r.tableRows()
			amounts := len("Amount")
			for _, row := range rows {
				amounts = max(amounts, lipgloss.Width(row.Cells[3]))
			}
			r.table.SetColumns(requestColumns(min(amounts, 48))...)
			r.table.SetRows(rows)
		}
		return nil
	case minePollMsg:
		if !r.polling.Take(msg) || !shown {
			return nil
		}
		cmds := []tea.Cmd{r.follow()}
		if !r.loading.Waiting() {
			cmds = append(cmds, r.load())
		}
		return tea.Batch(cmds...)
	case ui.ThemeChangedMsg:
		r.table.SetStyles(r.s.Styles().TableStyles())
	case tea.KeyPressMsg:
		return r.table.Update(msg)
	}
	return nil
}

func (r *requests) tableRows() []widget.Row {
	rows := make([]widget.Row, 0, len(r.rows))
	for _, rq := range r.rows {
		state, approvals, outcome := "?", "", ""
		switch op := rq.op; {
		case rq.err != nil:
			outcome = "not found on the service: " + ui.ErrorText(rq.err)
		case op != nil:
			state = string(op.Status)
			approvals = fmt.Sprintf("%d/%d", op.Approvals, op.MinApprovals)
			outcome = outcomeOf(op, rq.ticket)
		}
		rows = append(rows, widget.Row{ID: rq.id.String(), Cells: []string{
			rq.at.In(r.s.Now().Location()).Format("01-02 15:04"), state, approvals, rq.amounts, outcome,
		}})
	}
	return rows
}

// outcomeOf says what became of a request: who rejected it and why, the
// ticket it executed and that ticket's status, or who approved so far.
func outcomeOf(op *api.Operation, t *api.Ticket) string {
	switch op.Status {
	case api.OperationRejected:
		return op.Rejection()
	case api.OperationExecuted:
		s := "ticket " + op.ExecutedID
		if t != nil {
			s += " " + string(t.Status)
		}
		return s
	case api.OperationPending:
		if by := approvedBy(*op); len(by) > 0 {
			return "approved by " + strings.Join(by, ", ")
		}
		return "waiting for the approvers"
	}
	return op.Reason
}

// selected is the request under the cursor.
func (r *requests) selected() *request {
	row, ok := r.table.Selected()
	if !ok {
		return nil
	}
	for _, rq := range r.rows {
		if rq.id.String() == row.ID {
			return rq
		}
	}
	return nil
}

func (r *requests) setSize(w, h int) {
	r.w, r.h = w, h
	r.table.SetSize(w, max(h-3, 1))
}

// view is the tab: what it is and as of when, the table, and the whole
// outcome of the request under the cursor (a long reason is read there).
func (r *requests) view(tabs string) string {
	th := r.s.Styles()
	head := th.Title.Render("My requests")
	switch {
	case !r.loaded:
		head += th.Muted.Render(" · loading from the journal and the service…")
	case r.err != nil:
		head += " " + th.Error.Render("✗ "+ui.ErrorText(r.err)+" (r retries)")
	default:
		head += th.Muted.Render(fmt.Sprintf(" · %d requested · as of %s", len(r.rows), r.at.In(r.s.Now().Location()).Format("15:04:05")))
	}
	foot := ""
	if rq := r.selected(); rq != nil {
		foot = "Operation " + rq.id.String()
		switch op := rq.op; {
		case op != nil && op.Status == api.OperationRejected:
			foot += " · " + th.StatusWord(op.Status.Meaning(), op.Rejection())
		case op != nil:
			foot += " · " + th.StatusWord(op.Status.Meaning(), string(op.Status)) + " · " + outcomeOf(op, rq.ticket)
		}
	}
	// The whole outcome of the selected request, wrapped under the table:
	// a long reason is read there.
	footLines := strings.Split(lipgloss.NewStyle().Width(max(r.w, 1)).Render(foot), "\n")
	footLines = footLines[:min(len(footLines), max(r.h/3, 1))]
	r.table.SetSize(r.w, max(r.h-1-len(footLines), 1))
	lines := append([]string{tabs + "  " + head, r.table.View()}, footLines...)
	return ui.Fit(strings.Join(lines, "\n"), r.w, r.h)
}

// ticket is the ticket the selected request executed, "" when none.
func (r *requests) ticket() string {
	if rq := r.selected(); rq != nil && rq.op != nil && rq.op.Status == api.OperationExecuted {
		return rq.op.ExecutedID
	}
	return ""
}

// bindings are the tab's keys.
func (r *requests) bindings(k keyMap) []key.Binding {
	t := k.Ticket
	t.SetEnabled(r.ticket() != "")
	return append([]key.Binding{k.Refresh, t}, r.table.KeyMap()...)
}
