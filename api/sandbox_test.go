package api_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/sandbox"
)

// These tests run the client against the real emulator over real HTTP, as
// users do: signatures of every key type, the ticket flow, multi-signature
// approval, beneficiaries, the JWT login, and ticket creation through
// dropped connections.

func startSandbox(t *testing.T, faults string) *sandbox.Running {
	t.Helper()
	r, err := sandbox.Start(sandbox.Config{Seed: 7, Faults: faults}, "127.0.0.1:0")
	if err != nil {
		t.Fatalf("start sandbox: %v", err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

func clientAs(t *testing.T, r *sandbox.Running, name string, opts ...api.Option) *api.Client {
	t.Helper()
	ac, ok := r.Creds.Access(name)
	if !ok {
		t.Fatalf("no demo access %q", name)
	}
	auth, err := api.NewAPIKeyAuth(ac.APIKey, []byte(ac.PrivateKeyPEM))
	if err != nil {
		t.Fatalf("%s key: %v", name, err)
	}
	if auth.KeyType() != ac.KeyType {
		t.Fatalf("%s: key type %s, credentials say %s", name, auth.KeyType(), ac.KeyType)
	}
	c, err := api.New(r.BaseURL, auth, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// pixToOwnWallet quotes amount BRL by PIX into BRLA on the operating
// account's own service wallet, and returns the creation request for it.
func pixToOwnWallet(ctx context.Context, c *api.Client, sub uuid.UUID, amount string) (*api.Quote, api.CreateTicketRequest, error) {
	q, err := c.Quote(ctx, api.QuoteRequest{SubAccountID: sub, InputCurrency: "BRL", InputPaymentMethod: "PIX", InputAmount: decimal.NewNullDecimal(decimal.RequireFromString(amount)),
		OutputCurrency: "BRLA", OutputPaymentMethod: "POLYGON"})
	if err != nil {
		return nil, api.CreateTicketRequest{}, err
	}
	return q, api.CreateTicketRequest{QuoteToken: q.QuoteToken, TicketBrlPixInput: &api.TicketBrlPixInput{}, TicketBlockchainOutput: api.ToWallet(uuid.Nil)}, nil
}

func TestSandboxEveryKeyTypeSigns(t *testing.T) {
	r := startSandbox(t, "")
	ctx := context.Background()
	seen := map[string]bool{}
	for _, ac := range r.Creds.Accesses {
		c := clientAs(t, r, ac.Name)
		info, err := c.AccessInfo(ctx)
		if err != nil {
			t.Fatalf("%s (%s): %v", ac.Name, ac.KeyType, err)
		}
		if info.Email != ac.Email {
			t.Errorf("%s: access info of %s", ac.Name, info.Email)
		}
		seen[ac.KeyType] = true
	}
	for _, k := range []string{api.KeyEd25519, api.KeyECDSA, api.KeyRSA} {
		if !seen[k] {
			t.Errorf("no demo access signs with %s", k)
		}
	}
}

func TestSandboxTicketFlow(t *testing.T) {
	r := startSandbox(t, "")
	ctx := context.Background()
	c := clientAs(t, r, "operator")
	sub := uuid.MustParse(r.Creds.SubAccounts[0].ID)

	q, req, err := pixToOwnWallet(ctx, c, sub, "1500.00")
	if err != nil {
		t.Fatal(err)
	}
	if !q.InputAmount.Equal(decimal.RequireFromString("1500")) || q.OutputAmount.Sign() <= 0 {
		t.Fatalf("quote %+v", q)
	}
	res, err := c.CreateTicket(ctx, sub, req)
	if err != nil {
		t.Fatal(err)
	}
	tk := res.Ticket
	if res.Parked || tk == nil || tk.Status != api.TicketUnpaid || tk.BrCode() == "" || tk.ExternalID == "" {
		t.Fatalf("created %+v", res)
	}
	if !tk.Quote.OutputAmount.Equal(q.OutputAmount) {
		t.Errorf("ticket output %s, quote said %s", tk.Quote.OutputAmount, q.OutputAmount)
	}
	got, err := c.GetTicket(ctx, sub, tk.ID)
	if err != nil || got.ID != tk.ID {
		t.Fatalf("get: %v", err)
	}
	if _, err := c.GetTicket(ctx, uuid.Nil, tk.ID); !errors.Is(err, api.ErrNotFound) {
		t.Errorf("ticket of a sub-account read from the main account: %v", err)
	}
	found, ok, err := c.FindTicketByExternalID(ctx, sub, tk.ExternalID)
	if err != nil || !ok || found.ID != tk.ID {
		t.Fatalf("find by externalId: %v %v", ok, err)
	}
	if _, err := c.TicketReceipt(ctx, sub, tk.ID); err == nil {
		t.Error("receipt of an unpaid ticket")
	}
	funded, err := c.SandboxFundTicket(ctx, sub, tk.ID)
	if err != nil {
		t.Fatal(err)
	}
	if funded.Status == api.TicketUnpaid {
		t.Errorf("still pending after funding")
	}
	deadline := time.Now().Add(20 * time.Second)
	for funded.Status != api.TicketPaid && time.Now().Before(deadline) {
		time.Sleep(200 * time.Millisecond)
		if funded, err = c.GetTicket(ctx, sub, tk.ID); err != nil {
			t.Fatal(err)
		}
	}
	if funded.Status != api.TicketPaid {
		t.Fatalf("ticket %s after funding", funded.Status)
	}
	pdf, err := c.TicketReceipt(ctx, sub, tk.ID)
	if err != nil || !strings.HasPrefix(string(pdf), "%PDF-") {
		t.Fatalf("receipt: %v", err)
	}

	// A quote is bound to its account: the main account cannot use it.
	_, req2, err := pixToOwnWallet(ctx, c, sub, "10")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.CreateTicket(ctx, uuid.Nil, req2); err == nil {
		t.Error("a sub-account's quote created a ticket on the main account")
	}
}

func TestSandboxMultiSignature(t *testing.T) {
	r := startSandbox(t, "")
	ctx := context.Background()
	req := clientAs(t, r, "requester")
	_, body, err := pixToOwnWallet(ctx, req, uuid.Nil, "50")
	if err != nil {
		t.Fatal(err)
	}
	res, err := req.CreateTicket(ctx, uuid.Nil, body)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Parked || res.Operation == nil || res.Operation.Status != api.OperationPending {
		t.Fatalf("not parked: %+v", res)
	}
	id := res.Operation.ID
	a1, a2 := clientAs(t, r, "approver1"), clientAs(t, r, "approver2")
	var inbox []api.Operation
	for op, err := range api.All(ctx, a1.ListApproverOperations) {
		if err != nil {
			t.Fatal(err)
		}
		inbox = append(inbox, op)
	}
	if !containsOp(inbox, id) {
		t.Fatalf("operation %s not in the approver's inbox (%d items)", id, len(inbox))
	}
	detail, err := a1.GetOperation(ctx, id)
	if err != nil || len(detail.Approvers) == 0 {
		t.Fatalf("detail: %+v %v", detail, err)
	}
	if _, err := req.ApproveOperation(ctx, id); !errors.Is(err, api.ErrForbidden) {
		t.Errorf("requester approving: %v", err)
	}
	if op, err := a1.ApproveOperation(ctx, id); err != nil || op.Approvals != 1 {
		t.Fatalf("first approval: %+v %v", op, err)
	}
	var e *api.Error
	if _, err := a1.ApproveOperation(ctx, id); !errors.As(err, &e) || e.Status != 409 {
		t.Errorf("approving twice: %v", err)
	}
	op, err := a2.ApproveOperation(ctx, id)
	if err != nil || op.Status != api.OperationExecuted || op.ExecutedID == "" {
		t.Fatalf("second approval: %+v %v", op, err)
	}
	if _, err := req.GetTicket(ctx, uuid.Nil, uuid.MustParse(op.ExecutedID)); err != nil {
		t.Fatalf("executed ticket: %v", err)
	}

	_, body, _ = pixToOwnWallet(ctx, req, uuid.Nil, "60")
	res, err = req.CreateTicket(ctx, uuid.Nil, body)
	if err != nil || !res.Parked {
		t.Fatal(err)
	}
	if op, err := a2.RejectOperation(ctx, res.Operation.ID, "wrong amount"); err != nil || op.Status != api.OperationRejected {
		t.Fatalf("reject: %+v %v", op, err)
	}
}

func containsOp(ops []api.Operation, id uuid.UUID) bool {
	for _, o := range ops {
		if o.ID == id {
			return true
		}
	}
	return false
}

func TestSandboxBeneficiariesAndReads(t *testing.T) {
	r := startSandbox(t, "")
	ctx := context.Background()
	c := clientAs(t, r, "operator")
	sub := uuid.MustParse(r.Creds.SubAccounts[0].ID)

	wid, err := c.CreateWallet(ctx, sub, api.CreateWalletRequest{Alias: "cold storage", WalletAddress: "0x52908400098527886E0F7030069857D2E4169EE7", WalletChain: "POLYGON"})
	if err != nil {
		t.Fatal(err)
	}
	if w, err := c.GetWallet(ctx, sub, wid); err != nil || w.Alias != "cold storage" {
		t.Fatalf("get wallet: %+v %v", w, err)
	}
	p, err := c.ListWallets(ctx, api.WalletFilter{SubAccountID: sub, Alias: "cold storage"})
	if err != nil || len(p.Items) == 0 {
		t.Fatalf("list wallets: %v", err)
	}
	if err := c.DeleteWallet(ctx, sub, wid); err != nil {
		t.Fatal(err)
	}
	if _, err := c.GetWallet(ctx, sub, wid); !errors.Is(err, api.ErrNotFound) {
		t.Errorf("deleted wallet: %v", err)
	}
	var e *api.Error
	if _, err := c.CreateBRLAccount(ctx, sub, api.CreateBRLAccountRequest{Alias: "bad", PixKey: "111.444.777-00"}); !errors.As(err, &e) || e.Status != 400 {
		t.Errorf("bad CPF accepted or wrong error: %v", err)
	}
	bid, err := c.CreateBRLAccount(ctx, sub, api.CreateBRLAccountRequest{Alias: "fornecedor", PixKey: "111.444.777-35"})
	if err != nil {
		t.Fatal(err)
	}
	if b, err := c.GetBRLAccount(ctx, sub, bid); err != nil || b.PixKeyType != "CPF" {
		t.Fatalf("get BRL: %+v %v", b, err)
	}
	if err := c.DeleteBRLAccount(ctx, sub, bid); err != nil {
		t.Fatal(err)
	}
	uid, err := c.CreateUSDAccount(ctx, sub, api.CreateUSDAccountRequest{Alias: "acme", BankAccountNumber: "123456789", BankRoutingNumber: "021000021", BankBeneficiaryName: "ACME Inc",
		BeneficiaryAddress: &api.Address{StreetLine1: "1 Main St", City: "New York", State: "NY", PostalCode: "10001", Country: "USA"}})
	if err != nil {
		t.Fatal(err)
	}
	if u, err := c.GetUSDAccount(ctx, sub, uid); err != nil || u.BankRoutingNumber != "021000021" {
		t.Fatalf("get USD: %+v %v", u, err)
	}
	if _, err := c.CreateCOPAccount(ctx, sub, api.CreateCOPAccountRequest{Alias: "bogota", BeneficiaryName: "Ana", BreBKey: "@ana"}); err != nil {
		t.Fatal(err)
	}
	cp, err := c.ListCOPAccounts(ctx, api.BeneficiaryFilter{SubAccountID: sub})
	if err != nil || len(cp.Items) == 0 {
		t.Fatalf("list COP: %v", err)
	}

	checks := []struct {
		name string
		run  func() error
	}{
		{"ListAccounts", func() error { a, err := c.ListAccounts(ctx); return nonEmpty(len(a), err) }},
		{"ListSubAccounts", func() error {
			p, err := c.ListSubAccounts(ctx, api.SubAccountFilter{})
			return nonEmpty(len(p.Items), err)
		}},
		{"Balances", func() error { b, err := c.Balances(ctx, uuid.Nil); return nonEmpty(len(b), err) }},
		{"ListTickets", func() error {
			p, err := c.ListTickets(ctx, api.TicketFilter{CreatedAfter: time.Now().Add(-100 * 24 * time.Hour)})
			return nonEmpty(len(p.Items), err)
		}},
		{"ListAccesses", func() error { a, err := c.ListAccesses(ctx, api.AccessFilter{}); return nonEmpty(len(a), err) }},
		{"ListTrades", func() error { _, err := c.ListTrades(ctx, api.TradeFilter{}); return err }},
		{"ListUBOs", func() error { _, err := c.ListUBOs(ctx, uuid.Nil, ""); return err }},
		{"ListW8BENs", func() error { _, err := c.ListW8BENs(ctx, uuid.Nil); return err }},
		{"ListProofOfAddressAttempts", func() error { _, err := c.ListProofOfAddressAttempts(ctx, api.TimeRangeFilter{}); return err }},
		{"ListWebhookAttempts", func() error { _, err := c.ListWebhookAttempts(ctx, api.AttemptFilter{}); return err }},
		{"ListWebhooks", func() error { _, err := c.ListWebhooks(ctx); return err }},
		{"PublicKey", func() error {
			k, err := c.PublicKey(ctx)
			if err == nil && !strings.Contains(k, "PUBLIC KEY") {
				err = fmt.Errorf("not a PEM public key: %.40q", k)
			}
			return err
		}},
	}
	for _, ch := range checks {
		if err := ch.run(); err != nil {
			t.Errorf("%s: %v", ch.name, err)
		}
	}
}

func nonEmpty(n int, err error) error {
	if err == nil && n == 0 {
		return errors.New("empty")
	}
	return err
}

func TestSandboxJWTLogin(t *testing.T) {
	r := startSandbox(t, "")
	ctx := context.Background()
	ac, _ := r.Creds.Access("operator")
	pub, err := api.New(r.BaseURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := pub.Login(ctx, ac.Email, "wrong password"); !errors.Is(err, api.ErrUnauthenticated) {
		var e *api.Error
		if !errors.As(err, &e) || e.Status >= 500 || e.Status < 400 {
			t.Errorf("wrong password: %v", err)
		}
	}
	if err := pub.Login(ctx, ac.Email, ac.Password); err != nil {
		t.Fatal(err)
	}
	tk, err := pub.ValidateLogin(ctx, ac.Email, ac.EmailToken)
	if err != nil {
		t.Fatal(err)
	}
	var rotated []api.Tokens
	var mu sync.Mutex
	bearer := api.NewBearerAuth(api.Tokens{AccessToken: "expired-or-forged", RefreshToken: tk.RefreshToken}, func(n api.Tokens) {
		mu.Lock()
		rotated = append(rotated, n)
		mu.Unlock()
	})
	c, _ := api.New(r.BaseURL, bearer)
	info, err := c.AccessInfo(ctx)
	if err != nil || info.Email != ac.Email {
		t.Fatalf("access info through a refreshed JWT: %+v %v", info, err)
	}
	if len(rotated) != 1 || rotated[0].AccessToken == "" {
		t.Fatalf("rotations %+v", rotated)
	}
}

// TestSandboxCreationsThroughDroppedConnections: the emulator loses the
// answer to a share of requests, after doing the work or before. Every
// creation either returns its one ticket, or (when nothing was committed)
// says the outcome is unknown; no ticket is ever created twice and none
// exists that its caller was not told about.
func TestSandboxCreationsThroughDroppedConnections(t *testing.T) {
	if testing.Short() {
		t.Skip("long reliability run")
	}
	cases := []struct {
		faults      string
		mayBeUnsure bool
	}{
		{"dropAfterCommit=0.3", false},
		{"dropAfterCommit=0.15,drop=0.1,error500=0.1", true},
	}
	for _, tc := range cases {
		t.Run(tc.faults, func(t *testing.T) {
			r := startSandbox(t, tc.faults)
			ctx := context.Background()
			c := clientAs(t, r, "operator", api.WithRetryPolicy(api.RetryPolicy{MaxRetries: 10, BaseDelay: time.Millisecond, MaxDelay: 10 * time.Millisecond, MaxRetryAfter: time.Second}),
				api.WithReconcilePolicy(api.ReconcilePolicy{Delays: []time.Duration{0, 5 * time.Millisecond}, Timeout: 10 * time.Second}))
			const n = 120
			var reconciled, unsure int
			created := map[string]uuid.UUID{}
			for i := range n {
				_, req, err := pixToOwnWallet(ctx, c, uuid.Nil, "10")
				if err != nil {
					t.Fatalf("quote %d: %v", i, err)
				}
				req.ExternalID = fmt.Sprintf("drop-test-%03d", i)
				res, err := c.CreateTicket(ctx, uuid.Nil, req)
				switch {
				case errors.Is(err, api.ErrOutcomeUnknown) && tc.mayBeUnsure:
					unsure++
					continue
				case err != nil:
					t.Fatalf("creation %d: %v", i, err)
				case res.Ticket == nil || res.Ticket.ExternalID != req.ExternalID:
					t.Fatalf("creation %d: %+v", i, res)
				}
				if res.Reconciled {
					reconciled++
				}
				created[req.ExternalID] = res.Ticket.ID
			}
			for i := range n {
				ext := fmt.Sprintf("drop-test-%03d", i)
				p, err := c.ListTickets(ctx, api.TicketFilter{ExternalID: ext})
				if err != nil {
					t.Fatal(err)
				}
				id, known := created[ext]
				switch {
				case len(p.Items) > 1:
					t.Errorf("%s: %d tickets on the service (duplicate)", ext, len(p.Items))
				case known && (len(p.Items) != 1 || p.Items[0].ID != id):
					t.Errorf("%s: the caller got %s, the service has %d tickets", ext, id, len(p.Items))
				case !known && len(p.Items) != 0:
					t.Errorf("%s: a ticket exists that its caller was told was unknown", ext)
				}
			}
			if reconciled == 0 {
				t.Fatal("no creation lost its answer: the fault injection did not happen")
			}
			t.Logf("%d creations: %d answers lost and reconciled, %d reported unknown (nothing committed), 0 duplicates", n, reconciled, unsure)
		})
	}
}

// TestTicketPagesReadsWhatListTicketsReads: against the emulator, the
// pages read ahead are the pages asked for one after the other: the same
// tickets, in the same order, for the whole history and for a filter.
func TestTicketPagesReadsWhatListTicketsReads(t *testing.T) {
	r := startSandbox(t, "")
	c := clientAs(t, r, "operator")
	ctx := context.Background()
	for _, f := range []api.TicketFilter{{}, {Status: string(api.TicketPaid)}} {
		var want, got []uuid.UUID
		for q := f; ; {
			p, err := c.ListTickets(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			for _, tk := range p.Items {
				want = append(want, tk.ID)
			}
			if !p.More() {
				break
			}
			q.Cursor = p.Cursor
		}
		pages := 0
		for p, err := range c.TicketPages(ctx, f) {
			if err != nil {
				t.Fatal(err)
			}
			pages++
			for _, tk := range p.Items {
				got = append(got, tk.ID)
			}
		}
		if len(want) <= 50 || pages < 2 {
			t.Fatalf("filter %+v: %d tickets in %d pages: the history should span pages", f, len(want), pages)
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("filter %+v: read ahead %d tickets, one by one %d, or another order", f, len(got), len(want))
		}
	}
}
