package sandbox

import (
	"context"
	"errors"
	"io"
	"net/http"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/sandbox/engine"
	"github.com/tesouro-treasury/tesouro/sandbox/records"
)

func goodUBO() api.CreateUBORequest {
	doc := uuid.New()
	return api.CreateUBORequest{
		FullName: "Maria Helena Silva", DateOfBirth: "1980-02-03", CountryOfTaxID: "BRA", TaxIDNumber: "529.982.247-25",
		HasControl: "CEO", PercentageOfOwnership: "30.5", UploadedIdentificationID: &doc, DocumentCountry: "BRA",
		StreetLine1: "Av. Paulista 1000", City: "São Paulo", ZipCode: "01310-100", State: "SP", Country: "BRA",
	}
}

func allUBOs(t *testing.T, c *api.Client, sub uuid.UUID) []api.UBO {
	t.Helper()
	return collect(t, func(ctx context.Context, cursor string) (api.Page[api.UBO], error) {
		return c.ListUBOs(ctx, sub, cursor)
	})
}

func allPoA(t *testing.T, c *api.Client, f api.TimeRangeFilter) []api.ProofOfAddressAttempt {
	t.Helper()
	return collect(t, func(ctx context.Context, cursor string) (api.Page[api.ProofOfAddressAttempt], error) {
		f.Cursor = cursor
		return c.ListProofOfAddressAttempts(ctx, f)
	})
}

