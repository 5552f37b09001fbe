package batch

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/money"
	"github.com/tesouro-treasury/tesouro/payment"
	"github.com/tesouro-treasury/tesouro/validate"
)

// Service is what a batch calls; *api.Client has every method.
type Service interface {
	AccessInfo(ctx context.Context) (*api.AccessInfo, error)
	Balances(ctx context.Context, subAccountID uuid.UUID) (api.Balances, error)
	Limits(ctx context.Context, subAccountID uuid.UUID) (*api.AccountLimits, error)
	PixInfo(ctx context.Context, pixKey string) (*api.PixInfo, error)
	ListBRLAccounts(ctx context.Context, f api.BeneficiaryFilter) (api.Page[api.BRLAccount], error)
	ListWallets(ctx context.Context, f api.WalletFilter) (api.Page[api.Wallet], error)
	ListUSDAccounts(ctx context.Context, f api.BeneficiaryFilter) (api.Page[api.USDAccount], error)
	ListEURAccounts(ctx context.Context, f api.BeneficiaryFilter) (api.Page[api.EURAccount], error)
	ListARSAccounts(ctx context.Context, f api.BeneficiaryFilter) (api.Page[api.ARSAccount], error)
	ListCOPAccounts(ctx context.Context, f api.BeneficiaryFilter) (api.Page[api.COPAccount], error)
	Quote(ctx context.Context, req api.QuoteRequest) (*api.Quote, error)
	CreateTicket(ctx context.Context, subAccountID uuid.UUID, req api.CreateTicketRequest) (*api.CreateTicketResult, error)
	FindTicketByExternalID(ctx context.Context, subAccountID uuid.UUID, externalID string) (*api.Ticket, bool, error)
}

// Clock says what time it is; tests move a fake one.
type Clock interface{ Now() time.Time }

type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }

// RealClock is the wall clock.
var RealClock Clock = realClock{}

// QuoteLife is how long a quote is accepted (service.md §6), counted from
// when its request was sent, so the client errs on the early side.
const QuoteLife = 15 * time.Second

// Options tune a batch; the zero value is the default.
type Options struct {
	SubAccountID uuid.UUID
	// Concurrency bounds the requests in flight (default 4).
	Concurrency int
	// Margin is the quote life a row needs left when its creation is sent
	// (default 5 s): less, and it is quoted again first.
	Margin time.Duration
	// MaxDrift is how much more a re-quote may cost than the reviewed
	// input amount, as a fraction (default 0.01).
	MaxDrift decimal.Decimal
	Clock    Clock
	// Ledger holds what earlier runs of the batch parked (nil: none kept).
	Ledger Ledger
	// Journal records every creation sent (nil: none).
	Journal payment.Recorder
}

func (o Options) withDefaults() Options {
	if o.Concurrency <= 0 {
		o.Concurrency = 4
	}
	if o.Margin <= 0 {
		o.Margin = 5 * time.Second
	}
	if o.MaxDrift.IsZero() {
		o.MaxDrift = decimal.RequireFromString("0.01")
	}
	if o.Clock == nil {
		o.Clock = RealClock
	}
	return o
}

// The kinds of payee, one per kind of registered beneficiary (the payment
// core's).
const (
	KindBRL    = payment.KindBRL    // BRL over PIX: registered, or a PIX key inline
	KindWallet = payment.KindWallet // tokens on a chain: registered, or an address inline
	KindUSD    = payment.KindUSD    // USD by ACH or WIRE, registered only
	KindEUR    = payment.KindEUR    // EUR by SEPA, registered only
	KindARS    = payment.KindARS    // ARS to a CVU, registered only
	KindCOP    = payment.KindCOP    // COP by bank transfer, registered only
)

// Payee is who a row pays, as resolved against the account.
type Payee struct {
	Kind payment.Kind
	ID   uuid.UUID
	// Inline is a PIX key or a wallet address that is no registered
	// beneficiary: the ticket names it in its output block (§7.1), which
	// an access with enforceAllowedBeneficiaries may not do.
	Inline bool
	Alias  string
	// Key is what the row pays to: the PIX key (or BRL bank account) or
	// the wallet address in full, since an inline one is sent as is; for
	// the other kinds, which are only ever named by id, the account number,
	// IBAN or CVU masked to its last digits, for the review to show.
	Key      string
	Chain    string // the wallet's chain
	Name     string // holder's name (pix-info or the registered name)
	TaxID    string // masked, from pix-info
	BankName string
}

