package quote

import (
	"context"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/brcode"
	"github.com/tesouro-treasury/tesouro/money"
	"github.com/tesouro-treasury/tesouro/payment"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/ui/widget"
	"github.com/tesouro-treasury/tesouro/views/internal/form"
)

// pollEvery is how often an unfinished ticket is read again.
const pollEvery = 2 * time.Second

// pollTimeout bounds one status read.
const pollTimeout = 10 * time.Second

// result is the ticket just created, or the operation parked for approval,
// followed until it ends.
type result struct {
	s       *ui.Session
	svc     Service
	th      theme
	keys    keyMap
	account ui.Account
	quote   api.Quote
	in      payment.Intent
	ticket  *api.Ticket
	op      *api.Operation
	// reconciled: the creation's answer was lost and the ticket found by
	// its external id; existing: a ticket of this very payment already had
	// the external id, and nothing was sent.
	reconciled, existing bool
	beneficiary          *form.Option
	countdown            widget.Countdown
	offset               int
	w, h                 int
	// ticketID is the ticket followed: the one created, or the one a
	// parked operation became once approved (before it is first read).
	ticketID uuid.UUID
	// steps are what happened since the creation, with the session time,
	// for the requester to see the operation go through.
	steps []string

	// polling awaits the status read under way (of the ticket, or of the
	// parked operation while it has no ticket).
	polling   ui.Slot
	opPolling ui.Slot
	pollErr   string

	brCode string
	brErr  error
	// qrs caches the QR per size it was fitted to.
	qrs map[[2]int]qrDrawn

	// funding awaits the sandbox's simulated payment.
	funding ui.Slot
	fundErr string
}

// pollMsg is the time for the next status read of result r: the poll of a
// result no longer on screen is dropped, which ends its loop.
type pollMsg struct{ r *result }

// funded is the answer of the sandbox funding call (its error is the
// Result's).
type funded struct {
	ticket     *api.Ticket
	journalErr error
}

func newResult(s *ui.Session, svc Service, q api.Quote, in payment.Intent, out payment.Outcome, b *form.Option) *result {
	r := &result{s: s, svc: svc, th: newTheme(s.Theme), keys: newKeyMap(), account: s.Account, quote: q, in: in, ticket: out.Ticket, op: out.Operation,
		reconciled: out.Reconciled, existing: out.Status == payment.Existing, beneficiary: b}
	if r.ticket != nil {
		r.ticketID = r.ticket.ID
		r.countdown = ticketCountdown(r.ticket)
		r.setBrCode(r.ticket.BrCode())
	}
	if r.op != nil && r.ticket == nil {
		r.step(fmt.Sprintf("sent for approval · %d/%d", r.op.Approvals, r.op.MinApprovals))
	}
	return r
}

// setBrCode checks the BR Code before anyone can see or copy it: a code
// whose CRC or structure is wrong must never be paid.
func (r *result) setBrCode(code string) {
	if code == r.brCode {
		return
	}
	r.brCode, r.brErr, r.qrs = code, nil, nil
	if code == "" {
		return
	}
	r.brErr = brcode.Verify(code)
}

// step records what just happened, at the session's time.
func (r *result) step(what string) {
	r.steps = append(r.steps, r.s.Now().Format("15:04:05")+"  "+what)
}

// following reports whether the parked operation is still being followed
// (it may yet become a ticket).
func (r *result) following() bool {
	return r.ticket == nil && r.ticketID == uuid.Nil && r.op != nil && r.op.Status == api.OperationPending
}

// start begins the countdown and the status polling: of the ticket, or of
// the parked operation until it becomes one.
func (r *result) start() tea.Cmd {
	if r.following() {
		return r.schedulePoll()
	}
	if r.ticket == nil {
		return nil
	}
	var cmds []tea.Cmd
	if !r.ticket.Status.Final() {
		cmds = append(cmds, r.schedulePoll())
		if !r.countdown.Expired(r.s.Now()) {
			cmds = append(cmds, r.countdown.Tick(r.s.Now(), r.s.After))
		}
	}
	return tea.Batch(cmds...)
}

// changed tells the other screens of the result's account that the
// service confirmed a change of what: the ticket was created, funded or
// moved on, or the operation was parked.
func (r *result) changed(what ui.Changed) tea.Cmd {
	return ui.ChangedIn(r.account.ID, what, screenID)
}

func (r *result) schedulePoll() tea.Cmd {
	return r.s.After(pollEvery, func(time.Time) tea.Msg { return pollMsg{r: r} })
}

