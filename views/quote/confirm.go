package quote

import (
	"context"
	"errors"
	"regexp"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/payment"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/ui/widget"
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

// confirmation is the third stage: the intent the details filled in, shown
// with its quote, what moves and for whom, until y sends it.
type confirmation struct {
	m  *Screen
	in payment.Intent
	// beneficiary is who the output pays, as the details name it.
	beneficiary *form.Option
	// previous is the quote replaced while confirming: the confirmation
	// shows old and new side by side until the user confirms again.
	previous *api.Quote
	// renewedAt is when the quote under the confirmation was last
	// replaced: y is disarmed for armDelay after it.
	renewedAt time.Time
	err       string
	// conflict is true when the external id names another payment's
	// ticket: y cannot help, only another id can.
	conflict bool

	// The PIX payout's holder (pix-info) and the month's limits.
	pix      *api.TicketBrlPixOutput
	holding  ui.Slot
	holder   pixholder.Lookup
	limiting ui.Slot
	limits   *api.LimitInfo

	offset int
	// read is what of the confirmation has been on screen: y waits until
	// every line has.
	read widget.Reading
	// measuring is set while unread lays the confirmation out, whose y
	// line asks unread in turn.
	measuring bool
	w, h      int
}

func newConfirmation(m *Screen, in payment.Intent) *confirmation {
	c := &confirmation{m: m, in: in, beneficiary: m.details.beneficiary(in)}
	if req, err := in.TicketRequest(m.quote); err == nil {
		c.pix = req.TicketBrlPixOutput
	}
	return c
}

// SetSize implements the stage's part of ui.Screen.
func (c *confirmation) SetSize(w, h int) {
	c.w, c.h = w, h
	if c.m.quote != nil {
		c.shown(c.m.s.Now())
	}
}

// KeyMap is what the confirmation offers now.
func (c *confirmation) KeyMap() []key.Binding {
	k := c.m.keys
	confirm, cancel := c.bindings()
	requote := k.Requote
	requote.SetEnabled(!c.m.quoting.Waiting())
	return []key.Binding{confirm, requote, cancel, k.Scroll}
}

// bindings are y and "any other key" as the confirmation offers them: a
// requester's y sends the ticket for approval, and says so.
func (c *confirmation) bindings() (confirm, cancel key.Binding) {
	confirm, cancel = c.m.keys.Confirm, c.m.keys.Cancel
	if c.m.requester() {
		confirm.SetHelp("y", c.m.approvalsText())
	}
	confirm.SetEnabled(c.canConfirm(c.m.s.Now()) == "")
	return confirm, cancel
}

// lookups asks who the PIX output pays (see pixholder.Of; nothing is asked
// for other outputs) and the month's limits of the operated account.
func (c *confirmation) lookups() tea.Cmd {
	s, svc, account := c.m.s, c.m.svc, c.m.s.Account.ID
	limits := ui.Fetch(s, &c.limiting, lookupTimeout, func(ctx context.Context) (*api.AccountLimits, error) {
		return svc.Limits(ctx, account)
	})
	if c.pix == nil {
		return limits
	}
	out := *c.pix
	records := func(ctx context.Context, id uuid.UUID) (*api.BRLAccount, error) {
		return svc.GetBRLAccount(ctx, account, id)
	}
	return tea.Batch(limits, ui.Fetch(s, &c.holding, lookupTimeout, func(ctx context.Context) (pixholder.Holder, error) {
		return pixholder.Of(ctx, svc, records, out)
	}))
}

// take records the answer of a look-up this confirmation awaits. A failed
// limits read says nothing: the limits only warn, the service decides.
func (c *confirmation) take(msg tea.Msg) {
	switch msg := msg.(type) {
	case ui.Result[pixholder.Holder]:
		if c.holding.Take(msg) {
			c.holder.Take(msg.Value, msg.Err)
		}
	case ui.Result[*api.AccountLimits]:
		if c.limiting.Take(msg) {
			c.limits = nil
			if msg.Err == nil && msg.Value != nil {
				c.limits = &msg.Value.LimitInfo
			}
		}
	}
}

// renewed records that the quote under the confirmation was replaced
// (old is the one it replaced): y waits armDelay, and a timer redraws the
// screen when it is armed again.
func (c *confirmation) renewed(old *api.Quote, now time.Time) tea.Cmd {
	if c.previous == nil {
		c.previous = old
	}
	c.err, c.conflict = "", false
	c.renewedAt = now
	return c.m.s.After(armDelay, func(time.Time) tea.Msg { return armMsg{} })
}

// armed reports whether y may confirm now: no renewal in the last
// armDelay, by the session clock.
func (c *confirmation) armed(now time.Time) bool {
	return c.renewedAt.IsZero() || !now.Before(c.renewedAt.Add(armDelay))
}

// canConfirm says why y does nothing now ("" when it sends the ticket):
// no quote yet, an expired one, numbers that just changed, a PIX key the
// directory does not know, or an external id of another payment.
func (c *confirmation) canConfirm(now time.Time) string {
	m := c.m
	switch {
	case m.requoting || m.quoting.Waiting():
		return "a new quote is on its way"
	case CheckLive(m.countdown, now) != nil:
		return "the quote expired"
	case !c.armed(now):
		return "the quote was just renewed"
	case c.holding.Waiting():
		return "the PIX directory has not answered yet"
	case c.holder.Missing:
		return "the PIX key has no holder"
	case c.conflict:
		return "the external id names another payment's ticket"
	case c.unread(now) > 0:
		return "some lines have not been on screen yet"
	}
	return ""
}

// holderText is the one line naming the holder, or what is known of it. A
// key the directory does not know cannot be paid: y stays off (see
// canConfirm). Any other failure is shown and leaves the decision to the
// user.
func (c *confirmation) holderText() (string, bool) {
	if c.pix == nil {
		return "", false
	}
	th := c.m.th
	return c.holder.Line(pixholder.Styles{Value: th.value, Dim: th.dim, Warn: th.warn, Err: th.err}, c.holding.Waiting())
}

// limitWarning says how the quote on screen would go past what the month
// has left, or "" when it would not (or the limits are unknown).
func (c *confirmation) limitWarning() string {
	var u payment.Usage
	u.Add(c.m.quote)
	over := u.Over(c.limits)
	switch {
	case len(over) == 0:
		return ""
	case c.limits.Blocked:
		return over[0]
	}
	return "over the monthly limit: " + strings.Join(over, "; ")
}

// keyConfirm: y sends, r re-quotes, ↑/↓ scroll; anything else is no.
func (m *Screen) keyConfirm(msg tea.KeyPressMsg) tea.Cmd {
	c := m.confirm
	switch msg.String() {
	case "y":
		// y is never "no": when it cannot confirm it does nothing, and the
		// y line says why.
		if c.canConfirm(m.s.Now()) != "" {
			return nil
		}
		return m.submit()
	case "r":
		if !m.quoting.Waiting() {
			return m.requoteForConfirm()
		}
		return nil
	case "up", "k", "pgup", "down", "j", "pgdown", "space", " ":
		// Scrolling is neither yes nor no: the details may not fit, and
		// y waits until they have all been on screen.
		page := max(c.frame(m.s.Now()).bodyH, 1)
		switch msg.String() {
		case "up", "k":
			c.offset--
		case "pgup":
			c.offset -= page
		case "down", "j":
			c.offset++
		default:
			c.offset += page
		}
		c.offset = max(c.offset, 0)
		c.shown(m.s.Now())
		return nil
	}
	// Anything else is "no": back to the details, nothing sent.
	m.stage = stageDetails
	m.confirm = nil
	if c.conflict {
		m.details.form.FocusField(dExternal)
	}
	return nil
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
// key, address or account the intent names.
func destination(b *form.Option, in payment.Intent) (name, where string) {
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
	switch p := in.Pay; p.Kind {
	case payment.ToPixKey:
		where = "PIX key " + p.PixKey
	case payment.ToBrCode:
		where = "BR Code " + p.BrCode
	case payment.ToBankAccount:
		where = "bank " + p.Bank.BankCode + " branch " + p.Bank.BranchCode + " account " + p.Bank.AccountNumber
		name = nonEmpty(name, p.Bank.UserName)
	case payment.ToAddress:
		where = p.Address + " on " + strings.ToUpper(in.OutMethod)
	case payment.ToOwnWallet:
		name = nonEmpty(name, "Own service wallet")
	}
	return name, where
}

// errConflict reports whether err is the payment core's refusal of an
// external id already naming another payment's ticket.
func errConflict(err error) bool {
	var ce *payment.ConflictError
	return errors.As(err, &ce)
}
