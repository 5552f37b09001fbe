package approvals

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/validate"
	"github.com/tesouro-treasury/tesouro/views/internal/pixholder"
)

// approve fetches the operation again and then asks for the confirmation,
// or says why it cannot be approved. The confirmation is built from that
// fresh answer only: another approver may have approved or rejected it
// since the inbox loaded, and whether this approval executes the ticket
// depends on it.
func (m *Screen) approve(it *item) tea.Cmd {
	return m.fetchToDecide(it, "approve", m.approveBlock, "Cannot approve")
}

// fetchToDecide fetches it again before the action (approve, reject) goes
// on, or says with cannot why block refuses it.
func (m *Screen) fetchToDecide(it *item, action string, block func(*item) error, cannot string) tea.Cmd {
	if it == nil {
		return nil
	}
	if err := block(it); err != nil {
		return ui.Toast(ui.ToastError, cannot+": "+ui.ErrorText(err))
	}
	id := it.op.ID.String()
	m.after.id, m.after.action = id, action
	return m.fetchDetailFor(id, action == "approve")
}

// confirmApprove asks for the confirmation of it, whose detail has just
// been fetched with who its PIX payout reaches (holder, nil for another
// output).
func (m *Screen) confirmApprove(it *item, holder *pixholder.Lookup, t *today) tea.Cmd {
	if it == nil {
		return nil
	}
	if err := m.approveBlock(it); err != nil {
		return ui.Toast(ui.ToastError, "Cannot approve now: "+ui.ErrorText(err))
	}
	th := m.s.Styles()
	op := it.op
	q := it.quote
	executes := op.Approvals+1 >= op.MinApprovals
	// The most important lines first: a small terminal cuts the end.
	var b strings.Builder
	if holder != nil && holder.Missing {
		// Nobody holds the key: said before anything else, where even a
		// 40x12 terminal shows it.
		b.WriteString(th.Error.Render("✗ NO HOLDER: the PIX directory does not know this key") + "\n")
	}
	if executes {
		b.WriteString(th.Warn.Render(fmt.Sprintf("▶ EXECUTES NOW: yours is approval %d of %d; the ticket is created at once and the money moves", op.Approvals+1, op.MinApprovals)) + "\n")
	} else {
		fmt.Fprintf(&b, "Approvals:   %d of %d after yours: %d more needed before it executes\n", op.Approvals+1, op.MinApprovals, op.MinApprovals-op.Approvals-1)
	}
	if q != nil {
		fmt.Fprintf(&b, "Amount:      %s → %s\n", q.Sends(), q.Receives())
	} else {
		b.WriteString("Amount:      unknown (the service sent no decoded quote)\n")
	}

	// Who receives the money, before anything else about it.
	fmt.Fprintf(&b, "Destination: %s\n", destinationOf(op, q).Line(op))
	if h, ok := m.holderLine(holder); ok {
		fmt.Fprintf(&b, "Holder:      %s\n", h)
	}
	for _, l := range m.priceLines(it, t) {
		b.WriteString(l + "\n")
	}
	if q != nil {
		fmt.Fprintf(&b, "Methods:     %s → %s\n", q.InputMethod, q.OutputMethod)
	}
	fmt.Fprintf(&b, "Account:     %s\n", accountLine(op))
	if q != nil {
		if fees := q.chargedFees(); len(fees) > 0 {
			fmt.Fprintf(&b, "Fees:        %s\n", strings.Join(fees, "; "))
		}
	}
	if by := approvedBy(op); len(by) > 0 {
		fmt.Fprintf(&b, "Approved by: %s\n", strings.Join(by, ", "))
	}
	fmt.Fprintf(&b, "Requested by %s, %s ago\n", op.RequesterEmail, age(m.s.Now(), op.CreatedAt.Time))
	fmt.Fprintf(&b, "State as of %s · environment %s", m.s.Now().Local().Format("15:04:05"), strings.ToUpper(string(m.s.Env)))
	onYes := m.decide([]*item{it}, "approve", "")
	title := fmt.Sprintf("Approve operation %s?", short(op.ID.String()))
	if executes {
		// Short enough to stay whole on a 40-column terminal.
		title = fmt.Sprintf("Approve %s? It executes now", short(op.ID.String()))
	}
	return func() tea.Msg { return ui.ConfirmMsg{Title: title, Body: b.String(), OnYes: onYes} }
}

