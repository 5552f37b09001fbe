package quote

import (
	"fmt"
	"strings"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/money"
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

// PayOut says whether the output leaves the operated account, which the
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

// Requirements is what a ticket built from a quote must carry.
type Requirements struct {
	Blocks    []Block
	Signature Signature
	PayOut    PayOut
	// Rail is the USD payment rail the output method implies (ACH or WIRE).
	Rail string
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

	switch {
	case outMethod == "PIX":
		r.Blocks = append(r.Blocks, BlockPixOutput)
		r.PayOut = PayOutYes
	case money.IsChain(outMethod):
		// Rule 5.
		r.Blocks = append(r.Blocks, BlockChainOutput)
		r.PayOut = PayOutUnlessOwnWallet
		r.Chain = outMethod
	case outMethod == "INTERNAL":
		// Credited to the balance of the operated account.
	case outMethod == "WIRE":
		// The live service has a block of its own for wires, with a
		// message instead of the ACH reference.
		r.Blocks = append(r.Blocks, BlockUSDWireOutput)
		r.PayOut = PayOutYes
		r.Rail = "WIRE"
	case outMethod == "ACH" || outCurrency == "USD":
		r.Blocks = append(r.Blocks, BlockUSDOutput)
		r.PayOut = PayOutYes
		r.Rail = "ACH"
	case outMethod == "SEPA" || outCurrency == "EUR":
		r.Blocks = append(r.Blocks, BlockEURSepaOutput)
		r.PayOut = PayOutYes
	case outMethod == "CVU" || outCurrency == "ARS":
		r.Blocks = append(r.Blocks, BlockARSOutput)
		r.PayOut = PayOutYes
	case outMethod == "BANK-TRANSFER" || outCurrency == "COP":
		r.Blocks = append(r.Blocks, BlockCOPOutput)
		r.PayOut = PayOutYes
	default:
		// Anything unknown: no block is documented, yet the money leaves
		// the account.
		r.PayOut = PayOutYes
		r.Notes = append(r.Notes, fmt.Sprintf("output %s %s: no ticket output block is documented; the ticket is sent without one and the service decides", orDash(outCurrency), orDash(outMethod)))
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
