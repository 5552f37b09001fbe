package quote

import (
	"context"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/payment"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/validate"
	"github.com/tesouro-treasury/tesouro/views/internal/form"
)

// maxBeneficiaries bounds how many beneficiaries of one kind a picker loads;
// accounts hold a handful, and the filter is there for the rest.
const maxBeneficiaries = 2000

// listTimeout bounds the whole load of a picker, every page of it: a
// picker that has not filled by then says so and is retried by hand.
const listTimeout = time.Minute

// beneficiaries is a loaded list for the picker: more is true when there
// were more than maxBeneficiaries.
type beneficiaries struct {
	options []form.Option
	more    bool
}

// pages fetches cursor pages until the last one or max items.
func pages[T any](ctx context.Context, fetch func(ctx context.Context, cursor string) (api.Page[T], error)) ([]T, bool, error) {
	var out []T
	cursor := ""
	for {
		p, err := fetch(ctx, cursor)
		if err != nil {
			return out, false, err
		}
		out = append(out, p.Items...)
		if !p.More() {
			return out, false, nil
		}
		if len(out) >= maxBeneficiaries {
			return out, true, nil
		}
		cursor = p.Cursor
	}
}

// payee is how the details pick a registered beneficiary of one kind: the
// picker's label, and the load of that kind's list in an account (wallets
// restricted to the quote's chain).
type payee struct {
	label string
	load  func(ctx context.Context, svc Service, account uuid.UUID, chain string) ([]form.Option, bool, error)
}

// payees are the kinds of beneficiary an output rail pays (payment.Rail's
// Payee), one list of the service each.
var payees = map[payment.Kind]payee{
	payment.KindBRL: {"PIX beneficiary", func(ctx context.Context, svc Service, account uuid.UUID, _ string) ([]form.Option, bool, error) {
		return bankOptions(ctx, account, svc.ListBRLAccounts, brlOption)
	}},
	payment.KindWallet: {"To wallet", func(ctx context.Context, svc Service, account uuid.UUID, chain string) ([]form.Option, bool, error) {
		return optionsOf(ctx, func(ctx context.Context, c string) (api.Page[api.Wallet], error) {
			return svc.ListWallets(ctx, api.WalletFilter{SubAccountID: account, WalletChain: chain, Cursor: c})
		}, walletOption, func(w api.Wallet) bool { return chain == "" || strings.EqualFold(w.WalletChain, chain) })
	}},
	payment.KindUSD: {"USD beneficiary", func(ctx context.Context, svc Service, account uuid.UUID, _ string) ([]form.Option, bool, error) {
		return bankOptions(ctx, account, svc.ListUSDAccounts, usdOption)
	}},
	payment.KindEUR: {"EUR beneficiary", func(ctx context.Context, svc Service, account uuid.UUID, _ string) ([]form.Option, bool, error) {
		return bankOptions(ctx, account, svc.ListEURAccounts, eurOption)
	}},
	payment.KindARS: {"ARS beneficiary", func(ctx context.Context, svc Service, account uuid.UUID, _ string) ([]form.Option, bool, error) {
		return bankOptions(ctx, account, svc.ListARSAccounts, arsOption)
	}},
	payment.KindCOP: {"COP beneficiary", func(ctx context.Context, svc Service, account uuid.UUID, _ string) ([]form.Option, bool, error) {
		return bankOptions(ctx, account, svc.ListCOPAccounts, copOption)
	}},
}

// loadBeneficiaries lists the beneficiaries the open picker offers, in the
// operated account, for the listing slot. Without payOut every option that
// would move money out of the account is disabled; an access held to
// registered beneficiaries cannot choose an inline destination.
func (m *Screen) loadBeneficiaries() tea.Cmd {
	d := m.details
	if d.payee() == payment.KindNone {
		return nil
	}
	var payOut error
	if d.need.Rail.PayOut != payment.PayOutNo {
		payOut = m.s.CanPay(payment.Needs{PayOut: true})
	}
	restricted := m.s.CanPay(payment.Needs{Inline: true}) != nil
	return ui.Fetch(m.s, &m.listing, listTimeout, listBeneficiaries(m.svc, d.need.Rail, m.s.Account.ID, d.need.Chain, payOut, restricted))
}

// loadMarkupWallets lists the service wallets the markup picker offers.
func (m *Screen) loadMarkupWallets() tea.Cmd {
	if m.details.markupPicker() == nil {
		return nil
	}
	return ui.Fetch(m.s, &m.markupListing, listTimeout, listMarkupWallets(m.svc, m.s.Account.ID))
}

