package engine

import (
	"errors"
	"slices"
	"strings"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/brcode"
	"github.com/tesouro-treasury/tesouro/money"
	"github.com/tesouro-treasury/tesouro/sandbox/records"
	"github.com/tesouro-treasury/tesouro/validate"
)

// The output blocks of a ticket creation (spec/service.md §7.1): which
// block the quote's output method asks for, and every variant of each.

// outputBlock names the creation block that carries the output of a quote
// paying out via method ("" for INTERNAL, where the block is optional).
func outputBlock(method string) (string, bool) {
	switch {
	case method == "PIX":
		return "ticketBrlPixOutput", true
	case money.IsChain(method):
		return "ticketBlockchainOutput", true
	case method == "ACH":
		return "ticketUsdOutput", true
	case method == "WIRE":
		return "ticketUsdWireOutput", true
	case method == "SEPA":
		return "ticketEurSepaOutput", true
	case method == "CVU":
		return "ticketArsOutput", true
	case method == "BANK-TRANSFER":
		return "ticketCopOutput", true
	case method == "INTERNAL":
		return "", true
	}
	return "", false
}

// BankFields are the bank-account fields of a BRL account, given instead
// of a PIX key (beneficiary registration and inline PIX output alike).
type BankFields struct {
	TaxID, UserName, BankCode, BranchCode, AccountNumber, AccountType string
}

// Given reports whether any of the fields was given.
func (f BankFields) Given() bool {
	return f.TaxID != "" || f.UserName != "" || f.BankCode != "" || f.BranchCode != "" || f.AccountNumber != "" || f.AccountType != ""
}

// Check validates the fields and returns them normalised; prefix names
// the block in messages ("" for a top-level body).
func (f BankFields) Check(prefix string) (BankFields, error) {
	tax, _, err := validate.TaxID(f.TaxID)
	if err != nil {
		return f, FieldError(prefix+"taxId", err)
	}
	if err := validate.Required(f.UserName); err != nil {
		return f, FieldError(prefix+"userName", err)
	}
	if validate.Chars(f.UserName) > 100 {
		return f, badRequest(CodeInvalidField, "%suserName: at most 100 characters", prefix)
	}
	bank, err := validate.Digits(f.BankCode, 3, 8)
	if err != nil {
		return f, FieldError(prefix+"bankCode", err)
	}
	if len(bank) != 3 && len(bank) != 8 {
		return f, badRequest(CodeInvalidField, "%sbankCode: 3 digits (COMPE) or 8 digits (ISPB), got %d", prefix, len(bank))
	}
	branch, err := validate.Digits(f.BranchCode, 1, 5)
	if err != nil {
		return f, FieldError(prefix+"branchCode", err)
	}
	number, err := validate.Digits(f.AccountNumber, 1, 20)
	if err != nil {
		return f, FieldError(prefix+"accountNumber", err)
	}
	if !slices.Contains(brlAccountTypes, f.AccountType) {
		return f, badRequest(CodeInvalidField, "%saccountType: must be one of %s, got %q", prefix, strings.Join(brlAccountTypes, ", "), truncate(f.AccountType, 20))
	}
	return BankFields{tax, strings.TrimSpace(f.UserName), bank, branch, number, f.AccountType}, nil
}

func (e *Engine) planOutput(p *ticketPlan) error {
	q, req := p.q, p.req
	method := q.OutputPaymentMethod
	sent := map[string]bool{
		"ticketBrlPixOutput": req.TicketBrlPixOutput != nil, "ticketBlockchainOutput": req.TicketBlockchainOutput != nil,
		"ticketUsdOutput": req.TicketUsdOutput != nil, "ticketUsdWireOutput": req.TicketUsdWireOutput != nil,
		"ticketEurSepaOutput": req.TicketEurSepaOutput != nil, "ticketArsOutput": req.TicketArsOutput != nil,
		"ticketCopOutput": req.TicketCopOutput != nil,
	}
	want, ok := outputBlock(method)
	if !ok {
		return badRequest(CodeUnsupportedPair, "outputPaymentMethod: %s/%s payouts need a beneficiary kind this service does not register; quote another output", q.OutputCurrency, method)
	}
	for _, b := range []string{"ticketBrlPixOutput", "ticketBlockchainOutput", "ticketUsdOutput", "ticketUsdWireOutput", "ticketEurSepaOutput", "ticketArsOutput", "ticketCopOutput"} {
		// INTERNAL takes an optional ticketBlockchainOutput (the nil id).
		if sent[b] && b != want && !(method == "INTERNAL" && b == "ticketBlockchainOutput") {
			return badRequest(CodeUnexpectedBlock, "%s: the quote's output is %s via %s; remove the block", b, q.OutputCurrency, method)
		}
	}
	if want != "" && !sent[want] {
		return badRequest(CodeMissingField, "%s: required, the quote's output is %s via %s", want, q.OutputCurrency, method)
	}
	switch want {
	case "":
		return e.planInternalOutput(p)
	case "ticketBrlPixOutput":
		return e.planPixOutput(p)
	case "ticketBlockchainOutput":
		return e.planChainOutput(p)
	case "ticketUsdOutput":
		return e.planUSDOutput(p, "ticketUsdOutput", req.TicketUsdOutput.BeneficiaryUsdBankAccountID, req.TicketUsdOutput.AchReference, "achReference")
	case "ticketUsdWireOutput":
		return e.planUSDOutput(p, "ticketUsdWireOutput", req.TicketUsdWireOutput.BeneficiaryUsdBankAccountID, req.TicketUsdWireOutput.WireMessage, "wireMessage")
	case "ticketCopOutput":
		return planCOPOutput(p)
	case "ticketEurSepaOutput":
		return planEUROutput(p)
	case "ticketArsOutput":
		return planARSOutput(p)
	}
	return nil
}

