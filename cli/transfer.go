package cli

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
	"github.com/spf13/cobra"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/money"
	"github.com/tesouro-treasury/tesouro/payment"
	"github.com/tesouro-treasury/tesouro/termsafe"
)

// transferFlags describe a move of funds between the main account and one
// of its sub-accounts.
type transferFlags struct {
	to, currency, amount, externalID string
	yes                              bool
}

func newCmdTransfer(e *Factory) *cobra.Command {
	var f transferFlags
	cmd := &cobra.Command{
		Use:   "transfer",
		Short: "Move tokens between the main account and a sub-account",
		Long: `Moves a token balance from the account acted on (the main account, or the
--sub-account) to another account of the same workspace: from the main account
to one of its sub-accounts, or from a sub-account back to the main account.
--to names the account: "main", or a sub-account's name or id.

The move is a ticket like any other (a same-currency INTERNAL quote whose
output names the other account): the fees of the quote apply, and so do the
access's permissions (payOut), the month's limits and multi-signature
approval. The summary shows both accounts with their balances before and
after; the other account is credited once the ticket is paid.

Run again with the same --external-id, it creates nothing and prints the
ticket that exists, as ticket create does. The move is recorded in the local
journal.`,
		Example: `  tesouro transfer --to "Acme Payments" --currency USDT --amount 100 --external-id move-0001 --yes
  tesouro transfer --sub-account "Acme Payments" --to main --currency USDT --amount 40 --external-id move-0002 --yes`,
		Args: noArgs,
	}
	fs := cmd.Flags()
	fs.StringVar(&f.to, "to", "", `ACCOUNT the funds move to: "main", or a sub-account's name or id`)
	fs.StringVar(&f.currency, "currency", "", "TOKEN moved (BRLA, USDC, USDT, ...)")
	fs.StringVar(&f.amount, "amount", "", "AMOUNT taken from the account acted on (exact decimal, e.g. 100.00)")
	fs.StringVar(&f.externalID, "external-id", "", "your ID for this move, made once per intent (required for scripts)")
	fs.BoolVar(&f.yes, "yes", false, "move without asking (scripts)")
	out := addOutputFlags(cmd)
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		interactive := e.StdinTTY() && !f.yes
		if f.externalID == "" {
			if !interactive {
				return Usagef("--external-id is required for scripts: it is what makes a re-run safe (the same id never moves twice)")
			}
			f.externalID = uuid.NewString()
		}
		if !interactive && !f.yes {
			return Usagef("no terminal to confirm at: pass --yes to move without asking")
		}
		// Checked before connecting: a typo costs no round trip.
		probe := uuid.New()
		if _, err := f.intent(uuid.Nil, probe); err != nil {
			return err
		}
		return e.runWrite(cmd, write{what: "transfer", interactive: interactive}, func(ctx context.Context, s *session) error {
			to, name, err := f.destination(ctx, s)
			if err != nil {
				return err
			}
			in, err := f.intent(s.sub, to)
			if err != nil {
				return err
			}
			return e.createTicket(ctx, s, in, interactive, out, func(w io.Writer, q *api.Quote) {
				e.describeMove(ctx, w, s, q, s.accountLabel(), name, in.Pay.ID)
			})
		})
	}
	return cmd
}

// intent is the move the flags describe from account sub to account to,
// checked locally (usage errors name the flag).
func (f transferFlags) intent(sub, to uuid.UUID) (payment.Intent, error) {
	cur := money.Canonical(f.currency)
	switch {
	case strings.TrimSpace(f.to) == "":
		return payment.Intent{}, Usagef(`give --to ACCOUNT: "main", or a sub-account's name or id`)
	case cur == "":
		return payment.Intent{}, Usagef("give --currency TOKEN (%s)", strings.Join(money.BalanceTokens(), ", "))
	case !money.IsToken(cur) || !money.SupportsMethod(cur, "INTERNAL"):
		return payment.Intent{}, Usagef("--currency %s: only a token held in a balance moves between accounts (%s)", f.currency, strings.Join(money.BalanceTokens(), ", "))
	case f.amount == "":
		return payment.Intent{}, Usagef("give --amount AMOUNT")
	}
	amt, err := money.ParseAmount(f.amount, cur)
	if err != nil {
		return payment.Intent{}, Usagef("--amount: %v", err)
	}
	in := payment.Intent{
		Account: sub, InCurrency: cur, InMethod: "INTERNAL", OutCurrency: cur, OutMethod: "INTERNAL",
		Amount: amt, Fixed: payment.FixInput, Pay: payment.Destination{Kind: payment.ToAccount, ID: to},
		ExternalID: f.externalID,
	}
	if err := in.Validate(); err != nil {
		return in, Usagef("%s", transferWords(err))
	}
	return in, nil
}

// transferWords names the flag a validation error of the payment core is
// about, in this command's terms.
func transferWords(err error) string {
	msg := flagWords(err)
	msg = strings.Replace(msg, "--beneficiary: ", "--to: ", 1)
	return strings.Replace(msg, "--from: ", "--currency: ", 1)
}

// destination finds the account --to names: the main account ("main"),
// or a sub-account by name or id. It must be another account than the one
// acted on.
func (f transferFlags) destination(ctx context.Context, s *session) (uuid.UUID, string, error) {
	c := s.client()
	if strings.EqualFold(strings.TrimSpace(f.to), "main") {
		d, err := c.AccountDetails(ctx, uuid.Nil)
		if err != nil {
			return uuid.Nil, "", fmt.Errorf("find the main account: %w", err)
		}
		if s.sub == uuid.Nil {
			return uuid.Nil, "", Usagef(`--to main: the move starts in the main account; give --sub-account to move from a sub-account, or --to a sub-account`)
		}
		return d.ID, "main account", nil
	}
	id, name, err := SubAccount(ctx, c, f.to)
	if err != nil {
		return uuid.Nil, "", Usagef(`--to %q: no sub-account has that id or name; give "main" or one of tesouro accounts`, f.to)
	}
	if id == s.sub {
		return uuid.Nil, "", Usagef("--to %q: that is the account the funds come from; give --to another account", f.to)
	}
	return id, fmt.Sprintf("%s (%s)", termsafe.Line(name), id), nil
}

// describeMove says on w, under the summary, which two accounts the move
// joins and their balances of the token before and after it.
func (e *Factory) describeMove(ctx context.Context, w io.Writer, s *session, q *api.Quote, from, toName string, to uuid.UUID) {
	// The balances of the main account are asked for without a
	// sub-account: the account a move from a sub-account goes to.
	toBalances := to
	if s.sub != uuid.Nil {
		toBalances = uuid.Nil
	}
	c := s.client()
	cur := q.InputCurrency
	line := func(label, name string, acct uuid.UUID, change func(b decimal.Decimal) string) {
		b, err := c.Balances(ctx, acct)
		if err != nil {
			fmt.Fprintf(w, "%-14s%s (balance not read: %v)\n", label, name, err)
			return
		}
		fmt.Fprintf(w, "%-14s%s: %s\n", label, name, change(b[cur]))
	}
	line("From:", from, s.sub, func(b decimal.Decimal) string {
		return fmt.Sprintf("%s %s → %s", cur, money.Format(b, cur), money.Format(b.Sub(q.InputAmount), cur))
	})
	line("To:", toName, toBalances, func(b decimal.Decimal) string {
		return fmt.Sprintf("%s %s → %s once paid", cur, money.Format(b, cur), money.Format(b.Add(q.OutputAmount), cur))
	})
}
