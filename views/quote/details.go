package quote

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/brcode"
	"github.com/tesouro-treasury/tesouro/validate"
	"github.com/tesouro-treasury/tesouro/views/internal/form"
)

// Field ids of the ticket details.
const (
	dExternal         = "externalId"
	dRemitter         = "remitterId"
	dAdditional       = "additionalData"
	dWallet           = "walletAddress"
	dSig              = "signature"
	dPermitR          = "permitR"
	dPermitS          = "permitS"
	dPermitV          = "permitV"
	dPermitNonce      = "permitNonce"
	dPermitDeadline   = "permitDeadline"
	dPersonalSig      = "personalSignature"
	dPersonalDeadline = "personalDeadline"
	dBeneficiary      = "beneficiary"
	dPixKey           = "pixKey"
	dPayBrCode        = "payBrCode"
	dAddress          = "outWalletAddress"
	dMemo             = "walletMemo"
	dPixMessage       = "pixMessage"
	dReference        = "reference"
	dMarkupWallet     = "markupWallet"
)

// Signature choices of a PERMIT input.
const (
	sigPermit   = "permit"
	sigPersonal = "personal"
	sigService  = "none: service wallet"
)

// entry is one control of the details form: a field or a picker.
type entry struct {
	f *form.Input
	p *form.Picker
}

func (e *entry) id() string {
	if e.p != nil {
		return e.p.ID
	}
	return e.f.ID
}

// details asks for exactly the blocks the quote needs.
type details struct {
	req     Requirements
	entries []*entry
	focus   int
	// outKind is the beneficiary kind of the output block ("" when none).
	outKind beneficiaryKind
	// markupAddresses are the addresses of the markup picker's options.
	markupAddresses map[uuid.UUID]string
}

// newDetails builds the form for a quote's requirements.
func newDetails(req Requirements, externalID string) *details {
	d := &details{req: req}
	add := func(f *form.Input) { d.entries = append(d.entries, &entry{f: f}) }
	ext := form.NewText(dExternal, "External id", "your tracking id", 100)
	ext.Set(externalID)
	add(ext)
	if req.Needs(BlockPixInput) {
		add(form.NewText(dRemitter, "Remitter id", "optional: who pays", 100))
		add(form.NewText(dAdditional, "PIX add. data", "optional: text carried in the PIX", 140))
	}
	if req.Needs(BlockChainInput) {
		add(form.NewText(dWallet, "Sending wallet", "0x… your wallet address", 64))
		if req.Signature == SigPermitOrPersonal {
			add(form.NewToggle(dSig, "Signature", sigPermit, sigPersonal, sigService))
			add(form.NewText(dPermitR, "Permit r", "0x + 64 hex", 66))
			add(form.NewText(dPermitS, "Permit s", "0x + 64 hex", 66))
			add(form.NewText(dPermitV, "Permit v", "27 or 28", 3))
			add(form.NewText(dPermitNonce, "Permit nonce", "integer", 20))
			add(form.NewText(dPermitDeadline, "Permit deadline", "Unix seconds", 12))
			add(form.NewText(dPersonalSig, "Signature hex", "0x + 130 hex", 132))
			add(form.NewText(dPersonalDeadline, "Sig. deadline", "Unix seconds", 12))
		}
	}
	d.addOutput(req)
	if req.Needs(BlockMarkup) {
		d.entries = append(d.entries, &entry{p: form.NewPicker(dMarkupWallet, "Markup wallet")})
	}
	d.lockExternal()
	d.refresh()
	d.focusAt(d.firstToFill())
	return d
}

