package api

import (
	"context"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
)

// endpointCase is one endpoint: how to call it, what must go on the wire,
// what the service answers, and what the caller must get back.
type endpointCase struct {
	name   string
	call   func(ctx context.Context, c *Client) (any, error)
	method string
	path   string
	query  string // exact raw query
	body   string // exact body; "" for none
	public bool   // no credentials may be sent
	accept string // expected Accept header; "" means application/json
	status int
	resp   string
	check  func(t *testing.T, got any)
}

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func nd(s string) decimal.NullDecimal { return decimal.NewNullDecimal(dec(s)) }

func eqDec(t *testing.T, what string, got decimal.Decimal, want string) {
	t.Helper()
	if !got.Equal(dec(want)) {
		t.Errorf("%s = %s, want %s", what, got, want)
	}
}

func endpointCases() []endpointCase {
	sub := uuid.MustParse(subID)
	tid := uuid.MustParse(ticketID)
	oid := uuid.MustParse(opID)
	bid := uuid.MustParse(benID)
	after := time.Date(2026, 11, 1, 12, 30, 0, 500_000_000, time.FixedZone("BRT", -3*3600))
	before := time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)
	opJSON := `{"id":"` + opID + `","requesterEmail":"req@example.com","operationType":"CREATE_TICKET","payload":{"quoteToken":"q"},"status":"PENDING","approvals":1,"minApprovals":2,"createdAt":"2026-11-20T10:00:00.5Z","subAccountId":"","subAccountName":"","executedId":"","approvers":[{"accessId":"` + benID + `","email":"a1@example.com","hasApproved":true}],"decodedQuote":{"inputAmount":"10.00"},"beneficiary":null}`
	checkTicket := func(t *testing.T, got any) {
		t.Helper()
		tk, ok := got.(*Ticket)
		if !ok || tk == nil {
			t.Fatalf("got %T, want *Ticket", got)
		}
		if tk.ID != tid || tk.Status != "ON-HOLD" || tk.ExternalID != "ext-1" {
			t.Errorf("ticket id/status/externalId = %s/%s/%s", tk.ID, tk.Status, tk.ExternalID)
		}
		eqDec(t, "inputAmount", tk.Quote.InputAmount, "1000.00")
		eqDec(t, "outputAmount", tk.Quote.OutputAmount, "181.234567")
		eqDec(t, "fee", tk.Quote.AppliedFees[0].Amount, "1.50")
		if !tk.Quote.MarkupAmount.IsZero() {
			t.Errorf("empty markupAmount decoded as %s", tk.Quote.MarkupAmount)
		}
		if tk.CreatedAt.Nanosecond() != 123456000 || tk.ExpiresAt.Nanosecond() != 123456789 {
			t.Errorf("fractional seconds lost: %v %v", tk.CreatedAt, tk.ExpiresAt)
		}
		if tk.BrCode() != "00020101BR" {
			t.Errorf("brCode = %q", tk.BrCode())
		}
	}
	checkID := func(t *testing.T, got any) {
		t.Helper()
		if got != bid {
			t.Errorf("id = %v, want %s", got, benID)
		}
	}
	checkNil := func(t *testing.T, got any) {}
	checkOp := func(t *testing.T, got any) {
		t.Helper()
		op := got.(*Operation)
		if op.ID != oid || op.Status != OperationPending || op.Approvals != 1 || op.MinApprovals != 2 || len(op.Approvers) != 1 || !op.Approvers[0].HasApproved {
			t.Errorf("operation = %+v", op)
		}
	}
	ticketBody := CreateTicketRequest{
		QuoteToken: "qt-1", ExternalID: "ext-1",
		TicketBrlPixInput:      &TicketBrlPixInput{AdditionalData: "invoice 7"},
		TicketBlockchainOutput: ToWallet(bid),
	}
	ticketBodyJSON := `{"quoteToken":"qt-1","externalId":"ext-1","ticketBrlPixInput":{"additionalData":"invoice 7"},"ticketBlockchainOutput":{"beneficiaryWalletId":"` + benID + `"}}`

	return append([]endpointCase{
		{
			name: "Quote",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Quote(ctx, QuoteRequest{SubAccountID: sub, InputCurrency: "BRL", InputPaymentMethod: "PIX", InputAmount: nd("1000.50"),
					OutputCurrency: "USDC", OutputPaymentMethod: "POLYGON", OutputThirdParty: true, MarkupFloatingFee: nd("0.01"), MarkupCurrency: "BRL"})
			},
			method: "GET", path: "/v2/account/quote/fixed-rate",
			query:  "inputAmount=1000.5&inputCurrency=BRL&inputPaymentMethod=PIX&inputThirdParty=false&markupCurrency=BRL&markupFloatingFee=0.01&outputCurrency=USDC&outputPaymentMethod=POLYGON&outputThirdParty=true&subAccountId=" + subID,
			status: 200,
			resp:   `{"quoteToken":"qt-1","inputCurrency":"BRL","inputPaymentMethod":"PIX","inputAmount":"1000.50","outputCurrency":"USDC","outputPaymentMethod":"POLYGON","outputAmount":"180.123456","markupAmount":"10.00","markupCurrency":"BRL","inputThirdParty":false,"outputThirdParty":true,"appliedFees":[{"type":"Conversion Fee","amount":"0.333333","currency":"USDC"}],"basePrice":"0.1801","pairName":"BRLUSDC"}`,
			check: func(t *testing.T, got any) {
				q := got.(*Quote)
				if q.QuoteToken != "qt-1" || !q.OutputThirdParty {
					t.Errorf("quote = %+v", q)
				}
				eqDec(t, "outputAmount", q.OutputAmount, "180.123456")
				eqDec(t, "markupAmount", q.MarkupAmount.Decimal, "10.00")
				eqDec(t, "fee", q.AppliedFees[0].Amount, "0.333333")
				if q.AppliedFees[0].Rebatable != nil {
					t.Error("quote fee has a rebatable flag")
				}
			},
		},
		{
			name: "Quote by output amount with send method and fixed markups",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Quote(ctx, QuoteRequest{InputCurrency: "USDC", InputPaymentMethod: "POLYGON", OutputAmount: nd("250"),
					OutputCurrency: "BRL", OutputPaymentMethod: "PIX", BlockchainSendMethod: SendPermit, MarkupInputFixedFee: nd("1.5"), MarkupOutputFixedFee: nd("2"), MarkupCurrency: "USDC"})
			},
			method: "GET", path: "/v2/account/quote/fixed-rate",
			query:  "blockchainSendMethod=PERMIT&inputCurrency=USDC&inputPaymentMethod=POLYGON&inputThirdParty=false&markupCurrency=USDC&markupInputFixedFee=1.5&markupOutputFixedFee=2&outputAmount=250&outputCurrency=BRL&outputPaymentMethod=PIX&outputThirdParty=false",
			status: 200,
			resp:   `{"quoteToken":"qt-2","inputAmount":"46.1","outputAmount":"250.00","markupAmount":"3.5","blockchainSendMethod":"PERMIT","basePrice":"5.5","appliedFees":[]}`,
			check: func(t *testing.T, got any) {
				q := got.(*Quote)
				eqDec(t, "inputAmount", q.InputAmount, "46.1")
				if q.BlockchainSendMethod != SendPermit {
					t.Errorf("send method %q", q.BlockchainSendMethod)
				}
			},
		},
		{
			name: "ListTickets with every filter",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.ListTickets(ctx, TicketFilter{SubAccountID: sub, CreatedAfter: after, CreatedBefore: before, Cursor: "c1", Status: "PAID",
					InputCurrency: "BRL", InputPaymentMethod: "PIX", OutputCurrency: "USDC", OutputPaymentMethod: "POLYGON", EndToEndID: "E2E 1/2", ExternalID: "ext&1"})
			},
			method: "GET", path: "/v2/account/tickets/",
			query:  "createdAfter=2026-11-01T15%3A30%3A00.5Z&createdBefore=2026-11-20T00%3A00%3A00Z&cursor=c1&endToEndId=E2E+1%2F2&externalId=ext%261&inputCurrency=BRL&inputPaymentMethod=PIX&outputCurrency=USDC&outputPaymentMethod=POLYGON&status=PAID&subAccountId=" + subID,
			status: 200,
			resp:   `{"tickets":[` + ticketJSON + `],"cursor":"c2"}`,
			check: func(t *testing.T, got any) {
				p := got.(Page[Ticket])
				if len(p.Items) != 1 || p.Cursor != "c2" || !p.More() {
					t.Fatalf("page = %d items, cursor %q", len(p.Items), p.Cursor)
				}
				it := p.Items[0]
				checkTicket(t, &it)
			},
		},
		{
			name:   "ListTickets last page",
			call:   func(ctx context.Context, c *Client) (any, error) { return c.ListTickets(ctx, TicketFilter{}) },
			method: "GET", path: "/v2/account/tickets/", status: 200, resp: `{"tickets":null}`,
			check: func(t *testing.T, got any) {
				p := got.(Page[Ticket])
				if p.Items == nil || len(p.Items) != 0 || p.More() {
					t.Errorf("page = %+v", p)
				}
			},
		},
		{
			name:   "GetTicket",
			call:   func(ctx context.Context, c *Client) (any, error) { return c.GetTicket(ctx, sub, tid) },
			method: "GET", path: "/v2/account/tickets/" + ticketID, query: "subAccountId=" + subID,
			status: 200, resp: `{"ticket":` + ticketJSON + `}`, check: checkTicket,
		},
		{
			name: "CreateTicket created",
			call: func(ctx context.Context, c *Client) (any, error) {
				r, err := c.CreateTicket(ctx, sub, ticketBody)
				if err != nil {
					return nil, err
				}
				if r.Parked || r.Reconciled || r.Operation != nil {
					return nil, fmt.Errorf("result flags %+v", r)
				}
				return r.Ticket, nil
			},
			method: "POST", path: "/v2/account/tickets/", query: "subAccountId=" + subID, body: ticketBodyJSON,
			status: 201, resp: `{"ticket":` + ticketJSON + `}`, check: checkTicket,
		},
		{
			name: "Quote of a move between accounts (same token, INTERNAL to INTERNAL)",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Quote(ctx, QuoteRequest{InputCurrency: "USDT", InputPaymentMethod: "INTERNAL", InputAmount: nd("100"), OutputCurrency: "USDT", OutputPaymentMethod: "INTERNAL"})
			},
			method: "GET", path: "/v2/account/quote/fixed-rate",
			query:  "blockchainSendMethod=PERMIT&inputAmount=100&inputCurrency=USDT&inputPaymentMethod=INTERNAL&inputThirdParty=false&outputCurrency=USDT&outputPaymentMethod=INTERNAL&outputThirdParty=false",
			status: 200,
			resp:   `{"quoteToken":"qt-m","inputCurrency":"USDT","inputPaymentMethod":"INTERNAL","inputAmount":"100","outputCurrency":"USDT","outputPaymentMethod":"INTERNAL","outputAmount":"100","appliedFees":[],"basePrice":"1","pairName":"USDTUSDT"}`,
			check: func(t *testing.T, got any) {
				if q := got.(*Quote); q.PairName != "USDTUSDT" || !q.BasePrice.Equal(dec("1")) {
					t.Errorf("move quote = %+v", q)
				}
			},
		},
		{
			name: "CreateTicket moving funds to a sub-account",
			call: func(ctx context.Context, c *Client) (any, error) {
				r, err := c.CreateTicket(ctx, uuid.Nil, CreateTicketRequest{QuoteToken: "qt-m", ExternalID: "move-1", TicketBlockchainOutput: &TicketBlockchainOutput{BeneficiaryWalletID: &sub}})
				if err != nil {
					return nil, err
				}
				return r.Ticket, nil
			},
			method: "POST", path: "/v2/account/tickets/", body: `{"quoteToken":"qt-m","externalId":"move-1","ticketBlockchainOutput":{"beneficiaryWalletId":"` + subID + `"}}`,
			status: 201, resp: `{"ticket":` + ticketJSON + `}`, check: checkTicket,
		},
		{
			name: "CreateTicket parked",
			call: func(ctx context.Context, c *Client) (any, error) {
				r, err := c.CreateTicket(ctx, uuid.Nil, ticketBody)
				if err != nil {
					return nil, err
				}
				if !r.Parked || r.Ticket != nil {
					return nil, fmt.Errorf("result flags %+v", r)
				}
				return r.Operation, nil
			},
			method: "POST", path: "/v2/account/tickets/", body: ticketBodyJSON,
			status: 202, resp: `{"operation":` + opJSON + `}`, check: checkOp,
		},
		{
			name:   "TicketReceipt",
			call:   func(ctx context.Context, c *Client) (any, error) { return c.TicketReceipt(ctx, sub, tid) },
			method: "GET", path: "/v2/account/tickets/" + ticketID + "/receipt", query: "subAccountId=" + subID, accept: "application/pdf",
			status: 200, resp: "%PDF-1.4\n%\xe2\xe3\xcf\xd3\nreceipt",
			check: func(t *testing.T, got any) {
				if !strings.HasPrefix(string(got.([]byte)), "%PDF-1.4") {
					t.Errorf("receipt = %q", got)
				}
			},
		},
		{
			name: "CreatePaymentSessionTicket",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.CreatePaymentSessionTicket(ctx, "ps/1 x", ticketBody)
			},
			method: "POST", path: "/v2/payment-session/ps/1 x/create-ticket", body: ticketBodyJSON, public: true,
			status: 200, resp: `{"ticket":` + ticketJSON + `}`, check: checkTicket,
		},
		{
			name:   "SandboxFundTicket",
			call:   func(ctx context.Context, c *Client) (any, error) { return c.SandboxFundTicket(ctx, sub, tid) },
			method: "POST", path: "/v2/sandbox/tickets/" + ticketID + "/fund", query: "subAccountId=" + subID,
			status: 200, resp: `{"ticket":` + ticketJSON + `}`, check: checkTicket,
		},
		{
			name:   "SandboxReleaseTicket",
			call:   func(ctx context.Context, c *Client) (any, error) { return c.SandboxReleaseTicket(ctx, sub, tid) },
			method: "POST", path: "/v2/sandbox/tickets/" + ticketID + "/release", query: "subAccountId=" + subID,
			status: 200, resp: `{"ticket":` + ticketJSON + `}`, check: checkTicket,
		},
		{
			name:   "CancelTicket",
			call:   func(ctx context.Context, c *Client) (any, error) { return c.CancelTicket(ctx, sub, tid) },
			method: "PATCH", path: "/v2/account/tickets/" + ticketID + "/cancel", query: "subAccountId=" + subID,
			status: 200, resp: `{"ticket":` + ticketJSON + `}`, check: checkTicket,
		},
		{
			name: "CreateTicket answered with the superset {id, brCode, expiration, ticket}",
			call: func(ctx context.Context, c *Client) (any, error) {
				r, err := c.CreateTicket(ctx, sub, ticketBody)
				if err != nil {
					return nil, err
				}
				return r.Ticket, nil
			},
			method: "POST", path: "/v2/account/tickets/", query: "subAccountId=" + subID, body: ticketBodyJSON,
			status: 201, resp: `{"id":"` + ticketID + `","brCode":"00020101BR","expiration":"2026-11-20T10:05:00Z","ticket":` + ticketJSON + `}`, check: checkTicket,
		},
		{
			name:   "AccountDetails",
			call:   func(ctx context.Context, c *Client) (any, error) { return c.AccountDetails(ctx, sub) },
			method: "GET", path: "/v2/account/account-info", query: "subAccountId=" + subID,
			status: 200, resp: `{"id":"` + subID + `","accountInfo":{"id":"` + subID + `","accountType":"INDIVIDUAL","name":"Ana","identityStatus":"CONFIRMED","taxId":"52998224725"},"wallets":[{"id":"w1","walletAddress":"0xabc","chain":"EVM"}],"pixKey":"k","brCode":"000201","createdAt":"2026-01-01T00:00:00Z"}`,
			check: func(t *testing.T, got any) {
				d := got.(*AccountDetails)
				if d.AccountInfo.IdentityStatus != IdentityConfirmed || len(d.Wallets) != 1 || d.Wallets[0].Chain != "EVM" || d.BrCode != "000201" {
					t.Errorf("details = %+v", d)
				}
			},
		},
		{
			name:   "Metadata",
			call:   func(ctx context.Context, c *Client) (any, error) { return c.Metadata(ctx, sub) },
			method: "GET", path: "/v2/account/metadata", query: "subAccountId=" + subID,
			status: 200, resp: `{"brlUnlocked":true,"usdUnlocked":false,"eurUnlocked":true,"arsUnlocked":true,"copUnlocked":true}`,
			check: func(t *testing.T, got any) {
				m := got.(*AccountMetadata)
				if !m.Unlocked("BRL") || m.Unlocked("USD") || !m.Unlocked("EUR") || !m.Unlocked("ARS") || !m.Unlocked("COP") || !m.Unlocked("USDC") {
					t.Errorf("metadata = %+v", m)
				}
			},
		},
		{
			name: "Quote of a token input sends PERMIT when no send method is named (service.md §8.4)",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Quote(ctx, QuoteRequest{InputCurrency: "USDT", InputPaymentMethod: "INTERNAL", InputAmount: nd("10"), OutputCurrency: "USDC", OutputPaymentMethod: "INTERNAL"})
			},
			method: "GET", path: "/v2/account/quote/fixed-rate",
			query:  "blockchainSendMethod=PERMIT&inputAmount=10&inputCurrency=USDT&inputPaymentMethod=INTERNAL&inputThirdParty=false&outputCurrency=USDC&outputPaymentMethod=INTERNAL&outputThirdParty=false",
			status: 200,
			resp:   `{"quoteToken":"qt-2","inputCurrency":"USDT","inputPaymentMethod":"INTERNAL","inputAmount":"10","outputCurrency":"USDC","outputPaymentMethod":"INTERNAL","outputAmount":"9.99","markupAmount":"0","markupCurrency":"","inputThirdParty":false,"outputThirdParty":false,"appliedFees":[],"basePrice":"1","pairName":"USDTUSDC","blockchainSendMethod":"PERMIT"}`,
			check: func(t *testing.T, got any) {
				if q := got.(*Quote); q.BlockchainSendMethod != SendPermit {
					t.Errorf("quote = %+v", q)
				}
			},
		},
		{
			name:   "GetSubAccount",
			call:   func(ctx context.Context, c *Client) (any, error) { return c.GetSubAccount(ctx, sub) },
			method: "GET", path: "/v2/account/sub-accounts/" + subID,
			status: 200, resp: `{"subAccountId":"` + subID + `","mainAccountId":"` + benID + `","createdAt":"2026-01-01T00:00:00Z","accountInfo":{"id":"` + subID + `","accountType":"COMPANY","name":"Sub","identityStatus":"NOT-IDENTIFIED"}}`,
			check: func(t *testing.T, got any) {
				if a := got.(*SubAccount); a.SubAccountID != sub || a.AccountInfo.IdentityStatus != IdentityNotIdentified {
					t.Errorf("sub-account = %+v", a)
				}
			},
		},
		{
			name: "StaticBrCode",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.StaticBrCode(ctx, sub, "15.00", "ref42", "")
			},
			method: "GET", path: "/v2/account/bank-accounts/brl/static-br-code", query: "amount=15.00&referenceLabel=ref42&subAccountId=" + subID,
			status: 200, resp: `{"brCode":"000201x"}`,
			check: func(t *testing.T, got any) {
				if got != "000201x" {
					t.Errorf("brCode = %v", got)
				}
			},
		},
		{
			name: "CreateEURAccount",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.CreateEURAccount(ctx, sub, CreateEURAccountRequest{Alias: "Lyon", IBAN: "DE89370400440532013000", BIC: "COBADEFF", Country: "DEU", BankBeneficiaryName: "Lyon GmbH", IsBusiness: true})
			},
			method: "POST", path: "/v2/account/beneficiaries/bank-accounts/eur/", query: "subAccountId=" + subID,
			body:   `{"alias":"Lyon","iban":"DE89370400440532013000","bic":"COBADEFF","country":"DEU","bankBeneficiaryName":"Lyon GmbH","isBusiness":true}`,
			status: 200, resp: `{"id":"` + benID + `"}`, check: checkID,
		},
		{
			name: "ListEURAccounts",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.ListEURAccounts(ctx, BeneficiaryFilter{Cursor: "c"})
			},
			method: "GET", path: "/v2/account/beneficiaries/bank-accounts/eur/", query: "cursor=c",
			status: 200, resp: `{"beneficiaryEurBankAccount":[{"id":"` + benID + `","alias":"Lyon","iban":"DE89370400440532013000","country":"DEU"}],"cursor":""}`,
			check: func(t *testing.T, got any) {
				if p := got.(Page[EURAccount]); len(p.Items) != 1 || p.Items[0].IBAN != "DE89370400440532013000" {
					t.Errorf("page = %+v", p)
				}
			},
		},
		{
			name: "CreateARSAccount",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.CreateARSAccount(ctx, uuid.Nil, CreateARSAccountRequest{Alias: "BA", CVU: "0000003100010000000009"})
			},
			method: "POST", path: "/v2/account/beneficiaries/bank-accounts/ars/", body: `{"alias":"BA","cvu":"0000003100010000000009"}`,
			status: 200, resp: `{"id":"` + benID + `"}`, check: checkID,
		},
		{
			name:   "ListARSAccounts",
			call:   func(ctx context.Context, c *Client) (any, error) { return c.ListARSAccounts(ctx, BeneficiaryFilter{}) },
			method: "GET", path: "/v2/account/beneficiaries/bank-accounts/ars/",
			status: 200, resp: `{"beneficiaryArsBankAccount":[{"id":"` + benID + `","alias":"BA","cvu":"0000003100010000000009"}],"cursor":""}`,
			check: func(t *testing.T, got any) {
				if p := got.(Page[ARSAccount]); len(p.Items) != 1 || p.Items[0].CVU != "0000003100010000000009" {
					t.Errorf("page = %+v", p)
				}
			},
		},
		{
			name: "ListWebhookEvents",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.ListWebhookEvents(ctx, WebhookEventFilter{CreatedAfter: before, Subscription: "TICKET", DataID: ticketID})
			},
			method: "GET", path: "/v2/notifications/webhooks/events", query: "createdAfter=" + fmt.Sprint(before.Unix()) + "&dataId=" + ticketID + "&subscription=TICKET",
			status: 200, resp: `{"events":[{"id":"e1","subscription":"TICKET","subAccountId":"","data":{"status":"TICKET-CREATED","ticketId":"` + ticketID + `"},"createdAt":"2026-11-20T00:00:00Z"}],"cursor":""}`,
			check: func(t *testing.T, got any) {
				if p := got.(Page[WebhookEvent]); len(p.Items) != 1 || p.Items[0].Data["status"] != "TICKET-CREATED" {
					t.Errorf("page = %+v", p)
				}
			},
		},
		{
			name:   "GetWebhook",
			call:   func(ctx context.Context, c *Client) (any, error) { return c.GetWebhook(ctx, benID) },
			method: "GET", path: "/v2/notifications/webhooks/" + benID,
			status: 200, resp: `{"webhook":{"id":"` + benID + `","url":"https://x.example/h","subscriptions":["TICKET"]}}`,
			check: func(t *testing.T, got any) {
				if w := got.(*Webhook); w.URL != "https://x.example/h" {
					t.Errorf("webhook = %+v", w)
				}
			},
		},
		{
			name: "UpdateWebhook",
			call: func(ctx context.Context, c *Client) (any, error) {
				return nil, c.UpdateWebhook(ctx, UpdateWebhookRequest{WebhookID: benID, WebhookURL: "https://y.example/h", Subscriptions: []string{"*"}})
			},
			method: "PATCH", path: "/v2/notifications/webhooks", body: `{"webhookId":"` + benID + `","webhookUrl":"https://y.example/h","subscriptions":["*"]}`,
			status: 200, resp: `{"webhook":{}}`, check: checkNil,
		},
		{
			name: "CreateDocument",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.CreateDocument(ctx, sub, CreateDocumentRequest{DocumentType: "ID", IsDoubleSided: true})
			},
			method: "POST", path: "/v2/documents/", query: "subAccountId=" + subID, body: `{"documentType":"ID","isDoubleSided":true}`,
			status: 201, resp: `{"id":"d1","uploadURLFront":"https://u/f","uploadURLBack":"https://u/b"}`,
			check: func(t *testing.T, got any) {
				if d := got.(*DocumentUpload); d.ID != "d1" || d.UploadURLBack == "" {
					t.Errorf("upload = %+v", d)
				}
			},
		},
		{
			name:   "ListKYCAttempts",
			call:   func(ctx context.Context, c *Client) (any, error) { return c.ListKYCAttempts(ctx, sub, "") },
			method: "GET", path: "/v2/kyc/attempts", query: "subAccountId=" + subID,
			status: 200, resp: `{"attempts":[{"id":"` + benID + `","levelName":"level-1","status":"COMPLETED","result":"APPROVED","createdAt":"2026-01-01T00:00:00Z","updatedAt":"2026-01-01T00:00:00Z"}],"cursor":null}`,
			check: func(t *testing.T, got any) {
				if p := got.(Page[KYCAttempt]); len(p.Items) != 1 || p.Items[0].Result != "APPROVED" || p.More() {
					t.Errorf("page = %+v", p)
				}
			},
		},
		{
			name: "GetKYCAttempt",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.GetKYCAttempt(ctx, sub, uuid.MustParse(benID))
			},
			method: "GET", path: "/v2/kyc/attempts/" + benID, query: "subAccountId=" + subID,
			status: 200, resp: `{"attempt":{"id":"` + benID + `","levelName":"level-1","status":"PENDING","result":""}}`,
			check: func(t *testing.T, got any) {
				if a := got.(*KYCAttempt); a.Status != "PENDING" {
					t.Errorf("attempt = %+v", a)
				}
			},
		},
		{
			name: "CreatePaymentSession",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.CreatePaymentSession(ctx, sub, CreatePaymentSessionRequest{ExternalID: "o-1", PaymentOptions: []PaymentOption{{InputCurrency: "BRL", InputPaymentMethod: "PIX", OutputCurrency: "BRLA", OutputPaymentMethod: "INTERNAL"}}, OutputCurrency: "BRLA", ExpirationInMinutes: 30})
			},
			method: "POST", path: "/v2/account/payment-session", query: "subAccountId=" + subID,
			body:   `{"externalId":"o-1","paymentOptions":[{"inputCurrency":"BRL","inputPaymentMethod":"PIX","outputCurrency":"BRLA","outputPaymentMethod":"INTERNAL"}],"outputCurrency":"BRLA","expirationInMinutes":30}`,
			status: 200, resp: `{"id":"ps-1"}`,
			check: func(t *testing.T, got any) {
				if got != "ps-1" {
					t.Errorf("id = %v", got)
				}
			},
		},
		{
			name:   "GetPaymentSession",
			call:   func(ctx context.Context, c *Client) (any, error) { return c.GetPaymentSession(ctx, "ps-1") },
			method: "GET", path: "/v2/payment-session/ps-1", public: true,
			status: 200, resp: `{"paymentSession":{"id":"` + benID + `","status":"OPEN","paymentOptions":[{"inputCurrency":"USDC","inputPaymentMethod":"POLYGON","outputCurrency":"BRLA","outputPaymentMethod":"INTERNAL"},"PIX"],"outputCurrency":"BRLA"}}`,
			check: func(t *testing.T, got any) {
				// Objects (§8.8), and the older bare names read leniently.
				want := []PaymentOption{{InputCurrency: "USDC", InputPaymentMethod: "POLYGON", OutputCurrency: "BRLA", OutputPaymentMethod: "INTERNAL"}, {InputCurrency: "BRL", InputPaymentMethod: "PIX"}}
				if ps := got.(*PaymentSession); ps.Status != "OPEN" || ps.OutputCurrency != "BRLA" || !reflect.DeepEqual(ps.PaymentOptions, want) {
					t.Errorf("session = %+v", ps)
				}
			},
		},
		{
			name: "PaymentSessionQuote",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.PaymentSessionQuote(ctx, "ps-1", "BRL", "PIX", dec("250"))
			},
			method: "GET", path: "/v2/payment-session/ps-1/fixed-quote", public: true,
			query:  "inputAmount=250&inputCurrency=BRL&inputPaymentMethod=PIX&inputThirdParty=true&outputThirdParty=false",
			status: 200, resp: `{"quoteToken":"qt","inputAmount":"250","outputAmount":"249.5","appliedFees":[]}`,
			check: func(t *testing.T, got any) {
				if q := got.(*Quote); q.QuoteToken != "qt" {
					t.Errorf("quote = %+v", q)
				}
			},
		},
		{
			name:   "GetPaymentSessionTicket",
			call:   func(ctx context.Context, c *Client) (any, error) { return c.GetPaymentSessionTicket(ctx, "ps-1") },
			method: "GET", path: "/v2/payment-session/ps-1/get-ticket", public: true,
			status: 200, resp: `{"ticket":` + ticketJSON + `}`, check: checkTicket,
		},
		{
			name:   "GetW8BEN",
			call:   func(ctx context.Context, c *Client) (any, error) { return c.GetW8BEN(ctx, sub, uuid.MustParse(benID)) },
			method: "GET", path: "/v2/kyc/w8ben/" + benID, query: "subAccountId=" + subID,
			status: 200, resp: `{"w8ben":{"id":"` + benID + `","w8BenUrl":"https://x/f","createdAt":"2026-01-01T00:00:00Z"}}`,
			check: func(t *testing.T, got any) {
				if w := got.(*W8BEN); w.W8BenURL != "https://x/f" {
					t.Errorf("w8ben = %+v", w)
				}
			},
		},
		{
			name: "Statement",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Statement(ctx, StatementFilter{SubAccountID: sub, CreatedAfter: before, Cursor: "9"})
			},
			method: "GET", path: "/v2/account/statement", query: "createdAfter=" + fmt.Sprint(before.Unix()) + "&cursor=9&subAccountId=" + subID,
			status: 200, resp: `{"logs":[{"id":"8","token":"BRLA","balanceChange":"-10.50","finalBalance":"89.50","description":"[DEBIT] x","createdAt":"2026-11-20T00:00:00Z"}],"cursor":"8"}`,
			check: func(t *testing.T, got any) {
				p := got.(Page[StatementLog])
				if len(p.Items) != 1 || !p.More() {
					t.Fatalf("page = %+v", p)
				}
				eqDec(t, "balanceChange", p.Items[0].BalanceChange, "-10.50")
				eqDec(t, "finalBalance", p.Items[0].FinalBalance, "89.50")
			},
		},
		{
			name: "GetEURAccount",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.GetEURAccount(ctx, sub, uuid.MustParse(benID))
			},
			method: "GET", path: "/v2/account/beneficiaries/bank-accounts/eur/" + benID, query: "subAccountId=" + subID,
			status: 200, resp: `{"beneficiaryEurBankAccount":{"id":"` + benID + `","iban":"DE89370400440532013000","bic":"COBADEFF"}}`,
			check: func(t *testing.T, got any) {
				if a := got.(*EURAccount); a.BIC != "COBADEFF" {
					t.Errorf("account = %+v", a)
				}
			},
		},
		{
			name: "GetARSAccount",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.GetARSAccount(ctx, uuid.Nil, uuid.MustParse(benID))
			},
			method: "GET", path: "/v2/account/beneficiaries/bank-accounts/ars/" + benID,
			status: 200, resp: `{"beneficiaryArsBankAccount":{"id":"` + benID + `","cvu":"2850590940090418135201"}}`,
			check: func(t *testing.T, got any) {
				if a := got.(*ARSAccount); a.CVU != "2850590940090418135201" {
					t.Errorf("account = %+v", a)
				}
			},
		},
		{
			name:   "GetWebhookEvent",
			call:   func(ctx context.Context, c *Client) (any, error) { return c.GetWebhookEvent(ctx, "ev 1") },
			method: "GET", path: "/v2/notifications/webhooks/events/ev 1",
			status: 200, resp: `{"event":{"id":"ev 1","subscription":"KYC","data":{"status":"KYC-COMPLETED"}}}`,
			check: func(t *testing.T, got any) {
				if ev := got.(*WebhookEvent); ev.Subscription != "KYC" {
					t.Errorf("event = %+v", ev)
				}
			},
		},
		{
			name:   "ListDocuments",
			call:   func(ctx context.Context, c *Client) (any, error) { return c.ListDocuments(ctx, sub, "ID", "") },
			method: "GET", path: "/v2/documents/", query: "documentType=ID&subAccountId=" + subID,
			status: 200, resp: `{"documents":[{"id":"` + benID + `","documentType":"ID","ready":true,"uploadStatusFront":"UPLOADED"}],"cursor":""}`,
			check: func(t *testing.T, got any) {
				if p := got.(Page[Document]); len(p.Items) != 1 || !p.Items[0].Ready {
					t.Errorf("page = %+v", p)
				}
			},
		},
		{
			name: "GetDocument",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.GetDocument(ctx, sub, uuid.MustParse(benID))
			},
			method: "GET", path: "/v2/documents/" + benID, query: "subAccountId=" + subID,
			status: 200, resp: `{"document":{"id":"` + benID + `","documentType":"PASSPORT","ready":false,"uploadStatusFront":"PENDING"}}`,
			check: func(t *testing.T, got any) {
				if d := got.(*Document); d.DocumentType != "PASSPORT" || d.Ready {
					t.Errorf("document = %+v", d)
				}
			},
		},
		{
			name:   "ListApproverOperations",
			call:   func(ctx context.Context, c *Client) (any, error) { return c.ListApproverOperations(ctx, "cur 1") },
			method: "GET", path: "/v2/account/multi-sig-operations/approver", query: "cursor=cur+1",
			status: 200, resp: `{"operations":[` + opJSON + `],"cursor":""}`,
			check: func(t *testing.T, got any) {
				p := got.(Page[Operation])
				if len(p.Items) != 1 || p.More() {
					t.Fatalf("page = %+v", p)
				}
				checkOp(t, &p.Items[0])
			},
		},
		{
			name:   "GetOperation",
			call:   func(ctx context.Context, c *Client) (any, error) { return c.GetOperation(ctx, oid) },
			method: "GET", path: "/v2/account/multi-sig-operations/" + opID,
			status: 200, resp: opJSON, check: checkOp,
		},
		{
			name:   "GetOperation in an envelope",
			call:   func(ctx context.Context, c *Client) (any, error) { return c.GetOperation(ctx, oid) },
			method: "GET", path: "/v2/account/multi-sig-operations/" + opID,
			status: 200, resp: `{"operation":` + opJSON + `}`, check: checkOp,
		},
		{
			name:   "ApproveOperation",
			call:   func(ctx context.Context, c *Client) (any, error) { return c.ApproveOperation(ctx, oid) },
			method: "POST", path: "/v2/account/multi-sig-operations/" + opID + "/approve",
			status: 200, resp: `{"operation":` + opJSON + `}`, check: checkOp,
		},
		{
			name: "RejectOperation",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.RejectOperation(ctx, oid, "wrong beneficiary")
			},
			method: "POST", path: "/v2/account/multi-sig-operations/" + opID + "/reject", body: `{"reason":"wrong beneficiary"}`,
			status: 200, resp: `{"operation":` + opJSON + `}`, check: checkOp,
		},
		{
			name: "ListAccesses",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.ListAccesses(ctx, AccessFilter{CreatedAfter: after, CreatedBefore: before})
			},
			method: "GET", path: "/v2/auth/accesses", query: "createdAfter=1793547000&createdBefore=1795132800",
			status: 200, resp: `{"accesses":[{"id":"a1","email":"op@example.com","createdAt":"2026-01-01T00:00:00Z","frozenUntil":"","accessPermission":{"payOut":true,"markup":true},"mfa":{"id":"m1"}}]}`,
			check: func(t *testing.T, got any) {
				a := got.([]Access)
				if len(a) != 1 || a[0].Email != "op@example.com" || !a[0].AccessPermission.PayOut || a[0].MFA == nil {
					t.Errorf("accesses = %+v", a)
				}
			},
		},
		{
			name:   "AccessInfo",
			call:   func(ctx context.Context, c *Client) (any, error) { return c.AccessInfo(ctx) },
			method: "GET", path: "/v2/account/access-info",
			status: 200, resp: `{"email":"op@example.com","mfaActivated":true,"pricingSet":true,"passwordUpdatedAt":"2026-01-01T00:00:00.25Z","frozenUntil":"","accountPermissions":{"payIn":true,"operationApprover":true},"blacklistedAccountIds":["` + subID + `"],"isMainAccountBlacklisted":false}`,
			check: func(t *testing.T, got any) {
				a := got.(*AccessInfo)
				if a.Email != "op@example.com" || !a.AccountPermissions.OperationApprover || len(a.BlacklistedAccountIDs) != 1 || a.BlacklistedAccountIDs[0] != sub || a.Frozen(time.Now()) {
					t.Errorf("access info = %+v", a)
				}
			},
		},
		{
			name:   "ListAccounts",
			call:   func(ctx context.Context, c *Client) (any, error) { return c.ListAccounts(ctx) },
			method: "GET", path: "/v2/accounts",
			status: 200, resp: `{"accounts":[{"id":"` + benID + `","name":"Main","accountType":"COMPANY","mainAccountId":""},{"id":"` + subID + `","name":"Sub","accountType":"INDIVIDUAL","mainAccountId":"` + benID + `"}]}`,
			check: func(t *testing.T, got any) {
				a := got.([]Account)
				if len(a) != 2 || a[1].ID != sub || a[1].MainAccountID != benID {
					t.Errorf("accounts = %+v", a)
				}
			},
		},
		{
			name: "ListSubAccounts",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.ListSubAccounts(ctx, SubAccountFilter{Name: "Filial Sul", Cursor: "x"})
			},
			method: "GET", path: "/v2/account/sub-accounts", query: "cursor=x&name=Filial+Sul",
			status: 200, resp: `{"subAccount":[{"subAccountId":"` + subID + `","mainAccountId":"` + benID + `","createdAt":"2026-01-01T00:00:00Z","accountInfo":{"id":"` + subID + `","accountType":"COMPANY","name":"Filial Sul"}}],"cursor":"y"}`,
			check: func(t *testing.T, got any) {
				p := got.(Page[SubAccount])
				if len(p.Items) != 1 || p.Items[0].SubAccountID != sub || p.Items[0].AccountInfo.Name != "Filial Sul" || p.Cursor != "y" {
					t.Errorf("page = %+v", p)
				}
			},
		},
		{
			name: "CreateSubAccount",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.CreateSubAccount(ctx, CreateSubAccountRequest{AccountType: "COMPANY", Name: "Filial Norte"})
			},
			method: "POST", path: "/v2/account/sub-accounts", body: `{"accountType":"COMPANY","name":"Filial Norte"}`,
			status: 201, resp: `{"id":"` + benID + `"}`, check: checkID,
		},
		{
			name:   "Balances",
			call:   func(ctx context.Context, c *Client) (any, error) { return c.Balances(ctx, sub) },
			method: "GET", path: "/v2/account/balances", query: "subAccountId=" + subID,
			status: 200, resp: `{"balances":{"BRLA":"9457.170326","USDC":"0.000001"}}`,
			check: func(t *testing.T, got any) {
				b := got.(Balances)
				eqDec(t, "BRLA", b["BRLA"], "9457.170326")
				eqDec(t, "USDC", b["USDC"], "0.000001")
			},
		},
		{
			name:   "PixInfo",
			call:   func(ctx context.Context, c *Client) (any, error) { return c.PixInfo(ctx, "+5511987654321") },
			method: "GET", path: "/v2/account/bank-accounts/brl/pix-info", query: "decodePixKey=true&pixKey=%2B5511987654321",
			status: 200, resp: `{"name":"Maria Souza","taxId":"***.982.247-**","bankName":"Banco Exemplo"}`,
			check: func(t *testing.T, got any) {
				if p := got.(*PixInfo); *p != (PixInfo{Name: "Maria Souza", TaxID: "***.982.247-**", BankName: "Banco Exemplo"}) {
					t.Errorf("pix info = %+v", p)
				}
			},
		},
		{
			name:   "Limits",
			call:   func(ctx context.Context, c *Client) (any, error) { return c.Limits(ctx, sub) },
			method: "GET", path: "/v2/account/limits", query: "subAccountId=" + subID,
			status: 200, resp: `{"limitInfo":{"blocked":false,"createdAt":"2026-01-01T00:00:00Z","limits":[{"currency":"BRL","maxFiatIn":"10000","maxFiatOut":"10000","maxChainIn":"1000","maxChainOut":"1000","usedLimit":{"year":2026,"month":11,"usedFiatIn":"150.50","usedFiatOut":"9999.99","usedChainIn":"0","usedChainOut":"0"}}]}}`,
			check: func(t *testing.T, got any) {
				l, ok := got.(*AccountLimits).LimitInfo.Limit("BRL")
				if !ok || l.UsedLimit.Year != 2026 || l.UsedLimit.Month != 11 {
					t.Fatalf("limits = %+v", got)
				}
				eqDec(t, "usedFiatIn", l.UsedLimit.UsedFiatIn, "150.50")
				eqDec(t, "fiat out left", l.FiatOutLeft(), "0.01")
			},
		},
		{
			name: "ListWallets",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.ListWallets(ctx, WalletFilter{SubAccountID: sub, Alias: "cold", WalletAddress: "0xAbC", WalletChain: "POLYGON", Cursor: "k"})
			},
			method: "GET", path: "/v2/account/beneficiaries/wallets/", query: "alias=cold&cursor=k&subAccountId=" + subID + "&walletAddress=0xAbC&walletChain=POLYGON",
			status: 200, resp: `{"wallets":[{"id":"` + benID + `","alias":"cold","walletAddress":"0xAbC","walletChain":"POLYGON","createdAt":"2026-01-01T00:00:00Z"}],"cursor":""}`,
			check: func(t *testing.T, got any) {
				p := got.(Page[Wallet])
				if len(p.Items) != 1 || p.Items[0].ID != bid || p.Items[0].WalletChain != "POLYGON" {
					t.Errorf("page = %+v", p)
				}
			},
		},
		{
			name: "CreateWallet",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.CreateWallet(ctx, sub, CreateWalletRequest{Alias: "cold", WalletAddress: "0xAbC", WalletChain: "POLYGON"})
			},
			method: "POST", path: "/v2/account/beneficiaries/wallets/", query: "subAccountId=" + subID,
			body:   `{"alias":"cold","walletAddress":"0xAbC","walletChain":"POLYGON"}`,
			status: 200, resp: `{"id":"` + benID + `"}`, check: checkID,
		},
		{
			name:   "GetWallet",
			call:   func(ctx context.Context, c *Client) (any, error) { return c.GetWallet(ctx, sub, bid) },
			method: "GET", path: "/v2/account/beneficiaries/wallets/" + benID, query: "subAccountId=" + subID,
			status: 200, resp: `{"wallet":{"id":"` + benID + `","alias":"cold","walletMemo":"m"}}`,
			check: func(t *testing.T, got any) {
				if w := got.(*Wallet); w.ID != bid || w.WalletMemo != "m" {
					t.Errorf("wallet = %+v", w)
				}
			},
		},
		{
			name:   "DeleteWallet",
			call:   func(ctx context.Context, c *Client) (any, error) { return nil, c.DeleteWallet(ctx, sub, bid) },
			method: "DELETE", path: "/v2/account/beneficiaries/wallets/" + benID, query: "subAccountId=" + subID,
			status: 200, resp: ``, check: checkNil,
		},
		{
			name: "ListBRLAccounts",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.ListBRLAccounts(ctx, BeneficiaryFilter{SubAccountID: sub, Alias: "José", Cursor: "z"})
			},
			method: "GET", path: "/v2/account/beneficiaries/bank-accounts/brl/", query: "alias=Jos%C3%A9&cursor=z&subAccountId=" + subID,
			status: 200, resp: `{"brlBankAccounts":[{"id":"` + benID + `","alias":"José","pixKey":"a@b.co","pixKeyType":"EMAIL"}],"cursor":"n"}`,
			check: func(t *testing.T, got any) {
				p := got.(Page[BRLAccount])
				if len(p.Items) != 1 || p.Items[0].PixKeyType != "EMAIL" || p.Cursor != "n" {
					t.Errorf("page = %+v", p)
				}
			},
		},
		{
			name: "CreateBRLAccount",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.CreateBRLAccount(ctx, sub, CreateBRLAccountRequest{Alias: "Fornecedor", PixKey: "12345678909"})
			},
			method: "POST", path: "/v2/account/beneficiaries/bank-accounts/brl/", query: "subAccountId=" + subID,
			body:   `{"alias":"Fornecedor","pixKey":"12345678909"}`,
			status: 201, resp: `{"id":"` + benID + `"}`, check: checkID,
		},
		{
			name:   "GetBRLAccount",
			call:   func(ctx context.Context, c *Client) (any, error) { return c.GetBRLAccount(ctx, uuid.Nil, bid) },
			method: "GET", path: "/v2/account/beneficiaries/bank-accounts/brl/" + benID,
			status: 200, resp: `{"brlBankAccount":{"id":"` + benID + `","bankCode":"001"}}`,
			check: func(t *testing.T, got any) {
				if a := got.(*BRLAccount); a.BankCode != "001" {
					t.Errorf("account = %+v", a)
				}
			},
		},
		{
			name:   "DeleteBRLAccount",
			call:   func(ctx context.Context, c *Client) (any, error) { return nil, c.DeleteBRLAccount(ctx, sub, bid) },
			method: "DELETE", path: "/v2/account/beneficiaries/bank-accounts/brl/" + benID, query: "subAccountId=" + subID,
			status: 204, resp: ``, check: checkNil,
		},
		{
			name: "ListUSDAccounts",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.ListUSDAccounts(ctx, BeneficiaryFilter{SubAccountID: sub, Alias: "acme"})
			},
			method: "GET", path: "/v2/account/beneficiaries/bank-accounts/usd/", query: "alias=acme&subAccountId=" + subID,
			status: 200, resp: `{"beneficiaryUsdBankAccount":[{"id":"` + benID + `","userId":"` + subID + `","bankRoutingNumber":"021000021","bankBeneficiaryAddress":{"streetLine1":"1 Main St","country":"USA"}}],"cursor":""}`,
			check: func(t *testing.T, got any) {
				p := got.(Page[USDAccount])
				if len(p.Items) != 1 || p.Items[0].BankRoutingNumber != "021000021" || p.Items[0].BankBeneficiaryAddress.Country != "USA" {
					t.Errorf("page = %+v", p)
				}
			},
		},
		{
			name: "CreateUSDAccount",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.CreateUSDAccount(ctx, sub, CreateUSDAccountRequest{Alias: "acme", BankAccountNumber: "123", BankRoutingNumber: "021000021", BankBeneficiaryName: "ACME Inc",
					BeneficiaryAddress: &Address{StreetLine1: "1 Main St", City: "NYC", State: "NY", PostalCode: "10001", Country: "USA"}})
			},
			method: "POST", path: "/v2/account/beneficiaries/bank-accounts/usd/", query: "subAccountId=" + subID,
			body:   `{"alias":"acme","bankAccountNumber":"123","bankRoutingNumber":"021000021","bankBeneficiaryName":"ACME Inc","beneficiaryAddress":{"streetLine1":"1 Main St","city":"NYC","state":"NY","postalCode":"10001","country":"USA"}}`,
			status: 201, resp: `{"id":"` + benID + `"}`, check: checkID,
		},
		{
			name:   "GetUSDAccount",
			call:   func(ctx context.Context, c *Client) (any, error) { return c.GetUSDAccount(ctx, sub, bid) },
			method: "GET", path: "/v2/account/beneficiaries/bank-accounts/usd/" + benID, query: "subAccountId=" + subID,
			status: 200, resp: `{"beneficiaryUsdBankAccount":{"id":"` + benID + `","bankName":"Chase"}}`,
			check: func(t *testing.T, got any) {
				if a := got.(*USDAccount); a.BankName != "Chase" {
					t.Errorf("account = %+v", a)
				}
			},
		},
		{
			name:   "GetUSDAccount bare object",
			call:   func(ctx context.Context, c *Client) (any, error) { return c.GetUSDAccount(ctx, sub, bid) },
			method: "GET", path: "/v2/account/beneficiaries/bank-accounts/usd/" + benID, query: "subAccountId=" + subID,
			status: 200, resp: `{"id":"` + benID + `","bankName":"Chase"}`,
			check: func(t *testing.T, got any) {
				if a := got.(*USDAccount); a.BankName != "Chase" || a.ID != bid {
					t.Errorf("account = %+v", a)
				}
			},
		},
		{
			name: "ListCOPAccounts",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.ListCOPAccounts(ctx, BeneficiaryFilter{Cursor: "p2"})
			},
			method: "GET", path: "/v2/account/beneficiaries/bank-accounts/cop/", query: "cursor=p2",
			status: 200, resp: `{"beneficiaryCopBankAccount":[{"id":"` + benID + `","alias":"bogota","beneficiaryName":"Ana","breBKey":"@ana"}]}`,
			check: func(t *testing.T, got any) {
				p := got.(Page[COPAccount])
				if len(p.Items) != 1 || p.Items[0].BreBKey != "@ana" || p.More() {
					t.Errorf("page = %+v", p)
				}
			},
		},
		{
			name: "CreateCOPAccount",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.CreateCOPAccount(ctx, sub, CreateCOPAccountRequest{Alias: "bogota", BeneficiaryName: "Ana", BreBKey: "@ana", BeneficiaryAddress: &COPAddress{City: "Bogotá", Country: "COL"}})
			},
			method: "POST", path: "/v2/account/beneficiaries/bank-accounts/cop/", query: "subAccountId=" + subID,
			body:   `{"alias":"bogota","beneficiaryName":"Ana","beneficiaryAddress":{"city":"Bogotá","country":"COL"},"breBKey":"@ana"}`,
			status: 201, resp: `{"id":"` + benID + `"}`, check: checkID,
		},
		{
			name: "ListTrades",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.ListTrades(ctx, TradeFilter{SubAccountID: sub, Status: "PENDING", SettlementDate: "2026-11-21", CreatedAfter: after, CreatedBefore: before, Cursor: "t"})
			},
			method: "GET", path: "/v2/account/eod/trades",
			query:  "createdAfter=1793547000&createdBefore=1795132800&cursor=t&settlementDate=2026-11-21&status=PENDING&subAccountId=" + subID,
			status: 200, resp: `{"trades":[{"id":"` + benID + `","inputAmount":"100000.00","outputAmount":"18123.45","basePrice":"0.18123","appliedFees":[{"type":"Conversion Fee","description":"","amount":"10.00","currency":"BRL"}],"quoteTokenId":"` + subID + `","settlementDate":"2026-11-21T00:00:00Z","status":"PENDING","settledAt":"","settlementTicketId":"","createdAt":"2026-11-20T09:00:00Z"}],"cursor":"u"}`,
			check: func(t *testing.T, got any) {
				p := got.(Page[Trade])
				if len(p.Items) != 1 || p.Items[0].SettlementTicketID != nil || p.Items[0].Status != TradePending {
					t.Fatalf("page = %+v", p)
				}
				eqDec(t, "inputAmount", p.Items[0].InputAmount, "100000.00")
			},
		},
		{
			name: "CreateUBO",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.CreateUBO(ctx, sub, CreateUBORequest{FullName: "Maria Silva", DateOfBirth: "1980-02-03", CountryOfTaxID: "BRA", TaxIDNumber: "12345678909", HasControl: "CEO", State: "SP"})
			},
			method: "POST", path: "/v2/account/ubos/", query: "subAccountId=" + subID,
			body:   `{"fullName":"Maria Silva","dateOfBirth":"1980-02-03","countryOfTaxId":"BRA","taxIdNumber":"12345678909","hasControl":"CEO","state":"SP"}`,
			status: 201, resp: `{"id":"` + benID + `"}`, check: checkID,
		},
		{
			name:   "ListUBOs",
			call:   func(ctx context.Context, c *Client) (any, error) { return c.ListUBOs(ctx, sub, "u1") },
			method: "GET", path: "/v2/account/ubos/", query: "cursor=u1&subAccountId=" + subID,
			status: 200, resp: `{"ubos":[{"id":"` + benID + `","fullName":"Maria Silva","percentageOfOwnership":"51"}],"cursor":""}`,
			check: func(t *testing.T, got any) {
				p := got.(Page[UBO])
				if len(p.Items) != 1 || p.Items[0].PercentageOfOwnership != "51" {
					t.Errorf("page = %+v", p)
				}
			},
		},
		{
			name: "SubmitW8BEN",
			call: func(ctx context.Context, c *Client) (any, error) {
				yes := true
				art := "Art. 7"
				return c.SubmitW8BEN(ctx, sub, W8BENRequest{UseDigitalSignature: true, IsClaimingTaxTreatyBenefits: &yes, TreatyArticle: &art,
					MailingAddress: &MailingAddress{StreetAddress: "Rua A, 1", City: "São Paulo", State: "SP", ZipCode: "01000-000", Country: "BRA"}})
			},
			method: "POST", path: "/v2/kyc/w8ben/", query: "subAccountId=" + subID,
			body:   `{"useDigitalSignature":true,"foreignTinNotLegallyRequired":null,"isClaimingTaxTreatyBenefits":true,"treatyArticle":"Art. 7","treatyIncomeType":null,"treatyWithholdingRate":null,"treatyExplanation":null,"usTin":null,"referenceNumber":null,"mailingAddress":{"streetAddress":"Rua A, 1","city":"São Paulo","state":"SP","zipCode":"01000-000","country":"BRA"}}`,
			status: 200, resp: `{"id":"` + benID + `","w8BenUrl":"https://example.com/w8.pdf"}`,
			check: func(t *testing.T, got any) {
				if w := got.(*W8BEN); w.ID != bid || w.W8BenURL != "https://example.com/w8.pdf" {
					t.Errorf("w8ben = %+v", w)
				}
			},
		},
		{
			name:   "ListW8BENs",
			call:   func(ctx context.Context, c *Client) (any, error) { return c.ListW8BENs(ctx, uuid.Nil) },
			method: "GET", path: "/v2/kyc/w8ben/",
			status: 200, resp: `{"w8bens":[{"id":"` + benID + `","w8BenUrl":"u","createdAt":"2026-03-04T05:06:07.891Z"}]}`,
			check: func(t *testing.T, got any) {
				w := got.([]W8BEN)
				if len(w) != 1 || w[0].CreatedAt.Nanosecond() != 891000000 {
					t.Errorf("w8bens = %+v", w)
				}
			},
		},
		{
			name: "ListProofOfAddressAttempts",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.ListProofOfAddressAttempts(ctx, TimeRangeFilter{SubAccountID: sub, CreatedAfter: after, Cursor: "a"})
			},
			method: "GET", path: "/v2/account/address/proof-of-address/attempts/", query: "createdAfter=1793547000&cursor=a&subAccountId=" + subID,
			status: 200, resp: `{"attempts":[{"id":"` + benID + `","uploadedPoAId":"` + subID + `","status":"COMPLETED","result":"APPROVED"}],"cursor":""}`,
			check: func(t *testing.T, got any) {
				p := got.(Page[ProofOfAddressAttempt])
				if len(p.Items) != 1 || p.Items[0].Result != "APPROVED" {
					t.Errorf("page = %+v", p)
				}
			},
		},
		{
			name: "ListWebhookAttempts",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.ListWebhookAttempts(ctx, AttemptFilter{CreatedBefore: before, Cursor: "w", WebhookEventID: "ev-1", UnackedOnly: true})
			},
			// No subAccountId on the webhook calls: the live catalogue has none.
			method: "GET", path: "/v2/notifications/webhooks/attempts",
			query:  "createdBefore=1795132800&cursor=w&unackedOnly=true&webhookEventId=ev-1",
			status: 200, resp: `{"attempts":[{"id":"at-1","accountId":"acc","acknowledged":false,"responseStatus":500,"webhookEventId":"ev-1","webhookUrl":"https://hook.example.com"}],"cursor":""}`,
			check: func(t *testing.T, got any) {
				p := got.(Page[WebhookAttempt])
				if len(p.Items) != 1 || p.Items[0].ResponseStatus != 500 {
					t.Errorf("page = %+v", p)
				}
			},
		},
		{
			name:   "GetWebhookAttempt",
			call:   func(ctx context.Context, c *Client) (any, error) { return c.GetWebhookAttempt(ctx, "at-1") },
			method: "GET", path: "/v2/notifications/webhooks/attempts/at-1",
			status: 200, resp: `{"eventAttempt":{"id":"at-1","acknowledged":true}}`,
			check: func(t *testing.T, got any) {
				if a := got.(*WebhookAttempt); a.ID != "at-1" || !a.Acknowledged {
					t.Errorf("attempt = %+v", a)
				}
			},
		},
		{
			name: "AcknowledgeWebhookAttempts",
			call: func(ctx context.Context, c *Client) (any, error) {
				return nil, c.AcknowledgeWebhookAttempts(ctx, []string{"at-1", "at-2"})
			},
			method: "PATCH", path: "/v2/notifications/webhooks/attempts", body: `{"ids":["at-1","at-2"]}`,
			status: 200, resp: `{}`, check: checkNil,
		},
		{
			name:   "ListWebhooks",
			call:   func(ctx context.Context, c *Client) (any, error) { return c.ListWebhooks(ctx) },
			method: "GET", path: "/v2/notifications/webhooks/",
			status: 200, resp: `{"webhooks":[{"id":"wh-1","url":"https://hook.example.com","subscriptions":["TICKET","*"]}]}`,
			check: func(t *testing.T, got any) {
				w := got.([]Webhook)
				if len(w) != 1 || !reflect.DeepEqual(w[0].Subscriptions, []string{"TICKET", "*"}) {
					t.Errorf("webhooks = %+v", w)
				}
			},
		},
		{
			name: "RegisterWebhook",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.RegisterWebhook(ctx, RegisterWebhookRequest{WebhookURL: "https://hook.example.com/x?a=1&b=2", Subscriptions: []string{"TICKET"}})
			},
			method: "POST", path: "/v2/notifications/webhooks/",
			body:   `{"webhookUrl":"https://hook.example.com/x?a=1\u0026b=2","subscriptions":["TICKET"]}`,
			status: 201, resp: `{"webhookId":"wh-9"}`,
			check: func(t *testing.T, got any) {
				if got != "wh-9" {
					t.Errorf("id = %v", got)
				}
			},
		},
		{
			name:   "DeleteWebhook",
			call:   func(ctx context.Context, c *Client) (any, error) { return nil, c.DeleteWebhook(ctx, "wh-9") },
			method: "DELETE", path: "/v2/notifications/webhooks/wh-9",
			status: 200, resp: ``, check: checkNil,
		},
		{
			name:   "PublicKey",
			call:   func(ctx context.Context, c *Client) (any, error) { return c.PublicKey(ctx) },
			method: "GET", path: "/v2/public-key", public: true,
			status: 200, resp: `{"publicKey":"-----BEGIN RSA PUBLIC KEY-----\nAAA\n-----END RSA PUBLIC KEY-----\n"}`,
			check: func(t *testing.T, got any) {
				if !strings.HasPrefix(got.(string), "-----BEGIN RSA PUBLIC KEY-----\n") {
					t.Errorf("key = %q", got)
				}
			},
		},
		{
			name: "Login",
			call: func(ctx context.Context, c *Client) (any, error) {
				return nil, c.Login(ctx, "op@example.com", "s3cr3t\"pw")
			},
			method: "POST", path: "/v2/auth/login", body: `{"email":"op@example.com","password":"s3cr3t\"pw"}`, public: true,
			status: 200, resp: ``, check: checkNil,
		},
		{
			name: "ValidateLogin",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.ValidateLogin(ctx, "op@example.com", "874484")
			},
			method: "POST", path: "/v2/auth/validate-login", body: `{"email":"op@example.com","emailToken":"874484"}`, public: true,
			status: 200, resp: `{"accessToken":"at","refreshToken":"rt"}`,
			check: func(t *testing.T, got any) {
				if tk := got.(*Tokens); *tk != (Tokens{AccessToken: "at", RefreshToken: "rt"}) {
					t.Errorf("tokens = %+v", tk)
				}
			},
		},
		{
			name:   "RefreshTokens",
			call:   func(ctx context.Context, c *Client) (any, error) { return c.RefreshTokens(ctx, "rt") },
			method: "POST", path: "/v2/auth/refresh", body: `{"refreshToken":"rt"}`, public: true,
			status: 200, resp: `{"accessToken":"at2","refreshToken":"rt2"}`,
			check: func(t *testing.T, got any) {
				if tk := got.(*Tokens); *tk != (Tokens{AccessToken: "at2", RefreshToken: "rt2"}) {
					t.Errorf("tokens = %+v", tk)
				}
			},
		},
		// The rest of the official catalogue (service.md §8.8).
		{
			name:   "OwnBRLAccount",
			call:   func(ctx context.Context, c *Client) (any, error) { return c.OwnBRLAccount(ctx, sub) },
			method: "GET", path: "/v2/account/bank-accounts/brl", query: "subAccountId=" + subID,
			status: 200, resp: `{"bankCode":"341","bankName":"Itaú Unibanco S.A.","ispb":"60701190","branchCode":"0417","accountNumber":"52013-7","accountType":"checking","holderName":"Acme Payments","taxId":"11222333000181","pixKey":"k","extra":1}`,
			check: func(t *testing.T, got any) {
				want := OwnBRLAccount{BankCode: "341", BankName: "Itaú Unibanco S.A.", ISPB: "60701190", BranchCode: "0417", AccountNumber: "52013-7", AccountType: "checking", HolderName: "Acme Payments", TaxID: "11222333000181", PixKey: "k"}
				if b := got.(*OwnBRLAccount); *b != want {
					t.Errorf("bank account = %+v", b)
				}
			},
		},
		{
			name:   "GetEmailConfig",
			call:   func(ctx context.Context, c *Client) (any, error) { return c.GetEmailConfig(ctx) },
			method: "GET", path: "/v2/notifications/email-config",
			status: 200, resp: `{"email":"ops@acme.example","subscriptions":["TICKET","KYC"]}`,
			check: func(t *testing.T, got any) {
				if cfg := got.(*EmailConfig); cfg.Email != "ops@acme.example" || !reflect.DeepEqual(cfg.Subscriptions, []string{"TICKET", "KYC"}) {
					t.Errorf("config = %+v", cfg)
				}
			},
		},
		{
			name: "SetEmailConfig sends an empty list, not null, to e-mail nothing",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.SetEmailConfig(ctx, EmailConfig{Email: "ops@acme.example"})
			},
			method: "PUT", path: "/v2/notifications/email-config", body: `{"email":"ops@acme.example","subscriptions":[]}`,
			status: 200, resp: `{"email":"ops@acme.example","subscriptions":[]}`,
			check: func(t *testing.T, got any) {
				if cfg := got.(*EmailConfig); cfg.Email != "ops@acme.example" || len(cfg.Subscriptions) != 0 {
					t.Errorf("config = %+v", cfg)
				}
			},
		},
		{
			name:   "GetPaymentSessionPreferences",
			call:   func(ctx context.Context, c *Client) (any, error) { return c.GetPaymentSessionPreferences(ctx, sub) },
			method: "GET", path: "/v2/account/payment-session/preferences", query: "subAccountId=" + subID,
			status: 200, resp: `{"externalId":"","paymentOptions":[{"inputCurrency":"BRL","inputPaymentMethod":"PIX","outputCurrency":"BRLA","outputPaymentMethod":"INTERNAL"}],"outputCurrency":"BRLA","linkExpirationValue":2,"linkExpirationUnit":"HOURS","appearance":{"color":"#123456"}}`,
			check: func(t *testing.T, got any) {
				p := got.(*PaymentSessionPreferences)
				if len(p.PaymentOptions) != 1 || p.PaymentOptions[0].String() != "BRL/PIX → BRLA/INTERNAL" || p.LinkExpirationValue != 2 || p.LinkExpirationUnit != "HOURS" || string(p.Appearance) != `{"color":"#123456"}` {
					t.Errorf("preferences = %+v", p)
				}
			},
		},
		{
			name: "SetPaymentSessionPreferences",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.SetPaymentSessionPreferences(ctx, sub, PaymentSessionPreferences{ExternalID: "shop", OutputCurrency: "USDC", LinkExpirationValue: 30, LinkExpirationUnit: "MINUTES",
					PaymentOptions: []PaymentOption{{InputCurrency: "USDC", InputPaymentMethod: "BASE", OutputCurrency: "USDC", OutputPaymentMethod: "INTERNAL"}}})
			},
			method: "POST", path: "/v2/account/payment-session/preferences", query: "subAccountId=" + subID,
			body:   `{"externalId":"shop","paymentOptions":[{"inputCurrency":"USDC","inputPaymentMethod":"BASE","outputCurrency":"USDC","outputPaymentMethod":"INTERNAL"}],"outputCurrency":"USDC","linkExpirationValue":30,"linkExpirationUnit":"MINUTES"}`,
			status: 200, resp: `{"externalId":"shop","paymentOptions":[{"inputCurrency":"USDC","inputPaymentMethod":"BASE","outputCurrency":"USDC","outputPaymentMethod":"INTERNAL"}],"outputCurrency":"USDC","linkExpirationValue":30,"linkExpirationUnit":"MINUTES","updatedAt":"2026-11-20T10:00:00Z"}`,
			check: func(t *testing.T, got any) {
				if p := got.(*PaymentSessionPreferences); p.ExternalID != "shop" || p.OutputCurrency != "USDC" || len(p.PaymentOptions) != 1 || p.PaymentOptions[0].InputPaymentMethod != "BASE" {
					t.Errorf("preferences = %+v", p)
				}
			},
		},
		{
			name:   "ImportKYCToken",
			call:   func(ctx context.Context, c *Client) (any, error) { return c.ImportKYCToken(ctx, sub, "tok_123") },
			method: "POST", path: "/v2/kyc/import-token", query: "subAccountId=" + subID, body: `{"importToken":"tok_123"}`,
			status: 200, resp: `{"id":"` + benID + `","message":"imported"}`,
			check: func(t *testing.T, got any) {
				if r := got.(*KYCImport); r.ID != benID || r.Message != "imported" {
					t.Errorf("import = %+v", r)
				}
			},
		},
		{
			name: "StartKYCWebSDK",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.StartKYCWebSDK(ctx, uuid.Nil, "https://acme.example/kyc-done")
			},
			method: "POST", path: "/v2/kyc/new-level-1/web-sdk", body: `{"redirectUrl":"https://acme.example/kyc-done"}`,
			status: 200, resp: `{"attemptId":"` + benID + `","url":"https://kyc.example/flow/1"}`,
			check: func(t *testing.T, got any) {
				if r := got.(*KYCWebSDK); r.AttemptID != benID || r.URL != "https://kyc.example/flow/1" {
					t.Errorf("web sdk = %+v", r)
				}
			},
		},
	}, adminEndpointCases()...)
}

