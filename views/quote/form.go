package quote

import (
	"errors"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/brcode"
	"github.com/tesouro-treasury/tesouro/money"
	"github.com/tesouro-treasury/tesouro/payment"
	"github.com/tesouro-treasury/tesouro/views/internal/form"
)

// Field keys of the quote form, named as the quote request names them so
// that an error of the payment core or of the service lands on its field.
const (
	fInCurrency  = "inputCurrency"
	fInMethod    = "inputPaymentMethod"
	fOutCurrency = "outputCurrency"
	fOutMethod   = "outputPaymentMethod"
	fMode        = "mode"
	fAmount      = "amount"
	fSendMethod  = "blockchainSendMethod"
	fInThird     = "inputThirdParty"
	fOutThird    = "outputThirdParty"
	fBrCode      = "outputBrCode"
	fMarkup      = "markup"
	fMarkupPct   = "markupFloatingFee"
	fMarkupIn    = "markupInputFixedFee"
	fMarkupOut   = "markupOutputFixedFee"
	fMarkupCur   = "markupCurrency"
)

// Amount modes.
const (
	modeSend    = "I send"
	modeReceive = "they receive"
)

// entry is the first stage: the form that composes the payment's intent
// (both sides, the fixed amount, the send method, third parties, a BR Code
// to pay, the markup), beside the quote it was priced at.
type entry struct {
	m       *Screen
	form    *form.Form
	editing bool
	// info is the notice of the last key ("Last field: ...").
	info   string
	offset int
	w, h   int
	// markupDenied says why this access may not add a markup ("" if it
	// may): the access can load after the form is built.
	markupDenied string
}

// railCheck marks a currency whose fiat rail the operated account may not
// use (service.md §8.7, from the account's metadata once it came): the
// service would refuse its quote with RAIL_LOCKED, so none is asked for.
func (e *entry) railCheck(v string, _ form.Values) (string, string, error) {
	cur := money.Canonical(v)
	if r := e.m.rails; r != nil && !r.Unlocked(cur) {
		return "", "", errors.New("the " + cur + " rail is locked for this account: the service refuses its quotes")
	}
	return "", "", nil
}

