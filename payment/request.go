package payment

import (
	"fmt"
	"strings"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/brcode"
	"github.com/tesouro-treasury/tesouro/money"
)

// QuoteRequest is the quote the intent asks for: in its account, the fixed
// amount on its side (none when a BR Code carries it), the send method of a
// token input, and the markup, its percentage sent as a fraction.
func (in Intent) QuoteRequest() api.QuoteRequest {
	q := api.QuoteRequest{
		SubAccountID:         in.Account,
		InputCurrency:        money.Canonical(in.InCurrency),
		InputPaymentMethod:   strings.ToUpper(strings.TrimSpace(in.InMethod)),
		OutputCurrency:       money.Canonical(in.OutCurrency),
		OutputPaymentMethod:  strings.ToUpper(strings.TrimSpace(in.OutMethod)),
		InputThirdParty:      in.InThirdParty,
		OutputThirdParty:     in.OutThirdParty,
		BlockchainSendMethod: in.sendMethod(),
	}
	if in.Pay.Kind == ToBrCode {
		q.OutputBrCode = in.Pay.BrCode
	}
	if in.Amount.IsPositive() {
		if in.Fixed == FixOutput {
			q.OutputAmount = decimal.NewNullDecimal(in.Amount)
		} else {
			q.InputAmount = decimal.NewNullDecimal(in.Amount)
		}
	}
	if m := in.Markup; m.Any() {
		if m.Percent.Valid {
			q.MarkupFloatingFee = decimal.NewNullDecimal(m.Percent.Decimal.Div(decimal.NewFromInt(100)))
		}
		q.MarkupInputFixedFee, q.MarkupOutputFixedFee = m.InputFixed, m.OutputFixed
		q.MarkupCurrency = money.Canonical(m.Currency)
		if q.MarkupCurrency == "" {
			q.MarkupCurrency = q.InputCurrency
		}
	}
	return q
}

// Prices reports whether q is a quote of this intent: the same currencies
// and methods, and the fixed amount priced as asked. A quote of another
// intent is never turned into its ticket.
func (in Intent) Prices(q *api.Quote) error {
	if q == nil {
		return fmt.Errorf("no quote: ask for one first")
	}
	want := in.QuoteRequest()
	switch {
	case !sameCode(q.InputCurrency, want.InputCurrency) || !sameCode(q.InputPaymentMethod, want.InputPaymentMethod):
		return fmt.Errorf("the quote sends %s %s, the payment %s %s", q.InputCurrency, q.InputPaymentMethod, want.InputCurrency, want.InputPaymentMethod)
	case !sameCode(q.OutputCurrency, want.OutputCurrency) || !sameCode(q.OutputPaymentMethod, want.OutputPaymentMethod):
		return fmt.Errorf("the quote pays %s %s, the payment %s %s", q.OutputCurrency, q.OutputPaymentMethod, want.OutputCurrency, want.OutputPaymentMethod)
	case want.OutputAmount.Valid && !q.OutputAmount.Equal(want.OutputAmount.Decimal):
		return fmt.Errorf("the quote pays %s %s, the payment %s", money.Wire(q.OutputAmount, q.OutputCurrency), q.OutputCurrency, money.Wire(want.OutputAmount.Decimal, want.OutputCurrency))
	case want.InputAmount.Valid && !q.InputAmount.Equal(want.InputAmount.Decimal):
		return fmt.Errorf("the quote sends %s %s, the payment %s", money.Wire(q.InputAmount, q.InputCurrency), q.InputCurrency, money.Wire(want.InputAmount.Decimal, want.InputCurrency))
	}
	return nil
}

func sameCode(a, b string) bool {
	return strings.EqualFold(strings.TrimSpace(a), strings.TrimSpace(b))
}

// TicketRequest is the creation request of the intent, priced by q: the
// input block its input method needs, the output block of its rail naming
// its destination (service.md §7.1), its reference in the rail's own field,
// and the markup wallet when the quote carries a markup. It refuses an
// intent that does not validate and a quote that prices another intent.
func (in Intent) TicketRequest(q *api.Quote) (api.CreateTicketRequest, error) {
	req := api.CreateTicketRequest{}
	if err := in.Validate(); err != nil {
		return req, err
	}
	if err := in.Prices(q); err != nil {
		return req, err
	}
	need := Required(q)
	req.QuoteToken, req.ExternalID = q.QuoteToken, in.ExternalID
	if need.Needs(BlockPixInput) {
		req.TicketBrlPixInput = &api.TicketBrlPixInput{RemitterID: in.From.RemitterID, AdditionalData: in.From.AdditionalData}
	}
	if need.Needs(BlockChainInput) {
		req.TicketBlockchainInput = &api.TicketBlockchainInput{WalletAddress: in.From.Wallet, Permit: in.From.Permit, Personal: in.From.Personal}
	}
	setOutput(&req, need.Rail, in)
	if need.Needs(BlockMarkup) {
		if strings.TrimSpace(in.Markup.Wallet) == "" {
			return req, fieldErr("markupWalletAddress", "the quote carries a markup: choose the service wallet that receives it")
		}
		req.TicketMarkupInput = &api.TicketMarkupInput{MarkupWalletAddress: in.Markup.Wallet}
	}
	return req, nil
}