// TestEndpoints checks, for every endpoint, the request on the wire (method,
// path, query, headers, body, signature) and the decoded answer.
func TestEndpoints(t *testing.T) {
	for _, tc := range endpointCases() {
		t.Run(tc.name, func(t *testing.T) {
			auth, pub := edKey(t)
			srv := newServer(t, func(w http.ResponseWriter, r *http.Request, body []byte) {
				if strings.HasSuffix(r.URL.Path, "/receipt") {
					w.Header().Set("Content-Type", "application/pdf")
					w.WriteHeader(tc.status)
					w.Write([]byte(tc.resp))
					return
				}
				writeJSON(w, tc.status, tc.resp)
			})
			c, err := New(srv.URL, auth, WithUserAgent("tesouro-test/1"))
			if err != nil {
				t.Fatal(err)
			}
			got, err := tc.call(context.Background(), c)
			if err != nil {
				t.Fatalf("call: %v", err)
			}
			reqs := srv.requests()
			if len(reqs) != 1 {
				t.Fatalf("%d requests, want 1", len(reqs))
			}
			r := reqs[0]
			if r.Method != tc.method {
				t.Errorf("method %s, want %s", r.Method, tc.method)
			}
			if r.Path != tc.path {
				t.Errorf("path %q, want %q", r.Path, tc.path)
			}
			if r.RawQuery != tc.query {
				t.Errorf("query\n got %q\nwant %q", r.RawQuery, tc.query)
			}
			if string(r.Body) != tc.body {
				t.Errorf("body\n got %s\nwant %s", r.Body, tc.body)
			}
			if ct := r.Header.Get("Content-Type"); (tc.body != "") != (ct == "application/json") {
				t.Errorf("Content-Type %q with body %q", ct, tc.body)
			}
			wantAccept := tc.accept
			if wantAccept == "" {
				wantAccept = "application/json"
			}
			if a := r.Header.Get("Accept"); a != wantAccept {
				t.Errorf("Accept %q, want %q", a, wantAccept)
			}
			if ua := r.Header.Get("User-Agent"); ua != "tesouro-test/1" {
				t.Errorf("User-Agent %q", ua)
			}
			if tc.public {
				for _, h := range []string{"X-Api-Key", "X-Api-Signature", "X-Api-Timestamp", "Authorization"} {
					if r.Header.Get(h) != "" {
						t.Errorf("public endpoint sent %s", h)
					}
				}
			} else if p := verifyEd(pub, r); p != "" {
				t.Errorf("signature: %s", p)
			}
			tc.check(t, got)
		})
	}
}

