package quote

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
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

// QuoteLife is how long a quote can be turned into a ticket (service.md §6).
const QuoteLife = 15 * time.Second

// sendMargin is the least time a quote must have left for a ticket to be
// sent with it: the request still has to reach the service.
const sendMargin = time.Second

// quoteTimeout bounds a quote request: past it the quote would have little
// of its 15 s left anyway.
const quoteTimeout = 10 * time.Second

// createTimeout bounds a ticket creation: the look-up by external id, one
// whole exchange with the service, then the client's look-up when the
// answer was lost (which runs to its own end even past this bound: whether
// money moves matters more). Shorter, a creation the service is still
// settling would be reported as failed while it may have succeeded.
var createTimeout = 2*api.DefaultTimeout + api.DefaultReconcilePolicy.Timeout

// stage is where the user is in the flow.
type stage int

const (
	stageForm    stage = iota // composing the intent, reading the quote
	stageDetails              // what the ticket needs
	stageConfirm              // the last look before money moves
	stageSending              // the creation is under way
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

// Screen is the quote builder. One payment.Intent goes from stage to
// stage: the form composes it and it is quoted, the details fill it in,
// the confirmation shows it, and payment.Send sends it with its quote.
type Screen struct {
	s    *ui.Session
	svc  Service
	th   theme
	keys keyMap
	w, h int

	stage   stage
	entry   *entry
	details *details
	confirm *confirmation
	res     *result

	// The quote on screen and the intent it prices.
	quote     *api.Quote
	quoted    payment.Intent
	countdown widget.Countdown
	// quoting awaits the quote asked last; asking again, or editing the
	// form, drops the answer of the one before.
	quoting  ui.Slot
	quoteErr string
	auto     bool
	// requoting is true while a re-quote for an expired confirmation runs.
	requoting bool

	// The external id: one per payment the user means to make.
	externalID string
	intentKey  string

	// listing awaits the beneficiaries of the open picker.
	listing ui.Slot
	// markupListing awaits the service wallets of the markup picker.
	markupListing ui.Slot
	// benStale is true when beneficiaries changed while the intent was
	// fixed (confirming, sending): the picker reloads on the way back.
	benStale bool
	// creating awaits the ticket creation: only its answer may show a
	// ticket or end the intent.
	creating ui.Slot
	// railsReq awaits the fiat rails the account may use; rails is their
	// answer (nil until it came, or when it failed: the service then
	// refuses a locked rail itself).
	railsReq ui.Slot
	rails    *api.AccountMetadata
	// minApprovals is how many approvals a parked ticket needed, learnt
	// from the last one this screen parked (0: not known yet).
	minApprovals int32
}

// The screen says what ending its session does to its flow, and its
// creation's result says what became of it when it arrives after.
var (
	_ ui.Stopper  = (*Screen)(nil)
	_ ui.Reporter = sent{}
)

// New builds the quote builder for a session, asking svc.
func New(s *ui.Session, svc Service) ui.Screen {
	m := &Screen{s: s, svc: svc, th: newTheme(s.Theme), keys: newKeyMap()}
	m.entry = newEntry(m)
	m.entry.form.SetStyles(m.th.form())
	m.entry.setAccess(m.denied(payment.Needs{Markup: true}))
	return m
}

// screenID is the quote builder's screen id.
const screenID = "quote"

// ID implements ui.Screen.
func (m *Screen) ID() string { return screenID }

// Title implements ui.Screen.
func (m *Screen) Title() string { return "Quote" }

// Init implements ui.Screen.
func (m *Screen) Init() tea.Cmd {
	svc, account := m.svc, m.s.Account.ID
	return ui.Fetch(m.s, &m.railsReq, quoteTimeout, func(ctx context.Context) (*api.AccountMetadata, error) {
		return svc.Metadata(ctx, account)
	})
}

// SetSize implements ui.Screen.
func (m *Screen) SetSize(w, h int) {
	m.w, m.h = max(w, 0), max(h, 0)
	m.entry.SetSize(m.w, m.h)
	if m.details != nil {
		m.details.SetSize(m.w, m.h)
	}
	if m.confirm != nil {
		m.confirm.SetSize(m.w, m.h)
	}
	if m.res != nil {
		m.res.SetSize(m.w, m.h)
	}
}

// Capturing implements ui.Screen: keys belong to the screen while a field
// has focus and during the confirmation (where any key but y means no).
func (m *Screen) Capturing() bool {
	switch m.stage {
	case stageForm:
		return m.entry.editing
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

// Stopping implements ui.Stopper: what ending the session (an account
// switch, quitting) does to the flow under way.
func (m *Screen) Stopping() string {
	switch m.stage {
	case stageDetails, stageConfirm:
		return "the quote is dropped: it belongs to this account"
	case stageSending:
		return "the ticket being created is finished and reported here"
	case stageResult:
		if m.res != nil && m.res.payable(m.s.Now()) {
			return "ticket " + m.res.ticket.ID.String() + " stays unpaid until it is paid or expires: follow it in Tickets"
		}
	}
	return ""
}

// denied is why the session may not make a payment with needs, or "".
func (m *Screen) denied(n payment.Needs) string {
	if err := m.s.CanPay(n); err != nil {
		return err.Error()
	}
	return ""
}

// continueDenied says why the quote on screen cannot become a ticket. A
// chain output may still go to the account's own wallet, which takes no
// payOut: that is decided once the details name where it goes.
func (m *Screen) continueDenied() string {
	if m.quote == nil {
		return "get a quote first"
	}
	n := m.quoted.Needs()
	if r, _ := m.quoted.Rail(); r.PayOut == payment.PayOutUnlessOwnWallet {
		n.PayOut = false
	}
	n.Markup = payment.HasMarkup(m.quote)
	err := m.s.CanPay(n)
	if err == nil {
		return ""
	}
	var de *payment.DeniedError
	if errors.As(err, &de) {
		switch de.Flag {
		case "payOut":
			return err.Error() + ": this output pays out of the account"
		case "markup":
			return err.Error() + ": this quote carries a markup"
		}
	}
	return err.Error()
}

// quoted is a quote with the intent it prices and the moment its request
// left.
type quoted struct {
	sent  time.Time
	in    payment.Intent
	quote *api.Quote
}

// requestQuote asks for the quote of in. The countdown runs from the
// moment the request left: the service issued the quote after that, so the
// countdown never promises more time than the service gives.
func (m *Screen) requestQuote(in payment.Intent) tea.Cmd {
	m.quoteErr = ""
	s, svc := m.s, m.svc
	req := in.QuoteRequest()
	return ui.Fetch(s, &m.quoting, quoteTimeout, func(ctx context.Context) (quoted, error) {
		sent := s.Now()
		q, err := svc.Quote(ctx, req)
		return quoted{sent: sent, in: in, quote: q}, err
	})
}

// quoteFromForm reads the form into the intent, lets the payment core
// judge it, and asks for its quote in the operated account.
func (m *Screen) quoteFromForm() tea.Cmd {
	e := m.entry
	e.setAccess(m.denied(payment.Needs{Markup: true}))
	if !e.form.Validate() {
		// Enter from outside the form (or r) reaches here unchecked.
		e.editing = true
		return nil
	}
	in := e.intent(m.s.Account.ID)
	if err := in.Validate(); err != nil && e.refuse(err) {
		e.editing = true
		return nil
	}
	if in.Pay.Kind == payment.ToBrCode {
		var de *payment.DeniedError
		if err := m.s.CanPay(payment.Needs{Inline: true}); errors.As(err, &de) && de.Flag == "enforceAllowedBeneficiaries" {
			e.form.SetFieldError(fBrCode, de.Msg)
			e.editing = true
			return nil
		}
	}
	e.done()
	return m.requestQuote(in)
}

// Update implements ui.Screen. After every message the confirmation, when
// open, records what of it is on screen: y waits until all of it has been.
func (m *Screen) Update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	s, cmd := m.update(msg)
	if m.stage == stageConfirm && m.confirm != nil {
		m.confirm.shown(m.s.Now())
	}
	return s, cmd
}

func (m *Screen) update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case ui.Result[quoted]:
		if !m.quoting.Take(msg) {
			return m, nil // an older request's, or another account's
		}
		return m, m.onQuote(msg)
	case widget.TickMsg:
		return m, m.onTick(msg)
	case ui.Result[*api.AccountMetadata]:
		if m.railsReq.Take(msg) && msg.Err == nil {
			m.rails = msg.Value
			m.entry.form.Refresh() // marks a locked rail already chosen
		}
		return m, nil
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
	case ui.Result[sent]:
		if !m.creating.Take(msg) {
			return m, nil // not the creation this screen sent
		}
		return m, m.onSent(msg)
	case pollMsg, ui.Result[*api.Ticket], ui.Result[*api.Operation], ui.Result[funded]:
		return m, m.updateResult(msg)
	case ui.Result[pixholder.Holder], ui.Result[*api.AccountLimits]:
		if m.confirm != nil {
			m.confirm.take(msg)
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
		switch {
		case m.stage == stageForm && m.entry.editing:
			return m, m.entry.update(msg)
		case m.stage == stageDetails:
			return m, m.details.update(msg)
		}
	}
	return m, nil
}

func (m *Screen) onQuote(msg ui.Result[quoted]) tea.Cmd {
	m.entry.info = ""
	wasRequote := m.requoting
	m.requoting = false
	if msg.Err != nil {
		m.quoteErr = "Quote refused: " + ui.ErrorText(msg.Err)
		if wasRequote && m.confirm != nil {
			m.confirm.err = "The quote expired and a new one could not be had: " + ui.ErrorText(msg.Err) + ". Press r to try again or esc to go back."
		}
		return nil
	}
	old := m.quote
	m.quote = msg.Value.quote
	m.quoted = msg.Value.in
	m.countdown = widget.Countdown{
		// Named after the request: a countdown of a quote replaced since
		// lets its ticker die.
		ID:       fmt.Sprintf("quote-%d", msg.Req.ID),
		Deadline: msg.Value.sent.Add(QuoteLife),
		Total:    QuoteLife,
	}
	tick := m.countdown.Tick(m.s.Now(), m.s.After)
	if m.stage == stageConfirm && m.confirm != nil {
		// The intent stays; its quote is new: hold y until the new
		// numbers have been seen.
		return tea.Batch(tick, m.confirm.renewed(old, m.s.Now()))
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
		return m.requestQuote(m.quoted)
	}
	return nil
}

func (m *Screen) requoteForConfirm() tea.Cmd {
	m.requoting = true
	return m.requestQuote(m.quoted)
}

func (m *Screen) onKey(msg tea.KeyPressMsg) tea.Cmd {
	switch m.stage {
	case stageForm:
		if m.entry.editing {
			return m.entry.update(msg)
		}
		return m.keyForm(msg)
	case stageDetails:
		return m.details.update(msg)
	case stageConfirm:
		return m.keyConfirm(msg)
	case stageResult:
		return m.keyResult(msg)
	}
	return nil
}

// formChanged drops the quote on screen: it no longer prices what the form
// says, so it must not be carried on (an answer still in flight is dropped
// too).
func (m *Screen) formChanged() {
	if m.quote != nil || m.quoting.Waiting() {
		m.quote = nil
		m.quoting.Cancel()
		m.countdown = widget.Countdown{}
	}
}

func (m *Screen) keyForm(msg tea.KeyPressMsg) tea.Cmd {
	k := m.keys
	switch {
	case key.Matches(msg, k.Edit):
		return m.entry.edit()
	case key.Matches(msg, k.Requote):
		switch {
		case m.quote != nil:
			return m.requestQuote(m.quoted)
		case m.quoteErr != "":
			return m.quoteFromForm() // try again
		}
		return nil
	case key.Matches(msg, k.Auto):
		m.auto = !m.auto
		if m.auto && m.quote != nil && m.countdown.Expired(m.s.Now()) && !m.quoting.Waiting() {
			return m.requestQuote(m.quoted)
		}
		return nil
	case key.Matches(msg, k.Continue), msg.String() == "enter":
		if m.quote == nil {
			return m.quoteFromForm()
		}
		return m.toDetails()
	case msg.String() == "up":
		m.entry.offset = max(m.entry.offset-1, 0)
	case msg.String() == "down":
		m.entry.offset++
	}
	return nil
}

// toDetails moves on from a live quote to the ticket details.
func (m *Screen) toDetails() tea.Cmd {
	if r := m.continueDenied(); r != "" {
		m.entry.info = "Cannot continue: " + r
		return nil
	}
	if CheckLive(m.countdown, m.s.Now()) != nil {
		m.entry.info = "The quote has expired and cannot become a ticket: press r to re-quote."
		return nil
	}
	m.entry.info = ""
	m.stage = stageDetails
	// One external id per intent: the same intent keeps its id across
	// re-quotes and retries; a different one is a new payment.
	if k := intentKey(m.quoted); m.externalID == "" || k != m.intentKey {
		m.externalID, m.intentKey = uuid.NewString(), k
		m.details = nil
	}
	if m.details != nil {
		return nil // the details typed for this intent stay
	}
	in := m.quoted
	in.ExternalID = m.externalID
	m.details = newDetails(m, in, m.quote)
	m.details.SetSize(m.w, m.h)
	m.listing.Cancel()
	m.markupListing.Cancel()
	return tea.Batch(m.loadBeneficiaries(), m.loadMarkupWallets())
}

// intentKey names what the user asked for, so that a re-quote of the same
// request stays the same intent.
func intentKey(in payment.Intent) string {
	b, _ := json.Marshal(in.QuoteRequest())
	return string(b)
}

// reloadBeneficiaries lists the beneficiaries of the open picker again
// after one was created or deleted. The list on screen stays until the new
// one arrives; the choice stays if the beneficiary is still there. Once
// the intent is confirmed it is fixed, so the picker is left alone.
func (m *Screen) reloadBeneficiaries() tea.Cmd {
	if m.details.payee() == payment.KindNone {
		return nil
	}
	if m.stage != stageForm && m.stage != stageDetails {
		m.benStale = true // reloaded once the user is back at the details
		return nil
	}
	m.benStale = false
	return m.loadBeneficiaries()
}

// toConfirm fills the intent in from the details, lets the payment core
// judge it and the access, and shows the confirmation.
func (m *Screen) toConfirm() tea.Cmd {
	d := m.details
	in := d.intent()
	if _, err := in.TicketRequest(m.quote); err != nil {
		d.refuse(err, "")
		return nil
	}
	why := ""
	if d.need.Rail.PayOut == payment.PayOutUnlessOwnWallet {
		why = ": choose the own service wallet"
	}
	if err := m.s.CanPay(in.Needs()); err != nil {
		d.refuse(err, why)
		return nil
	}
	m.externalID = in.ExternalID
	m.stage = stageConfirm
	m.confirm = newConfirmation(m, in)
	m.confirm.SetSize(m.w, m.h)
	cmds := []tea.Cmd{m.confirm.lookups()}
	if m.auto && CheckLive(m.countdown, m.s.Now()) != nil {
		cmds = append(cmds, m.requoteForConfirm())
	}
	return tea.Batch(cmds...)
}

// Stage names the stage the screen is at: "form", "details", "confirm",
// "sending" or "result". With Fields, Focused and Value it lets a script
// or a test outside the package follow the screen as it drives it by keys.
func (m *Screen) Stage() string {
	return [...]string{"form", "details", "confirm", "sending", "result"}[m.stage]
}

// stageForm is the form of the stage shown, if it has one.
func (m *Screen) stageForm() *form.Form {
	switch {
	case m.stage == stageForm:
		return m.entry.form
	case m.stage == stageDetails && m.details != nil:
		return m.details.form
	}
	return nil
}

// Fields are the keys of the fields the stage shows now, in order; the
// keys are the wire names of what they fill in ("outputCurrency",
// "pixKey", "externalId", ...), "beneficiary" for the beneficiary picker.
func (m *Screen) Fields() []string {
	if f := m.stageForm(); f != nil {
		return f.Keys()
	}
	return nil
}

// Focused is the key of the field with focus ("" when none has).
func (m *Screen) Focused() string {
	if f := m.stageForm(); f != nil {
		return f.FocusedKey()
	}
	return ""
}

// Value is the value of the stage's field key (a picker's: the chosen
// option's id).
func (m *Screen) Value(key string) string {
	if f := m.stageForm(); f != nil {
		return f.Value(key)
	}
	return ""
}
