package cli

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/spf13/cobra"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/journal"
)

// beneficiaryRow is one beneficiary of any kind, as listed.
// Each field holds one value, so that the CSV form has one per cell.
type beneficiaryRow struct {
	Kind       string `json:"kind"` // wallet, brl, usd, cop, eur, ars
	ID         string `json:"id"`
	Alias      string `json:"alias"`
	Target     string `json:"target"`     // address, PIX key, account number, IBAN or CVU
	TargetType string `json:"targetType"` // the chain, the PIX key's type, ACCOUNT, IBAN or CVU
	Bank       string `json:"bank"`       // bank code, name or BIC
	Branch     string `json:"branch"`
	CreatedAt  string `json:"createdAt"`
}

var beneficiaryKinds = []string{"wallet", "brl", "usd", "cop", "eur", "ars"}

func newCmdBeneficiaries(f *Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "beneficiaries",
		Short: "List and add beneficiaries (wallets and bank accounts)",
		Args:  cobra.ArbitraryArgs,
		RunE:  GroupRunE("list or add"),
	}
	cmd.AddCommand(newCmdBeneficiariesList(f), newCmdBeneficiariesAdd(f))
	return cmd
}

func newCmdBeneficiariesList(f *Factory) *cobra.Command {
	var kind, alias string
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List beneficiaries (every kind unless --kind)",
		Example: `  tesouro beneficiaries list
  tesouro beneficiaries list --kind brl --format csv
  tesouro beneficiaries list --alias "Maria Silva" --jq '.[0].id'`,
		Args: noArgs,
	}
	cmd.Flags().StringVar(&kind, "kind", "", "only this KIND: wallet, brl, usd, cop, eur or ars")
	cmd.Flags().StringVar(&alias, "alias", "", "only beneficiaries with this ALIAS")
	out := addOutputFlags(cmd)
	limit := limitFlag(cmd)
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		kinds := beneficiaryKinds
		if kind != "" {
			k := strings.ToLower(kind)
			if !contains(beneficiaryKinds, k) {
				return Usagef("--kind %q: use wallet, brl, usd, cop, eur or ars", kind)
			}
			kinds = []string{k}
		}
		return f.run(cmd, func(ctx context.Context, s *session) error {
			rows := []beneficiaryRow{}
			c := s.client()
			bf := func(cursor string) api.BeneficiaryFilter {
				return api.BeneficiaryFilter{SubAccountID: s.sub, Alias: alias, Cursor: cursor}
			}
			for _, k := range kinds {
				var err error
				switch k {
				case "wallet":
					var ws []api.Wallet
					ws, err = collect(ctx, *limit, func(ctx context.Context, cur string) (api.Page[api.Wallet], error) {
						return c.ListWallets(ctx, api.WalletFilter{SubAccountID: s.sub, Alias: alias, Cursor: cur})
					})
					for _, w := range ws {
						rows = append(rows, beneficiaryRow{"wallet", w.ID.String(), w.Alias, w.WalletAddress, w.WalletChain, "", "", ts(w.CreatedAt)})
					}
				case "brl":
					var bs []api.BRLAccount
					bs, err = collect(ctx, *limit, func(ctx context.Context, cur string) (api.Page[api.BRLAccount], error) {
						return c.ListBRLAccounts(ctx, bf(cur))
					})
					for _, b := range bs {
						r := beneficiaryRow{"brl", b.ID.String(), b.Alias, b.PixKey, b.PixKeyType, "", "", ts(b.CreatedAt)}
						if r.Target == "" {
							r.Target, r.TargetType, r.Bank, r.Branch = b.AccountNumber, "ACCOUNT", b.BankCode, b.BranchCode
						}
						rows = append(rows, r)
					}
				case "usd":
					var us []api.USDAccount
					us, err = collect(ctx, *limit, func(ctx context.Context, cur string) (api.Page[api.USDAccount], error) {
						return c.ListUSDAccounts(ctx, bf(cur))
					})
					for _, u := range us {
						rows = append(rows, beneficiaryRow{"usd", u.ID.String(), u.Alias, u.BankAccountNumber, "ACCOUNT", u.BankName, "", ts(u.CreatedAt)})
					}
				case "cop":
					var cs []api.COPAccount
					cs, err = collect(ctx, *limit, func(ctx context.Context, cur string) (api.Page[api.COPAccount], error) {
						return c.ListCOPAccounts(ctx, bf(cur))
					})
					for _, b := range cs {
						rows = append(rows, beneficiaryRow{"cop", b.ID.String(), b.Alias, b.BankAccountNumber, "ACCOUNT", b.BankName, "", ts(b.CreatedAt)})
					}
				case "eur":
					var es []api.EURAccount
					es, err = collect(ctx, *limit, func(ctx context.Context, cur string) (api.Page[api.EURAccount], error) {
						return c.ListEURAccounts(ctx, bf(cur))
					})
					for _, b := range es {
						rows = append(rows, beneficiaryRow{"eur", b.ID.String(), b.Alias, b.IBAN, "IBAN", b.BIC, "", ts(b.CreatedAt)})
					}
				case "ars":
					var as []api.ARSAccount
					as, err = collect(ctx, *limit, func(ctx context.Context, cur string) (api.Page[api.ARSAccount], error) {
						return c.ListARSAccounts(ctx, bf(cur))
					})
					for _, b := range as {
						rows = append(rows, beneficiaryRow{"ars", b.ID.String(), b.Alias, b.CVU, "CVU", "", "", ts(b.CreatedAt)})
					}
				}
				if err != nil {
					return err
				}
			}
			if *limit > 0 && len(rows) > *limit {
				rows = rows[:*limit]
			}
			return out.Write(f.Stdout, rows, func() Table {
				t := Table{Columns: []string{"kind", "id", "alias", "target", "target_type", "bank", "branch", "created_at"}}
				for _, r := range rows {
					t.Rows = append(t.Rows, []string{r.Kind, r.ID, r.Alias, r.Target, r.TargetType, r.Bank, r.Branch, r.CreatedAt})
				}
				return t
			})
		})
	}
	return cmd
}