func newEntry(m *Screen) *entry {
	e := &entry{m: m}
	f := form.New("Quote",
		form.Field{Key: fInCurrency, Label: "Input currency", Suggest: inputCurrencies(), Check: e.railCheck},
		form.Field{Key: fInMethod, Label: "Input method", Options: methodsOf(fInCurrency)},
		form.Field{Key: fOutCurrency, Label: "Output currency", Suggest: money.Currencies(), Check: e.railCheck},
		form.Field{Key: fOutMethod, Label: "Output method", Options: methodsOf(fOutCurrency)},
		form.Field{Key: fMode, Label: "Amount is", Choices: []string{modeSend, modeReceive}, Derive: func(v form.Values) (string, string) {
			if _, p, err := brCodeOf(v); err == nil && p != nil {
				return modeReceive, "by the BR Code"
			}
			return "", ""
		}},
		form.Field{Key: fAmount, Label: "Amount", Placeholder: "e.g. 500.00", CharLimit: 32, Check: checkAmount,
			Derive: func(v form.Values) (string, string) {
				if _, p, err := brCodeOf(v); err == nil && p != nil && p.Amount.IsPositive() {
					return money.Format(p.Amount, "BRL"), "taken from the BR Code"
				}
				return "", ""
			},
			Help: func(v form.Values) string {
				if v(fAmount) == "" {
					return "the amount " + amountSubject(v)
				}
				return ""
			}},
		form.Field{Key: fSendMethod, Label: "Send method", Choices: []string{api.SendPermit, api.SendTransfer},
			Visible: func(v form.Values) bool { return money.IsChain(v(fInMethod)) },
			Help: func(v form.Values) string {
				if v(fSendMethod) == api.SendTransfer {
					return "you transfer the tokens yourself; no signature needed"
				}
				return "the service pulls the tokens with your permit or personal signature"
			}},
		form.Field{Key: fInThird, Label: "Input 3rd party", Choices: []string{"no", "yes"}},
		form.Field{Key: fOutThird, Label: "Output 3rd party", Choices: []string{"no", "yes"}},
		// Last of the request proper so that the fields above keep their
		// places whatever the output: it exists only for BRL via PIX.
		form.Field{Key: fBrCode, Label: "Pay a BR Code", Placeholder: "optional: paste a BR Code (000201…)", CharLimit: brcode.MaxLen,
			Visible: paysPix, Check: checkBrCode},
		form.Field{Key: fMarkup, Label: "Markup", Choices: []string{"none", "add"}, Derive: func(form.Values) (string, string) {
			if e.markupDenied != "" {
				return "none", e.markupDenied
			}
			return "", ""
		}},
		form.Field{Key: fMarkupPct, Label: "Markup %", Placeholder: "floating, e.g. 0.5", CharLimit: 12, Visible: withMarkup, Check: checkPercent},
		form.Field{Key: fMarkupIn, Label: "Markup fixed in", Placeholder: "in input currency", CharLimit: 24, Visible: withMarkup, Check: checkFixed(fInCurrency)},
		form.Field{Key: fMarkupOut, Label: "Markup fixed out", Placeholder: "in output currency", CharLimit: 24, Visible: withMarkup, Check: checkFixed(fOutCurrency)},
		form.Field{Key: fMarkupCur, Label: "Markup currency", Visible: withMarkup, Options: func(v form.Values) []string {
			in, out := v(fInCurrency), v(fOutCurrency)
			if out == in {
				return []string{in}
			}
			return []string{in, out}
		}},
	)
	f.EnterSubmits = true
	f.LabelWidth = labelW + 2
	f.SetValue(fOutCurrency, "BRLA")
	f.AddRule(func(v form.Values) (string, string) {
		if v(fMarkup) == "add" && v(fMarkupPct) == "" && v(fMarkupIn) == "" && v(fMarkupOut) == "" {
			return fMarkupPct, "a markup needs a percentage or a fixed fee: fill one, or set Markup to none"
		}
		return "", ""
	})
	f.Blur() // until e opens it
	e.form = f
	return e
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

// methodsOf offers the catalogue methods of the currency in field k.
func methodsOf(k string) func(form.Values) []string {
	return func(v form.Values) []string { return money.Methods(v(k)) }
}

func withMarkup(v form.Values) bool { return v(fMarkup) == "add" }

// paysPix reports whether the output is BRL via PIX, the only output a BR
// Code can be paid with.
func paysPix(v form.Values) bool {
	return v(fOutCurrency) == "BRL" && v(fOutMethod) == "PIX"
}

// brCodeOf is the BR Code the form pays, read: nil with no error when
// there is none (or the output is not BRL via PIX).
func brCodeOf(v form.Values) (string, *brcode.Payload, error) {
	code := v(fBrCode)
	if !paysPix(v) || code == "" {
		return "", nil, nil
	}
	p, err := brcode.Parse(code)
	if err == nil && p.Key == "" && p.URL == "" {
		err = errors.New("the code names no PIX key nor charge URL: nothing to pay")
	}
	return code, p, err
}

// checkBrCode says what a BR Code pays, or why it cannot be paid.
func checkBrCode(_ string, v form.Values) (string, string, error) {
	code, p, err := brCodeOf(v)
	switch {
	case err != nil:
		return "", "", errors.New("not a BR Code that can be paid: " + err.Error())
	case p == nil:
		return code, "", nil
	}
	hint := "understood: pays " + nonEmpty(p.MerchantName, "—") + labelled(", ", p.MerchantCity) + " · " + nonEmpty(p.Key, p.URL)
	if p.Amount.IsPositive() {
		hint += " · BRL " + money.Format(p.Amount, "BRL") + " (the amount is locked to it)"
	} else {
		hint += " · no amount in the code: type what they receive"
	}
	return code, hint, nil
}

func amountCurrency(v form.Values) string {
	if v(fMode) == modeReceive {
		return v(fOutCurrency)
	}
	return v(fInCurrency)
}

func amountSubject(v form.Values) string {
	if v(fMode) == modeReceive {
		return "they receive"
	}
	return "you send"
}

// checkAmount reads the amount in the currency it is fixed in.
func checkAmount(s string, v form.Values) (string, string, error) {
	cur := amountCurrency(v)
	d, err := money.ParseAmount(s, cur)
	if err != nil {
		return "", "", err
	}
	return d.String(), "understood: " + money.Format(d, cur) + " " + cur + " " + amountSubject(v), nil
}

// checkPercent reads a markup percentage: digits with up to 4 decimals,
// more than 0 and less than 100.
func checkPercent(s string, _ form.Values) (string, string, error) {
	d, err := money.ParseAmount(s, "BRLA") // 6 decimals of precision, same strict grammar
	switch {
	case err != nil:
		return "", "", errors.New(strings.Replace(err.Error(), "BRLA", "a percentage", 1))
	case d.Exponent() < -4:
		return "", "", errors.New("a percentage takes at most 4 decimals, e.g. 0.125")
	case d.GreaterThanOrEqual(decimal.NewFromInt(100)):
		return "", "", errors.New("a markup must be under 100 %: type e.g. 0.5 for half a percent")
	}
	return d.String(), "understood: " + d.String() + " % (sent as the fraction " + d.Div(decimal.NewFromInt(100)).String() + ")", nil
}

// checkFixed reads a fixed markup in the currency of field k.
func checkFixed(k string) form.Check {
	return func(s string, v form.Values) (string, string, error) {
		cur := v(k)
		d, err := money.ParseAmount(s, cur)
		if err != nil {
			return "", "", err
		}
		return d.String(), "understood: " + money.Format(d, cur) + " " + cur, nil
	}
}

// decimalOf is a checked field's value as a number, null when blank.
func (e *entry) decimalOf(k string) decimal.NullDecimal {
	d, err := decimal.NewFromString(e.form.Normalized(k))
	if err != nil {
		return decimal.NullDecimal{} // blank (or refused by its check)
	}
	return decimal.NewNullDecimal(d)
}

// setAccess records what the access may do with the form (it can load
// after the form is built).
func (e *entry) setAccess(markupDenied string) {
	if e.markupDenied != markupDenied {
		e.markupDenied = markupDenied
		e.form.Refresh()
	}
}

// intent reads the form into the payment's intent on account, once every
// field passed its checks: the sides, the amount on the side it is fixed
// on (none when a BR Code carries it), the send method of a chain input,
// third parties, the BR Code to pay and the markup. Where the output goes
// beyond a BR Code, and who sends, the details say.
func (e *entry) intent(account uuid.UUID) payment.Intent {
	f := e.form
	in := payment.Intent{
		Account:    account,
		InCurrency: f.Value(fInCurrency), InMethod: f.Value(fInMethod),
		OutCurrency: f.Value(fOutCurrency), OutMethod: f.Value(fOutMethod),
		SendMethod:    f.Normalized(fSendMethod),
		InThirdParty:  f.Value(fInThird) == "yes",
		OutThirdParty: f.Value(fOutThird) == "yes",
		Fixed:         payment.FixInput,
	}
	if f.Value(fMode) == modeReceive {
		in.Fixed = payment.FixOutput
	}
	if code := f.Normalized(fBrCode); code != "" {
		in.Pay = payment.Destination{Kind: payment.ToBrCode, BrCode: code}
	}
	if f.Disabled(fAmount) == "" {
		// An amount the BR Code carries is the code's: sending it too could
		// only disagree with it (service.md §7.3).
		in.Amount = e.decimalOf(fAmount).Decimal
	}
	if f.Value(fMarkup) == "add" {
		in.Markup = payment.Markup{Percent: e.decimalOf(fMarkupPct), InputFixed: e.decimalOf(fMarkupIn), OutputFixed: e.decimalOf(fMarkupOut),
			Currency: f.Normalized(fMarkupCur)}
	}
	return in
}

// amountFields are the form's field keys for the amount as the payment
// core names it.
var amountFields = map[string]string{"inputAmount": fAmount, "outputAmount": fAmount}

// refuse shows the payment core's refusal of the intent under the field it
// names, or above the form; it reports false when the refusal is about
// what the form does not ask (the payee, the external id: the details').
func (e *entry) refuse(err error) bool {
	var fe *payment.FieldError
	if !errors.As(err, &fe) {
		e.form.SetFormError(err.Error())
		return true
	}
	k := fe.Field
	if a, ok := amountFields[k]; ok {
		k = a
	}
	return e.form.SetFieldError(k, fe.Msg)
}

// SetSize implements the stage's part of ui.Screen.
func (e *entry) SetSize(w, h int) { e.w, e.h = w, h }

// KeyMap is what the form stage offers now.
func (e *entry) KeyMap() []key.Binding {
	k, m := e.m.keys, e.m
	if e.editing {
		return []key.Binding{k.Move, k.Choose, k.GetQuote, k.Done}
	}
	get, requote := k.GetQuote, k.Requote
	if m.quote != nil {
		// With a quote on screen enter continues, as c does: one binding,
		// one hint.
		get = k.Continue
		get.SetEnabled(m.continueDenied() == "")
	}
	switch {
	case m.quote != nil:
	case m.quoteErr != "":
		requote.SetHelp("r", "try again")
	default:
		requote.SetEnabled(false)
	}
	return []key.Binding{k.Edit, get, requote, k.Auto}
}

// edit opens the form at its first field, wherever it was left: keys
// typed from memory land where the user expects.
func (e *entry) edit() tea.Cmd {
	e.editing = true
	e.info = ""
	return e.form.Focus()
}

// done leaves the form.
func (e *entry) done() {
	e.editing = false
	e.offset = 0
	e.form.Blur()
}

// update feeds a key (or a paste) to the form being edited.
func (e *entry) update(msg tea.Msg) tea.Cmd {
	e.info = ""
	before := e.form.FocusedKey()
	res, cmd := e.form.Update(msg)
	switch res {
	case form.Cancelled:
		e.done()
	case form.Submitted:
		return e.m.quoteFromForm()
	case form.Changed:
		e.m.formChanged()
	}
	if kp, ok := msg.(tea.KeyPressMsg); ok && e.form.FocusedKey() == before {
		switch kp.String() {
		case "tab", "down":
			e.info = "Last field: enter gets the quote, esc leaves the form."
		case "shift+tab", "up":
			e.info = "First field."
		}
	}
	return cmd
}