// planInternalOutput keeps the output in a balance: the account's own
// (no block, or a ticketBlockchainOutput naming the nil wallet) or, to
// move funds (§8.5), the balance of another account of the same main
// account named by its id: a sub-account from the main account, the main
// account from a sub-account. The access must reach the account moved to
// and may pay out: the funds leave the account acted on [decided].
func (e *Engine) planInternalOutput(p *ticketPlan) error {
	p.outKind = "internal"
	o := p.req.TicketBlockchainOutput
	if o == nil {
		return nil
	}
	if o.WalletAddress != "" || o.WalletChain != "" || o.WalletMemo != "" {
		return badRequest(CodeUnexpectedBlock, "ticketBlockchainOutput: the quote's output stays in a %s balance (INTERNAL); send only beneficiaryWalletId: %s for this account's, or another account's id to move the funds there", p.q.OutputCurrency, uuid.Nil)
	}
	id, err := FieldUUID("ticketBlockchainOutput.beneficiaryWalletId", o.BeneficiaryWalletID)
	if err != nil {
		return err
	}
	if id == uuid.Nil || id == p.acct.ID {
		return nil
	}
	to, ok := e.st.accounts[id]
	switch {
	case !ok || to.MainID != p.acct.MainID:
		return badRequest(CodeUnknownBeneficiary, "ticketBlockchainOutput.beneficiaryWalletId: %s is not an account of this workspace; an INTERNAL output stays in this account (%s) or moves to its main account or one of its sub-accounts", id, uuid.Nil)
	case !p.acct.Main && !to.Main:
		return badRequest(CodeInvalidField, "ticketBlockchainOutput.beneficiaryWalletId: a sub-account moves funds only to its main account (%s); move them there first", p.acct.MainID)
	}
	if err := p.who.Reaches(to); err != nil {
		return err
	}
	if !p.who.Perms.PayOut {
		return forbidden("missing permission payOut: the %s leave this account for %s", p.q.OutputCurrency, to.Name)
	}
	p.outKind, p.outID, p.moveTo = "move", id, to
	return nil
}

// planCOPOutput pays a registered COP beneficiary.
func planCOPOutput(p *ticketPlan) error {
	id, err := FieldUUID("ticketCopOutput.beneficiaryCopBankAccountId", p.req.TicketCopOutput.BeneficiaryCopBankAccountID)
	if err != nil {
		return err
	}
	b, ok := p.acct.cop.get(id)
	if !ok {
		return badRequest(CodeUnknownBeneficiary, "ticketCopOutput.beneficiaryCopBankAccountId: no COP beneficiary %s in this account", id)
	}
	p.outKind, p.outID, p.cop = "cop", id, b
	return p.payOut()
}

// planEUROutput pays a registered EUR beneficiary by SEPA.
func planEUROutput(p *ticketPlan) error {
	o := p.req.TicketEurSepaOutput
	id, err := FieldUUID("ticketEurSepaOutput.beneficiaryEurBankAccountId", o.BeneficiaryEurBankAccountID)
	if err != nil {
		return err
	}
	if validate.Chars(o.SepaReference) > 140 {
		return badRequest(CodeInvalidField, "ticketEurSepaOutput.sepaReference: at most 140 characters")
	}
	b, ok := p.acct.eur.get(id)
	if !ok {
		return badRequest(CodeUnknownBeneficiary, "ticketEurSepaOutput.beneficiaryEurBankAccountId: no EUR beneficiary %s in this account", id)
	}
	p.outKind, p.outID, p.reference = "eur", id, o.SepaReference
	p.eurTo = &records.EuropeanFiatInfo{BankBeneficiaryName: b.BankBeneficiaryName, IBAN: b.IBAN, BIC: b.BIC, DepositMessage: o.SepaReference, PaymentRail: "SEPA", Currency: "EUR"}
	return p.payOut()
}

