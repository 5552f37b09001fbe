package sandbox_test

import (
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/brcode"
	"github.com/tesouro-treasury/tesouro/sandbox"
)

// The endpoints of spec/service.md §7.4, through the typed client.

func TestAccountDetailsAndStaticBrCode(t *testing.T) {
	e := newEnv(t, sandbox.Config{Seed: 41})
	op := e.as("operator")
	d := must[*api.AccountDetails](t)(op.AccountDetails(ctx(t), uuid.Nil))
	if d.AccountInfo.IdentityStatus != api.IdentityConfirmed || len(d.Wallets) == 0 || d.Wallets[0].WalletAddress == "" || d.PixKey == "" {
		t.Fatalf("account-info = %+v", d)
	}
	p, err := brcode.Parse(d.BrCode)
	if err != nil || p.Key != d.PixKey || !p.Amount.IsZero() {
		t.Errorf("static BR Code %q: %+v %v, want the account's key and no amount", d.BrCode, p, err)
	}
	code := must[string](t)(op.StaticBrCode(ctx(t), e.subs[0], "15.50", "ramp42", ""))
	sub := must[*api.AccountDetails](t)(op.AccountDetails(ctx(t), e.subs[0]))
	if p, err := brcode.Parse(code); err != nil || !p.Amount.Equal(decimal.RequireFromString("15.50")) || p.TxID != "ramp42" || p.Key != sub.PixKey {
		t.Errorf("BR Code with amount %q: %+v %v", code, p, err)
	}
	wantCode(t, errOf(op.StaticBrCode(ctx(t), uuid.Nil, "1,5", "", "")), http.StatusBadRequest, "INVALID_AMOUNT")
	wantCode(t, errOf(op.StaticBrCode(ctx(t), uuid.Nil, "", "not ok!", "")), http.StatusBadRequest, "INVALID_FIELD")

	// A new sub-account is not identified until its KYC is approved.
	id := must[uuid.UUID](t)(op.CreateSubAccount(ctx(t), api.CreateSubAccountRequest{AccountType: "INDIVIDUAL", Name: "Nova"}))
	got := must[*api.SubAccount](t)(op.GetSubAccount(ctx(t), id))
	if got.SubAccountID != id || got.AccountInfo.IdentityStatus != api.IdentityNotIdentified {
		t.Fatalf("new sub-account = %+v", got)
	}
	wantCode(t, errOf(op.GetSubAccount(ctx(t), uuid.New())), http.StatusNotFound, "NOT_FOUND")
	doc := must[*api.DocumentUpload](t)(op.CreateDocument(ctx(t), id, api.CreateDocumentRequest{DocumentType: "PASSPORT"}))
	if doc.UploadURLFront == "" || doc.UploadURLBack != "" {
		t.Errorf("single-sided upload = %+v", doc)
	}
	wantCode(t, errOf(op.CreateDocument(ctx(t), id, api.CreateDocumentRequest{DocumentType: "PHOTO"})), http.StatusBadRequest, "INVALID_FIELD")
	docs := must[api.Page[api.Document]](t)(op.ListDocuments(ctx(t), id, "PASSPORT", ""))
	if len(docs.Items) != 1 || docs.Items[0].ID.String() != doc.ID || !docs.Items[0].Ready {
		t.Errorf("documents = %+v", docs.Items)
	}
	if got := must[*api.Document](t)(op.GetDocument(ctx(t), id, uuid.MustParse(doc.ID))); got.DocumentType != "PASSPORT" || got.UploadStatusFront == "" {
		t.Errorf("document = %+v", got)
	}
	r := e.rawAs(t, "operator")
	kyc := func(tax string) (int, []byte) {
		return r.send(t, http.MethodPost, "/v2/kyc/new-level-1/api", `{"subAccountId":"`+id.String()+`","fullName":"Nova Silva","dateOfBirth":"1991-02-03","countryOfTaxId":"BRA","taxIdNumber":"`+tax+`","uploadedDocumentId":"`+doc.ID+`"}`, time.Time{}, nil)
	}
	if st, out := kyc("52998224726"); st != 200 {
		t.Fatalf("KYC with a bad CPF: %d %s", st, out)
	}
	e.clock.Add(time.Second)
	if st, out := kyc("52998224725"); st != 200 {
		t.Fatalf("KYC: %d %s", st, out)
	}
	attempts := must[api.Page[api.KYCAttempt]](t)(op.ListKYCAttempts(ctx(t), id, ""))
	if len(attempts.Items) != 2 || attempts.Items[0].Result != "APPROVED" || attempts.Items[1].Result != "REJECTED" || !attempts.Items[1].Retryable {
		t.Fatalf("attempts = %+v", attempts.Items)
	}
	one := must[*api.KYCAttempt](t)(op.GetKYCAttempt(ctx(t), id, attempts.Items[0].ID))
	if one.Status != "COMPLETED" || one.SubmissionData["fullName"] != "Nova Silva" {
		t.Errorf("attempt = %+v", one)
	}
	got = must[*api.SubAccount](t)(op.GetSubAccount(ctx(t), id))
	if got.AccountInfo.IdentityStatus != api.IdentityConfirmed || got.AccountInfo.FullName != "Nova Silva" || got.AccountInfo.Birthdate != "1991-02-03" {
		t.Errorf("after approval = %+v", got.AccountInfo)
	}
}