// State is what the review says of a row before anything is sent.
type State string

// Row states at review.
const (
	StateNew     State = "new"     // to be paid by this run
	StateDone    State = "created" // an earlier run created its ticket (TicketID)
	StateParked  State = "parked"  // an earlier run parked it for approval (OperationID)
	StateUnknown State = "unknown" // an earlier run lost the answer to its parked creation
	StateInvalid State = "invalid" // cannot be paid as written (Problem)
)

// Planned is a row with what checking and pricing found.
type Planned struct {
	Row
	Payee    Payee
	Method   string // output payment method
	Quote    *api.Quote
	Deadline time.Time // when Quote stops being accepted
	// Reviewed is the input amount shown at review: a later re-quote may
	// cost at most MaxDrift more.
	Reviewed decimal.Decimal
	// TicketID and OperationID are what an earlier run left of the row
	// (StateDone, StateParked).
	TicketID, OperationID string
	earlier               State // set by the check: done, parked, unknown
}

// State is what the review says of the row.
func (p *Planned) State() State {
	switch {
	case p.Problem != "":
		return StateInvalid
	case p.earlier != "":
		return p.earlier
	}
	return StateNew
}

// Intent is the payment the row means, for the payment core: out of the
// account's Source balance, the row's amount is what the beneficiary
// receives, on the rail resolved for it.
func (p *Planned) Intent(account uuid.UUID, batch string) payment.Intent {
	in := payment.Intent{
		Account:    account,
		InCurrency: p.Source, InMethod: "INTERNAL",
		OutCurrency: p.Currency, OutMethod: p.Method,
		Amount: p.Amount, Fixed: payment.FixOutput,
		OutThirdParty: true,
		Reference:     p.Reference,
		ExternalID:    p.ExternalID,
		Origin:        payment.Origin{Batch: batch, Row: p.N},
	}
	switch {
	case p.Payee.Inline && p.Payee.Kind == KindBRL:
		in.Pay = payment.Destination{Kind: payment.ToPixKey, PixKey: p.Payee.Key}
	case p.Payee.Inline:
		in.Pay = payment.Destination{Kind: payment.ToAddress, Address: p.Payee.Key}
	default:
		in.Pay = payment.Destination{Kind: payment.ToBeneficiary, ID: p.Payee.ID}
	}
	if rail, ok := payment.RailOf(p.Currency, p.Method); ok && rail.Reference == "" {
		// The rail carries no reference: it stays in the file.
		in.Reference = ""
	}
	return in
}

// Fees is the sum of the quote's fees, by currency.
func (p *Planned) Fees() map[string]decimal.Decimal {
	out := map[string]decimal.Decimal{}
	if p.Quote == nil {
		return out
	}
	for _, f := range p.Quote.AppliedFees {
		out[f.Currency] = out[f.Currency].Add(f.Amount)
	}
	return out
}

// Plan is a checked and priced batch.
type Plan struct {
	File *File
	Rows []*Planned
	// Problems are what stops the whole batch (permissions, balance,
	// limits), beyond the rows' own problems.
	Problems []string
	// Out is the total the beneficiaries receive, by currency; In what the
	// account pays, by source currency; Fees by currency (the rows this run
	// pays: valid, and not settled by an earlier run).
	Out, In, Fees map[string]decimal.Decimal
	// Parks is true when the access's creations wait for approval.
	Parks bool
}

// Valid counts the rows that may run.
func (p *Plan) Valid() int {
	n := 0
	for _, r := range p.Rows {
		if r.Problem == "" {
			n++
		}
	}
	return n
}

// Count is how many rows are in state st.
func (p *Plan) Count(st State) int {
	n := 0
	for _, r := range p.Rows {
		if r.State() == st {
			n++
		}
	}
	return n
}

