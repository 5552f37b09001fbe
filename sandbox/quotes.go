package sandbox

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/brcode"
	"github.com/tesouro-treasury/tesouro/money"
)

// quoteTTL is how long a quote token is honoured (spec/service.md §6).
const quoteTTL = 15 * time.Second

// usdValue is the mid-market value of one unit of each currency in USD.
// Tokens are valued as the fiat they are pegged to.
var usdValue = map[string]decimal.Decimal{
	"BRL": decimal.RequireFromString("0.185"), "BRLA": decimal.RequireFromString("0.185"),
	"USD": decimal.NewFromInt(1), "USDC": decimal.NewFromInt(1), "USDT": decimal.NewFromInt(1),
	"USDM": decimal.NewFromInt(1), "USDCe": decimal.NewFromInt(1),
	"EUR": decimal.RequireFromString("1.085"), "EURC": decimal.RequireFromString("1.085"),
	"COP": decimal.RequireFromString("0.000245"), "ARS": decimal.RequireFromString("0.00098"),
}

// Fees of the sandbox (spec/service.md §6 leaves them to the emulator).
var (
	conversionPct    = decimal.RequireFromString("0.005") // currencies not pegged
	peggedPct        = decimal.RequireFromString("0.001") // pegged but different codes (BRL→BRLA)
	maxMarkupPct     = decimal.RequireFromString("0.2")
	maxInputUSDValue = decimal.NewFromInt(5_000_000)
	outFees          = map[string]decimal.Decimal{ // per output method, in the output currency
		"PIX": decimal.RequireFromString("0.50"), "ACH": decimal.RequireFromString("2.00"),
		"WIRE": decimal.RequireFromString("15.00"), "SEPA": decimal.RequireFromString("1.00"),
		"BANK-TRANSFER": decimal.RequireFromString("4000.00"), "CVU": decimal.RequireFromString("300.00"),
	}
	gasUSD = map[string]decimal.Decimal{ // per output chain, in USD
		"POLYGON": decimal.RequireFromString("0.01"), "CELO": decimal.RequireFromString("0.005"),
		"BASE": decimal.RequireFromString("0.02"), "ETHEREUM": decimal.RequireFromString("1.50"),
		"GNOSIS": decimal.RequireFromString("0.005"), "MOONBEAM": decimal.RequireFromString("0.01"), "TRON": decimal.RequireFromString("1.00"),
	}
)

// quoteClaims is everything a quote token carries; the token is these
// claims in JSON with an HMAC, so nothing in it can be changed.
type quoteClaims struct {
	ID                  uuid.UUID       `json:"id"`
	SubAccountID        string          `json:"sub"`
	AccountID           uuid.UUID       `json:"acct"`
	AccessID            uuid.UUID       `json:"acc"`
	IssuedAt            int64           `json:"iat"` // Unix ms
	ExpiresAt           int64           `json:"exp"` // Unix ms
	InputCurrency       string          `json:"ic"`
	InputPaymentMethod  string          `json:"im"`
	InputAmount         decimal.Decimal `json:"ia"`
	OutputCurrency      string          `json:"oc"`
	OutputPaymentMethod string          `json:"om"`
	OutputAmount        decimal.Decimal `json:"oa"`
	MarkupAmount        decimal.Decimal `json:"ma"`
	MarkupCurrency      string          `json:"mc"`
	InputThirdParty     bool            `json:"itp"`
	OutputThirdParty    bool            `json:"otp"`
	BasePrice           decimal.Decimal `json:"bp"`
	SendMethod          string          `json:"sm"`
	Fees                []Fee           `json:"fees"`
	// OutputBrCode is the dynamic BR Code the quote pays (§7.3).
	OutputBrCode string `json:"obc,omitempty"`
	// TicketRefundID is the ticket the quote refunds (§7.3).
	TicketRefundID string `json:"trf,omitempty"`

	// raw is the JSON openQuote read the claims from, which a ticket
	// stores as is (nil for claims made here). Claims are not changed
	// once read.
	raw []byte
}

func (q *quoteClaims) pairName() string { return q.InputCurrency + q.OutputCurrency }

// conversion reports whether input and output currencies differ (5-minute tickets).
func (q *quoteClaims) conversion() bool { return q.InputCurrency != q.OutputCurrency }

func (q *quoteClaims) expiry() time.Time { return time.UnixMilli(q.ExpiresAt).UTC() }

func (s *Server) sealQuote(q *quoteClaims) string { return sealQuoteWith(s.quoteKey, q) }

