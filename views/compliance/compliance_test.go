package compliance

import (
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/views/internal/fakeservice"
)

func fillUBO(h harness) {
	f := h.screen().Form()
	f.SetValue("fullName", "Ana Lima")
	f.SetValue("dateOfBirth", "1980-02-29")
	f.SetValue("countryOfTaxId", "BRA")
	f.SetValue("taxIdNumber", "52998224725")
	f.SetValue("hasControl", "CEO")
}

func TestUBOFormAppliesTheSeedRules(t *testing.T) {
	svc := &fakeservice.Service{}
	h := newHarness(t, svc, api.Permissions{})
	h.Key("n")
	f := h.screen().Form()
	if f == nil {
		t.Fatal("n did not open the UBO form")
	}
	h.Key("ctrl+s")
	for _, k := range []string{"fullName", "dateOfBirth", "countryOfTaxId", "taxIdNumber", "hasControl"} {
		if !strings.Contains(f.Error(k), "required") {
			t.Errorf("%s: error %q, want required", k, f.Error(k))
		}
	}
	fillUBO(h)
	bad := []struct{ key, value, want string }{
		{"dateOfBirth", "1990-13-01", "calendar date"},
		{"dateOfBirth", "21/11/1990", "YYYY-MM-DD"},
		{"dateOfBirth", "2030-01-01", "future"},
		{"dateOfBirth", "2026-11-22", "future"}, // the day after the session's clock
		{"countryOfTaxId", "BR", "3"},
		{"countryOfTaxId", "XYZ", ""},
		{"state", "SAO", "2-letter"},
		{"state", "S1", "2-letter"},
		{"taxIdNumber", "529.982.247-24", "CPF"},
		{"country", "Brazil", ""},
		{"documentCountry", "ZZZ", ""},
		{"percentageOfOwnership", "120", "at most 100"},
		{"percentageOfOwnership", "1e2", "plain number"},
		{"uploadedIdentificationId", "abc", "UUID"},
	}
	for _, c := range bad {
		fillUBO(h)
		f.SetValue(c.key, c.value)
		h.Key("ctrl+s")
		if len(svc.UBOSent) != 0 {
			t.Fatalf("%s=%q was sent", c.key, c.value)
		}
		if e := f.Error(c.key); e == "" || !strings.Contains(e, c.want) {
			t.Errorf("%s=%q: error %q, want one mentioning %q", c.key, c.value, e, c.want)
		}
		f.SetValue(c.key, "")
	}
	fillUBO(h)
	f.SetValue("state", "sp")
	f.SetValue("country", "bra")
	f.SetValue("percentageOfOwnership", "12,5")
	docID := uuid.New()
	f.SetValue("uploadedIdentificationId", docID.String())
	h.Key("ctrl+s")
	if len(svc.UBOSent) != 1 {
		t.Fatalf("sent %d UBOs, want 1 (form error %q)", len(svc.UBOSent), f.FormError())
	}
	got := svc.UBOSent[0]
	if got.TaxIDNumber != "52998224725" || got.DateOfBirth != "1980-02-29" || got.CountryOfTaxID != "BRA" || got.State != "SP" || got.Country != "BRA" ||
		got.PercentageOfOwnership != "12.5" || got.UploadedIdentificationID == nil || *got.UploadedIdentificationID != docID {
		t.Fatalf("request = %+v", got)
	}
	if h.screen().Form() != nil || !strings.Contains(h.PlainView(), "Ana Lima") {
		t.Fatalf("the new UBO is not listed:\n%s", h.PlainView())
	}
	es := h.Journal()
	if len(es) != 1 || es[0].Action != "create-ubo" || es[0].Outcome != "submitted" || es[0].IDs["ubo"] == "" {
		t.Fatalf("journal = %+v", es)
	}
}

