package quote

import (
	"errors"
	"fmt"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/brcode"
	"github.com/tesouro-treasury/tesouro/money"
	"github.com/tesouro-treasury/tesouro/views/internal/form"
)

// Field ids of the quote form.
const (
	fInCurrency  = "inCurrency"
	fInMethod    = "inMethod"
	fOutCurrency = "outCurrency"
	fOutMethod   = "outMethod"
	fMode        = "mode"
	fAmount      = "amount"
	fSendMethod  = "sendMethod"
	fInThird     = "inThird"
	fOutThird    = "outThird"
	fBrCode      = "brCode"
	fMarkup      = "markup"
	fMarkupPct   = "markupPct"
	fMarkupIn    = "markupIn"
	fMarkupOut   = "markupOut"
	fMarkupCur   = "markupCur"
)

// Amount modes.
const (
	modeSend    = "I send"
	modeReceive = "they receive"
)

// form is the quote request being composed.
type quoteForm struct {
	fields []*form.Input
	focus  int
	// markupDenied says why this access may not add a markup ("" if it may).
	markupDenied string
	// inlineDenied says why this access may not pay a BR Code ("" if it
	// may): one restricted to registered beneficiaries.
	inlineDenied string
}

func newForm(markupDenied string) *quoteForm {
	inputs := inputCurrencies()
	f := &quoteForm{}
	f.fields = []*form.Input{
		form.NewSuggest(fInCurrency, "Input currency", inputs, "BRL"),
		form.NewSuggest(fInMethod, "Input method", money.Methods("BRL"), "PIX"),
		form.NewSuggest(fOutCurrency, "Output currency", money.Currencies(), "BRLA"),
		form.NewSuggest(fOutMethod, "Output method", money.Methods("BRLA"), "INTERNAL"),
		form.NewToggle(fMode, "Amount is", modeSend, modeReceive),
		form.NewText(fAmount, "Amount", "e.g. 500.00", 32),
		form.NewToggle(fSendMethod, "Send method", api.SendPermit, api.SendTransfer),
		form.NewToggle(fInThird, "Input 3rd party", "no", "yes"),
		form.NewToggle(fOutThird, "Output 3rd party", "no", "yes"),
		// Last of the request proper so that the fields above keep their
		// places whatever the output: it exists only for BRL via PIX.
		form.NewText(fBrCode, "Pay a BR Code", "optional: paste a PIX BR Code (000201…)", brcode.MaxLen),
		form.NewToggle(fMarkup, "Markup", "none", "add"),
		form.NewText(fMarkupPct, "Markup %", "floating, e.g. 0.5", 12),
		form.NewText(fMarkupIn, "Markup fixed in", "in input currency", 24),
		form.NewText(fMarkupOut, "Markup fixed out", "in output currency", 24),
		form.NewSuggest(fMarkupCur, "Markup currency", nil, ""),
	}
	f.setMarkupDenied(markupDenied)
	f.refresh()
	f.fields[f.focus].Focus()
	return f
}

// inputCurrencies are the catalogue currencies that can be sent.
func inputCurrencies() []string {
	var out []string
	for _, c := range money.Currencies() {
		if !money.OutputOnly(c) {
			out = append(out, c)
		}
	}
	return out
}

// setMarkupDenied records why the access may not add a markup ("" when it
// may): the access info can arrive after the screen was built.
func (f *quoteForm) setMarkupDenied(reason string) {
	f.markupDenied = reason
	m := f.get(fMarkup)
	m.Disabled = reason
	if reason != "" {
		m.Set("none")
	}
}

func (f *quoteForm) get(id string) *form.Input {
	for _, x := range f.fields {
		if x.ID == id {
			return x
		}
	}
	panic("quote form: no field " + id)
}

// visible reports whether a field is part of the form as it stands: the send
// method only for a chain input, the markup details only with a markup.
func (f *quoteForm) visible(x *form.Input) bool {
	switch x.ID {
	case fSendMethod:
		return money.IsChain(f.get(fInMethod).Value())
	case fBrCode:
		return f.paysPix()
	case fMarkupPct, fMarkupIn, fMarkupOut, fMarkupCur:
		return f.get(fMarkup).Value() == "add" && f.markupDenied == ""
	}
	return true
}

// paysPix reports whether the output is BRL via PIX, the only output a BR
// Code can be paid with.
func (f *quoteForm) paysPix() bool {
	return f.get(fOutCurrency).Value() == "BRL" && f.get(fOutMethod).Value() == "PIX"
}

// brCode is the BR Code to pay, read: nil with no error when there is none
// (or the output is not BRL via PIX).
func (f *quoteForm) brCode() (string, *brcode.Payload, error) {
	x := f.get(fBrCode)
	code := x.Value()
	if !f.paysPix() || code == "" {
		return "", nil, nil
	}
	p, err := brcode.Parse(code)
	if err == nil && p.Key == "" && p.URL == "" {
		err = errors.New("the code names no PIX key nor charge URL: nothing to pay")
	}
	return code, p, err
}

