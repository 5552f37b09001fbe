package quote

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/brcode"
	"github.com/tesouro-treasury/tesouro/payment"
	"github.com/tesouro-treasury/tesouro/validate"
	"github.com/tesouro-treasury/tesouro/views/internal/form"
)

// Field keys of the ticket details, named as the payment core and the
// creation request name them.
const (
	dExternal         = "externalId"
	dRemitter         = "remitterId"
	dAdditional       = "additionalData"
	dWallet           = "ticketBlockchainInput.walletAddress"
	dSig              = "signature"
	dPermitR          = "permitR"
	dPermitS          = "permitS"
	dPermitV          = "permitV"
	dPermitNonce      = "permitNonce"
	dPermitDeadline   = "permitDeadline"
	dPersonalSig      = "personalSignature"
	dPersonalDeadline = "personalDeadline"
	dPayBrCode        = "brCode"
	dBeneficiary      = "beneficiary"
	dPixKey           = "pixKey"
	dAddress          = "walletAddress"
	dMemo             = "walletMemo"
	dTaxID            = "taxId"
	dUserName         = "userName"
	dBankCode         = "bankCode"
	dBranchCode       = "branchCode"
	dAccountNumber    = "accountNumber"
	dAccountType      = "accountType"
	dReference        = "reference"
	dMarkupWallet     = "markupWalletAddress"
)

// Signature choices of a PERMIT input.
const (
	sigPermit   = "permit"
	sigPersonal = "personal"
	sigService  = "none: service wallet"
)

// extLocked is what the external id says while it cannot be typed into:
// it is the idempotency key of the intent, and a stray key in it would make
// a retry a second ticket.
const extLocked = "locked · ctrl+e to edit"

// noBeneficiary is what an empty picker says.
const noBeneficiary = "no beneficiary of this kind in the operated account: register one in Beneficiaries"

// details is the second stage: it asks for exactly what the quote's ticket
// needs and fills the intent in with it (who sends, where the output goes,
// the reference, the markup wallet, the external id). Its fields come from
// payment.Required and the output's rail: a picker of the rail's kind of
// beneficiary, a field for each destination the rail takes inline, and the
// rail's own reference field.
type details struct {
	m    *Screen
	in   payment.Intent // as the form composed it, with its external id
	need payment.Requirements
	form *form.Form
	// unlocked is true once the user chose to edit the external id.
	unlocked bool
	// markupAddresses are the addresses of the markup picker's options.
	markupAddresses map[uuid.UUID]string
	offset          int
	w, h            int
}

// inline is a destination no beneficiary record stands for, as the
// details offer it: the option standing for it in the picker and the
// fields it is typed in.
type inline struct {
	kind   payment.DestKind
	title  string
	fields func(chain string) []form.Field
}

// inlines are the destinations a rail may take inline; the picker offers
// those its rail accepts.
var inlines = []inline{
	{payment.ToPixKey, "Another PIX key", func(string) []form.Field {
		return []form.Field{{Key: dPixKey, Label: "PIX key", Required: true, Placeholder: "CPF, CNPJ, +55 phone, e-mail or random key", CharLimit: 77,
			Check: func(s string, _ form.Values) (string, string, error) {
				kind, k, err := validate.PixKey(s)
				return k, "understood: " + string(kind) + " key " + k, err
			}}}
	}},
	{payment.ToAddress, "Another address", func(chain string) []form.Field {
		return []form.Field{
			{Key: dAddress, Label: "Wallet address", Required: true, Placeholder: addressHint(chain), CharLimit: 64,
				Missing: "required: the address to pay on " + chain,
				Help:    func(form.Values) string { return "the chain is the quote's: " + nonEmpty(chain, "—") },
				Check: func(s string, _ form.Values) (string, string, error) {
					addr, warn, err := validate.ChainAddress(chain, s)
					return addr, "understood: " + addr + " on " + chain + labelled(" (", warn) + closing(warn), err
				}},
			{Key: dMemo, Label: "Wallet memo", Placeholder: "optional", CharLimit: 100},
		}
	}},
	{payment.ToBankAccount, "Another bank account", func(string) []form.Field {
		return []form.Field{
			{Key: dTaxID, Label: "Holder CPF/CNPJ", Required: true, Check: func(s string, _ form.Values) (string, string, error) {
				n, kind, err := validate.TaxID(s)
				return n, "recognised: " + kind, err
			}},
			{Key: dUserName, Label: "Holder name", Required: true, CharLimit: 100},
			{Key: dBankCode, Label: "Bank code", Required: true, Placeholder: "341 (COMPE) or 8-digit ISPB", Check: bankDigits(3, 8)},
			{Key: dBranchCode, Label: "Branch", Required: true, Placeholder: "0001", Check: bankDigits(1, 5)},
			{Key: dAccountNumber, Label: "Account no.", Required: true, Check: bankDigits(1, 20)},
			{Key: dAccountType, Label: "Account type", Choices: []string{"checking", "payment", "savings", "salary"}},
		}
	}},
}

