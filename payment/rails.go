package payment

import (
	"fmt"
	"strings"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/money"
)

// Kind is the kind of registered beneficiary an output pays.
type Kind string

// The kinds of beneficiary, one per list of the service.
const (
	KindNone   Kind = ""
	KindBRL    Kind = "brl"    // a BRL bank account or PIX key
	KindWallet Kind = "wallet" // a wallet on a chain
	KindUSD    Kind = "usd"    // a USD bank account (ACH or WIRE)
	KindEUR    Kind = "eur"    // a EUR bank account (SEPA)
	KindARS    Kind = "ars"    // an ARS account (CVU)
	KindCOP    Kind = "cop"    // a COP bank account
)

// Block is one optional block of the ticket-creation body, named as on the
// wire.
type Block string

// The blocks a ticket can carry (seed create-ticket rules 1–6, and the
// output blocks of the live service, service.md §7.1).
const (
	BlockPixInput      Block = "ticketBrlPixInput"
	BlockChainInput    Block = "ticketBlockchainInput"
	BlockPixOutput     Block = "ticketBrlPixOutput"
	BlockChainOutput   Block = "ticketBlockchainOutput"
	BlockUSDOutput     Block = "ticketUsdOutput"
	BlockUSDWireOutput Block = "ticketUsdWireOutput"
	BlockEURSepaOutput Block = "ticketEurSepaOutput"
	BlockARSOutput     Block = "ticketArsOutput"
	BlockCOPOutput     Block = "ticketCopOutput"
	BlockMarkup        Block = "ticketMarkupInput"
)

// PayOut says whether an output leaves the operated account, which the
// service checks against the payOut permission.
type PayOut int

// PayOut kinds.
const (
	PayOutNo PayOut = iota // credited to the account's balance
	PayOutYes
	// PayOutUnlessOwnWallet: a chain output leaves the account unless it
	// goes to the account's own service wallet (the nil beneficiary id).
	PayOutUnlessOwnWallet
)

// Rail is one output kind of service.md §7.1: how the money leaves, the
// block that names the payee, and what a ticket may name in it.
type Rail struct {
	// Name is the rail as the screens say it: "PIX", "chain", "ACH", ...
	Name string
	// Block is the output block; "" for an output to the balance, which
	// needs none.
	Block Block
	// Payee is the kind of registered beneficiary the rail pays.
	Payee Kind
	// Reference is the block's free-text field for the beneficiary
	// (pixMessage, achReference, ...), "" when the rail carries none.
	Reference string
	// ReferenceLabel names that field on a form ("PIX message").
	ReferenceLabel string
	// Accepts are the destinations the block can name.
	Accepts []DestKind
	PayOut  PayOut
}

// The rails, one per output kind. A chain rail is the same for every chain.
var (
	railBalance = Rail{Name: "INTERNAL", Accepts: []DestKind{ToBalance, ToAccount}, PayOut: PayOutNo}
	railChain   = Rail{Name: "chain", Block: BlockChainOutput, Payee: KindWallet,
		Accepts: []DestKind{ToBeneficiary, ToAddress, ToOwnWallet}, PayOut: PayOutUnlessOwnWallet}
	railPIX = Rail{Name: "PIX", Block: BlockPixOutput, Payee: KindBRL, Reference: "pixMessage", ReferenceLabel: "PIX message",
		Accepts: []DestKind{ToBeneficiary, ToPixKey, ToBrCode, ToBankAccount}, PayOut: PayOutYes}
	railACH = Rail{Name: "ACH", Block: BlockUSDOutput, Payee: KindUSD, Reference: "achReference", ReferenceLabel: "ACH reference",
		Accepts: []DestKind{ToBeneficiary}, PayOut: PayOutYes}
	railWire = Rail{Name: "WIRE", Block: BlockUSDWireOutput, Payee: KindUSD, Reference: "wireMessage", ReferenceLabel: "Wire message",
		Accepts: []DestKind{ToBeneficiary}, PayOut: PayOutYes}
	railSEPA = Rail{Name: "SEPA", Block: BlockEURSepaOutput, Payee: KindEUR, Reference: "sepaReference", ReferenceLabel: "SEPA reference",
		Accepts: []DestKind{ToBeneficiary}, PayOut: PayOutYes}
	railCVU = Rail{Name: "CVU", Block: BlockARSOutput, Payee: KindARS, Accepts: []DestKind{ToBeneficiary}, PayOut: PayOutYes}
	railCOP = Rail{Name: "BANK-TRANSFER", Block: BlockCOPOutput, Payee: KindCOP, Accepts: []DestKind{ToBeneficiary}, PayOut: PayOutYes}
)

