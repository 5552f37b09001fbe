package approvals

import (
	"context"
	"errors"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/validate"
)

// approve asks for the confirmation, or says why the operation cannot be
// approved. The confirmation needs the detail: it is loaded first if needed.
func (m *Screen) approve(it *item) tea.Cmd {
	if it == nil {
		return nil
	}
	if err := m.approveBlock(it); err != nil {
		return ui.Toast(ui.ToastError, "Cannot approve: "+ui.ErrorText(err))
	}
	if it.detail == nil {
		id := it.op.ID.String()
		m.after.id, m.after.action = id, "approve"
		return m.fetchDetail(id)
	}
	return m.confirmApprove(it)
}

func (m *Screen) confirmApprove(it *item) tea.Cmd {
	if it == nil || m.approveBlock(it) != nil {
		return nil
	}
	op := it.op
	q := it.quote
	// The most important lines first: a small terminal cuts the end.
	var b strings.Builder
	ben := beneficiaryShort(op.Beneficiary)
	if ben == "" {
		ben = "none (the output stays in the account)"
	}
	if q != nil {
		fmt.Fprintf(&b, "Amount:      %s → %s\n", q.Sends(), q.Receives())
		fmt.Fprintf(&b, "Pair:        %s at %s (%s → %s)\n", q.PairName, q.BasePrice.String(), q.InputMethod, q.OutputMethod)
	} else {
		b.WriteString("Amount:      unknown (the service sent no decoded quote)\n")
	}
	fmt.Fprintf(&b, "Beneficiary: %s\n", ben)
	fmt.Fprintf(&b, "Account:     %s\n", accountLine(op))
	if q != nil {
		if fees := q.feeLines(); len(fees) > 0 {
			fmt.Fprintf(&b, "Fees:        %s\n", strings.Join(fees, "; "))
		}
	}
	after := op.Approvals + 1
	if after >= op.MinApprovals {
		fmt.Fprintf(&b, "Approvals:   %d of %d: yours executes it, the ticket is created at once\n", after, op.MinApprovals)
	} else {
		fmt.Fprintf(&b, "Approvals:   %d of %d after yours\n", after, op.MinApprovals)
	}
	fmt.Fprintf(&b, "Requested by %s, %s ago\n", op.RequesterEmail, age(m.s.Now(), op.CreatedAt.Time))
	fmt.Fprintf(&b, "Environment: %s", strings.ToUpper(string(m.s.Env)))
	onYes := m.decide(it, "approve", "")
	title := fmt.Sprintf("Approve operation %s?", short(op.ID.String()))
	return func() tea.Msg { return ui.ConfirmMsg{Title: title, Body: b.String(), OnYes: onYes} }
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

// reject asks for the reason; an empty one is refused by the prompt.
func (m *Screen) reject(it *item) tea.Cmd {
	if it == nil {
		return nil
	}
	if err := m.rejectBlock(it); err != nil {
		return ui.Toast(ui.ToastError, "Cannot reject: "+ui.ErrorText(err))
	}
	id := it.op.ID.String()
	summary := strings.ToLower(it.op.OperationType)
	if it.quote != nil {
		summary = it.quote.Short()
	}
	return func() tea.Msg {
		return ui.PromptMsg{
			Title:       fmt.Sprintf("Reject %s (%s, %s) — reason", short(id), summary, accountName(it.op)),
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
				return m.decide(cur, "reject", strings.TrimSpace(reason))
			},
		}
	}
}

// decide returns the command that marks the operation as being decided,
// then sends the decision.
func (m *Screen) decide(it *item, action, reason string) tea.Cmd {
	s, id := m.s, it.op.ID.String()
	mark := func() tea.Msg { return sendingMsg{s: s, id: id} }
	return tea.Sequence(mark, m.send(it, action, reason))
}

// send returns the command that sends the decision and journals it. What
// it needs is copied now: the command never reads the screen or session.
func (m *Screen) send(it *item, action, reason string) tea.Cmd {
	op := it.op
	q := it.quote
	s, jr, svc := m.s, m.s.Journal, m.svc
	acct := m.opAccount(op)
	amounts := map[string]string{}
	if q != nil {
		amounts["input"] = q.Sends()
		amounts["output"] = q.Receives()
	}
	_, send := ui.Call(s, requestTimeout, func(ctx context.Context) (decision, error) {
		var res *api.Operation
		var err error
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
			ids["ticket"] = res.ExecutedID
		case action == "approve":
			outcome = fmt.Sprintf("approved (%d/%d)", res.Approvals, res.MinApprovals)
		default:
			outcome = "rejected: " + reason
		}
		e := s.JournalEntry(acct, action+"-operation", endpoint)
		e.IDs, e.Amounts, e.Outcome = ids, amounts, outcome
		jerr := jr.Record(e)
		return decision{id: op.ID.String(), account: acct, action: action, op: res, journalErr: jerr}, err
	})
	return send
}

// sendingMsg marks an operation as being decided, before the request goes;
// it names the session whose screen confirmed the decision.
type sendingMsg struct {
	s  *ui.Session
	id string
}

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
	id, err := uuid.Parse(op.SubAccountID)
	if err != nil {
		return uuid.Nil
	}
	for _, a := range m.s.Accounts {
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