// sealQuoteWith seals claims with a key. Demo history uses a key derived
// from the seed, so that the demo is the same for a seed; such tokens are
// long expired and never open with the live key.
func sealQuoteWith(key []byte, q *quoteClaims) string {
	body, _ := json.Marshal(q)
	p := base64.RawURLEncoding.EncodeToString(body)
	m := hmac.New(sha256.New, key)
	m.Write([]byte(p))
	return p + "." + base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// quoteOf is the quote a ticket creation carries, issued to who. It reads
// only the token and the sandbox's fixed quote key, so a creation checks it
// before it waits on the store lock.
func (s *Server) quoteOf(who *access, tok string) (*quoteClaims, error) {
	if strings.TrimSpace(tok) == "" {
		return nil, badRequest(codeMissingField, "quoteToken: required (from GET /v2/account/quote/fixed-rate)")
	}
	q, err := s.openQuote(tok)
	if err != nil {
		return nil, err
	}
	if q.AccessID != who.ID {
		return nil, badRequest(codeQuoteInvalid, "quoteToken: the quote was issued to another access; request your own quote")
	}
	return q, nil
}

// openQuote checks a token's HMAC and decodes it; it does not check expiry.
func (s *Server) openQuote(tok string) (*quoteClaims, error) {
	bad := badRequest(codeQuoteInvalid, "quoteToken: not a quote token this service issued (or it was altered); request a new quote")
	p, sig, ok := strings.Cut(strings.TrimSpace(tok), ".")
	if !ok {
		return nil, bad
	}
	got, err := base64.RawURLEncoding.DecodeString(sig)
	if err != nil {
		return nil, bad
	}
	m := hmac.New(sha256.New, s.quoteKey)
	m.Write([]byte(p))
	if !hmac.Equal(got, m.Sum(nil)) {
		return nil, bad
	}
	body, err := base64.RawURLEncoding.DecodeString(p)
	if err != nil {
		return nil, bad
	}
	var q quoteClaims
	if err := json.Unmarshal(body, &q); err != nil {
		return nil, bad
	}
	q.raw = body
	return &q, nil
}

// basePrice is how many units of out one unit of in buys at t, before fees:
// 1 for pegged pairs, otherwise mid-market with a small drift that changes
// every 10 seconds (so that re-quotes visibly differ) and depends only on
// the clock.
func basePrice(in, out string, t time.Time) decimal.Decimal {
	if money.Pegged(in, out) {
		return decimal.NewFromInt(1)
	}
	mid := usdValue[in].DivRound(usdValue[out], 12)
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], uint64(t.Unix()/10))
	h := sha256.Sum256(append([]byte(in+">"+out+"/"), b[:]...))
	bp := int64(h[0]%31) - 15 // ±0.15%
	drift := decimal.NewFromInt(10000 + bp).Div(decimal.NewFromInt(10000))
	return mid.Mul(drift).Round(10)
}

// quoteParams are the validated query of a quote.
type quoteParams struct {
	inCur, inMethod, outCur, outMethod string
	inAmount, outAmount                decimal.Decimal
	byOutput                           bool
	inTP, outTP                        bool
	sendMethod                         string
	markupPct, markupIn, markupOut     decimal.Decimal
	markupCurrency                     string
	brCode, refundID                   string // outputBrCode, ticketRefundId
}

