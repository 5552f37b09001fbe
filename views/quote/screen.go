package quote

import (
	"context"
	"errors"
	"fmt"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/ui/widget"
	"github.com/tesouro-treasury/tesouro/views/internal/pixholder"
)

// QuoteLife is how long a quote can be turned into a ticket (service.md §6).
const QuoteLife = 15 * time.Second

// sendMargin is the least time a quote must have left for a ticket to be
// sent with it: the request still has to reach the service.
const sendMargin = time.Second

// quoteTimeout bounds a quote request: past it the quote would have little
// of its 15 s left anyway.
const quoteTimeout = 10 * time.Second

// createTimeout bounds a ticket creation: one whole exchange with the
// service, then the client's lookup by externalId when the answer was lost
// (which runs to its own end even past this bound: whether money moves
// matters more). Shorter, a creation the service is still settling would be
// reported as failed while it may have succeeded.
var createTimeout = api.DefaultTimeout + api.DefaultReconcilePolicy.Timeout

// stage is where the user is in the flow.
type stage int

const (
	stageForm    stage = iota // composing the request, reading the quote
	stageDetails              // the blocks the ticket needs
	stageConfirm              // the last look before money moves
	stageSending              // the create call is under way
	stageResult               // the ticket (or the parked operation)
)

// errExpired is the guard's refusal.
var errExpired = errors.New("the quote has expired")

// CheckLive is the expiry guard: a quote may be sent only while at least
// sendMargin is left before its deadline, by the session clock.
func CheckLive(c widget.Countdown, now time.Time) error {
	if c.Deadline.IsZero() || c.Remaining(now) < sendMargin {
		return errExpired
	}
	return nil
}

// Screen is the quote builder.
type Screen struct {
	s    *ui.Session
	svc  Service
	th   theme
	keys keyMap
	w, h int

	stage   stage
	editing bool
	form    *quoteForm
	offset  int

	// The quote on screen and the request that produced it.
	quote     *api.Quote
	quoteReq  api.QuoteRequest
	countdown widget.Countdown
	// quoting awaits the quote asked last; asking again, or editing the
	// form, drops the answer of the one before.
	quoting  ui.Slot
	quoteErr string
	auto     bool
	// previous is the quote replaced while confirming: the confirmation
	// shows old and new side by side until the user confirms again.
	previous *api.Quote
	// requoting is true while a re-quote for an expired confirmation runs.
	requoting bool
	// renewedAt is when the quote under the confirmation was last
	// replaced: y is disarmed for armDelay after it.
	renewedAt time.Time

	// The intent: one externalId per conversion the user means to make.
	externalID string
	intentKey  string

	details *details
	// listing awaits the beneficiaries of the open picker.
	listing ui.Slot
	// markupListing awaits the service wallets of the markup picker.
	markupListing ui.Slot
	// benStale is true when beneficiaries changed while the ticket body
	// was fixed (confirming, sending): the picker reloads on the way back.
	benStale bool
	// ticketReq is the body confirmed by the user.
	ticketReq  api.CreateTicketRequest
	confirmErr string
	// creating awaits the ticket creation: only its answer may show a
	// ticket or end the intent.
	creating ui.Slot

	// The PIX payout's holder (pix-info) and the month's limits, read for
	// the confirmation.
	holding  ui.Slot
	holder   pixholder.Lookup
	limiting ui.Slot
	limits   *api.LimitInfo
	// minApprovals is how many approvals a parked ticket needed, learnt
	// from the last one this screen parked (0: not known yet).
	minApprovals int32

	res  *result
	info string
}

// New builds the quote builder for a session, asking svc.
func New(s *ui.Session, svc Service) ui.Screen {
	m := &Screen{s: s, svc: svc, th: newTheme(s.Theme), keys: newKeyMap()}
	m.form = newForm(m.denied(ui.ActMarkup))
	return m
}

// screenID is the quote builder's screen id.
const screenID = "quote"

// ID implements ui.Screen.
func (m *Screen) ID() string { return screenID }

// Title implements ui.Screen.
func (m *Screen) Title() string { return "Quote" }

// Init implements ui.Screen.
func (m *Screen) Init() tea.Cmd { return nil }

