package sandbox_test

import (
	"database/sql"
	"fmt"
	"net/http"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/sandbox"
)

// The rest of the official catalogue (service.md §8.8), through the
// client over HTTP: the account's own BRL bank account, e-mail
// notifications, payment-session preferences, KYC by import token and by
// the hosted web SDK.

// pixInto is the payment option paying BRL in by PIX into out.
func pixInto(out string) api.PaymentOption {
	return api.PaymentOption{InputCurrency: "BRL", InputPaymentMethod: "PIX", OutputCurrency: out, OutputPaymentMethod: "INTERNAL"}
}

func TestOwnBRLAccountIsTheHoldersAndStable(t *testing.T) {
	e := newEnv(t, sandbox.Config{Seed: 81})
	op, viewer := e.as("operator"), e.as("viewer")
	branch, number := regexp.MustCompile(`^\d{4}$`), regexp.MustCompile(`^\d{5}-\d$`)
	seen := map[string]bool{}
	for _, sub := range append([]uuid.UUID{uuid.Nil}, e.subs...) {
		b := must[*api.OwnBRLAccount](t)(viewer.OwnBRLAccount(ctx(t), sub))
		d := must[*api.AccountDetails](t)(op.AccountDetails(ctx(t), sub))
		if b.BankCode != "341" || b.BankName == "" || b.ISPB != "60701190" || b.AccountType != "checking" ||
			!branch.MatchString(b.BranchCode) || !number.MatchString(b.AccountNumber) {
			t.Errorf("account %s: bank details %+v", sub, b)
		}
		// The holder is the account's own identity: a TED in that name and
		// tax id lands here.
		if b.HolderName != d.AccountInfo.FullName || b.TaxID != d.AccountInfo.TaxID || b.TaxID == "" || b.PixKey != d.PixKey {
			t.Errorf("account %s: holder %q %q pix %q, identity %q %q pix %q", sub, b.HolderName, b.TaxID, b.PixKey, d.AccountInfo.FullName, d.AccountInfo.TaxID, d.PixKey)
		}
		key := b.BranchCode + "/" + b.AccountNumber
		if seen[key] {
			t.Errorf("account %s shares the bank account %s with another", sub, key)
		}
		seen[key] = true
	}
	// The same seed holds the same accounts at the same bank details.
	again := newEnv(t, sandbox.Config{Seed: 81})
	a := must[*api.OwnBRLAccount](t)(e.as("operator").OwnBRLAccount(ctx(t), e.subs[1]))
	b := must[*api.OwnBRLAccount](t)(again.as("operator").OwnBRLAccount(ctx(t), again.subs[1]))
	if *a != *b {
		t.Errorf("seed 81 twice: %+v then %+v", a, b)
	}

	// A new sub-account has no identity yet: no bank account until its
	// KYC is approved, then one in the name it was verified under.
	sub := must[uuid.UUID](t)(op.CreateSubAccount(ctx(t), api.CreateSubAccountRequest{AccountType: "INDIVIDUAL", Name: "Filial Norte"}))
	ae := wantCode(t, errOf(op.OwnBRLAccount(ctx(t), sub)), http.StatusConflict, "IDENTITY_NOT_CONFIRMED")
	if !strings.Contains(ae.Message, "KYC") {
		t.Errorf("refusal %q does not say what opens it", ae.Message)
	}
	doc := must[*api.DocumentUpload](t)(op.CreateDocument(ctx(t), sub, api.CreateDocumentRequest{DocumentType: "ID"}))
	r := e.rawAs(t, "operator")
	st, out := r.send(t, http.MethodPost, "/v2/kyc/new-level-1/api?subAccountId="+sub.String(),
		`{"fullName":"Maria Souza","dateOfBirth":"1990-04-02","countryOfTaxId":"BRA","taxIdNumber":"52998224725","uploadedDocumentId":"`+doc.ID+`"}`, time.Time{}, nil)
	if st != 200 {
		t.Fatalf("KYC: %d %s", st, out)
	}
	got := must[*api.OwnBRLAccount](t)(op.OwnBRLAccount(ctx(t), sub))
	if got.HolderName != "Maria Souza" || got.TaxID != "52998224725" || seen[got.BranchCode+"/"+got.AccountNumber] {
		t.Errorf("after KYC: %+v", got)
	}
	r.wantError(t, http.MethodGet, "/v2/account/bank-accounts/brl?subAccountId="+uuid.NewString(), "", http.StatusNotFound, "NOT_FOUND")
}

