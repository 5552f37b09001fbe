package quote

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/brcode"
	"github.com/tesouro-treasury/tesouro/journal"
	"github.com/tesouro-treasury/tesouro/payment"
	"github.com/tesouro-treasury/tesouro/ui"
)

// The plain fake of screen_test.go holds none of these: its screens never
// pay a EUR or ARS beneficiary nor a markup.

func (f *fake) ListEURAccounts(context.Context, api.BeneficiaryFilter) (api.Page[api.EURAccount], error) {
	return api.Page[api.EURAccount]{}, nil
}

func (f *fake) ListARSAccounts(context.Context, api.BeneficiaryFilter) (api.Page[api.ARSAccount], error) {
	return api.Page[api.ARSAccount]{}, nil
}

func (f *fake) AccountDetails(context.Context, uuid.UUID) (*api.AccountDetails, error) {
	return &api.AccountDetails{}, nil
}

// outFake is the fake with every kind of beneficiary, the accounts' own
// service wallets, markups priced, and BR Codes read as the service reads
// them.
type outFake struct {
	*fake
	usd       []api.USDAccount
	eur       []api.EURAccount
	ars       []api.ARSAccount
	own       map[uuid.UUID][]api.AccountWallet
	infoAsked []uuid.UUID
}

func (o *outFake) ListUSDAccounts(context.Context, api.BeneficiaryFilter) (api.Page[api.USDAccount], error) {
	return api.Page[api.USDAccount]{Items: o.usd}, nil
}

func (o *outFake) ListEURAccounts(context.Context, api.BeneficiaryFilter) (api.Page[api.EURAccount], error) {
	return api.Page[api.EURAccount]{Items: o.eur}, nil
}

func (o *outFake) ListARSAccounts(context.Context, api.BeneficiaryFilter) (api.Page[api.ARSAccount], error) {
	return api.Page[api.ARSAccount]{Items: o.ars}, nil
}

func (o *outFake) AccountDetails(_ context.Context, id uuid.UUID) (*api.AccountDetails, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.infoAsked = append(o.infoAsked, id)
	name := "Filial Recife"
	if id == uuid.Nil {
		name = "Tesouro Demo Ltda"
	}
	return &api.AccountDetails{ID: id, AccountInfo: api.AccountInfo{Name: name}, Wallets: o.own[id]}, nil
}

func (o *outFake) Quote(ctx context.Context, r api.QuoteRequest) (*api.Quote, error) {
	if r.OutputBrCode != "" && !r.InputAmount.Valid && !r.OutputAmount.Valid {
		p, err := brcode.Parse(r.OutputBrCode)
		if err != nil {
			return nil, err
		}
		r.InputAmount = decimal.NewNullDecimal(p.Amount.Add(decimal.RequireFromString("2.50")))
	}
	q, err := o.fake.Quote(ctx, r)
	if err != nil {
		return nil, err
	}
	q.OutputBrCode = r.OutputBrCode
	if r.MarkupFloatingFee.Valid {
		q.MarkupCurrency = r.MarkupCurrency
		q.MarkupAmount.Decimal = q.InputAmount.Mul(r.MarkupFloatingFee.Decimal)
	}
	return q, nil
}

var (
	usdBen = api.USDAccount{ID: uuid.MustParse("44444444-4444-4444-8444-444444444444"), Alias: "Acme Inc", BankBeneficiaryName: "Acme Inc", BankName: "Chase", BankRoutingNumber: "021000021", BankAccountNumber: "123456789"}
	eurBen = api.EURAccount{ID: uuid.MustParse("55555555-5555-4555-8555-555555555555"), Alias: "Lieferant", IBAN: "DE89370400440532013000", BIC: "COBADEFFXXX", Country: "DEU", BankBeneficiaryName: "Lieferant GmbH"}
	arsBen = api.ARSAccount{ID: uuid.MustParse("66666666-6666-4666-8666-666666666666"), Alias: "Proveedor", CVU: "0000003100010000000009"}
	// The service wallets of the operated sub-account and of the main one.
	subWallet  = api.AccountWallet{ID: "77777777-7777-4777-8777-777777777777", WalletAddress: "0xfb6916095ca1df60bb79ce92ce3ea74c37c5d359", Chain: "EVM"}
	mainWallet = api.AccountWallet{ID: "88888888-8888-4888-8888-888888888888", WalletAddress: "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB", Chain: "EVM"}
)

