package cli

import (
	"context"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/spf13/cobra"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/money"
	"github.com/tesouro-treasury/tesouro/payment"
)

// quoteLife is how long a quote token is accepted (service.md §6: issue +
// 15 s). It is counted from when the request was sent, so the client errs
// on the early side.
const quoteLife = 15 * time.Second

// quoteFlags describe a conversion: quote and ticket create share them.
type quoteFlags struct {
	from, fromMethod, to, toMethod, amount, outputAmount, sendMethod string
}

func (f *quoteFlags) add(cmd *cobra.Command) {
	fs := cmd.Flags()
	fs.StringVar(&f.from, "from", "", "input CURRENCY (BRL, USDC, ...)")
	fs.StringVar(&f.fromMethod, "from-method", "", "input payment METHOD (PIX, INTERNAL, POLYGON, ...; default: the currency's first)")
	fs.StringVar(&f.to, "to", "", "output CURRENCY")
	fs.StringVar(&f.toMethod, "to-method", "", "output payment METHOD (default: the currency's first)")
	fs.StringVar(&f.amount, "amount", "", "input AMOUNT to convert (exact decimal, e.g. 1000.00)")
	fs.StringVar(&f.outputAmount, "output-amount", "", "output AMOUNT wanted instead of --amount")
	fs.StringVar(&f.sendMethod, "send-method", "", "send method of a token input: PERMIT or TRANSFER (default: TRANSFER on a chain, PERMIT from the balance)")
}

// intent validates the flags locally (usage errors) and makes the payment
// they describe on account sub: the conversion alone, its destination and
// external id for ticket create to add.
func (f *quoteFlags) intent(sub uuid.UUID) (payment.Intent, error) {
	// Typed in any case, sent as the service spells it: not always in
	// capitals (USDCe), and the service refuses any other spelling.
	in := payment.Intent{Account: sub, InCurrency: money.Canonical(f.from), OutCurrency: money.Canonical(f.to)}
	if in.InCurrency == "" || in.OutCurrency == "" {
		return in, Usagef("give --from CURRENCY and --to CURRENCY")
	}
	method := func(flag, cur, m string) (string, error) {
		m = strings.ToUpper(m)
		if m == "" {
			ms := money.Methods(cur)
			if len(ms) == 0 {
				return "", Usagef("%s: unknown currency %s (currencies: %s)", flag, cur, strings.Join(money.Currencies(), ", "))
			}
			return ms[0], nil
		}
		if !money.SupportsMethod(cur, m) {
			return "", Usagef("%s-method %s: %s supports %s", flag, m, cur, strings.Join(money.Methods(cur), ", "))
		}
		return m, nil
	}
	var err error
	if in.InMethod, err = method("--from", in.InCurrency, f.fromMethod); err != nil {
		return in, err
	}
	if in.OutMethod, err = method("--to", in.OutCurrency, f.toMethod); err != nil {
		return in, err
	}
	switch {
	case (f.amount == "") == (f.outputAmount == ""):
		return in, Usagef("give exactly one of --amount (input) and --output-amount")
	case f.amount != "":
		if in.Amount, err = money.ParseAmount(f.amount, in.InCurrency); err != nil {
			return in, Usagef("--amount: %v", err)
		}
		in.Fixed = payment.FixInput
	default:
		if in.Amount, err = money.ParseAmount(f.outputAmount, in.OutCurrency); err != nil {
			return in, Usagef("--output-amount: %v", err)
		}
		in.Fixed = payment.FixOutput
	}
	switch in.SendMethod = strings.ToUpper(f.sendMethod); {
	case in.SendMethod != "" && in.SendMethod != api.SendPermit && in.SendMethod != api.SendTransfer:
		return in, Usagef("--send-method %s: PERMIT or TRANSFER", f.sendMethod)
	case in.SendMethod == "" && money.IsChain(in.InMethod):
		// A command line carries no permit: the caller transfers the
		// tokens itself.
		in.SendMethod = api.SendTransfer
	}
	return in, nil
}

// quoteView is a quote as the commands print it in JSON: the service's
// fields, plus when its token stops being accepted.
type quoteView struct {
	*api.Quote
	ExpiresAt time.Time `json:"expiresAt"`
}

func newCmdQuote(f *Factory) *cobra.Command {
	var qf quoteFlags
	var watch time.Duration
	cmd := &cobra.Command{
		Use:   "quote",
		Short: "Price a conversion (--watch re-quotes until interrupted)",
		Example: `  tesouro quote --from BRL --to USDC --amount 1000
  tesouro quote --from USDC --to BRL --output-amount 5000 --json
  tesouro quote --from BRL --to USDT --amount 1000 --watch 5s`,
		Args: noArgs,
	}
	qf.add(cmd)
	cmd.Flags().DurationVar(&watch, "watch", 0, "quote again every INTERVAL (such as 5s) until interrupted")
	out := addOutputFlags(cmd)
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		if _, err := qf.intent(uuid.Nil); err != nil {
			return err
		}
		if watch < 0 || (watch > 0 && watch < time.Second) {
			return Usagef("--watch %s: give an interval of at least 1s", watch)
		}
		if watch > 0 {
			// Watched until Ctrl-C: no overall deadline unless asked for.
			cmd.Annotations = map[string]string{longRunning: ""}
		}
		return f.run(cmd, func(ctx context.Context, s *session) error {
			in, _ := qf.intent(s.sub)
			req := in.QuoteRequest()
			for {
				sent := time.Now()
				q, err := s.client().Quote(ctx, req)
				if err != nil {
					return err
				}
				v := quoteView{Quote: q, ExpiresAt: sent.Add(quoteLife).UTC().Truncate(time.Second)}
				if err := out.Write(f.Stdout, v, func() Table { return quoteTable(q, s) }); err != nil {
					return err
				}
				if watch == 0 {
					return nil
				}
				select {
				case <-ctx.Done():
					return nil
				case <-time.After(watch):
				}
			}
		})
	}
	return cmd
}

func quoteTable(q *api.Quote, s *session) Table {
	t := Table{Columns: []string{"field", "value"}}
	add := func(k, v string) { t.Rows = append(t.Rows, []string{k, v}) }
	add("account", s.accountLabel())
	addConversion(add, conversion{q.InputAmount, q.InputCurrency, q.InputPaymentMethod, q.OutputAmount, q.OutputCurrency, q.OutputPaymentMethod, q.BasePrice, q.PairName, q.AppliedFees})
	add("pair", q.PairName)
	if !q.MarkupAmount.IsZero() {
		add("markup_amount", money.Wire(q.MarkupAmount.Decimal, q.MarkupCurrency))
		add("markup_currency", q.MarkupCurrency)
	}
	add("valid_for", quoteLife.String())
	return t
}
