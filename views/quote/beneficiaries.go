package quote

import (
	"context"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/views/internal/form"
)

// maxBeneficiaries bounds how many beneficiaries of one kind a picker loads;
// accounts hold a handful, and the filter is there for the rest.
const maxBeneficiaries = 2000

// listTimeout bounds the whole load of a picker, every page of it: a
// picker that has not filled by then says so and is retried by hand.
const listTimeout = time.Minute

// beneficiaryKind is the kind of beneficiary an output block references.
type beneficiaryKind string

const (
	kindBRL    beneficiaryKind = "brl"
	kindWallet beneficiaryKind = "wallet"
	kindUSD    beneficiaryKind = "usd"
	kindCOP    beneficiaryKind = "cop"
)

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

// loadBeneficiaries lists the beneficiaries the open picker offers, in the
// operated account, for the listing slot. Wallets are restricted to the
// quote's chain; without payOut every option that would move money out of
// the account is disabled.
func (m *Screen) loadBeneficiaries() tea.Cmd {
	if m.details == nil || m.details.outKind == "" {
		return nil
	}
	var payOut error
	if m.details.req.PayOut != PayOutNo {
		payOut = m.s.Can(ui.ActPayOut)
	}
	return ui.Fetch(m.s, &m.listing, listTimeout, listBeneficiaries(m.svc, m.details.outKind, m.s.Account.ID, m.details.req.Chain, payOut))
}

// listBeneficiaries is the load of the beneficiaries of kind in account as
// picker options; everything is captured by value.
func listBeneficiaries(client Service, kind beneficiaryKind, account uuid.UUID, chain string, payOutErr error) func(context.Context) (beneficiaries, error) {
	return func(ctx context.Context) (beneficiaries, error) {
		var got beneficiaries
		var err error
		byAccount := func(c string) api.BeneficiaryFilter { return api.BeneficiaryFilter{SubAccountID: account, Cursor: c} }
		switch kind {
		case kindBRL:
			got.options, got.more, err = optionsOf(ctx, func(ctx context.Context, c string) (api.Page[api.BRLAccount], error) {
				return client.ListBRLAccounts(ctx, byAccount(c))
			}, brlOption, nil)
		case kindWallet:
			// The account's own service wallet first: it is always there and
			// needs no payOut.
			own := form.Option{ID: uuid.Nil, Title: "Own service wallet", Details: []string{"the operated account's own service wallet on " + chain, "beneficiary id " + uuid.Nil.String()}}
			got.options, got.more, err = optionsOf(ctx, func(ctx context.Context, c string) (api.Page[api.Wallet], error) {
				return client.ListWallets(ctx, api.WalletFilter{SubAccountID: account, WalletChain: chain, Cursor: c})
			}, walletOption, func(w api.Wallet) bool { return chain == "" || strings.EqualFold(w.WalletChain, chain) })
			got.options = append([]form.Option{own}, got.options...)
		case kindUSD:
			got.options, got.more, err = optionsOf(ctx, func(ctx context.Context, c string) (api.Page[api.USDAccount], error) {
				return client.ListUSDAccounts(ctx, byAccount(c))
			}, usdOption, nil)
		case kindCOP:
			got.options, got.more, err = optionsOf(ctx, func(ctx context.Context, c string) (api.Page[api.COPAccount], error) {
				return client.ListCOPAccounts(ctx, byAccount(c))
			}, copOption, nil)
		}
		if payOutErr != nil {
			for i, o := range got.options {
				if o.ID != uuid.Nil || kind != kindWallet {
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
