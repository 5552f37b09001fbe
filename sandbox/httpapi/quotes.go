package httpapi

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/brcode"
	"github.com/tesouro-treasury/tesouro/money"
	"github.com/tesouro-treasury/tesouro/sandbox/engine"
	"github.com/tesouro-treasury/tesouro/sandbox/records"
)

// Quotes (seed, §3, §7.3, §8): the query read and checked against the
// catalogue here, priced and sealed by the engine.

// outputBrCode checks the BR Code a quote is asked to pay and returns its
// amount (zero when the code carries none).
func outputBrCode(p *engine.QuoteRequest, code string) (decimal.Decimal, error) {
	if p.OutputCurrency != "BRL" || p.OutputMethod != "PIX" {
		return decimal.Zero, badRequest(codeInvalidField, "outputBrCode: a BR Code is paid in BRL via PIX, the output is %s via %s", p.OutputCurrency, p.OutputMethod)
	}
	parsed, err := brcode.Parse(code)
	if err != nil {
		return decimal.Zero, fieldErr("outputBrCode", err)
	}
	p.OutputBrCode = code
	return parsed.Amount, nil
}

func knownCurrency(c string) bool { return money.Methods(c) != nil && c == money.Canonical(c) }

func parseWireAmount(name, raw, currency string) (decimal.Decimal, error) {
	if strings.Contains(raw, ",") {
		return decimal.Zero, badRequest(codeInvalidAmount, "%s %q: use \".\" as the decimal separator", name, truncate(raw, 30))
	}
	d, err := money.ParseAmount(raw, currency)
	if err != nil {
		return decimal.Zero, badRequest(codeInvalidAmount, "%s: %v", name, err)
	}
	return d, nil
}