// Ready reports whether the batch may run as a whole: no batch problem and
// no invalid row.
func (p *Plan) Ready() bool { return len(p.Problems) == 0 && p.Valid() == len(p.Rows) }

// Currencies lists the currencies of Out in order.
func Currencies(m map[string]decimal.Decimal) []string {
	return slices.Sorted(maps.Keys(m))
}

// Directory is the account's registered beneficiaries, indexed for rows.
type Directory struct {
	byID    map[uuid.UUID]Payee
	byAlias map[string][]Payee // lower-case alias
	byKey   map[string]Payee   // normalised PIX key, lower-case address + chain
}

// Registered is every registered beneficiary of an account, by kind.
type Registered struct {
	BRL     []api.BRLAccount
	Wallets []api.Wallet
	USD     []api.USDAccount
	EUR     []api.EURAccount
	ARS     []api.ARSAccount
	COP     []api.COPAccount
}

// listAll reads every page of one kind of beneficiary.
func listAll[T any](ctx context.Context, list func(context.Context, string) (api.Page[T], error)) ([]T, error) {
	var out []T
	for it, err := range api.All(ctx, list) {
		if err != nil {
			return nil, err
		}
		out = append(out, it)
	}
	return out, nil
}

// into is a loader of every page of one kind into *dst.
func into[T any](ctx context.Context, dst *[]T, list func(context.Context, string) (api.Page[T], error)) func() error {
	return func() (err error) {
		*dst, err = listAll(ctx, list)
		return err
	}
}

// bySub pages a beneficiary list of the sub account (uuid.Nil: the main
// account) by cursor.
func bySub[T any](sub uuid.UUID, list func(context.Context, api.BeneficiaryFilter) (api.Page[T], error)) func(context.Context, string) (api.Page[T], error) {
	return func(ctx context.Context, c string) (api.Page[T], error) {
		return list(ctx, api.BeneficiaryFilter{SubAccountID: sub, Cursor: c})
	}
}

// LoadDirectory reads every registered beneficiary of the account, the
// kinds side by side (one list each, so six requests cost about one). The
// BRL accounts and wallets, and the kinds a row of f pays (f nil: every
// kind), must load; another kind that cannot be listed is left out, since
// it only serves to say why a row names the wrong currency for its
// beneficiary.
func LoadDirectory(ctx context.Context, svc Service, sub uuid.UUID, f *File) (*Directory, error) {
	var r Registered
	needs := map[payment.Kind]bool{KindBRL: true, KindWallet: true}
	for _, row := range fileRows(f) {
		needs[payment.KindOf(row.Currency)] = true
	}
	wallets := func(ctx context.Context, c string) (api.Page[api.Wallet], error) {
		return svc.ListWallets(ctx, api.WalletFilter{SubAccountID: sub, Cursor: c})
	}
	kinds := []struct {
		kind payment.Kind
		what string
		load func() error
	}{
		{KindBRL, "BRL beneficiaries", into(ctx, &r.BRL, bySub(sub, svc.ListBRLAccounts))},
		{KindWallet, "wallets", into(ctx, &r.Wallets, wallets)},
		{KindUSD, "USD beneficiaries", into(ctx, &r.USD, bySub(sub, svc.ListUSDAccounts))},
		{KindEUR, "EUR beneficiaries", into(ctx, &r.EUR, bySub(sub, svc.ListEURAccounts))},
		{KindARS, "ARS beneficiaries", into(ctx, &r.ARS, bySub(sub, svc.ListARSAccounts))},
		{KindCOP, "COP beneficiaries", into(ctx, &r.COP, bySub(sub, svc.ListCOPAccounts))},
	}
	errs := make([]error, len(kinds))
	each(ctx, len(kinds), len(kinds), func(i int) { errs[i] = kinds[i].load() })
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	for i, k := range kinds {
		if errs[i] != nil && (f == nil || needs[k.kind]) {
			return nil, fmt.Errorf("list %s: %w", k.what, errs[i])
		}
	}
	return NewDirectory(r), nil
}

func fileRows(f *File) []Row {
	if f == nil {
		return nil
	}
	return f.Rows
}

