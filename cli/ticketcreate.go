package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/spf13/cobra"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/money"
)

// createFlags are the flags of ticket create beyond the conversion.
type createFlags struct {
	externalID, beneficiary, wallet, pixMessage, rail, reference string
	yes                                                          bool
}

func newCmdTicket(e *Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "ticket",
		Short: "Create a ticket from flags (see also: tickets)",
		Args:  cobra.ArbitraryArgs,
		RunE:  GroupRunE("create"),
	}
	cmd.AddCommand(newCmdTicketCreate(e))
	return cmd
}

func newCmdTicketCreate(e *Factory) *cobra.Command {
	var qf quoteFlags
	var f createFlags
	cmd := &cobra.Command{
		Use:   "create",
		Short: "Quote and create a ticket, never twice for one --external-id",
		Long: `Quotes the conversion, shows what will be created, asks for confirmation at a
terminal (--yes for scripts) and creates the ticket with the caller's
--external-id. Run again with the same --external-id, it creates nothing and
prints the ticket that exists. When the answer to the creation is lost, the
ticket is looked up by its external id, never blindly sent again.

Scripts (--yes or no terminal) are refused on production profiles unless the
profile allows them: tesouro profile add NAME ... --allow-scripted-writes.`,
		Example: `  tesouro ticket create --from BRL --to USDC --amount 1000 --external-id erp-4711 --yes
  tesouro ticket create --from USDC --to BRL --amount 200 --beneficiary BRL_ACCOUNT_ID --external-id erp-4712`,
		Args: noArgs,
	}
	qf.add(cmd)
	fs := cmd.Flags()
	fs.StringVar(&f.externalID, "external-id", "", "your ID for this ticket, made once per intent (required for scripts)")
	fs.StringVar(&f.beneficiary, "beneficiary", "", "beneficiary ID of the payout (PIX, chain wallet, USD or COP bank account)")
	fs.StringVar(&f.wallet, "wallet-address", "", "sending wallet ADDRESS when the input is on a chain")
	fs.StringVar(&f.pixMessage, "pix-message", "", "message sent with a PIX payout")
	fs.StringVar(&f.rail, "payment-rail", "", "rail of a USD payout: ACH or WIRE (default: the output method)")
	fs.StringVar(&f.reference, "reference", "", "reference of a USD payout")
	fs.BoolVar(&f.yes, "yes", false, "create without asking (scripts)")
	out := addOutputFlags(cmd)
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		if _, err := qf.request(api.QuoteRequest{}); err != nil {
			return err
		}
		interactive := e.StdinTTY() && !f.yes
		if f.externalID == "" {
			if !interactive {
				return Usagef("--external-id is required for scripts: it is what makes a re-run safe (the same id never creates a second ticket)")
			}
			f.externalID = uuid.NewString()
		}
		if !interactive && !f.yes {
			return Usagef("no terminal to confirm at: pass --yes to create without asking")
		}
		var bene uuid.UUID
		if f.beneficiary != "" {
			id, err := parseID("--beneficiary", f.beneficiary)
			if err != nil {
				return err
			}
			bene = id
		}
		t, err := e.Resolve()
		if err != nil {
			return err
		}
		if err := scriptedWrite(t, "ticket create", interactive); err != nil {
			return err
		}
		return e.run(cmd, func(ctx context.Context, s *session) error {
			return e.createTicket(ctx, s, qf, f, bene, interactive, out)
		})
	}
	return cmd
}