func (m *Screen) onBeneficiaries(msg ui.Result[beneficiaries]) {
	p := m.details.picker()
	if !fillPicker(p, "the beneficiaries", msg.Err, msg.Value.options) {
		return
	}
	if msg.Value.more {
		p.LoadErr = fmt.Sprintf("only the first %d beneficiaries were loaded: type to filter them", maxBeneficiaries)
	}
	m.details.form.Refresh()
}

// onMarkupWallets fills the markup picker; a single wallet is chosen at
// once, since there is nothing to choose between.
func (m *Screen) onMarkupWallets(msg ui.Result[markupWallets]) {
	p := m.details.markupPicker()
	if !fillPicker(p, "your service wallets", msg.Err, msg.Value.options) {
		return
	}
	m.details.markupAddresses = msg.Value.addresses
	if p.Chosen == nil && len(p.All) == 1 {
		p.Chosen = &p.All[0]
	}
	m.details.form.Refresh()
}

// fillPicker gives p the options loaded, or says why they did not load
// (what: "the beneficiaries") and how to ask again; it reports false for a
// nil p, a picker the form no longer shows.
func fillPicker(p *form.Picker, what string, err error, options []form.Option) bool {
	if p == nil {
		return false
	}
	p.LoadErr = ""
	if err != nil {
		p.LoadErr = "could not load " + what + ": " + ui.ErrorText(err) + " (esc and continue again to retry)"
	}
	p.SetOptions(options)
	return true
}

// listBeneficiaries is the load of the beneficiaries rail pays in account
// as picker options, everything captured by value: the account's own
// service wallet first where the rail takes it, then the registered ones,
// then an option for each destination the rail takes inline (a PIX key, an
// address), typed under the picker; restricted
// (enforceAllowedBeneficiaries) disables those, as the service would
// refuse them.
func listBeneficiaries(client Service, rail payment.Rail, account uuid.UUID, chain string, payOutErr error, restricted bool) func(context.Context) (beneficiaries, error) {
	return func(ctx context.Context) (beneficiaries, error) {
		var got beneficiaries
		var err error
		got.options, got.more, err = payees[rail.Payee].load(ctx, client, account, chain)
		if rail.Takes(payment.ToOwnWallet) {
			// Always there, and it needs no payOut.
			own := form.Option{ID: uuid.Nil, Title: "Own service wallet", Details: []string{"the operated account's own service wallet on " + chain, "beneficiary id " + uuid.Nil.String()}}
			got.options = append([]form.Option{own}, got.options...)
		}
		for _, x := range inlines {
			if !rail.Takes(x.kind) {
				continue
			}
			o := form.Option{ID: inlineID(x.kind), Title: x.title, Details: []string{"unregistered: typed below"}}
			if x.kind == payment.ToAddress {
				o.Details = []string{"unregistered, on " + nonEmpty(chain, "the quote's chain") + ": typed below"}
			}
			if restricted {
				o.Disabled = "registered beneficiaries only for this access"
			}
			got.options = append(got.options, o)
		}
		if payOutErr != nil {
			for i, o := range got.options {
				if o.ID != uuid.Nil || !rail.Takes(payment.ToOwnWallet) {
					got.options[i].Disabled = payOutErr.Error()
				}
			}
		}
		return got, err
	}
}

// optionsOf loads the pages of one kind of beneficiary (see pages) and
// makes an option of each item keep accepts (every item when keep is nil).
func optionsOf[T any](ctx context.Context, fetch func(ctx context.Context, cursor string) (api.Page[T], error), option func(T) form.Option, keep func(T) bool) ([]form.Option, bool, error) {
	items, more, err := pages(ctx, fetch)
	var out []form.Option
	for _, it := range items {
		if keep == nil || keep(it) {
			out = append(out, option(it))
		}
	}
	return out, more, err
}

// bankOptions is optionsOf for a kind of bank account: every one of
// account, listed with list.
func bankOptions[T any](ctx context.Context, account uuid.UUID, list func(context.Context, api.BeneficiaryFilter) (api.Page[T], error), option func(T) form.Option) ([]form.Option, bool, error) {
	return optionsOf(ctx, func(ctx context.Context, c string) (api.Page[T], error) {
		return list(ctx, api.BeneficiaryFilter{SubAccountID: account, Cursor: c})
	}, option, nil)
}

func brlOption(b api.BRLAccount) form.Option {
	where := fmt.Sprintf("bank %s branch %s account %s (%s)", b.BankCode, b.BranchCode, b.AccountNumber, nonEmpty(b.AccountType, "account"))
	if b.PixKey != "" {
		where = fmt.Sprintf("PIX key %s (%s)", b.PixKey, nonEmpty(b.PixKeyType, "key"))
	}
	return form.Option{ID: b.ID, Title: nonEmpty(b.Alias, b.UserName, b.ID.String()),
		Details: nonEmptyLines(b.UserName, where, labelled("tax id ", b.TaxID), b.Description)}
}

