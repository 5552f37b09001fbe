package cli

import (
	"context"
	"time"

	"github.com/spf13/cobra"

	"github.com/tesouro-treasury/tesouro/api"
)

// StatementColumns are the CSV and table columns of tesouro statement, in
// their fixed order.
var StatementColumns = []string{"id", "created_at", "currency", "balance_change", "final_balance", "description", "ticket_id"}

func newCmdStatement(f *Factory) *cobra.Command {
	var since, until string
	cmd := &cobra.Command{
		Use:   "statement",
		Short: "List the ledger: every balance change and the balance it left",
		Long: `Lists the account's ledger, newest first: each balance change with the
currency, the balance it left and what caused it (a ticket, a fee, a funding).
Amounts are printed exactly as the service keeps them.`,
		Example: `  tesouro statement --since 2026-01-01 --until 2026-02-01 --format csv > january.csv
  tesouro statement --sub-account "Acme Sul" --limit 20
  tesouro statement --jq '[.[] | select(.token == "BRL") | .balanceChange | tonumber] | add'`,
		Args: noArgs,
	}
	cmd.Flags().StringVar(&since, "since", "", "only changes at or after TIME (2026-01-14 or RFC 3339)")
	cmd.Flags().StringVar(&until, "until", "", "only changes before TIME (2026-01-15 or RFC 3339)")
	out := addOutputFlags(cmd)
	limit := limitFlag(cmd)
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		after, err := parseTime("--since", since)
		if err != nil {
			return err
		}
		before, err := parseTime("--until", until)
		if err != nil {
			return err
		}
		if !after.IsZero() && !before.IsZero() && !after.Before(before) {
			return Usagef("--since %s is not before --until %s", since, until)
		}
		return f.run(cmd, func(ctx context.Context, s *session) error {
			sf := api.StatementFilter{SubAccountID: s.sub, CreatedAfter: after, CreatedBefore: before}
			list, err := collect(ctx, *limit, func(ctx context.Context, cursor string) (api.Page[api.StatementLog], error) {
				g := sf
				g.Cursor = cursor
				return s.client().Statement(ctx, g)
			})
			if err != nil {
				return err
			}
			return out.Write(f.Stdout, list, func() Table { return statementTable(list) })
		})
	}
	return cmd
}

func statementTable(list []api.StatementLog) Table {
	t := Table{Columns: StatementColumns}
	for _, l := range list {
		// Decimal strings, not the currency's display precision: a sum of
		// the column must equal the balance change to the last digit.
		t.Rows = append(t.Rows, []string{l.ID, l.CreatedAt.UTC().Format(time.RFC3339), l.Token,
			l.BalanceChange.String(), l.FinalBalance.String(), l.Description, l.TicketID})
	}
	return t
}
