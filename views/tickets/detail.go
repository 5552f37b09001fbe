package tickets

import (
	"fmt"
	"strings"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"tesouro/api"
	"tesouro/money"
	"tesouro/ui"
)

// detailPane is the open ticket: the whole ticket as fetched by id, and how
// far the pane is scrolled.
type detailPane struct {
	id      uuid.UUID
	ticket  *api.Ticket
	err     error
	loading bool
	offset  int
	receipt string // where its receipt was saved, once downloaded
}

// sheet builds the lines of the detail pane.
type sheet struct {
	th    *ui.Theme
	width int
	loc   *time.Location
	now   time.Time
	lines []string
}

const labelWidth = 20

func (s *sheet) title(t string) {
	if len(s.lines) > 0 {
		s.lines = append(s.lines, "")
	}
	s.lines = append(s.lines, s.th.Title.Render(t))
}

// kv adds "label  value", wrapping a long value (a BR Code, a hash) under
// itself rather than cutting it.
func (s *sheet) kv(label, value string) {
	if value == "" {
		return
	}
	s.styled(label, value, s.th.Value)
}

func (s *sheet) styled(label, value string, st lipgloss.Style) {
	lw := min(labelWidth, max(s.width/3, 8))
	vw := max(s.width-lw-3, 8)
	l := ui.Truncate(label, lw)
	pad := strings.Repeat(" ", lw-lipgloss.Width(l))
	for i, part := range strings.Split(ansi.Hardwrap(value, vw, true), "\n") {
		if i == 0 {
			s.lines = append(s.lines, "  "+s.th.Label.Render(l)+pad+" "+st.Render(part))
		} else {
			s.lines = append(s.lines, "  "+strings.Repeat(" ", lw)+" "+st.Render(part))
		}
	}
}

func (s *sheet) text(t string) { s.lines = append(s.lines, "  "+t) }

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
	switch st {
	case api.TicketPaid:
		return th.Good.Render("✓ PAID")
	case api.TicketFailed:
		return th.Bad.Render("✗ FAILED")
	case api.TicketExpired:
		return th.Muted.Render("EXPIRED")
	case api.TicketPending, api.TicketProcessing:
		return th.Warn.Render(string(st) + " (live)")
	}
	return string(st)
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
	s := &sheet{th: th, width: width, loc: loc, now: now}
	q := &t.Quote

	s.title("Ticket")
	s.kv("ID", t.ID.String())
	s.styled("Status", statusText(th, t.Status), lipgloss.NewStyle())
	s.kv("External ID", t.ExternalID)
	s.kv("Reason", t.Reason)
	if t.FailureReason != "" {
		s.styled("Failure reason", t.FailureReason, th.Bad)
	}
	s.kv("Created", s.when(t.CreatedAt.Time))
	s.kv("Updated", s.when(t.UpdatedAt.Time))
	if !t.ExpiresAt.IsZero() {
		exp := s.when(t.ExpiresAt.Time)
		if !t.Status.Final() {
			exp += " (" + relative(t.ExpiresAt.Time, now) + ")"
		}
		s.kv("Expires", exp)
	}
	if t.WorkspaceID != uuid.Nil {
		s.kv("Workspace", t.WorkspaceID.String())
	}
	if t.UserID != uuid.Nil {
		s.kv("User", t.UserID.String())
	}
	if receipt != "" {
		s.styled("Receipt saved", receipt, th.Good)
	}

	s.title("Quote")
	s.kv("Pair", q.PairName)
	s.kv("Input", amt(q.InputAmount, q.InputCurrency)+" via "+q.InputPaymentMethod)
	s.kv("Output", amt(q.OutputAmount, q.OutputCurrency)+" via "+q.OutputPaymentMethod)
	if !q.BasePrice.IsZero() {
		s.kv("Base price", q.BasePrice.String()+" "+q.OutputCurrency+" per "+q.InputCurrency)
	}
	s.kv("Send method", q.SendMethod)
	if q.MarkupCurrency != "" {
		s.kv("Markup", amt(q.MarkupAmount, q.MarkupCurrency))
	}
	s.kv("Third-party input", yesNo(q.InputThirdParty))
	s.kv("Third-party output", yesNo(q.OutputThirdParty))
	if q.ID != uuid.Nil {
		s.kv("Quote ID", q.ID.String())
	}
	s.kv("Quoted at", s.when(q.CreatedAt.Time))
	s.kv("Output BR Code", q.OutputBrCode)
	s.kv("Refund ticket", q.TicketRefundID)

	s.title("Fees")
	if len(q.AppliedFees) == 0 {
		s.text(th.Muted.Render("no fees applied"))
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
		s.kv(f.Type, v)
	}

	s.title("Rebate")
	if t.Rebate == nil {
		s.text(th.Muted.Render("no rebate on this ticket"))
	} else {
		s.kv("Amount", amt(t.Rebate.Amount, t.Rebate.Currency))
		s.kv("To wallet", t.Rebate.DestinationWalletAddress)
		if t.Rebate.ID != uuid.Nil {
			s.kv("Rebate ID", t.Rebate.ID.String())
		}
	}

	partyLines(s, t)
	timeline(s, t)
	return s.lines
}

