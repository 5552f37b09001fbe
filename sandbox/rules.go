package sandbox

import (
	"net/http"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/money"
)

// The sandbox rules of spec/service.md §7.5 that bear on a ticket
// creation: each permission flag the ticket needs, named in the 403.

// checkFlags refuses a ticket the access's permissions do not cover:
// payIn for money coming from outside (PIX, or a chain transfer from a
// wallet that is not the service's), convert when the currencies differ,
// onChain when either side is a chain. payOut and markup are checked
// with the output and the markup.
func (s *Server) checkFlags(p *ticketPlan) error {
	q, perms := p.q, p.who.Perms
	fromOutside := q.InputPaymentMethod == "PIX" || (money.IsChain(q.InputPaymentMethod) && !s.st.isServiceWallet(p.fromWallet))
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

func chainOf(q *quoteClaims) string {
	if money.IsChain(q.InputPaymentMethod) {
		return q.InputPaymentMethod
	}
	return q.OutputPaymentMethod
}

const codeBeneficiaryInUse = "BENEFICIARY_IN_USE"

// pendingOperationNaming is a PENDING operation of acct whose ticket would
// pay the beneficiary id, or nil. The caller holds s.mu.
func (s *Server) pendingOperationNaming(acct *account, id uuid.UUID) *operation {
	want := id.String()
	for _, op := range s.st.operations.all() {
		if op.Status != OperationPending || op.Acct != acct {
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

// Login lockout (§7.5): after maxLoginFailures wrong passwords or e-mail
// tokens for one e-mail within loginWindow, logins for it are 429 until
// the oldest of those failures leaves the window.
const (
	maxLoginFailures = 5
	loginWindow      = 15 * time.Minute
	codeLoginLocked  = "LOGIN_LOCKED"
)

// recentFailures drops the failures of mail older than the window and
// returns the rest. The caller holds s.mu for writing.
func (s *Server) recentFailures(mail string, now time.Time) []time.Time {
	kept := s.lockout[mail][:0]
	for _, at := range s.lockout[mail] {
		if now.Sub(at) < loginWindow {
			kept = append(kept, at)
		}
	}
	if len(kept) == 0 {
		delete(s.lockout, mail)
		return nil
	}
	s.lockout[mail] = kept
	return kept
}

// loginLockedOut is the 429 for a locked e-mail, or nil.
func (s *Server) loginLockedOut(mail string, now time.Time) *apiError {
	f := s.recentFailures(mail, now)
	if len(f) < maxLoginFailures {
		return nil
	}
	wait := f[len(f)-maxLoginFailures].Add(loginWindow).Sub(now)
	e := errf(http.StatusTooManyRequests, codeLoginLocked, "%d wrong passwords or e-mail tokens for this e-mail within 15 minutes; try again in %s", len(f), wait.Round(time.Second))
	e.retryAfter = wait
	return e
}

// loginFailed counts a wrong password or e-mail token for mail.
func (s *Server) loginFailed(mail string, now time.Time) {
	if s.lockout == nil {
		s.lockout = map[string][]time.Time{}
	}
	s.lockout[mail] = append(s.recentFailures(mail, now), now)
}