// addOutput adds the entries of the output block: a picker of the
// registered beneficiaries of its kind (which also offers an unregistered
// PIX key or wallet address where the service takes one inline), the
// inline fields, and the block's own reference field.
func (d *details) addOutput(req Requirements) {
	add := func(f *form.Input) { d.entries = append(d.entries, &entry{f: f}) }
	pick := func(kind beneficiaryKind, label string) {
		d.outKind = kind
		d.entries = append(d.entries, &entry{p: form.NewPicker(dBeneficiary, label)})
	}
	// referenced is an output paying a registered beneficiary of kind with
	// the block's optional free-text reference, named as the rail names it.
	referenced := func(kind beneficiaryKind, label, reference string) {
		pick(kind, label)
		add(form.NewText(dReference, reference, "optional", 140))
	}
	switch {
	case req.Needs(BlockPixOutput) && req.BrCode != "":
		// The quote was asked for this code: it is what the ticket pays.
		code := form.NewText(dPayBrCode, "Pays BR Code", "", brcode.MaxLen)
		code.Set(brCodeTitle(req.BrCode))
		code.Disabled = "the BR Code of the quote"
		add(code)
	case req.Needs(BlockPixOutput):
		pick(kindBRL, "PIX beneficiary")
		add(form.NewText(dPixKey, "PIX key", "CPF, CNPJ, +55 phone, e-mail or random key", 77))
		add(form.NewText(dPixMessage, "PIX message", "optional", 140))
	case req.Needs(BlockChainOutput):
		pick(kindWallet, "To wallet")
		add(form.NewText(dAddress, "Wallet address", addressHint(req.Chain), 64))
		add(form.NewText(dMemo, "Wallet memo", "optional", 100))
	case req.Needs(BlockUSDOutput):
		referenced(kindUSD, "USD beneficiary", "ACH reference")
	case req.Needs(BlockUSDWireOutput):
		referenced(kindUSD, "USD beneficiary", "Wire message")
	case req.Needs(BlockEURSepaOutput):
		referenced(kindEUR, "EUR beneficiary", "SEPA reference")
	case req.Needs(BlockARSOutput):
		pick(kindARS, "ARS beneficiary")
	case req.Needs(BlockCOPOutput):
		pick(kindCOP, "COP beneficiary")
	}
}

// inlineID is the picker option that stands for a PIX key or wallet
// address typed in the field under the picker instead of a registered
// beneficiary. It is no beneficiary's id: those are random (v4) UUIDs and
// uuid.Nil is the account's own wallet.
var inlineID = uuid.NewSHA1(uuid.NameSpaceOID, []byte("tesouro/quote/inline-output"))

// inlineOption is the picker's last option for kinds the service pays
// inline (nil for the others): a PIX key, or an address on chain.
func inlineOption(kind beneficiaryKind, chain string) *form.Option {
	switch kind {
	case kindBRL:
		return &form.Option{ID: inlineID, Title: "Another PIX key", Details: []string{"unregistered: typed below"}}
	case kindWallet:
		return &form.Option{ID: inlineID, Title: "Another address", Details: []string{"unregistered, on " + nonEmpty(chain, "the quote's chain") + ": typed below"}}
	}
	return nil
}

// inline reports whether the output goes to a typed key or address.
func (d *details) inline() bool {
	p := d.picker()
	return p != nil && p.Chosen != nil && p.Chosen.ID == inlineID
}

func addressHint(chain string) string {
	if chain == "TRON" {
		return "T… a TRON address"
	}
	return "0x… an address on " + nonEmpty(chain, "the quote's chain")
}

// outAddress validates an inline address on chain: EIP-55 on the EVM
// chains (returned checksummed, with the warning of an all-lower or
// all-upper address), base58 on TRON.
func outAddress(chain, s string) (addr, warn string, err error) {
	if chain == "TRON" {
		if !tronAddress.MatchString(s) {
			return "", "", errors.New("a TRON address is T followed by 33 base58 characters")
		}
		return s, "", nil
	}
	return validate.EVMAddress(s)
}

var tronAddress = regexp.MustCompile(`^T[1-9A-HJ-NP-Za-km-z]{33}$`)

// brCodeTitle names who a BR Code pays, for the details and the
// confirmation.
func brCodeTitle(code string) string {
	p, err := brcode.Parse(code)
	if err != nil {
		return code
	}
	return nonEmpty(p.MerchantName, "BR Code") + " · " + nonEmpty(p.Key, p.URL)
}

// pixKey is the PIX key the output pays when it is not a registered
// beneficiary: the key typed, or the key inside the quote's BR Code ("" for
// a dynamic code, which names a URL, or when there is none).
func (d *details) pixKey() string {
	if d.req.BrCode != "" {
		if p, err := brcode.Parse(d.req.BrCode); err == nil {
			return p.Key
		}
		return ""
	}
	if d.outKind == kindBRL && d.inline() {
		if _, key, err := validate.PixKey(d.value(dPixKey)); err == nil {
			return key
		}
	}
	return ""
}

// get returns the field with id, or nil.
func (d *details) get(id string) *form.Input {
	for _, e := range d.entries {
		if e.f != nil && e.f.ID == id {
			return e.f
		}
	}
	return nil
}

// picker is the beneficiary picker, if the output has one.
func (d *details) picker() *form.Picker { return d.pickerOf(dBeneficiary) }

