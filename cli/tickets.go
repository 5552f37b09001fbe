package cli

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/shopspring/decimal"
	"github.com/spf13/cobra"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/money"
	"github.com/tesouro-treasury/tesouro/payment"
)

func newCmdTickets(f *Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "tickets",
		Short: "List, show, export and cancel tickets and fetch their receipts",
		Args:  cobra.ArbitraryArgs,
		RunE:  GroupRunE("list, get, receipt, cancel or export"),
	}
	cmd.AddCommand(newCmdTicketsList(f), newCmdTicketsGet(f), newCmdTicketsReceipt(f), newCmdTicketsCancel(f), newCmdTicketsExport(f))
	return cmd
}

// ticketFilterFlags are the filters of tickets list and tickets export.
type ticketFilterFlags struct {
	status, inCur, inMethod, outCur, outMethod, externalID, endToEnd, since, until string
}

func (f *ticketFilterFlags) add(cmd *cobra.Command) {
	fs := cmd.Flags()
	fs.StringVar(&f.status, "status", "", "only tickets in this STATUS (e.g. PAID, UNPAID, FAILED)")
	fs.StringVar(&f.inCur, "input-currency", "", "only tickets paying in this CURRENCY")
	fs.StringVar(&f.inMethod, "input-method", "", "only tickets paid by this payment METHOD")
	fs.StringVar(&f.outCur, "output-currency", "", "only tickets paying out this CURRENCY")
	fs.StringVar(&f.outMethod, "output-method", "", "only tickets paying out by this payment METHOD")
	fs.StringVar(&f.externalID, "external-id", "", "only the ticket with this external ID")
	fs.StringVar(&f.endToEnd, "end-to-end-id", "", "only the ticket with this PIX end-to-end ID")
	fs.StringVar(&f.since, "since", "", "only tickets created at or after TIME (2026-01-14 or RFC 3339)")
	fs.StringVar(&f.until, "until", "", "only tickets created before TIME (2026-01-15 or RFC 3339)")
}

func (f *ticketFilterFlags) filter(s *session) (api.TicketFilter, error) {
	tf := api.TicketFilter{SubAccountID: s.sub, Status: strings.ToUpper(f.status),
		InputCurrency: money.Canonical(f.inCur), InputPaymentMethod: strings.ToUpper(f.inMethod),
		OutputCurrency: money.Canonical(f.outCur), OutputPaymentMethod: strings.ToUpper(f.outMethod),
		ExternalID: f.externalID, EndToEndID: f.endToEnd}
	var err error
	if tf.CreatedAfter, err = parseTime("--since", f.since); err != nil {
		return tf, err
	}
	if tf.CreatedBefore, err = parseTime("--until", f.until); err != nil {
		return tf, err
	}
	return tf, nil
}

func parseTime(flag, v string) (time.Time, error) {
	if v == "" {
		return time.Time{}, nil
	}
	if t, err := time.Parse(time.RFC3339, v); err == nil {
		return t, nil
	}
	if t, err := time.ParseInLocation("2006-01-02", v, time.Local); err == nil {
		return t, nil
	}
	return time.Time{}, Usagef("%s %q: give a date (2026-01-14) or an RFC 3339 time (2026-01-14T09:30:00Z)", flag, v)
}

// ticketPages fetches the tickets the filter matches, page after page.
func ticketPages(s *session, tf api.TicketFilter) func(ctx context.Context, cursor string) (api.Page[api.Ticket], error) {
	return func(ctx context.Context, cursor string) (api.Page[api.Ticket], error) {
		page := tf
		page.Cursor = cursor
		return s.client().ListTickets(ctx, page)
	}
}

func newCmdTicketsList(f *Factory) *cobra.Command {
	var filters ticketFilterFlags
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List tickets (every page; --limit to stop early)",
		Example: `  tesouro tickets list --status PAID --since 2026-01-01
  tesouro tickets list --json --jq '.[] | select(.status == "PAID") | .id'`,
		Args: noArgs,
	}
	filters.add(cmd)
	out := addOutputFlags(cmd)
	limit := limitFlag(cmd)
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		return f.run(cmd, func(ctx context.Context, s *session) error {
			tf, err := filters.filter(s)
			if err != nil {
				return err
			}
			list, err := collect(ctx, *limit, ticketPages(s, tf))
			if err != nil {
				return err
			}
			return out.Write(f.Stdout, list, func() Table { return ticketsTable(list) })
		})
	}
	return cmd
}

func ticketsTable(list []api.Ticket) Table {
	t := Table{Columns: []string{"id", "external_id", "status", "created_at", "input_amount", "input_currency", "input_method",
		"output_amount", "output_currency", "output_method"}}
	for _, tk := range list {
		q := tk.Quote
		t.Rows = append(t.Rows, []string{tk.ID.String(), tk.ExternalID, string(tk.Status), tk.CreatedAt.UTC().Format(time.RFC3339),
			money.Wire(q.InputAmount, q.InputCurrency), q.InputCurrency, q.InputPaymentMethod,
			money.Wire(q.OutputAmount, q.OutputCurrency), q.OutputCurrency, q.OutputPaymentMethod})
	}
	return t
}

