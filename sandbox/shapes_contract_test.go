package sandbox_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/brcode"
	"github.com/tesouro-treasury/tesouro/sandbox"
)

// Every output block of spec/service.md §7.1 in each of its variants, sent
// by the typed client as a live client sends it: what the sandbox accepts,
// what it refuses, and what the ticket then says about the receiver.
func TestTicketOutputShapes(t *testing.T) {
	e := newEnv(t, sandbox.Config{Seed: 13})
	op := e.as("operator")
	brl := firstBRL(t, op, uuid.Nil)
	usds := must[api.Page[api.USDAccount]](t)(op.ListUSDAccounts(ctx(t), api.BeneficiaryFilter{}))
	wallets := must[api.Page[api.Wallet]](t)(op.ListWallets(ctx(t), api.WalletFilter{}))
	if len(usds.Items) == 0 || len(wallets.Items) == 0 {
		t.Fatal("the demo account lacks USD beneficiaries or wallets")
	}
	usd := usds.Items[0].ID
	var polyWallet *api.Wallet
	for i, w := range wallets.Items {
		if w.WalletChain == "POLYGON" {
			polyWallet = &wallets.Items[i]
		}
	}
	if polyWallet == nil {
		t.Fatal("the demo account has no POLYGON wallet")
	}
	const inlineAddr = "0x52908400098527886e0f7030069857d2e4169ee7" // all lower: no checksum
	static, err := brcode.Encode(brcode.Payload{Key: "pagamentos@example.com", MerchantName: "LOJA EXEMPLO", MerchantCity: "SAO PAULO"})
	if err != nil {
		t.Fatal(err)
	}
	quote := func(in, inM, out, outM, amount string) api.QuoteRequest {
		return api.QuoteRequest{InputCurrency: in, InputPaymentMethod: inM, OutputCurrency: out, OutputPaymentMethod: outM, InputAmount: dec(amount)}
	}
	pixIn := quote("BRL", "PIX", "BRLA", "INTERNAL", "150")
	toPolygon := quote("BRLA", "INTERNAL", "USDC", "POLYGON", "100")
	pixOut := quote("BRLA", "INTERNAL", "BRL", "PIX", "100")
	ach := quote("USDC", "INTERNAL", "USD", "ACH", "100")
	wire := quote("USDC", "INTERNAL", "USD", "WIRE", "100")
	nilID := uuid.Nil
	other := polyWallet.ID
	eurID := must[uuid.UUID](t)(op.CreateEURAccount(ctx(t), uuid.Nil, api.CreateEURAccountRequest{Alias: "Lyon", IBAN: "DE89370400440532013000", BIC: "COBADEFF", Country: "DEU", BankBeneficiaryName: "Lyon GmbH"}))
	arsID := must[uuid.UUID](t)(op.CreateARSAccount(ctx(t), uuid.Nil, api.CreateARSAccountRequest{Alias: "BA", CVU: "2850590940090418135201"}))
	sepa := quote("EURC", "INTERNAL", "EUR", "SEPA", "100")
	cvu := quote("USDC", "INTERNAL", "ARS", "CVU", "100")

	cases := []struct {
		name   string
		who    string
		q      api.QuoteRequest
		fill   func(r *api.CreateTicketRequest)
		status int
		code   string
		check  func(t *testing.T, tk *api.Ticket)
	}{
		{"INTERNAL output without a block", "operator", pixIn, func(r *api.CreateTicketRequest) {}, 201, "", nil},
		{"INTERNAL output with the nil id (the live pay-in flow)", "operator", pixIn, func(r *api.CreateTicketRequest) { r.TicketBlockchainOutput = api.ToWallet(nilID) }, 201, "", func(t *testing.T, tk *api.Ticket) {
			if tk.BlockchainReceiverInfo != nil {
				t.Errorf("an INTERNAL output got a blockchain receiver: %+v", tk.BlockchainReceiverInfo)
			}
		}},
		{"INTERNAL output naming a wallet, not an account", "operator", pixIn, func(r *api.CreateTicketRequest) { r.TicketBlockchainOutput = api.ToWallet(other) }, 400, "UNKNOWN_BENEFICIARY", nil},
		{"chain output by registered id", "operator", toPolygon, func(r *api.CreateTicketRequest) { r.TicketBlockchainOutput = api.ToWallet(polyWallet.ID) }, 201, "", func(t *testing.T, tk *api.Ticket) {
			if got := tk.BlockchainReceiverInfo; got == nil || got.WalletAddress != polyWallet.WalletAddress {
				t.Errorf("receiver %+v, want %s", got, polyWallet.WalletAddress)
			}
		}},
		{"chain output inline", "operator", toPolygon, func(r *api.CreateTicketRequest) {
			r.TicketBlockchainOutput = &api.TicketBlockchainOutput{WalletChain: "POLYGON", WalletAddress: inlineAddr, WalletMemo: "desk 4"}
		}, 201, "", func(t *testing.T, tk *api.Ticket) {
			got := tk.BlockchainReceiverInfo
			if got == nil || !strings.EqualFold(got.WalletAddress, inlineAddr) || got.WalletAddress == inlineAddr || got.WalletChain != "POLYGON" || got.WalletMemo != "desk 4" {
				t.Errorf("inline receiver %+v: want the checksummed %s on POLYGON with its memo", got, inlineAddr)
			}
		}},
		{"chain output inline on another chain", "operator", toPolygon, func(r *api.CreateTicketRequest) {
			r.TicketBlockchainOutput = &api.TicketBlockchainOutput{WalletChain: "CELO", WalletAddress: inlineAddr}
		}, 400, "INVALID_FIELD", nil},
		{"chain output inline and by id at once", "operator", toPolygon, func(r *api.CreateTicketRequest) {
			r.TicketBlockchainOutput = &api.TicketBlockchainOutput{BeneficiaryWalletID: &other, WalletChain: "POLYGON", WalletAddress: inlineAddr}
		}, 400, "INVALID_FIELD", nil},
		{"chain output to the nil id (own wallet)", "operator", toPolygon, func(r *api.CreateTicketRequest) { r.TicketBlockchainOutput = api.ToWallet(nilID) }, 201, "", func(t *testing.T, tk *api.Ticket) {
			if tk.BlockchainReceiverInfo == nil || tk.BlockchainReceiverInfo.WalletAddress == "" {
				t.Errorf("own-wallet receiver %+v", tk.BlockchainReceiverInfo)
			}
		}},
		{"PIX output by beneficiary id", "operator", pixOut, func(r *api.CreateTicketRequest) { r.TicketBrlPixOutput = api.PixToBeneficiary(brl.ID, "nf 12") }, 201, "", func(t *testing.T, tk *api.Ticket) {
			if got := tk.BrazilianFiatReceiverInfo; got == nil || got.PixMessage != "nf 12" || (got.PixKey != brl.PixKey) {
				t.Errorf("receiver %+v, want the beneficiary's key %s", got, brl.PixKey)
			}
		}},
		{"PIX output by key", "operator", pixOut, func(r *api.CreateTicketRequest) {
			r.TicketBrlPixOutput = &api.TicketBrlPixOutput{PixKey: "Fornecedor@Example.com", PixMessage: "nf 13"}
		}, 201, "", func(t *testing.T, tk *api.Ticket) {
			if got := tk.BrazilianFiatReceiverInfo; got == nil || got.PixKey != "fornecedor@example.com" || got.PixMessage != "nf 13" {
				t.Errorf("receiver %+v, want the normalised key", got)
			}
		}},
		{"PIX output by a malformed key", "operator", pixOut, func(r *api.CreateTicketRequest) { r.TicketBrlPixOutput = &api.TicketBrlPixOutput{PixKey: "not a key"} }, 400, "INVALID_FIELD", nil},
		{"PIX output by BR Code", "operator", pixOut, func(r *api.CreateTicketRequest) { r.TicketBrlPixOutput = &api.TicketBrlPixOutput{BrCode: static} }, 201, "", func(t *testing.T, tk *api.Ticket) {
			if got := tk.BrazilianFiatReceiverInfo; got == nil || got.BrCode != static || got.PixKey != "pagamentos@example.com" {
				t.Errorf("receiver %+v, want the code and its key", got)
			}
		}},
		{"PIX output by a BR Code with a bad CRC", "operator", pixOut, func(r *api.CreateTicketRequest) {
			r.TicketBrlPixOutput = &api.TicketBrlPixOutput{BrCode: static[:len(static)-4] + "0000"}
		}, 400, "INVALID_FIELD", nil},
		{"PIX output by bank fields", "operator", pixOut, func(r *api.CreateTicketRequest) {
			r.TicketBrlPixOutput = &api.TicketBrlPixOutput{TaxID: "529.982.247-25", UserName: "Maria Silva", BankCode: "341", BranchCode: "0001", AccountNumber: "123456", AccountType: "checking"}
		}, 201, "", func(t *testing.T, tk *api.Ticket) {
			if got := tk.BrazilianFiatReceiverInfo; got == nil || got.TaxID != "52998224725" || got.BankCode != "341" || got.AccountType != "checking" {
				t.Errorf("receiver %+v", got)
			}
		}},
		{"PIX output by bank fields with a bad CPF", "operator", pixOut, func(r *api.CreateTicketRequest) {
			r.TicketBrlPixOutput = &api.TicketBrlPixOutput{TaxID: "529.982.247-26", UserName: "Maria", BankCode: "341", BranchCode: "1", AccountNumber: "1", AccountType: "checking"}
		}, 400, "INVALID_FIELD", nil},
		{"PIX output by id and key at once", "operator", pixOut, func(r *api.CreateTicketRequest) {
			r.TicketBrlPixOutput = &api.TicketBrlPixOutput{BeneficiaryBrlBankAccountID: &brl.ID, PixKey: "a@example.com"}
		}, 400, "INVALID_FIELD", nil},
		{"PIX output empty", "operator", pixOut, func(r *api.CreateTicketRequest) { r.TicketBrlPixOutput = &api.TicketBrlPixOutput{} }, 400, "MISSING_FIELD", nil},
		{"USD ACH with achReference", "operator", ach, func(r *api.CreateTicketRequest) { r.SetUSDOutput("ACH", usd, "PO-77") }, 201, "", func(t *testing.T, tk *api.Ticket) {
			if got := tk.AmericanFiatReceiverInfo; got == nil || got.PaymentRail != "ACH" || got.DepositMessage != "PO-77" {
				t.Errorf("receiver %+v", got)
			}
		}},
		{"USD WIRE with ticketUsdWireOutput", "operator", wire, func(r *api.CreateTicketRequest) { r.SetUSDOutput("WIRE", usd, "wire 9") }, 201, "", func(t *testing.T, tk *api.Ticket) {
			if got := tk.AmericanFiatReceiverInfo; got == nil || got.PaymentRail != "WIRE" || got.DepositMessage != "wire 9" {
				t.Errorf("receiver %+v", got)
			}
		}},
		{"USD WIRE sent as ticketUsdOutput", "operator", wire, func(r *api.CreateTicketRequest) { r.SetUSDOutput("ACH", usd, "") }, 400, "UNEXPECTED_BLOCK", nil},
		{"USD ACH sent as ticketUsdWireOutput", "operator", ach, func(r *api.CreateTicketRequest) { r.SetUSDOutput("WIRE", usd, "") }, 400, "UNEXPECTED_BLOCK", nil},
		{"EUR SEPA with sepaReference", "operator", sepa, func(r *api.CreateTicketRequest) {
			r.TicketEurSepaOutput = &api.TicketEurSepaOutput{BeneficiaryEurBankAccountID: eurID, SepaReference: "INV-5"}
		}, 201, "", func(t *testing.T, tk *api.Ticket) {
			if got := tk.EuropeanFiatReceiverInfo; got == nil || got.IBAN != "DE89370400440532013000" || got.DepositMessage != "INV-5" || got.PaymentRail != "SEPA" {
				t.Errorf("receiver %+v", got)
			}
		}},
		{"EUR SEPA to an unknown beneficiary", "operator", sepa, func(r *api.CreateTicketRequest) {
			r.TicketEurSepaOutput = &api.TicketEurSepaOutput{BeneficiaryEurBankAccountID: arsID}
		}, 400, "UNKNOWN_BENEFICIARY", nil},
		{"ARS CVU", "operator", cvu, func(r *api.CreateTicketRequest) {
			r.TicketArsOutput = &api.TicketArsOutput{BeneficiaryArsBankAccountID: arsID}
		}, 201, "", func(t *testing.T, tk *api.Ticket) {
			if got := tk.ArgentineFiatReceiverInfo; got == nil || got.CVU != "2850590940090418135201" {
				t.Errorf("receiver %+v", got)
			}
		}},
		{"ARS CVU sent as a SEPA block", "operator", cvu, func(r *api.CreateTicketRequest) {
			r.TicketEurSepaOutput = &api.TicketEurSepaOutput{BeneficiaryEurBankAccountID: eurID}
		}, 400, "UNEXPECTED_BLOCK", nil},
		{"restricted access: inline wallet", "restricted", toPolygon, func(r *api.CreateTicketRequest) {
			r.TicketBlockchainOutput = &api.TicketBlockchainOutput{WalletChain: "POLYGON", WalletAddress: inlineAddr}
		}, 403, "FORBIDDEN", nil},
		{"restricted access: PIX key", "restricted", pixOut, func(r *api.CreateTicketRequest) {
			r.TicketBrlPixOutput = &api.TicketBrlPixOutput{PixKey: "a@example.com"}
		}, 403, "FORBIDDEN", nil},
		{"restricted access: BR Code", "restricted", pixOut, func(r *api.CreateTicketRequest) { r.TicketBrlPixOutput = &api.TicketBrlPixOutput{BrCode: static} }, 403, "FORBIDDEN", nil},
		{"restricted access: bank fields", "restricted", pixOut, func(r *api.CreateTicketRequest) {
			r.TicketBrlPixOutput = &api.TicketBrlPixOutput{TaxID: "52998224725", UserName: "M", BankCode: "341", BranchCode: "1", AccountNumber: "1", AccountType: "checking"}
		}, 403, "FORBIDDEN", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := e.as(tc.who)
			q := must[*api.Quote](t)(c.Quote(ctx(t), tc.q))
			req := api.CreateTicketRequest{QuoteToken: q.QuoteToken}
			tc.fill(&req)
			res, err := c.CreateTicket(ctx(t), uuid.Nil, req)
			if tc.status != 201 {
				ae := wantCode(t, err, tc.status, tc.code)
				if tc.status == 403 && !strings.Contains(ae.Message, "enforceAllowedBeneficiaries") {
					t.Errorf("403 does not name the rule: %s", ae.Message)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if res.Ticket == nil || res.Ticket.ID == uuid.Nil {
				t.Fatalf("no ticket: %+v", res)
			}
			if tc.check != nil {
				tc.check(t, res.Ticket)
			}
		})
	}
}

// The creation answer is the superset of §7.1: the flat fields a live
// client reads beside the {ticket} the seed shows, and no top-level
// brlPixInputInfo.
func TestCreationAnswerIsTheSuperset(t *testing.T) {
	e := newEnv(t, sandbox.Config{Seed: 13})
	op := e.as("operator")
	r := e.rawAs(t, "operator")
	for _, tc := range []struct {
		name   string
		q      api.QuoteRequest
		output string
		brCode bool
	}{
		{"PIX input", pixQuote("120"), `,"ticketBlockchainOutput":{"beneficiaryWalletId":"00000000-0000-0000-0000-000000000000"}`, true},
		{"INTERNAL input", api.QuoteRequest{InputCurrency: "BRLA", InputPaymentMethod: "INTERNAL", OutputCurrency: "USDC", OutputPaymentMethod: "INTERNAL", InputAmount: dec("10")}, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := must[*api.Quote](t)(op.Quote(ctx(t), tc.q))
			status, out := r.send(t, http.MethodPost, "/v2/account/tickets/", `{"quoteToken":"`+q.QuoteToken+`"`+tc.output+`}`, time.Time{}, nil)
			if status != http.StatusCreated {
				t.Fatalf("HTTP %d: %s", status, out)
			}
			var got map[string]json.RawMessage
			if err := json.Unmarshal(out, &got); err != nil {
				t.Fatal(err)
			}
			var flat struct {
				ID         uuid.UUID `json:"id"`
				BrCode     string    `json:"brCode"`
				Expiration api.Time  `json:"expiration"`
				Ticket     api.Ticket
			}
			if err := json.Unmarshal(out, &flat); err != nil {
				t.Fatal(err)
			}
			if flat.ID == uuid.Nil || flat.ID != flat.Ticket.ID || !flat.Expiration.Equal(flat.Ticket.ExpiresAt.Time) {
				t.Errorf("flat id/expiration %s %v do not match the ticket %s %v", flat.ID, flat.Expiration, flat.Ticket.ID, flat.Ticket.ExpiresAt)
			}
			if tc.brCode != (flat.BrCode != "") || (tc.brCode && flat.BrCode != flat.Ticket.BrCode()) {
				t.Errorf("brCode %q with a PIX input %v (ticket's %q)", flat.BrCode, tc.brCode, flat.Ticket.BrCode())
			}
			if _, ok := got["brlPixInputInfo"]; ok {
				t.Error("brlPixInputInfo at the top level")
			}
		})
	}
}
