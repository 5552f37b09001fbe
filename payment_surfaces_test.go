package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/journal"
	"github.com/tesouro-treasury/tesouro/sandbox"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/views/quote/quotetest"
)

// creations records the body of every ticket creation that reaches the
// sandbox, by external id.
type creations struct {
	mu     sync.Mutex
	bodies map[string][]byte
}

func (c *creations) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && strings.TrimSuffix(r.URL.Path, "/") == "/v2/account/tickets" {
			body, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(body))
			var head struct{ ExternalID string }
			_ = json.Unmarshal(body, &head)
			c.mu.Lock()
			c.bodies[head.ExternalID] = body
			c.mu.Unlock()
		}
		next.ServeHTTP(w, r)
	})
}

// without is a creation body with its quote token and external id blanked:
// what is left is what the surface built of the payment.
func (c *creations) without(t *testing.T, externalID string) string {
	t.Helper()
	c.mu.Lock()
	raw, ok := c.bodies[externalID]
	c.mu.Unlock()
	if !ok {
		t.Fatalf("no creation was sent under %s", externalID)
	}
	var body map[string]json.RawMessage
	if err := json.Unmarshal(raw, &body); err != nil {
		t.Fatal(err)
	}
	delete(body, "quoteToken")
	delete(body, "externalId")
	out, _ := json.Marshal(body)
	return string(out)
}