// SetSize implements ui.Screen.
func (m *Screen) SetSize(w, h int) { m.w, m.h = max(w, 0), max(h, 0) }

// Capturing implements ui.Screen: keys belong to the screen while a field
// has focus and during the confirmation (where any key but y means no).
func (m *Screen) Capturing() bool {
	switch m.stage {
	case stageForm:
		return m.editing
	case stageDetails, stageConfirm, stageSending:
		return true
	}
	return false
}

// Busy implements ui.Screen: a quote is being turned into a ticket, or
// the ticket made of it still waits for its payment (quitting would leave
// an unpaid ticket without anyone watching it).
func (m *Screen) Busy() bool {
	switch m.stage {
	case stageDetails, stageConfirm, stageSending:
		return true
	case stageResult:
		return m.res != nil && m.res.payable(m.s.Now())
	}
	return false
}

// denied is why the session may not take a, or "".
func (m *Screen) denied(a ui.Action) string {
	if err := m.s.Can(a); err != nil {
		return err.Error()
	}
	return ""
}

// continueDenied says why the quote on screen cannot become a ticket.
func (m *Screen) continueDenied() string {
	if m.quote == nil {
		return "get a quote first"
	}
	if r := m.denied(ui.ActCreateTicket); r != "" {
		return r
	}
	req := Required(m.quote)
	if req.PayOut == PayOutYes {
		if r := m.denied(ui.ActPayOut); r != "" {
			return r + ": this output pays out of the account"
		}
	}
	if req.Needs(BlockMarkup) {
		if r := m.denied(ui.ActMarkup); r != "" {
			return r + ": this quote carries a markup"
		}
	}
	return ""
}

// quoted is a quote with the request it prices and the moment that
// request left.
type quoted struct {
	sent  time.Time
	req   api.QuoteRequest
	quote *api.Quote
}

// requestQuote asks for a quote for req. The countdown runs from the moment
// the request left: the service issued the quote after that, so the
// countdown never promises more time than the service gives.
func (m *Screen) requestQuote(req api.QuoteRequest) tea.Cmd {
	m.quoteErr = ""
	s, svc := m.s, m.svc
	return ui.Fetch(s, &m.quoting, quoteTimeout, func(ctx context.Context) (quoted, error) {
		sent := s.Now()
		q, err := svc.Quote(ctx, req)
		return quoted{sent: sent, req: req, quote: q}, err
	})
}

// quoteFromForm validates the form and asks for a quote, bound to the
// operated account.
func (m *Screen) quoteFromForm() tea.Cmd {
	m.form.setMarkupDenied(m.denied(ui.ActMarkup))
	m.form.inlineDenied = ""
	if m.s.Access != nil && m.s.Access.AccountPermissions.EnforceAllowedBeneficiaries {
		m.form.inlineDenied = "this access may pay registered beneficiaries only"
	}
	req, bad := m.form.request(api.QuoteRequest{SubAccountID: m.s.Account.ID})
	if bad != nil {
		m.editing = true
		m.form.focusOn(bad.ID)
		return nil
	}
	m.editing = false
	return m.requestQuote(req)
}

// Update implements ui.Screen.
func (m *Screen) Update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case ui.Result[quoted]:
		if !m.quoting.Take(msg) {
			return m, nil // an older request's, or another account's
		}
		return m, m.onQuote(msg)
	case widget.TickMsg:
		return m, m.onTick(msg)
	case ui.Result[beneficiaries]:
		if m.listing.Take(msg) {
			m.onBeneficiaries(msg)
		}
		return m, nil
	case ui.Result[markupWallets]:
		if m.markupListing.Take(msg) {
			m.onMarkupWallets(msg)
		}
		return m, nil
	case ui.ChangedMsg:
		if msg.For(m.s, ui.ChangedBeneficiaries) {
			return m, m.reloadBeneficiaries()
		}
		return m, nil
	case ui.Result[created]:
		if !m.creating.Take(msg) {
			return m, nil // not the creation this screen sent
		}
		return m, m.onCreated(msg)
	case pollMsg, ui.Result[*api.Ticket], ui.Result[*api.Operation], ui.Result[funded]:
		return m, m.updateResult(msg)
	case ui.Result[pixholder.Holder]:
		if m.holding.Take(msg) {
			m.holder.Take(msg.Value, msg.Err)
		}
		return m, nil
	case ui.Result[*api.AccountLimits]:
		if m.limiting.Take(msg) {
			m.onLimits(msg)
		}
		return m, nil
	case armMsg:
		return m, nil // y is armed again: the view says so
	case tea.KeyPressMsg:
		cmd := m.onKey(msg)
		if m.benStale {
			cmd = tea.Batch(cmd, m.reloadBeneficiaries())
		}
		return m, cmd
	case tea.PasteMsg:
		return m, m.onPaste(msg)
	}
	return m, nil
}