// notEndpoints are the client's request methods that have no endpoint of
// their own, each with where it is tested instead.
var notEndpoints = map[string]string{
	"Raw":                    "sends any method and path by hand; TestAPIGetBalances in the main package",
	"FindTicketByExternalID": "a ListTickets filtered by externalId; sandbox_test.go",
	"TicketPages":            "ListTickets from a cursor to the last page, read ahead; readahead_test.go and sandbox_test.go",
}

// TestEndpointsCoverService makes sure the table exercises every request
// method of *Client: every exported method whose first argument is a
// context. A new client method without a table case fails here.
func TestEndpointsCoverService(t *testing.T) {
	names := map[string]bool{}
	for _, tc := range endpointCases() {
		names[strings.Fields(tc.name)[0]] = true
	}
	ctxType := reflect.TypeFor[context.Context]()
	ct := reflect.TypeFor[*Client]()
	requests := 0
	for i := range ct.NumMethod() {
		m := ct.Method(i)
		// In[0] is the receiver.
		if m.Type.NumIn() < 2 || m.Type.In(1) != ctxType {
			continue
		}
		requests++
		if _, ok := notEndpoints[m.Name]; ok {
			continue
		}
		if !names[m.Name] {
			t.Errorf("no endpoint case for %s", m.Name)
		}
	}
	for name := range notEndpoints {
		if _, ok := ct.MethodByName(name); !ok {
			t.Errorf("notEndpoints names %s, which *Client no longer has", name)
		}
	}
	if requests == 0 {
		t.Fatal("found no request method on *Client")
	}
}