func TestEURAndARSBeneficiaries(t *testing.T) {
	e := newEnv(t, sandbox.Config{Seed: 41})
	op := e.as("operator")
	eur := api.CreateEURAccountRequest{Alias: "Lyon", IBAN: "DE89 3704 0044 0532 0130 00", BIC: "cobadeff", Country: "DEU", BankBeneficiaryName: "Lyon GmbH", IsBusiness: true}
	demoEUR := must[api.Page[api.EURAccount]](t)(op.ListEURAccounts(ctx(t), api.BeneficiaryFilter{}))
	id := must[uuid.UUID](t)(op.CreateEURAccount(ctx(t), uuid.Nil, eur))
	p := must[api.Page[api.EURAccount]](t)(op.ListEURAccounts(ctx(t), api.BeneficiaryFilter{}))
	if len(p.Items) != len(demoEUR.Items)+1 || p.Items[0].ID != id || p.Items[0].IBAN != "DE89370400440532013000" || p.Items[0].BIC != "COBADEFF" || !p.Items[0].IsBusiness {
		t.Fatalf("EUR list = %+v, the demo's had %d", p.Items, len(demoEUR.Items))
	}
	for _, bad := range []func(r *api.CreateEURAccountRequest){
		func(r *api.CreateEURAccountRequest) { r.IBAN = "GB82 WEST 1234 5698 7654 33" },
		func(r *api.CreateEURAccountRequest) { r.BIC = "COBA1EFF" },
		func(r *api.CreateEURAccountRequest) { r.Country = "DE" },
		func(r *api.CreateEURAccountRequest) { r.BankBeneficiaryName = "" },
	} {
		req := eur
		req.Alias = "other"
		bad(&req)
		if err := errOf(op.CreateEURAccount(ctx(t), uuid.Nil, req)); statusOf(err) != http.StatusBadRequest {
			t.Errorf("%+v: %v, want 400", req, err)
		}
	}
	if got := must[*api.EURAccount](t)(op.GetEURAccount(ctx(t), uuid.Nil, id)); got.Country != "DEU" || got.BankBeneficiaryName != "Lyon GmbH" {
		t.Errorf("EUR by id = %+v", got)
	}
	demoARS := must[api.Page[api.ARSAccount]](t)(op.ListARSAccounts(ctx(t), api.BeneficiaryFilter{}))
	aid := must[uuid.UUID](t)(op.CreateARSAccount(ctx(t), uuid.Nil, api.CreateARSAccountRequest{Alias: "BA", CVU: "2850590940090418135201"}))
	ap := must[api.Page[api.ARSAccount]](t)(op.ListARSAccounts(ctx(t), api.BeneficiaryFilter{}))
	if len(ap.Items) != len(demoARS.Items)+1 || ap.Items[0].ID != aid || ap.Items[0].CVU != "2850590940090418135201" {
		t.Fatalf("ARS list = %+v, the demo's had %d", ap.Items, len(demoARS.Items))
	}
	if got := must[*api.ARSAccount](t)(op.GetARSAccount(ctx(t), uuid.Nil, aid)); got.Alias != "BA" {
		t.Errorf("ARS by id = %+v", got)
	}
	wantCode(t, errOf(op.CreateARSAccount(ctx(t), uuid.Nil, api.CreateARSAccountRequest{Alias: "BB", CVU: "2850590940090418135202"})), http.StatusBadRequest, "INVALID_FIELD")
	wantCode(t, errOf(op.CreateARSAccount(ctx(t), uuid.Nil, api.CreateARSAccountRequest{Alias: "BA", CVU: "2850590940090418135201"})), http.StatusConflict, "ALIAS_TAKEN")
}