// approvedBy are the e-mails of the approvers who approved op.
func approvedBy(op api.Operation) []string {
	var out []string
	for _, a := range op.Approvers {
		if a.HasApproved {
			out = append(out, a.Email)
		}
	}
	return out
}

func accountLine(op api.Operation) string {
	if op.SubAccountID == "" || op.SubAccountID == uuid.Nil.String() {
		if op.SubAccountName != "" {
			return op.SubAccountName + " (main account)"
		}
		return "main account"
	}
	return strings.TrimSpace(op.SubAccountName + " (sub-account " + op.SubAccountID + ")")
}

// maxReason is the longest rejection reason the service keeps.
const maxReason = 500

// reject fetches the operation again, then asks for the reason (see
// promptReject).
func (m *Screen) reject(it *item) tea.Cmd {
	return m.fetchToDecide(it, "reject", m.rejectBlock, "Cannot reject")
}

// promptReject asks for the reason of rejecting it, whose detail has just
// been fetched; an empty reason is refused by the prompt.
func (m *Screen) promptReject(it *item) tea.Cmd {
	if it == nil {
		return nil
	}
	if err := m.rejectBlock(it); err != nil {
		return ui.Toast(ui.ToastError, "Cannot reject now: "+ui.ErrorText(err))
	}
	id := it.op.ID.String()
	summary := strings.ToLower(it.op.OperationType)
	if it.quote != nil {
		summary = it.quote.Short()
	}
	return func() tea.Msg {
		return ui.PromptMsg{
			Title: fmt.Sprintf("Reject %s (%s, %s, %d of %d approved) — reason", short(id), summary, accountName(it.op),
				it.op.Approvals, it.op.MinApprovals),
			Placeholder: "why it is rejected (the requester sees it)",
			Validate: func(s string) error {
				if err := validate.Required(s); err != nil {
					return errors.New("a reason is required: say why the operation is rejected")
				}
				if n := len([]rune(strings.TrimSpace(s))); n > maxReason {
					return fmt.Errorf("%d characters: shorten the reason to at most %d", n, maxReason)
				}
				return nil
			},
			OnSubmit: func(reason string) tea.Cmd {
				cur := m.item(id)
				if cur == nil {
					return nil
				}
				return m.decide([]*item{cur}, "reject", strings.TrimSpace(reason))
			},
		}
	}
}

// decide returns the command that marks the operations as being decided,
// then sends the decisions one after the other: a single one answers a
// Result[decision], several a Result[[]decision].
func (m *Screen) decide(its []*item, action, reason string) tea.Cmd {
	ids := make([]string, len(its))
	for i, it := range its {
		ids[i] = it.op.ID.String()
	}
	_, mark := ui.Answer(m.s, sending(ids))
	return tea.Sequence(mark, m.send(its, action, reason))
}

// order is one decision to send, with what it needs copied from the screen
// so that the command never reads the screen or the session.
type order struct {
	op   api.Operation
	acct uuid.UUID
	amts map[string]string
}