func (r *result) fetch() tea.Cmd {
	svc, account, id := r.svc, r.account.ID, r.ticketID
	return ui.Fetch(r.s, &r.polling, pollTimeout, func(ctx context.Context) (*api.Ticket, error) {
		return svc.GetTicket(ctx, account, id)
	})
}

func (r *result) fetchOp() tea.Cmd {
	svc, id := r.svc, r.op.ID
	return ui.Fetch(r.s, &r.opPolling, pollTimeout, func(ctx context.Context) (*api.Operation, error) {
		return svc.GetOperation(ctx, id)
	})
}

// onOperation takes a fresh read of the parked operation: each approval,
// then its end (executed into a ticket, rejected, expired, failed), is
// recorded and told; an executed one is followed as its ticket.
func (r *result) onOperation(op *api.Operation) tea.Cmd {
	before := *r.op
	r.op = op
	var cmds []tea.Cmd
	if op.Approvals != before.Approvals {
		r.step(fmt.Sprintf("approved · %d/%d", op.Approvals, op.MinApprovals))
		if op.Status == api.OperationPending {
			cmds = append(cmds, ui.Toast(ui.ToastInfo, fmt.Sprintf("operation approved %d/%d", op.Approvals, op.MinApprovals)))
		}
	}
	if op.Status == before.Status {
		return tea.Batch(append(cmds, r.schedulePoll())...)
	}
	cmds = append(cmds, r.changed(ui.ChangedOperations))
	switch op.Status {
	case api.OperationExecuted:
		id, err := uuid.Parse(op.ExecutedID)
		if err != nil {
			r.step("EXECUTED · the service gave no ticket id: look for external id " + r.in.ExternalID + " in Tickets")
			return tea.Batch(append(cmds, ui.Toast(ui.ToastSuccess, "operation executed"))...)
		}
		r.ticketID = id
		r.step("EXECUTED · ticket " + id.String())
		return tea.Batch(append(cmds, ui.Toast(ui.ToastSuccess, "approved: ticket created"), r.changed(ui.ChangedTickets|ui.ChangedBalances), r.fetch())...)
	case api.OperationRejected:
		r.step(op.Rejection())
		return tea.Batch(append(cmds, ui.Toast(ui.ToastError, "operation "+op.Rejection()))...)
	default:
		r.step(string(op.Status) + ": nothing moved")
		return tea.Batch(append(cmds, ui.Toast(ui.ToastError, "operation "+string(op.Status)))...)
	}
}

func (r *result) onTick(now time.Time) tea.Cmd {
	if r.ticket == nil || r.ticket.Status.Final() || r.countdown.Expired(now) {
		return nil
	}
	return r.countdown.Tick(now, r.s.After)
}

// setTicket takes a fresher copy of the ticket.
func (r *result) setTicket(t *api.Ticket) {
	if t == nil {
		return
	}
	r.ticket = t
	r.countdown = ticketCountdown(t)
	r.setBrCode(t.BrCode())
}