func TestEmailConfig(t *testing.T) {
	e := newEnv(t, sandbox.Config{Seed: 82})
	op := e.as("operator")
	if cfg := must[*api.EmailConfig](t)(op.GetEmailConfig(ctx(t))); cfg.Email != "" || len(cfg.Subscriptions) != 0 {
		t.Fatalf("before any is set: %+v, want nothing e-mailed", cfg)
	}
	r := e.rawAs(t, "operator")
	for body, code := range map[string]string{
		`{}`:                           "MISSING_FIELD",
		`{"email":"ops@acme.example"}`: "MISSING_FIELD",
		`{"email":"not-an-email","subscriptions":["TICKET"]}`:                "INVALID_FIELD",
		`{"email":"ops@acme.example","subscriptions":["TICKETS"]}`:           "INVALID_FIELD",
		`{"email":"ops@acme.example","subscriptions":["KYC","KYC"]}`:         "INVALID_FIELD",
		`{"email":"ops@acme.example","subscriptions":"TICKET"}`:              "INVALID_FIELD",
		`{"email":"ops@acme.example","subscriptions":["DEPOSIT","WITHDRAW"]`: "INVALID_JSON",
	} {
		r.wantError(t, http.MethodPut, "/v2/notifications/email-config", body, http.StatusBadRequest, code)
	}
	want := api.EmailConfig{Email: "ops@acme.example", Subscriptions: []string{"DEPOSIT", "WITHDRAW", "LIMIT-UPDATE"}}
	if got := must[*api.EmailConfig](t)(op.SetEmailConfig(ctx(t), want)); !reflect.DeepEqual(*got, want) {
		t.Errorf("saved %+v, want %+v", got, want)
	}
	// Every access of the account reads it; only one that may manage
	// where events go changes it.
	if got := must[*api.EmailConfig](t)(e.as("viewer").GetEmailConfig(ctx(t))); !reflect.DeepEqual(*got, want) {
		t.Errorf("viewer reads %+v, want %+v", got, want)
	}
	wantCode(t, errOf(e.as("viewer").SetEmailConfig(ctx(t), api.EmailConfig{Email: "x@acme.example"})), http.StatusForbidden, "FORBIDDEN")
	ae := wantCode(t, errOf(e.as("restricted").SetEmailConfig(ctx(t), api.EmailConfig{Email: "x@acme.example"})), http.StatusForbidden, "FORBIDDEN")
	if !strings.Contains(ae.Message, "manageWebhooks") {
		t.Errorf("refusal %q does not name the permission", ae.Message)
	}
	if got := must[*api.EmailConfig](t)(op.GetEmailConfig(ctx(t))); !reflect.DeepEqual(*got, want) {
		t.Errorf("after refused changes: %+v, want %+v", got, want)
	}
	// An empty list e-mails nothing.
	if got := must[*api.EmailConfig](t)(op.SetEmailConfig(ctx(t), api.EmailConfig{Email: "ops@acme.example"})); len(got.Subscriptions) != 0 {
		t.Errorf("emptied: %+v", got)
	}
}