// syncBrCode locks the amount to the BR Code's: a code that carries an
// amount is paid exactly that, as what they receive. Without a code (or
// with one that leaves the amount to the payer) the amount is free again.
func (f *quoteForm) syncBrCode() {
	amount, mode, x := f.get(fAmount), f.get(fMode), f.get(fBrCode)
	amount.Disabled, mode.Disabled = "", ""
	_, p, err := f.brCode()
	switch {
	case err != nil:
		x.Err = "not a BR Code that can be paid: " + err.Error()
	case p == nil:
	default:
		who := nonEmpty(p.Key, p.URL)
		x.Note = "understood: pays " + nonEmpty(p.MerchantName, "—") + labelled(", ", p.MerchantCity) + " · " + who
		if p.Amount.IsPositive() {
			mode.Set(modeReceive)
			amount.Set(money.Format(p.Amount, "BRL"))
			amount.Disabled = "taken from the BR Code"
			mode.Disabled = "by the BR Code"
			x.Note += " · BRL " + money.Format(p.Amount, "BRL") + " (the amount is locked to it)"
		} else {
			x.Note += " · no amount in the code: type what they receive"
			mode.Set(modeReceive)
			mode.Disabled = "by the BR Code"
		}
	}
}

// visibleFields lists the fields shown, in order.
func (f *quoteForm) visibleFields() []*form.Input {
	var out []*form.Input
	for _, x := range f.fields {
		if f.visible(x) {
			out = append(out, x)
		}
	}
	return out
}

// focused is the field with focus.
func (f *quoteForm) focused() *form.Input { return f.fields[f.focus] }

func (f *quoteForm) focusOn(id string) {
	f.focused().Blur()
	for i, x := range f.fields {
		if x.ID == id {
			f.focus = i
		}
	}
	f.focused().Focus()
}

// refresh recomputes what depends on other fields: the methods offered for
// each currency, the markup currencies, and what was understood of the
// amounts. It is called after every change.
func (f *quoteForm) refresh() {
	inCur, outCur := f.get(fInCurrency).Value(), f.get(fOutCurrency).Value()
	f.syncMethods(fInMethod, inCur)
	f.syncMethods(fOutMethod, outCur)
	mc := f.get(fMarkupCur)
	opts := []string{inCur}
	if outCur != inCur {
		opts = append(opts, outCur)
	}
	mc.Options = opts
	if mc.Value() == "" {
		mc.Set(inCur)
	}

	for _, x := range f.fields {
		x.Err = ""
		x.Note = ""
		if x.Kind == form.Suggest {
			x.Note = "←/→ " + strings.Join(x.Options, " ") + " (or type any code)"
		}
	}
	f.syncBrCode()
	if money.OutputOnly(inCur) {
		f.get(fInCurrency).Note = inCur + " is output-only in the catalogue: the service will likely refuse it as input"
	}
	amount := f.get(fAmount)
	if amount.Value() == "" {
		amount.Note = "the amount " + f.amountSubject()
	} else if d, err := money.ParseAmount(amount.Value(), f.amountCurrency()); err != nil {
		amount.Err = err.Error()
	} else {
		amount.Note = "understood: " + money.Format(d, f.amountCurrency()) + " " + f.amountCurrency() + " " + f.amountSubject()
	}
	if f.markupDenied != "" {
		f.get(fMarkup).Note = ""
	}
	if x := f.get(fMarkupPct); x.Value() != "" {
		if d, err := parsePercent(x.Value()); err != nil {
			x.Err = err.Error()
		} else {
			x.Note = "understood: " + d.String() + " % (sent as the fraction " + d.Div(decimal.NewFromInt(100)).String() + ")"
		}
	}
	f.fixedNote(fMarkupIn, inCur)
	f.fixedNote(fMarkupOut, outCur)
	if x := f.get(fSendMethod); x.Value() == api.SendTransfer {
		x.Note = "you transfer the tokens yourself; no signature needed"
	} else {
		x.Note = "the service pulls the tokens with your permit or personal signature"
	}
}

func (f *quoteForm) fixedNote(id, currency string) {
	x := f.get(id)
	if x.Value() == "" {
		return
	}
	if d, err := money.ParseAmount(x.Value(), currency); err != nil {
		x.Err = err.Error()
	} else {
		x.Note = "understood: " + money.Format(d, currency) + " " + currency
	}
}