// RailOf is the rail an output takes: by its method, and for a method the
// catalogue does not know, by its currency. ok is false when neither says
// (the service then decides, and the money is taken to leave the account).
func RailOf(currency, method string) (r Rail, ok bool) {
	m := strings.ToUpper(strings.TrimSpace(method))
	c := money.Canonical(currency)
	switch {
	case m == "INTERNAL":
		return railBalance, true
	case money.IsChain(m):
		return railChain, true
	case m == "PIX":
		return railPIX, true
	case m == "WIRE":
		return railWire, true
	case m == "ACH" || c == "USD":
		return railACH, true
	case m == "SEPA" || c == "EUR":
		return railSEPA, true
	case m == "CVU" || c == "ARS":
		return railCVU, true
	case m == "BANK-TRANSFER" || c == "COP":
		return railCOP, true
	}
	return Rail{Name: m, PayOut: PayOutYes}, false
}

// KindOf is the kind of payee that receives currency (tokens go to wallets).
func KindOf(currency string) Kind {
	c := money.Canonical(currency)
	if money.IsToken(c) {
		return KindWallet
	}
	if r, ok := RailOf(c, ""); ok {
		return r.Payee
	}
	return KindBRL
}

// Takes reports whether the rail's block can name a destination of kind k.
func (r Rail) Takes(k DestKind) bool {
	for _, a := range r.Accepts {
		if a == k {
			return true
		}
	}
	return false
}

// Signature is what proves a blockchain input may be pulled.
type Signature int

// Signature needs.
const (
	// SigNone: nothing to sign (no chain input, or TRANSFER: the caller
	// sends the tokens itself).
	SigNone Signature = iota
	// SigPermitOrPersonal: a PERMIT input needs either the permit parts or
	// a personal signature, unless the sending wallet is a service wallet
	// (rule 4), which only the caller can tell.
	SigPermitOrPersonal
)

// Requirements is what a ticket built from a quote must carry.
type Requirements struct {
	Blocks    []Block
	Signature Signature
	// Rail is the output's rail.
	Rail   Rail
	PayOut PayOut
	// BrCode is the BR Code the quote was asked to pay (outputBrCode): the
	// PIX output is then that code, nothing else.
	BrCode string
	// Chain is the chain of a blockchain output (beneficiary wallets must
	// be on it).
	Chain string
	// Notes say what the user should know that no field can express.
	Notes []string
}

// Needs reports whether block b is required.
func (r Requirements) Needs(b Block) bool {
	for _, x := range r.Blocks {
		if x == b {
			return true
		}
	}
	return false
}

// HasMarkup reports whether a quote applies a markup.
func HasMarkup(q *api.Quote) bool {
	return strings.TrimSpace(q.MarkupCurrency) != "" || q.MarkupAmount.IsPositive()
}

// Required derives, from the quote alone, the blocks its ticket needs. It
// is a pure function of the quote so that every kind of quote can be tested
// without a service.
func Required(q *api.Quote) Requirements {
	var r Requirements
	inMethod := strings.ToUpper(strings.TrimSpace(q.InputPaymentMethod))
	outMethod := strings.ToUpper(strings.TrimSpace(q.OutputPaymentMethod))
	outCurrency := strings.ToUpper(strings.TrimSpace(q.OutputCurrency))

	switch {
	case inMethod == "PIX":
		// Rule 1: the response carries the BR Code to pay; the block only
		// holds optional remitter data.
		r.Blocks = append(r.Blocks, BlockPixInput)
	case money.IsChain(inMethod):
		r.Blocks = append(r.Blocks, BlockChainInput)
		switch strings.ToUpper(q.BlockchainSendMethod) {
		case api.SendTransfer:
			// Rule 3: the caller transfers the tokens itself.
		default:
			// Rule 2 (PERMIT, also when the quote did not say: clients
			// default to PERMIT and asking too much is safer than too little).
			r.Signature = SigPermitOrPersonal
		}
	case inMethod == "INTERNAL":
		// Debited from the service balance at creation: nothing to supply.
	default:
		r.Notes = append(r.Notes, fmt.Sprintf("input method %s: no ticket input block is documented; the service decides", orDash(inMethod)))
	}

	rail, known := RailOf(outCurrency, outMethod)
	r.Rail, r.PayOut = rail, rail.PayOut
	if rail.Block != "" {
		r.Blocks = append(r.Blocks, rail.Block)
	}
	switch {
	case !known:
		// Anything unknown: no block is documented, yet the money leaves
		// the account.
		r.Notes = append(r.Notes, fmt.Sprintf("output %s %s: no ticket output block is documented; the ticket is sent without one and the service decides", orDash(outCurrency), orDash(outMethod)))
	case rail.Block == BlockChainOutput:
		r.Chain = outMethod
	case rail.Block == BlockPixOutput:
		r.BrCode = q.OutputBrCode
	}

	if HasMarkup(q) {
		// Rule 6: the markup is paid to one of the caller's service wallets.
		r.Blocks = append(r.Blocks, BlockMarkup)
	}
	return r
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}
