package quote

import (
	"context"
	"errors"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/brcode"
	"github.com/tesouro-treasury/tesouro/journal"
	"github.com/tesouro-treasury/tesouro/money"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/ui/widget"
	"github.com/tesouro-treasury/tesouro/views/internal/form"
)

// created is the outcome of a ticket creation (its error is the Result's).
type created struct {
	res        *api.CreateTicketResult
	journalErr error
	// notSent is true when the guard stopped the request before it left.
	notSent bool
}

// submit sends the confirmed ticket. Everything the command needs is
// captured now; the guard runs again inside the command, right before the
// request leaves, with the session clock.
func (m *Screen) submit() tea.Cmd {
	m.stage = stageSending
	m.confirmErr = ""
	s, svc := m.s, m.svc
	account := s.Account
	req := m.ticketReq
	cd := m.countdown
	q := *m.quote
	return ui.Fetch(s, &m.creating, createTimeout, func(ctx context.Context) (created, error) {
		if err := CheckLive(cd, s.Now()); err != nil {
			return created{notSent: true}, err
		}
		res, err := svc.CreateTicket(ctx, account.ID, req)
		jerr := s.Journal.Record(ticketEntry(s, account, req, &q, res, err))
		return created{res: res, journalErr: jerr}, err
	})
}

// ticketEntry is the journal line of a ticket creation: ids and amounts,
// never the quote token or any credential.
func ticketEntry(s *ui.Session, account ui.Account, req api.CreateTicketRequest, q *api.Quote, res *api.CreateTicketResult, err error) journal.Entry {
	e := s.JournalEntry(account.ID, "create-ticket", "POST /v2/account/tickets/")
	e.IDs = map[string]string{"externalId": req.ExternalID}
	e.Amounts = map[string]string{
		"input":  money.Wire(q.InputAmount, q.InputCurrency) + " " + q.InputCurrency + " " + q.InputPaymentMethod,
		"output": money.Wire(q.OutputAmount, q.OutputCurrency) + " " + q.OutputCurrency + " " + q.OutputPaymentMethod,
	}
	if q.MarkupAmount.IsPositive() {
		e.Amounts["markup"] = q.MarkupAmount.String() + " " + q.MarkupCurrency
	}
	// Where the money goes: the beneficiary's id, or the key, code or
	// address paid inline (none of which is a secret).
	if o := req.TicketBrlPixOutput; o != nil {
		switch {
		case o.BeneficiaryBrlBankAccountID != nil:
			e.IDs["beneficiaryBrlBankAccountId"] = o.BeneficiaryBrlBankAccountID.String()
		case o.PixKey != "":
			e.IDs["pixKey"] = o.PixKey
		case o.BrCode != "":
			if p, perr := brcode.Parse(o.BrCode); perr == nil {
				e.IDs["brCodeKey"] = nonEmpty(p.Key, p.URL)
				e.IDs["brCodeTxId"] = p.TxID
			}
		}
	}
	if o := req.TicketBlockchainOutput; o != nil {
		if o.BeneficiaryWalletID != nil {
			e.IDs["beneficiaryWalletId"] = o.BeneficiaryWalletID.String()
		} else {
			e.IDs["walletAddress"] = o.WalletChain + ":" + o.WalletAddress
		}
	}
	if o := req.TicketUsdOutput; o != nil {
		e.IDs["beneficiaryUsdBankAccountId"] = o.BeneficiaryUsdBankAccountID.String()
	}
	if o := req.TicketUsdWireOutput; o != nil {
		e.IDs["beneficiaryUsdBankAccountId"] = o.BeneficiaryUsdBankAccountID.String()
	}
	if o := req.TicketEurSepaOutput; o != nil {
		e.IDs["beneficiaryEurBankAccountId"] = o.BeneficiaryEurBankAccountID.String()
	}
	if o := req.TicketArsOutput; o != nil {
		e.IDs["beneficiaryArsBankAccountId"] = o.BeneficiaryArsBankAccountID.String()
	}
	if o := req.TicketCopOutput; o != nil {
		e.IDs["beneficiaryCopBankAccountId"] = o.BeneficiaryCopBankAccountID.String()
	}
	switch {
	case err != nil:
		e.Outcome = "error: " + ui.ErrorText(err)
	case res.Parked && res.Operation != nil:
		e.Outcome = "parked"
		e.IDs["operationId"] = res.Operation.ID.String()
	case res.Ticket != nil:
		e.Outcome = "created"
		e.IDs["ticketId"] = res.Ticket.ID.String()
	default:
		e.Outcome = "unknown: the service answered without a ticket or an operation"
	}
	if err == nil && res.Reconciled {
		e.Outcome += " (found by externalId after a failure in transit)"
	}
	return e
}