func (m *Screen) updateResult(msg tea.Msg) tea.Cmd {
	r := m.res
	if r == nil {
		return nil
	}
	switch msg := msg.(type) {
	case pollMsg:
		switch {
		case msg.r != r:
			return nil
		case r.ticketID != uuid.Nil:
			return r.fetch()
		case r.following():
			return r.fetchOp()
		}
		return nil
	case ui.Result[*api.Operation]:
		if !r.opPolling.Take(msg) {
			return nil
		}
		if msg.Err != nil || msg.Value == nil {
			r.pollErr = "status not refreshed: " + ui.ErrorText(msg.Err) + " (retrying)"
			return r.schedulePoll()
		}
		r.pollErr = ""
		return r.onOperation(msg.Value)
	case ui.Result[*api.Ticket]:
		if !r.polling.Take(msg) {
			return nil
		}
		if msg.Err != nil {
			r.pollErr = "status not refreshed: " + ui.ErrorText(msg.Err) + " (retrying)"
			return r.schedulePoll()
		}
		r.pollErr = ""
		var before api.TicketStatus
		first := r.ticket == nil
		if !first {
			before = r.ticket.Status
		}
		r.setTicket(msg.Value)
		if r.ticket == nil {
			return r.schedulePoll()
		}
		var moved tea.Cmd
		if r.op != nil && before != r.ticket.Status {
			r.step("ticket " + string(r.ticket.Status))
		}
		if first && !r.ticket.Status.Final() && !r.countdown.Expired(r.s.Now()) {
			moved = r.countdown.Tick(r.s.Now(), r.s.After)
		}
		if before != r.ticket.Status && !first {
			// The ticket moved on (money came in or went out): the other
			// screens show its status and the balances.
			moved = r.changed(ui.ChangedTickets | ui.ChangedBalances)
		}
		if r.ticket.Status.Final() {
			level := ui.ToastSuccess
			if r.ticket.Status != api.TicketPaid {
				level = ui.ToastError
			}
			return tea.Batch(ui.Toast(level, "ticket "+string(r.ticket.Status)), moved)
		}
		cmds := []tea.Cmd{r.schedulePoll(), moved}
		if before != r.ticket.Status {
			cmds = append(cmds, ui.Toast(ui.ToastInfo, "ticket "+string(r.ticket.Status)))
		}
		return tea.Batch(cmds...)
	case ui.Result[funded]:
		if !r.funding.Take(msg) {
			return nil
		}
		var cmds []tea.Cmd
		if jerr := msg.Value.journalErr; jerr != nil {
			cmds = append(cmds, ui.Toast(ui.ToastError, "journal: "+jerr.Error()))
		}
		if msg.Err != nil {
			r.fundErr = "funding refused: " + ui.ErrorText(msg.Err)
			return tea.Batch(cmds...)
		}
		r.fundErr = ""
		r.setTicket(msg.Value.ticket)
		return tea.Batch(append(cmds, ui.Toast(ui.ToastInfo, "payment simulated"), r.changed(ui.ChangedTickets|ui.ChangedBalances))...)
	}
	return nil
}

// canFund says why the sandbox funding key is off ("" when it is on).
func (r *result) canFund() string {
	switch {
	case r == nil || r.ticket == nil:
		return "no ticket"
	case !r.s.SandboxFunding:
		return "only the sandbox can simulate a payment"
	case r.ticket.Status != api.TicketUnpaid:
		return "the ticket is " + string(r.ticket.Status)
	case r.funding.Waiting():
		return "funding under way"
	}
	if err := r.s.Can(ui.ActWrite); err != nil {
		return err.Error()
	}
	return ""
}

// approver reports whether the access may open a parked operation in
// Approvals (the approvers' screen: a requester has nothing there).
func (r *result) approver() bool { return r.s.Can(ui.ActApprove) == nil }

func (r *result) fund() tea.Cmd {
	s, svc, account, t := r.s, r.svc, r.account, *r.ticket
	return ui.Fetch(s, &r.funding, pollTimeout, func(ctx context.Context) (funded, error) {
		nt, err := svc.SandboxFundTicket(ctx, account.ID, t.ID)
		e := s.JournalEntry(account.ID, "sandbox-fund-ticket", "POST /v2/sandbox/tickets/{id}/fund")
		e.IDs = map[string]string{"ticketId": t.ID.String(), "externalId": t.ExternalID}
		e.Amounts = map[string]string{"input": money.Wire(t.Quote.InputAmount, t.Quote.InputCurrency) + " " + t.Quote.InputCurrency}
		e.Outcome = "funded"
		if err != nil {
			e.Outcome = "error: " + ui.ErrorText(err)
		}
		return funded{ticket: nt, journalErr: s.Journal.Record(e)}, err
	})
}

func (m *Screen) keyResult(msg tea.KeyPressMsg) tea.Cmd {
	r := m.res
	if r == nil {
		return nil
	}
	switch msg.String() {
	case "y":
		if r.copyableBrCode(m.s.Now()) {
			return tea.Batch(tea.SetClipboard(r.brCode), ui.Toast(ui.ToastSuccess, "BR Code copied to the clipboard"))
		}
		if r.ticket != nil {
			return tea.Batch(tea.SetClipboard(r.ticket.ID.String()), ui.Toast(ui.ToastSuccess, "ticket id copied"))
		}
		if r.op != nil {
			return tea.Batch(tea.SetClipboard(r.op.ID.String()), ui.Toast(ui.ToastSuccess, "operation id copied"))
		}
	case "f":
		if why := r.canFund(); why != "" {
			return ui.Toast(ui.ToastError, "cannot simulate the payment: "+why)
		}
		return r.fund()
	case "n":
		m.res = nil // its poll, status read and funding are dropped with it
		m.quote = nil
		m.stage = stageForm
		m.entry.done()
		m.entry.offset = 0
		return nil
	case "o", "enter":
		if r.op != nil && r.ticket == nil && r.approver() {
			return ui.Navigate("approvals", r.op.ID.String())
		}
		if r.ticket != nil {
			return ui.Navigate("tickets", r.ticket.ID.String())
		}
	case "t":
		if r.ticket != nil {
			return ui.Navigate("tickets", r.ticket.ID.String())
		}
	case "up", "k":
		r.offset = max(r.offset-1, 0)
	case "down", "j":
		r.offset++
	case "pgup":
		r.offset = max(r.offset-r.h/2, 0)
	case "pgdown":
		r.offset += r.h / 2
	}
	return nil
}

