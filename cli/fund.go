package cli

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/journal"
)

// newCmdSandboxFund is "tesouro sandbox fund TICKET": the payer of a ticket,
// simulated by the sandbox's fund endpoint, on the sandbox the global flags
// name (--credentials FILE of a running sandbox, or a sandbox profile).
func newCmdSandboxFund(f *Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "fund TICKET_ID",
		Short: "Simulate the payer funding a ticket (sandbox only)",
		Example: `  tesouro --credentials ~/.local/state/tesouro/sandbox-credentials.json sandbox fund TICKET_ID
  tesouro --sandbox sandbox fund TICKET_ID --json`,
		Args: exactArgs("TICKET_ID"),
	}
	out := addOutputFlags(cmd)
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		id, err := parseID("ticket", args[0])
		if err != nil {
			return err
		}
		t, err := f.Resolve()
		if err != nil {
			return err
		}
		if t.Production {
			return Usagef("sandbox fund: profile %s is a production profile; funding is simulated only by a sandbox", t.Profile)
		}
		return f.runWrite(cmd, write{what: "sandbox fund"}, func(ctx context.Context, s *session) error {
			var tk *api.Ticket
			err := s.write("sandbox-fund-ticket", "POST /v2/sandbox/tickets/{id}/fund", func(je *journal.Entry) error {
				je.IDs = map[string]string{"ticketId": id.String()}
				var err error
				if tk, err = s.client().SandboxFundTicket(ctx, s.sub, id); err != nil {
					return err
				}
				if tk.ExternalID != "" {
					je.IDs["externalId"] = tk.ExternalID
				}
				je.Amounts, je.Outcome = quoteAmounts(tk.Quote), "funded"
				return nil
			})
			if err != nil {
				return err
			}
			return out.Write(f.Stdout, tk, func() Table { return ticketDetail(tk) })
		})
	}
	return cmd
}
