package engine

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/money"
	"github.com/tesouro-treasury/tesouro/sandbox/records"
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

// QuoteClaims is everything a quote token carries; the token is these
// claims in JSON with an HMAC, so nothing in it can be changed.
type QuoteClaims struct {
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
	Fees                []records.Fee   `json:"fees"`
	// OutputBrCode is the dynamic BR Code the quote pays (§7.3).
	OutputBrCode string `json:"obc,omitempty"`
	// TicketRefundID is the ticket the quote refunds (§7.3).
	TicketRefundID string `json:"trf,omitempty"`

	// raw is the JSON openQuote read the claims from, which a ticket
	// stores as is (nil for claims made here). Claims are not changed
	// once read.
	raw []byte
}

// PairName is the market pair the quote names (§8.1): its base, then its
// quote currency, whatever way the money flows.
func (q *QuoteClaims) PairName() string {
	base, quote := marketPair(q.InputCurrency, q.OutputCurrency)
	return base + quote
}

// marketPair is the pair a trade from in to out is priced in (§8.1, the
// rule decided where the guide is silent): the base is the side that is
// not BRL or BRLA; the input when both or neither are.
func marketPair(in, out string) (base, quote string) {
	if brlSide(in) && !brlSide(out) {
		return out, in
	}
	return in, out
}

func brlSide(c string) bool { return c == "BRL" || c == "BRLA" }

// converted is amt of in in units of out at the market price bp (units of
// the pair's quote currency for one of its base): times bp when in is the
// base, divided by it when in is the quote currency. It is not rounded.
func converted(amt, bp decimal.Decimal, in, out string) decimal.Decimal {
	if base, _ := marketPair(in, out); base == in {
		return amt.Mul(bp)
	}
	return amt.DivRound(bp, 18)
}

// conversion reports whether input and output currencies differ (5-minute tickets).
func (q *QuoteClaims) conversion() bool { return q.InputCurrency != q.OutputCurrency }

// Expiry is when the quote stops being honoured.
func (q *QuoteClaims) Expiry() time.Time { return time.UnixMilli(q.ExpiresAt).UTC() }

// sealQuoteWith seals claims with a key. Demo history uses a key derived
// from the seed, so that the demo is the same for a seed; such tokens are
// long expired and never open with the live key.
func sealQuoteWith(key []byte, q *QuoteClaims) string {
	body, _ := json.Marshal(q)
	p := base64.RawURLEncoding.EncodeToString(body)
	m := hmac.New(sha256.New, key)
	m.Write([]byte(p))
	return p + "." + base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// quoteOf is the quote a ticket creation carries, issued to who. It reads
// only the token and the sandbox's fixed quote key, so a creation checks it
// before it waits on the store lock.
func (e *Engine) quoteOf(who *Access, tok string) (*QuoteClaims, error) {
	if strings.TrimSpace(tok) == "" {
		return nil, badRequest(CodeMissingField, "quoteToken: required (from GET /v2/account/quote/fixed-rate)")
	}
	q, err := e.openQuote(tok)
	if err != nil {
		return nil, err
	}
	if q.AccessID != who.ID {
		return nil, badRequest(CodeQuoteInvalid, "quoteToken: the quote was issued to another access; request your own quote")
	}
	return q, nil
}

// openQuote checks a token's HMAC and decodes it; it does not check expiry.
func (e *Engine) openQuote(tok string) (*QuoteClaims, error) {
	bad := badRequest(CodeQuoteInvalid, "quoteToken: not a quote token this service issued (or it was altered); request a new quote")
	p, sig, ok := strings.Cut(strings.TrimSpace(tok), ".")
	if !ok {
		return nil, bad
	}
	got, err := base64.RawURLEncoding.DecodeString(sig)
	if err != nil {
		return nil, bad
	}
	m := hmac.New(sha256.New, e.quoteKey)
	m.Write([]byte(p))
	if !hmac.Equal(got, m.Sum(nil)) {
		return nil, bad
	}
	body, err := base64.RawURLEncoding.DecodeString(p)
	if err != nil {
		return nil, bad
	}
	var q QuoteClaims
	if err := json.Unmarshal(body, &q); err != nil {
		return nil, bad
	}
	q.raw = body
	return &q, nil
}

// basePrice is the market price of a trade from in to out at t, before
// fees: units of the pair's quote currency for one unit of its base
// (marketPair), 1 for pegged pairs, otherwise mid-market with a small drift
// that changes every 10 seconds (so that re-quotes visibly differ) and
// depends only on the clock and the direction of the trade.
func basePrice(in, out string, t time.Time) decimal.Decimal {
	if money.Pegged(in, out) {
		return decimal.NewFromInt(1)
	}
	base, quote := marketPair(in, out)
	mid := usdValue[base].DivRound(usdValue[quote], 12)
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], uint64(t.Unix()/10))
	h := sha256.Sum256(append([]byte(in+">"+out+"/"), b[:]...))
	bp := int64(h[0]%31) - 15 // ±0.15%
	drift := decimal.NewFromInt(10000 + bp).Div(decimal.NewFromInt(10000))
	return mid.Mul(drift).Round(10)
}