// NewDirectory indexes registered beneficiaries.
func NewDirectory(r Registered) *Directory {
	d := &Directory{byID: map[uuid.UUID]Payee{}, byAlias: map[string][]Payee{}, byKey: map[string]Payee{}}
	for _, b := range r.BRL {
		p := Payee{Kind: KindBRL, ID: b.ID, Alias: b.Alias, Key: b.PixKey, Name: b.UserName}
		if p.Key == "" {
			p.Key = strings.TrimSpace(b.BankCode + " " + b.BranchCode + " " + b.AccountNumber)
		}
		d.add(p)
		if b.PixKey != "" {
			d.byKey["pix:"+b.PixKey] = p
		}
	}
	for _, w := range r.Wallets {
		p := Payee{Kind: KindWallet, ID: w.ID, Alias: w.Alias, Key: w.WalletAddress, Chain: strings.ToUpper(w.WalletChain), Name: w.Alias}
		d.add(p)
		d.byKey["wallet:"+strings.ToLower(w.WalletAddress)+":"+p.Chain] = p
	}
	for _, b := range r.USD {
		d.add(Payee{Kind: KindUSD, ID: b.ID, Alias: b.Alias, Key: masked(nonEmpty(b.BankName, "account"), b.BankAccountNumber),
			Name: nonEmpty(b.BankBeneficiaryName, strings.TrimSpace(b.FirstName+" "+b.LastName)), BankName: b.BankName})
	}
	for _, b := range r.EUR {
		d.add(Payee{Kind: KindEUR, ID: b.ID, Alias: b.Alias, Key: maskedIBAN(b.IBAN), Name: b.BankBeneficiaryName, BankName: b.BIC})
	}
	for _, b := range r.ARS {
		d.add(Payee{Kind: KindARS, ID: b.ID, Alias: b.Alias, Key: masked("CVU", b.CVU)})
	}
	for _, b := range r.COP {
		key := masked(nonEmpty(b.BankName, b.BankID, "account"), b.BankAccountNumber)
		if b.BankAccountNumber == "" && b.BreBKey != "" {
			key = masked("Bre-B key", b.BreBKey)
		}
		d.add(Payee{Kind: KindCOP, ID: b.ID, Alias: b.Alias, Key: key, Name: b.BeneficiaryName, BankName: b.BankName})
	}
	return d
}

// masked is label and the last four characters of number, the rest
// hidden: enough to tell two accounts apart at the review without
// printing a whole bank account on the screen (or in a scrollback).
func masked(label, number string) string {
	n := strings.ReplaceAll(number, " ", "")
	if len(n) <= 4 {
		return label + " ••••"
	}
	return label + " ••••" + n[len(n)-4:]
}

// maskedIBAN keeps an IBAN's country and check digits, which say where it
// is, and its last four characters.
func maskedIBAN(iban string) string {
	n := strings.ReplaceAll(iban, " ", "")
	if len(n) <= 8 {
		return "IBAN ••••"
	}
	return "IBAN " + n[:4] + " ••••" + n[len(n)-4:]
}

func nonEmpty(s ...string) string {
	for _, x := range s {
		if strings.TrimSpace(x) != "" {
			return strings.TrimSpace(x)
		}
	}
	return ""
}

// kindNames say, for a refusal, what a payee of each fiat kind is and the
// currency it receives.
var kindNames = map[payment.Kind]struct{ what, currency string }{
	KindBRL: {"a BRL bank account (PIX)", "BRL"},
	KindUSD: {"a USD bank account (ACH or WIRE)", "USD"},
	KindEUR: {"a EUR bank account (SEPA)", "EUR"},
	KindARS: {"an ARS account (CVU)", "ARS"},
	KindCOP: {"a COP bank account", "COP"},
}

// DefaultRail is the rail of a row that names none: the currency's first
// method in the catalogue (ACH for USD, the cheaper and the usual one for
// supplier payments; WIRE must be asked for).
func DefaultRail(currency string) string { return defaultRails[currency] }

// defaultRails is DefaultRail read once from the catalogue: money.Methods
// copies its list, and checking a row must not allocate for it.
var defaultRails = func() map[string]string {
	out := map[string]string{}
	for _, c := range money.Currencies() {
		if ms := money.Methods(c); len(ms) > 0 && !money.IsToken(c) {
			out[c] = ms[0]
		}
	}
	return out
}()