// SetSize implements the stage's part of ui.Screen.
func (r *result) SetSize(w, h int) { r.w, r.h = w, h }

// KeyMap is what the result offers now. y copies the BR Code only while
// it is to be paid; after that (and for tickets without one) it copies the
// ticket's id.
func (r *result) KeyMap() []key.Binding {
	k := r.keys
	copyK, fund, appr, tick := k.Copy, k.Fund, k.Approvals, k.Tickets
	switch {
	case r.copyableBrCode(r.s.Now()):
	case r.ticket != nil:
		copyK.SetHelp("y", "copy the ticket id")
	case r.op != nil:
		copyK.SetHelp("y", "copy the operation id")
	default:
		copyK.SetEnabled(false)
	}
	fund.SetEnabled(r.canFund() == "")
	appr.SetEnabled(r.op != nil && r.approver())
	tick.SetEnabled(r.ticket != nil)
	return []key.Binding{copyK, fund, appr, tick, k.NewQuote, k.Scroll}
}

// View draws the result in its area, from the line it is scrolled to.
func (r *result) View() string {
	lines := r.lines(r.th, r.s.Now(), r.w, r.h, hintsOf(r.KeyMap()))
	r.offset = min(r.offset, max(len(lines)-r.h, 0))
	return fit(lines, r.offset, r.w, r.h)
}

// payable reports whether the ticket still waits for its payment.
func (r *result) payable(now time.Time) bool {
	return r.ticket != nil && r.ticket.Status == api.TicketUnpaid && !r.countdown.Expired(now)
}

// copyableBrCode reports whether y copies the BR Code: a checked code that
// is still to be paid. Once it is paid or dead nobody should pay it again.
func (r *result) copyableBrCode(now time.Time) bool {
	return r.brCode != "" && r.brErr == nil && r.payable(now)
}

// qrAt draws the QR for the space given, cached per size: the code is
// fitted (error correction M, else L) so that it is drawn whole or not at
// all, never cut.
func (r *result) qrAt(w, h int) (string, error) {
	key := [2]int{w, h}
	if c, ok := r.qrs[key]; ok {
		return c.code, c.err
	}
	code, err := widget.QRFit(r.brCode, w, h)
	if r.qrs == nil {
		r.qrs = map[[2]int]qrDrawn{}
	}
	r.qrs[key] = qrDrawn{code, err}
	return code, err
}

// qrDrawn is a QR drawn for one size.
type qrDrawn struct {
	code string
	err  error
}

// lines renders the result in w×h.
func (r *result) lines(th theme, now time.Time, w, h int, hints string) []string {
	if r.op != nil && r.ticket == nil {
		return r.parkedLines(th, w, hints)
	}
	out := r.ticketLines(th, now, w, h)
	if len(r.steps) > 0 {
		// How a parked operation got here, after what is to be paid.
		out = append(out, "", th.title.Render("Progress"))
		for _, st := range r.steps {
			out = append(out, wrapAll([]string{th.dim.Render(st)}, w)...)
		}
	}
	return out
}