func TestEveryTicketTransitionIsAnEvent(t *testing.T) {
	e := newEnv(t, sandbox.Config{Seed: 41})
	op := e.as("operator")
	e.clock.Add(5 * time.Second)
	q := must[*api.Quote](t)(op.Quote(ctx(t), pixQuote("200")))
	tk := must[*api.CreateTicketResult](t)(op.CreateTicket(ctx(t), uuid.Nil, api.CreateTicketRequest{QuoteToken: q.QuoteToken})).Ticket
	e.clock.Add(10 * time.Second)
	wantStatus(t, ticketNow(t, op, tk.ID), api.TicketPaid, "after funding and delivery")
	q = must[*api.Quote](t)(op.Quote(ctx(t), pixQuote("5000")))
	gone := must[*api.CreateTicketResult](t)(op.CreateTicket(ctx(t), uuid.Nil, api.CreateTicketRequest{QuoteToken: q.QuoteToken})).Ticket
	e.clock.Add(time.Second)
	must[*api.Ticket](t)(op.CancelTicket(ctx(t), uuid.Nil, gone.ID))
	statuses := func(id uuid.UUID) []string {
		p := must[api.Page[api.WebhookEvent]](t)(op.ListWebhookEvents(ctx(t), api.WebhookEventFilter{Subscription: "TICKET", DataID: id.String()}))
		var out []string
		for i := len(p.Items) - 1; i >= 0; i-- {
			out = append(out, p.Items[i].Type())
		}
		return out
	}
	if got := statuses(tk.ID); !slices.Equal(got, []string{"TICKET-CREATED", "DEPOSIT-SUCCESS", "TICKET-COMPLETE"}) {
		t.Errorf("paid ticket's events %v", got)
	}
	if got := statuses(gone.ID); !slices.Equal(got, []string{"TICKET-CREATED", "TICKET-CANCELED"}) {
		t.Errorf("canceled ticket's events %v", got)
	}
	all := must[api.Page[api.WebhookEvent]](t)(op.ListWebhookEvents(ctx(t), api.WebhookEventFilter{CreatedAfter: e.clock.Now().Add(-time.Minute)}))
	if len(all.Items) < 5 {
		t.Fatalf("recent events: %d, want at least 5", len(all.Items))
	}
	if ev := must[*api.WebhookEvent](t)(op.GetWebhookEvent(ctx(t), all.Items[0].ID)); ev.ID != all.Items[0].ID || ev.Type() == "" || ev.Type() != all.Items[0].Type() {
		t.Errorf("event by id = %+v, listed %+v", ev, all.Items[0])
	}
	wantCode(t, errOf(op.GetWebhookEvent(ctx(t), uuid.NewString())), http.StatusNotFound, "NOT_FOUND")
}