func (d *Directory) add(p Payee) {
	d.byID[p.ID] = p
	a := strings.ToLower(strings.TrimSpace(p.Alias))
	d.byAlias[a] = append(d.byAlias[a], p)
}

// resolve finds who a row pays; problem says why it cannot.
func (d *Directory) resolve(r *Row) (p Payee, method, problem string) {
	b := r.Beneficiary
	wantKind := payment.KindOf(r.Currency)
	switch {
	case r.Chain != "":
		addr, _, err := validate.EVMAddress(b)
		if err != nil {
			return p, "", fmt.Sprintf("wallet address %s: %v", b, err)
		}
		found, ok := d.byKey["wallet:"+strings.ToLower(addr)+":"+r.Chain]
		if !ok {
			found = Payee{Kind: KindWallet, Inline: true, Alias: addr, Key: addr, Chain: r.Chain}
		}
		p = found
	default:
		if id, err := uuid.Parse(b); err == nil {
			found, ok := d.byID[id]
			if !ok {
				return p, "", fmt.Sprintf("no beneficiary with id %s in this account", id)
			}
			p = found
			break
		}
		if ms := d.byAlias[strings.ToLower(b)]; len(ms) > 0 {
			var fit []Payee
			for _, m := range ms {
				if m.Kind == wantKind {
					fit = append(fit, m)
				}
			}
			if len(fit) > 1 {
				return p, "", fmt.Sprintf("%d beneficiaries are called %q: name it by id", len(fit), b)
			}
			if len(fit) == 1 {
				p = fit[0]
				break
			}
			p = ms[0] // the kind check below says what is wrong
			break
		}
		if k, ok := kindNames[wantKind]; ok && wantKind != KindBRL {
			return p, "", fmt.Sprintf("no beneficiary is called %q in this account: a %s payout goes to %s registered first (Beneficiaries, or tesouro beneficiaries), named here by its alias or id", b, k.currency, k.what)
		}
		if strings.HasPrefix(b, "0x") || strings.HasPrefix(b, "0X") {
			return p, "", fmt.Sprintf("%s looks like a wallet address: give its chain in the chain column", b)
		}
		_, key, err := validate.PixKey(b)
		if err != nil {
			return p, "", fmt.Sprintf("%q is no registered beneficiary's alias or id, and not a PIX key: %v", b, err)
		}
		found, ok := d.byKey["pix:"+key]
		if !ok {
			found = Payee{Kind: KindBRL, Inline: true, Alias: key, Key: key}
		}
		p = found
	}
	switch k, fiat := kindNames[p.Kind]; {
	case fiat && r.Currency != k.currency:
		return p, "", fmt.Sprintf("%s is %s: the currency must be %s, not %s", p.Alias, k.what, k.currency, r.Currency)
	case p.Kind == KindWallet && !money.IsToken(r.Currency):
		return p, "", fmt.Sprintf("%s is a wallet on %s: the currency must be a token (%s), not %s", p.Alias, p.Chain, strings.Join(money.BalanceTokens(), ", "), r.Currency)
	case p.Kind == KindWallet && !money.SupportsMethod(r.Currency, p.Chain):
		return p, "", fmt.Sprintf("%s is on %s, where %s cannot be sent (%s: %s)", p.Alias, p.Chain, r.Currency, r.Currency, strings.Join(money.Methods(r.Currency), ", "))
	case p.Kind == KindWallet:
		return p, p.Chain, ""
	}
	// A bank payout: the rail the row names (checked against the currency
	// when the file was read), else the currency's own.
	method = r.Rail
	if method == "" {
		method = DefaultRail(r.Currency)
	}
	if rail, _ := payment.RailOf(r.Currency, method); rail.Reference != "" && utf8.RuneCountInString(r.Reference) > payment.MaxReference {
		return p, "", fmt.Sprintf("reference is %d characters long: the %s's %s takes at most %d", utf8.RuneCountInString(r.Reference), method, rail.Reference, payment.MaxReference)
	}
	return p, method, ""
}

