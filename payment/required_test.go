package payment_test

import (
	"slices"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/payment"
)

// TestRequiredBlocksForEveryKindOfQuote: the blocks a ticket needs, from
// the quote alone, for every kind of quote a screen or a command can be
// given.
func TestRequiredBlocksForEveryKindOfQuote(t *testing.T) {
	q := func(inCur, inM, outCur, outM, send string) *api.Quote {
		return &api.Quote{InputCurrency: inCur, InputPaymentMethod: inM, OutputCurrency: outCur, OutputPaymentMethod: outM, BlockchainSendMethod: send}
	}
	withMarkup := func(x *api.Quote) *api.Quote {
		x.MarkupCurrency = x.InputCurrency
		x.MarkupAmount.Decimal = decimal.RequireFromString("1.50")
		return x
	}
	cases := []struct {
		name   string
		quote  *api.Quote
		blocks []payment.Block
		sig    payment.Signature
		payOut payment.PayOut
		rail   string
		chain  string
		notes  int
	}{
		{"PIX in, token to a chain", q("BRL", "PIX", "BRLA", "POLYGON", ""), []payment.Block{payment.BlockPixInput, payment.BlockChainOutput}, payment.SigNone, payment.PayOutUnlessOwnWallet, "", "POLYGON", 0},
		{"PIX in, token kept in the balance", q("BRL", "PIX", "BRLA", "INTERNAL", ""), []payment.Block{payment.BlockPixInput}, payment.SigNone, payment.PayOutNo, "", "", 0},
		{"PIX in, PIX out (same currency)", q("BRL", "PIX", "BRL", "PIX", ""), []payment.Block{payment.BlockPixInput, payment.BlockPixOutput}, payment.SigNone, payment.PayOutYes, "", "", 0},
		{"PIX in, USD over ACH", q("BRL", "PIX", "USD", "ACH", ""), []payment.Block{payment.BlockPixInput, payment.BlockUSDOutput}, payment.SigNone, payment.PayOutYes, "ACH", "", 0},
		{"chain PERMIT in, PIX out", q("BRLA", "POLYGON", "BRL", "PIX", "PERMIT"), []payment.Block{payment.BlockChainInput, payment.BlockPixOutput}, payment.SigPermitOrPersonal, payment.PayOutYes, "", "", 0},
		{"chain TRANSFER in, PIX out", q("BRLA", "CELO", "BRL", "PIX", "TRANSFER"), []payment.Block{payment.BlockChainInput, payment.BlockPixOutput}, payment.SigNone, payment.PayOutYes, "", "", 0},
		{"chain in without a send method asks for a signature", q("USDC", "BASE", "BRL", "PIX", ""), []payment.Block{payment.BlockChainInput, payment.BlockPixOutput}, payment.SigPermitOrPersonal, payment.PayOutYes, "", "", 0},
		{"chain to chain", q("USDC", "ETHEREUM", "BRLA", "BASE", "PERMIT"), []payment.Block{payment.BlockChainInput, payment.BlockChainOutput}, payment.SigPermitOrPersonal, payment.PayOutUnlessOwnWallet, "", "BASE", 0},
		{"chain TRANSFER in, balance out", q("USDT", "POLYGON", "BRLA", "INTERNAL", "TRANSFER"), []payment.Block{payment.BlockChainInput}, payment.SigNone, payment.PayOutNo, "", "", 0},
		{"balance in, PIX out", q("BRLA", "INTERNAL", "BRL", "PIX", ""), []payment.Block{payment.BlockPixOutput}, payment.SigNone, payment.PayOutYes, "", "", 0},
		{"balance to balance swap", q("USDC", "INTERNAL", "BRLA", "INTERNAL", ""), nil, payment.SigNone, payment.PayOutNo, "", "", 0},
		{"balance in, chain out", q("BRLA", "INTERNAL", "USDC", "POLYGON", ""), []payment.Block{payment.BlockChainOutput}, payment.SigNone, payment.PayOutUnlessOwnWallet, "", "POLYGON", 0},
		{"balance in, USD over WIRE", q("USDC", "INTERNAL", "USD", "WIRE", ""), []payment.Block{payment.BlockUSDWireOutput}, payment.SigNone, payment.PayOutYes, "WIRE", "", 0},
		{"balance in, COP", q("USDC", "INTERNAL", "COP", "BANK-TRANSFER", ""), []payment.Block{payment.BlockCOPOutput}, payment.SigNone, payment.PayOutYes, "", "", 0},
		{"balance in, EUR over SEPA", q("EURC", "INTERNAL", "EUR", "SEPA", ""), []payment.Block{payment.BlockEURSepaOutput}, payment.SigNone, payment.PayOutYes, "", "", 0},
		{"balance in, ARS over CVU", q("USDC", "INTERNAL", "ARS", "CVU", ""), []payment.Block{payment.BlockARSOutput}, payment.SigNone, payment.PayOutYes, "", "", 0},
		{"unknown methods are passed to the service with notes", q("XYZ", "CARRIER-PIGEON", "ABC", "SMOKE", ""), nil, payment.SigNone, payment.PayOutYes, "", "", 2},
		{"lower-case codes are read as codes", q("brl", "pix", "brla", "polygon", ""), []payment.Block{payment.BlockPixInput, payment.BlockChainOutput}, payment.SigNone, payment.PayOutUnlessOwnWallet, "", "POLYGON", 0},
		{"markup adds the markup wallet", withMarkup(q("BRL", "PIX", "BRLA", "POLYGON", "")), []payment.Block{payment.BlockPixInput, payment.BlockChainOutput, payment.BlockMarkup}, payment.SigNone, payment.PayOutUnlessOwnWallet, "", "POLYGON", 0},
		{"markup on a PERMIT input to PIX", withMarkup(q("BRLA", "POLYGON", "BRL", "PIX", "PERMIT")), []payment.Block{payment.BlockChainInput, payment.BlockPixOutput, payment.BlockMarkup}, payment.SigPermitOrPersonal, payment.PayOutYes, "", "", 0},
		{"markup on a balance swap", withMarkup(q("USDC", "INTERNAL", "BRLA", "INTERNAL", "")), []payment.Block{payment.BlockMarkup}, payment.SigNone, payment.PayOutNo, "", "", 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := payment.Required(tc.quote)
			if !slices.Equal(r.Blocks, tc.blocks) {
				t.Errorf("blocks %v, want %v", r.Blocks, tc.blocks)
			}
			if r.Signature != tc.sig {
				t.Errorf("signature %v, want %v", r.Signature, tc.sig)
			}
			if r.PayOut != tc.payOut {
				t.Errorf("payOut %v, want %v", r.PayOut, tc.payOut)
			}
			if tc.rail != "" && r.Rail.Name != tc.rail {
				t.Errorf("rail %q, want %q", r.Rail.Name, tc.rail)
			}
			if r.Chain != tc.chain {
				t.Errorf("chain %q, want %q", r.Chain, tc.chain)
			}
			if len(r.Notes) != tc.notes {
				t.Errorf("notes %q, want %d", r.Notes, tc.notes)
			}
		})
	}
}

func TestMarkupIsDetectedFromEitherField(t *testing.T) {
	if payment.HasMarkup(&api.Quote{}) {
		t.Error("a quote without markup fields reported a markup")
	}
	if !payment.HasMarkup(&api.Quote{MarkupCurrency: "BRL"}) {
		t.Error("markup currency alone not seen as a markup")
	}
	if !payment.HasMarkup(&api.Quote{MarkupAmount: api.OptionalDecimal{Decimal: decimal.RequireFromString("0.01")}}) {
		t.Error("markup amount alone not seen as a markup")
	}
}