// bankDigits checks a bank, branch or account number of min to max
// digits; a bank code is 3 digits (COMPE) or 8 (ISPB), nothing between.
func bankDigits(min, max int) form.Check {
	return func(s string, _ form.Values) (string, string, error) {
		d, err := validate.Digits(s, min, max)
		if err == nil && min == 3 && max == 8 && len(d) != 3 && len(d) != 8 {
			err = fmt.Errorf("has %d digits: type the 3-digit bank code (COMPE) or the 8-digit ISPB", len(d))
		}
		return d, "", err
	}
}

// inlineID is the picker option that stands for a destination of kind k
// typed under the picker. It is no beneficiary's id: those are random (v4)
// UUIDs, and uuid.Nil is the account's own wallet.
func inlineID(k payment.DestKind) uuid.UUID {
	return uuid.NewSHA1(uuid.NameSpaceOID, []byte(fmt.Sprintf("tesouro/quote/inline-output/%d", k)))
}

func closing(s string) string {
	if s == "" {
		return ""
	}
	return ")"
}

func addressHint(chain string) string {
	if strings.EqualFold(chain, "TRON") {
		return "T… a TRON address"
	}
	return "0x… an address on " + nonEmpty(chain, "the quote's chain")
}

var (
	hex32 = regexp.MustCompile(`^0x[0-9a-fA-F]{64}$`)
	hex65 = regexp.MustCompile(`^0x[0-9a-fA-F]{130}$`)
)

// pattern is a check that v matches re, or says msg.
func pattern(re *regexp.Regexp, msg string) form.Check {
	return func(s string, _ form.Values) (string, string, error) {
		if !re.MatchString(s) {
			return "", "", errors.New(msg)
		}
		return s, "", nil
	}
}