// TestEveryOutputKindIsOnePaymentOnEverySurface: for each output kind, the
// ticket the command line creates (ticket create) and the one the Quote
// screen creates are the same request, byte for byte but for the quote
// token and the external id: one payment core builds both. Against the
// sandbox over HTTP.
func TestEveryOutputKindIsOnePaymentOnEverySurface(t *testing.T) {
	sb, err := sandbox.New(sandbox.Config{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	rec := &creations{bodies: map[string][]byte{}}
	srv := httptest.NewServer(rec.wrap(sb.Handler()))
	t.Cleanup(func() { srv.Close(); sb.Close() })
	creds := sb.Credentials(srv.URL)
	credsPath := filepath.Join(t.TempDir(), "creds.json")
	if err := creds.WriteFile(credsPath); err != nil {
		t.Fatal(err)
	}
	acc, _ := creds.Access("operator")
	auth, err := api.NewAPIKeyAuth(acc.APIKey, []byte(acc.PrivateKeyPEM))
	if err != nil {
		t.Fatal(err)
	}
	c, err := api.New(srv.URL, auth, api.WithTimeout(10*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	register := func(id uuid.UUID, err error) string {
		t.Helper()
		if err != nil {
			t.Fatalf("register a beneficiary: %v", err)
		}
		return id.String()
	}
	pix := register(c.CreateBRLAccount(ctx, uuid.Nil, api.CreateBRLAccountRequest{Alias: "Surface Pix", PixKey: "surface@example.com"}))
	wallet := register(c.CreateWallet(ctx, uuid.Nil, api.CreateWalletRequest{Alias: "Surface Wallet", WalletAddress: "0x52908400098527886E0F7030069857D2E4169EE7", WalletChain: "POLYGON"}))
	usd := register(c.CreateUSDAccount(ctx, uuid.Nil, api.CreateUSDAccountRequest{Alias: "Surface Corp", BankAccountNumber: "000123456789", BankRoutingNumber: "021000021",
		BankBeneficiaryName: "Surface Corp", BankName: "Chase",
		BeneficiaryAddress: &api.Address{StreetLine1: "1 Main St", City: "New York", State: "NY", PostalCode: "10001", Country: "USA"},
		BankAddress:        &api.Address{StreetLine1: "383 Madison Ave", City: "New York", State: "NY", PostalCode: "10017", Country: "USA"}}))
	eur := register(c.CreateEURAccount(ctx, uuid.Nil, api.CreateEURAccountRequest{Alias: "Surface GmbH", IBAN: "DE89370400440532013000", BIC: "COBADEFFXXX", Country: "DEU", BankBeneficiaryName: "Surface GmbH"}))
	ars := register(c.CreateARSAccount(ctx, uuid.Nil, api.CreateARSAccountRequest{Alias: "Surface SA", CVU: "0000003100010000000009"}))
	cop := register(c.CreateCOPAccount(ctx, uuid.Nil, api.CreateCOPAccountRequest{Alias: "Surface SAS", BeneficiaryName: "Surface SAS", BreBKey: "surface-sas"}))

	const addr = "0x52908400098527886E0F7030069857D2E4169EE7"
	cases := []struct {
		name  string
		block string // the output block both must carry ("" for none)
		cli   []string
		ui    quotetest.Payment
	}{
		{"PIX to a beneficiary", "ticketBrlPixOutput",
			[]string{"--from", "BRLA", "--from-method", "INTERNAL", "--to", "BRL", "--output-amount", "50", "--beneficiary", pix, "--reference", "aluguel"},
			quotetest.Payment{InCurrency: "BRLA", InMethod: "INTERNAL", OutCurrency: "BRL", OutMethod: "PIX", Amount: "50", Receive: true, Payee: "Surface Pix", Reference: "aluguel"}},
		{"PIX to a key", "ticketBrlPixOutput",
			[]string{"--from", "BRLA", "--from-method", "INTERNAL", "--to", "BRL", "--output-amount", "50", "--pix-key", "+5511912345678"},
			quotetest.Payment{InCurrency: "BRLA", InMethod: "INTERNAL", OutCurrency: "BRL", OutMethod: "PIX", Amount: "50", Receive: true, Payee: "Another PIX key", PixKey: "+5511912345678"}},
		{"a chain wallet", "ticketBlockchainOutput",
			[]string{"--from", "BRL", "--to", "BRLA", "--to-method", "POLYGON", "--amount", "100", "--beneficiary", wallet},
			quotetest.Payment{InCurrency: "BRL", InMethod: "PIX", OutCurrency: "BRLA", OutMethod: "POLYGON", Amount: "100", Payee: "Surface Wallet"}},
		{"a chain address", "ticketBlockchainOutput",
			[]string{"--from", "BRL", "--to", "USDC", "--to-method", "BASE", "--amount", "100", "--to-address", strings.ToLower(addr), "--memo", "inv 9"},
			quotetest.Payment{InCurrency: "BRL", InMethod: "PIX", OutCurrency: "USDC", OutMethod: "BASE", Amount: "100", Payee: "Another address", Address: strings.ToLower(addr), Memo: "inv 9"}},
		{"the own wallet", "ticketBlockchainOutput",
			[]string{"--from", "BRL", "--to", "BRLA", "--to-method", "CELO", "--amount", "100"},
			quotetest.Payment{InCurrency: "BRL", InMethod: "PIX", OutCurrency: "BRLA", OutMethod: "CELO", Amount: "100", Payee: "Own service wallet"}},
		{"the balance", "",
			[]string{"--from", "BRL", "--to", "BRLA", "--to-method", "INTERNAL", "--amount", "100"},
			quotetest.Payment{InCurrency: "BRL", InMethod: "PIX", OutCurrency: "BRLA", OutMethod: "INTERNAL", Amount: "100"}},
		{"USD by ACH", "ticketUsdOutput",
			[]string{"--from", "USDC", "--from-method", "INTERNAL", "--to", "USD", "--to-method", "ACH", "--amount", "100", "--beneficiary", usd, "--reference", "INV-1"},
			quotetest.Payment{InCurrency: "USDC", InMethod: "INTERNAL", OutCurrency: "USD", OutMethod: "ACH", Amount: "100", Payee: "Surface Corp", Reference: "INV-1"}},
		{"USD by WIRE", "ticketUsdWireOutput",
			[]string{"--from", "USDC", "--from-method", "INTERNAL", "--to", "USD", "--to-method", "WIRE", "--output-amount", "100", "--beneficiary", usd, "--reference", "INV-2"},
			quotetest.Payment{InCurrency: "USDC", InMethod: "INTERNAL", OutCurrency: "USD", OutMethod: "WIRE", Amount: "100", Receive: true, Payee: "Surface Corp", Reference: "INV-2"}},
		{"EUR by SEPA", "ticketEurSepaOutput",
			[]string{"--from", "EURC", "--from-method", "INTERNAL", "--to", "EUR", "--amount", "100", "--beneficiary", eur, "--reference", "RE-3"},
			quotetest.Payment{InCurrency: "EURC", InMethod: "INTERNAL", OutCurrency: "EUR", OutMethod: "SEPA", Amount: "100", Payee: "Surface GmbH", Reference: "RE-3"}},
		{"ARS to a CVU", "ticketArsOutput",
			[]string{"--from", "USDC", "--from-method", "INTERNAL", "--to", "ARS", "--amount", "100", "--beneficiary", ars},
			quotetest.Payment{InCurrency: "USDC", InMethod: "INTERNAL", OutCurrency: "ARS", OutMethod: "CVU", Amount: "100", Payee: "Surface SA"}},
		{"COP by bank transfer", "ticketCopOutput",
			[]string{"--from", "USDC", "--from-method", "INTERNAL", "--to", "COP", "--amount", "100", "--beneficiary", cop},
			quotetest.Payment{InCurrency: "USDC", InMethod: "INTERNAL", OutCurrency: "COP", OutMethod: "BANK-TRANSFER", Amount: "100", Payee: "Surface SAS"}},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cliID, uiID := fmt.Sprintf("surface-cli-%d", i), fmt.Sprintf("surface-ui-%d", i)
			args := append([]string{"--credentials", credsPath, "ticket", "create"}, tc.cli...)
			if code, out, errOut := tesouro(t, nil, append(args, "--external-id", cliID, "--yes", "--json")...); code != 0 {
				t.Fatalf("ticket create: exit %d\n%s\n%s", code, out, errOut)
			}
			j, err := journal.Open(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			s := &ui.Session{Env: ui.EnvSandbox, Profile: "demo", Journal: j,
				Access: &api.AccessInfo{Email: acc.Email, AccountPermissions: api.Permissions{PayIn: true, PayOut: true, Convert: true, OnChain: true}}}
			p := tc.ui
			p.ExternalID = uiID
			if err := quotetest.New(t, s, c).Pay(p); err != nil {
				t.Fatalf("the Quote screen: %v", err)
			}
			fromCLI, fromUI := rec.without(t, cliID), rec.without(t, uiID)
			if fromCLI != fromUI {
				t.Fatalf("the two surfaces built two requests:\n command line %s\n Quote screen %s", fromCLI, fromUI)
			}
			if tc.block != "" && !strings.Contains(fromCLI, `"`+tc.block+`":{`) {
				t.Errorf("%s lacks its %s: %s", tc.name, tc.block, fromCLI)
			}
		})
	}
}
