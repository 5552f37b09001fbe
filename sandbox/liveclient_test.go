//go:build liveclient

package sandbox_test

import (
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tesouro-treasury/tesouro/sandbox"
)

// The measure of issue #13: the requests an open-source client that runs
// against the live service every night sends (the Avenia client of
// pendulum-chain/vortex, packages/shared/src/services/brla/), replayed
// against the sandbox in its order, each answer checked with that
// client's own response schemas re-expressed here. Only the fields the
// client consumes are checked; extra fields pass, as in its loose schemas.
//
//	go test -tags liveclient -run TestLiveClientReplay -v ./sandbox
//
// It prints how many calls succeed. It reads nothing of the sandbox's own
// types on purpose: it speaks the wire as that client does.

var decimalString = regexp.MustCompile(`^\d+(\.\d+)?$`)

// Enumerations of the client's schemas.
var (
	liveFeeTypes      = []string{"Markup Fee", "Gas Fee", "Conversion Fee", "In Fee", "Out Fee"}
	liveTicketStates  = []string{"ON-HOLD", "PENDING", "UNPAID", "PROCESSING", "PAID", "FAILED", "PARTIAL-FAILED", "CANCELED"}
	liveAttemptStates = []string{"PENDING", "PROCESSING", "COMPLETED", "EXPIRED"}
	liveAttemptResult = []string{"APPROVED", "REJECTED", ""}
	liveDocumentTypes = []string{"ID", "DRIVERS-LICENSE", "PASSPORT", "SELFIE", "SELFIE-FROM-LIVENESS", "RESIDENCE-PERMIT", "CERTIFICATE-OF-INCORPORATION", "COMPANY-TAX-IDENTIFICATION-DOCUMENT"}
)

// shape is a tiny schema checker over decoded JSON.
type shape struct{ errs []string }

func (s *shape) fail(path, format string, args ...any) {
	s.errs = append(s.errs, path+": "+fmt.Sprintf(format, args...))
}

func (s *shape) obj(path string, v any) map[string]any {
	m, ok := v.(map[string]any)
	if !ok {
		s.fail(path, "want an object, got %T", v)
		return map[string]any{}
	}
	return m
}

func (s *shape) arr(path string, v any) []any {
	a, ok := v.([]any)
	if !ok {
		s.fail(path, "want an array, got %T", v)
	}
	return a
}

func (s *shape) str(path string, v any) string {
	str, ok := v.(string)
	if !ok {
		s.fail(path, "want a string, got %T", v)
	}
	return str
}

func (s *shape) nonEmpty(path string, v any) string {
	str := s.str(path, v)
	if str == "" {
		s.fail(path, "empty")
	}
	return str
}

func (s *shape) dec(path string, v any) {
	if str := s.str(path, v); !decimalString.MatchString(str) {
		s.fail(path, "%q is not a decimal string", str)
	}
}

func (s *shape) enum(path string, v any, allowed []string) {
	if str := s.str(path, v); !slices.Contains(allowed, str) {
		s.fail(path, "%q not in %v", str, allowed)
	}
}

func (s *shape) boolean(path string, v any) {
	if _, ok := v.(bool); !ok {
		s.fail(path, "want a boolean, got %T", v)
	}
}

func (s *shape) intRange(path string, v any, lo, hi float64) {
	n, ok := v.(float64)
	if !ok || n != float64(int64(n)) || n < lo || n > hi {
		s.fail(path, "want an integer in [%v, %v], got %v", lo, hi, v)
	}
}

func (s *shape) dateTime(path string, v any) {
	if _, err := time.Parse(time.RFC3339Nano, s.str(path, v)); err != nil {
		s.fail(path, "not a date-time with offset: %v", err)
	}
}

func (s *shape) optStr(path string, m map[string]any, key string) {
	if v, ok := m[key]; ok && v != nil {
		s.str(path+"."+key, v)
	}
}

// Schemas of the client, one per answer it consumes.
func quoteSchema(s *shape, v any) {
	m := s.obj("$", v)
	for i, f := range s.arr("appliedFees", m["appliedFees"]) {
		fm := s.obj(fmt.Sprintf("appliedFees[%d]", i), f)
		s.dec(fmt.Sprintf("appliedFees[%d].amount", i), fm["amount"])
		s.enum(fmt.Sprintf("appliedFees[%d].type", i), fm["type"], liveFeeTypes)
	}
	s.dec("inputAmount", m["inputAmount"])
	s.dec("outputAmount", m["outputAmount"])
	s.nonEmpty("quoteToken", m["quoteToken"])
}