// markupPicker is the markup wallet picker, if the quote has a markup.
func (d *details) markupPicker() *form.Picker { return d.pickerOf(dMarkupWallet) }

// pickerOf is the picker id; nil when there is none, or no details are
// open (d is nil: a list that answers after the user left the details).
func (d *details) pickerOf(id string) *form.Picker {
	if d == nil {
		return nil
	}
	for _, e := range d.entries {
		if e.p != nil && e.p.ID == id {
			return e.p
		}
	}
	return nil
}

func (d *details) value(id string) string {
	if f := d.get(id); f != nil {
		return f.Value()
	}
	return ""
}

// visible reports whether an entry is asked for given the signature chosen.
func (d *details) visible(e *entry) bool {
	sig := d.value(dSig)
	switch e.id() {
	case dPermitR, dPermitS, dPermitV, dPermitNonce, dPermitDeadline:
		return sig == sigPermit
	case dPersonalSig, dPersonalDeadline:
		return sig == sigPersonal
	case dPixKey, dAddress, dMemo:
		return d.inline()
	}
	return true
}

func (d *details) current() *entry { return d.entries[d.focus] }

func (d *details) focusAt(i int) {
	if c := d.current(); c.f != nil {
		c.f.Blur()
	} else {
		c.p.Blur()
	}
	d.focus = i
	if c := d.current(); c.f != nil {
		c.f.Focus()
	} else {
		c.p.Focus()
	}
}

// move shifts the focus among the visible entries; it reports false when
// it would leave the form at the end (so enter can go on to confirmation).
func (d *details) move(step int) bool {
	for i := d.focus + step; i >= 0 && i < len(d.entries); i += step {
		if d.visible(d.entries[i]) {
			d.focusAt(i)
			return true
		}
	}
	return false
}

// tabSteps move the focus between entries from any entry; arrowSteps do
// too, except on a picker, which keeps up and down for its options.
var (
	tabSteps   = map[string]int{"tab": 1, "shift+tab": -1}
	arrowSteps = map[string]int{"down": 1, "up": -1}
)

// update feeds a key to the focused entry. done reports that enter was
// pressed on the last entry.
func (d *details) update(msg tea.KeyPressMsg) (done bool, cmd tea.Cmd) {
	c := d.current()
	if step, ok := tabSteps[msg.String()]; ok {
		d.move(step)
		return false, nil
	}
	if c.p != nil {
		chose, cmd := c.p.Update(msg)
		return chose && !d.move(1), cmd
	}
	if step, ok := arrowSteps[msg.String()]; ok {
		d.move(step)
		return false, nil
	}
	if msg.String() == "enter" {
		return !d.move(1), nil
	}
	changed, cmd := c.f.Update(msg)
	if changed {
		c.f.Err = "" // about a value that is no longer there
	}
	d.refresh()
	return false, cmd
}

// refresh updates the notes that depend on values.
func (d *details) refresh() {
	for _, e := range d.entries {
		if e.f != nil {
			e.f.Note = ""
		}
	}
	if f := d.get(dExternal); f != nil {
		f.Note = "made once for this conversion: a retry re-uses it, so the service never gets it twice"
		if f.Disabled == "" {
			f.Note = "editing: a retry must reuse the same id, or the service makes a second ticket"
		}
	}
	if f := d.get(dSig); f != nil {
		switch f.Value() {
		case sigService:
			f.Note = "the sending wallet is one of the service's wallets: no signature (rule 4)"
		case sigPermit:
			f.Note = "EIP-2612 permit parts signed by the sending wallet"
		case sigPersonal:
			f.Note = "a personal signature by the sending wallet"
		}
	}
	if f := d.get(dWallet); f != nil && f.Value() != "" {
		if sum, warn, err := validate.EVMAddress(f.Value()); err == nil {
			f.Note = "understood: " + sum
			if warn != "" {
				f.Note += " (" + warn + ")"
			}
		}
	}
	if f := d.get(dAddress); f != nil {
		f.Note = "the chain is the quote's: " + nonEmpty(d.req.Chain, "—")
		if f.Value() != "" {
			if sum, warn, err := outAddress(d.req.Chain, f.Value()); err == nil {
				f.Note = "understood: " + sum + " on " + d.req.Chain
				if warn != "" {
					f.Note += " (" + warn + ")"
				}
			}
		}
	}
	if f := d.get(dPixKey); f != nil && f.Value() != "" {
		if kind, key, err := validate.PixKey(f.Value()); err == nil {
			f.Note = "understood: " + string(kind) + " key " + key
		}
	}
}