func TestW8BENSendsNullsForUnsetFieldsAndShowsTheURL(t *testing.T) {
	svc := &fakeservice.Service{}
	h := newHarness(t, svc, api.Permissions{})
	h.Key("right", "n")
	f := h.screen().Form()
	if f.Visible("treatyArticle") {
		t.Fatal("treaty fields shown without a treaty claim")
	}
	h.Key("ctrl+s")
	if len(svc.W8Sent) != 1 {
		t.Fatalf("sent %d, want 1", len(svc.W8Sent))
	}
	js := svc.W8JSON[0]
	for _, want := range []string{`"useDigitalSignature":true`, `"foreignTinNotLegallyRequired":null`, `"isClaimingTaxTreatyBenefits":null`,
		`"treatyArticle":null`, `"usTin":null`, `"mailingAddress":null`} {
		if !strings.Contains(js, want) {
			t.Errorf("body lacks %s: %s", want, js)
		}
	}
	url := svc.W8BENs[0].W8BenURL
	if v := h.PlainView(); !strings.Contains(v, url) {
		t.Fatalf("the form URL is not on screen:\n%s", v)
	}

	h.Key("n")
	f = h.screen().Form()
	f.SetValue("isClaimingTaxTreatyBenefits", "yes")
	f.SetValue("foreignTinNotLegallyRequired", "no")
	if !f.Visible("treatyArticle") {
		t.Fatal("treaty fields hidden while claiming treaty benefits")
	}
	f.SetValue("treatyArticle", "Article 12")
	f.SetValue("treatyWithholdingRate", "150")
	f.SetValue("mailingAddress.city", "São Paulo")
	h.Key("ctrl+s")
	if len(svc.W8Sent) != 1 || f.Error("treatyWithholdingRate") == "" {
		t.Fatalf("a 150%% rate was accepted: %q", f.Error("treatyWithholdingRate"))
	}
	f.SetValue("treatyWithholdingRate", "15")
	f.SetValue("usTin", "123-45-678")
	h.Key("ctrl+s")
	if f.Error("usTin") == "" {
		t.Fatal("an 8-digit US TIN was accepted")
	}
	f.SetValue("usTin", "123-45-6789")
	h.Key("ctrl+s")
	if !strings.Contains(f.Error("mailingAddress.streetAddress"), "mailing address") {
		t.Fatalf("a partial mailing address was accepted: %q", f.Error("mailingAddress.streetAddress"))
	}
	f.SetValue("mailingAddress.streetAddress", "Av. Paulista 1000")
	f.SetValue("mailingAddress.country", "BRA")
	h.Key("ctrl+s")
	if len(svc.W8Sent) != 2 {
		t.Fatalf("sent %d, want 2", len(svc.W8Sent))
	}
	r := svc.W8Sent[1]
	if r.IsClaimingTaxTreatyBenefits == nil || !*r.IsClaimingTaxTreatyBenefits || r.ForeignTinNotLegallyRequired == nil ||
		*r.ForeignTinNotLegallyRequired || *r.TreatyArticle != "Article 12" || *r.UsTin != "123456789" ||
		r.MailingAddress == nil || r.MailingAddress.City != "São Paulo" || r.TreatyExplanation != nil {
		t.Fatalf("request = %+v", r)
	}
}

func TestProofOfAddressAttemptsListed(t *testing.T) {
	svc := &fakeservice.Service{POA: []api.ProofOfAddressAttempt{{ID: uuid.New(), Status: "COMPLETED", Result: "REJECTED", ResultMessage: "document older than 90 days"}}}
	h := newHarness(t, svc, api.Permissions{})
	h.Key("left")
	v := h.PlainView()
	for _, want := range []string{"Proof of address 1", "COMPLETED", "REJECTED", "document older than 90 days"} {
		if !strings.Contains(v, want) {
			t.Errorf("lacks %q:\n%s", want, v)
		}
	}
	h.Key("n")
	if h.screen().Form() != nil {
		t.Fatal("a form opened on the proof-of-address list")
	}
}

func TestViewOnlyCannotSubmit(t *testing.T) {
	h := newHarness(t, &fakeservice.Service{}, api.Permissions{ViewOnly: true})
	h.Key("n")
	if h.screen().Form() != nil {
		t.Fatal("a view-only access opened the UBO form")
	}
	if !strings.Contains(h.PlainView(), "view-only") {
		t.Fatalf("the reason is not shown:\n%s", h.PlainView())
	}
}

func TestSmallTerminal(t *testing.T) {
	h := newHarness(t, &fakeservice.Service{UBOs: []api.UBO{{ID: uuid.New(), FullName: "Ana"}}}, api.Permissions{})
	for _, sz := range [][2]int{{40, 12}, {5, 2}, {1, 1}, {150, 45}} {
		h.Screen.SetSize(sz[0], sz[1])
		fakeservice.CheckSize(t, h.Screen.View(), sz[0], sz[1])
		h.Key("n", "ctrl+s")
		fakeservice.CheckSize(t, h.Screen.View(), sz[0], sz[1])
		h.Key("esc", "right")
	}
}