func pixInputTicketSchema(s *shape, v any) {
	m := s.obj("$", v)
	s.nonEmpty("brCode", m["brCode"])
	s.nonEmpty("id", m["id"])
}

func pixOutputTicketSchema(s *shape, v any) {
	m := s.obj("$", v)
	s.nonEmpty("id", m["id"])
	// The client refuses a payout answer that looks like a pay-in one.
	if _, ok := m["brlPixInputInfo"]; ok {
		s.fail("brlPixInputInfo", "present at the top level of a payout answer")
	}
}

func ticketSchema(s *shape, v any) {
	t := s.obj("ticket", s.obj("$", v)["ticket"])
	s.enum("ticket.status", t["status"], liveTicketStates)
}

func ticketsSchema(s *shape, v any) {
	for i, t := range s.arr("tickets", s.obj("$", v)["tickets"]) {
		tm := s.obj(fmt.Sprintf("tickets[%d]", i), t)
		s.nonEmpty(fmt.Sprintf("tickets[%d].id", i), tm["id"])
		s.enum(fmt.Sprintf("tickets[%d].status", i), tm["status"], liveTicketStates)
	}
}

func limitsSchema(s *shape, v any) {
	li := s.obj("limitInfo", s.obj("$", v)["limitInfo"])
	for i, l := range s.arr("limitInfo.limits", li["limits"]) {
		p := fmt.Sprintf("limitInfo.limits[%d]", i)
		lm := s.obj(p, l)
		s.nonEmpty(p+".currency", lm["currency"])
		s.dec(p+".maxFiatIn", lm["maxFiatIn"])
		s.dec(p+".maxFiatOut", lm["maxFiatOut"])
		u := s.obj(p+".usedLimit", lm["usedLimit"])
		s.intRange(p+".usedLimit.month", u["month"], 1, 12)
		s.dec(p+".usedLimit.usedFiatIn", u["usedFiatIn"])
		s.dec(p+".usedLimit.usedFiatOut", u["usedFiatOut"])
		s.intRange(p+".usedLimit.year", u["year"], 2000, 3000)
	}
}

func balancesSchema(s *shape, v any) {
	b := s.obj("balances", s.obj("$", v)["balances"])
	s.dec("balances.BRLA", b["BRLA"])
}

func accountInfoSchema(s *shape, v any) {
	m := s.obj("$", v)
	ai := s.obj("accountInfo", m["accountInfo"])
	s.enum("accountInfo.identityStatus", ai["identityStatus"], []string{"NOT-IDENTIFIED", "CONFIRMED"})
	s.nonEmpty("brCode", m["brCode"])
	for i, w := range s.arr("wallets", m["wallets"]) {
		wm := s.obj(fmt.Sprintf("wallets[%d]", i), w)
		s.nonEmpty(fmt.Sprintf("wallets[%d].chain", i), wm["chain"])
		s.nonEmpty(fmt.Sprintf("wallets[%d].walletAddress", i), wm["walletAddress"])
	}
}

func pixKeyDataSchema(s *shape, v any) { s.nonEmpty("taxId", s.obj("$", v)["taxId"]) }

func documentSchema(s *shape, path string, v any) {
	d := s.obj(path, v)
	s.enum(path+".documentType", d["documentType"], liveDocumentTypes)
	s.nonEmpty(path+".id", d["id"])
	s.boolean(path+".ready", d["ready"])
	s.nonEmpty(path+".uploadStatusFront", d["uploadStatusFront"])
	for _, k := range []string{"createdAt", "updatedAt", "uploadErrorBack", "uploadErrorFront", "uploadStatusBack", "uploadURLBack", "uploadURLFront"} {
		s.optStr(path, d, k)
	}
}

func documentResponseSchema(s *shape, v any) {
	documentSchema(s, "document", s.obj("$", v)["document"])
}

func documentsSchema(s *shape, v any) {
	m := s.obj("$", v)
	if c, ok := m["cursor"]; ok && c != nil {
		s.str("cursor", c)
	}
	for i, d := range s.arr("documents", m["documents"]) {
		documentSchema(s, fmt.Sprintf("documents[%d]", i), d)
	}
}

func documentUploadSchema(s *shape, v any) {
	m := s.obj("$", v)
	s.nonEmpty("id", m["id"])
	s.nonEmpty("uploadURLFront", m["uploadURLFront"])
	s.optStr("$", m, "uploadURLBack")
}

