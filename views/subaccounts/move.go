package subaccounts

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/money"
	"github.com/tesouro-treasury/tesouro/payment"
	"github.com/tesouro-treasury/tesouro/ui"
)

// Moving funds (service.md §8.5): a token balance goes from the operated
// account to another account of the workspace, the main account to one
// of its sub-accounts or a sub-account back to the main account. It is a
// ticket like any other (payment.ToAccount), sent once per external id
// through the payment core; the confirmation names both accounts with
// their balances before and after.

// moveQuoteLife is how long after it was asked a move's quote is still
// sent: the service's 15 s, less a margin for the request on its way.
const moveQuoteLife = 13 * time.Second

// createTimeout bounds a move's creation: the request, then the lookup by
// external id that reconciles a lost answer.
var createTimeout = 2*api.DefaultTimeout + api.DefaultReconcilePolicy.Timeout

// move is a move being set up: from the operated account to another.
type move struct {
	from, to ui.Account
	// toID is the id the ticket names: the sub-account's, or the main
	// account's own id (ui.Account names the main account uuid.Nil).
	toID uuid.UUID
	in   payment.Intent
}

// moveQuote is a move priced: its quote, when it was asked, and the two
// accounts' balances of the token as they stood.
type moveQuote struct {
	mv             move
	q              *api.Quote
	at             time.Time
	fromBal, toBal decimal.Decimal
	// balErr says why a balance could not be read (the move can still be
	// made; the confirmation says the balances are unknown).
	balErr error
}

// moved is what became of a move sent.
type moved struct {
	mv  move
	out payment.Outcome
}

// Report implements ui.Reporter: the outcome in one line, for a move whose
// answer arrives after its session ended and for the screen's toast.
func (r moved) Report(err error) string {
	what := fmt.Sprintf("move of %s %s to %s", money.Format(r.mv.in.Amount, r.mv.in.InCurrency), r.mv.in.InCurrency, r.mv.to.Name)
	switch {
	case errors.Is(err, api.ErrOutcomeUnknown):
		return what + ": outcome unknown (" + ui.ErrorText(err) + "); look for external id " + r.mv.in.ExternalID + " in Tickets"
	case err != nil:
		return what + " not made: " + ui.ErrorText(err)
	case r.out.Status == payment.Parked && r.out.Operation != nil:
		return what + " sent for approval: operation " + short(r.out.Operation.ID)
	case r.out.Status == payment.Existing && r.out.Ticket != nil:
		return what + " already made: ticket " + short(r.out.Ticket.ID) + " " + string(r.out.Ticket.Status)
	case r.out.Ticket != nil:
		return what + ": ticket " + short(r.out.Ticket.ID) + " " + string(r.out.Ticket.Status) + ", credited when paid"
	}
	return what + ": the service answered without a ticket; look for external id " + r.mv.in.ExternalID + " in Tickets"
}

// short is the 8 characters of an id the lists show (and :ticket takes).
func short(id uuid.UUID) string { return id.String()[:8] }

type (
	moveQuotedMsg = ui.Result[moveQuote]
	startMoveMsg  = ui.Result[startMove]
	retryMoveMsg  = ui.Result[retryMove]
	movedMsg      = ui.Result[moved]
)

// startMove is a confirmed move handed back to the screen.
type startMove struct{ mq moveQuote }

// retryMove is a failed move the person chose to try again, under its
// external id.
type retryMove struct{ mv move }

// accountByRow is the account a row id names, from the session's accounts
// (main first) and the loaded sub-accounts: ok false when none does.
func (m *Screen) accountByRow(rowID string) (ui.Account, bool) {
	if rowID == mainRowID {
		return ui.Account{ID: uuid.Nil, Name: m.mainName()}, true
	}
	for _, sa := range m.subs {
		if sa.SubAccountID.String() == rowID {
			return ui.Account{ID: sa.SubAccountID, Name: sa.AccountInfo.Name}, true
		}
	}
	for _, a := range m.s.Accounts {
		if a.MainAccountID != "" && a.ID.String() == rowID {
			return ui.Account{ID: a.ID, Name: a.Name}, true
		}
	}
	return ui.Account{}, false
}