// newDetails builds the details of the intent in, priced by q.
func newDetails(m *Screen, in payment.Intent, q *api.Quote) *details {
	d := &details{m: m, in: in, need: payment.Required(q)}
	rail := d.need.Rail
	sig := func(want string) func(form.Values) bool { return func(v form.Values) bool { return v(dSig) == want } }
	deadline := form.Check(func(s string, _ form.Values) (string, string, error) {
		v, err := deadlineOf(s, m.s.Now())
		return strconv.FormatInt(v, 10), "", err
	})
	fields := []form.Field{{Key: dExternal, Label: "External id", Placeholder: "your tracking id", CharLimit: payment.MaxExternalID,
		Disabled: func(form.Values) string {
			if d.unlocked {
				return ""
			}
			return extLocked
		},
		Help: func(form.Values) string {
			if d.unlocked {
				return "editing: a retry must reuse the same id, or the service makes a second ticket"
			}
			return "made once for this conversion: a retry re-uses it, so the service never gets it twice"
		}}}
	if d.need.Needs(payment.BlockPixInput) {
		fields = append(fields,
			form.Field{Key: dRemitter, Label: "Remitter id", Placeholder: "optional: who pays", CharLimit: 100},
			form.Field{Key: dAdditional, Label: "PIX add. data", Placeholder: "optional: text carried in the PIX", CharLimit: 140})
	}
	if d.need.Needs(payment.BlockChainInput) {
		fields = append(fields, form.Field{Key: dWallet, Label: "Sending wallet", Required: true, Placeholder: "0x… your wallet address", CharLimit: 64,
			Check: func(s string, _ form.Values) (string, string, error) {
				sum, warn, err := validate.EVMAddress(s)
				return sum, "understood: " + sum + labelled(" (", warn) + closing(warn), err
			}})
		if d.need.Signature == payment.SigPermitOrPersonal {
			fields = append(fields,
				form.Field{Key: dSig, Label: "Signature", Choices: []string{sigPermit, sigPersonal, sigService}, Help: signatureHelp},
				form.Field{Key: dPermitR, Label: "Permit r", Required: true, Placeholder: "0x + 64 hex", CharLimit: 66, Visible: sig(sigPermit),
					Check: pattern(hex32, "r must be 0x followed by 64 hex digits")},
				form.Field{Key: dPermitS, Label: "Permit s", Required: true, Placeholder: "0x + 64 hex", CharLimit: 66, Visible: sig(sigPermit),
					Check: pattern(hex32, "s must be 0x followed by 64 hex digits")},
				form.Field{Key: dPermitV, Label: "Permit v", Required: true, Placeholder: "27 or 28", CharLimit: 3, Visible: sig(sigPermit),
					Check: pattern(regexp.MustCompile(`^(27|28|0|1)$`), "v must be 27 or 28 (0 or 1 are accepted too)")},
				form.Field{Key: dPermitNonce, Label: "Permit nonce", Required: true, Placeholder: "integer", CharLimit: 20, Visible: sig(sigPermit),
					Check: pattern(regexp.MustCompile(`^[0-9]{1,18}$`), "nonce must be a whole number, 0 or more: the token's nonces(owner)")},
				form.Field{Key: dPermitDeadline, Label: "Permit deadline", Required: true, Placeholder: "Unix seconds", CharLimit: 12, Visible: sig(sigPermit), Check: deadline},
				form.Field{Key: dPersonalSig, Label: "Signature hex", Required: true, Placeholder: "0x + 130 hex", CharLimit: 132, Visible: sig(sigPersonal),
					Check: pattern(hex65, "the signature must be 0x followed by 130 hex digits (65 bytes)")},
				form.Field{Key: dPersonalDeadline, Label: "Sig. deadline", Required: true, Placeholder: "Unix seconds", CharLimit: 12, Visible: sig(sigPersonal), Check: deadline},
			)
		}
	}
	switch {
	case in.Pay.Kind == payment.ToBrCode:
		// The quote was asked for this code: it is what the ticket pays.
		title := brCodeTitle(in.Pay.BrCode)
		fields = append(fields, form.Field{Key: dPayBrCode, Label: "Pays BR Code", CharLimit: brcode.MaxLen,
			Derive: func(form.Values) (string, string) { return title, "the BR Code of the quote" }})
	case rail.Payee != payment.KindNone:
		fields = append(fields, form.Field{Key: dBeneficiary, Label: payees[rail.Payee].label, Picker: true, Required: true,
			Missing: "choose a beneficiary: type to filter, ↑/↓, enter"})
		for _, x := range inlines {
			if !rail.Takes(x.kind) {
				continue
			}
			id := inlineID(x.kind).String()
			for _, fl := range x.fields(d.need.Chain) {
				fl.Visible = func(v form.Values) bool { return v(dBeneficiary) == id }
				fields = append(fields, fl)
			}
		}
		if rail.Reference != "" {
			fields = append(fields, form.Field{Key: dReference, Label: rail.ReferenceLabel, Placeholder: "optional", CharLimit: payment.MaxReference})
		}
	}
	if d.need.Needs(payment.BlockMarkup) {
		fields = append(fields, form.Field{Key: dMarkupWallet, Label: "Markup wallet", Picker: true, Required: true,
			Missing: "choose the service wallet that receives the markup: ↑/↓, enter"})
	}
	d.form = form.New("Ticket details", fields...)
	d.form.LabelWidth = labelW + 2
	d.form.Empty = noBeneficiary
	d.form.SetStyles(m.th.form())
	d.form.SetValue(dExternal, in.ExternalID)
	d.form.FocusFirstToFill()
	return d
}

func signatureHelp(v form.Values) string {
	switch v(dSig) {
	case sigService:
		return "the sending wallet is one of the service's wallets: no signature (rule 4)"
	case sigPermit:
		return "EIP-2612 permit parts signed by the sending wallet"
	}
	return "a personal signature by the sending wallet"
}