func idSchema(s *shape, v any) { s.nonEmpty("id", s.obj("$", v)["id"]) }

func attemptSchema(s *shape, path string, v any) {
	a := s.obj(path, v)
	s.dateTime(path+".createdAt", a["createdAt"])
	s.nonEmpty(path+".id", a["id"])
	s.nonEmpty(path+".levelName", a["levelName"])
	if r, ok := a["result"]; ok && r != nil {
		s.enum(path+".result", r, liveAttemptResult)
	}
	s.optStr(path, a, "resultMessage")
	if r, ok := a["retryable"]; ok && r != nil {
		s.boolean(path+".retryable", r)
	}
	s.enum(path+".status", a["status"], liveAttemptStates)
	if d, ok := a["submissionData"]; ok && d != nil {
		s.obj(path+".submissionData", d)
	}
	s.dateTime(path+".updatedAt", a["updatedAt"])
}

func attemptsSchema(s *shape, v any) {
	m := s.obj("$", v)
	if c, ok := m["cursor"]; ok && c != nil {
		s.str("cursor", c)
	}
	for i, a := range s.arr("attempts", m["attempts"]) {
		attemptSchema(s, fmt.Sprintf("attempts[%d]", i), a)
	}
}

func attemptResponseSchema(s *shape, v any) { attemptSchema(s, "attempt", s.obj("$", v)["attempt"]) }

func webhookRegistrationSchema(s *shape, v any) {
	s.nonEmpty("webhookId", s.obj("$", v)["webhookId"])
}

func webhooksSchema(s *shape, v any) {
	for i, w := range s.arr("webhooks", s.obj("$", v)["webhooks"]) {
		p := fmt.Sprintf("webhooks[%d]", i)
		wm := s.obj(p, w)
		s.nonEmpty(p+".id", wm["id"])
		for j, sub := range s.arr(p+".subscriptions", wm["subscriptions"]) {
			s.nonEmpty(fmt.Sprintf("%s.subscriptions[%d]", p, j), sub)
		}
		if u, err := url.Parse(s.str(p+".url", wm["url"])); err != nil || u.Scheme == "" || u.Host == "" {
			s.fail(p+".url", "not a URL")
		}
	}
}

func eventsSchema(s *shape, v any) {
	for i, e := range s.arr("events", s.obj("$", v)["events"]) {
		em := s.obj(fmt.Sprintf("events[%d]", i), e)
		s.nonEmpty(fmt.Sprintf("events[%d].id", i), em["id"])
		s.nonEmpty(fmt.Sprintf("events[%d].subscription", i), em["subscription"])
	}
}

func subAccountSchema(s *shape, v any) {
	m := s.obj("$", v)
	s.nonEmpty("subAccountId", m["subAccountId"])
	ai := s.obj("accountInfo", m["accountInfo"])
	s.nonEmpty("accountInfo.id", ai["id"])
	s.nonEmpty("accountInfo.accountType", ai["accountType"])
}