func TestPaymentSessionPreferences(t *testing.T) {
	e := newEnv(t, sandbox.Config{Seed: 83})
	op := e.as("operator")
	sub := e.subs[0]
	def := must[*api.PaymentSessionPreferences](t)(op.GetPaymentSessionPreferences(ctx(t), sub))
	if def.OutputCurrency != "BRLA" || len(def.PaymentOptions) != 1 || def.PaymentOptions[0] != pixInto("BRLA") || def.LinkExpirationValue != 60 || def.LinkExpirationUnit != "MINUTES" {
		t.Fatalf("defaults: %+v", def)
	}
	r := e.rawAs(t, "operator")
	opt := func(in, method, out, outMethod string) string {
		return fmt.Sprintf(`{"inputCurrency":%q,"inputPaymentMethod":%q,"outputCurrency":%q,"outputPaymentMethod":%q}`, in, method, out, outMethod)
	}
	ok := `"outputCurrency":"USDC","linkExpirationValue":2,"linkExpirationUnit":"HOURS"`
	for body, code := range map[string]string{
		`{` + ok + `}`: "MISSING_FIELD",
		`{"paymentOptions":[` + opt("BRL", "PIX", "USDC", "INTERNAL") + `],"outputCurrency":"USDC"}`:                                                      "INVALID_FIELD",
		`{"paymentOptions":[` + opt("BRL", "PIX", "USDC", "INTERNAL") + `],"outputCurrency":"USDC","linkExpirationValue":8,"linkExpirationUnit":"DAYS"}`:  "INVALID_FIELD",
		`{"paymentOptions":[` + opt("BRL", "PIX", "USDC", "INTERNAL") + `],"outputCurrency":"USDC","linkExpirationValue":0,"linkExpirationUnit":"HOURS"}`: "INVALID_FIELD",
		`{"paymentOptions":["PIX"],` + ok + `}`:                                                                                       "INVALID_FIELD",
		`{"paymentOptions":[{"inputCurrency":"BRL","inputPaymentMethod":"PIX"}],` + ok + `}`:                                          "MISSING_FIELD",
		`{"paymentOptions":[` + opt("BRL", "POLYGON", "USDC", "INTERNAL") + `],` + ok + `}`:                                           "UNSUPPORTED_PAIR",
		`{"paymentOptions":[` + opt("EURC", "TRON", "USDC", "INTERNAL") + `],` + ok + `}`:                                             "UNSUPPORTED_PAIR",
		`{"paymentOptions":[` + opt("USDC", "INTERNAL", "USDC", "INTERNAL") + `],` + ok + `}`:                                         "INVALID_FIELD",
		`{"paymentOptions":[` + opt("BRL", "PIX", "USDC", "PIX") + `],` + ok + `}`:                                                    "INVALID_FIELD",
		`{"paymentOptions":[` + opt("BRL", "PIX", "BRLA", "INTERNAL") + `],` + ok + `}`:                                               "INVALID_FIELD",
		`{"paymentOptions":[` + opt("BRL", "PIX", "USDC", "INTERNAL") + `,` + opt("BRL", "PIX", "USDC", "INTERNAL") + `],` + ok + `}`: "INVALID_FIELD",
		`{"paymentOptions":[` + opt("BRL", "PIX", "USDC", "INTERNAL") + `],` + ok + `,"appearance":"dark"}`:                           "INVALID_FIELD",
	} {
		r.wantError(t, http.MethodPost, "/v2/account/payment-session/preferences?subAccountId="+sub.String(), body, http.StatusBadRequest, code)
	}
	prefs := api.PaymentSessionPreferences{
		ExternalID: "storefront", OutputCurrency: "USDC", LinkExpirationValue: 2, LinkExpirationUnit: "HOURS", Appearance: []byte(`{"theme":"dark"}`),
		PaymentOptions: []api.PaymentOption{pixInto("USDC"), {InputCurrency: "USDT", InputPaymentMethod: "TRON", OutputCurrency: "USDC", OutputPaymentMethod: "INTERNAL"}},
	}
	saved := must[*api.PaymentSessionPreferences](t)(op.SetPaymentSessionPreferences(ctx(t), sub, prefs))
	if !reflect.DeepEqual(saved.PaymentOptions, prefs.PaymentOptions) || saved.ExternalID != "storefront" || saved.LinkExpirationUnit != "HOURS" || string(saved.Appearance) != `{"theme":"dark"}` {
		t.Errorf("saved %+v", saved)
	}
	// They are the sub-account's own: the main account keeps the defaults.
	if main := must[*api.PaymentSessionPreferences](t)(op.GetPaymentSessionPreferences(ctx(t), uuid.Nil)); !reflect.DeepEqual(main, def) {
		t.Errorf("main account's preferences changed: %+v", main)
	}
	// Writes need payIn (a session takes money in) and a writable access.
	wantCode(t, errOf(e.as("viewer").SetPaymentSessionPreferences(ctx(t), sub, prefs)), http.StatusForbidden, "FORBIDDEN")
	if ae := wantCode(t, errOf(e.as("restricted").SetPaymentSessionPreferences(ctx(t), uuid.Nil, prefs)), http.StatusForbidden, "FORBIDDEN"); !strings.Contains(ae.Message, "payIn") {
		t.Errorf("refusal %q does not name payIn", ae.Message)
	}

	// A session opened without options, currency or expiry takes them.
	sid := must[string](t)(op.CreatePaymentSession(ctx(t), sub, api.CreatePaymentSessionRequest{}))
	payer := must[*api.Client](t)(api.New(e.run.BaseURL, nil))
	ps := must[*api.PaymentSession](t)(payer.GetPaymentSession(ctx(t), sid))
	if ps.OutputCurrency != "USDC" || ps.ExternalID != "storefront" || ps.ExpirationInMinutes != 120 || !reflect.DeepEqual(ps.PaymentOptions, prefs.PaymentOptions) {
		t.Errorf("session from preferences: %+v", ps)
	}
	// Its payer pays by one of them, and by no other.
	wantCode(t, errOf(payer.PaymentSessionQuote(ctx(t), sid, "USDC", "TRON", decimal.RequireFromString("10"))), http.StatusBadRequest, "INVALID_FIELD")
	q := must[*api.Quote](t)(payer.PaymentSessionQuote(ctx(t), sid, "BRL", "PIX", decimal.RequireFromString("100")))
	if q.OutputCurrency != "USDC" || q.OutputPaymentMethod != "INTERNAL" {
		t.Errorf("session quote: %s/%s", q.OutputCurrency, q.OutputPaymentMethod)
	}
	// What the creation names wins over the preferences.
	sid = must[string](t)(op.CreatePaymentSession(ctx(t), sub, api.CreatePaymentSessionRequest{PaymentOptions: []api.PaymentOption{pixInto("BRLA")}, OutputCurrency: "BRLA", ExpirationInMinutes: 5}))
	if ps := must[*api.PaymentSession](t)(payer.GetPaymentSession(ctx(t), sid)); ps.OutputCurrency != "BRLA" || ps.ExpirationInMinutes != 5 || len(ps.PaymentOptions) != 1 {
		t.Errorf("session naming its own: %+v", ps)
	}
}