func TestUBOCreateRules(t *testing.T) {
	r := startTest(t, Config{Seed: 21})
	c := recordsClient(t, r, "operator")
	before := allUBOs(t, c, uuid.Nil)
	tomorrow := time.Now().UTC().AddDate(0, 0, 1).Format(time.DateOnly)

	for _, tc := range []struct {
		name  string
		edit  func(*api.CreateUBORequest)
		code  string
		field string
	}{
		{"no full name", func(q *api.CreateUBORequest) { q.FullName = "" }, engine.CodeMissingField, "fullName"},
		{"blank full name", func(q *api.CreateUBORequest) { q.FullName = "   " }, engine.CodeMissingField, "fullName"},
		{"no date of birth", func(q *api.CreateUBORequest) { q.DateOfBirth = "" }, engine.CodeMissingField, "dateOfBirth"},
		{"date of birth not YYYY-MM-DD", func(q *api.CreateUBORequest) { q.DateOfBirth = "03/02/1980" }, engine.CodeInvalidField, "dateOfBirth"},
		{"date of birth not a real day", func(q *api.CreateUBORequest) { q.DateOfBirth = "1981-02-29" }, engine.CodeInvalidField, "dateOfBirth"},
		{"date of birth in the future", func(q *api.CreateUBORequest) { q.DateOfBirth = tomorrow }, engine.CodeInvalidField, "dateOfBirth"},
		{"no tax country", func(q *api.CreateUBORequest) { q.CountryOfTaxID = "" }, engine.CodeMissingField, "countryOfTaxId"},
		{"tax country alpha-2", func(q *api.CreateUBORequest) { q.CountryOfTaxID = "BR" }, engine.CodeInvalidField, "countryOfTaxId"},
		{"tax country not ISO", func(q *api.CreateUBORequest) { q.CountryOfTaxID = "XYZ" }, engine.CodeInvalidField, "countryOfTaxId"},
		{"no tax id", func(q *api.CreateUBORequest) { q.TaxIDNumber = " " }, engine.CodeMissingField, "taxIdNumber"},
		{"Brazilian tax id not a CPF", func(q *api.CreateUBORequest) { q.TaxIDNumber = "529.982.247-24" }, engine.CodeInvalidField, "taxIdNumber"},
		{"no control", func(q *api.CreateUBORequest) { q.HasControl = "" }, engine.CodeMissingField, "hasControl"},
		{"document country not ISO", func(q *api.CreateUBORequest) { q.DocumentCountry = "Brazil" }, engine.CodeInvalidField, "documentCountry"},
		{"country alpha-2", func(q *api.CreateUBORequest) { q.Country = "BR" }, engine.CodeInvalidField, "country"},
		{"state spelled out", func(q *api.CreateUBORequest) { q.State = "São Paulo" }, engine.CodeInvalidField, "state"},
		{"state with a digit", func(q *api.CreateUBORequest) { q.State = "S1" }, engine.CodeInvalidField, "state"},
	} {
		q := goodUBO()
		tc.edit(&q)
		_, err := c.CreateUBO(testCtx(t), uuid.Nil, q)
		var ae *api.Error
		if !errors.As(err, &ae) || ae.Status != http.StatusBadRequest || ae.Code != tc.code || !strings.HasPrefix(ae.Message, tc.field+":") {
			t.Errorf("%s: got %v, want 400 %s naming %s", tc.name, err, tc.code, tc.field)
		}
	}

	// Wire-level refusals the typed client cannot send.
	raw := r.client(t, "operator")
	body := func(extra string) string {
		return `{"fullName":"Ana Costa","dateOfBirth":"1975-06-30","countryOfTaxId":"BRA","taxIdNumber":"12345678909","hasControl":"Director"` + extra + `}`
	}
	for _, tc := range []struct{ extra, code, field string }{
		{`,"uploadedIdentificationId":"passport-scan-1"`, engine.CodeInvalidField, "uploadedIdentificationId"},
		{`,"hasControl":true`, engine.CodeInvalidField, "hasControl"},
		{`,"dateOfBirth":19750630`, engine.CodeInvalidField, "dateOfBirth"},
	} {
		msg := raw.wantError("POST", "/v2/account/ubos/", body(tc.extra), http.StatusBadRequest, tc.code)
		if !strings.HasPrefix(msg, tc.field) {
			t.Errorf("%s: message %q does not name %s", tc.extra, msg, tc.field)
		}
	}
	if got := allUBOs(t, c, uuid.Nil); len(got) != len(before) {
		t.Fatalf("refused requests stored UBOs: %d, had %d", len(got), len(before))
	}

	// Good ones: all fields, only the required ones (a foreign owner),
	// and extra fields passing through.
	id, err := c.CreateUBO(testCtx(t), uuid.Nil, goodUBO())
	if err != nil {
		t.Fatal(err)
	}
	foreign := api.CreateUBORequest{FullName: "Thomas Whitfield", DateOfBirth: time.Now().UTC().Format(time.DateOnly), CountryOfTaxID: "usa", TaxIDNumber: "123-45-6789", HasControl: "Board member"}
	id2, err := c.CreateUBO(testCtx(t), uuid.Nil, foreign)
	if err != nil {
		t.Fatalf("an owner born today with a US tax id: %v", err)
	}
	var created struct{ ID uuid.UUID }
	raw.json("POST", "/v2/account/ubos", body(`,"nickname":"Ana","percentageOfOwnership":"12"`), http.StatusOK, &created)

	got := allUBOs(t, c, uuid.Nil)
	if len(got) != len(before)+3 {
		t.Fatalf("%d UBOs after three creations, want %d", len(got), len(before)+3)
	}
	if got[0].ID != created.ID || got[1].ID != id2 || got[2].ID != id {
		t.Errorf("the new UBOs are not listed newest first: %v %v %v", got[0].ID, got[1].ID, got[2].ID)
	}
	u := got[2]
	if u.FullName != "Maria Helena Silva" || u.DateOfBirth != "1980-02-03" || u.CountryOfTaxID != "BRA" || u.TaxIDNumber != "52998224725" ||
		u.HasControl != "CEO" || u.PercentageOfOwnership != "30.5" || time.Since(u.CreatedAt.Time) > time.Minute {
		t.Errorf("stored UBO %+v", u)
	}
	if got[1].CountryOfTaxID != "USA" || got[1].TaxIDNumber != "123-45-6789" {
		t.Errorf("foreign UBO stored as %+v", got[1])
	}
}