// QuoteRequest is what a quote is asked for (seed, §3, §7.3), its values
// read and checked against the catalogue by the caller: exactly one of
// the amounts, by ByOutput.
type QuoteRequest struct {
	InputCurrency, InputMethod, OutputCurrency, OutputMethod string
	InputAmount, OutputAmount                                decimal.Decimal
	ByOutput                                                 bool
	InputThirdParty, OutputThirdParty                        bool
	SendMethod                                               string
	MarkupFloatingFee, MarkupInputFixedFee                   decimal.Decimal
	MarkupOutputFixedFee                                     decimal.Decimal
	MarkupCurrency                                           string
	OutputBrCode, TicketRefundID                             string
}

// MaxMarkupFloatingFee is the largest markup fraction a quote may carry.
func MaxMarkupFloatingFee() decimal.Decimal { return maxMarkupPct }

// Quote prices r for the operated account and issues it: its claims, and
// the token a ticket creation carries them in.
func (e *Engine) Quote(c Caller, r *QuoteRequest) (*QuoteClaims, string, error) {
	e.mu.RLock()
	acct, err := e.scope(c)
	if err == nil {
		err = railRefusal(acct, r.InputCurrency, r.InputMethod, r.OutputCurrency, r.OutputMethod)
	}
	e.mu.RUnlock()
	if err != nil {
		return nil, "", err
	}
	p := r
	bp := basePrice(p.InputCurrency, p.OutputCurrency, c.Now)
	in := p.InputAmount
	if p.ByOutput {
		var ok bool
		if in, ok = p.solveInput(p.OutputAmount, bp); !ok {
			return nil, "", badRequest(CodeAmountTooLarge, "outputAmount: %s %s is more than this service converts in one ticket", p.OutputAmount, p.OutputCurrency)
		}
	}
	if in.Mul(usdValue[p.InputCurrency]).GreaterThan(maxInputUSDValue) {
		return nil, "", badRequest(CodeAmountTooLarge, "%s: %s %s is over the limit of one ticket (USD 5,000,000 equivalent); split it", p.amountField(), in, p.InputCurrency)
	}
	fees, out := p.forward(in, bp)
	if !out.IsPositive() {
		return nil, "", badRequest(CodeAmountTooSmall, "%s: %s %s does not cover the fees; raise the amount", p.amountField(), in, p.InputCurrency)
	}
	q := &QuoteClaims{
		ID: uuid.New(), SubAccountID: acct.SubAccountID(), AccountID: acct.ID, AccessID: c.Access.ID,
		IssuedAt: c.Now.UnixMilli(), ExpiresAt: c.Now.Add(quoteTTL).UnixMilli(),
		InputCurrency: p.InputCurrency, InputPaymentMethod: p.InputMethod, InputAmount: in,
		OutputCurrency: p.OutputCurrency, OutputPaymentMethod: p.OutputMethod, OutputAmount: out,
		InputThirdParty: p.InputThirdParty, OutputThirdParty: p.OutputThirdParty, BasePrice: bp, SendMethod: p.SendMethod, Fees: fees,
		MarkupAmount: decimal.Zero, OutputBrCode: p.OutputBrCode, TicketRefundID: p.TicketRefundID,
	}
	if p.hasMarkup() {
		q.MarkupCurrency = p.MarkupCurrency
		if q.MarkupCurrency == "" {
			q.MarkupCurrency = p.InputCurrency
			if !p.MarkupFloatingFee.IsPositive() && !p.MarkupInputFixedFee.IsPositive() {
				q.MarkupCurrency = p.OutputCurrency
			}
		}
		q.MarkupAmount = markupTotal(fees, q.MarkupCurrency, p.InputCurrency, p.OutputCurrency, bp)
	}
	return q, sealQuoteWith(e.quoteKey, q), nil
}

func (p *QuoteRequest) amountField() string {
	if p.ByOutput {
		return "outputAmount"
	}
	return "inputAmount"
}

func (p *QuoteRequest) hasMarkup() bool {
	return p.MarkupFloatingFee.IsPositive() || p.MarkupInputFixedFee.IsPositive() || p.MarkupOutputFixedFee.IsPositive()
}

// The five fees a quote lists, in the order the service lists them, with
// the service's own descriptions (§8.2).
const (
	FeeMarkup     = "Markup Fee"
	FeeIn         = "In Fee"
	FeeConversion = "Conversion Fee"
	FeeOut        = "Out Fee"
	FeeGas        = "Gas Fee"
)