func walletOption(w api.Wallet) form.Option {
	return form.Option{ID: w.ID, Title: nonEmpty(w.Alias, w.WalletAddress),
		Details: nonEmptyLines(w.WalletAddress+" on "+w.WalletChain, labelled("memo ", w.WalletMemo), w.Description)}
}

func usdOption(b api.USDAccount) form.Option {
	where := fmt.Sprintf("%s routing %s account %s", nonEmpty(b.BankName, "bank"), b.BankRoutingNumber, b.BankAccountNumber)
	return form.Option{ID: b.ID, Title: nonEmpty(b.Alias, b.BankBeneficiaryName, b.ID.String()),
		Details: nonEmptyLines(b.BankBeneficiaryName, where)}
}

func copOption(b api.COPAccount) form.Option {
	var where string
	switch {
	case b.BankAccountNumber != "":
		where = fmt.Sprintf("%s account %s", nonEmpty(b.BankName, b.BankID, "bank"), b.BankAccountNumber)
	case b.BreBKey != "":
		where = "Bre-B key " + b.BreBKey
	}
	document := strings.TrimSpace(labelled(b.DocumentType+" ", b.DocumentNumber))
	return form.Option{ID: b.ID, Title: nonEmpty(b.Alias, b.BeneficiaryName, b.ID.String()),
		Details: nonEmptyLines(b.BeneficiaryName, where, document)}
}

func eurOption(b api.EURAccount) form.Option {
	where := "IBAN " + validate.IBANGroups(b.IBAN)
	if b.BIC != "" {
		where += " · BIC " + b.BIC
	}
	return form.Option{ID: b.ID, Title: nonEmpty(b.Alias, b.BankBeneficiaryName, b.ID.String()),
		Details: nonEmptyLines(where, b.BankBeneficiaryName, labelled("country ", b.Country), b.Description)}
}

func arsOption(b api.ARSAccount) form.Option {
	return form.Option{ID: b.ID, Title: nonEmpty(b.Alias, b.ID.String()),
		Details: nonEmptyLines("CVU "+b.CVU, b.Description)}
}

// markupWallets are the service wallets a markup may be paid to, as picker
// options, with the address each option stands for.
type markupWallets struct {
	options   []form.Option
	addresses map[uuid.UUID]string
}

// listMarkupWallets loads the operated account's own service wallets
// (account-info) and, for a sub-account, the main account's too: a markup
// is the integrator's revenue, most often kept in the main account. Both
// are service wallets the service accepts. Everything is captured by value.
func listMarkupWallets(client Service, account uuid.UUID) func(context.Context) (markupWallets, error) {
	return func(ctx context.Context) (markupWallets, error) {
		got := markupWallets{addresses: map[uuid.UUID]string{}}
		owners := []struct {
			id    uuid.UUID
			label string
		}{{account, "this account"}}
		if account != uuid.Nil {
			owners = append(owners, struct {
				id    uuid.UUID
				label string
			}{uuid.Nil, "main account"})
		}
		for i, o := range owners {
			d, err := client.AccountDetails(ctx, o.id)
			if err != nil {
				if i > 0 && len(got.options) > 0 {
					// The operated account's own wallets are enough to go on.
					break
				}
				return got, err
			}
			for _, w := range d.Wallets {
				addr := w.WalletAddress
				if sum, _, err := validate.EVMAddress(addr); err == nil {
					addr = sum
				}
				id, err := uuid.Parse(w.ID)
				if err != nil {
					id = uuid.NewSHA1(uuid.NameSpaceURL, []byte(o.id.String()+"/"+w.Chain+"/"+addr))
				}
				if _, dup := got.addresses[id]; dup {
					continue
				}
				got.addresses[id] = addr
				got.options = append(got.options, form.Option{ID: id, Title: addr,
					Details: nonEmptyLines(o.label+" · "+nonEmpty(d.AccountInfo.Name, d.AccountInfo.FullName, o.id.String()), labelled("chain ", w.Chain))})
			}
		}
		return got, nil
	}
}

// nonEmptyLines are the parts that are not empty, in order.
func nonEmptyLines(parts ...string) []string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return out
}

// labelled is label followed by v, or "" when there is no v.
func labelled(label, v string) string {
	if v == "" {
		return ""
	}
	return label + v
}

func nonEmpty(vals ...string) string {
	for _, v := range vals {
		if strings.TrimSpace(v) != "" {
			return v
		}
	}
	return ""
}