// outHarness is the quote builder on an outFake.
func outHarness(t *testing.T, perms api.Permissions) (*harness, *outFake) {
	t.Helper()
	base := newHarness(t, perms)
	// The PIX keys these tests pay, as the directory knows them: the
	// confirmation waits for the holder before it takes y.
	base.f.more.holders = map[string]api.PixInfo{
		"maria.silva@example.com": {Name: "MARIA SILVA", TaxID: "***.456.789-**", BankName: "BANCO DEMO"},
		"+5511987654321":          {Name: "PADARIA CENTRAL LTDA", TaxID: "12.***.***/0001-**", BankName: "BANCO DEMO"},
	}
	o := &outFake{fake: base.f, usd: []api.USDAccount{usdBen}, eur: []api.EURAccount{eurBen}, ars: []api.ARSAccount{arsBen},
		own: map[uuid.UUID][]api.AccountWallet{sub.ID: {subWallet}, uuid.Nil: {mainWallet}}}
	return drive(t, base.s, o, base.f), o
}

// pair sets the form's currencies and methods and the amount, as typed.
func (h *harness) pair(inCur, inMethod, outCur, outMethod, amount string) {
	h.t.Helper()
	h.keys("e")
	f := h.m.entry.form
	for _, s := range []struct{ id, v string }{{fInCurrency, inCur}, {fInMethod, inMethod}, {fOutCurrency, outCur}, {fOutMethod, outMethod}} {
		f.SetValue(s.id, s.v)
	}
	if amount != "" {
		f.SetValue(fAmount, amount)
	}
}

// markup adds a markup of pct percent to the quote form.
func (h *harness) markup(pct string) {
	f := h.m.entry.form
	f.SetValue(fMarkup, "add")
	f.SetValue(fMarkupPct, pct)
}

// toDetails gets the quote and continues to the ticket details, on the
// beneficiary picker when there is one.
func (h *harness) toDetailsOf() {
	h.t.Helper()
	h.keys("enter")
	if h.m.quote == nil {
		h.t.Fatalf("no quote:\n%s", h.screen())
	}
	h.keys("c")
	if h.m.stage != stageDetails {
		h.t.Fatalf("stage %v, want the details:\n%s", h.m.stage, h.screen())
	}
	if h.m.details.picker() != nil {
		h.toPicker()
	}
}

// createdBody is the body of the only ticket created, as JSON.
func (h *harness) createdBody() map[string]json.RawMessage {
	h.t.Helper()
	if n := h.createCount(); n != 1 {
		h.t.Fatalf("%d creations, want 1:\n%s", n, h.screen())
	}
	raw, err := json.Marshal(h.f.creates[0].req)
	if err != nil {
		h.t.Fatal(err)
	}
	var body map[string]json.RawMessage
	if err := json.Unmarshal(raw, &body); err != nil {
		h.t.Fatal(err)
	}
	return body
}

// block asserts the created body's block name is exactly want, and that
// none of the other output blocks was sent.
func (h *harness) block(name, want string) {
	h.t.Helper()
	body := h.createdBody()
	if got := string(body[name]); got != want {
		h.t.Fatalf("%s = %s\nwant %s", name, got, want)
	}
	for _, b := range []payment.Block{payment.BlockPixOutput, payment.BlockChainOutput, payment.BlockUSDOutput, payment.BlockUSDWireOutput, payment.BlockEURSepaOutput, payment.BlockARSOutput, payment.BlockCOPOutput} {
		if string(b) != name && body[string(b)] != nil {
			h.t.Fatalf("%s sent beside %s: %s", b, name, body[string(b)])
		}
	}
}

// confirm reviews the details and creates the ticket.
func (h *harness) confirm() {
	h.t.Helper()
	h.keys("ctrl+s")
	if h.m.stage != stageConfirm {
		h.t.Fatalf("stage %v, want the confirmation:\n%s", h.m.stage, h.screen())
	}
	h.keys("y")
}

