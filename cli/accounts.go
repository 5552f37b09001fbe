package cli

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/tesouro-treasury/tesouro/api"
)

// accountRow is one account, main or sub, in the accounts output.
type accountRow struct {
	Kind string `json:"kind"` // main or sub
	ID   string `json:"id"`
	Name string `json:"name"`
	Type string `json:"accountType"`
}

func newCmdAccounts(f *Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "accounts",
		Short: "List the main account and its sub-accounts (ids and names for --sub-account)",
		Example: `  tesouro accounts
  tesouro accounts --format csv`,
		Args: noArgs,
	}
	out := addOutputFlags(cmd)
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		return f.run(cmd, func(ctx context.Context, s *session) error {
			accts, err := s.client().ListAccounts(ctx)
			if err != nil {
				return err
			}
			rows := []accountRow{}
			for _, a := range accts {
				kind := "sub"
				if isMain(a) {
					kind = "main"
				}
				rows = append(rows, accountRow{Kind: kind, ID: a.ID.String(), Name: a.Name, Type: a.AccountType})
			}
			return out.Write(f.Stdout, rows, func() Table {
				t := Table{Columns: []string{"kind", "id", "name", "account_type"}}
				for _, r := range rows {
					t.Rows = append(t.Rows, []string{r.Kind, r.ID, r.Name, r.Type})
				}
				return t
			})
		})
	}
	return cmd
}

// isMain reports whether a is a main account rather than a sub-account.
func isMain(a api.Account) bool {
	return a.MainAccountID == "" || a.MainAccountID == a.ID.String()
}
