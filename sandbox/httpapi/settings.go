package httpapi

import (
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/tesouro-treasury/tesouro/money"
	"github.com/tesouro-treasury/tesouro/sandbox/delivery"
	"github.com/tesouro-treasury/tesouro/sandbox/engine"
	"github.com/tesouro-treasury/tesouro/sandbox/records"
	"github.com/tesouro-treasury/tesouro/validate"
)

// The rest of the official catalogue (spec/service.md §8.8): the account's
// own BRL bank account, e-mail notifications, payment-session preferences,
// KYC by import token and by the hosted web SDK.

// WebSDKPath is where a web-SDK attempt's hosted page is served, by the
// attempt's id: visiting it completes the attempt.
const WebSDKPath = "/v2/sandbox/kyc/web-sdk/"

// checkPaymentOptions checks a session's (or its preferences') options
// against the catalogue: each pays in with PIX or a chain a currency the
// method carries, and lands INTERNAL as outputCurrency, the session's one
// token; no option twice.
func checkPaymentOptions(opts []records.PaymentOption, outputCurrency string) error {
	if outputCurrency == "" {
		return badRequest(codeMissingField, "outputCurrency: required, the token the owner receives (BRLA, USDC, ...)")
	}
	if !money.IsToken(outputCurrency) || outputCurrency != money.Canonical(outputCurrency) {
		return badRequest(codeInvalidField, "outputCurrency: %q is not a token this service holds in a balance", truncate(outputCurrency, 12))
	}
	if len(opts) == 0 {
		return badRequest(codeMissingField, "paymentOptions: at least one {inputCurrency, inputPaymentMethod, outputCurrency, outputPaymentMethod}")
	}
	for i, o := range opts {
		for _, f := range []struct{ name, v string }{{"inputCurrency", o.InputCurrency}, {"inputPaymentMethod", o.InputPaymentMethod}, {"outputCurrency", o.OutputCurrency}, {"outputPaymentMethod", o.OutputPaymentMethod}} {
			if f.v == "" {
				return badRequest(codeMissingField, "paymentOptions[%d].%s: required", i, f.name)
			}
		}
		switch {
		case o.InputPaymentMethod != "PIX" && !money.IsChain(o.InputPaymentMethod):
			return badRequest(codeInvalidField, "paymentOptions[%d].inputPaymentMethod: %q is not PIX or a chain (%s): a payer pays in from outside", i, truncate(o.InputPaymentMethod, 20), strings.Join(money.Chains(), ", "))
		case o.InputCurrency != money.Canonical(o.InputCurrency) || !money.SupportsMethod(o.InputCurrency, o.InputPaymentMethod):
			return badRequest(codeUnsupportedPair, "paymentOptions[%d]: %s is not paid in by %s (methods of %s: %s)", i, truncate(o.InputCurrency, 12), o.InputPaymentMethod, truncate(o.InputCurrency, 12), strings.Join(money.Methods(o.InputCurrency), ", "))
		case o.OutputPaymentMethod != "INTERNAL":
			return badRequest(codeInvalidField, "paymentOptions[%d].outputPaymentMethod: must be INTERNAL (a session lands in its owner's balance), got %q", i, truncate(o.OutputPaymentMethod, 20))
		case o.OutputCurrency != outputCurrency:
			return badRequest(codeInvalidField, "paymentOptions[%d].outputCurrency: %q, but the session's outputCurrency is %s", i, truncate(o.OutputCurrency, 12), outputCurrency)
		}
		for _, p := range opts[:i] {
			if p.InputCurrency == o.InputCurrency && p.InputPaymentMethod == o.InputPaymentMethod {
				return badRequest(codeInvalidField, "paymentOptions[%d]: %s/%s is listed twice", i, o.InputCurrency, o.InputPaymentMethod)
			}
		}
	}
	return nil
}

