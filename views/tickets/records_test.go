package tickets

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/ui"
)

// liveFees are the five fees of a ticket's quote as the live service
// records them (service.md §8.2): in the input currency, zero included,
// rebatable marked.
func liveFees(cur string, conversion string) []api.Fee {
	yes, no := true, false
	zero := decimal.Zero
	return []api.Fee{
		{Type: "Markup Fee", Description: "Total markup fees represented in the input currency.", Amount: zero, Currency: cur, Rebatable: &no},
		{Type: "In Fee", Description: "Fees due to input currency and input payment method.", Amount: zero, Currency: cur, Rebatable: &yes},
		{Type: "Conversion Fee", Description: "Fees due to conversion from input currency to output currency.", Amount: decimal.RequireFromString(conversion), Currency: cur, Rebatable: &yes},
		{Type: "Out Fee", Description: "Fees due to output currency and output payment method.", Amount: zero, Currency: cur, Rebatable: &yes},
		{Type: "Gas Fee", Description: "Fees due to blockchain transaction costs.", Amount: zero, Currency: cur, Rebatable: &no},
	}
}

// detailOf is the detail pane of t as plain text, wide enough for a hash
// on one line.
func detailOf(t *testing.T, tk *api.Ticket) string {
	t.Helper()
	m := start(t, &fakeService{}, 100, 30)
	lines := ticketLines(tk, m.s.Styles(), 200, time.UTC, testNow, "")
	return ansi.Strip(ui.Fit(strings.Join(lines, "\n"), 200, len(lines)))
}

// TestDetailShowsTheRecordsOfTheLiveService: a paid ticket shows its
// rebate, who sent and who received the money, the PIX end-to-end ids
// and the transaction hashes, as §8.2 records them.
func TestDetailShowsTheRecordsOfTheLiveService(t *testing.T) {
	id := uuid.MustParse("9c1e0000-0000-4000-8000-000000000008")
	const (
		payerE2E   = "E60701190202611271200ABCDEFGHIJK"
		inHash     = "0x1111111111111111111111111111111111111111111111111111111111111111"
		outHash    = "0x2222222222222222222222222222222222222222222222222222222222222222"
		receiverTo = "0x52908400098527886E0F7030069857D2E4169EE7"
		rebateTo   = "0x8617E340B3D01FA5F11F306F4090FD50E238070D"
	)
	// BRL paid by PIX, delivered as USDC on Polygon.
	pixIn := &api.Ticket{
		ID: id, Status: api.TicketPaid, CreatedAt: api.NewTime(testNow), UpdatedAt: api.NewTime(testNow),
		Quote: api.TicketQuote{
			InputCurrency: "BRL", InputPaymentMethod: "PIX", InputAmount: decimal.RequireFromString("800.00"),
			OutputCurrency: "USDC", OutputPaymentMethod: "POLYGON", OutputAmount: decimal.RequireFromString("147.260000"),
			PairName: "BRLUSDC", AppliedFees: liveFees("BRL", "4.00"),
		},
		Rebate: &api.Rebate{ID: uuid.New(), TicketID: id, Amount: decimal.RequireFromString("0.370000"), Currency: "USDC", DestinationWalletAddress: rebateTo},
		BrazilianFiatSenderInfo: &api.BrazilianFiatSenderInfo{ID: "s1", TicketID: id.String(), Name: "Pagador Sandbox", TaxID: "52998224725",
			BankCode: "60701190", BranchCode: "0001", AccountNumber: "12345678", AccountType: "CACC", EndToEndID: payerE2E},
		BlockchainReceiverInfo: &api.BlockchainReceiverInfo{ID: "r1", TicketID: id.String(), WalletAddress: receiverTo, WalletChain: "POLYGON", TxHash: outHash},
	}
	v := detailOf(t, pixIn)
	for _, want := range []string{
		"Markup Fee", "0.00 BRL  not rebatable", "In Fee", "Conversion Fee", "4.00 BRL  ↺ rebatable", "Out Fee", "Gas Fee",
		"Rebate", "0.370000 USDC", "To wallet", rebateTo,
		"PIX sender", "Pagador Sandbox", "52998224725", "60701190 / 0001", "12345678 CACC", "End-to-end ID", payerE2E,
		"Blockchain receiver", receiverTo, "POLYGON", "Tx hash", outHash,
		"PIX received, end-to-end " + payerE2E, "✓ paid, tx " + outHash,
	} {
		if !strings.Contains(v, want) {
			t.Errorf("detail lacks %q:\n%s", want, v)
		}
	}

	// USDC sent on a chain, paid out by PIX: the sending wallet and its
	// hash, the receiver's end-to-end id; no rebate recorded.
	chainIn := &api.Ticket{
		ID: id, Status: api.TicketPaid, FailureReason: "", CreatedAt: api.NewTime(testNow), UpdatedAt: api.NewTime(testNow),
		Quote: api.TicketQuote{
			InputCurrency: "USDC", InputPaymentMethod: "POLYGON", InputAmount: decimal.RequireFromString("50.000000"),
			OutputCurrency: "BRL", OutputPaymentMethod: "PIX", OutputAmount: decimal.RequireFromString("268.35"),
			PairName: "USDCBRL", SendMethod: "TRANSFER", AppliedFees: liveFees("USDC", "0.250000"),
		},
		BlockchainSenderInfo:      &api.BlockchainSenderInfo{ID: "s2", TicketID: id.String(), WalletAddress: receiverTo, TxHash: inHash},
		BrazilianFiatReceiverInfo: &api.BrazilianFiatReceiverInfo{ID: "r2", TicketID: id.String(), UserName: "Maria Silva", PixKey: "maria@example.com", EndToEndID: "E13370000202611271201ZYXWVUTSRQP"},
	}
	v = detailOf(t, chainIn)
	for _, want := range []string{
		"Send method", "TRANSFER",
		"Blockchain sender", receiverTo, "Tx hash", inHash,
		"PIX receiver", "Maria Silva", "maria@example.com", "End-to-end ID", "E13370000202611271201ZYXWVUTSRQP",
		"no rebate on this ticket", "tokens received, tx " + inHash,
	} {
		if !strings.Contains(v, want) {
			t.Errorf("detail lacks %q:\n%s", want, v)
		}
	}
	if strings.Contains(v, "Failure reason") {
		t.Errorf("an empty failureReason is shown:\n%s", v)
	}
}