// Resolve checks every row against the directory, locally (no request):
// the part of checking whose speed the benchmark measures.
func Resolve(f *File, d *Directory) []*Planned {
	out := make([]*Planned, len(f.Rows))
	for i := range f.Rows {
		p := &Planned{Row: f.Rows[i]}
		if p.Problem == "" {
			p.Payee, p.Method, p.Problem = d.resolve(&p.Row)
		}
		out[i] = p
	}
	return out
}

// Check resolves, prices and checks a parsed file against the account.
// Each row is looked up by its external id first: a row an earlier run
// created (its ticket matching the row) or parked is marked so and not
// priced again; a ticket of another payment under the row's id makes the
// row invalid. The balance, the permissions and the month's limits are
// checked for the rows this run would pay.
func Check(ctx context.Context, svc Service, f *File, opts Options) (*Plan, error) {
	o := opts.withDefaults()
	info, err := svc.AccessInfo(ctx)
	if err != nil {
		return nil, fmt.Errorf("read the access: %w", err)
	}
	dir, err := LoadDirectory(ctx, svc, o.SubAccountID, f)
	if err != nil {
		return nil, err
	}
	plan := &Plan{File: f, Rows: Resolve(f, dir), Parks: info.AccountPermissions.OperationRequester}
	if err := earlier(ctx, svc, plan, o); err != nil {
		return nil, err
	}
	plan.Problems = append(plan.Problems, permissionProblems(info, plan, o)...)
	if err := holders(ctx, svc, plan.Rows, o.Concurrency); err != nil {
		return nil, err
	}
	Price(ctx, svc, plan.Rows, o)
	plan.totals()
	bal, err := svc.Balances(ctx, o.SubAccountID)
	if err != nil {
		return nil, fmt.Errorf("read the balances: %w", err)
	}
	for _, cur := range Currencies(plan.In) {
		if have := bal[cur]; have.LessThan(plan.In[cur]) {
			plan.Problems = append(plan.Problems, fmt.Sprintf("the %s balance is %s, the batch needs %s", cur, money.Format(have, cur), money.Format(plan.In[cur], cur)))
		}
	}
	lim, err := svc.Limits(ctx, o.SubAccountID)
	if err != nil {
		return nil, fmt.Errorf("read the limits: %w", err)
	}
	var use payment.Usage
	for _, r := range plan.Rows {
		if r.State() == StateNew {
			use.Add(r.Quote)
		}
	}
	for _, over := range use.Over(&lim.LimitInfo) {
		plan.Problems = append(plan.Problems, "over the month's limit: "+over)
	}
	return plan, nil
}

// earlier marks the rows an earlier run of the batch already settled: by
// the ledger (parked rows, and parked creations whose answer was lost,
// which no lookup can find), then by looking each row's external id up,
// at most o.Concurrency at a time. A ticket found is compared with the
// row's payment.
func earlier(ctx context.Context, svc Service, plan *Plan, o Options) error {
	var todo []*Planned
	for _, r := range plan.Rows {
		if r.Problem != "" {
			continue
		}
		if o.Ledger != nil {
			if st, op, ok := o.Ledger.Earlier(r.ExternalID); ok && st == Parked {
				r.earlier, r.OperationID = StateParked, op
				continue
			} else if ok && st == Unknown && plan.Parks {
				r.earlier = StateUnknown
				continue
			}
		}
		todo = append(todo, r)
	}
	errs := make([]error, len(todo))
	each(ctx, len(todo), o.Concurrency, func(i int) {
		r := todo[i]
		t, found, err := svc.FindTicketByExternalID(ctx, o.SubAccountID, r.ExternalID)
		switch {
		case err != nil:
			errs[i] = fmt.Errorf("row %d: look up external id %s: %w", r.N, r.ExternalID, err)
		case !found:
		case payment.Match(t, r.Intent(o.SubAccountID, plan.File.Name)) != nil:
			r.Problem = payment.Match(t, r.Intent(o.SubAccountID, plan.File.Name)).Error()
		default:
			r.earlier, r.TicketID = StateDone, t.ID.String()
		}
	})
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return errors.Join(errs...)
}