// onCreated shows what became of the creation.
// The slot already made sure it answers the creation this screen sent.
func (m *Screen) onCreated(msg ui.Result[created]) tea.Cmd {
	res := msg.Value.res
	var cmds []tea.Cmd
	if jerr := msg.Value.journalErr; jerr != nil {
		cmds = append(cmds, ui.Toast(ui.ToastError, "journal: "+jerr.Error()))
	}
	switch {
	case msg.Value.notSent || errors.Is(msg.Err, api.ErrQuoteExpired) || errors.Is(msg.Err, errExpired):
		// Nothing was created. Auto re-quote renews it (same intent);
		// otherwise the confirmation says so and offers r.
		m.stage = stageConfirm
		if m.auto {
			cmds = append(cmds, m.requoteForConfirm())
		} else {
			m.confirmErr = "The quote expired before the ticket was sent: nothing was created. Press r for a new quote."
		}
	case msg.Err != nil:
		m.stage = stageConfirm
		m.confirmErr = "The ticket was not created: " + ui.ErrorText(msg.Err) +
			". Press y to try again with the same external id (a ticket created in the meantime is found, not duplicated), or any other key to go back."
	case res == nil || (res.Ticket == nil && res.Operation == nil):
		m.stage = stageConfirm
		m.confirmErr = "The service answered without a ticket or an operation: check Tickets for external id " + m.ticketReq.ExternalID + " before trying again."
	default:
		m.stage = stageResult
		m.learnApprovals(res.Operation)
		m.res = newResult(m.s, m.svc, *m.quote, m.ticketReq, res, m.confirmedBeneficiary())
		m.offset = 0
		// The intent is fulfilled: a new conversion gets a new externalId.
		m.externalID, m.intentKey = "", ""
		m.details = nil
		cmds = append(cmds, m.res.start())
		if res.Parked {
			cmds = append(cmds, ui.Toast(ui.ToastSuccess, "sent for approval"), m.res.changed(ui.ChangedOperations))
		} else {
			cmds = append(cmds, ui.Toast(ui.ToastSuccess, "ticket created"), m.res.changed(ui.ChangedTickets|ui.ChangedBalances))
		}
	}
	return tea.Batch(cmds...)
}

func (m *Screen) confirmedBeneficiary() *form.Option {
	if m.details == nil {
		return nil
	}
	return m.details.beneficiary()
}

// ticketCountdown is the countdown of a ticket's own expiry: 5 minutes for
// a conversion, 24 hours otherwise, read from expiresAt.
func ticketCountdown(t *api.Ticket) widget.Countdown {
	total := t.ExpiresAt.Sub(t.CreatedAt.Time)
	if t.CreatedAt.IsZero() || total <= 0 {
		total = 24 * time.Hour
		if t.Quote.InputCurrency != t.Quote.OutputCurrency {
			total = 5 * time.Minute
		}
	}
	return widget.Countdown{ID: "ticket-" + t.ID.String(), Deadline: t.ExpiresAt.Time, Total: total}
}
