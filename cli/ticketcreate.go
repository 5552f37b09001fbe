package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/spf13/cobra"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/money"
	"github.com/tesouro-treasury/tesouro/payment"
	"github.com/tesouro-treasury/tesouro/validate"
)

// createFlags are the flags of ticket create beyond the conversion: where
// the output goes, what the beneficiary reads, and the intent's name.
type createFlags struct {
	externalID, beneficiary, pixKey, address, memo, wallet, reference, rail string
	yes                                                                     bool
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
--external-id. Run again with the same --external-id and the same payment, it
creates nothing and prints the ticket that exists; the same --external-id for
another payment is refused, and nothing is created. When the answer to the
creation is lost, the ticket is looked up by its external id, never blindly
sent again. The creation is recorded in the local journal.

Where the output goes: --beneficiary ID (a registered beneficiary of the
output's kind: BRL, wallet, USD, EUR, ARS or COP), --pix-key KEY (BRL via
PIX), --to-address ADDRESS (a token on a chain); a token on a chain with none
of them goes to the account's own wallet, and INTERNAL stays in the balance.

Scripts (--yes or no terminal) are refused on production profiles unless the
profile allows them: tesouro profile add NAME ... --allow-scripted-writes.`,
		Example: `  tesouro ticket create --from BRL --to USDC --to-method POLYGON --amount 1000 --external-id erp-4711 --yes
  tesouro ticket create --from BRLA --from-method INTERNAL --to BRL --output-amount 200 --beneficiary BRL_ACCOUNT_ID --external-id erp-4712 --yes
  tesouro ticket create --from USDC --from-method INTERNAL --to EUR --output-amount 950 --beneficiary EUR_ACCOUNT_ID --reference "invoice 12" --external-id erp-4713 --yes`,
		Args: noArgs,
	}
	qf.add(cmd)
	fs := cmd.Flags()
	fs.StringVar(&f.externalID, "external-id", "", "your ID for this payment, made once per intent (required for scripts)")
	fs.StringVar(&f.beneficiary, "beneficiary", "", "registered beneficiary ID the output pays (BRL, wallet, USD, EUR, ARS or COP)")
	fs.StringVar(&f.pixKey, "pix-key", "", "pay this PIX KEY, not a registered beneficiary (BRL via PIX)")
	fs.StringVar(&f.address, "to-address", "", "pay this wallet ADDRESS on the output chain, not a registered wallet")
	fs.StringVar(&f.memo, "memo", "", "memo of --to-address, where its chain takes one")
	fs.StringVar(&f.wallet, "wallet-address", "", "sending wallet ADDRESS when the input is on a chain")
	fs.StringVar(&f.reference, "reference", "", "text for the beneficiary, in the rail's field (PIX message, ACH reference, wire message, SEPA reference)")
	fs.StringVar(&f.reference, "pix-message", "", "message sent with a PIX payout (same as --reference)")
	fs.StringVar(&f.rail, "payment-rail", "", "rail of a USD payout: ACH or WIRE (the same as --to-method)")
	_ = fs.MarkDeprecated("pix-message", "use --reference")
	fs.BoolVar(&f.yes, "yes", false, "create without asking (scripts)")
	out := addOutputFlags(cmd)
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
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
		if _, err := f.intent(qf, uuid.Nil); err != nil {
			return err
		}
		return e.runWrite(cmd, write{what: "ticket create", interactive: interactive}, func(ctx context.Context, s *session) error {
			in, _ := f.intent(qf, s.sub)
			return e.createTicket(ctx, s, in, interactive, out, nil)
		})
	}
	return cmd
}

// intent is the payment the flags describe on account sub, checked locally
// (usage errors name the flag).
func (f createFlags) intent(qf quoteFlags, sub uuid.UUID) (payment.Intent, error) {
	in, err := qf.intent(sub)
	if err != nil {
		return in, err
	}
	in.ExternalID, in.Reference = f.externalID, f.reference
	in.From.Wallet = f.wallet
	rail, _ := in.Rail()
	if r := strings.ToUpper(f.rail); r != "" && r != in.OutMethod {
		// The quote's output method is the rail; the flag may only repeat it.
		return in, Usagef("--payment-rail %s: the output goes via %s; give --to-method %s instead", r, in.OutMethod, r)
	}
	named := 0
	for _, v := range []string{f.beneficiary, f.pixKey, f.address} {
		if v != "" {
			named++
		}
	}
	switch {
	case named > 1:
		return in, Usagef("give one of --beneficiary, --pix-key and --to-address")
	case f.beneficiary != "":
		id, err := parseID("--beneficiary", f.beneficiary)
		if err != nil {
			return in, err
		}
		in.Pay = payment.Destination{Kind: payment.ToBeneficiary, ID: id}
	case f.pixKey != "":
		_, key, err := validate.PixKey(f.pixKey)
		if err != nil {
			return in, Usagef("--pix-key: %v", err)
		}
		in.Pay = payment.Destination{Kind: payment.ToPixKey, PixKey: key}
	case f.address != "":
		addr, _, err := validate.ChainAddress(in.OutMethod, f.address)
		if err != nil {
			return in, Usagef("--to-address: %v", err)
		}
		in.Pay = payment.Destination{Kind: payment.ToAddress, Address: addr, Memo: f.memo}
	case rail.Block == payment.BlockChainOutput:
		// No payee: the account's own service wallet on that chain.
		in.Pay = payment.Destination{Kind: payment.ToOwnWallet}
	}
	if err := in.Validate(); err != nil {
		return in, Usagef("%s", flagWords(err))
	}
	return in, nil
}

// flagWords says a validation error of the payment core in the command's
// terms: the flag that sets the field at fault.
func flagWords(err error) string {
	var fe *payment.FieldError
	if !errors.As(err, &fe) {
		return err.Error()
	}
	flag := map[string]string{
		"inputCurrency": "--from", "outputCurrency": "--to", "inputPaymentMethod": "--from-method", "outputPaymentMethod": "--to-method",
		"inputAmount": "--amount", "outputAmount": "--output-amount", "blockchainSendMethod": "--send-method",
		"beneficiary": "--beneficiary", "pixKey": "--pix-key", "walletAddress": "--to-address", "reference": "--reference",
		"externalId": "--external-id", "ticketBlockchainInput.walletAddress": "--wallet-address",
	}[fe.Field]
	if flag == "" {
		return fe.Msg
	}
	return flag + ": " + fe.Msg
}

// createTicket quotes the intent, shows the summary (and what describe
// adds under it, when not nil), asks at a terminal and creates the ticket
// once.
func (e *Factory) createTicket(ctx context.Context, s *session, in payment.Intent, interactive bool, out *Output, describe func(w io.Writer, q *api.Quote)) error {
	c := s.client()
	// A ticket with this external id may exist from an earlier run whose
	// outcome the caller never learnt: then nothing is created. Another
	// payment under the id is refused.
	held, err := payment.Held(ctx, c, in)
	if err != nil {
		return err
	}
	if held != nil {
		fmt.Fprintf(e.Stderr, "a ticket with external id %s already exists in %s for this payment: nothing created\n", in.ExternalID, s.accountLabel())
		return out.Write(e.Stdout, held, func() Table { return ticketDetail(held) })
	}
	info, err := c.AccessInfo(ctx)
	if err != nil {
		return fmt.Errorf("read the access: %w", err)
	}
	if err := payment.Check(info, in.Account, in.Needs(), time.Now()); err != nil {
		return fmt.Errorf("%w: nothing was sent", err)
	}
	jr, err := s.journal()
	if err != nil {
		return err
	}
	for {
		sent := time.Now()
		q, err := c.Quote(ctx, in.QuoteRequest())
		if err != nil {
			return err
		}
		deadline := sent.Add(quoteLife)
		if _, err := in.TicketRequest(q); err != nil {
			return err
		}
		e.printSummary(ctx, s, q, in, deadline)
		if describe != nil {
			describe(e.Stderr, q)
		}
		if interactive && !e.Prompter.Confirm(ctx, "Create this ticket?") {
			return errors.New("not confirmed: nothing created")
		}
		if time.Now().After(deadline.Add(-time.Second)) {
			// An expired quote is never submitted: price it again.
			fmt.Fprintln(e.Stderr, "the quote expired while waiting: quoting again")
			continue
		}
		res, err := payment.Send(ctx, c, jr, in, q)
		if res.JournalErr != nil {
			fmt.Fprintf(e.Stderr, "warning: journal: %v\n", res.JournalErr)
		}
		if err != nil {
			if errors.Is(err, api.ErrOutcomeUnknown) {
				return fmt.Errorf("%w\nRun the same command again (same --external-id): it finds the ticket if it was created, and creates nothing twice", err)
			}
			return err
		}
		switch {
		case res.Status == payment.Parked:
			fmt.Fprintf(e.Stderr, "the creation waits for approval: operation %s (%d of %d approvals)\n", res.Operation.ID, res.Operation.Approvals, res.Operation.MinApprovals)
			return out.Write(e.Stdout, res.Operation, func() Table {
				return Table{Columns: []string{"operation_id", "status", "approvals", "min_approvals"},
					Rows: [][]string{{res.Operation.ID.String(), string(res.Operation.Status), fmt.Sprint(res.Operation.Approvals), fmt.Sprint(res.Operation.MinApprovals)}}}
			})
		case res.Status == payment.Existing:
			fmt.Fprintf(e.Stderr, "ticket %s was created meanwhile under external id %s: nothing created\n", res.Ticket.ID, in.ExternalID)
		case res.Reconciled:
			fmt.Fprintf(e.Stderr, "the answer was lost; ticket %s was found by its external id (not sent twice)\n", res.Ticket.ID)
		default:
			fmt.Fprintf(e.Stderr, "ticket %s created\n", res.Ticket.ID)
		}
		return out.Write(e.Stdout, res.Ticket, func() Table { return ticketDetail(res.Ticket) })
	}
}

// printSummary says on stderr exactly what is about to be created, and
// warns when the month's limits would be exceeded (the service decides).
func (e *Factory) printSummary(ctx context.Context, s *session, q *api.Quote, in payment.Intent, deadline time.Time) {
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
	fmt.Fprintf(w, "Pays:         %s\n", payee(in))
	if in.Reference != "" {
		fmt.Fprintf(w, "Reference:    %s\n", in.Reference)
	}
	fmt.Fprintf(w, "External id:  %s\n", in.ExternalID)
	fmt.Fprintf(w, "Quote valid:  %ds\n", int(time.Until(deadline).Seconds()))
	if lim, err := s.client().Limits(ctx, in.Account); err == nil {
		var use payment.Usage
		use.Add(q)
		for _, over := range use.Over(&lim.LimitInfo) {
			fmt.Fprintf(w, "Warning:      over the month's limit: %s\n", over)
		}
	}
}

// payee says where the output goes, as the summary names it.
func payee(in payment.Intent) string {
	p := in.Pay
	switch p.Kind {
	case payment.ToBeneficiary:
		return "registered beneficiary " + p.ID.String()
	case payment.ToPixKey:
		return "PIX key " + p.PixKey
	case payment.ToAddress:
		return p.Address + " on " + in.OutMethod
	case payment.ToOwnWallet:
		return "the account's own wallet on " + in.OutMethod
	case payment.ToAccount:
		return "the " + in.OutCurrency + " balance of account " + p.ID.String()
	}
	return "the account's balance (" + in.OutCurrency + " " + in.OutMethod + ")"
}