func (e *Factory) createTicket(ctx context.Context, s *session, qf quoteFlags, f createFlags, bene uuid.UUID, interactive bool, out *Output) error {
	c := s.client()
	// A ticket with this external id may exist from an earlier run whose
	// outcome the caller never learnt: then nothing is created.
	if tk, found, err := c.FindTicketByExternalID(ctx, s.sub, f.externalID); err != nil {
		return fmt.Errorf("check for an existing ticket with external id %s: %w", f.externalID, err)
	} else if found {
		fmt.Fprintf(e.Stderr, "a ticket with external id %s already exists in %s: nothing created\n", f.externalID, s.accountLabel())
		return out.Write(e.Stdout, tk, func() Table { return ticketDetail(tk) })
	}
	req, _ := qf.request(api.QuoteRequest{SubAccountID: s.sub})
	for {
		sent := time.Now()
		q, err := c.Quote(ctx, req)
		if err != nil {
			return err
		}
		deadline := sent.Add(quoteLife)
		body, err := ticketBody(q, f, bene)
		if err != nil {
			return err
		}
		e.printSummary(s, q, f, deadline)
		if interactive && !e.Prompter.Confirm(ctx, "Create this ticket?") {
			return errors.New("not confirmed: nothing created")
		}
		if time.Now().After(deadline.Add(-time.Second)) {
			// An expired quote is never submitted: price it again.
			fmt.Fprintln(e.Stderr, "the quote expired while waiting: quoting again")
			continue
		}
		res, err := c.CreateTicket(ctx, s.sub, body)
		if err != nil {
			if errors.Is(err, api.ErrOutcomeUnknown) {
				return fmt.Errorf("%w\nRun the same command again (same --external-id): it finds the ticket if it was created, and creates nothing twice", err)
			}
			return err
		}
		switch {
		case res.Parked:
			fmt.Fprintf(e.Stderr, "the creation waits for approval: operation %s (%d of %d approvals)\n", res.Operation.ID, res.Operation.Approvals, res.Operation.MinApprovals)
			return out.Write(e.Stdout, res.Operation, func() Table {
				return Table{Columns: []string{"operation_id", "status", "approvals", "min_approvals"},
					Rows: [][]string{{res.Operation.ID.String(), string(res.Operation.Status), fmt.Sprint(res.Operation.Approvals), fmt.Sprint(res.Operation.MinApprovals)}}}
			})
		case res.Reconciled:
			fmt.Fprintf(e.Stderr, "the answer was lost; ticket %s was found by its external id (not sent twice)\n", res.Ticket.ID)
		default:
			fmt.Fprintf(e.Stderr, "ticket %s created\n", res.Ticket.ID)
		}
		return out.Write(e.Stdout, res.Ticket, func() Table { return ticketDetail(res.Ticket) })
	}
}

// printSummary says on stderr exactly what is about to be created.
func (e *Factory) printSummary(s *session, q *api.Quote, f createFlags, deadline time.Time) {
	env := "SANDBOX"
	if s.target.Production {
		env = "PRODUCTION (real money)"
	}
	w := e.Stderr
	fmt.Fprintf(w, "Environment:  %s\n", env)
	fmt.Fprintf(w, "Account:      %s\n", s.accountLabel())
	fmt.Fprintf(w, "You pay:      %s %s via %s\n", money.Wire(q.InputAmount, q.InputCurrency), q.InputCurrency, q.InputPaymentMethod)
	fmt.Fprintf(w, "You receive:  %s %s via %s\n", money.Wire(q.OutputAmount, q.OutputCurrency), q.OutputCurrency, q.OutputPaymentMethod)
	for _, fee := range q.AppliedFees {
		fmt.Fprintf(w, "Fee:          %s %s %s\n", fee.Type, money.Wire(fee.Amount, fee.Currency), fee.Currency)
	}
	if f.beneficiary != "" {
		fmt.Fprintf(w, "Beneficiary:  %s\n", f.beneficiary)
	}
	fmt.Fprintf(w, "External id:  %s\n", f.externalID)
	fmt.Fprintf(w, "Quote valid:  %ds\n", int(time.Until(deadline).Seconds()))
}

// ticketBody builds the creation request with the blocks the quote's input
// and output need.
func ticketBody(q *api.Quote, f createFlags, bene uuid.UUID) (api.CreateTicketRequest, error) {
	req := api.CreateTicketRequest{QuoteToken: q.QuoteToken, ExternalID: f.externalID}
	if money.IsChain(q.InputPaymentMethod) {
		if f.wallet == "" {
			return req, Usagef("the input is %s on %s: give --wallet-address, the sending wallet", q.InputCurrency, q.InputPaymentMethod)
		}
		req.TicketBlockchainInput = &api.TicketBlockchainInput{WalletAddress: f.wallet}
	}
	m := strings.ToUpper(q.OutputPaymentMethod)
	needBene := func() error {
		if bene == uuid.Nil {
			return Usagef("the output is %s via %s: give --beneficiary ID (see tesouro beneficiaries list)", q.OutputCurrency, m)
		}
		return nil
	}
	switch {
	case m == "PIX":
		if err := needBene(); err != nil {
			return req, err
		}
		req.TicketBrlPixOutput = api.PixToBeneficiary(bene, f.pixMessage)
	case money.IsChain(m):
		// No beneficiary: the account's own service wallet.
		req.TicketBlockchainOutput = api.ToWallet(bene)
	case m == "ACH" || m == "WIRE":
		if err := needBene(); err != nil {
			return req, err
		}
		// The quote's output method is the rail; the flag may only repeat it.
		if rail := strings.ToUpper(f.rail); rail != "" && rail != m {
			return req, Usagef("--payment-rail %s: the quote pays out via %s; quote with --output-method %s instead", rail, m, rail)
		}
		req.SetUSDOutput(m, bene, f.reference)
	case m == "BANK-TRANSFER":
		if err := needBene(); err != nil {
			return req, err
		}
		req.TicketCopOutput = &api.TicketCopOutput{BeneficiaryCopBankAccountID: bene}
	}
	return req, nil
}