func newCmdTicketsGet(f *Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "get TICKET_ID",
		Short: "Show one ticket",
		Example: `  tesouro tickets get TICKET_ID
  tesouro tickets get TICKET_ID --jq .status`,
		Args: exactArgs("TICKET_ID"),
	}
	out := addOutputFlags(cmd)
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		id, err := parseID("ticket", args[0])
		if err != nil {
			return err
		}
		return f.run(cmd, func(ctx context.Context, s *session) error {
			tk, err := s.client().GetTicket(ctx, s.sub, id)
			if err != nil {
				return err
			}
			return out.Write(f.Stdout, tk, func() Table { return ticketDetail(tk) })
		})
	}
	return cmd
}

// conversion is what a quote and a ticket both say of a conversion.
type conversion struct {
	inAmount          decimal.Decimal
	inCur, inMethod   string
	outAmount         decimal.Decimal
	outCur, outMethod string
	basePrice         decimal.Decimal
	pair              string
	fees              []api.Fee
}

// addConversion adds a conversion as field/value rows, one value each: the
// amount, currency and method of each side, the base price, and one amount
// row and one currency row per fee, named after its type
// (fee_conversion_amount, fee_conversion_currency, ...).
func addConversion(add func(k, v string), c conversion) {
	add("input_amount", money.Wire(c.inAmount, c.inCur))
	add("input_currency", c.inCur)
	add("input_method", c.inMethod)
	add("output_amount", money.Wire(c.outAmount, c.outCur))
	add("output_currency", c.outCur)
	add("output_method", c.outMethod)
	add("base_price", c.basePrice.String())
	// The price in words, both ways, by the market pair (§8.1).
	if p := payment.PriceOf(c.pair, c.basePrice, c.inCur, c.outCur); p.Known() {
		add("price", p.String())
		if p.Base != p.Quote {
			add("price_inverse", p.Inverse().String())
		}
	}
	for _, f := range c.fees {
		// "Conversion Fee" is fee_conversion_amount, fee_conversion_currency.
		k := "fee_" + strings.TrimSuffix(strings.Join(strings.Fields(strings.ToLower(f.Type)), "_"), "_fee")
		add(k+"_amount", money.Wire(f.Amount, f.Currency))
		add(k+"_currency", f.Currency)
	}
}

// ticketDetail is one ticket as field/value rows.
func ticketDetail(tk *api.Ticket) Table {
	q := tk.Quote
	t := Table{Columns: []string{"field", "value"}}
	add := func(k, v string) { t.Rows = append(t.Rows, []string{k, v}) }
	add("id", tk.ID.String())
	add("external_id", tk.ExternalID)
	add("status", string(tk.Status))
	add("created_at", tk.CreatedAt.UTC().Format(time.RFC3339))
	if !tk.ExpiresAt.IsZero() {
		add("expires_at", tk.ExpiresAt.UTC().Format(time.RFC3339))
	}
	addConversion(add, conversion{q.InputAmount, q.InputCurrency, q.InputPaymentMethod, q.OutputAmount, q.OutputCurrency, q.OutputPaymentMethod, q.BasePrice, q.PairName, q.AppliedFees})
	if r := tk.FailureReason; r != "" {
		add("failure_reason", r)
	}
	if tk.BrlPixInputInfo != nil && tk.BrlPixInputInfo.BrCode != "" {
		add("pix_br_code", tk.BrlPixInputInfo.BrCode)
	}
	return t
}

func newCmdTicketsReceipt(f *Factory) *cobra.Command {
	var output string
	cmd := &cobra.Command{
		Use:     "receipt TICKET_ID",
		Short:   "Save a ticket's PDF receipt",
		Example: `  tesouro tickets receipt TICKET_ID -o receipt.pdf`,
		Args:    exactArgs("TICKET_ID"),
		RunE: func(cmd *cobra.Command, args []string) error {
			id, err := parseID("ticket", args[0])
			if err != nil {
				return err
			}
			if output == "-" && f.StdoutTTY() {
				return Usagef("refusing to write a PDF to the terminal: give -o FILE")
			}
			return f.run(cmd, func(ctx context.Context, s *session) error {
				pdf, err := s.client().TicketReceipt(ctx, s.sub, id)
				if err != nil {
					return err
				}
				if output == "-" {
					_, err = f.Stdout.Write(pdf)
					return err
				}
				path := output
				if path == "" {
					path = "receipt-" + id.String() + ".pdf"
				}
				if err := os.WriteFile(path, pdf, 0o600); err != nil {
					return err
				}
				fmt.Fprintf(f.Stderr, "receipt written to %s (%d bytes)\n", path, len(pdf))
				return nil
			})
		},
	}
	cmd.Flags().StringVarP(&output, "output", "o", "", "write to FILE (- for stdout; default receipt-ID.pdf)")
	return cmd
}