func TestKYCImportTokenAndWebSDK(t *testing.T) {
	e := newEnv(t, sandbox.Config{Seed: 84})
	op := e.as("operator")
	sub := e.subs[2]
	r := e.rawAs(t, "operator")
	r.wantError(t, http.MethodPost, "/v2/kyc/import-token", `{}`, http.StatusBadRequest, "MISSING_FIELD")
	r.wantError(t, http.MethodPost, "/v2/kyc/import-token", `{"importToken":"has space"}`, http.StatusBadRequest, "INVALID_FIELD")
	imp := must[*api.KYCImport](t)(op.ImportKYCToken(ctx(t), sub, "_act-sbx-4f8a2c"))
	id := must[uuid.UUID](t)(uuid.Parse(imp.ID))
	a := must[*api.KYCAttempt](t)(op.GetKYCAttempt(ctx(t), sub, id))
	if a.LevelName != "level-1" || a.Status != "COMPLETED" || a.Result != "APPROVED" || imp.Message == "" {
		t.Errorf("imported attempt %+v (%q)", a, imp.Message)
	}
	for k, v := range a.SubmissionData {
		if s, _ := v.(string); strings.Contains(s, "4f8a2c") {
			t.Errorf("the import token is kept in the attempt's %s", k)
		}
	}
	wantCode(t, errOf(op.ImportKYCToken(ctx(t), uuid.Nil, "_act-sbx-4f8a2c")), http.StatusConflict, "IMPORT_TOKEN_USED")
	wantCode(t, errOf(e.as("viewer").ImportKYCToken(ctx(t), sub, "_act-sbx-other")), http.StatusForbidden, "FORBIDDEN")

	// The web SDK: an attempt listed PENDING until the person goes through
	// the hosted flow, which completes it and sends them back.
	for body, code := range map[string]string{
		`{}`:                                    "MISSING_FIELD",
		`{"redirectUrl":"acme.example/done"}`:   "INVALID_FIELD",
		`{"redirectUrl":"ftp://acme.example"}`:  "INVALID_FIELD",
		`{"redirectUrl":"http://acme.example"}`: "INVALID_FIELD",
	} {
		r.wantError(t, http.MethodPost, "/v2/kyc/new-level-1/web-sdk", body, http.StatusBadRequest, code)
	}
	w := must[*api.KYCWebSDK](t)(op.StartKYCWebSDK(ctx(t), uuid.Nil, "https://acme.example/kyc/done?ref=7"))
	wid := must[uuid.UUID](t)(uuid.Parse(w.AttemptID))
	if !strings.HasPrefix(w.URL, e.run.BaseURL+"/") {
		t.Errorf("url %q is not served by this sandbox (%s)", w.URL, e.run.BaseURL)
	}
	page := must[api.Page[api.KYCAttempt]](t)(op.ListKYCAttempts(ctx(t), uuid.Nil, ""))
	var listed *api.KYCAttempt
	for i := range page.Items {
		if page.Items[i].ID == wid {
			listed = &page.Items[i]
		}
	}
	if listed == nil || listed.Status != "PENDING" || listed.Result != "" {
		t.Fatalf("web-SDK attempt in the list: %+v", listed)
	}
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := noFollow.Get(w.URL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "https://acme.example/kyc/done?ref=7" {
		t.Errorf("hosted flow: %d to %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	if a := must[*api.KYCAttempt](t)(op.GetKYCAttempt(ctx(t), uuid.Nil, wid)); a.Status != "COMPLETED" || a.Result != "APPROVED" {
		t.Errorf("after the hosted flow: %+v", a)
	}
}

// The settings are kept in the state file like every other write.
func TestSettingsSurviveARestart(t *testing.T) {
	cfg := sandbox.Config{Seed: 85, StatePath: filepath.Join(t.TempDir(), "state.db")}
	e := newEnv(t, cfg)
	op := e.as("operator")
	cfg2 := api.EmailConfig{Email: "treasury@acme.example", Subscriptions: []string{"*"}}
	must[*api.EmailConfig](t)(op.SetEmailConfig(ctx(t), cfg2))
	prefs := api.PaymentSessionPreferences{OutputCurrency: "USDT", LinkExpirationValue: 3, LinkExpirationUnit: "DAYS",
		PaymentOptions: []api.PaymentOption{{InputCurrency: "USDT", InputPaymentMethod: "TRON", OutputCurrency: "USDT", OutputPaymentMethod: "INTERNAL"}}}
	must[*api.PaymentSessionPreferences](t)(op.SetPaymentSessionPreferences(ctx(t), uuid.Nil, prefs))
	must[*api.KYCImport](t)(op.ImportKYCToken(ctx(t), uuid.Nil, "tok-restart"))
	e.run.Close()

	e = newEnv(t, cfg)
	op = e.as("operator")
	if got := must[*api.EmailConfig](t)(op.GetEmailConfig(ctx(t))); !reflect.DeepEqual(*got, cfg2) {
		t.Errorf("e-mail config after restart: %+v", got)
	}
	if got := must[*api.PaymentSessionPreferences](t)(op.GetPaymentSessionPreferences(ctx(t), uuid.Nil)); !reflect.DeepEqual(got.PaymentOptions, prefs.PaymentOptions) || got.LinkExpirationUnit != "DAYS" {
		t.Errorf("preferences after restart: %+v", got)
	}
	wantCode(t, errOf(op.ImportKYCToken(ctx(t), uuid.Nil, "tok-restart")), http.StatusConflict, "IMPORT_TOKEN_USED")
}

// A state file written when payment options were names still opens: each
// name reads as the options it meant (PIX: BRL in; a chain: every token
// it carries), and the payer pays by them.
func TestSessionsStoredWithOptionNamesStillOpen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.db")
	cfg := sandbox.Config{Seed: 86, StatePath: path}
	e := newEnv(t, cfg)
	sid := must[string](t)(e.as("operator").CreatePaymentSession(ctx(t), uuid.Nil, api.CreatePaymentSessionRequest{PaymentOptions: []api.PaymentOption{pixInto("BRLA")}, OutputCurrency: "BRLA"}))
	e.run.Close()

	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	res, err := db.Exec(`UPDATE payment_sessions SET detail = json_set(detail, '$.paymentOptions', json('["PIX","TRON"]')) WHERE id = ?`, sid)
	if n, _ := res.RowsAffected(); err != nil || n != 1 {
		t.Fatalf("rewriting the session as before: %v (%d rows)", err, n)
	}
	db.Close()

	e = newEnv(t, cfg)
	payer := must[*api.Client](t)(api.New(e.run.BaseURL, nil))
	ps := must[*api.PaymentSession](t)(payer.GetPaymentSession(ctx(t), sid))
	want := []api.PaymentOption{pixInto("BRLA"), {InputCurrency: "USDT", InputPaymentMethod: "TRON", OutputCurrency: "BRLA", OutputPaymentMethod: "INTERNAL"}}
	if !reflect.DeepEqual(ps.PaymentOptions, want) {
		t.Fatalf("options read from names: %+v, want %+v", ps.PaymentOptions, want)
	}
	must[*api.Quote](t)(payer.PaymentSessionQuote(ctx(t), sid, "BRL", "PIX", decimal.RequireFromString("50")))
}