// permissionProblems says why the access may not pay the rows this run
// pays, by the payment core's rules; a row that names its payee inline is
// refused alone to an access held to registered beneficiaries.
func permissionProblems(info *api.AccessInfo, plan *Plan, o Options) []string {
	var need payment.Needs
	for _, r := range plan.Rows {
		if r.State() != StateNew {
			continue
		}
		n := r.Intent(o.SubAccountID, plan.File.Name).Needs()
		if n.Inline && info.AccountPermissions.EnforceAllowedBeneficiaries {
			r.Problem = fmt.Sprintf("%s is not a registered beneficiary, and this access may only pay registered ones: register it first (Beneficiaries, or tesouro beneficiaries)", r.Payee.Key)
			continue
		}
		need.PayIn, need.Convert, need.OnChain = need.PayIn || n.PayIn, need.Convert || n.Convert, need.OnChain || n.OnChain
		need.PayOut, need.Markup = need.PayOut || n.PayOut, need.Markup || n.Markup
	}
	var out []string
	for _, err := range payment.Refusals(info, o.SubAccountID, need, o.Clock.Now()) {
		out = append(out, err.Error())
	}
	return out
}

// holders asks pix-info who each PIX key pays (once per key), so that the
// review names the person the money goes to.
func holders(ctx context.Context, svc Service, rows []*Planned, conc int) error {
	keys := map[string][]*Planned{}
	for _, r := range rows {
		if r.Problem == "" && r.Payee.Kind == KindBRL && isPixKey(r.Payee.Key) {
			keys[r.Payee.Key] = append(keys[r.Payee.Key], r)
		}
	}
	type answer struct {
		info *api.PixInfo
		err  error
	}
	got := map[string]answer{}
	var mu sync.Mutex
	list := make([]string, 0, len(keys))
	for k := range keys {
		list = append(list, k)
	}
	each(ctx, len(list), conc, func(i int) {
		info, err := svc.PixInfo(ctx, list[i])
		mu.Lock()
		got[list[i]] = answer{info, err}
		mu.Unlock()
	})
	if ctx.Err() != nil {
		return ctx.Err()
	}
	for k, rs := range keys {
		a := got[k]
		for _, r := range rs {
			var ae *api.Error
			switch {
			case a.err == nil:
				r.Payee.Name, r.Payee.TaxID, r.Payee.BankName = a.info.Name, a.info.TaxID, a.info.BankName
			case errors.As(a.err, &ae) && ae.Status == 404:
				r.Problem = fmt.Sprintf("PIX key %s: nobody holds it in the PIX directory", k)
			default:
				r.Problem = fmt.Sprintf("PIX key %s: could not ask who holds it: %v", k, a.err)
			}
		}
	}
	return nil
}

func isPixKey(k string) bool {
	_, _, err := validate.PixKey(k)
	return err == nil
}

// totals adds up the rows this run pays.
func (p *Plan) totals() {
	p.Out, p.In, p.Fees = map[string]decimal.Decimal{}, map[string]decimal.Decimal{}, map[string]decimal.Decimal{}
	for _, r := range p.Rows {
		if r.State() != StateNew {
			continue
		}
		p.Out[r.Currency] = p.Out[r.Currency].Add(r.Amount)
		if r.Quote != nil {
			p.In[r.Source] = p.In[r.Source].Add(r.Quote.InputAmount)
		}
		for cur, f := range r.Fees() {
			p.Fees[cur] = p.Fees[cur].Add(f)
		}
	}
}

// OnlyValid drops the invalid rows: the caller's explicit choice to run the
// rest. Batch problems stay.
func (p *Plan) OnlyValid() {
	p.Rows = slices.DeleteFunc(p.Rows, func(r *Planned) bool { return r.Problem != "" })
	p.totals()
}

// each runs f(0..n-1) with at most conc at a time, stopping early when ctx
// is done.
func each(ctx context.Context, n, conc int, f func(i int)) {
	sem := make(chan struct{}, conc)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		if ctx.Err() != nil {
			break
		}
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			f(i)
		}()
	}
	wg.Wait()
}