// outputBrCode checks the BR Code a quote is asked to pay and returns its
// amount (zero when the code carries none).
func (p *quoteParams) outputBrCode(code string) (decimal.Decimal, error) {
	if p.outCur != "BRL" || p.outMethod != "PIX" {
		return decimal.Zero, badRequest(codeInvalidField, "outputBrCode: a BR Code is paid in BRL via PIX, the output is %s via %s", p.outCur, p.outMethod)
	}
	parsed, err := brcode.Parse(code)
	if err != nil {
		return decimal.Zero, fieldErr("outputBrCode", err)
	}
	p.brCode = code
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

func (c *call) quoteParams() (*quoteParams, error) {
	q := c.query
	p := &quoteParams{
		inCur: q.Get("inputCurrency"), inMethod: q.Get("inputPaymentMethod"),
		outCur: q.Get("outputCurrency"), outMethod: q.Get("outputPaymentMethod"),
	}
	for _, f := range []struct{ name, v string }{{"inputCurrency", p.inCur}, {"inputPaymentMethod", p.inMethod}, {"outputCurrency", p.outCur}, {"outputPaymentMethod", p.outMethod}} {
		if f.v == "" {
			return nil, badRequest(codeMissingField, "%s: required", f.name)
		}
	}
	if !knownCurrency(p.inCur) {
		return nil, badRequest(codeInvalidField, "inputCurrency: unknown currency %q (known: %s)", truncate(p.inCur, 12), strings.Join(money.Currencies(), ", "))
	}
	if !knownCurrency(p.outCur) {
		return nil, badRequest(codeInvalidField, "outputCurrency: unknown currency %q (known: %s)", truncate(p.outCur, 12), strings.Join(money.Currencies(), ", "))
	}
	if !money.SupportsMethod(p.inCur, p.inMethod) || p.inMethod != strings.ToUpper(p.inMethod) {
		return nil, badRequest(codeUnsupportedPair, "inputPaymentMethod: %s is not offered for %s (methods: %s)", truncate(p.inMethod, 16), p.inCur, strings.Join(money.Methods(p.inCur), ", "))
	}
	if !money.SupportsMethod(p.outCur, p.outMethod) || p.outMethod != strings.ToUpper(p.outMethod) {
		return nil, badRequest(codeUnsupportedPair, "outputPaymentMethod: %s is not offered for %s (methods: %s)", truncate(p.outMethod, 16), p.outCur, strings.Join(money.Methods(p.outCur), ", "))
	}
	pair := fmt.Sprintf("%s/%s → %s/%s", p.inCur, p.inMethod, p.outCur, p.outMethod)
	if money.OutputOnly(p.inCur) {
		return nil, badRequest(codeUnsupportedPair, "unsupported pair %s: %s can only be paid out, never taken as input", pair, p.inCur)
	}
	if p.inCur == p.outCur && p.inMethod == p.outMethod {
		return nil, badRequest(codeUnsupportedPair, "unsupported pair %s: input and output are the same currency on the same method", pair)
	}
	inRaw, outRaw := q.Get("inputAmount"), q.Get("outputAmount")
	if code := q.Get("outputBrCode"); code != "" {
		// Paying a dynamic BR Code: the amount may come from the code.
		amount, err := p.outputBrCode(code)
		if err != nil {
			return nil, err
		}
		switch {
		case amount.IsPositive() && inRaw != "":
			return nil, badRequest(codeInvalidField, "inputAmount: the BR Code of outputBrCode fixes the output at BRL %s; omit the amounts", amount.StringFixed(2))
		case amount.IsPositive() && outRaw != "":
			if d, err := decimal.NewFromString(outRaw); err != nil || !d.Equal(amount) {
				return nil, badRequest(codeInvalidField, "outputAmount: the BR Code of outputBrCode asks for BRL %s, not %s", amount.StringFixed(2), truncate(outRaw, 20))
			}
		case amount.IsPositive():
			outRaw = amount.StringFixed(2)
		case inRaw == "" && outRaw == "":
			return nil, badRequest(codeMissingField, "inputAmount: required (or outputAmount): the BR Code of outputBrCode carries no amount")
		}
	}
	if raw := q.Get("ticketRefundId"); raw != "" {
		if _, err := uuid.Parse(raw); err != nil {
			return nil, badRequest(codeInvalidField, "ticketRefundId: %q is not a ticket id (a UUID)", truncate(raw, 40))
		}
		p.refundID = raw
	}
	switch {
	case inRaw != "" && outRaw != "":
		return nil, badRequest(codeInvalidField, "inputAmount, outputAmount: give exactly one of them, not both")
	case inRaw == "" && outRaw == "":
		return nil, badRequest(codeMissingField, "inputAmount: required (or outputAmount)")
	case inRaw != "":
		d, err := parseWireAmount("inputAmount", inRaw, p.inCur)
		if err != nil {
			return nil, err
		}
		p.inAmount = d
	default:
		d, err := parseWireAmount("outputAmount", outRaw, p.outCur)
		if err != nil {
			return nil, err
		}
		p.outAmount, p.byOutput = d, true
	}
	for _, name := range []string{"inputThirdParty", "outputThirdParty"} {
		if q.Get(name) == "" {
			return nil, badRequest(codeMissingField, "%s: required, true or false (whether that side belongs to someone other than the account)", name)
		}
	}
	var err error
	if p.inTP, err = c.queryBool("inputThirdParty"); err != nil {
		return nil, err
	}
	if p.outTP, err = c.queryBool("outputThirdParty"); err != nil {
		return nil, err
	}
	sm := q.Get("blockchainSendMethod")
	if money.IsChain(p.inMethod) {
		if sm == "" {
			return nil, badRequest(codeMissingField, "blockchainSendMethod: required when the input is on a chain (%s): PERMIT or TRANSFER", p.inMethod)
		}
	}
	if sm != "" && sm != SendPermit && sm != SendTransfer {
		return nil, badRequest(codeInvalidField, "blockchainSendMethod: must be PERMIT or TRANSFER, got %q", truncate(sm, 16))
	}
	if money.IsChain(p.inMethod) {
		p.sendMethod = sm
	}
	if raw := q.Get("markupFloatingFee"); raw != "" {
		d, err := decimal.NewFromString(raw)
		if err != nil || strings.ContainsAny(raw, "eE") || d.IsNegative() || d.GreaterThan(maxMarkupPct) {
			return nil, badRequest(codeInvalidField, "markupFloatingFee: must be a fraction between 0 and 0.2 (0.01 is 1%%), got %q", truncate(raw, 20))
		}
		p.markupPct = d
	}
	if raw := q.Get("markupInputFixedFee"); raw != "" {
		if p.markupIn, err = parseWireAmount("markupInputFixedFee", raw, p.inCur); err != nil {
			return nil, err
		}
	}
	if raw := q.Get("markupOutputFixedFee"); raw != "" {
		if p.markupOut, err = parseWireAmount("markupOutputFixedFee", raw, p.outCur); err != nil {
			return nil, err
		}
	}
	p.markupCurrency = q.Get("markupCurrency")
	if p.markupCurrency != "" && p.markupCurrency != p.inCur && p.markupCurrency != p.outCur {
		return nil, badRequest(codeInvalidField, "markupCurrency: must be the input (%s) or the output (%s) currency, got %q", p.inCur, p.outCur, truncate(p.markupCurrency, 12))
	}
	return p, nil
}

func (p *quoteParams) hasMarkup() bool {
	return p.markupPct.IsPositive() || p.markupIn.IsPositive() || p.markupOut.IsPositive()
}

// forward prices an input amount: the fees and the output amount, by the
// amount rule of §6.
func (p *quoteParams) forward(in, bp decimal.Decimal) (fees []Fee, out decimal.Decimal) {
	inPrec, outPrec := money.Precision(p.inCur), money.Precision(p.outCur)
	inFees, outFeesSum := decimal.Zero, decimal.Zero
	add := func(typ, desc, cur string, amt decimal.Decimal) {
		if !amt.IsPositive() {
			return
		}
		fees = append(fees, Fee{Type: typ, Description: desc, Amount: amt, Currency: cur})
		if cur == p.inCur {
			inFees = inFees.Add(amt)
		} else {
			outFeesSum = outFeesSum.Add(amt)
		}
	}
	if p.markupPct.IsPositive() {
		add("Markup Fee", "markup "+p.markupPct.Mul(decimal.NewFromInt(100)).String()+"% of the input", p.inCur, in.Mul(p.markupPct).Round(inPrec))
	}
	add("Markup Fee", "fixed markup on the input", p.inCur, p.markupIn)
	if p.inCur != p.outCur {
		pct := conversionPct
		if money.Pegged(p.inCur, p.outCur) {
			pct = peggedPct
		}
		add("Conversion Fee", "conversion "+pct.Mul(decimal.NewFromInt(100)).String()+"% of the amount converted", p.inCur, in.Sub(inFees).Mul(pct).Round(inPrec))
	}
	if f, ok := outFees[p.outMethod]; ok {
		add("Out Fee", p.outMethod+" payout", p.outCur, f)
	}
	if g, ok := gasUSD[p.outMethod]; ok && money.IsChain(p.outMethod) {
		add("Gas Fee", p.outMethod+" network fee", p.outCur, g.DivRound(usdValue[p.outCur], outPrec).RoundCeil(outPrec))
	}
	add("Markup Fee", "fixed markup on the output", p.outCur, p.markupOut)
	out = in.Sub(inFees).Mul(bp).Sub(outFeesSum).RoundFloor(outPrec)
	return fees, out
}

// solveInput finds the smallest input amount (at input precision) whose
// forward quote yields at least target.
func (p *quoteParams) solveInput(target, bp decimal.Decimal) (decimal.Decimal, bool) {
	inPrec := money.Precision(p.inCur)
	ulp := decimal.New(1, -inPrec)
	// A first guess from the totals, then a binary search on the grid.
	_, probe := p.forward(decimal.NewFromInt(1_000_000), bp)
	if !probe.IsPositive() {
		return decimal.Zero, false
	}
	lo := decimal.Zero
	hi := target.Add(decimal.NewFromInt(1)).Div(bp).Mul(decimal.NewFromInt(2)).Add(decimal.NewFromInt(100_000)).RoundCeil(inPrec)
	if _, o := p.forward(hi, bp); o.LessThan(target) {
		return decimal.Zero, false
	}
	for hi.Sub(lo).GreaterThan(ulp) {
		mid := lo.Add(hi).Div(decimal.NewFromInt(2)).RoundFloor(inPrec)
		if mid.LessThanOrEqual(lo) {
			mid = lo.Add(ulp)
		}
		if _, o := p.forward(mid, bp); o.GreaterThanOrEqual(target) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi, true
}

// GET /v2/account/quote/fixed-rate
func (s *Server) quote(c *call) error {
	p, err := c.quoteParams()
	if err != nil {
		return err
	}
	s.mu.RLock()
	acct, err := c.scope()
	s.mu.RUnlock()
	if err != nil {
		return err
	}
	bp := basePrice(p.inCur, p.outCur, c.now)
	in := p.inAmount
	if p.byOutput {
		var ok bool
		if in, ok = p.solveInput(p.outAmount, bp); !ok {
			return badRequest(codeAmountTooLarge, "outputAmount: %s %s is more than this service converts in one ticket", p.outAmount, p.outCur)
		}
	}
	if in.Mul(usdValue[p.inCur]).GreaterThan(maxInputUSDValue) {
		return badRequest(codeAmountTooLarge, "%s: %s %s is over the limit of one ticket (USD 5,000,000 equivalent); split it", amountField(p), in, p.inCur)
	}
	fees, out := p.forward(in, bp)
	if !out.IsPositive() {
		return badRequest(codeAmountTooSmall, "%s: %s %s does not cover the fees; raise the amount", amountField(p), in, p.inCur)
	}
	q := &quoteClaims{
		ID: newID(), SubAccountID: acct.subAccountID(), AccountID: acct.ID, AccessID: c.who.ID,
		IssuedAt: c.now.UnixMilli(), ExpiresAt: c.now.Add(quoteTTL).UnixMilli(),
		InputCurrency: p.inCur, InputPaymentMethod: p.inMethod, InputAmount: in,
		OutputCurrency: p.outCur, OutputPaymentMethod: p.outMethod, OutputAmount: out,
		InputThirdParty: p.inTP, OutputThirdParty: p.outTP, BasePrice: bp, SendMethod: p.sendMethod, Fees: fees,
		MarkupAmount: decimal.Zero, OutputBrCode: p.brCode, TicketRefundID: p.refundID,
	}
	if p.hasMarkup() {
		q.MarkupCurrency = p.markupCurrency
		if q.MarkupCurrency == "" {
			q.MarkupCurrency = p.inCur
			if !p.markupPct.IsPositive() && !p.markupIn.IsPositive() {
				q.MarkupCurrency = p.outCur
			}
		}
		q.MarkupAmount = markupTotal(fees, q.MarkupCurrency, p.inCur, bp)
	}
	return c.reply(http.StatusOK, quoteView(q, s.sealQuote(q)))
}

func amountField(p *quoteParams) string {
	if p.byOutput {
		return "outputAmount"
	}
	return "inputAmount"
}

// markupTotal is the markup in the markup currency; markup fees in the
// other currency are converted at the base price.
func markupTotal(fees []Fee, cur, inCur string, bp decimal.Decimal) decimal.Decimal {
	total := decimal.Zero
	for _, f := range fees {
		if f.Type != "Markup Fee" {
			continue
		}
		switch {
		case f.Currency == cur:
			total = total.Add(f.Amount)
		case f.Currency == inCur: // in → out
			total = total.Add(f.Amount.Mul(bp))
		default: // out → in
			total = total.Add(f.Amount.DivRound(bp, 12))
		}
	}
	return total.Round(money.Precision(cur))
}

func quoteView(q *quoteClaims, token string) Quote {
	fees := make([]Fee, len(q.Fees))
	copy(fees, q.Fees)
	// Quotes carry rebatable too (service.md §7.2), as tickets do.
	for i := range fees {
		reb := fees[i].Type == "Conversion Fee"
		fees[i].Rebatable = &reb
	}
	return Quote{
		QuoteToken: token, InputCurrency: q.InputCurrency, InputPaymentMethod: q.InputPaymentMethod, InputAmount: q.InputAmount,
		OutputCurrency: q.OutputCurrency, OutputPaymentMethod: q.OutputPaymentMethod, OutputAmount: q.OutputAmount,
		MarkupAmount: q.MarkupAmount, MarkupCurrency: q.MarkupCurrency, InputThirdParty: q.InputThirdParty, OutputThirdParty: q.OutputThirdParty,
		AppliedFees: fees, BasePrice: q.BasePrice, PairName: q.pairName(), BlockchainSendMethod: q.SendMethod,
		OutputBrCode: q.OutputBrCode, TicketRefundID: q.TicketRefundID,
	}
}