// fieldError asserts the details refused with msg under the field label,
// focused, and that nothing was created.
func (h *harness) fieldError(id, label, msg string) {
	h.t.Helper()
	if h.m.stage != stageDetails || h.createCount() != 0 {
		h.t.Fatalf("stage %v with %d creations, want the details refusing:\n%s", h.m.stage, h.createCount(), h.screen())
	}
	if got := h.m.details.form.FocusedKey(); got != id {
		h.t.Fatalf("focus on %s, want %s", got, id)
	}
	lines := strings.Split(h.screen(), "\n")
	for i, l := range lines {
		if strings.Contains(l, "› "+label) {
			for _, next := range lines[i+1 : min(i+4, len(lines))] {
				if strings.Contains(next, "✗") && strings.Contains(next, msg) {
					return
				}
			}
		}
	}
	h.t.Fatalf("no %q under the focused %s:\n%s", msg, label, h.screen())
}

func TestInlineWalletAddressIsChecksummedAndSent(t *testing.T) {
	h, _ := outHarness(t, operatorPerms())
	h.pair("BRL", "PIX", "BRLA", "POLYGON", "500")
	h.toDetailsOf()
	h.want("Own service wallet", "Treasury cold", "Another address")
	if strings.Contains(h.screen(), "Wallet address") {
		t.Fatal("the address field shows before another address was chosen")
	}
	h.typeText("another")
	h.keys("enter")
	if got := h.m.details.form.FocusedKey(); got != dAddress {
		t.Fatalf("focus on %s after choosing another address, want the address", got)
	}
	// A mixed-case address whose checksum is wrong is a typo, not an address.
	h.typeText("0x52908400098527886E0F7030069857D2E4169Ee7")
	h.keys("ctrl+s")
	h.fieldError(dAddress, "Wallet address", "checksum")

	h.keys("ctrl+u")
	h.typeText(strings.ToLower("0x52908400098527886E0F7030069857D2E4169EE7"))
	h.want("understood: 0x52908400098527886E0F7030069857D2E4169EE7 on POLYGON")
	h.keys("tab")
	h.typeText("invoice 42")
	h.keys("ctrl+s")
	h.want("Confirm the ticket", "0x52908400098527886E0F7030069857D2E4169EE7 on POLYGON", "Not a registered wallet", "memo invoice 42")
	h.keys("y")
	h.block("ticketBlockchainOutput", `{"walletChain":"POLYGON","walletAddress":"0x52908400098527886E0F7030069857D2E4169EE7","walletMemo":"invoice 42"}`)
}

func TestRegisteredWalletStillSentByID(t *testing.T) {
	h, _ := outHarness(t, operatorPerms())
	h.pair("BRL", "PIX", "BRLA", "POLYGON", "500")
	h.toDetailsOf()
	h.typeText("cold")
	h.keys("enter")
	if h.m.stage != stageConfirm {
		t.Fatalf("choosing a registered wallet must go on to the confirmation:\n%s", h.screen())
	}
	h.keys("y")
	h.block("ticketBlockchainOutput", `{"beneficiaryWalletId":"11111111-1111-4111-8111-111111111111"}`)
}

func TestPixPayoutToATypedKey(t *testing.T) {
	h, _ := outHarness(t, operatorPerms())
	h.pair("BRLA", "INTERNAL", "BRL", "PIX", "100")
	h.toDetailsOf()
	h.want("Fornecedor", "Another PIX key")
	h.typeText("another")
	h.keys("enter")
	h.typeText("12345678900")
	h.keys("ctrl+s")
	h.fieldError(dPixKey, "PIX key", "CPF")

	h.keys("ctrl+u", "ctrl+s")
	if h.m.details.form.Error(dPixKey) == "" {
		t.Fatalf("an empty PIX key was not refused:\n%s", h.screen())
	}
	// Pasted, as a key copied from a chat would be: the error about the
	// old value goes with it.
	h.send(tea.PasteMsg{Content: "Maria.Silva@Example.com"})
	h.want("understood: EMAIL key maria.silva@example.com")
	h.keys("tab")
	h.typeText("aluguel")
	h.keys("ctrl+s")
	h.want("Confirm the ticket", "PIX key maria.silva@example.com", "not a registered beneficiary")
	if got := h.f.more.pixAsked; len(got) != 1 || got[0] != "maria.silva@example.com" {
		t.Errorf("pix-info asked about %q, want the key typed", got)
	}
	h.keys("y")
	h.block("ticketBrlPixOutput", `{"pixKey":"maria.silva@example.com","pixMessage":"aluguel"}`)
	// The journal says where the money went, though no beneficiary id exists.
	entries, err := journal.ReadFile(h.s.Journal.Path())
	if err != nil || len(entries) != 1 || entries[0].IDs["pixKey"] != "maria.silva@example.com" {
		t.Fatalf("journal %+v (%v), want the key paid", entries, err)
	}
}