var (
	hex32 = regexp.MustCompile(`^0x[0-9a-fA-F]{64}$`)
	hex65 = regexp.MustCompile(`^0x[0-9a-fA-F]{130}$`)
)

// build validates every visible entry and assembles the ticket body. The
// first invalid entry is returned (with its error set) so it can take focus.
func (d *details) build(quoteToken string, now time.Time) (api.CreateTicketRequest, *entry) {
	req := api.CreateTicketRequest{QuoteToken: quoteToken}
	for _, e := range d.entries {
		if e.f != nil {
			e.f.Err = ""
		} else {
			e.p.Err = ""
		}
	}
	fail := func(id, msg string) (api.CreateTicketRequest, *entry) {
		for _, e := range d.entries {
			if e.id() == id {
				if e.f != nil {
					e.f.Err = msg
				} else {
					e.p.Err = msg
				}
				return req, e
			}
		}
		return req, d.entries[0]
	}

	req.ExternalID = d.value(dExternal)
	if req.ExternalID == "" {
		return fail(dExternal, "required: it lets a retry be recognised instead of creating a second ticket")
	}

	if d.req.Needs(BlockPixInput) {
		req.TicketBrlPixInput = &api.TicketBrlPixInput{RemitterID: d.value(dRemitter), AdditionalData: d.value(dAdditional)}
	}
	if d.req.Needs(BlockChainInput) {
		addr, _, err := validate.EVMAddress(d.value(dWallet))
		if err != nil {
			return fail(dWallet, err.Error())
		}
		in := &api.TicketBlockchainInput{WalletAddress: addr}
		switch d.value(dSig) {
		case sigPermit:
			p := &api.Permit{R: d.value(dPermitR), S: d.value(dPermitS)}
			if !hex32.MatchString(p.R) {
				return fail(dPermitR, "r must be 0x followed by 64 hex digits")
			}
			if !hex32.MatchString(p.S) {
				return fail(dPermitS, "s must be 0x followed by 64 hex digits")
			}
			v, err := strconv.Atoi(d.value(dPermitV))
			if err != nil || (v != 27 && v != 28 && v != 0 && v != 1) {
				return fail(dPermitV, "v must be 27 or 28 (0 or 1 are accepted too)")
			}
			p.V = v
			n, err := strconv.ParseInt(d.value(dPermitNonce), 10, 64)
			if err != nil || n < 0 {
				return fail(dPermitNonce, "nonce must be a whole number, 0 or more: the token's nonces(owner)")
			}
			p.Nonce = n
			dl, err := deadline(d.value(dPermitDeadline), now)
			if err != nil {
				return fail(dPermitDeadline, err.Error())
			}
			p.Deadline = dl
			in.Permit = p
		case sigPersonal:
			sig := d.value(dPersonalSig)
			if !hex65.MatchString(sig) {
				return fail(dPersonalSig, "the signature must be 0x followed by 130 hex digits (65 bytes)")
			}
			dl, err := deadline(d.value(dPersonalDeadline), now)
			if err != nil {
				return fail(dPersonalDeadline, err.Error())
			}
			in.Personal = &api.PersonalSignature{Signature: sig, Deadline: dl}
		}
		req.TicketBlockchainInput = in
	}
	if d.req.BrCode != "" {
		req.TicketBrlPixOutput = &api.TicketBrlPixOutput{BrCode: d.req.BrCode}
	}
	if d.outKind != "" {
		p := d.picker()
		if p.Chosen == nil {
			if p.Loading {
				return fail(dBeneficiary, "the beneficiaries are still loading: wait a moment")
			}
			return fail(dBeneficiary, "choose a beneficiary: type to filter, ↑/↓, enter")
		}
		id := p.Chosen.ID
		ref := d.value(dReference)
		switch d.outKind {
		case kindBRL:
			req.TicketBrlPixOutput = api.PixToBeneficiary(id, d.value(dPixMessage))
			if id == inlineID {
				_, key, err := validate.PixKey(d.value(dPixKey))
				if err != nil {
					return fail(dPixKey, err.Error())
				}
				req.TicketBrlPixOutput = &api.TicketBrlPixOutput{PixKey: key, PixMessage: d.value(dPixMessage)}
			}
		case kindWallet:
			req.TicketBlockchainOutput = api.ToWallet(id)
			if id == inlineID {
				if d.value(dAddress) == "" {
					return fail(dAddress, "required: the address to pay on "+d.req.Chain)
				}
				addr, _, err := outAddress(d.req.Chain, d.value(dAddress))
				if err != nil {
					return fail(dAddress, err.Error())
				}
				req.TicketBlockchainOutput = &api.TicketBlockchainOutput{WalletChain: d.req.Chain, WalletAddress: addr, WalletMemo: d.value(dMemo)}
			}
		case kindUSD:
			req.SetUSDOutput(d.req.Rail, id, ref)
		case kindEUR:
			req.TicketEurSepaOutput = &api.TicketEurSepaOutput{BeneficiaryEurBankAccountID: id, SepaReference: ref}
		case kindARS:
			req.TicketArsOutput = &api.TicketArsOutput{BeneficiaryArsBankAccountID: id}
		case kindCOP:
			req.TicketCopOutput = &api.TicketCopOutput{BeneficiaryCopBankAccountID: id}
		}
	}
	if p := d.markupPicker(); p != nil {
		if p.Chosen == nil {
			if p.Loading {
				return fail(dMarkupWallet, "your service wallets are still loading: wait a moment")
			}
			return fail(dMarkupWallet, "choose the service wallet that receives the markup: ↑/↓, enter")
		}
		addr := d.markupAddresses[p.Chosen.ID]
		if addr == "" {
			return fail(dMarkupWallet, "that wallet is no longer listed: choose again")
		}
		req.TicketMarkupInput = &api.TicketMarkupInput{MarkupWalletAddress: addr}
	}
	return req, nil
}