// ticketLines are the ticket, its BR Code and QR while it is to be paid.
func (r *result) ticketLines(th theme, now time.Time, w, h int) []string {
	// Beside the details when the QR fits there whole; else below them
	// (scrolled to), at most the full content area.
	t := r.ticket
	var qr []string
	infoW := w
	// The QR is there to be paid: only while the ticket waits for the
	// payment, so that nobody scans a code already paid.
	payable := r.payable(now)
	if r.brCode != "" && r.brErr == nil && payable {
		if code, err := r.qrAt(w-44, h); err == nil {
			qr = strings.Split(strings.TrimRight(code, "\n"), "\n")
			infoW = w - widthOf(qr[0]) - 1
		} else if code, err := r.qrAt(w, h); err == nil {
			qr = strings.Split(strings.TrimRight(code, "\n"), "\n")
		}
	}
	lw := 14
	if infoW < 52 {
		lw = 7
	}
	var info []string
	add := func(label, value string) {
		info = append(info, th.rowIn(label, lw, value, infoW)...)
	}
	title := "Ticket created"
	switch {
	case r.op != nil:
		title = "Approved: ticket created"
	case r.existing:
		title = "Ticket found: created before under this external id, nothing sent again"
	case r.reconciled:
		title = "Ticket created (found by external id after a connection failure)"
	}
	info = append(info, wrapAll([]string{th.title.Render(title)}, infoW)...)
	if r.op != nil {
		add("Operation", fmt.Sprintf("%s · %d/%d %s", r.op.ID, r.op.Approvals, r.op.MinApprovals, r.op.Status))
	}
	add("Ticket", t.ID.String())
	add("Status", statusText(th, t.Status))
	if t.FailureReason != "" {
		add("Failure", t.FailureReason)
	}
	add("Ext. id", nonEmpty(t.ExternalID, r.in.ExternalID))
	q := t.Quote
	if q.InputCurrency == "" {
		q = api.TicketQuote{InputCurrency: r.quote.InputCurrency, InputPaymentMethod: r.quote.InputPaymentMethod, InputAmount: r.quote.InputAmount,
			OutputCurrency: r.quote.OutputCurrency, OutputPaymentMethod: r.quote.OutputPaymentMethod, OutputAmount: r.quote.OutputAmount}
	}
	add("Send", money.Format(q.InputAmount, q.InputCurrency)+" "+q.InputCurrency+" via "+q.InputPaymentMethod)
	add("Receive", money.Format(q.OutputAmount, q.OutputCurrency)+" "+q.OutputCurrency+" via "+q.OutputPaymentMethod)
	if name, where := destination(r.beneficiary, r.in); name != "" || where != "" {
		add("To", nonEmpty(name, where))
		if name != "" && where != "" {
			add("", where)
		}
	}
	switch {
	case t.Status == api.TicketUnpaid:
		add("Expires", r.countdown.View(now, max(infoW-lw-1, 6)))
	case !t.ExpiresAt.IsZero() && !t.Status.Final():
		add("Expiry", "no longer applies: funded")
	}
	for _, id := range ticketIDs(t) {
		add(id[0], id[1])
	}
	if r.pollErr != "" {
		info = append(info, wrapAll([]string{th.warn.Render("! " + r.pollErr)}, infoW)...)
	}
	if r.fundErr != "" {
		info = append(info, wrapAll([]string{th.err.Render("✗ " + r.fundErr)}, infoW)...)
	}
	if r.funding.Waiting() {
		info = append(info, th.dim.Render("simulating the payment…"))
	}
	if !t.Status.Final() {
		info = append(info, th.dim.Render(fmt.Sprintf("status followed live (every %s)", pollEvery)))
	}

	if r.brCode == "" {
		return info
	}
	if r.brErr != nil {
		return append(info, append([]string{""}, wrapAll([]string{th.err.Render("✗ The BR Code failed its check and is not shown: " + r.brErr.Error() + ". Do not pay it; open the ticket in Tickets or contact the service.")}, w)...)...)
	}
	if !payable {
		info = append(info, "", th.title.Render("PIX BR Code")+th.dim.Render(" (no longer to be paid)"))
		for _, l := range strings.Split(ansi.Hardwrap(r.brCode, max(infoW, 1), false), "\n") {
			info = append(info, th.dim.Render(l))
		}
		return info
	}
	info = append(info, "", th.title.Render("PIX BR Code")+th.dim.Render(" (y copies it)"))
	// Cut at the width, never at a word: the code is one token.
	for _, l := range strings.Split(ansi.Hardwrap(r.brCode, max(infoW, 1), false), "\n") {
		info = append(info, th.value.Render(l))
	}
	switch {
	case qr == nil:
		_, err := r.qrAt(w, h)
		return append(info, wrapAll([]string{th.warn.Render("QR not drawn: " + err.Error())}, w)...)
	case infoW < w:
		return sideBySide(info, qr, infoW, 1)
	}
	return append(info, append([]string{""}, qr...)...)
}