func TestBRCodeLocksTheAmountAndIsWhatIsPaid(t *testing.T) {
	h, _ := outHarness(t, operatorPerms())
	code, err := brcode.Encode(brcode.Payload{Key: "+5511987654321", Amount: decimal.RequireFromString("123.45"), MerchantName: "PADARIA CENTRAL", MerchantCity: "RECIFE", TxID: "PEDIDO7"})
	if err != nil {
		t.Fatal(err)
	}
	h.pair("BRLA", "INTERNAL", "BRL", "PIX", "50")
	h.focusField(fBrCode)
	// One wrong character: the CRC catches it and no quote is asked.
	bad := code[:len(code)-5] + "X" + code[len(code)-4:]
	h.send(tea.PasteMsg{Content: bad})
	h.keys("enter")
	if len(h.f.quotes) != 0 {
		t.Fatal("a quote was asked for a BR Code that fails its CRC")
	}
	if h.m.entry.form.FocusedKey() != fBrCode || !strings.Contains(h.m.entry.form.Error(fBrCode), "not a BR Code") {
		t.Fatalf("focus %s, error %q: want the BR Code field refusing", h.m.entry.form.FocusedKey(), h.m.entry.form.Error(fBrCode))
	}
	h.want("✗ not a BR Code")

	h.keys("ctrl+u")
	h.send(tea.PasteMsg{Content: code})
	h.want("understood: pays PADARIA CENTRAL, RECIFE", "+5511987654321", "123.45 (taken from the BR Code)")
	// The amount is locked: typing does not change it.
	h.focusField(fAmount)
	h.typeText("9")
	if v := h.m.entry.form.Value(fAmount); v != "123.45" {
		t.Fatalf("amount %q after typing, want the code's 123.45", v)
	}
	h.keys("enter")
	if len(h.f.quotes) != 1 {
		t.Fatal("no quote asked")
	}
	if q := h.f.quotes[0]; q.OutputBrCode != code || q.OutputAmount.Valid {
		t.Fatalf("quote asked with outputBrCode %q, outputAmount %v: want the code and no amount of its own", q.OutputBrCode, q.OutputAmount)
	}
	h.keys("c")
	h.want("Pays BR Code", "PADARIA CENTRAL · +5511987654321")
	h.keys("ctrl+s")
	if got := h.f.more.pixAsked; len(got) != 1 || got[0] != "+5511987654321" {
		t.Errorf("pix-info asked about %q, want the code's key", got)
	}
	h.keys("y")
	raw, _ := json.Marshal(code)
	h.block("ticketBrlPixOutput", `{"brCode":`+string(raw)+`}`)
}

func TestUSDRailsSendTheirOwnBlocks(t *testing.T) {
	for _, tc := range []struct {
		rail, label, block, want string
	}{
		{"ACH", "ACH reference", "ticketUsdOutput", `{"beneficiaryUsdBankAccountId":"44444444-4444-4444-8444-444444444444","achReference":"INV-7"}`},
		{"WIRE", "Wire message", "ticketUsdWireOutput", `{"beneficiaryUsdBankAccountId":"44444444-4444-4444-8444-444444444444","wireMessage":"INV-7"}`},
	} {
		t.Run(tc.rail, func(t *testing.T) {
			h, _ := outHarness(t, operatorPerms())
			h.pair("USDC", "INTERNAL", "USD", tc.rail, "100")
			h.toDetailsOf()
			h.want("USD beneficiary", "Acme Inc", tc.label)
			h.keys("enter")
			h.typeText("INV-7")
			h.confirm()
			h.block(tc.block, tc.want)
		})
	}
}