// mainID is the main account's own id, which a move from a sub-account
// names (uuid.Nil until the accounts have loaded).
func (m *Screen) mainID() uuid.UUID {
	for _, a := range m.s.Accounts {
		if a.MainAccountID == "" {
			return a.ID
		}
	}
	return uuid.Nil
}

// startMoveTo opens the move dialogue towards account to: which token,
// how much, then the priced confirmation. It refuses at once what the
// service would: a move to the account itself, between two sub-accounts,
// to a blacklisted account, or by an access that may not pay out.
func (m *Screen) startMoveTo(to ui.Account) tea.Cmd {
	from := m.s.Account
	fromName := from.Name
	if from.Main() {
		fromName = m.mainName()
	}
	from.Name = fromName
	switch {
	case to.ID == from.ID:
		return ui.Toast(ui.ToastError, "Funds move from the account you operate ("+fromName+") to another: select the account they go to")
	case !from.Main() && !to.Main():
		return ui.Toast(ui.ToastError, "A sub-account moves funds only to the main account: select "+m.mainName()+", or operate the main account first")
	case m.isBarred(to.ID):
		return ui.Toast(ui.ToastError, "This access is blacklisted from "+to.Name+": it cannot move funds there")
	}
	if err := m.s.CanPay(payment.Needs{PayOut: true}); err != nil {
		return ui.Toast(ui.ToastError, "Cannot move funds: "+ui.ErrorText(err))
	}
	toID := to.ID
	if to.Main() {
		if toID = m.mainID(); toID == uuid.Nil {
			return ui.Toast(ui.ToastError, "The main account's id has not loaded yet: try again in a moment")
		}
	}
	mv := move{from: from, to: to, toID: toID}
	return ui.Prompt(fmt.Sprintf("Move funds from %s to %s: which token?", fromName, to.Name), strings.Join(money.BalanceTokens(), ", "), validToken, func(tok string) tea.Cmd {
		tok = money.Canonical(strings.TrimSpace(tok))
		return ui.Prompt(fmt.Sprintf("How much %s leaves %s?", tok, fromName), "e.g. 100.00", func(s string) error {
			_, err := moveAmount(s, tok)
			return err
		}, func(s string) tea.Cmd {
			amt, _ := moveAmount(s, tok)
			mv.in = payment.Intent{
				Account: from.ID, InCurrency: tok, InMethod: "INTERNAL", OutCurrency: tok, OutMethod: "INTERNAL",
				Amount: amt, Fixed: payment.FixInput, Pay: payment.Destination{Kind: payment.ToAccount, ID: toID},
				// Made once for this move: a retry or a renewed quote
				// finds the ticket instead of moving twice.
				ExternalID: "move-" + uuid.NewString(),
			}
			if err := mv.in.Validate(); err != nil {
				return ui.Toast(ui.ToastError, "Cannot move funds: "+err.Error())
			}
			return m.quoteMove(mv)
		})
	})
}

// isBarred reports whether the access is blacklisted from account id.
func (m *Screen) isBarred(id uuid.UUID) bool {
	if m.s.Access == nil {
		return false
	}
	for _, b := range m.s.Access.BlacklistedAccountIDs {
		if b == id {
			return true
		}
	}
	return false
}

func validToken(s string) error {
	c := money.Canonical(strings.TrimSpace(s))
	if c == "" || !money.IsToken(c) || !money.SupportsMethod(c, "INTERNAL") {
		return fmt.Errorf("a token held in a balance: %s", strings.Join(money.BalanceTokens(), ", "))
	}
	return nil
}

// moveAmount reads the amount typed for token tok.
func moveAmount(s, tok string) (decimal.Decimal, error) {
	amt, err := money.ParseAmount(strings.TrimSpace(s), tok)
	switch {
	case err != nil:
		return amt, err
	case !amt.IsPositive():
		return amt, errors.New("the amount must be greater than zero")
	}
	return amt, nil
}