// setOutput fills the rail's output block with the intent's destination.
func setOutput(req *api.CreateTicketRequest, rail Rail, in Intent) {
	p := in.Pay
	id := p.ID
	ref := in.Reference
	if p.Kind == ToAccount {
		req.TicketBlockchainOutput = &api.TicketBlockchainOutput{BeneficiaryWalletID: &id}
		return
	}
	switch rail.Block {
	case BlockPixOutput:
		o := &api.TicketBrlPixOutput{PixMessage: ref}
		switch p.Kind {
		case ToBeneficiary:
			o.BeneficiaryBrlBankAccountID = &id
		case ToPixKey:
			o.PixKey = p.PixKey
		case ToBrCode:
			// A BR Code carries its own message.
			o = &api.TicketBrlPixOutput{BrCode: p.BrCode}
		case ToBankAccount:
			b := p.Bank
			o.TaxID, o.UserName, o.BankCode, o.BranchCode, o.AccountNumber, o.AccountType = b.TaxID, b.UserName, b.BankCode, b.BranchCode, b.AccountNumber, b.AccountType
		}
		req.TicketBrlPixOutput = o
	case BlockChainOutput:
		switch p.Kind {
		case ToBeneficiary:
			req.TicketBlockchainOutput = &api.TicketBlockchainOutput{BeneficiaryWalletID: &id}
		case ToOwnWallet:
			own := uuid.Nil
			req.TicketBlockchainOutput = &api.TicketBlockchainOutput{BeneficiaryWalletID: &own}
		case ToAddress:
			req.TicketBlockchainOutput = &api.TicketBlockchainOutput{WalletChain: strings.ToUpper(in.OutMethod), WalletAddress: p.Address, WalletMemo: p.Memo}
		}
	case BlockUSDOutput:
		req.TicketUsdOutput = &api.TicketUsdOutput{BeneficiaryUsdBankAccountID: id, AchReference: ref}
	case BlockUSDWireOutput:
		req.TicketUsdWireOutput = &api.TicketUsdWireOutput{BeneficiaryUsdBankAccountID: id, WireMessage: ref}
	case BlockEURSepaOutput:
		req.TicketEurSepaOutput = &api.TicketEurSepaOutput{BeneficiaryEurBankAccountID: id, SepaReference: ref}
	case BlockARSOutput:
		req.TicketArsOutput = &api.TicketArsOutput{BeneficiaryArsBankAccountID: id}
	case BlockCOPOutput:
		req.TicketCopOutput = &api.TicketCopOutput{BeneficiaryCopBankAccountID: id}
	}
}

