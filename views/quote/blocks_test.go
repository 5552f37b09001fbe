package quote

import (
	"slices"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/api"
)

func TestRequiredBlocksForEveryKindOfQuote(t *testing.T) {
	q := func(inCur, inM, outCur, outM, send string) *api.Quote {
		return &api.Quote{InputCurrency: inCur, InputPaymentMethod: inM, OutputCurrency: outCur, OutputPaymentMethod: outM, BlockchainSendMethod: send}
	}
	withMarkup := func(x *api.Quote) *api.Quote {
		x.MarkupCurrency = x.InputCurrency
		x.MarkupAmount = decimal.RequireFromString("1.50")
		return x
	}
	cases := []struct {
		name   string
		quote  *api.Quote
		blocks []Block
		sig    Signature
		payOut PayOut
		rail   string
		chain  string
		notes  int
	}{
		{"PIX in, token to a chain", q("BRL", "PIX", "BRLA", "POLYGON", ""), []Block{BlockPixInput, BlockChainOutput}, SigNone, PayOutUnlessOwnWallet, "", "POLYGON", 0},
		{"PIX in, token kept in the balance", q("BRL", "PIX", "BRLA", "INTERNAL", ""), []Block{BlockPixInput}, SigNone, PayOutNo, "", "", 0},
		{"PIX in, PIX out (same currency)", q("BRL", "PIX", "BRL", "PIX", ""), []Block{BlockPixInput, BlockPixOutput}, SigNone, PayOutYes, "", "", 0},
		{"PIX in, USD over ACH", q("BRL", "PIX", "USD", "ACH", ""), []Block{BlockPixInput, BlockUSDOutput}, SigNone, PayOutYes, "ACH", "", 0},
		{"chain PERMIT in, PIX out", q("BRLA", "POLYGON", "BRL", "PIX", "PERMIT"), []Block{BlockChainInput, BlockPixOutput}, SigPermitOrPersonal, PayOutYes, "", "", 0},
		{"chain TRANSFER in, PIX out", q("BRLA", "CELO", "BRL", "PIX", "TRANSFER"), []Block{BlockChainInput, BlockPixOutput}, SigNone, PayOutYes, "", "", 0},
		{"chain in without a send method asks for a signature", q("USDC", "BASE", "BRL", "PIX", ""), []Block{BlockChainInput, BlockPixOutput}, SigPermitOrPersonal, PayOutYes, "", "", 0},
		{"chain to chain", q("USDC", "ETHEREUM", "BRLA", "BASE", "PERMIT"), []Block{BlockChainInput, BlockChainOutput}, SigPermitOrPersonal, PayOutUnlessOwnWallet, "", "BASE", 0},
		{"chain TRANSFER in, balance out", q("USDT", "POLYGON", "BRLA", "INTERNAL", "TRANSFER"), []Block{BlockChainInput}, SigNone, PayOutNo, "", "", 0},
		{"balance in, PIX out", q("BRLA", "INTERNAL", "BRL", "PIX", ""), []Block{BlockPixOutput}, SigNone, PayOutYes, "", "", 0},
		{"balance to balance swap", q("USDC", "INTERNAL", "BRLA", "INTERNAL", ""), nil, SigNone, PayOutNo, "", "", 0},
		{"balance in, chain out", q("BRLA", "INTERNAL", "USDC", "POLYGON", ""), []Block{BlockChainOutput}, SigNone, PayOutUnlessOwnWallet, "", "POLYGON", 0},
		{"balance in, USD over WIRE", q("USDC", "INTERNAL", "USD", "WIRE", ""), []Block{BlockUSDWireOutput}, SigNone, PayOutYes, "WIRE", "", 0},
		{"balance in, COP", q("USDC", "INTERNAL", "COP", "BANK-TRANSFER", ""), []Block{BlockCOPOutput}, SigNone, PayOutYes, "", "", 0},
		{"balance in, EUR over SEPA", q("EURC", "INTERNAL", "EUR", "SEPA", ""), []Block{BlockEURSepaOutput}, SigNone, PayOutYes, "", "", 0},
		{"balance in, ARS over CVU", q("USDC", "INTERNAL", "ARS", "CVU", ""), []Block{BlockARSOutput}, SigNone, PayOutYes, "", "", 0},
		{"unknown methods are passed to the service with notes", q("XYZ", "CARRIER-PIGEON", "ABC", "SMOKE", ""), nil, SigNone, PayOutYes, "", "", 2},
		{"lower-case codes are read as codes", q("brl", "pix", "brla", "polygon", ""), []Block{BlockPixInput, BlockChainOutput}, SigNone, PayOutUnlessOwnWallet, "", "POLYGON", 0},
		{"markup adds the markup wallet", withMarkup(q("BRL", "PIX", "BRLA", "POLYGON", "")), []Block{BlockPixInput, BlockChainOutput, BlockMarkup}, SigNone, PayOutUnlessOwnWallet, "", "POLYGON", 0},
		{"markup on a PERMIT input to PIX", withMarkup(q("BRLA", "POLYGON", "BRL", "PIX", "PERMIT")), []Block{BlockChainInput, BlockPixOutput, BlockMarkup}, SigPermitOrPersonal, PayOutYes, "", "", 0},
		{"markup on a balance swap", withMarkup(q("USDC", "INTERNAL", "BRLA", "INTERNAL", "")), []Block{BlockMarkup}, SigNone, PayOutNo, "", "", 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := Required(tc.quote)
			if !slices.Equal(r.Blocks, tc.blocks) {
				t.Errorf("blocks %v, want %v", r.Blocks, tc.blocks)
			}
			if r.Signature != tc.sig {
				t.Errorf("signature %v, want %v", r.Signature, tc.sig)
			}
			if r.PayOut != tc.payOut {
				t.Errorf("payOut %v, want %v", r.PayOut, tc.payOut)
			}
			if r.Rail != tc.rail {
				t.Errorf("rail %q, want %q", r.Rail, tc.rail)
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
	if HasMarkup(&api.Quote{}) {
		t.Error("a quote without markup fields reported a markup")
	}
	if !HasMarkup(&api.Quote{MarkupCurrency: "BRL"}) {
		t.Error("markup currency alone not seen as a markup")
	}
	if !HasMarkup(&api.Quote{MarkupAmount: decimal.RequireFromString("0.01")}) {
		t.Error("markup amount alone not seen as a markup")
	}
}