// quoteMove prices mv and reads both balances of its token.
func (m *Screen) quoteMove(mv move) tea.Cmd {
	s, svc := m.s, m.svc
	req, cmd := ui.Call(s, requestTimeout, func(ctx context.Context) (moveQuote, error) {
		mq := moveQuote{mv: mv, at: s.Now()}
		q, err := svc.Quote(ctx, mv.in.QuoteRequest())
		if err != nil {
			return mq, err
		}
		mq.q = q
		cur := mv.in.InCurrency
		for _, b := range []struct {
			acct uuid.UUID
			into *decimal.Decimal
		}{{mv.from.ID, &mq.fromBal}, {mv.to.ID, &mq.toBal}} {
			bal, err := svc.Balances(ctx, b.acct)
			if err != nil {
				mq.balErr = err
				break
			}
			*b.into = bal[cur]
		}
		return mq, nil
	})
	m.moving.Await(req)
	return cmd
}

// onMoveQuoted shows the priced move for confirmation.
func (m *Screen) onMoveQuoted(msg moveQuotedMsg) tea.Cmd {
	if msg.Err != nil {
		return ui.Toast(ui.ToastError, "Could not price the move: "+ui.ErrorText(msg.Err))
	}
	mq := msg.Value
	if _, err := mq.mv.in.TicketRequest(mq.q); err != nil {
		return ui.Toast(ui.ToastError, "The service priced another move: "+err.Error())
	}
	_, yes := ui.Answer(m.s, startMove{mq: mq})
	title := fmt.Sprintf("Move %s %s to %s?", money.Format(mq.q.InputAmount, mq.q.InputCurrency), mq.q.InputCurrency, mq.mv.to.Name)
	return ui.Confirm(title, m.moveBody(mq), yes)
}

// moveBody is what the confirmation says: both accounts with their
// balances before and after, what leaves and what arrives, the fees, the
// price, how long the quote lasts, the external id and the environment.
func (m *Screen) moveBody(mq moveQuote) string {
	q, cur := mq.q, mq.q.InputCurrency
	f := func(d decimal.Decimal) string { return cur + " " + money.Format(d, cur) }
	fees := decimal.Zero
	for _, fee := range q.AppliedFees {
		if fee.Currency == cur {
			fees = fees.Add(fee.Amount)
		}
	}
	var b strings.Builder
	if mq.balErr != nil {
		fmt.Fprintf(&b, "From: %s\nTo:   %s\n(balances not read: %s)\n", mq.mv.from.Name, mq.mv.to.Name, ui.ErrorText(mq.balErr))
	} else {
		// The four balances right-aligned, so that the eye compares them.
		nums := []string{
			money.Format(mq.fromBal, cur), money.Format(mq.fromBal.Sub(q.InputAmount), cur),
			money.Format(mq.toBal, cur), money.Format(mq.toBal.Add(q.OutputAmount), cur),
		}
		w := 0
		for _, n := range nums {
			w = max(w, len(n))
		}
		fmt.Fprintf(&b, "From: %s\n      %s %*s → %*s\n", mq.mv.from.Name, cur, w, nums[0], w, nums[1])
		fmt.Fprintf(&b, "To:   %s\n      %s %*s → %*s once paid\n", mq.mv.to.Name, cur, w, nums[2], w, nums[3])
		if short := q.InputAmount.Sub(mq.fromBal); short.IsPositive() {
			fmt.Fprintf(&b, "⚠ %s holds %s less than this: the service will refuse it\n", mq.mv.from.Name, f(short))
		}
	}
	fmt.Fprintf(&b, "Leaves: %s · arrives: %s · fees: %s\n", f(q.InputAmount), f(q.OutputAmount), f(fees))
	if p := payment.QuotePrice(q); p.Known() {
		fmt.Fprintf(&b, "Price: %s\n", p.Both())
	}
	fmt.Fprintf(&b, "Quote: valid until %s (priced again if it runs out)\n", mq.at.Add(moveQuoteLife).Local().Format("15:04:05"))
	if m.s.Access != nil && m.s.Access.AccountPermissions.OperationRequester {
		b.WriteString("Approval: y sends it for approval; nothing moves until the account's approvers approve\n")
	}
	fmt.Fprintf(&b, "External id: %s\nEnvironment: %s", mq.mv.in.ExternalID, m.s.Env)
	return b.String()
}