// FromRequest reads a creation request back into the intent it pays, with
// the quote it was priced by (q gives the currencies, methods and amounts;
// nil leaves them empty): what the approvals inbox shows of a parked
// request. It is TicketRequest read backwards; blocks the request does not
// carry leave their part of the intent empty. Where the output block names
// its rail (PIX, a bank rail, an inline wallet's chain), that rail is the
// intent's output.
func FromRequest(req api.CreateTicketRequest, q *api.Quote) Intent {
	in := Intent{ExternalID: req.ExternalID, Pay: Destination{Kind: ToBalance}}
	if q != nil {
		in.InCurrency, in.InMethod = q.InputCurrency, q.InputPaymentMethod
		in.OutCurrency, in.OutMethod = q.OutputCurrency, q.OutputPaymentMethod
		in.Amount, in.Fixed = q.InputAmount, FixInput
		in.SendMethod = q.BlockchainSendMethod
		in.InThirdParty, in.OutThirdParty = q.InputThirdParty, q.OutputThirdParty
	}
	if b := req.TicketBrlPixInput; b != nil {
		in.From.RemitterID, in.From.AdditionalData = b.RemitterID, b.AdditionalData
	}
	if b := req.TicketBlockchainInput; b != nil {
		in.From.Wallet, in.From.Permit, in.From.Personal = b.WalletAddress, b.Permit, b.Personal
	}
	if b := req.TicketMarkupInput; b != nil {
		in.Markup.Wallet = b.MarkupWalletAddress
	}
	switch {
	case req.TicketBrlPixOutput != nil:
		o := req.TicketBrlPixOutput
		in.Reference = o.PixMessage
		switch {
		case o.BeneficiaryBrlBankAccountID != nil:
			in.Pay = Destination{Kind: ToBeneficiary, ID: *o.BeneficiaryBrlBankAccountID}
		case o.PixKey != "":
			in.Pay = Destination{Kind: ToPixKey, PixKey: o.PixKey}
		case o.BrCode != "":
			in.Pay = Destination{Kind: ToBrCode, BrCode: o.BrCode}
			if p, err := brcode.Parse(o.BrCode); err == nil && p.Amount.IsPositive() && q == nil {
				in.Amount, in.Fixed = p.Amount, FixOutput
			}
		case o.AccountNumber != "":
			in.Pay = Destination{Kind: ToBankAccount, Bank: BankAccount{TaxID: o.TaxID, UserName: o.UserName, BankCode: o.BankCode, BranchCode: o.BranchCode, AccountNumber: o.AccountNumber, AccountType: o.AccountType}}
		}
	case req.TicketBlockchainOutput != nil:
		o := req.TicketBlockchainOutput
		switch {
		case o.BeneficiaryWalletID != nil && *o.BeneficiaryWalletID == uuid.Nil && strings.EqualFold(in.OutMethod, "INTERNAL"):
			in.Pay = Destination{Kind: ToBalance}
		case o.BeneficiaryWalletID != nil && *o.BeneficiaryWalletID == uuid.Nil:
			in.Pay = Destination{Kind: ToOwnWallet}
		case o.BeneficiaryWalletID != nil && strings.EqualFold(in.OutMethod, "INTERNAL"):
			in.Pay = Destination{Kind: ToAccount, ID: *o.BeneficiaryWalletID}
		case o.BeneficiaryWalletID != nil:
			in.Pay = Destination{Kind: ToBeneficiary, ID: *o.BeneficiaryWalletID}
		case o.WalletAddress != "":
			in.Pay = Destination{Kind: ToAddress, Address: o.WalletAddress, Memo: o.WalletMemo}
			if in.OutMethod == "" {
				in.OutMethod = o.WalletChain
			}
		}
	case req.TicketUsdOutput != nil:
		in.Pay = Destination{Kind: ToBeneficiary, ID: req.TicketUsdOutput.BeneficiaryUsdBankAccountID}
		in.Reference = req.TicketUsdOutput.AchReference
	case req.TicketUsdWireOutput != nil:
		in.Pay = Destination{Kind: ToBeneficiary, ID: req.TicketUsdWireOutput.BeneficiaryUsdBankAccountID}
		in.Reference = req.TicketUsdWireOutput.WireMessage
	case req.TicketEurSepaOutput != nil:
		in.Pay = Destination{Kind: ToBeneficiary, ID: req.TicketEurSepaOutput.BeneficiaryEurBankAccountID}
		in.Reference = req.TicketEurSepaOutput.SepaReference
	case req.TicketArsOutput != nil:
		in.Pay = Destination{Kind: ToBeneficiary, ID: req.TicketArsOutput.BeneficiaryArsBankAccountID}
	case req.TicketCopOutput != nil:
		in.Pay = Destination{Kind: ToBeneficiary, ID: req.TicketCopOutput.BeneficiaryCopBankAccountID}
	}
	// Where the output block says the rail, it is what the request pays
	// by, whatever the quote said.
	if c, m := outputOfBlock(req); m != "" {
		in.OutMethod = m
		if c != "" {
			in.OutCurrency = c
		}
	}
	return in
}

// outputOfBlock is the output currency and method the request's output
// block implies, as far as it does ("" where it does not: a token's
// currency, a registered wallet's chain).
func outputOfBlock(req api.CreateTicketRequest) (currency, method string) {
	switch {
	case req.TicketBrlPixOutput != nil:
		return "BRL", "PIX"
	case req.TicketBlockchainOutput != nil:
		return "", strings.ToUpper(req.TicketBlockchainOutput.WalletChain)
	case req.TicketUsdOutput != nil:
		return "USD", railACH.Name
	case req.TicketUsdWireOutput != nil:
		return "USD", railWire.Name
	case req.TicketEurSepaOutput != nil:
		return "EUR", railSEPA.Name
	case req.TicketArsOutput != nil:
		return "ARS", railCVU.Name
	case req.TicketCopOutput != nil:
		return "COP", railCOP.Name
	}
	return "", ""
}