// GET /v2/account/bank-accounts/brl[?subAccountId]: where a TED or PIX to
// the operated account lands.
func (s *Server) ownBRLAccount(c *call) error {
	b, err := s.eng.OwnBRLAccount(c.caller())
	if err != nil {
		return err
	}
	return c.reply(http.StatusOK, b)
}

// GET /v2/notifications/email-config
func (s *Server) emailConfig(c *call) error {
	cfg, err := s.eng.EmailConfig(c.caller())
	if err != nil {
		return err
	}
	return c.reply(http.StatusOK, cfg)
}

// PUT /v2/notifications/email-config {email, subscriptions[]}: replaces
// the settings; an empty list e-mails nothing.
func (s *Server) putEmailConfig(c *call) error {
	var req records.EmailConfig
	if err := decodeBody(c, &req); err != nil {
		return err
	}
	if err := c.who.MayManageWebhooks(c.now); err != nil {
		return err
	}
	if strings.TrimSpace(req.Email) == "" {
		return badRequest(codeMissingField, "email: required, where the notifications go")
	}
	email, err := validate.Email(req.Email)
	if err != nil {
		return badRequest(codeInvalidField, "email: %v", err)
	}
	if req.Subscriptions == nil {
		return badRequest(codeMissingField, "subscriptions: required; kinds %s ([] e-mails nothing)", strings.Join(engine.EmailSubscriptions, ", "))
	}
	for i, sub := range req.Subscriptions {
		if !slices.Contains(engine.EmailSubscriptions, sub) {
			return badRequest(codeInvalidField, "subscriptions: unknown kind %q (kinds: %s)", truncate(sub, 20), strings.Join(engine.EmailSubscriptions, ", "))
		}
		if slices.Contains(req.Subscriptions[:i], sub) {
			return badRequest(codeInvalidField, "subscriptions: %s is listed twice", sub)
		}
	}
	if err := s.eng.SetEmailConfig(c.caller(), records.EmailConfig{Email: email, Subscriptions: req.Subscriptions}); err != nil {
		return err
	}
	return c.reply(http.StatusOK, records.EmailConfig{Email: email, Subscriptions: req.Subscriptions})
}

// defaultPreferences are what GET answers before any are saved: a PIX
// checkout into BRLA for an hour, the defaults of a session's creation.
func defaultPreferences() records.SessionPreferences {
	return records.SessionPreferences{
		PaymentOptions:      []records.PaymentOption{{InputCurrency: "BRL", InputPaymentMethod: "PIX", OutputCurrency: "BRLA", OutputPaymentMethod: "INTERNAL"}},
		OutputCurrency:      "BRLA",
		LinkExpirationValue: defaultSessionMinutes, LinkExpirationUnit: "MINUTES",
	}
}

// GET /v2/account/payment-session/preferences[?subAccountId]
func (s *Server) sessionPreferences(c *call) error {
	p, saved, err := s.eng.SessionPreferences(c.caller())
	if err != nil {
		return err
	}
	if !saved {
		p = defaultPreferences()
	}
	return c.reply(http.StatusOK, p)
}