// parkedLines follow the parked operation live: its approvals, then how it
// ended when it ended without a ticket.
func (r *result) parkedLines(th theme, w int, hints string) []string {
	op := r.op
	var out []string
	add := func(label, value string) {
		out = append(out, th.rowIn(label, labelW, value, w)...)
	}
	title, why := "Sent for approval", "This access needs other approvers: nothing moves until enough of them approve the ticket."
	switch op.Status {
	case api.OperationPending:
	case api.OperationExecuted:
		title, why = "Approved", "The operation was executed: its ticket is being read."
	case api.OperationRejected:
		title, why = "Rejected", "An approver rejected the operation: nothing moved."
	default:
		title, why = string(op.Status), "The operation ended without a ticket: nothing moved."
	}
	out = append(out, th.title.Render(title))
	if r.reconciled {
		out = append(out, th.dim.Render("(found by external id after a connection failure: sent once)"))
	}
	out = append(out, wrap(why, max(w, 20))...)
	out = append(out, "")
	add("Operation", op.ID.String())
	approvals := fmt.Sprintf("%d/%d", op.Approvals, op.MinApprovals)
	if left := op.MinApprovals - op.Approvals; op.Status == api.OperationPending && left > 0 {
		approvals += th.dim.Render(" · waiting for " + plural(int(left), "more approval"))
	}
	add("Approvals", approvals)
	status := string(op.Status)
	switch op.Status {
	case api.OperationPending:
		status = th.warn.Render("… " + status)
	case api.OperationExecuted:
		status = th.ok.Render("✓ " + status)
	default:
		status = th.err.Render("✗ " + status)
	}
	add("Status", status)
	if op.RejectedBy != "" {
		add("Rejected by", op.RejectedBy)
	}
	if op.Reason != "" {
		add("Reason", op.Reason)
	}
	add("External id", r.in.ExternalID)
	add("You send", money.Format(r.quote.InputAmount, r.quote.InputCurrency)+" "+r.quote.InputCurrency+" via "+r.quote.InputPaymentMethod)
	add("They receive", money.Format(r.quote.OutputAmount, r.quote.OutputCurrency)+" "+r.quote.OutputCurrency+" via "+r.quote.OutputPaymentMethod)
	if name, where := destination(r.beneficiary, r.in); name != "" || where != "" {
		add("Beneficiary", nonEmpty(name, where))
		if name != "" && where != "" {
			add("", where)
		}
	}
	if r.pollErr != "" {
		out = append(out, wrapAll([]string{th.warn.Render("! " + r.pollErr)}, w)...)
	}
	if r.following() {
		out = append(out, th.dim.Render(fmt.Sprintf("followed live (every %s): the ticket appears here once approved", pollEvery)))
	}
	out = append(out, "", th.title.Render("Progress"))
	for _, st := range r.steps {
		out = append(out, wrapAll([]string{th.dim.Render(st)}, w)...)
	}
	return append(out, "", th.dim.Render(hints))
}

// ticketIDs lists the tracking ids that appear as the ticket moves.
func ticketIDs(t *api.Ticket) [][2]string {
	var out [][2]string
	add := func(label, v string) {
		if v != "" {
			out = append(out, [2]string{label, v})
		}
	}
	if s := t.BrazilianFiatSenderInfo; s != nil {
		add("E2E in", s.EndToEndID)
		if s.Name != "" {
			add("Paid by", s.Name)
		}
	}
	if s := t.BrazilianFiatReceiverInfo; s != nil {
		add("E2E out", s.EndToEndID)
	}
	if s := t.BlockchainSenderInfo; s != nil {
		add("Tx in", s.TxHash)
	}
	if s := t.BlockchainReceiverInfo; s != nil {
		add("Tx out", s.TxHash)
		add("Wallet", strings.TrimSpace(s.WalletAddress+" "+s.WalletChain))
	}
	if s := t.MarkupInfo; s != nil {
		add("Tx mkup", s.TxHash)
	}
	return out
}

func statusText(th theme, s api.TicketStatus) string {
	switch s {
	case api.TicketPaid:
		return th.ok.Render("✓ " + string(s))
	case api.TicketFailed, api.TicketPartialFailed, api.TicketCanceled:
		return th.err.Render("✗ " + string(s))
	case api.TicketUnpaid:
		return th.warn.Render("… " + string(s) + " (waiting for the payment)")
	case api.TicketProcessing:
		return th.value.Render(string(s) + " (paid, delivering)")
	case api.TicketPending:
		return th.value.Render(string(s) + " (paid, queued)")
	case api.TicketOnHold:
		return th.warn.Render("… " + string(s) + " (paid, held for review)")
	}
	return string(s)
}

func wrapAll(lines []string, w int) []string {
	var out []string
	for _, l := range lines {
		if widthOf(l) <= w {
			out = append(out, l)
			continue
		}
		out = append(out, wrap(l, max(w, 1))...)
	}
	return out
}