// deadlineOf reads a Unix-seconds deadline that must still be ahead.
func deadlineOf(s string, now time.Time) (int64, error) {
	v, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil || v <= 0 {
		return 0, errors.New("deadline must be a Unix time in seconds, e.g. " + strconv.FormatInt(now.Add(time.Hour).Unix(), 10))
	}
	if v <= now.Unix() {
		return 0, fmt.Errorf("deadline %s has passed: sign again with a later deadline", time.Unix(v, 0).UTC().Format(time.RFC3339))
	}
	return v, nil
}

// brCodeTitle names who a BR Code pays, for the details and the
// confirmation.
func brCodeTitle(code string) string {
	p, err := brcode.Parse(code)
	if err != nil {
		return code
	}
	return nonEmpty(p.MerchantName, "BR Code") + " · " + nonEmpty(p.Key, p.URL)
}

// picker is the beneficiary picker, if the output has one; markupPicker
// the markup wallet's. Both are nil when no details are open (d is nil: a
// list that answers after the user left the details).
func (d *details) picker() *form.Picker {
	if d == nil {
		return nil
	}
	return d.form.Picker(dBeneficiary)
}

func (d *details) markupPicker() *form.Picker {
	if d == nil {
		return nil
	}
	return d.form.Picker(dMarkupWallet)
}

// payee is the kind of beneficiary the picker lists ("" when none).
func (d *details) payee() payment.Kind {
	if d.picker() == nil {
		return payment.KindNone
	}
	return d.need.Rail.Payee
}

// chosenInline is the inline destination chosen in the picker, if any.
func (d *details) chosenInline() (payment.DestKind, bool) {
	id := d.form.Value(dBeneficiary)
	for _, x := range inlines {
		if id == inlineID(x.kind).String() {
			return x.kind, true
		}
	}
	return 0, false
}

// unlockExternal lets the user edit the external id on purpose, and takes
// the focus there.
func (d *details) unlockExternal() {
	d.unlocked = true
	d.form.Refresh()
	d.form.FocusField(dExternal)
}

// intent is the stage's intent filled in with what the details say: the
// external id, who sends and how it is proved, where the output goes, the
// reference and the markup wallet. The fields' own checks have passed.
func (d *details) intent() payment.Intent {
	f, in := d.form, d.in
	in.ExternalID = f.Value(dExternal)
	if d.need.Needs(payment.BlockPixInput) {
		in.From.RemitterID, in.From.AdditionalData = f.Value(dRemitter), f.Value(dAdditional)
	}
	if d.need.Needs(payment.BlockChainInput) {
		in.From.Wallet = f.Normalized(dWallet)
		switch f.Value(dSig) {
		case sigPermit:
			v, _ := strconv.Atoi(f.Value(dPermitV))
			n, _ := strconv.ParseInt(f.Value(dPermitNonce), 10, 64)
			dl, _ := strconv.ParseInt(f.Normalized(dPermitDeadline), 10, 64)
			in.From.Permit = &api.Permit{R: f.Value(dPermitR), S: f.Value(dPermitS), V: v, Nonce: n, Deadline: dl}
		case sigPersonal:
			dl, _ := strconv.ParseInt(f.Normalized(dPersonalDeadline), 10, 64)
			in.From.Personal = &api.PersonalSignature{Signature: f.Value(dPersonalSig), Deadline: dl}
		}
	}
	switch {
	case in.Pay.Kind == payment.ToBrCode:
	case d.payee() == payment.KindNone:
		in.Pay = payment.Destination{Kind: payment.ToBalance}
	default:
		in.Pay = d.destination()
	}
	in.Reference = f.Value(dReference)
	if p := d.markupPicker(); p != nil && p.Chosen != nil {
		in.Markup.Wallet = d.markupAddresses[p.Chosen.ID]
	}
	return in
}

