package quote

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/money"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/views/internal/form"
	"github.com/tesouro-treasury/tesouro/views/internal/pixholder"
)

// armDelay is how long y stays disarmed after the numbers on the
// confirmation changed: long enough to see that they did, so that a y
// typed for the old numbers cannot confirm the new ones.
const armDelay = 1500 * time.Millisecond

// lookupTimeout bounds the holder and limits look-ups of the confirmation.
const lookupTimeout = 10 * time.Second

// armMsg redraws the confirmation when y is armed again after a renewal
// (whether y is armed is read from the clock, not from this message).
type armMsg struct{}

// armed reports whether y may confirm now: no renewal in the last
// armDelay, by the session clock.
func (m *Screen) armed(now time.Time) bool {
	return m.renewedAt.IsZero() || !now.Before(m.renewedAt.Add(armDelay))
}

// renewed records that the quote under the confirmation was just replaced:
// y waits armDelay, and a timer redraws the screen when it is armed again.
func (m *Screen) renewed(now time.Time) tea.Cmd {
	m.renewedAt = now
	return m.s.After(armDelay, func(time.Time) tea.Msg { return armMsg{} })
}

// lookupHolder asks who the PIX output of the confirmed body pays (see
// pixholder.Of). Nothing is asked for other outputs.
func (m *Screen) lookupHolder() tea.Cmd {
	m.holder = pixholder.Lookup{}
	m.holding.Cancel()
	o := m.ticketReq.TicketBrlPixOutput
	if o == nil {
		return nil
	}
	svc, account := m.svc, m.s.Account.ID
	out := *o
	records := func(ctx context.Context, id uuid.UUID) (*api.BRLAccount, error) {
		return svc.GetBRLAccount(ctx, account, id)
	}
	return ui.Fetch(m.s, &m.holding, lookupTimeout, func(ctx context.Context) (pixholder.Holder, error) {
		return pixholder.Of(ctx, svc, records, out)
	})
}

// holderText is the one line naming the holder, or what is known of it. A
// key the directory does not know cannot be paid: y stays off (see
// canConfirm). Any other failure is shown and leaves the decision to the
// user.
func (m *Screen) holderText() (string, bool) {
	if m.ticketReq.TicketBrlPixOutput == nil {
		return "", false
	}
	th := m.th
	return m.holder.Line(pixholder.Styles{Value: th.value, Dim: th.dim, Warn: th.warn, Err: th.err}, m.holding.Waiting())
}

// loadLimits reads the month's limits of the operated account, to warn
// before a ticket goes past them.
func (m *Screen) loadLimits() tea.Cmd {
	m.limits = nil
	svc, account := m.svc, m.s.Account.ID
	return ui.Fetch(m.s, &m.limiting, lookupTimeout, func(ctx context.Context) (*api.AccountLimits, error) {
		return svc.Limits(ctx, account)
	})
}

// onLimits compares the quote on screen with what the month has left.
// A failed read says nothing: the limits only warn, the service decides.
func (m *Screen) onLimits(msg ui.Result[*api.AccountLimits]) {
	m.limits = nil
	if msg.Err == nil && msg.Value != nil {
		m.limits = &msg.Value.LimitInfo
	}
}

// limitWarning says how the quote on screen would exceed the monthly limits
// left, or "" when it would not (or they are unknown).
func limitWarning(l *api.LimitInfo, q *api.Quote) string {
	if l == nil || q == nil {
		return ""
	}
	if l.Blocked {
		return "the account is blocked from moving money: the service will refuse this ticket"
	}
	var over []string
	side := func(cur, method string, amount decimal.Decimal, in bool) {
		method = strings.ToUpper(method)
		if method == "INTERNAL" || method == "" {
			return // the balance: it does not cross the service's edge
		}
		lim, ok := l.Limit(cur)
		if !ok {
			return
		}
		var left decimal.Decimal
		var dir string
		switch chain := money.IsChain(method); {
		case in && chain:
			left, dir = decimal.Max(decimal.Zero, lim.MaxChainIn.Sub(lim.UsedLimit.UsedChainIn)), "in from chains"
		case in:
			left, dir = decimal.Max(decimal.Zero, lim.MaxFiatIn.Sub(lim.UsedLimit.UsedFiatIn)), "in by fiat rails"
		case chain:
			left, dir = lim.ChainOutLeft(), "out to chains"
		default:
			left, dir = lim.FiatOutLeft(), "out by fiat rails"
		}
		if amount.GreaterThan(left) {
			over = append(over, money.Format(amount, cur)+" "+cur+" "+dir+", "+money.Format(left, cur)+" "+cur+" left this month")
		}
	}
	side(q.InputCurrency, q.InputPaymentMethod, q.InputAmount, true)
	side(q.OutputCurrency, q.OutputPaymentMethod, q.OutputAmount, false)
	if len(over) == 0 {
		return ""
	}
	return "over the monthly limit: " + strings.Join(over, "; ")
}

// requester reports whether this access's tickets are parked for
// approval (multi-signature).
func (m *Screen) requester() bool {
	return m.s.Access != nil && m.s.Access.AccountPermissions.OperationRequester
}

// approvalsText is how many approvals a parked ticket will need, as far as
// this screen has learnt it from an earlier parked ticket.
func (m *Screen) approvalsText() string {
	if m.minApprovals > 0 {
		return "send for approval: " + plural(int(m.minApprovals), "approval") + " before anything moves"
	}
	return "send for approval: nothing moves until the account's approvers approve"
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// whereRe picks, among a beneficiary's detail lines, the one that says
// where the money lands: a PIX key, a bank account, an address.
var whereRe = regexp.MustCompile(`(?i)^(pix key|bank |0x|.*routing|.* account |bre-b|iban|cvu|cbu|the operated account's own)`)

// destination is who receives and where: the beneficiary's name, and the
// key, address or account the output block names.
func destination(b *form.Option, r api.CreateTicketRequest) (name, where string) {
	if b != nil {
		name = b.Title
		// The first detail is the holder's name when it is not already
		// where the money lands (a wallet's first detail is its address).
		if len(b.Details) > 0 && !whereRe.MatchString(b.Details[0]) && b.Details[0] != b.Title {
			name = b.Title + " · " + b.Details[0]
		}
		for _, d := range b.Details {
			if whereRe.MatchString(d) {
				where = d
				break
			}
		}
	}
	if o := r.TicketBrlPixOutput; o != nil {
		switch {
		case o.PixKey != "":
			where = "PIX key " + o.PixKey
		case o.BrCode != "":
			where = "BR Code " + o.BrCode
		case o.AccountNumber != "":
			where = "bank " + o.BankCode + " branch " + o.BranchCode + " account " + o.AccountNumber
		}
		if name == "" {
			name = o.UserName
		}
	}
	if o := r.TicketBlockchainOutput; o != nil && o.WalletAddress != "" {
		where = o.WalletAddress + " on " + o.WalletChain
	}
	if o := r.TicketBlockchainOutput; o != nil && o.BeneficiaryWalletID != nil && *o.BeneficiaryWalletID == uuid.Nil && name == "" {
		name = "Own service wallet"
	}
	return name, where
}