// onPaste gives pasted text (an address, a signature) to the text field
// that has focus.
func (m *Screen) onPaste(msg tea.PasteMsg) tea.Cmd {
	var cmd tea.Cmd
	switch {
	case m.stage == stageForm && m.editing:
		var changed bool
		if changed, cmd = m.form.focused().Paste(msg); changed {
			m.formChanged()
		}
	case m.stage == stageDetails:
		c := m.details.current()
		if c.p != nil {
			return c.p.Paste(msg)
		}
		var changed bool
		if changed, cmd = c.f.Paste(msg); changed {
			c.f.Err = "" // about a value that is no longer there
		}
		m.details.refresh()
	}
	return cmd
}

func (m *Screen) onQuote(msg ui.Result[quoted]) tea.Cmd {
	m.info = ""
	wasRequote := m.requoting
	m.requoting = false
	if msg.Err != nil {
		m.quoteErr = "Quote refused: " + ui.ErrorText(msg.Err)
		if wasRequote {
			m.confirmErr = "The quote expired and a new one could not be had: " + ui.ErrorText(msg.Err) + ". Press r to try again or esc to go back."
		}
		return nil
	}
	if m.stage == stageConfirm && m.quote != nil && m.previous == nil {
		m.previous = m.quote
	}
	m.quote = msg.Value.quote
	m.quoteReq = msg.Value.req
	m.countdown = widget.Countdown{
		// Named after the request: a countdown of a quote replaced since
		// lets its ticker die.
		ID:       fmt.Sprintf("quote-%d", msg.Req.ID),
		Deadline: msg.Value.sent.Add(QuoteLife),
		Total:    QuoteLife,
	}
	tick := m.countdown.Tick(m.s.Now(), m.s.After)
	if m.stage == stageConfirm {
		// The ticket body was built for the old token: swap it in, and
		// hold y until the new numbers have been seen.
		m.ticketReq.QuoteToken = m.quote.QuoteToken
		m.confirmErr = ""
		return tea.Batch(tick, m.renewed(m.s.Now()))
	}
	return tick
}

func (m *Screen) onTick(msg widget.TickMsg) tea.Cmd {
	if m.res != nil && msg.ID == m.res.countdown.ID {
		return m.res.onTick(m.s.Now())
	}
	if msg.ID != m.countdown.ID || m.quote == nil {
		return nil // a superseded countdown: let its ticker die
	}
	now := m.s.Now()
	if !m.countdown.Expired(now) {
		return m.countdown.Tick(now, m.s.After)
	}
	switch {
	case m.stage == stageConfirm && m.auto && !m.requoting && !m.quoting.Waiting():
		// Expired under the user's eyes: never let it be confirmed. Auto
		// re-quote gets a new one and shows what changed; without it the
		// confirmation says it expired and offers r.
		return m.requoteForConfirm()
	case m.stage == stageForm && m.auto && !m.quoting.Waiting():
		return m.requestQuote(m.quoteReq)
	}
	return nil
}

func (m *Screen) requoteForConfirm() tea.Cmd {
	m.requoting = true
	if m.previous == nil {
		m.previous = m.quote
	}
	return m.requestQuote(m.quoteReq)
}

func (m *Screen) onKey(msg tea.KeyPressMsg) tea.Cmd {
	switch m.stage {
	case stageForm:
		if m.editing {
			return m.keyEditing(msg)
		}
		return m.keyForm(msg)
	case stageDetails:
		return m.keyDetails(msg)
	case stageConfirm:
		return m.keyConfirm(msg)
	case stageSending:
		return nil
	case stageResult:
		return m.keyResult(msg)
	}
	return nil
}