// onStartMove sends a confirmed move, or prices it again when its quote
// ran out while the confirmation was open (same external id).
func (m *Screen) onStartMove(msg startMoveMsg) tea.Cmd {
	mq := msg.Value.mq
	if m.s.Now().After(mq.at.Add(moveQuoteLife)) {
		return tea.Batch(ui.Toast(ui.ToastInfo, "The quote ran out while the confirmation was open: priced again, nothing was sent"), m.quoteMove(mq.mv))
	}
	s, svc, in, q := m.s, m.svc, mq.mv.in, *mq.q
	mv := mq.mv
	m.moves++
	return ui.Settle(s, &m.sending, createTimeout, func(ctx context.Context) (moved, error) {
		out, err := payment.Send(ctx, svc, s.Journal, in, &q)
		return moved{mv: mv, out: out}, err
	})
}

// onMoved tells what became of the move and has the balances read again.
func (m *Screen) onMoved(msg movedMsg) tea.Cmd {
	m.moves--
	r := msg.Value
	var cmds []tea.Cmd
	if r.out.JournalErr != nil {
		cmds = append(cmds, ui.Toast(ui.ToastError, "journal: "+ui.ErrorText(r.out.JournalErr)))
	}
	switch {
	case errors.Is(msg.Err, api.ErrQuoteExpired):
		return tea.Batch(append(cmds, ui.Toast(ui.ToastInfo, "The quote expired on its way: priced again, nothing was moved"), m.quoteMove(r.mv))...)
	case msg.Err != nil:
		// Trying again keeps the external id: a ticket the failed attempt
		// made after all is found, never made twice (a new m would make a
		// new move).
		_, again := ui.Answer(m.s, retryMove{mv: r.mv})
		body := "The " + r.Report(msg.Err) + ".\n\ny prices the same move again under the same external id (" + r.mv.in.ExternalID +
			"): a ticket the failed attempt made after all is found, not made twice."
		return tea.Batch(append(cmds, ui.Confirm("Try the move again?", body, again))...)
	}
	level := ui.ToastSuccess
	if r.out.Status == payment.Existing {
		level = ui.ToastInfo
	}
	text := r.Report(nil)
	text = strings.ToUpper(text[:1]) + text[1:]
	cmds = append(cmds, ui.Toast(level, text), ui.ChangedIn(m.s.Account.ID, ui.ChangedTickets|ui.ChangedBalances|ui.ChangedOperations, m.ID()))
	return tea.Batch(cmds...)
}

// moveFromCommand opens the move :move asked for: to the account rowID
// names, or with none, to the main account from a sub-account, else after
// asking which sub-account.
func (m *Screen) moveFromCommand(rowID string) tea.Cmd {
	if rowID == "" {
		if !m.s.Account.Main() {
			rowID = mainRowID
		} else {
			return ui.Prompt("Move funds from "+m.mainName()+" to which sub-account?", "its name", func(s string) error {
				_, err := m.subByName(s)
				return err
			}, func(s string) tea.Cmd {
				to, _ := m.subByName(s)
				return m.startMoveTo(to)
			})
		}
	}
	to, ok := m.accountByRow(rowID)
	if !ok {
		return ui.Toast(ui.ToastError, "No account "+rowID+" to move funds to")
	}
	return m.startMoveTo(to)
}

// subByName is the sub-account named s (case aside), among those the
// access may operate.
func (m *Screen) subByName(s string) (ui.Account, error) {
	s = strings.TrimSpace(s)
	var names []string
	for _, a := range m.s.Accounts {
		if a.MainAccountID == "" {
			continue
		}
		if strings.EqualFold(a.Name, s) || a.ID.String() == s {
			return ui.Account{ID: a.ID, Name: a.Name}, nil
		}
		names = append(names, a.Name)
	}
	return ui.Account{}, fmt.Errorf("no sub-account named %q: %s", s, strings.Join(names, ", "))
}