// deadline reads a Unix-seconds deadline that must still be ahead.
func deadline(s string, now time.Time) (int64, error) {
	v, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil || v <= 0 {
		return 0, errors.New("deadline must be a Unix time in seconds, e.g. " + strconv.FormatInt(now.Add(time.Hour).Unix(), 10))
	}
	if v <= now.Unix() {
		return 0, fmt.Errorf("deadline %s has passed: sign again with a later deadline", time.Unix(v, 0).UTC().Format(time.RFC3339))
	}
	return v, nil
}

// beneficiary is who the output pays, as the confirmation and the result
// show it: the chosen beneficiary, the PIX key or address typed, or the
// BR Code of the quote (nil when the output pays no one).
func (d *details) beneficiary() *form.Option {
	if d.req.BrCode != "" {
		o := &form.Option{Title: brCodeTitle(d.req.BrCode)}
		if p, err := brcode.Parse(d.req.BrCode); err == nil {
			o.Details = nonEmptyLines(labelled("PIX key ", p.Key), labelled("charge ", p.URL), p.MerchantCity, labelled("txid ", p.TxID))
		}
		return o
	}
	p := d.picker()
	if p == nil || p.Chosen == nil {
		return nil
	}
	if p.Chosen.ID != inlineID {
		return p.Chosen
	}
	switch d.outKind {
	case kindBRL:
		kind, key, err := validate.PixKey(d.value(dPixKey))
		if err != nil {
			return nil
		}
		return &form.Option{Title: "PIX key " + key, Details: []string{string(kind) + " key, not a registered beneficiary"}}
	case kindWallet:
		addr, _, err := outAddress(d.req.Chain, d.value(dAddress))
		if err != nil {
			return nil
		}
		return &form.Option{Title: addr, Details: nonEmptyLines("on "+d.req.Chain+", not a registered wallet", labelled("memo ", d.value(dMemo)))}
	}
	return nil
}

// render draws the form.
// noBeneficiary is what an empty picker says.
const noBeneficiary = "no beneficiary of this kind in the operated account: register one in Beneficiaries"

// render draws the form; first and last are the lines of the focused
// entry, which the screen keeps in view.
func (d *details) render(th theme, width int) (lines []string, first, last int) {
	labelW := 16
	for i, e := range d.entries {
		if !d.visible(e) {
			continue
		}
		start := len(lines)
		if e.p != nil {
			lines = append(lines, e.p.Render(th.lines(), i == d.focus, labelW, width, noBeneficiary)...)
		} else {
			lines = append(lines, e.f.Render(th.lines(), i == d.focus, labelW, width)...)
		}
		if i == d.focus {
			first, last = start, len(lines)-1
		}
	}
	return lines, first, last
}

// ownWallet reports whether the output goes to the account's own wallet.
func (d *details) ownWallet() bool {
	b := d.beneficiary()
	return d.outKind == kindWallet && b != nil && b.ID == uuid.Nil
}