func (m *Screen) keyEditing(msg tea.KeyPressMsg) tea.Cmd {
	m.info = ""
	switch msg.String() {
	case "esc":
		m.editing = false
		return nil
	case "tab", "down":
		if !m.moveForm(1) {
			m.info = "Last field: enter gets the quote, esc leaves the form."
		}
		return nil
	case "shift+tab", "up":
		if !m.moveForm(-1) {
			m.info = "First field."
		}
		return nil
	case "enter":
		return m.quoteFromForm()
	}
	changed, cmd := m.form.focused().Update(msg)
	if changed {
		m.formChanged()
	}
	return cmd
}

// formChanged drops the quote on screen: it no longer prices what the form
// says, so it must not be carried on (an answer still in flight is dropped
// too).
func (m *Screen) formChanged() {
	m.form.refresh()
	if m.quote != nil || m.quoting.Waiting() {
		m.quote = nil
		m.quoting.Cancel()
		m.countdown = widget.Countdown{}
	}
}

func (m *Screen) keyForm(msg tea.KeyPressMsg) tea.Cmd {
	switch {
	case key.Matches(msg, m.keys.Edit):
		// The form always opens at its first field, wherever it was left:
		// keys typed from memory land where the user expects.
		m.editing = true
		m.info = ""
		m.form.focusOn(m.form.visibleFields()[0].ID)
		return nil
	case key.Matches(msg, m.keys.Requote):
		switch {
		case m.quote != nil:
			return m.requestQuote(m.quoteReq)
		case m.quoteErr != "":
			return m.quoteFromForm() // try again
		}
		return nil
	case key.Matches(msg, m.keys.Auto):
		m.auto = !m.auto
		if m.auto && m.quote != nil && m.countdown.Expired(m.s.Now()) && !m.quoting.Waiting() {
			return m.requestQuote(m.quoteReq)
		}
		return nil
	case key.Matches(msg, m.keys.Continue), msg.String() == "enter":
		if m.quote == nil {
			return m.quoteFromForm()
		}
		return m.toDetails()
	case msg.String() == "up":
		m.offset = max(m.offset-1, 0)
	case msg.String() == "down":
		m.offset++
	}
	return nil
}

// toDetails moves on from a live quote to the ticket details.
func (m *Screen) toDetails() tea.Cmd {
	if r := m.continueDenied(); r != "" {
		m.info = "Cannot continue: " + r
		return nil
	}
	if CheckLive(m.countdown, m.s.Now()) != nil {
		m.info = "The quote has expired and cannot become a ticket: press r to re-quote."
		return nil
	}
	m.info = ""
	// One externalId per intent: the same request keeps its id across
	// re-quotes and retries; a different request is a new intent.
	if k := intentKey(m.quoteReq); m.externalID == "" || k != m.intentKey {
		m.externalID = uuid.NewString()
		m.intentKey = k
		m.details = nil
	}
	m.stage = stageDetails
	req := Required(m.quote)
	req.BrCode = m.quoteReq.OutputBrCode
	if m.details != nil && sameRequirements(m.details.req, req) {
		return nil // the details typed for this intent stay
	}
	m.details = newDetails(req, m.externalID)
	m.listing.Cancel()
	m.markupListing.Cancel()
	return tea.Batch(m.loadBeneficiaries(), m.loadMarkupWallets())
}

// intentKey identifies what the user asked for, so that a re-quote of the
// same request stays the same intent.
func intentKey(r api.QuoteRequest) string {
	nd := func(d decimal.NullDecimal) string {
		if !d.Valid {
			return "-"
		}
		return d.Decimal.String()
	}
	return fmt.Sprint(r.SubAccountID, r.InputCurrency, r.InputPaymentMethod, nd(r.InputAmount), nd(r.OutputAmount),
		r.OutputCurrency, r.OutputPaymentMethod, r.InputThirdParty, r.OutputThirdParty, r.BlockchainSendMethod,
		nd(r.MarkupFloatingFee), nd(r.MarkupInputFixedFee), nd(r.MarkupOutputFixedFee), r.MarkupCurrency, r.OutputBrCode)
}