// planARSOutput pays a registered ARS beneficiary.
func planARSOutput(p *ticketPlan) error {
	id, err := FieldUUID("ticketArsOutput.beneficiaryArsBankAccountId", p.req.TicketArsOutput.BeneficiaryArsBankAccountID)
	if err != nil {
		return err
	}
	b, ok := p.acct.ars.get(id)
	if !ok {
		return badRequest(CodeUnknownBeneficiary, "ticketArsOutput.beneficiaryArsBankAccountId: no ARS beneficiary %s in this account", id)
	}
	p.outKind, p.outID = "ars", id
	p.arsTo = &records.ArgentineFiatReceiverInfo{CVU: b.CVU, AccountHolder: b.Alias}
	return p.payOut()
}

// payOut checks the permission an output leaving the account needs.
func (p *ticketPlan) payOut() error {
	if !p.who.Perms.PayOut {
		return forbidden("missing permission payOut: the output leaves the account (%s via %s)", p.q.OutputCurrency, p.q.OutputPaymentMethod)
	}
	return nil
}

// inlineRefused is the answer to an inline output under
// enforceAllowedBeneficiaries.
func inlineRefused(what string) error {
	return forbidden("enforceAllowedBeneficiaries: this access may only pay registered beneficiaries; register the %s first and send its id", what)
}

func (e *Engine) planPixOutput(p *ticketPlan) error {
	o := p.req.TicketBrlPixOutput
	const pre = "ticketBrlPixOutput."
	if validate.Chars(o.PixMessage) > 140 {
		return badRequest(CodeInvalidField, pre+"pixMessage: at most 140 characters")
	}
	bank := BankFields{o.TaxID, o.UserName, o.BankCode, o.BranchCode, o.AccountNumber, o.AccountType}
	variants := 0
	for _, v := range []bool{o.BeneficiaryBrlBankAccountID != "", o.PixKey != "", o.BrCode != "", bank.Given()} {
		if v {
			variants++
		}
	}
	if variants > 1 {
		return badRequest(CodeInvalidField, pre+"beneficiaryBrlBankAccountId: give exactly one of beneficiaryBrlBankAccountId, pixKey, brCode or the bank fields")
	}
	enforce := p.who.Perms.EnforceAllowedBeneficiaries
	switch {
	case o.BeneficiaryBrlBankAccountID != "":
		id, err := FieldUUID(pre+"beneficiaryBrlBankAccountId", o.BeneficiaryBrlBankAccountID)
		if err != nil {
			return err
		}
		b, ok := p.acct.brl.get(id)
		if !ok {
			return badRequest(CodeUnknownBeneficiary, pre+"beneficiaryBrlBankAccountId: no BRL beneficiary %s in this account", id)
		}
		p.outKind, p.outID, p.brl = "brl", id, b
	case o.PixKey != "":
		if enforce {
			return inlineRefused("PIX key as a BRL beneficiary")
		}
		kind, key, err := validate.PixKey(o.PixKey)
		if err != nil {
			return FieldError(pre+"pixKey", err)
		}
		r := &records.BrazilianFiatReceiverInfo{PixKey: key, UserName: "Recebedor Sandbox"}
		if kind == validate.PixCPF || kind == validate.PixCNPJ {
			r.TaxID = key
		}
		p.outKind, p.pixTo = "pix", r
	case o.BrCode != "":
		if enforce {
			return inlineRefused("BR Code's PIX key as a BRL beneficiary")
		}
		code, err := brcode.Parse(o.BrCode)
		if err != nil {
			return FieldError(pre+"brCode", err)
		}
		if want := p.q.OutputBrCode; want != "" && want != o.BrCode {
			return badRequest(CodeInvalidField, pre+"brCode: the quote was asked for another BR Code (outputBrCode); send the same code")
		}
		if code.Amount.IsPositive() && !code.Amount.Equal(p.q.OutputAmount) {
			return badRequest(CodeInvalidField, pre+"brCode: the code asks for BRL %s, the quote pays out %s; quote it with outputBrCode", code.Amount, p.q.OutputAmount)
		}
		p.outKind, p.pixTo = "pix", &records.BrazilianFiatReceiverInfo{PixKey: code.Key, UserName: code.MerchantName, BrCode: o.BrCode}
	case bank.Given():
		if enforce {
			return inlineRefused("bank account as a BRL beneficiary")
		}
		f, err := bank.Check(pre)
		if err != nil {
			return err
		}
		p.outKind, p.pixTo = "pix", &records.BrazilianFiatReceiverInfo{TaxID: f.TaxID, UserName: f.UserName, BankCode: f.BankCode, BranchCode: f.BranchCode, AccountNumber: f.AccountNumber, AccountType: f.AccountType}
	default:
		return badRequest(CodeMissingField, pre+"beneficiaryBrlBankAccountId: required (or pixKey, brCode, or the bank fields taxId, userName, bankCode, branchCode, accountNumber, accountType)")
	}
	return p.payOut()
}