func TestWebhookReadAndEdit(t *testing.T) {
	e := newEnv(t, sandbox.Config{Seed: 41})
	op := e.as("operator")
	id := must[string](t)(op.RegisterWebhook(ctx(t), api.RegisterWebhookRequest{WebhookURL: "https://hooks.example.com/a", Subscriptions: []string{"TICKET"}}))
	if err := op.UpdateWebhook(ctx(t), api.UpdateWebhookRequest{WebhookID: id, WebhookURL: "https://hooks.example.com/b", Subscriptions: []string{"TICKET", "KYC"}}); err != nil {
		t.Fatal(err)
	}
	w := must[*api.Webhook](t)(op.GetWebhook(ctx(t), id))
	if w.URL != "https://hooks.example.com/b" || !slices.Equal(w.Subscriptions, []string{"TICKET", "KYC"}) {
		t.Errorf("after edit = %+v", w)
	}
	wantCode(t, op.UpdateWebhook(ctx(t), api.UpdateWebhookRequest{WebhookID: id, WebhookURL: "http://hooks.example.com/b", Subscriptions: []string{"TICKET"}}), http.StatusBadRequest, "INVALID_FIELD")
	wantCode(t, op.UpdateWebhook(ctx(t), api.UpdateWebhookRequest{WebhookID: uuid.NewString(), WebhookURL: "https://x.example/", Subscriptions: []string{"TICKET"}}), http.StatusNotFound, "NOT_FOUND")
	wantCode(t, errOf(op.GetWebhook(ctx(t), uuid.NewString())), http.StatusNotFound, "NOT_FOUND")
}

// A USD beneficiary's address is kept whichever spelling it came in, and
// returned in both.
func TestUSDAddressInBothSpellings(t *testing.T) {
	e := newEnv(t, sandbox.Config{Seed: 41})
	r := e.rawAs(t, "operator")
	op := e.as("operator")
	for i, addr := range []string{
		`{"streetAddress":"1 Main St","city":"New York","state":"NY","zipCode":"10001","country":"USA"}`,
		`{"streetLine1":"1 Main St","city":"New York","state":"NY","postalCode":"10001","country":"USA"}`,
	} {
		alias := []string{"old", "new"}[i]
		st, out := r.send(t, http.MethodPost, "/v2/account/beneficiaries/bank-accounts/usd/", `{"alias":"`+alias+`","bankAccountNumber":"123456789","bankRoutingNumber":"021000021","bankBeneficiaryName":"Globex","beneficiaryAddress":`+addr+`}`, time.Time{}, nil)
		if st != 200 {
			t.Fatalf("%s spelling: %d %s", alias, st, out)
		}
	}
	p := must[api.Page[api.USDAccount]](t)(op.ListUSDAccounts(ctx(t), api.BeneficiaryFilter{}))
	n := 0
	for _, b := range p.Items {
		if b.Alias != "old" && b.Alias != "new" {
			continue
		}
		n++
		a := b.BankBeneficiaryAddress
		if a.StreetLine1 != "1 Main St" || a.StreetAddress != "1 Main St" || a.PostalCode != "10001" || a.ZipCode != "10001" || a.City != "New York" {
			t.Errorf("%s: address read back as %+v", b.Alias, a)
		}
	}
	if n != 2 {
		t.Fatalf("found %d of the 2 beneficiaries", n)
	}
	st, out := r.send(t, http.MethodPost, "/v2/account/beneficiaries/bank-accounts/usd/", `{"alias":"both","bankAccountNumber":"123456789","bankRoutingNumber":"021000021","bankBeneficiaryName":"Globex","beneficiaryAddress":{"postalCode":"10001","zipCode":"10002"}}`, time.Time{}, nil)
	checkError(t, st, out, 400, "INVALID_FIELD")
}