// syncMethods offers the catalogue methods of currency on a method field,
// keeping a typed value only while the currency's catalogue is unknown.
func (f *quoteForm) syncMethods(id, currency string) {
	x := f.get(id)
	opts := money.Methods(currency)
	x.Options = opts
	if len(opts) > 0 && !contains(opts, x.Value()) {
		x.Set(opts[0])
	}
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

func (f *quoteForm) amountCurrency() string {
	if f.get(fMode).Value() == modeReceive {
		return f.get(fOutCurrency).Value()
	}
	return f.get(fInCurrency).Value()
}

func (f *quoteForm) amountSubject() string {
	if f.get(fMode).Value() == modeReceive {
		return "they receive"
	}
	return "you send"
}

// parsePercent reads a markup percentage: digits with up to 4 decimals,
// more than 0 and less than 100.
func parsePercent(s string) (decimal.Decimal, error) {
	d, err := money.ParseAmount(s, "BRLA") // 6 decimals of precision, same strict grammar
	if err != nil {
		return decimal.Decimal{}, errors.New(strings.Replace(err.Error(), "BRLA", "a percentage", 1))
	}
	if d.Exponent() < -4 {
		return decimal.Decimal{}, errors.New("a percentage takes at most 4 decimals, e.g. 0.125")
	}
	if d.GreaterThanOrEqual(decimal.NewFromInt(100)) {
		return decimal.Decimal{}, errors.New("a markup must be under 100 %: type e.g. 0.5 for half a percent")
	}
	return d, nil
}

// request validates the form and builds the quote request for account. The
// first invalid field gets the error and is returned so it can take focus.
func (f *quoteForm) request(account api.QuoteRequest) (api.QuoteRequest, *form.Input) {
	f.refresh()
	req := account
	for _, id := range []string{fInCurrency, fInMethod, fOutCurrency, fOutMethod} {
		if x := f.get(id); x.Value() == "" {
			x.Err = "required: choose with ←/→ or type a code"
			return req, x
		}
	}
	req.InputCurrency = f.get(fInCurrency).Value()
	req.InputPaymentMethod = f.get(fInMethod).Value()
	req.OutputCurrency = f.get(fOutCurrency).Value()
	req.OutputPaymentMethod = f.get(fOutMethod).Value()
	code, p, err := f.brCode()
	if err != nil {
		return req, f.get(fBrCode)
	}
	if code != "" && f.inlineDenied != "" {
		x := f.get(fBrCode)
		x.Note, x.Err = "", f.inlineDenied+": register the key in Beneficiaries and pay it from there"
		return req, x
	}
	req.OutputBrCode = code
	amount := f.get(fAmount)
	switch {
	case p != nil && p.Amount.IsPositive():
		// The amount comes from the code (service.md §7.3): sending it
		// too could only disagree with it.
	default:
		d, err := money.ParseAmount(amount.Value(), f.amountCurrency())
		if err != nil {
			amount.Note = ""
			amount.Err = err.Error()
			return req, amount
		}
		if f.get(fMode).Value() == modeReceive {
			req.OutputAmount = decimal.NewNullDecimal(d)
		} else {
			req.InputAmount = decimal.NewNullDecimal(d)
		}
	}
	req.InputThirdParty = f.get(fInThird).Value() == "yes"
	req.OutputThirdParty = f.get(fOutThird).Value() == "yes"
	if money.IsChain(req.InputPaymentMethod) {
		req.BlockchainSendMethod = f.get(fSendMethod).Value()
	}
	if f.get(fMarkup).Value() == "add" && f.markupDenied == "" {
		some := false
		if x := f.get(fMarkupPct); x.Value() != "" {
			p, err := parsePercent(x.Value())
			if err != nil {
				x.Err = err.Error()
				return req, x
			}
			req.MarkupFloatingFee = decimal.NewNullDecimal(p.Div(decimal.NewFromInt(100)))
			some = true
		}
		for _, c := range []struct {
			id, cur string
			dst     *decimal.NullDecimal
		}{{fMarkupIn, req.InputCurrency, &req.MarkupInputFixedFee}, {fMarkupOut, req.OutputCurrency, &req.MarkupOutputFixedFee}} {
			x := f.get(c.id)
			if x.Value() == "" {
				continue
			}
			v, err := money.ParseAmount(x.Value(), c.cur)
			if err != nil {
				x.Err = err.Error()
				return req, x
			}
			*c.dst = decimal.NewNullDecimal(v)
			some = true
		}
		if !some {
			x := f.get(fMarkupPct)
			x.Err = "a markup needs a percentage or a fixed fee: fill one, or set Markup to none"
			return req, x
		}
		req.MarkupCurrency = f.get(fMarkupCur).Value()
	}
	return req, nil
}

// summary is the one-line description of the request ("500.00 BRL PIX →
// BRLA POLYGON").
func summary(q *api.Quote) string {
	return fmt.Sprintf("%s %s %s → %s %s %s",
		money.Format(q.InputAmount, q.InputCurrency), q.InputCurrency, q.InputPaymentMethod,
		money.Format(q.OutputAmount, q.OutputCurrency), q.OutputCurrency, q.OutputPaymentMethod)
}