func TestEURAndARSBeneficiariesArePaid(t *testing.T) {
	t.Run("SEPA", func(t *testing.T) {
		h, _ := outHarness(t, operatorPerms())
		h.pair("EURC", "INTERNAL", "EUR", "SEPA", "100")
		h.toDetailsOf()
		h.want("EUR beneficiary", "Lieferant", "IBAN DE89 3704", "SEPA reference")
		h.keys("enter")
		h.typeText("RE 2026-11")
		h.keys("ctrl+s")
		h.want("Confirm the ticket", "Lieferant", "IBAN DE89 3704", "SEPA reference", "RE 2026-11")
		h.keys("y")
		h.block("ticketEurSepaOutput", `{"beneficiaryEurBankAccountId":"55555555-5555-4555-8555-555555555555","sepaReference":"RE 2026-11"}`)
	})
	t.Run("CVU", func(t *testing.T) {
		h, _ := outHarness(t, operatorPerms())
		h.pair("USDC", "INTERNAL", "ARS", "CVU", "100")
		h.toDetailsOf()
		h.want("ARS beneficiary", "Proveedor", "CVU 0000003100010000000009")
		h.keys("ctrl+s")
		h.fieldError(dBeneficiary, "ARS beneficiary", "choose a beneficiary")
		h.keys("enter")
		if h.m.stage != stageConfirm {
			t.Fatalf("stage %v, want the confirmation:\n%s", h.m.stage, h.screen())
		}
		h.keys("y")
		h.block("ticketArsOutput", `{"beneficiaryArsBankAccountId":"66666666-6666-4666-8666-666666666666"}`)
	})
}

func TestMarkupWalletIsPickedFromTheAccountsOwn(t *testing.T) {
	h, o := outHarness(t, operatorPerms())
	h.pair("BRL", "PIX", "BRLA", "INTERNAL", "500")
	h.markup("1")
	h.toDetailsOf()
	if got := h.m.details.markupPicker(); got == nil {
		t.Fatalf("no markup picker:\n%s", h.screen())
	}
	if len(o.infoAsked) != 2 || o.infoAsked[0] != sub.ID || o.infoAsked[1] != uuid.Nil {
		t.Fatalf("account-info asked for %v, want the operated account then the main one", o.infoAsked)
	}
	// Nothing chosen yet: the markup cannot go without a wallet.
	h.keys("ctrl+s")
	h.fieldError(dMarkupWallet, "Markup wallet", "choose the service wallet")
	h.want("0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359", "this account · Filial Recife", "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB", "main account · Tesouro Demo Ltda")
	h.typeText("main")
	h.keys("enter")
	if h.m.stage != stageConfirm {
		t.Fatalf("stage %v, want the confirmation:\n%s", h.m.stage, h.screen())
	}
	h.want("Markup wallet", "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB")
	h.keys("y")
	body := h.createdBody()
	if got := string(body["ticketMarkupInput"]); got != `{"markupWalletAddress":"0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB"}` {
		t.Fatalf("ticketMarkupInput = %s", got)
	}
}

func TestRestrictedAccessCannotPayInline(t *testing.T) {
	perms := operatorPerms()
	perms.EnforceAllowedBeneficiaries = true
	h, _ := outHarness(t, perms)
	h.pair("BRL", "PIX", "BRLA", "POLYGON", "500")
	h.toDetailsOf()
	h.typeText("another")
	h.want("Another address", "registered beneficiaries only")
	h.keys("enter")
	if _, ok := h.m.details.chosenInline(); ok {
		t.Fatal("an access restricted to registered beneficiaries chose an address")
	}
	h.want("cannot be chosen")
}

// The markup answer of another account never reaches this one's picker.
func TestMarkupWalletsOfAnotherAccountAreDropped(t *testing.T) {
	h, _ := outHarness(t, operatorPerms())
	h.pair("BRL", "PIX", "BRLA", "INTERNAL", "500")
	h.markup("1")
	h.toDetailsOf()
	before := len(h.m.details.markupPicker().All)
	h.send(ui.Result[markupWallets]{Value: markupWallets{options: nil}})
	if after := len(h.m.details.markupPicker().All); after != before || before == 0 {
		t.Fatalf("an answer no slot awaited replaced the list (%d → %d)", before, after)
	}
}