func TestW8BEN(t *testing.T) {
	r := startTest(t, Config{Seed: 22})
	c := recordsClient(t, r, "operator")
	raw := r.client(t, "operator")
	before, err := c.ListW8BENs(testCtx(t), uuid.Nil)
	if err != nil {
		t.Fatal(err)
	}

	msg := raw.wantError("POST", "/v2/kyc/w8ben/", `{"usTin":"123456789"}`, http.StatusBadRequest, engine.CodeMissingField)
	if !strings.HasPrefix(msg, "useDigitalSignature") {
		t.Errorf("missing useDigitalSignature: message %q does not name it", msg)
	}
	for _, b := range []string{`{"useDigitalSignature":null}`, `{"useDigitalSignature":"yes"}`} {
		if msg := raw.wantError("POST", "/v2/kyc/w8ben/", b, http.StatusBadRequest, engine.CodeInvalidField); !strings.HasPrefix(msg, "useDigitalSignature") {
			t.Errorf("%s: message %q does not name useDigitalSignature", b, msg)
		}
	}
	if msg := raw.wantError("POST", "/v2/kyc/w8ben/", `{"useDigitalSignature":true,"treatyArticle":12}`, http.StatusBadRequest, engine.CodeInvalidField); !strings.Contains(msg, "treatyArticle") {
		t.Errorf("a number as treatyArticle: message %q does not name it", msg)
	}

	// Every nullable field null (the typed client sends nil as null).
	w, err := c.SubmitW8BEN(testCtx(t), uuid.Nil, api.W8BENRequest{UseDigitalSignature: false})
	if err != nil {
		t.Fatalf("all optional fields null: %v", err)
	}
	if w.ID == uuid.Nil || !strings.HasPrefix(w.W8BenURL, r.BaseURL+"/") || !strings.Contains(w.W8BenURL, w.ID.String()) {
		t.Fatalf("answer %+v: want an id and a link to the form on %s", w, r.BaseURL)
	}
	// Read back by id (§7.4).
	if got, err := c.GetW8BEN(testCtx(t), uuid.Nil, w.ID); err != nil || got.ID != w.ID || got.W8BenURL != w.W8BenURL {
		t.Errorf("GET /v2/kyc/w8ben/%s: %+v %v", w.ID, got, err)
	}
	if _, err := c.GetW8BEN(testCtx(t), uuid.Nil, uuid.New()); err == nil {
		t.Error("an unknown W-8BEN was found")
	}
	yes, art, rate := true, "Article 12", "10"
	full, err := c.SubmitW8BEN(testCtx(t), uuid.Nil, api.W8BENRequest{
		UseDigitalSignature: true, IsClaimingTaxTreatyBenefits: &yes, TreatyArticle: &art, TreatyWithholdingRate: &rate,
		MailingAddress: &api.MailingAddress{StreetAddress: "Rua Augusta 500", City: "São Paulo", State: "SP", ZipCode: "01304-000", Country: "BRA"},
	})
	if err != nil {
		t.Fatal(err)
	}
	list, err := c.ListW8BENs(testCtx(t), uuid.Nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != len(before)+2 || list[0].ID != full.ID || list[1].ID != w.ID {
		t.Fatalf("W-8BEN list after two submissions: %+v", list)
	}
	if list[1].W8BenURL != w.W8BenURL || time.Since(list[1].CreatedAt.Time) > time.Minute {
		t.Errorf("listed form %+v, submitted %+v", list[1], w)
	}

	// The link opens the form without credentials.
	resp, err := http.Get(w.W8BenURL)
	if err != nil {
		t.Fatal(err)
	}
	doc, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(doc), w.ID.String()) || !strings.Contains(string(doc), "W-8BEN") {
		t.Errorf("GET %s: %d %q", w.W8BenURL, resp.StatusCode, doc)
	}
	resp, err = http.Get(r.BaseURL + engine.W8BENFormPath + uuid.NewString())
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("an unknown form: %d, want 404", resp.StatusCode)
	}
}