func sameRequirements(a, b Requirements) bool {
	return fmt.Sprint(a) == fmt.Sprint(b)
}

// reloadBeneficiaries lists the beneficiaries of the open picker again
// after one was created or deleted. The list on screen stays until the new
// one arrives; the choice stays if the beneficiary is still there. Once
// the ticket is confirmed its body is fixed, so the picker is left alone.
func (m *Screen) reloadBeneficiaries() tea.Cmd {
	if m.details == nil || m.details.picker() == nil || m.details.outKind == "" {
		return nil
	}
	if m.stage != stageForm && m.stage != stageDetails {
		m.benStale = true // reloaded once the user is back at the details
		return nil
	}
	m.benStale = false
	return m.loadBeneficiaries()
}

func (m *Screen) onBeneficiaries(msg ui.Result[beneficiaries]) {
	p := m.details.picker()
	if !fillPicker(p, "the beneficiaries", msg.Err, msg.Value.options) {
		return
	}
	if msg.Value.more {
		p.LoadErr = fmt.Sprintf("only the first %d beneficiaries were loaded: type to filter them", maxBeneficiaries)
	}
}

func (m *Screen) keyDetails(msg tea.KeyPressMsg) tea.Cmd {
	if msg.String() == "esc" {
		m.stage = stageForm
		m.editing = false
		return nil
	}
	if msg.String() == "ctrl+s" {
		return m.toConfirm()
	}
	if key.Matches(msg, m.keys.Unlock) {
		m.details.unlockExternal()
		return nil
	}
	done, cmd := m.details.update(msg)
	if done {
		return m.toConfirm()
	}
	return cmd
}

// toConfirm validates the details and shows the confirmation.
func (m *Screen) toConfirm() tea.Cmd {
	req, bad := m.details.build(m.quote.QuoteToken, m.s.Now())
	if bad != nil {
		for i, e := range m.details.entries {
			if e == bad {
				m.details.focusAt(i)
			}
		}
		return nil
	}
	if m.details.outKind == kindWallet && !m.details.ownWallet() && Required(m.quote).PayOut != PayOutNo {
		if r := m.denied(ui.ActPayOut); r != "" {
			m.details.picker().Err = r + ": choose the own service wallet"
			return nil
		}
	}
	m.externalID = req.ExternalID
	m.ticketReq = req
	m.previous = nil
	m.renewedAt = time.Time{}
	m.confirmErr = ""
	m.stage = stageConfirm
	m.offset = 0
	cmds := []tea.Cmd{m.lookupHolder(), m.loadLimits()}
	if m.auto && CheckLive(m.countdown, m.s.Now()) != nil {
		cmds = append(cmds, m.requoteForConfirm())
	}
	return tea.Batch(cmds...)
}

// canConfirm says why y does nothing now ("" when it creates the ticket):
// no quote yet, an expired one, numbers that just changed, or a PIX key
// the directory does not know.
func (m *Screen) canConfirm(now time.Time) string {
	switch {
	case m.requoting || m.quoting.Waiting():
		return "a new quote is on its way"
	case CheckLive(m.countdown, now) != nil:
		return "the quote expired"
	case !m.armed(now):
		return "the quote was just renewed"
	case m.holding.Waiting():
		return "the PIX directory has not answered yet"
	case m.holder.Missing:
		return "the PIX key has no holder"
	}
	return ""
}

func (m *Screen) keyConfirm(msg tea.KeyPressMsg) tea.Cmd {
	switch msg.String() {
	case "y":
		// y is never "no": when it cannot confirm it does nothing, and the
		// y line says why.
		if m.canConfirm(m.s.Now()) != "" {
			return nil
		}
		return m.submit()
	case "r":
		if !m.quoting.Waiting() {
			return m.requoteForConfirm()
		}
		return nil
	case "up", "k":
		// Scrolling is neither yes nor no: the details may not fit.
		m.offset = max(m.offset-1, 0)
		return nil
	case "down", "j":
		m.offset++
		return nil
	}
	// Anything else is "no": back to the details, nothing sent.
	m.stage = stageDetails
	m.previous = nil
	m.renewedAt = time.Time{}
	m.confirmErr = ""
	m.holding.Cancel()
	m.limiting.Cancel()
	return nil
}