func (e *Engine) planChainOutput(p *ticketPlan) error {
	o, acct, method := p.req.TicketBlockchainOutput, p.acct, p.q.OutputPaymentMethod
	const pre = "ticketBlockchainOutput."
	inline := o.WalletAddress != "" || o.WalletChain != "" || o.WalletMemo != ""
	switch {
	case inline && o.BeneficiaryWalletID != "":
		return badRequest(CodeInvalidField, pre+"beneficiaryWalletId: give either a registered wallet id or walletChain and walletAddress, not both")
	case inline:
		if p.who.Perms.EnforceAllowedBeneficiaries {
			return inlineRefused("wallet as a beneficiary wallet")
		}
		if strings.TrimSpace(o.WalletChain) == "" {
			return badRequest(CodeMissingField, pre+"walletChain: required with walletAddress")
		}
		if o.WalletChain != method {
			return badRequest(CodeInvalidField, pre+"walletChain: %q, the quote pays out on %s", truncate(o.WalletChain, 20), method)
		}
		if strings.TrimSpace(o.WalletAddress) == "" {
			return badRequest(CodeMissingField, pre+"walletAddress: required with walletChain")
		}
		addr, err := ChainAddress(method, o.WalletAddress)
		if err != nil {
			return FieldError(pre+"walletAddress", err)
		}
		if validate.Chars(o.WalletMemo) > 100 {
			return badRequest(CodeInvalidField, pre+"walletMemo: at most 100 characters")
		}
		p.outKind, p.chainTo = "inline", &records.BlockchainReceiverInfo{WalletAddress: addr, WalletChain: method, WalletMemo: o.WalletMemo}
		if strings.EqualFold(addr, acct.Wallet) {
			return nil
		}
		return p.payOut()
	}
	id, err := FieldUUID(pre+"beneficiaryWalletId", o.BeneficiaryWalletID)
	if err != nil {
		return err
	}
	if id == uuid.Nil {
		if p.who.Perms.EnforceAllowedBeneficiaries {
			return forbidden("enforceAllowedBeneficiaries: the output must be a registered beneficiary wallet, not the nil id")
		}
		p.outKind = "own"
		return nil
	}
	w, ok := acct.wallets.get(id)
	if !ok {
		return badRequest(CodeUnknownBeneficiary, pre+"beneficiaryWalletId: no beneficiary wallet %s in this account", id)
	}
	if w.WalletChain != method {
		return badRequest(CodeInvalidField, pre+"beneficiaryWalletId: the wallet %q is on %s, the quote pays out on %s", w.Alias, w.WalletChain, method)
	}
	p.outKind, p.outID, p.wallet = "wallet", id, w
	if strings.EqualFold(w.WalletAddress, acct.Wallet) {
		return nil // the account's own wallet: nothing leaves
	}
	return p.payOut()
}

func (e *Engine) planUSDOutput(p *ticketPlan, block, rawID, reference, refField string) error {
	id, err := FieldUUID(block+".beneficiaryUsdBankAccountId", rawID)
	if err != nil {
		return err
	}
	if validate.Chars(reference) > 140 {
		return badRequest(CodeInvalidField, "%s.%s: at most 140 characters", block, refField)
	}
	b, ok := p.acct.usd.get(id)
	if !ok {
		return badRequest(CodeUnknownBeneficiary, "%s.beneficiaryUsdBankAccountId: no USD beneficiary %s in this account", block, id)
	}
	p.outKind, p.outID, p.usd, p.reference = "usd", id, b, reference
	return p.payOut()
}

// chainAddress validates an address on chain: TRON's base58 form, EIP-55
// elsewhere (returned checksummed).
func ChainAddress(chain, addr string) (string, error) {
	if chain == "TRON" {
		if !validTronAddress(addr) {
			return "", errors.New("a TRON address is T followed by 33 base58 characters")
		}
		return addr, nil
	}
	a, _, err := validate.EVMAddress(addr)
	return a, err
}

// brlAccountTypes are the accountType values of BRL bank fields.
var brlAccountTypes = []string{"checking", "payment", "savings", "salary"}

// validTronAddress checks a TRON base58 address (T and 33 characters).
func validTronAddress(s string) bool {
	const b58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
	if len(s) != 34 || s[0] != 'T' {
		return false
	}
	for _, r := range s {
		if !strings.ContainsRune(b58, r) {
			return false
		}
	}
	return true
}