// partyLines adds a block for every party record the ticket carries.
func partyLines(s *sheet, t *api.Ticket) {
	if p := t.BrlPixInputInfo; p != nil {
		s.title("PIX input")
		s.kv("Reference label", p.ReferenceLabel)
		s.kv("Additional data", p.AdditionalData)
		s.kv("BR Code", p.BrCode)
		s.kv("Record ID", p.ID)
	}
	if p := t.BrazilianFiatSenderInfo; p != nil {
		s.title("PIX sender")
		s.kv("Name", p.Name)
		s.kv("Tax ID", p.TaxID)
		s.kv("Bank / branch", join(" / ", p.BankCode, p.BranchCode))
		s.kv("Account", join(" ", p.AccountNumber, p.AccountType))
		s.kv("End-to-end ID", p.EndToEndID)
		s.kv("Reference label", p.ReferenceLabel)
		s.kv("Additional data", p.AdditionalData)
		s.kv("BR Code", p.BrCode)
	}
	if p := t.BrazilianFiatReceiverInfo; p != nil {
		s.title("PIX receiver")
		s.kv("Name", p.UserName)
		s.kv("Tax ID", p.TaxID)
		s.kv("PIX key", p.PixKey)
		s.kv("Bank / branch", join(" / ", p.BankCode, p.BranchCode))
		s.kv("Account", join(" ", p.AccountNumber, p.AccountType))
		s.kv("PIX message", p.PixMessage)
		s.kv("End-to-end ID", p.EndToEndID)
		s.kv("BR Code", p.BrCode)
	}
	if p := t.BlockchainSenderInfo; p != nil {
		s.title("Blockchain sender")
		s.kv("Wallet", p.WalletAddress)
		s.kv("Deposit address", p.DisposableDepositAddress)
		s.kv("Tx hash", p.TxHash)
	}
	if p := t.BlockchainReceiverInfo; p != nil {
		s.title("Blockchain receiver")
		s.kv("Wallet", p.WalletAddress)
		s.kv("Chain", p.WalletChain)
		s.kv("Memo", p.WalletMemo)
		s.kv("Tx hash", p.TxHash)
	}
	american := func(title string, p *api.AmericanFiatInfo) {
		s.title(title)
		s.kv("Holder", p.AccountHolderName)
		s.kv("Account", join(" ", p.BankAccountNumber, p.AccountType))
		s.kv("Routing", p.BankRoutingNumber)
		s.kv("Bank", p.BankName)
		s.kv("Bank address", p.BankAddress)
		s.kv("Rail", p.PaymentRail)
		s.kv("Deposit message", p.DepositMessage)
	}
	if p := t.AmericanFiatSenderInfo; p != nil {
		american("US bank sender", p)
	}
	if p := t.AmericanFiatReceiverInfo; p != nil {
		american("US bank receiver", p)
	}
	european := func(title string, p *api.EuropeanFiatInfo) {
		s.title(title)
		s.kv("Beneficiary", p.BankBeneficiaryName)
		s.kv("IBAN", p.IBAN)
		s.kv("BIC", p.BIC)
		s.kv("Bank", p.BankName)
		s.kv("Rail", p.PaymentRail)
		if p.Currency != "" {
			s.kv("Amount", amt(p.Amount, p.Currency))
		}
		s.kv("Deposit message", p.DepositMessage)
	}
	if p := t.EuropeanFiatSenderInfo; p != nil {
		european("European bank sender", p)
	}
	if p := t.EuropeanFiatReceiverInfo; p != nil {
		european("European bank receiver", p)
	}
	if p := t.ArgentineFiatSenderInfo; p != nil {
		s.title("Argentine sender")
		s.kv("Name", p.Name)
		s.kv("CVU", p.CVU)
		s.kv("CUIT", p.CUIT)
		s.kv("Transaction", p.TransactionID)
	}
	if p := t.ArgentineFiatReceiverInfo; p != nil {
		s.title("Argentine receiver")
		s.kv("Holder", p.AccountHolder)
		s.kv("CVU", p.CVU)
		s.kv("CUIT", p.CUIT)
		s.kv("Transaction", p.TransactionID)
	}
	if p := t.MarkupInfo; p != nil {
		s.title("Markup")
		s.kv("Markup wallet", p.MarkupWalletAddress)
		s.kv("Tx hash", p.TxHash)
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
	s.title("Timeline")
	step := func(at time.Time, what string) {
		when := "                   "
		if !at.IsZero() {
			when = s.when(at)
		}
		s.text(s.th.Muted.Render(when) + "  " + what)
	}
	step(t.Quote.CreatedAt.Time, "quoted "+t.Quote.PairName)
	step(t.CreatedAt.Time, "ticket created")
	if what, ok := funded(t); ok {
		step(time.Time{}, "● "+what)
	}
	switch t.Status {
	case api.TicketPending:
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
	case api.TicketExpired:
		step(t.ExpiresAt.Time, "expired before it was funded")
	default:
		step(t.UpdatedAt.Time, string(t.Status))
	}
}