// destination is where the picker (and the fields under it) send the
// output.
func (d *details) destination() payment.Destination {
	f := d.form
	if k, ok := d.chosenInline(); ok {
		switch k {
		case payment.ToPixKey:
			return payment.Destination{Kind: k, PixKey: f.Normalized(dPixKey)}
		case payment.ToAddress:
			return payment.Destination{Kind: k, Address: f.Normalized(dAddress), Memo: f.Value(dMemo)}
		case payment.ToBankAccount:
			return payment.Destination{Kind: k, Bank: payment.BankAccount{TaxID: f.Normalized(dTaxID), UserName: f.Value(dUserName),
				BankCode: f.Normalized(dBankCode), BranchCode: f.Normalized(dBranchCode), AccountNumber: f.Normalized(dAccountNumber), AccountType: f.Value(dAccountType)}}
		}
	}
	id, err := uuid.Parse(f.Value(dBeneficiary))
	switch {
	case err != nil:
		return payment.Destination{Kind: payment.ToBeneficiary}
	case id == uuid.Nil && d.need.Rail.Takes(payment.ToOwnWallet):
		return payment.Destination{Kind: payment.ToOwnWallet}
	}
	return payment.Destination{Kind: payment.ToBeneficiary, ID: id}
}

// refuse shows a refusal of the payment core (a *payment.FieldError, a
// *payment.DeniedError) under the field it is about, or above the fields;
// why is added to a refusal shown under the picker ("choose the own
// service wallet").
func (d *details) refuse(err error, why string) {
	var fe *payment.FieldError
	var de *payment.DeniedError
	switch {
	case errors.As(err, &fe) && d.form.SetFieldError(fe.Field, fe.Msg):
	case errors.As(err, &de) && d.picker() != nil && (de.Flag == "payOut" || de.Flag == "enforceAllowedBeneficiaries"):
		d.form.SetFieldError(dBeneficiary, de.Msg+why)
	default:
		d.form.SetFormError(err.Error())
	}
}

// beneficiary is who the output pays, as the confirmation and the result
// show it: the chosen beneficiary, the PIX key or address typed, or the
// BR Code of the quote (nil when the output pays no one).
func (d *details) beneficiary(in payment.Intent) *form.Option {
	switch p := in.Pay; p.Kind {
	case payment.ToBrCode:
		o := &form.Option{Title: brCodeTitle(p.BrCode)}
		if c, err := brcode.Parse(p.BrCode); err == nil {
			o.Details = nonEmptyLines(labelled("PIX key ", c.Key), labelled("charge ", c.URL), c.MerchantCity, labelled("txid ", c.TxID))
		}
		return o
	case payment.ToPixKey:
		kind, _, _ := validate.PixKey(p.PixKey)
		return &form.Option{Title: "PIX key " + p.PixKey, Details: []string{string(kind) + " key, not a registered beneficiary"}}
	case payment.ToBankAccount:
		return &form.Option{Title: p.Bank.UserName, Details: []string{"tax id " + p.Bank.TaxID + ", not a registered beneficiary"}}
	case payment.ToAddress:
		// The address itself is where the money lands: said once, beside.
		return &form.Option{Title: "Not a registered wallet", Details: nonEmptyLines(labelled("memo ", p.Memo))}
	case payment.ToBeneficiary, payment.ToOwnWallet:
		if pk := d.picker(); pk != nil && pk.Chosen != nil {
			return pk.Chosen
		}
	}
	return nil
}

// SetSize implements the stage's part of ui.Screen.
func (d *details) SetSize(w, h int) {
	d.w, d.h = w, h
	d.form.SetSize(w, h)
}

// KeyMap is what the details offer now.
func (d *details) KeyMap() []key.Binding {
	k := d.m.keys
	unlock := k.Unlock
	unlock.SetEnabled(!d.unlocked)
	return []key.Binding{k.Move, k.Submit, unlock, k.Back}
}

// update feeds a key (or a paste) to the details: esc goes back to the
// form, a submit (ctrl+s, enter on the last field) to the confirmation.
func (d *details) update(msg tea.Msg) tea.Cmd {
	if kp, ok := msg.(tea.KeyPressMsg); ok && key.Matches(kp, d.m.keys.Unlock) {
		d.unlockExternal()
		return nil
	}
	res, cmd := d.form.Update(msg)
	switch res {
	case form.Cancelled:
		d.m.stage = stageForm
		d.m.entry.done()
	case form.Submitted:
		return d.m.toConfirm()
	}
	return cmd
}
