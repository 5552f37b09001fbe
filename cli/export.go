package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/google/uuid"
	"github.com/spf13/cobra"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/export"
)

func newCmdTicketsExport(f *Factory) *cobra.Command {
	var filters ticketFilterFlags
	var output string
	cmd := &cobra.Command{
		Use:   "export",
		Short: "Export every ticket the filter matches as CSV (fixed columns)",
		Long: `Writes a CSV of every ticket the filter matches, fetching all pages (progress on
stderr at a terminal). The columns never change: every fee type has its own
pair of columns (amount in the input and in the output currency), and the
account and sub-account are named on every row. Cells a spreadsheet would
run as a formula are guarded. The file goes to the current directory, or to
export_dir from config.toml, named after the account:
tesouro-tickets-ACCOUNT-YYYYMMDD-HHMMSS.csv.`,
		Example: `  tesouro tickets export --status PAID --since 2026-01-14 --until 2026-01-15
  tesouro tickets export -o - | wc -l`,
		Args:        noArgs,
		Annotations: map[string]string{longRunning: ""},
	}
	filters.add(cmd)
	cmd.Flags().StringVarP(&output, "output", "o", "", "write to FILE (- for stdout) instead of a named file in the export directory")
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		return f.run(cmd, func(ctx context.Context, s *session) error {
			tf, err := filters.filter(s)
			if err != nil {
				return err
			}
			acct, err := exportAccount(ctx, s)
			if err != nil {
				return err
			}
			if output == "-" {
				n, err := f.writeTickets(ctx, s, tf, acct, f.Stdout, true)
				if err == nil {
					fmt.Fprintf(f.Stderr, "%d tickets exported\n", n)
				}
				return err
			}
			path := output
			if path == "" {
				dir, err := export.Dir(f.Getenv)
				if err != nil {
					return err
				}
				name := acct.Name
				if acct.SubAccountName != "" {
					name += " " + acct.SubAccountName
				}
				path = filepath.Join(dir, export.FileName("tickets", name, time.Now()))
			}
			// Written aside and renamed at the end: a file under the final
			// name is always a complete export.
			tmp, err := os.CreateTemp(filepath.Dir(path), ".tesouro-export-*.csv")
			if err != nil {
				return fmt.Errorf("export: %w", err)
			}
			defer os.Remove(tmp.Name())
			n, err := f.writeTickets(ctx, s, tf, acct, tmp, false)
			if cerr := tmp.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				return err
			}
			if err := os.Rename(tmp.Name(), path); err != nil {
				return fmt.Errorf("export: %w", err)
			}
			fmt.Fprintf(f.Stderr, "%d tickets exported to %s\n", n, path)
			return nil
		})
	}
	return cmd
}

// exportAccount names the account the rows come from.
func exportAccount(ctx context.Context, s *session) (export.Account, error) {
	var a export.Account
	mains, err := s.client().ListAccounts(ctx)
	if err != nil {
		return a, err
	}
	for _, m := range mains {
		if isMain(m) {
			a.ID, a.Name = m.ID.String(), m.Name
			break
		}
	}
	if s.sub != uuid.Nil {
		a.SubAccountID, a.SubAccountName = s.sub.String(), s.subName
	}
	return a, nil
}

// writeTickets writes every matching ticket, page by page, showing
// progress on stderr when it is a terminal. To stdout (toStdout) the cells
// are made safe as every CSV printed there is; a file keeps them exact.
func (f *Factory) writeTickets(ctx context.Context, s *session, tf api.TicketFilter, acct export.Account, w io.Writer, toStdout bool) (int, error) {
	cw, err := export.NewWriter(w, export.TicketColumns)
	if err != nil {
		return 0, err
	}
	progress := f.newMeter(0)
	defer progress.finish(true)
	for tk, err := range api.All(ctx, ticketPages(s, tf)) {
		if err != nil {
			return cw.Rows(), err
		}
		row := export.TicketRow(acct, tk)
		if toStdout {
			row = safeCells(row)
		}
		if err := cw.Row(row); err != nil {
			return cw.Rows(), err
		}
		progress.update(cw.Rows(), "tickets exported")
	}
	return cw.Rows(), cw.Flush()
}
