package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/journal"
	"github.com/tesouro-treasury/tesouro/money"
	"github.com/tesouro-treasury/tesouro/termsafe"
)

func newCmdTicketsCancel(f *Factory) *cobra.Command {
	var yes bool
	cmd := &cobra.Command{
		Use:   "cancel TICKET_ID",
		Short: "Cancel an UNPAID ticket",
		Long: `Shows the ticket, asks for confirmation at a terminal (--yes for scripts) and
cancels it. Only an UNPAID ticket can be canceled: the service refuses any
other state, and so does this command, before asking.

Scripts (--yes or no terminal) are refused on production profiles unless the
profile allows them: tesouro profile add NAME ... --allow-scripted-writes.`,
		Example: `  # at a terminal, it asks first
  tesouro tickets cancel TICKET_ID --yes --jq .status`,
		Args: exactArgs("TICKET_ID"),
	}
	cmd.Flags().BoolVar(&yes, "yes", false, "cancel without asking (scripts)")
	out := addOutputFlags(cmd)
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		id, err := parseID("ticket", args[0])
		if err != nil {
			return err
		}
		interactive := f.StdinTTY() && !yes
		if !interactive && !yes {
			return Usagef("no terminal to confirm at: pass --yes to cancel without asking")
		}
		return f.runWrite(cmd, write{what: "tickets cancel", interactive: interactive}, func(ctx context.Context, s *session) error {
			c := s.client()
			tk, err := c.GetTicket(ctx, s.sub, id)
			if err != nil {
				return err
			}
			if tk.Status != api.TicketUnpaid {
				return fmt.Errorf("ticket %s is %s: only an UNPAID ticket can be canceled", tk.ID, tk.Status)
			}
			f.printCancelSummary(s, tk)
			if interactive && !f.Prompter.Confirm(ctx, "Cancel this ticket?") {
				return errors.New("not confirmed: nothing canceled")
			}
			var done *api.Ticket
			err = s.write("cancel-ticket", "PATCH /v2/account/tickets/"+id.String()+"/cancel", func(je *journal.Entry) error {
				je.IDs, je.Amounts = map[string]string{"ticketId": id.String()}, quoteAmounts(tk.Quote)
				if tk.ExternalID != "" {
					je.IDs["externalId"] = tk.ExternalID
				}
				if done, err = c.CancelTicket(ctx, s.sub, id); err != nil {
					return fmt.Errorf("cancel ticket %s: %w", id, err)
				}
				je.Outcome = "canceled"
				return nil
			})
			if err != nil {
				return err
			}
			fmt.Fprintf(f.Stderr, "ticket %s canceled\n", done.ID)
			return out.Write(f.Stdout, done, func() Table { return ticketDetail(done) })
		})
	}
	return cmd
}

// printCancelSummary says on stderr which ticket is about to be canceled.
func (f *Factory) printCancelSummary(s *session, tk *api.Ticket) {
	env := "SANDBOX"
	if s.target.Production {
		env = "PRODUCTION (real money)"
	}
	q, w := tk.Quote, f.Stderr
	fmt.Fprintf(w, "Environment:  %s\n", env)
	fmt.Fprintf(w, "Account:      %s\n", s.accountLabel())
	fmt.Fprintf(w, "Ticket:       %s (%s)\n", tk.ID, tk.Status)
	if tk.ExternalID != "" {
		fmt.Fprintf(w, "External id:  %s\n", termsafe.Line(tk.ExternalID))
	}
	fmt.Fprintf(w, "You pay:      %s %s via %s\n", money.Wire(q.InputAmount, q.InputCurrency), q.InputCurrency, q.InputPaymentMethod)
	fmt.Fprintf(w, "You receive:  %s %s via %s\n", money.Wire(q.OutputAmount, q.OutputCurrency), q.OutputCurrency, q.OutputPaymentMethod)
}