// POST /v2/auth/refresh takes the refresh token in the body or, with no
// body, as Authorization: Bearer.
func TestRefreshTokenInBodyOrHeader(t *testing.T) {
	e := newEnv(t, sandbox.Config{Seed: 9})
	cred := e.cred("approver2")
	anon := must[*api.Client](t)(api.New(e.run.BaseURL, nil))
	if err := anon.Login(ctx(t), cred.Email, cred.Password); err != nil {
		t.Fatal(err)
	}
	tok := must[*api.Tokens](t)(anon.ValidateLogin(ctx(t), cred.Email, cred.EmailToken))
	post := func(bearer, body string) (int, []byte) {
		req, _ := http.NewRequest(http.MethodPost, e.run.BaseURL+"/v2/auth/refresh", strings.NewReader(body))
		if bearer != "" {
			req.Header.Set("Authorization", "Bearer "+bearer)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		out, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, out
	}
	st, out := post(tok.RefreshToken, "")
	if st != 200 {
		t.Fatalf("refresh as Bearer: %d %s", st, out)
	}
	var next api.Tokens
	if err := json.Unmarshal(out, &next); err != nil || next.RefreshToken == "" {
		t.Fatalf("answer %s: %v", out, err)
	}
	st, out = post(tok.RefreshToken, "")
	checkError(t, st, out, 401, "UNAUTHENTICATED")
	if st, out = post("", `{"refreshToken":"`+next.RefreshToken+`"}`); st != 200 {
		t.Fatalf("refresh in the body: %d %s", st, out)
	}
	st, out = post("", "")
	checkError(t, st, out, 400, "INVALID_JSON")
}

// Each permission flag a ticket needs is named in the 403 (§7.5).
func TestTicketPermissionFlagsAreNamed(t *testing.T) {
	e := newEnv(t, sandbox.Config{Seed: 41})
	for _, tc := range []struct {
		who  string
		q    api.QuoteRequest
		flag string
	}{
		{"approver1", pixQuote("10"), "payIn"},
		{"restricted", pixQuote("10"), "payIn"},
		{"approver1", api.QuoteRequest{InputCurrency: "BRLA", InputPaymentMethod: "INTERNAL", OutputCurrency: "BRLA", OutputPaymentMethod: "POLYGON", InputAmount: dec("5")}, "onChain"},
		{"approver1", api.QuoteRequest{InputCurrency: "BRLA", InputPaymentMethod: "INTERNAL", OutputCurrency: "USDC", OutputPaymentMethod: "INTERNAL", InputAmount: dec("5")}, "convert"},
	} {
		c := e.as(tc.who)
		q := must[*api.Quote](t)(c.Quote(ctx(t), tc.q))
		req := api.CreateTicketRequest{QuoteToken: q.QuoteToken}
		if tc.q.OutputPaymentMethod == "POLYGON" {
			req.TicketBlockchainOutput = api.ToWallet(uuid.Nil)
		}
		ae := wantCode(t, errOf(c.CreateTicket(ctx(t), uuid.Nil, req)), http.StatusForbidden, "FORBIDDEN")
		if !strings.Contains(ae.Message, tc.flag) {
			t.Errorf("%s: 403 %q does not name %s", tc.who, ae.Message, tc.flag)
		}
	}
}

// Five wrong passwords or tokens for one e-mail within 15 minutes lock its
// logins with 429 and Retry-After until the window passes (§7.5).
func TestLoginLockout(t *testing.T) {
	e := newEnv(t, sandbox.Config{Seed: 9})
	cred := e.cred("approver2")
	post := func(path, body string) (int, http.Header, []byte) {
		resp, err := http.Post(e.run.BaseURL+path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		out, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, resp.Header, out
	}
	login := func(pw string) (int, http.Header, []byte) {
		return post("/v2/auth/login", `{"email":"`+cred.Email+`","password":"`+pw+`"}`)
	}
	for i := 0; i < 4; i++ {
		if st, _, out := login("wrong"); st != 401 {
			t.Fatalf("wrong password %d: %d %s", i+1, st, out)
		}
		e.clock.Add(time.Minute)
	}
	// The fifth failure is a wrong e-mail token.
	if st, _, out := login(cred.Password); st != 200 {
		t.Fatalf("right password: %d %s", st, out)
	}
	if st, _, out := post("/v2/auth/validate-login", `{"email":"`+cred.Email+`","emailToken":"999999x"}`); st != 401 {
		t.Fatalf("wrong token: %d %s", st, out)
	}
	st, h, out := login(cred.Password)
	checkError(t, st, out, 429, "LOGIN_LOCKED")
	if ra, err := strconv.Atoi(h.Get("Retry-After")); err != nil || ra < 10*60 || ra > 11*60+1 {
		t.Errorf("Retry-After %q, want the 11 minutes left of the window", h.Get("Retry-After"))
	}
	// Another e-mail is not locked.
	if st, _, out := post("/v2/auth/login", `{"email":"`+e.cred("operator").Email+`","password":"`+e.cred("operator").Password+`"}`); st != 200 {
		t.Errorf("another e-mail: %d %s", st, out)
	}
	e.clock.Add(11*time.Minute + time.Second)
	if st, _, out := login(cred.Password); st != 200 {
		t.Errorf("after the window: %d %s", st, out)
	}
}

// The statement pages to the end and agrees with the balances: per token
// the newest finalBalance is the balance, and each change leads from the
// previous final balance to the next.
func TestStatementPagesToTheEndMatchingTheBalances(t *testing.T) {
	e := newEnv(t, sandbox.Config{Seed: 41})
	op := e.as("operator")
	e.clock.Add(10 * time.Second)
	var logs []api.StatementLog
	cursor, pages := "", 0
	for {
		p := must[api.Page[api.StatementLog]](t)(op.Statement(ctx(t), api.StatementFilter{SubAccountID: e.subs[0], Cursor: cursor}))
		logs = append(logs, p.Items...)
		pages++
		if !p.More() {
			break
		}
		cursor = p.Cursor
	}
	if pages < 2 || len(logs) == 0 {
		t.Fatalf("%d logs in %d pages; want several pages", len(logs), pages)
	}
	balances := must[api.Balances](t)(op.Balances(ctx(t), e.subs[0]))
	newest := map[string]api.StatementLog{}
	older := map[string]api.StatementLog{} // the next older line per token, walking back
	var walked []api.StatementLog
	for _, l := range logs {
		if _, ok := newest[l.Token]; !ok {
			newest[l.Token] = l
		}
		if prev, ok := older[l.Token]; ok && !l.FinalBalance.Add(prev.BalanceChange).Equal(prev.FinalBalance) {
			t.Fatalf("%s: %s + %s != %s (line %s)", l.Token, l.FinalBalance, prev.BalanceChange, prev.FinalBalance, prev.ID)
		}
		older[l.Token] = l
		// Newest first by id is also newest first by time, so a date
		// range of the demo ledger adds up like the whole of it.
		if i := len(walked); i > 0 && l.CreatedAt.After(walked[i-1].CreatedAt.Time) {
			t.Fatalf("line %s at %v comes after line %s at %v", l.ID, l.CreatedAt, walked[i-1].ID, walked[i-1].CreatedAt)
		}
		walked = append(walked, l)
		// The history's working float never shows: a demo balance is
		// what the business put in, not a billion brought back.
		if l.FinalBalance.GreaterThanOrEqual(decimal.NewFromInt(100_000_000)) || l.BalanceChange.Abs().GreaterThanOrEqual(decimal.NewFromInt(100_000_000)) {
			t.Fatalf("line %s: change %s, balance %s", l.ID, l.BalanceChange, l.FinalBalance)
		}
		if !strings.HasPrefix(l.Description, "[DEBIT]") && !strings.HasPrefix(l.Description, "[CREDIT]") {
			t.Errorf("description %q", l.Description)
		}
	}
	for tok, l := range newest {
		if b, ok := balances[tok]; !ok || !b.Equal(l.FinalBalance) {
			t.Errorf("%s: newest finalBalance %s, balance %v", tok, l.FinalBalance, balances[tok])
		}
	}
	// A window keeps to its times.
	to := e.clock.Now().Add(-24 * time.Hour)
	p := must[api.Page[api.StatementLog]](t)(op.Statement(ctx(t), api.StatementFilter{SubAccountID: e.subs[0], CreatedBefore: to}))
	for _, l := range p.Items {
		if !l.CreatedAt.Before(to) {
			t.Errorf("line %s at %v is not before %v", l.ID, l.CreatedAt, to)
		}
	}
	wantCode(t, errOf(op.Statement(ctx(t), api.StatementFilter{Cursor: "x"})), http.StatusBadRequest, "INVALID_CURSOR")
}
