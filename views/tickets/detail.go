package tickets

import (
	"fmt"
	"strings"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/money"
	"github.com/tesouro-treasury/tesouro/payment"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/views/internal/listing"
)

// detailPane is the open ticket: the whole ticket as fetched by id, and how
// far the pane is scrolled.
type detailPane struct {
	listing.Scroll
	id      uuid.UUID
	ticket  *api.Ticket
	err     error
	loading bool
	receipt string // where its receipt was saved, once downloaded
	// refused is why the service refused to cancel it, until the next
	// cancel.
	refused string

	// The ticket's webhook events, oldest first, once they came; eventsErr
	// says why they did not.
	events       []api.WebhookEvent
	eventsMore   bool // more than eventPages pages exist
	eventsLoaded bool
	eventsErr    error
}

// sheet builds the lines of the detail pane, with times in the operator's
// zone.
type sheet struct {
	*listing.Sheet
	loc *time.Location
	now time.Time
}

func (s *sheet) when(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.In(s.loc).Format("2006-01-02 15:04:05")
}

// relative says how far t is from now ("in 4m10s", "3h ago").
func relative(t, now time.Time) string {
	d := t.Sub(now)
	if d >= 0 {
		return "in " + short(d)
	}
	return short(-d) + " ago"
}

func short(d time.Duration) string {
	d = d.Round(time.Second)
	switch {
	case d >= 48*time.Hour:
		return fmt.Sprintf("%dd", int(d.Hours()/24))
	case d >= time.Hour:
		return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
	}
	return d.String()
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// statusText is the status in words and style; the word alone carries it.
func statusText(th *ui.Theme, st api.TicketStatus) string {
	if !st.Final() {
		return th.StatusWord(st.Meaning(), string(st)) + th.Muted.Render(" (live)")
	}
	return th.StatusWord(st.Meaning(), string(st))
}

func amt(d decimal.Decimal, cur string) string {
	if cur == "" {
		return d.String()
	}
	return money.Format(d, cur) + " " + cur
}

// ticketLines renders every block of a ticket: identity and times, the
// quote, fees (rebatable marked), rebate, each party record present, and a
// timeline.
func ticketLines(t *api.Ticket, th *ui.Theme, width int, loc *time.Location, now time.Time, receipt string) []string {
	s := &sheet{Sheet: listing.NewSheet(th, width), loc: loc, now: now}
	q := &t.Quote

	s.Title("Ticket")
	s.KV("ID", t.ID.String())
	s.Styled("Status", statusText(th, t.Status), lipgloss.NewStyle())
	s.KV("External ID", t.ExternalID)
	s.KV("Reason", t.Reason)
	if t.FailureReason != "" {
		s.Styled("Failure reason", t.FailureReason, th.Bad)
	}
	s.KV("Created", s.when(t.CreatedAt.Time))
	s.KV("Updated", s.when(t.UpdatedAt.Time))
	if !t.ExpiresAt.IsZero() {
		exp := s.when(t.ExpiresAt.Time)
		if !t.Status.Final() {
			exp += " (" + relative(t.ExpiresAt.Time, now) + ")"
		}
		s.KV("Expires", exp)
	}
	if t.WorkspaceID != uuid.Nil {
		s.KV("Workspace", t.WorkspaceID.String())
	}
	if t.UserID != uuid.Nil {
		s.KV("User", t.UserID.String())
	}
	if receipt != "" {
		s.Styled("Receipt saved", receipt, th.Good)
	}

	s.Title("Quote")
	s.KV("Pair", q.PairName)
	s.KV("Input", amt(q.InputAmount, q.InputCurrency)+" via "+q.InputPaymentMethod)
	s.KV("Output", amt(q.OutputAmount, q.OutputCurrency)+" via "+q.OutputPaymentMethod)
	if p := payment.TicketPrice(*q); p.Known() {
		s.KV("Price", p.String())
		if p.Base != p.Quote {
			s.KV("Inverse", p.Inverse().String())
		}
	}
	s.KV("Send method", q.SendMethod)
	if q.MarkupCurrency != "" {
		s.KV("Markup", amt(q.MarkupAmount.Decimal, q.MarkupCurrency))
	}
	s.KV("Third-party input", yesNo(q.InputThirdParty))
	s.KV("Third-party output", yesNo(q.OutputThirdParty))
	if q.ID != uuid.Nil {
		s.KV("Quote ID", q.ID.String())
	}
	s.KV("Quoted at", s.when(q.CreatedAt.Time))
	s.KV("Output BR Code", q.OutputBrCode)
	s.KV("Refund ticket", q.TicketRefundID)

	s.Title("Fees")
	if len(q.AppliedFees) == 0 {
		s.Text(th.Muted.Render("no fees applied"))
	}
	for _, f := range q.AppliedFees {
		mark := ""
		switch {
		case f.Rebatable == nil:
		case *f.Rebatable:
			mark = "  ↺ rebatable"
		default:
			mark = "  not rebatable"
		}
		v := amt(f.Amount, f.Currency) + mark
		if f.Description != "" {
			v += th.Muted.Render("  " + f.Description)
		}
		s.KV(f.Type, v)
	}

	s.Title("Rebate")
	if t.Rebate == nil {
		s.Text(th.Muted.Render("no rebate on this ticket"))
	} else {
		s.KV("Amount", amt(t.Rebate.Amount, t.Rebate.Currency))
		s.KV("To wallet", t.Rebate.DestinationWalletAddress)
		if t.Rebate.ID != uuid.Nil {
			s.KV("Rebate ID", t.Rebate.ID.String())
		}
	}

	partyLines(s, t)
	timeline(s, t)
	return s.Lines
}

// partyLines adds a block for every party record the ticket carries.
func partyLines(s *sheet, t *api.Ticket) {
	if p := t.BrlPixInputInfo; p != nil {
		s.Title("PIX input")
		s.KV("Reference label", p.ReferenceLabel)
		s.KV("Additional data", p.AdditionalData)
		s.KV("BR Code", p.BrCode)
		s.KV("Record ID", p.ID)
	}
	if p := t.BrazilianFiatSenderInfo; p != nil {
		s.Title("PIX sender")
		s.KV("Name", p.Name)
		s.KV("Tax ID", p.TaxID)
		s.KV("Bank / branch", join(" / ", p.BankCode, p.BranchCode))
		s.KV("Account", join(" ", p.AccountNumber, p.AccountType))
		s.KV("End-to-end ID", p.EndToEndID)
		s.KV("Reference label", p.ReferenceLabel)
		s.KV("Additional data", p.AdditionalData)
		s.KV("BR Code", p.BrCode)
	}
	if p := t.BrazilianFiatReceiverInfo; p != nil {
		s.Title("PIX receiver")
		s.KV("Name", p.UserName)
		s.KV("Tax ID", p.TaxID)
		s.KV("PIX key", p.PixKey)
		s.KV("Bank / branch", join(" / ", p.BankCode, p.BranchCode))
		s.KV("Account", join(" ", p.AccountNumber, p.AccountType))
		s.KV("PIX message", p.PixMessage)
		s.KV("End-to-end ID", p.EndToEndID)
		s.KV("BR Code", p.BrCode)
	}
	if p := t.BlockchainSenderInfo; p != nil {
		s.Title("Blockchain sender")
		s.KV("Wallet", p.WalletAddress)
		s.KV("Deposit address", p.DisposableDepositAddress)
		s.KV("Tx hash", p.TxHash)
	}
	if p := t.BlockchainReceiverInfo; p != nil {
		s.Title("Blockchain receiver")
		s.KV("Wallet", p.WalletAddress)
		s.KV("Chain", p.WalletChain)
		s.KV("Memo", p.WalletMemo)
		s.KV("Tx hash", p.TxHash)
	}
	american := func(title string, p *api.AmericanFiatInfo) {
		s.Title(title)
		s.KV("Holder", p.AccountHolderName)
		s.KV("Account", join(" ", p.BankAccountNumber, p.AccountType))
		s.KV("Routing", p.BankRoutingNumber)
		s.KV("Bank", p.BankName)
		s.KV("Bank address", p.BankAddress)
		s.KV("Rail", p.PaymentRail)
		s.KV("Deposit message", p.DepositMessage)
	}
	if p := t.AmericanFiatSenderInfo; p != nil {
		american("US bank sender", p)
	}
	if p := t.AmericanFiatReceiverInfo; p != nil {
		american("US bank receiver", p)
	}
	european := func(title string, p *api.EuropeanFiatInfo) {
		s.Title(title)
		s.KV("Beneficiary", p.BankBeneficiaryName)
		s.KV("IBAN", p.IBAN)
		s.KV("BIC", p.BIC)
		s.KV("Bank", p.BankName)
		s.KV("Rail", p.PaymentRail)
		if p.Currency != "" {
			s.KV("Amount", amt(p.Amount, p.Currency))
		}
		s.KV("Deposit message", p.DepositMessage)
	}
	if p := t.EuropeanFiatSenderInfo; p != nil {
		european("European bank sender", p)
	}
	if p := t.EuropeanFiatReceiverInfo; p != nil {
		european("European bank receiver", p)
	}
	if p := t.ArgentineFiatSenderInfo; p != nil {
		s.Title("Argentine sender")
		s.KV("Name", p.Name)
		s.KV("CVU", p.CVU)
		s.KV("CUIT", p.CUIT)
		s.KV("Transaction", p.TransactionID)
	}
	if p := t.ArgentineFiatReceiverInfo; p != nil {
		s.Title("Argentine receiver")
		s.KV("Holder", p.AccountHolder)
		s.KV("CVU", p.CVU)
		s.KV("CUIT", p.CUIT)
		s.KV("Transaction", p.TransactionID)
	}
	if p := t.MarkupInfo; p != nil {
		s.Title("Markup")
		s.KV("Markup wallet", p.MarkupWalletAddress)
		s.KV("Tx hash", p.TxHash)
	}
}

func join(sep string, parts ...string) string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, sep)
}