func ts(t api.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func newCmdBeneficiariesAdd(f *Factory) *cobra.Command {
	var kind, alias, desc, address, chain, memo, pixKey, taxID, name string
	var yes bool
	cmd := &cobra.Command{
		Use:   "add",
		Short: "Add a wallet (--address, --chain) or a BRL PIX account (--pix-key)",
		Example: `  tesouro beneficiaries add --kind wallet --alias treasury --address 0x52908400098527886E0F7030069857D2E4169EE7 --chain POLYGON --yes
  tesouro beneficiaries add --kind brl --alias fornecedor --pix-key fornecedor@example.com --yes`,
		Args: noArgs,
	}
	fs := cmd.Flags()
	fs.StringVar(&kind, "kind", "", "kind of beneficiary: wallet or brl")
	fs.StringVar(&alias, "alias", "", "alias to find it by")
	fs.StringVar(&desc, "description", "", "free TEXT")
	fs.StringVar(&address, "address", "", "wallet ADDRESS (--kind wallet)")
	fs.StringVar(&chain, "chain", "", "wallet CHAIN: POLYGON, CELO, ETHEREUM, BASE (--kind wallet)")
	fs.StringVar(&memo, "memo", "", "wallet MEMO (--kind wallet)")
	fs.StringVar(&pixKey, "pix-key", "", "the account's PIX key (--kind brl)")
	fs.StringVar(&taxID, "tax-id", "", "a bank account's holder's CPF or CNPJ: refused with --pix-key, which names its holder")
	fs.StringVar(&name, "name", "", "a bank account's holder's NAME: refused with --pix-key, which names its holder")
	fs.BoolVar(&yes, "yes", false, "add without asking (scripts)")
	out := addOutputFlags(cmd)
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		if alias == "" {
			return Usagef("--alias is required")
		}
		switch kind {
		case "wallet":
			if address == "" || chain == "" {
				return Usagef("--kind wallet needs --address and --chain")
			}
		case "brl":
			if pixKey == "" {
				return Usagef("--kind brl needs --pix-key")
			}
			if taxID != "" || name != "" {
				// The service takes a PIX key or a bank account's fields,
				// never both: the key names its holder.
				return Usagef("--tax-id and --name describe a bank account, and a PIX key names its holder: give --pix-key alone (bank accounts are added in the dashboard)")
			}
		default:
			return Usagef("--kind %q: use wallet or brl (other kinds are added in the dashboard)", kind)
		}
		interactive := f.StdinTTY() && !yes
		if !interactive && !yes {
			return Usagef("no terminal to confirm at: pass --yes to add without asking")
		}
		return f.runWrite(cmd, write{what: "beneficiaries add", interactive: interactive}, func(ctx context.Context, s *session) error {
			fmt.Fprintf(f.Stderr, "Add %s beneficiary %q to %s\n", kind, alias, s.accountLabel())
			if interactive && !f.Prompter.Confirm(ctx, "Add it?") {
				return fmt.Errorf("not confirmed: nothing added")
			}
			endpoint := "POST /v2/account/beneficiaries/wallets/"
			if kind == "brl" {
				endpoint = "POST /v2/account/beneficiaries/bank-accounts/brl/"
			}
			var id uuid.UUID
			err := s.write("create-beneficiary-"+kind, endpoint, func(je *journal.Entry) error {
				je.IDs = map[string]string{"alias": alias}
				var err error
				if kind == "wallet" {
					id, err = s.client().CreateWallet(ctx, s.sub, api.CreateWalletRequest{Alias: alias, Description: desc, WalletAddress: address, WalletChain: strings.ToUpper(chain), WalletMemo: memo})
				} else {
					id, err = s.client().CreateBRLAccount(ctx, s.sub, api.CreateBRLAccountRequest{Alias: alias, Description: desc, PixKey: pixKey, TaxID: taxID, UserName: name})
				}
				if err != nil {
					return err
				}
				je.IDs["beneficiary"], je.Outcome = id.String(), "created"
				return nil
			})
			if err != nil {
				return err
			}
			res := map[string]string{"id": id.String(), "kind": kind, "alias": alias}
			return out.Write(f.Stdout, res, func() Table {
				return Table{Columns: []string{"id", "kind", "alias"}, Rows: [][]string{{id.String(), kind, alias}}}
			})
		})
	}
	return cmd
}
