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
		var msg beneficiaries
		var err error
		var opts []form.Option
		switch kind {
		case kindBRL:
			items, more, e := pages(ctx, func(ctx context.Context, c string) (api.Page[api.BRLAccount], error) {
				return client.ListBRLAccounts(ctx, api.BeneficiaryFilter{SubAccountID: account, Cursor: c})
			})
			msg.more, err = more, e
			for _, b := range items {
				opts = append(opts, brlOption(b))
			}
		case kindWallet:
			// The account's own service wallet first: it is always there and
			// needs no payOut.
			opts = append(opts, form.Option{ID: uuid.Nil, Title: "Own service wallet", Details: []string{"the operated account's own service wallet on " + chain, "beneficiary id " + uuid.Nil.String()}})
			items, more, e := pages(ctx, func(ctx context.Context, c string) (api.Page[api.Wallet], error) {
				return client.ListWallets(ctx, api.WalletFilter{SubAccountID: account, WalletChain: chain, Cursor: c})
			})
			msg.more, err = more, e
			for _, w := range items {
				if chain != "" && !strings.EqualFold(w.WalletChain, chain) {
					continue
				}
				opts = append(opts, walletOption(w))
			}
		case kindUSD:
			items, more, e := pages(ctx, func(ctx context.Context, c string) (api.Page[api.USDAccount], error) {
				return client.ListUSDAccounts(ctx, api.BeneficiaryFilter{SubAccountID: account, Cursor: c})
			})
			msg.more, err = more, e
			for _, b := range items {
				opts = append(opts, usdOption(b))
			}
		case kindCOP:
			items, more, e := pages(ctx, func(ctx context.Context, c string) (api.Page[api.COPAccount], error) {
				return client.ListCOPAccounts(ctx, api.BeneficiaryFilter{SubAccountID: account, Cursor: c})
			})
			msg.more, err = more, e
			for _, b := range items {
				opts = append(opts, copOption(b))
			}
		}
		if payOutErr != nil {
			for i := range opts {
				if opts[i].ID != uuid.Nil || kind != kindWallet {
					opts[i].Disabled = payOutErr.Error()
				}
			}
		}
		msg.options = opts
		return msg, err
	}
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
