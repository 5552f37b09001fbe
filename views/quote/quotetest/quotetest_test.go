package quotetest_test

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/brcode"
	"github.com/tesouro-treasury/tesouro/journal"
	"github.com/tesouro-treasury/tesouro/payment"
	"github.com/tesouro-treasury/tesouro/sandbox"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/views/internal/livetest"
	"github.com/tesouro-treasury/tesouro/views/quote/quotetest"
)

// Every output kind, driven by keys from outside the package against the
// sandbox over HTTP: the screen reaches the ticket, and the request it
// sent carries the output block of that kind, naming what was typed.
func TestPayEveryOutputKind(t *testing.T) {
	sb, err := sandbox.New(sandbox.Config{Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	c := livetest.Client(t, livetest.Serve(t, sb), "operator", 10*time.Second)
	ctx := t.Context()
	for _, reg := range []func() (uuid.UUID, error){
		func() (uuid.UUID, error) {
			return c.CreateBRLAccount(ctx, uuid.Nil, api.CreateBRLAccountRequest{Alias: "Zeta Pix", PixKey: "zeta@example.com"})
		},
		func() (uuid.UUID, error) {
			return c.CreateWallet(ctx, uuid.Nil, api.CreateWalletRequest{Alias: "Zeta Wallet", WalletAddress: "0x52908400098527886E0F7030069857D2E4169EE7", WalletChain: "POLYGON"})
		},
		func() (uuid.UUID, error) {
			return c.CreateUSDAccount(ctx, uuid.Nil, livetest.USDAccount("Zeta Corp", "Zeta Corp"))
		},
		func() (uuid.UUID, error) {
			return c.CreateEURAccount(ctx, uuid.Nil, api.CreateEURAccountRequest{Alias: "Zeta GmbH", IBAN: "DE89370400440532013000", BIC: "COBADEFFXXX", Country: "DEU", BankBeneficiaryName: "Zeta GmbH"})
		},
		func() (uuid.UUID, error) {
			return c.CreateARSAccount(ctx, uuid.Nil, api.CreateARSAccountRequest{Alias: "Zeta SA", CVU: "0000003100010000000009"})
		},
		func() (uuid.UUID, error) {
			return c.CreateCOPAccount(ctx, uuid.Nil, api.CreateCOPAccountRequest{Alias: "Zeta SAS", BeneficiaryName: "Zeta SAS", BreBKey: "zeta-sas"})
		},
	} {
		if _, err := reg(); err != nil {
			t.Fatalf("register: %v", err)
		}
	}
	code, err := brcode.Encode(brcode.Payload{Key: "+5511987654321", Amount: decimal.RequireFromString("42.10"), MerchantName: "PADARIA CENTRAL", MerchantCity: "RECIFE", TxID: "PEDIDO7"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		p     quotetest.Payment
		block string
		want  string // a piece of the block, as JSON
	}{
		{"PIX beneficiary", quotetest.Payment{InCurrency: "BRLA", InMethod: "INTERNAL", OutCurrency: "BRL", OutMethod: "PIX", Amount: "50", Payee: "Zeta Pix", Reference: "aluguel"},
			"ticketBrlPixOutput", `"pixMessage":"aluguel"`},
		{"PIX key", quotetest.Payment{InCurrency: "BRLA", InMethod: "INTERNAL", OutCurrency: "BRL", OutMethod: "PIX", Amount: "50", Payee: "Another PIX key", PixKey: "+5511912345678"},
			"ticketBrlPixOutput", `"pixKey":"+5511912345678"`},
		{"PIX bank account", quotetest.Payment{InCurrency: "BRLA", InMethod: "INTERNAL", OutCurrency: "BRL", OutMethod: "PIX", Amount: "50", Payee: "Another bank account",
			Bank: payment.BankAccount{TaxID: "52998224725", UserName: "Maria Silva", BankCode: "341", BranchCode: "0001", AccountNumber: "123456", AccountType: "savings"}},
			"ticketBrlPixOutput", `"bankCode":"341","branchCode":"0001","accountNumber":"123456","accountType":"savings"`},
		{"BR Code", quotetest.Payment{InCurrency: "BRLA", InMethod: "INTERNAL", OutCurrency: "BRL", OutMethod: "PIX", BrCode: code},
			"ticketBrlPixOutput", `"brCode":"000201`},
		{"chain wallet", quotetest.Payment{InCurrency: "BRL", InMethod: "PIX", OutCurrency: "BRLA", OutMethod: "POLYGON", Amount: "100", Payee: "Zeta Wallet"},
			"ticketBlockchainOutput", `"beneficiaryWalletId":"`},
		{"chain address", quotetest.Payment{InCurrency: "BRL", InMethod: "PIX", OutCurrency: "USDC", OutMethod: "BASE", Amount: "100", Payee: "Another address",
			Address: "0x52908400098527886e0f7030069857d2e4169ee7", Memo: "inv 9"}, "ticketBlockchainOutput", `"walletAddress":"0x52908400098527886E0F7030069857D2E4169EE7","walletMemo":"inv 9"`},
		{"own wallet", quotetest.Payment{InCurrency: "BRL", InMethod: "PIX", OutCurrency: "BRLA", OutMethod: "CELO", Amount: "100", Payee: "Own service wallet"},
			"ticketBlockchainOutput", `"beneficiaryWalletId":"00000000-0000-0000-0000-000000000000"`},
		{"INTERNAL", quotetest.Payment{InCurrency: "BRL", InMethod: "PIX", OutCurrency: "BRLA", OutMethod: "INTERNAL", Amount: "100"}, "", ""},
		{"ACH", quotetest.Payment{InCurrency: "USDC", InMethod: "INTERNAL", OutCurrency: "USD", OutMethod: "ACH", Amount: "100", Payee: "Zeta Corp", Reference: "INV-1"},
			"ticketUsdOutput", `"achReference":"INV-1"`},
		{"WIRE", quotetest.Payment{InCurrency: "USDC", InMethod: "INTERNAL", OutCurrency: "USD", OutMethod: "WIRE", Amount: "100", Receive: true, Payee: "Zeta Corp", Reference: "INV-2"},
			"ticketUsdWireOutput", `"wireMessage":"INV-2"`},
		{"SEPA", quotetest.Payment{InCurrency: "EURC", InMethod: "INTERNAL", OutCurrency: "EUR", OutMethod: "SEPA", Amount: "100", Payee: "Zeta GmbH", Reference: "RE-3"},
			"ticketEurSepaOutput", `"sepaReference":"RE-3"`},
		{"CVU", quotetest.Payment{InCurrency: "USDC", InMethod: "INTERNAL", OutCurrency: "ARS", OutMethod: "CVU", Amount: "100", Payee: "Zeta SA"},
			"ticketArsOutput", `"beneficiaryArsBankAccountId":"`},
		{"COP", quotetest.Payment{InCurrency: "USDC", InMethod: "INTERNAL", OutCurrency: "COP", OutMethod: "BANK-TRANSFER", Amount: "100", Payee: "Zeta SAS",
			ExternalID: "erp-cop-1"}, "ticketCopOutput", `"beneficiaryCopBankAccountId":"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			j, err := journal.Open(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			s := &ui.Session{Env: ui.EnvSandbox, Profile: "demo", Journal: j,
				Access: &api.AccessInfo{Email: "operator@demo.test", AccountPermissions: api.Permissions{PayIn: true, PayOut: true, Convert: true, OnChain: true, Markup: true}}}
			rec := &quotetest.Recorder{Service: c}
			d := quotetest.New(t, s, rec)
			if err := d.Pay(tc.p); err != nil {
				t.Fatal(err)
			}
			if len(rec.Created) != 1 {
				t.Fatalf("%d creations, want 1", len(rec.Created))
			}
			raw, _ := json.Marshal(rec.Created[0])
			var body map[string]json.RawMessage
			if err := json.Unmarshal(raw, &body); err != nil {
				t.Fatal(err)
			}
			for _, b := range []string{"ticketBrlPixOutput", "ticketBlockchainOutput", "ticketUsdOutput", "ticketUsdWireOutput", "ticketEurSepaOutput", "ticketArsOutput", "ticketCopOutput"} {
				switch got := string(body[b]); {
				case b == tc.block && !contains(got, tc.want):
					t.Errorf("%s = %s, want it to hold %s", b, got, tc.want)
				case b != tc.block && got != "":
					t.Errorf("%s sent beside %q: %s", b, tc.block, got)
				}
			}
			if tc.p.ExternalID != "" && rec.Created[0].ExternalID != tc.p.ExternalID {
				t.Errorf("external id %q, want the one typed %q", rec.Created[0].ExternalID, tc.p.ExternalID)
			}
		})
	}
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }

// The Quote screen prices BRLA→USDT as the service names it (§8.1): the
// market pair USDTBRLA, "1 USDT = … BRLA", and the price read off the
// screen is within 1 % of what the quote's own amounts say (the fees
// make the difference), against the sandbox over HTTP.
func TestQuotePriceReadsTheMarketPair(t *testing.T) {
	sb, err := sandbox.New(sandbox.Config{Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	c := livetest.Client(t, livetest.Serve(t, sb), "operator", 10*time.Second)
	s := &ui.Session{Env: ui.EnvSandbox, Profile: "demo",
		Access: &api.AccessInfo{Email: "operator@demo.test", AccountPermissions: api.Permissions{PayIn: true, PayOut: true, Convert: true, OnChain: true, Markup: true}}}
	rec := &quotetest.Recorder{Service: c}
	d := quotetest.New(t, s, rec)
	if err := d.Quote(quotetest.Payment{InCurrency: "BRLA", InMethod: "INTERNAL", OutCurrency: "USDT", OutMethod: "INTERNAL", Amount: "1000"}); err != nil {
		t.Fatal(err)
	}
	v := d.PlainView()
	m := regexp.MustCompile(`1 USDT = ([0-9.,]+) BRLA`).FindStringSubmatch(v)
	if m == nil || !strings.Contains(v, "pair USDTBRLA") || !regexp.MustCompile(`1 BRLA = 0\.[0-9]+ USDT`).MatchString(v) {
		t.Fatalf("the quote does not read the market pair both ways:\n%s", v)
	}
	price := decimal.RequireFromString(strings.ReplaceAll(m[1], ",", ""))
	out := regexp.MustCompile(`They receive\s+([0-9.,]+) USDT`).FindStringSubmatch(v)
	if out == nil {
		t.Fatalf("no amount received on screen:\n%s", v)
	}
	implied := decimal.NewFromInt(1000).Div(decimal.RequireFromString(strings.ReplaceAll(out[1], ",", "")))
	if diff := implied.Sub(price).Abs().Div(price); diff.GreaterThan(decimal.RequireFromString("0.01")) {
		t.Errorf("1 USDT = %s BRLA on screen, but 1000 BRLA buy %s USDT (%s BRLA each): %s%% apart", price, out[1], implied.StringFixed(4), diff.Mul(decimal.NewFromInt(100)).StringFixed(2))
	}
}