// send returns the command that sends the decisions, in turn, and journals
// each one on its own line.
func (m *Screen) send(its []*item, action, reason string) tea.Cmd {
	orders := make([]order, len(its))
	for i, it := range its {
		amts := map[string]string{}
		if q := it.quote; q != nil {
			amts["input"] = q.Sends()
			amts["output"] = q.Receives()
		}
		orders[i] = order{op: it.op, acct: m.opAccount(it.op), amts: amts}
	}
	s, jr, svc := m.s, m.s.Journal, m.svc
	one := func(ctx context.Context, o order) decision {
		var res *api.Operation
		var err error
		op := o.op
		endpoint := "POST /v2/account/multi-sig-operations/" + op.ID.String() + "/" + action
		if action == "approve" {
			res, err = svc.ApproveOperation(ctx, op.ID)
		} else {
			res, err = svc.RejectOperation(ctx, op.ID, reason)
		}
		ids := map[string]string{"operation": op.ID.String()}
		outcome := ""
		switch {
		case err != nil:
			outcome = "error: " + err.Error()
		case res != nil && res.Status == api.OperationExecuted:
			outcome = "approved; executed"
			ids["ticketId"] = res.ExecutedID
		case action == "approve":
			outcome = fmt.Sprintf("approved (%d/%d)", res.Approvals, res.MinApprovals)
		default:
			outcome = "rejected: " + reason
		}
		e := s.JournalEntry(o.acct, action+"-operation", endpoint)
		e.IDs, e.Amounts, e.Outcome = ids, o.amts, outcome
		jerr := jr.Record(e)
		return decision{id: op.ID.String(), account: o.acct, action: action, op: res, journalErr: jerr, err: err}
	}
	if len(orders) == 1 {
		_, cmd := ui.Call(s, requestTimeout, func(ctx context.Context) (decision, error) {
			d := one(ctx, orders[0])
			return d, d.err
		})
		return cmd
	}
	_, cmd := ui.Call(s, requestTimeout*time.Duration(len(orders)), func(ctx context.Context) ([]decision, error) {
		out := make([]decision, 0, len(orders))
		for _, o := range orders {
			out = append(out, one(ctx, o))
		}
		return out, nil
	})
	return cmd
}

// sending are the operations being decided; sendingMsg marks them so
// before the request goes, as an answer of the session whose screen
// confirmed the decision.
type (
	sending    []string
	sendingMsg = ui.Result[sending]
)

// decided takes the outcome of a decision: any of this session's, since
// each names its operation and several may be under way.
func (m *Screen) decided(res ui.Result[decision]) tea.Cmd {
	if !m.s.Owns(res) {
		return nil
	}
	msg := res.Value
	it := m.item(msg.id)
	if it != nil {
		it.sending = false
	}
	var cmds []tea.Cmd
	if msg.journalErr != nil {
		cmds = append(cmds, ui.Toast(ui.ToastError, "journal not written: "+ui.ErrorText(msg.journalErr)))
	}
	if res.Err != nil {
		cmds = append(cmds, ui.Toast(ui.ToastError, fmt.Sprintf("%s %s failed: %s", capital(msg.action), short(msg.id), ui.ErrorText(res.Err))),
			m.fetchDetail(msg.id))
		return tea.Batch(cmds...)
	}
	if msg.op != nil {
		m.setDetail(msg.op)
		m.rebuild()
	}
	text := ""
	switch {
	case msg.op != nil && msg.op.Status == api.OperationExecuted:
		text = fmt.Sprintf("Approved %s: executed, ticket %s (t opens it)", short(msg.id), short(msg.op.ExecutedID))
	case msg.action == "approve" && msg.op != nil:
		text = fmt.Sprintf("Approved %s: %d of %d approvals", short(msg.id), msg.op.Approvals, msg.op.MinApprovals)
	default:
		text = "Rejected " + short(msg.id)
	}
	what := ui.ChangedOperations
	if msg.op != nil && msg.op.Status == api.OperationExecuted {
		// The ticket exists now, and may already have moved money.
		what |= ui.ChangedTickets | ui.ChangedBalances
	}
	cmds = append(cmds, ui.Toast(ui.ToastSuccess, text), m.reload(), ui.ChangedIn(msg.account, what, m.ID()))
	return tea.Batch(cmds...)
}

// opAccount is the account an operation acts on, as the session names
// accounts: the main account (the nil id) when it names none or names the
// main account by its id.
func (m *Screen) opAccount(op api.Operation) uuid.UUID {
	return accountOf(m.s.Accounts, op)
}

// accountOf is opAccount among the accounts listed (a command carries a
// copy of them).
func accountOf(accounts []api.Account, op api.Operation) uuid.UUID {
	id, err := uuid.Parse(op.SubAccountID)
	if err != nil {
		return uuid.Nil
	}
	for _, a := range accounts {
		if a.ID == id && a.MainAccountID == "" {
			return uuid.Nil
		}
	}
	return id
}

func capital(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