// TestLiveClientReplay replays the client's calls in its order; a call
// may use what an earlier answer gave (an id, a token).
func TestLiveClientReplay(t *testing.T) {
	e := newEnv(t, sandbox.Config{Seed: 7})
	e.clock.Add(5 * time.Second)
	r := e.rawAs(t, "operator")
	sub := e.subs[0].String()
	got := map[string]map[string]any{}

	type step struct {
		name, method string
		path         func() string
		body         func() string
		schema       func(*shape, any)
	}
	fixed := func(s string) func() string { return func() string { return s } }
	field := func(step, key string) string {
		if m := got[step]; m != nil {
			if v, ok := m[key].(string); ok {
				return v
			}
		}
		return "missing-" + key
	}
	const wallet = "0x52908400098527886E0F7030069857D2E4169EE7"
	steps := []step{
		{"createAveniaSubaccount", "POST", fixed("/v2/account/sub-accounts"), fixed(`{"accountType":"INDIVIDUAL","name":"Vortex user 1"}`), idSchema},
		{"getSubaccount", "GET", func() string { return "/v2/account/sub-accounts/" + field("createAveniaSubaccount", "id") }, nil, subAccountSchema},
		{"subaccountInfo", "GET", fixed("/v2/account/account-info?subAccountId=" + sub), nil, accountInfoSchema},
		{"getSubaccountUsedLimit", "GET", fixed("/v2/account/limits?subAccountId=" + sub), nil, limitsSchema},
		{"getAccountBalance", "GET", fixed("/v2/account/balances?subAccountId=" + sub), nil, balancesSchema},
		{"createPayInQuote", "GET", fixed("/v2/account/quote/fixed-rate?" + url.Values{
			"inputAmount": {"150.00"}, "inputCurrency": {"BRL"}, "inputPaymentMethod": {"PIX"}, "inputThirdParty": {"false"},
			"outputCurrency": {"BRLA"}, "outputPaymentMethod": {"INTERNAL"}, "outputThirdParty": {"false"}, "subAccountId": {sub},
		}.Encode()), nil, quoteSchema},
		{"createPixInputTicket (INTERNAL, nil wallet id)", "POST", fixed("/v2/account/tickets/?subAccountId=" + sub), func() string {
			return `{"quoteToken":"` + field("createPayInQuote", "quoteToken") + `","ticketBrlPixInput":{"additionalData":"vortex ramp 1"},"ticketBlockchainOutput":{"beneficiaryWalletId":"00000000-0000-0000-0000-000000000000"}}`
		}, pixInputTicketSchema},
		{"createPayInQuote (to a wallet)", "GET", fixed("/v2/account/quote/fixed-rate?" + url.Values{
			"inputAmount": {"80.00"}, "inputCurrency": {"BRL"}, "inputPaymentMethod": {"PIX"}, "inputThirdParty": {"false"},
			"outputCurrency": {"BRLA"}, "outputPaymentMethod": {"POLYGON"}, "outputThirdParty": {"false"}, "subAccountId": {sub},
		}.Encode()), nil, quoteSchema},
		{"createPixInputTicket (inline wallet)", "POST", fixed("/v2/account/tickets/?subAccountId=" + sub), func() string {
			return `{"quoteToken":"` + field("createPayInQuote (to a wallet)", "quoteToken") + `","ticketBrlPixInput":{"additionalData":"vortex ramp 2"},"ticketBlockchainOutput":{"walletChain":"POLYGON","walletAddress":"` + wallet + `"}}`
		}, pixInputTicketSchema},
		{"getAveniaPayinTicket", "GET", func() string {
			return "/v2/account/tickets/" + field("createPixInputTicket (INTERNAL, nil wallet id)", "id") + "?subAccountId=" + sub
		}, nil, ticketSchema},
		{"getAveniaPayinTickets (Unix seconds)", "GET", fixed("/v2/account/tickets/?subAccountId=" + sub + "&createdAfter=" + strconv.FormatInt(e.clock.Now().Add(-time.Hour).Unix(), 10)), nil, ticketsSchema},
		{"getAveniaPayinTickets (UNPAID)", "GET", fixed("/v2/account/tickets/?subAccountId=" + sub + "&status=UNPAID"), nil, ticketsSchema},
		{"createPayOutQuote", "GET", fixed("/v2/account/quote/fixed-rate?" + url.Values{
			"blockchainSendMethod": {"PERMIT"}, "inputCurrency": {"BRLA"}, "inputPaymentMethod": {"INTERNAL"}, "inputThirdParty": {"false"},
			"outputAmount": {"25.00"}, "outputCurrency": {"BRL"}, "outputPaymentMethod": {"PIX"}, "outputThirdParty": {"true"}, "subAccountId": {sub},
		}.Encode()), nil, quoteSchema},
		{"validatePixKey", "GET", fixed("/v2/account/bank-accounts/brl/pix-info?pixKey=" + url.QueryEscape("fornecedor@example.com") + "&subAccountId=" + sub), nil, pixKeyDataSchema},
		{"createPixOutputTicket (pixKey)", "POST", fixed("/v2/account/tickets/?subAccountId=" + sub), func() string {
			return `{"quoteToken":"` + field("createPayOutQuote", "quoteToken") + `","ticketBrlPixOutput":{"pixKey":"fornecedor@example.com"}}`
		}, pixOutputTicketSchema},
		{"getAveniaPayoutTicket", "GET", func() string {
			return "/v2/account/tickets/" + field("createPixOutputTicket (pixKey)", "id") + "?subAccountId=" + sub
		}, nil, ticketSchema},
		// A token input names its send method, PERMIT by the client's
		// default (service.md §8.4).
		{"createMoonbeamQuote", "GET", fixed("/v2/account/quote/fixed-rate?" + url.Values{
			"blockchainSendMethod": {"PERMIT"}, "inputAmount": {"10.00"}, "inputCurrency": {"BRLA"}, "inputPaymentMethod": {"INTERNAL"}, "inputThirdParty": {"false"},
			"outputCurrency": {"BRLA"}, "outputPaymentMethod": {"MOONBEAM"}, "outputThirdParty": {"false"}, "subAccountId": {sub},
		}.Encode()), nil, quoteSchema},
		{"createUsdmQuote", "GET", fixed("/v2/account/quote/fixed-rate?" + url.Values{
			"inputAmount": {"10.00"}, "inputCurrency": {"BRL"}, "inputPaymentMethod": {"PIX"}, "inputThirdParty": {"false"},
			"outputCurrency": {"USDM"}, "outputPaymentMethod": {"INTERNAL"}, "outputThirdParty": {"false"}, "subAccountId": {sub},
		}.Encode()), nil, quoteSchema},
		{"generateBrCode", "GET", fixed("/v2/account/bank-accounts/brl/static-br-code?subAccountId=" + sub + "&amount=15.00&referenceLabel=ramp42"), nil, func(s *shape, v any) {
			s.nonEmpty("brCode", s.obj("$", v)["brCode"])
		}},
		{"getDocumentUploadUrls", "POST", func() string { return "/v2/documents/?subAccountId=" + field("createAveniaSubaccount", "id") }, fixed(`{"documentType":"ID","isDoubleSided":true}`), documentUploadSchema},
		{"getDocument", "GET", func() string {
			return "/v2/documents/" + field("getDocumentUploadUrls", "id") + "?subAccountId=" + field("createAveniaSubaccount", "id")
		}, nil, documentResponseSchema},
		{"getDocuments", "GET", func() string { return "/v2/documents/?subAccountId=" + field("createAveniaSubaccount", "id") }, nil, documentsSchema},
		{"submitKycLevel1", "POST", fixed("/v2/kyc/new-level-1/api"), func() string {
			return `{"subAccountId":"` + field("createAveniaSubaccount", "id") + `","fullName":"Maria Silva","dateOfBirth":"1990-05-01","countryOfTaxId":"BRA","taxIdNumber":"52998224725","email":"maria@example.com","country":"BRA","state":"SP","city":"Sao Paulo","zipCode":"01310-100","streetAddress":"Av Paulista 1000","uploadedSelfieId":"` + field("getDocumentUploadUrls", "id") + `","uploadedDocumentId":"` + field("getDocumentUploadUrls", "id") + `"}`
		}, idSchema},
		{"getKycAttempts", "GET", func() string { return "/v2/kyc/attempts?subAccountId=" + field("createAveniaSubaccount", "id") }, nil, attemptsSchema},
		{"getKycAttempt", "GET", func() string {
			return "/v2/kyc/attempts/" + field("submitKycLevel1", "id") + "?subAccountId=" + field("createAveniaSubaccount", "id")
		}, nil, attemptResponseSchema},
		{"registerWebhook", "POST", fixed("/v2/notifications/webhooks/"), fixed(`{"webhookUrl":"https://vortex.example.com/hooks/avenia","subscriptions":["*"]}`), webhookRegistrationSchema},
		{"listWebhooks", "GET", fixed("/v2/notifications/webhooks/"), nil, webhooksSchema},
		{"getAllEventsByUser", "GET", fixed("/v2/notifications/webhooks/events?subAccountId=" + sub + "&subscription=TICKET"), nil, eventsSchema},
	}

	ok := 0
	var failed []string
	for _, st := range steps {
		body := ""
		if st.body != nil {
			body = st.body()
		}
		status, out := r.send(t, st.method, st.path(), body, time.Time{}, nil)
		var v any
		s := &shape{}
		switch {
		case status < 200 || status > 299:
			s.fail("HTTP", "%d %s", status, strings.TrimSpace(string(out)))
		case json.Unmarshal(out, &v) != nil:
			s.fail("$", "not JSON: %q", out)
		default:
			st.schema(s, v)
			if m, isObj := v.(map[string]any); isObj {
				got[st.name] = m
			}
		}
		if len(s.errs) == 0 {
			ok++
			t.Logf("ok   %s %s", st.method, st.name)
			continue
		}
		failed = append(failed, st.name)
		t.Logf("FAIL %s %s: %s", st.method, st.name, strings.Join(s.errs, "; "))
	}
	t.Logf("live client replay: %d of %d calls succeed", ok, len(steps))
	if ok != len(steps) {
		t.Errorf("%d of %d calls fail: %s", len(steps)-ok, len(steps), strings.Join(failed, ", "))
	}
}