var feeDescriptions = map[string]string{
	FeeMarkup:     "Total markup fees represented in the input currency.",
	FeeIn:         "Fees due to input currency and input payment method.",
	FeeConversion: "Fees due to conversion from input currency to output currency.",
	FeeOut:        "Fees due to output currency and output payment method.",
	FeeGas:        "Fees due to blockchain transaction costs.",
}

// Rebatable says which fees a ticket's quote marks rebatable (§8.2): the
// service's own fees on the two sides and the conversion, never the
// caller's markup or the network's gas.
func Rebatable(feeType string) bool {
	return feeType == FeeIn || feeType == FeeConversion || feeType == FeeOut
}

// forward prices an input amount: the five fees, all in the input
// currency, zero included (§8.2), and the output amount, by the amount
// rule: (input − fees) converted at the base price (§8.1), rounded down to the output's
// precision.
func (p *QuoteRequest) forward(in, bp decimal.Decimal) (fees []records.Fee, out decimal.Decimal) {
	inPrec, outPrec := money.Precision(p.InputCurrency), money.Precision(p.OutputCurrency)
	markup := in.Mul(p.MarkupFloatingFee).Round(inPrec).Add(p.MarkupInputFixedFee).Add(p.inInput(p.MarkupOutputFixedFee, p.OutputCurrency))
	conv := decimal.Zero
	if p.InputCurrency != p.OutputCurrency {
		pct := conversionPct
		if money.Pegged(p.InputCurrency, p.OutputCurrency) {
			pct = peggedPct
		}
		conv = in.Sub(markup).Mul(pct).Round(inPrec)
	}
	outFee := p.inInput(outFees[p.OutputMethod], p.OutputCurrency)
	gas := decimal.Zero
	if g, ok := gasUSD[p.OutputMethod]; ok && money.IsChain(p.OutputMethod) {
		gas = p.inInput(g, "USD")
	}
	total := decimal.Zero
	for _, f := range []struct {
		typ string
		amt decimal.Decimal
	}{{FeeMarkup, markup}, {FeeIn, decimal.Zero}, {FeeConversion, conv}, {FeeOut, outFee}, {FeeGas, gas}} {
		fees = append(fees, records.Fee{Type: f.typ, Description: feeDescriptions[f.typ], Amount: f.amt, Currency: p.InputCurrency})
		total = total.Add(f.amt)
	}
	out = converted(in.Sub(total), bp, p.InputCurrency, p.OutputCurrency).RoundFloor(outPrec)
	return fees, out
}

// inInput is an amount of currency cur in the input currency, at
// mid-market, rounded up to the input's precision (a fee is never
// understated by rounding).
func (p *QuoteRequest) inInput(amt decimal.Decimal, cur string) decimal.Decimal {
	if !amt.IsPositive() {
		return decimal.Zero
	}
	if cur == p.InputCurrency {
		return amt
	}
	return amt.Mul(usdValue[cur]).DivRound(usdValue[p.InputCurrency], 12).RoundCeil(money.Precision(p.InputCurrency))
}

// solveInput finds the smallest input amount (at input precision) whose
// forward quote yields at least target.
func (p *QuoteRequest) solveInput(target, bp decimal.Decimal) (decimal.Decimal, bool) {
	inPrec := money.Precision(p.InputCurrency)
	ulp := decimal.New(1, -inPrec)
	// A first guess from the totals, then a binary search on the grid.
	_, probe := p.forward(decimal.NewFromInt(1_000_000), bp)
	if !probe.IsPositive() {
		return decimal.Zero, false
	}
	lo := decimal.Zero
	hi := target.Add(decimal.NewFromInt(1)).Div(converted(decimal.NewFromInt(1), bp, p.InputCurrency, p.OutputCurrency)).Mul(decimal.NewFromInt(2)).Add(decimal.NewFromInt(100_000)).RoundCeil(inPrec)
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

// markupTotal is the markup in the markup currency cur; markup fees in the
// other currency of the trade from inCur to outCur are converted at the
// base price.
func markupTotal(fees []records.Fee, cur, inCur, outCur string, bp decimal.Decimal) decimal.Decimal {
	total := decimal.Zero
	for _, f := range fees {
		if f.Type != FeeMarkup {
			continue
		}
		switch {
		case f.Currency == cur:
			total = total.Add(f.Amount)
		case f.Currency == inCur: // in → out
			total = total.Add(converted(f.Amount, bp, inCur, outCur))
		default: // out → in
			total = total.Add(converted(f.Amount, bp, outCur, inCur))
		}
	}
	return total.Round(money.Precision(cur))
}