// POST /v2/account/payment-session/preferences[?subAccountId]: what the
// account's next sessions take when their creation leaves it out.
func (s *Server) saveSessionPreferences(c *call) error {
	var p records.SessionPreferences
	if err := decodeBody(c, &p); err != nil {
		return err
	}
	if err := c.writable(); err != nil {
		return err
	}
	if err := c.who.MayTakeMoneyIn(); err != nil {
		return err
	}
	if validate.Chars(p.ExternalID) > engine.MaxExternalIDLen {
		return badRequest(codeInvalidField, "externalId: at most %d characters", engine.MaxExternalIDLen)
	}
	if err := checkPaymentOptions(p.PaymentOptions, p.OutputCurrency); err != nil {
		return err
	}
	if _, ok := records.LinkExpirationUnits[p.LinkExpirationUnit]; !ok {
		return badRequest(codeInvalidField, "linkExpirationUnit: MINUTES, HOURS or DAYS, got %q", truncate(p.LinkExpirationUnit, 12))
	}
	if p.LinkExpirationValue < 1 || p.Minutes() > maxSessionMinutes {
		return badRequest(codeInvalidField, "linkExpirationValue: from 1 to at most %d minutes in all, got %d %s", maxSessionMinutes, p.LinkExpirationValue, p.LinkExpirationUnit)
	}
	if p.Appearance != nil && (len(p.Appearance) == 0 || p.Appearance[0] != '{') {
		return badRequest(codeInvalidField, "appearance: must be a JSON object")
	}
	if err := s.eng.SetSessionPreferences(c.caller(), p); err != nil {
		return err
	}
	saved, _, err := s.eng.SessionPreferences(c.caller())
	if err != nil {
		return err
	}
	return c.reply(http.StatusOK, saved)
}

// POST /v2/kyc/import-token[?subAccountId] {importToken} -> {id, message}
func (s *Server) importKYCToken(c *call) error {
	var req struct {
		ImportToken string `json:"importToken"`
	}
	if err := decodeBody(c, &req); err != nil {
		return err
	}
	if err := c.writable(); err != nil {
		return err
	}
	switch t := req.ImportToken; {
	case t == "":
		return badRequest(codeMissingField, "importToken: required, the token the verifying service issued")
	case len(t) > 4096 || strings.ContainsFunc(t, func(r rune) bool { return r <= ' ' || r > '~' }):
		return badRequest(codeInvalidField, "importToken: at most 4096 printable ASCII characters without spaces")
	}
	id, err := s.eng.ImportKYC(c.caller(), req.ImportToken)
	if err != nil {
		return err
	}
	return c.reply(http.StatusOK, map[string]string{"id": id.String(), "message": "KYC data imported: level-1 attempt " + id.String() + " approved"})
}

// POST /v2/kyc/new-level-1/web-sdk {redirectUrl} -> {attemptId, url}: the
// url is the hosted flow (this sandbox's WebSDKPath), which sends the
// person to redirectUrl once done.
func (s *Server) startWebSDK(c *call) error {
	var req struct {
		RedirectURL string `json:"redirectUrl"`
	}
	if err := decodeBody(c, &req); err != nil {
		return err
	}
	if err := c.writable(); err != nil {
		return err
	}
	u, err := url.Parse(strings.TrimSpace(req.RedirectURL))
	switch {
	case req.RedirectURL == "":
		return badRequest(codeMissingField, "redirectUrl: required, where the person goes once verified")
	case err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.User != nil:
		return badRequest(codeInvalidField, "redirectUrl: %q is not an absolute http(s) URL", truncate(req.RedirectURL, 60))
	case u.Scheme == "http" && !delivery.IsLoopback(u.Hostname()):
		return badRequest(codeInvalidField, "redirectUrl: plain http is only accepted for loopback addresses; use https")
	}
	id, err := s.eng.StartWebSDK(c.caller(), u.String())
	if err != nil {
		return err
	}
	scheme := "http"
	if c.r.TLS != nil {
		scheme = "https"
	}
	return c.reply(http.StatusOK, map[string]string{"attemptId": id.String(), "url": scheme + "://" + c.r.Host + WebSDKPath + id.String()})
}

// GET WebSDKPath{id} (public): the person finishes the hosted flow; the
// attempt completes and they are sent to its redirectUrl.
func (s *Server) finishWebSDK(c *call) error {
	id, err := c.pathUUID("id")
	if err != nil {
		return err
	}
	to, err := s.eng.CompleteWebSDK(c.caller(), id)
	if err != nil {
		return err
	}
	return c.replyRaw(http.StatusSeeOther, "text/plain; charset=utf-8", []byte("Verification complete. Continue at "+to+"\n"), map[string]string{"Location": to})
}
