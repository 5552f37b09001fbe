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

func (e *Env) accountsCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "accounts",
		Short: "List the main account and every sub-account (ids and names for --sub-account)",
		Args:  noArgs,
	}
	out := addOutputFlags(cmd)
	limit := limitFlag(cmd)
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		return e.run(cmd, func(ctx context.Context, s *session) error {
			mains, err := s.client().ListAccounts(ctx)
			if err != nil {
				return err
			}
			subs, err := collect(ctx, *limit, func(ctx context.Context, cursor string) (api.Page[api.SubAccount], error) {
				return s.client().ListSubAccounts(ctx, api.SubAccountFilter{Cursor: cursor})
			})
			if err != nil {
				return err
			}
			rows := []accountRow{}
			for _, a := range mains {
				rows = append(rows, accountRow{Kind: "main", ID: a.ID.String(), Name: a.Name, Type: a.AccountType})
			}
			for _, a := range subs {
				rows = append(rows, accountRow{Kind: "sub", ID: a.SubAccountID.String(), Name: a.AccountInfo.Name, Type: a.AccountInfo.AccountType})
			}
			return out.Write(e.Stdout, rows, func() Table {
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