// quoteRequest reads and checks the query of a quote, step by step and in
// the order the refusals are owed: the pair against the catalogue, the
// amounts, the two sides, the markup.
func (c *call) quoteRequest() (*engine.QuoteRequest, error) {
	p, err := c.quotePair()
	if err != nil {
		return nil, err
	}
	for _, step := range []func(*engine.QuoteRequest) error{c.quoteAmounts, c.quoteSides, c.quoteMarkup} {
		if err := step(p); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// quotePair reads the four required fields and checks them against the
// catalogue: known currencies, offered methods, a pair that can be traded.
func (c *call) quotePair() (*engine.QuoteRequest, error) {
	q := c.query
	p := &engine.QuoteRequest{
		InputCurrency: q.Get("inputCurrency"), InputMethod: q.Get("inputPaymentMethod"),
		OutputCurrency: q.Get("outputCurrency"), OutputMethod: q.Get("outputPaymentMethod"),
	}
	for _, f := range []struct{ name, v string }{{"inputCurrency", p.InputCurrency}, {"inputPaymentMethod", p.InputMethod}, {"outputCurrency", p.OutputCurrency}, {"outputPaymentMethod", p.OutputMethod}} {
		if f.v == "" {
			return nil, badRequest(codeMissingField, "%s: required", f.name)
		}
	}
	if !knownCurrency(p.InputCurrency) {
		return nil, badRequest(codeInvalidField, "inputCurrency: unknown currency %q (known: %s)", truncate(p.InputCurrency, 12), strings.Join(money.Currencies(), ", "))
	}
	if !knownCurrency(p.OutputCurrency) {
		return nil, badRequest(codeInvalidField, "outputCurrency: unknown currency %q (known: %s)", truncate(p.OutputCurrency, 12), strings.Join(money.Currencies(), ", "))
	}
	if !money.SupportsMethod(p.InputCurrency, p.InputMethod) || p.InputMethod != strings.ToUpper(p.InputMethod) {
		return nil, badRequest(codeUnsupportedPair, "inputPaymentMethod: %s is not offered for %s (methods: %s)", truncate(p.InputMethod, 16), p.InputCurrency, strings.Join(money.Methods(p.InputCurrency), ", "))
	}
	if !money.SupportsMethod(p.OutputCurrency, p.OutputMethod) || p.OutputMethod != strings.ToUpper(p.OutputMethod) {
		return nil, badRequest(codeUnsupportedPair, "outputPaymentMethod: %s is not offered for %s (methods: %s)", truncate(p.OutputMethod, 16), p.OutputCurrency, strings.Join(money.Methods(p.OutputCurrency), ", "))
	}
	pair := fmt.Sprintf("%s/%s → %s/%s", p.InputCurrency, p.InputMethod, p.OutputCurrency, p.OutputMethod)
	if money.OutputOnly(p.InputCurrency) {
		return nil, badRequest(codeUnsupportedPair, "unsupported pair %s: %s can only be paid out, never taken as input", pair, p.InputCurrency)
	}
	// A token from balance to balance is how funds move between the main
	// account and its sub-accounts (§8.5); any other same-sided pair does
	// nothing.
	if p.InputCurrency == p.OutputCurrency && p.InputMethod == p.OutputMethod && !(p.InputMethod == "INTERNAL" && money.IsToken(p.InputCurrency)) {
		return nil, badRequest(codeUnsupportedPair, "unsupported pair %s: input and output are the same currency on the same method (only a token from balance to balance, INTERNAL to INTERNAL, moves funds between accounts)", pair)
	}
	return p, nil
}

// quoteAmounts reads the one amount a quote is priced from, the BR Code it
// may be paying (whose amount may stand in for it) and the ticket it may
// refund.
func (c *call) quoteAmounts(p *engine.QuoteRequest) error {
	q := c.query
	inRaw, outRaw := q.Get("inputAmount"), q.Get("outputAmount")
	if code := q.Get("outputBrCode"); code != "" {
		var err error
		if outRaw, err = brCodeAmount(p, code, inRaw, outRaw); err != nil {
			return err
		}
	}
	if raw := q.Get("ticketRefundId"); raw != "" {
		if _, err := uuid.Parse(raw); err != nil {
			return badRequest(codeInvalidField, "ticketRefundId: %q is not a ticket id (a UUID)", truncate(raw, 40))
		}
		p.TicketRefundID = raw
	}
	switch {
	case inRaw != "" && outRaw != "":
		return badRequest(codeInvalidField, "inputAmount, outputAmount: give exactly one of them, not both")
	case inRaw == "" && outRaw == "":
		return badRequest(codeMissingField, "inputAmount: required (or outputAmount)")
	case inRaw != "":
		d, err := parseWireAmount("inputAmount", inRaw, p.InputCurrency)
		if err != nil {
			return err
		}
		p.InputAmount = d
	default:
		d, err := parseWireAmount("outputAmount", outRaw, p.OutputCurrency)
		if err != nil {
			return err
		}
		p.OutputAmount, p.ByOutput = d, true
	}
	return nil
}

// brCodeAmount checks a dynamic BR Code against the amounts asked and
// returns the output amount to price from: the code's own when it carries
// one and none was given.
func brCodeAmount(p *engine.QuoteRequest, code, inRaw, outRaw string) (string, error) {
	amount, err := outputBrCode(p, code)
	if err != nil {
		return "", err
	}
	switch {
	case amount.IsPositive() && inRaw != "":
		return "", badRequest(codeInvalidField, "inputAmount: the BR Code of outputBrCode fixes the output at BRL %s; omit the amounts", amount.StringFixed(2))
	case amount.IsPositive() && outRaw != "":
		if d, err := decimal.NewFromString(outRaw); err != nil || !d.Equal(amount) {
			return "", badRequest(codeInvalidField, "outputAmount: the BR Code of outputBrCode asks for BRL %s, not %s", amount.StringFixed(2), truncate(outRaw, 20))
		}
	case amount.IsPositive():
		return amount.StringFixed(2), nil
	case inRaw == "" && outRaw == "":
		return "", badRequest(codeMissingField, "inputAmount: required (or outputAmount): the BR Code of outputBrCode carries no amount")
	}
	return outRaw, nil
}

// quoteSides reads whose each side is and, for a token input, how the
// tokens will be sent.
func (c *call) quoteSides(p *engine.QuoteRequest) error {
	q := c.query
	for _, name := range []string{"inputThirdParty", "outputThirdParty"} {
		if q.Get(name) == "" {
			return badRequest(codeMissingField, "%s: required, true or false (whether that side belongs to someone other than the account)", name)
		}
	}
	var err error
	if p.InputThirdParty, err = c.queryBool("inputThirdParty"); err != nil {
		return err
	}
	if p.OutputThirdParty, err = c.queryBool("outputThirdParty"); err != nil {
		return err
	}
	// Every token input names how the tokens are sent, INTERNAL included
	// (§8.4); the live service's refusal ends ":blockchainSendMethod is
	// invalid", which its clients look for.
	sm := q.Get("blockchainSendMethod")
	token := money.IsToken(p.InputCurrency) || money.IsChain(p.InputMethod)
	if token && sm == "" {
		return badRequest(codeMissingField, "blockchainSendMethod: required for a token input (%s via %s), PERMIT or TRANSFER:blockchainSendMethod is invalid", p.InputCurrency, p.InputMethod)
	}
	if sm != "" && sm != records.SendPermit && sm != records.SendTransfer {
		return badRequest(codeInvalidField, "blockchainSendMethod: must be PERMIT or TRANSFER, got %q:blockchainSendMethod is invalid", truncate(sm, 16))
	}
	if token {
		p.SendMethod = sm
	}
	return nil
}

// quoteMarkup reads the markup the caller adds on top of the service's
// fees: a floating fraction, fixed amounts on either side, and the
// currency it is counted in.
func (c *call) quoteMarkup(p *engine.QuoteRequest) error {
	q := c.query
	if raw := q.Get("markupFloatingFee"); raw != "" {
		d, err := decimal.NewFromString(raw)
		if err != nil || strings.ContainsAny(raw, "eE") || d.IsNegative() || d.GreaterThan(engine.MaxMarkupFloatingFee()) {
			return badRequest(codeInvalidField, "markupFloatingFee: must be a fraction between 0 and 0.2 (0.01 is 1%%), got %q", truncate(raw, 20))
		}
		p.MarkupFloatingFee = d
	}
	var err error
	if raw := q.Get("markupInputFixedFee"); raw != "" {
		if p.MarkupInputFixedFee, err = parseWireAmount("markupInputFixedFee", raw, p.InputCurrency); err != nil {
			return err
		}
	}
	if raw := q.Get("markupOutputFixedFee"); raw != "" {
		if p.MarkupOutputFixedFee, err = parseWireAmount("markupOutputFixedFee", raw, p.OutputCurrency); err != nil {
			return err
		}
	}
	p.MarkupCurrency = q.Get("markupCurrency")
	if p.MarkupCurrency != "" && p.MarkupCurrency != p.InputCurrency && p.MarkupCurrency != p.OutputCurrency {
		return badRequest(codeInvalidField, "markupCurrency: must be the input (%s) or the output (%s) currency, got %q", p.InputCurrency, p.OutputCurrency, truncate(p.MarkupCurrency, 12))
	}
	return nil
}

// GET /v2/account/quote/fixed-rate
func (s *Server) quote(c *call) error {
	p, err := c.quoteRequest()
	if err != nil {
		return err
	}
	q, token, err := s.eng.Quote(c.caller(), p)
	if err != nil {
		return err
	}
	return c.reply(http.StatusOK, quoteView(q, token))
}

// quoteView is the answer of a quote: its claims and its token.
func quoteView(q *engine.QuoteClaims, token string) Quote {
	// The five fees as priced, without rebatable: only the quote a
	// ticket keeps says which are (§8.2).
	fees := make([]records.Fee, len(q.Fees))
	copy(fees, q.Fees)
	for i := range fees {
		fees[i].Rebatable = nil
	}
	return Quote{
		QuoteToken: token, InputCurrency: q.InputCurrency, InputPaymentMethod: q.InputPaymentMethod, InputAmount: q.InputAmount,
		OutputCurrency: q.OutputCurrency, OutputPaymentMethod: q.OutputPaymentMethod, OutputAmount: q.OutputAmount,
		MarkupAmount: q.MarkupAmount, MarkupCurrency: q.MarkupCurrency, InputThirdParty: q.InputThirdParty, OutputThirdParty: q.OutputThirdParty,
		AppliedFees: fees, BasePrice: q.BasePrice, PairName: q.PairName(), BlockchainSendMethod: q.SendMethod,
		OutputBrCode: q.OutputBrCode, TicketRefundID: q.TicketRefundID,
	}
}

// Quote is the answer of GET /v2/account/quote/fixed-rate (seed, §3, §7.3, §8).
type Quote struct {
	QuoteToken           string          `json:"quoteToken"`
	InputCurrency        string          `json:"inputCurrency"`
	InputPaymentMethod   string          `json:"inputPaymentMethod"`
	InputAmount          decimal.Decimal `json:"inputAmount"`
	OutputCurrency       string          `json:"outputCurrency"`
	OutputPaymentMethod  string          `json:"outputPaymentMethod"`
	OutputAmount         decimal.Decimal `json:"outputAmount"`
	MarkupAmount         decimal.Decimal `json:"markupAmount"`
	MarkupCurrency       string          `json:"markupCurrency"`
	InputThirdParty      bool            `json:"inputThirdParty"`
	OutputThirdParty     bool            `json:"outputThirdParty"`
	AppliedFees          []records.Fee   `json:"appliedFees"`
	BasePrice            decimal.Decimal `json:"basePrice"`
	PairName             string          `json:"pairName"`
	BlockchainSendMethod string          `json:"blockchainSendMethod,omitempty"`
	OutputBrCode         string          `json:"outputBrCode,omitempty"`
	TicketRefundID       string          `json:"ticketRefundId,omitempty"`
}