func TestProofOfAddressAttempts(t *testing.T) {
	r := startTest(t, Config{Seed: 23})
	c := recordsClient(t, r, "operator")
	all := allPoA(t, c, api.TimeRangeFilter{})
	if len(all) < 4 {
		t.Fatalf("%d proof-of-address attempts, want a few in every state", len(all))
	}
	kinds := map[string]int{}
	for i, a := range all {
		kinds[a.Status+"/"+a.Result]++
		if i > 0 && a.CreatedAt.After(all[i-1].CreatedAt.Time) {
			t.Errorf("attempt %d is newer than the one before: the list must be newest first", i)
		}
		if a.UploadedPoAID == uuid.Nil || a.UpdatedAt.Before(a.CreatedAt.Time) {
			t.Errorf("attempt %+v", a)
		}
		switch a.Status {
		case "COMPLETED":
			if (a.Result != "APPROVED" && a.Result != "REJECTED") || a.ResultMessage == "" {
				t.Errorf("completed attempt %s: result %q message %q", a.ID, a.Result, a.ResultMessage)
			}
		case "PENDING", "PROCESSING":
			if a.Result != "" || a.ResultMessage != "" {
				t.Errorf("%s attempt %s already has a result %q", a.Status, a.ID, a.Result)
			}
		default:
			t.Errorf("attempt %s in unknown state %q", a.ID, a.Status)
		}
	}
	for _, k := range []string{"PENDING/", "PROCESSING/", "COMPLETED/APPROVED", "COMPLETED/REJECTED"} {
		if kinds[k] == 0 {
			t.Errorf("no %s attempt in the demo data (%v)", k, kinds)
		}
	}

	// Time window: createdAfter inclusive, createdBefore exclusive.
	pick := all[len(all)/2]
	from := time.Unix(pick.CreatedAt.Unix(), 0)
	after := allPoA(t, c, api.TimeRangeFilter{CreatedAfter: from})
	beforeList := allPoA(t, c, api.TimeRangeFilter{CreatedBefore: from})
	if len(after)+len(beforeList) != len(all) || !slices.ContainsFunc(after, func(a api.ProofOfAddressAttempt) bool { return a.ID == pick.ID }) {
		t.Errorf("window split at %d: %d after + %d before, of %d", from.Unix(), len(after), len(beforeList), len(all))
	}
	for _, a := range after {
		if a.CreatedAt.Before(from) {
			t.Errorf("createdAfter=%d returned an attempt of %v", from.Unix(), a.CreatedAt)
		}
	}
	both := allPoA(t, c, api.TimeRangeFilter{CreatedAfter: from, CreatedBefore: from.Add(time.Second)})
	if len(both) != 1 || both[0].ID != pick.ID {
		t.Errorf("a one-second window around %s: %d attempts", pick.ID, len(both))
	}
	raw := r.client(t, "operator")
	for _, q := range []string{"createdAfter=last-week", "createdBefore=1.5", "createdAfter=-3", "cursor=garbage"} {
		got, out := raw.do("GET", "/v2/account/address/proof-of-address/attempts/?"+q, nil)
		if got != http.StatusBadRequest {
			t.Errorf("%s: %d %s, want 400", q, got, out)
		}
	}
	if msg := raw.wantError("GET", "/v2/account/address/proof-of-address/attempts/?createdAfter=last-week", nil, http.StatusBadRequest, engine.CodeInvalidField); !strings.Contains(msg, "createdAfter") {
		t.Errorf("message %q does not name createdAfter", msg)
	}

	// Pages of 50, newest first, no attempt twice.
	now := time.Now().UTC()
	main := r.Server.eng.Main()
	r.Server.eng.Edit(func() {
		for i := range 70 {
			at := now.Add(-time.Duration(i) * time.Minute)
			a := &records.ProofOfAddressAttempt{ID: uuid.New(), UploadedPoAID: uuid.New(), Status: "PENDING", CreatedAt: records.NewTime(at), UpdatedAt: records.NewTime(at)}
			r.Server.eng.ProofsOfAddress().Put(main, at, a.ID, a)
		}
	})
	first, err := c.ListProofOfAddressAttempts(testCtx(t), api.TimeRangeFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(first.Items) != engine.PageSize || first.Cursor == "" {
		t.Fatalf("first page: %d attempts, cursor %q", len(first.Items), first.Cursor)
	}
	paged := allPoA(t, c, api.TimeRangeFilter{})
	seen := map[uuid.UUID]bool{}
	for _, a := range paged {
		if seen[a.ID] {
			t.Fatalf("attempt %s on two pages", a.ID)
		}
		seen[a.ID] = true
	}
	if len(paged) != len(all)+70 {
		t.Errorf("walked %d attempts, want %d", len(paged), len(all)+70)
	}
}

func TestComplianceWritesNeedWriteAccess(t *testing.T) {
	r := startTest(t, Config{Seed: 24})
	op := recordsClient(t, r, "operator")
	ubos := allUBOs(t, op, uuid.Nil)
	forms, err := op.ListW8BENs(testCtx(t), uuid.Nil)
	if err != nil {
		t.Fatal(err)
	}
	for name, code := range map[string]string{"viewer": engine.CodeForbidden, "frozen": engine.CodeFrozen} {
		c := recordsClient(t, r, name)
		_, err := c.CreateUBO(testCtx(t), uuid.Nil, goodUBO())
		wantAPIError(t, err, http.StatusForbidden, code, "")
		if !errors.Is(err, api.ErrForbidden) {
			t.Errorf("%s: %v is not api.ErrForbidden", name, err)
		}
		_, err = c.SubmitW8BEN(testCtx(t), uuid.Nil, api.W8BENRequest{UseDigitalSignature: true})
		wantAPIError(t, err, http.StatusForbidden, code, "")
		// Reading stays open to them.
		if got := allUBOs(t, c, uuid.Nil); len(got) != len(ubos) {
			t.Errorf("%s lists %d UBOs, want %d", name, len(got), len(ubos))
		}
	}
	// Refused before the body is even looked at.
	raw := r.client(t, "viewer")
	raw.wantError("POST", "/v2/kyc/w8ben/", `{}`, http.StatusForbidden, engine.CodeForbidden)
	raw.wantError("POST", "/v2/account/ubos/", `{}`, http.StatusForbidden, engine.CodeForbidden)

	if got := allUBOs(t, op, uuid.Nil); len(got) != len(ubos) {
		t.Errorf("refused writes stored UBOs: %d, had %d", len(got), len(ubos))
	}
	if got, _ := op.ListW8BENs(testCtx(t), uuid.Nil); len(got) != len(forms) {
		t.Errorf("refused writes stored W-8BEN forms: %d, had %d", len(got), len(forms))
	}
}

func TestComplianceSubAccountScope(t *testing.T) {
	r := startTest(t, Config{Seed: 25})
	c := recordsClient(t, r, "operator")
	subA, subB := uuid.MustParse(r.Creds.SubAccounts[0].ID), uuid.MustParse(r.Creds.SubAccounts[1].ID)

	id, err := c.CreateUBO(testCtx(t), subA, goodUBO())
	if err != nil {
		t.Fatal(err)
	}
	form, err := c.SubmitW8BEN(testCtx(t), subA, api.W8BENRequest{UseDigitalSignature: true})
	if err != nil {
		t.Fatal(err)
	}
	hasUBO := func(sub uuid.UUID) bool {
		return slices.ContainsFunc(allUBOs(t, c, sub), func(u api.UBO) bool { return u.ID == id })
	}
	hasForm := func(sub uuid.UUID) bool {
		list, err := c.ListW8BENs(testCtx(t), sub)
		if err != nil {
			t.Fatal(err)
		}
		return slices.ContainsFunc(list, func(w api.W8BEN) bool { return w.ID == form.ID })
	}
	if !hasUBO(subA) || !hasForm(subA) {
		t.Fatal("the sub-account does not list its own new records")
	}
	if hasUBO(uuid.Nil) || hasUBO(subB) || hasForm(uuid.Nil) || hasForm(subB) {
		t.Fatal("a sub-account's new records are listed in another account")
	}

	// Every account's demo records are its own.
	owner := map[uuid.UUID]string{}
	for _, acct := range append([]uuid.UUID{uuid.Nil}, subA, subB, uuid.MustParse(r.Creds.SubAccounts[2].ID)) {
		name := acct.String()
		ubos := allUBOs(t, c, acct)
		if acct != subA && (len(ubos) < 1 || len(ubos) > 3) {
			t.Errorf("account %s has %d demo UBOs, want 1-3", name, len(ubos))
		}
		forms, err := c.ListW8BENs(testCtx(t), acct)
		if err != nil {
			t.Fatal(err)
		}
		if acct != subA && len(forms) > 2 {
			t.Errorf("account %s has %d demo W-8BEN forms, want 0-2", name, len(forms))
		}
		var ids []uuid.UUID
		for _, u := range ubos {
			ids = append(ids, u.ID)
		}
		for _, w := range forms {
			ids = append(ids, w.ID)
		}
		for _, a := range allPoA(t, c, api.TimeRangeFilter{SubAccountID: acct}) {
			ids = append(ids, a.ID)
		}
		for _, id := range ids {
			if prev, ok := owner[id]; ok {
				t.Errorf("record %s listed in %s and in %s", id, prev, name)
			}
			owner[id] = name
		}
	}

	// A blacklisted access and a foreign id reach nothing.
	restricted := recordsClient(t, r, "restricted")
	subC := uuid.MustParse(r.Creds.SubAccounts[2].ID)
	_, err = restricted.ListUBOs(testCtx(t), subC, "")
	wantAPIError(t, err, http.StatusForbidden, engine.CodeBlacklisted, "")
	_, err = restricted.CreateUBO(testCtx(t), subC, goodUBO())
	wantAPIError(t, err, http.StatusForbidden, engine.CodeBlacklisted, "")
	_, err = c.ListProofOfAddressAttempts(testCtx(t), api.TimeRangeFilter{SubAccountID: uuid.New()})
	if !errors.Is(err, api.ErrNotFound) {
		t.Errorf("attempts of a foreign sub-account: %v, want not found", err)
	}
	_, err = c.SubmitW8BEN(testCtx(t), uuid.New(), api.W8BENRequest{UseDigitalSignature: true})
	if !errors.Is(err, api.ErrNotFound) {
		t.Errorf("a W-8BEN for a foreign sub-account: %v, want not found", err)
	}
}

func TestComplianceDemoIsDeterministic(t *testing.T) {
	t.Parallel() // several seeded sandboxes; runs beside the other long tests
	// Every sandbox builds its demo at the same instant (the records are
	// dated from it); once built it runs on the wall clock, which its
	// clients sign with: under a slow machine the four builds take longer
	// than the 30 s a signature may be off.
	fixed := time.Now().UTC().Truncate(time.Second)
	ids := func(seed int64) string {
		var built atomic.Bool
		clock := func() time.Time {
			if built.Load() {
				return time.Now()
			}
			return fixed
		}
		r := startTest(t, Config{Seed: seed, Now: clock})
		built.Store(true)
		c := recordsClient(t, r, "operator")
		var b strings.Builder
		for _, sub := range append([]uuid.UUID{uuid.Nil}, uuid.MustParse(r.Creds.SubAccounts[0].ID)) {
			for _, u := range allUBOs(t, c, sub) {
				b.WriteString(u.ID.String() + u.FullName + u.TaxIDNumber + u.CreatedAt.String())
			}
			forms, err := c.ListW8BENs(testCtx(t), sub)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range forms {
				b.WriteString(w.ID.String())
			}
			for _, a := range allPoA(t, c, api.TimeRangeFilter{SubAccountID: sub}) {
				b.WriteString(a.ID.String() + a.Status + a.Result + a.ResultMessage + strconv.FormatInt(a.CreatedAt.UnixNano(), 10))
			}
		}
		return b.String()
	}
	if a, b := ids(8), ids(8); a == "" || a != b {
		t.Error("the same seed gave different compliance records")
	}
	if ids(8) == ids(9) {
		t.Error("seeds 8 and 9 gave the same compliance records")
	}
}

// Records survive a restart with --state, and a form's link follows the
// address the sandbox is served at.
func TestComplianceStateSurvivesRestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	r1, err := Start(Config{Seed: 26, StatePath: path}, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	c1 := recordsClient(t, r1, "operator")
	id, err := c1.CreateUBO(testCtx(t), uuid.Nil, goodUBO())
	if err != nil {
		t.Fatal(err)
	}
	form, err := c1.SubmitW8BEN(testCtx(t), uuid.Nil, api.W8BENRequest{UseDigitalSignature: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := r1.Close(); err != nil {
		t.Fatal(err)
	}

	r2 := startTest(t, Config{Seed: 26, StatePath: path})
	c2 := recordsClient(t, r2, "operator")
	if !slices.ContainsFunc(allUBOs(t, c2, uuid.Nil), func(u api.UBO) bool { return u.ID == id }) {
		t.Error("a UBO created before the restart is gone")
	}
	forms, err := c2.ListW8BENs(testCtx(t), uuid.Nil)
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(forms, func(w api.W8BEN) bool { return w.ID == form.ID })
	if i < 0 {
		t.Fatal("a W-8BEN submitted before the restart is gone")
	}
	if want := r2.BaseURL + engine.W8BENFormPath + form.ID.String(); forms[i].W8BenURL != want {
		t.Errorf("after the restart the form links to %s, want %s", forms[i].W8BenURL, want)
	}
	resp, err := http.Get(forms[i].W8BenURL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("GET %s: %d", forms[i].W8BenURL, resp.StatusCode)
	}
}