func TestBRCodeWithoutAmountIsPaidWhatIsTyped(t *testing.T) {
	h, _ := outHarness(t, operatorPerms())
	code, err := brcode.Encode(brcode.Payload{Key: "0b6a4e2e-6d5e-4c3f-9a1b-2c3d4e5f6a7b", MerchantName: "FEIRA LIVRE", MerchantCity: "OLINDA"})
	if err != nil {
		t.Fatal(err)
	}
	h.pair("BRLA", "INTERNAL", "BRL", "PIX", "")
	h.focusField(fBrCode)
	h.send(tea.PasteMsg{Content: code})
	if !strings.Contains(h.m.entry.form.Hint(fBrCode), "no amount in the code: type what they receive") {
		t.Fatalf("note %q", h.m.entry.form.Hint(fBrCode))
	}
	if h.m.entry.form.Value(fMode) != modeReceive || h.m.entry.form.Disabled(fAmount) != "" {
		t.Fatalf("mode %q, amount locked %q: want 'they receive' and a free amount", h.m.entry.form.Value(fMode), h.m.entry.form.Disabled(fAmount))
	}
	h.focusField(fAmount)
	h.typeText("35.90")
	h.keys("enter")
	if len(h.f.quotes) != 1 {
		t.Fatalf("no quote asked:\n%s", h.screen())
	}
	if q := h.f.quotes[0]; q.OutputBrCode != code || !q.OutputAmount.Valid || q.OutputAmount.Decimal.String() != "35.9" || q.InputAmount.Valid {
		t.Fatalf("quote asked with %q, out %v, in %v: want the code and 35.90 received", q.OutputBrCode, q.OutputAmount, q.InputAmount)
	}
}

func TestRestrictedAccessCannotQuoteABRCode(t *testing.T) {
	perms := operatorPerms()
	perms.EnforceAllowedBeneficiaries = true
	h, _ := outHarness(t, perms)
	code, err := brcode.Encode(brcode.Payload{Key: "+5511987654321", Amount: decimal.RequireFromString("10"), MerchantName: "X", MerchantCity: "Y"})
	if err != nil {
		t.Fatal(err)
	}
	h.pair("BRLA", "INTERNAL", "BRL", "PIX", "")
	h.focusField(fBrCode)
	h.send(tea.PasteMsg{Content: code})
	h.keys("enter")
	if len(h.f.quotes) != 0 {
		t.Fatal("a BR Code was quoted for an access restricted to registered beneficiaries")
	}
	if err := h.m.entry.form.Error(fBrCode); !strings.Contains(err, "may only pay registered beneficiaries") || h.m.entry.form.FocusedKey() != fBrCode {
		t.Fatalf("error %q on the BR Code field (focus %s)", err, h.m.entry.form.FocusedKey())
	}
	h.want("✗ this access may only pay registered")
}

// A PIX payout to bank fields nobody registered: the rail takes them
// inline, so the picker offers them, and each is checked as it is typed.
func TestPixPayoutToTypedBankFields(t *testing.T) {
	h, _ := outHarness(t, operatorPerms())
	h.pair("BRLA", "INTERNAL", "BRL", "PIX", "100")
	h.toDetailsOf()
	h.typeText("another bank")
	h.keys("enter")
	if got := h.m.details.form.FocusedKey(); got != dTaxID {
		t.Fatalf("focus on %s after choosing another bank account, want the holder's tax id", got)
	}
	h.typeText("529.982.247-25")
	h.want("recognised: CPF")
	h.keys("tab")
	h.typeText("Maria Silva")
	h.keys("tab")
	h.typeText("3410")
	h.keys("ctrl+s")
	h.fieldError(dBankCode, "Bank code", "3-digit bank code")
	h.keys("backspace", "tab")
	h.typeText("0001")
	h.keys("tab")
	h.typeText("12345-6") // read as its digits
	h.keys("ctrl+s")
	h.want("Confirm the ticket", "Maria Silva", "bank 341 branch 0001 account 123456", "not a registered beneficiary")
	h.keys("y")
	h.block("ticketBrlPixOutput", `{"taxId":"52998224725","userName":"Maria Silva","bankCode":"341","branchCode":"0001","accountNumber":"123456","accountType":"checking"}`)
}
