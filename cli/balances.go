package cli

import (
	"context"
	"slices"

	"github.com/spf13/cobra"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/money"
)

func newCmdBalances(f *Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "balances",
		Short: "Show the account's balance in every currency",
		Example: `  tesouro balances
  tesouro balances --sub-account "Acme Sul" --json
  tesouro balances --jq '.BRL'`,
		Args: noArgs,
	}
	out := addOutputFlags(cmd)
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		return f.run(cmd, func(ctx context.Context, s *session) error {
			b, err := s.client().Balances(ctx, s.sub)
			if err != nil {
				return err
			}
			return out.Write(f.Stdout, b, func() Table { return balancesTable(b) })
		})
	}
	return cmd
}

func balancesTable(b api.Balances) Table {
	cur := make([]string, 0, len(b))
	for c := range b {
		cur = append(cur, c)
	}
	slices.Sort(cur)
	t := Table{Columns: []string{"currency", "amount"}}
	for _, c := range cur {
		t.Rows = append(t.Rows, []string{c, money.Wire(b[c], c)})
	}
	return t
}
