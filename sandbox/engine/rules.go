package engine

import (
	"strings"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/money"
	"github.com/tesouro-treasury/tesouro/sandbox/records"
)

// The sandbox rules of spec/service.md §7.5 that bear on a ticket
// creation: each permission flag the ticket needs, named in the 403.

// checkFlags refuses a ticket the access's permissions do not cover:
// payIn for money coming from outside (PIX, or a chain transfer from a
// wallet that is not the service's), convert when the currencies differ,
// onChain when either side is a chain. payOut and markup are checked
// with the output and the markup.
func (e *Engine) checkFlags(p *ticketPlan) error {
	q, perms := p.q, p.who.Perms
	fromOutside := q.InputPaymentMethod == "PIX" || (money.IsChain(q.InputPaymentMethod) && !e.st.isServiceWallet(p.fromWallet))
	switch {
	case fromOutside && !perms.PayIn:
		return forbidden("missing permission payIn: the input comes from outside the account (%s via %s)", q.InputCurrency, q.InputPaymentMethod)
	case q.InputCurrency != q.OutputCurrency && !perms.Convert:
		return forbidden("missing permission convert: the ticket converts %s to %s", q.InputCurrency, q.OutputCurrency)
	case (money.IsChain(q.InputPaymentMethod) || money.IsChain(q.OutputPaymentMethod)) && !perms.OnChain:
		return forbidden("missing permission onChain: the ticket moves tokens on %s", chainOf(q))
	}
	return nil
}

func chainOf(q *QuoteClaims) string {
	if money.IsChain(q.InputPaymentMethod) {
		return q.InputPaymentMethod
	}
	return q.OutputPaymentMethod
}

// pendingOperationNaming is a PENDING operation of acct whose ticket would
// pay the beneficiary id, or nil. The caller holds e.mu.
func (e *Engine) pendingOperationNaming(acct *Account, id uuid.UUID) *Operation {
	want := id.String()
	for _, op := range e.st.operations.all() {
		if op.Status != records.OperationPending || op.Acct != acct {
			continue
		}
		r := &op.req
		for _, got := range []string{
			blockID(r.TicketBrlPixOutput != nil, func() string { return r.TicketBrlPixOutput.BeneficiaryBrlBankAccountID }),
			blockID(r.TicketBlockchainOutput != nil, func() string { return r.TicketBlockchainOutput.BeneficiaryWalletID }),
			blockID(r.TicketUsdOutput != nil, func() string { return r.TicketUsdOutput.BeneficiaryUsdBankAccountID }),
			blockID(r.TicketUsdWireOutput != nil, func() string { return r.TicketUsdWireOutput.BeneficiaryUsdBankAccountID }),
			blockID(r.TicketEurSepaOutput != nil, func() string { return r.TicketEurSepaOutput.BeneficiaryEurBankAccountID }),
			blockID(r.TicketArsOutput != nil, func() string { return r.TicketArsOutput.BeneficiaryArsBankAccountID }),
			blockID(r.TicketCopOutput != nil, func() string { return r.TicketCopOutput.BeneficiaryCopBankAccountID }),
		} {
			if strings.EqualFold(got, want) {
				return op
			}
		}
	}
	return nil
}

func blockID(present bool, id func() string) string {
	if !present {
		return ""
	}
	return id()
}