// funded reports whether a party record shows the input side arrived.
func funded(t *api.Ticket) (string, bool) {
	switch {
	case t.BrazilianFiatSenderInfo != nil && t.BrazilianFiatSenderInfo.EndToEndID != "":
		return "PIX received, end-to-end " + t.BrazilianFiatSenderInfo.EndToEndID, true
	case t.BlockchainSenderInfo != nil && t.BlockchainSenderInfo.TxHash != "":
		return "tokens received, tx " + t.BlockchainSenderInfo.TxHash, true
	case t.AmericanFiatSenderInfo != nil, t.EuropeanFiatSenderInfo != nil, t.ArgentineFiatSenderInfo != nil:
		return "bank transfer received", true
	}
	return "", false
}

// delivered describes where the output went, when a record says so.
func delivered(t *api.Ticket) string {
	switch {
	case t.BlockchainReceiverInfo != nil && t.BlockchainReceiverInfo.TxHash != "":
		return "tx " + t.BlockchainReceiverInfo.TxHash
	case t.BrazilianFiatReceiverInfo != nil && t.BrazilianFiatReceiverInfo.EndToEndID != "":
		return "end-to-end " + t.BrazilianFiatReceiverInfo.EndToEndID
	}
	return ""
}

// timeline lays out what happened to the ticket. The service keeps no
// history of transitions, so steps without a timestamp of their own are
// placed between the ones that have one.
func timeline(s *sheet, t *api.Ticket) {
	s.Title("Timeline")
	step := func(at time.Time, what string) {
		when := "                   "
		if !at.IsZero() {
			when = s.when(at)
		}
		s.Text(s.Theme.Muted.Render(when) + "  " + what)
	}
	step(t.Quote.CreatedAt.Time, "quoted "+t.Quote.PairName)
	step(t.CreatedAt.Time, "ticket created")
	if what, ok := funded(t); ok {
		step(time.Time{}, "● "+what)
	}
	switch t.Status {
	case api.TicketUnpaid:
		step(t.ExpiresAt.Time, fmt.Sprintf("○ expires unless funded (%s)", relative(t.ExpiresAt.Time, s.now)))
	case api.TicketProcessing:
		step(t.UpdatedAt.Time, "● processing: delivering the output")
	case api.TicketPaid:
		d := delivered(t)
		if d != "" {
			d = ", " + d
		}
		step(t.UpdatedAt.Time, "✓ paid"+d)
	case api.TicketFailed:
		step(t.UpdatedAt.Time, "✗ failed: "+t.FailureReason)
	case api.TicketCanceled:
		step(t.UpdatedAt.Time, "canceled: "+t.Reason)
	case api.TicketPending:
		step(t.UpdatedAt.Time, "● queued: "+t.Reason)
	case api.TicketOnHold:
		step(t.UpdatedAt.Time, "● on hold: "+t.Reason)
	case api.TicketPartialFailed:
		step(t.UpdatedAt.Time, "✗ partially failed: "+t.FailureReason)
	default:
		step(t.UpdatedAt.Time, string(t.Status))
	}
}
