package cli

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/tesouro-treasury/tesouro/batch"
	"github.com/tesouro-treasury/tesouro/keystore"
	"github.com/tesouro-treasury/tesouro/money"
	"github.com/tesouro-treasury/tesouro/termsafe"
)

func newCmdBatch(e *Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "batch",
		Short: "Pay many beneficiaries from a CSV file, once",
		Args:  cobra.ArbitraryArgs,
		RunE:  GroupRunE("template, run"),
	}
	cmd.AddCommand(&cobra.Command{
		Use:   "template",
		Short: "Print an example batch file with every column",
		Example: `  tesouro batch template > payouts.csv
  tesouro batch run payouts.csv --dry-run`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return writeTemplate(e.Stdout) },
	}, newCmdBatchRun(e))
	return cmd
}

// templateRows are the example rows of batch template, one per kind of
// payee, under batch.Columns. They name payees the demo data has (a PIX
// beneficiary by alias, a PIX key, USD, EUR, ARS and COP beneficiaries
// registered there, a wallet beneficiary, an inline address), so that the
// template runs as it is against --sandbox; with an account of one's own,
// the aliases are replaced by one's own.
var templateRows = [][]string{
	{"Maria Silva", "", "150.00", "BRL", "", "", "invoice 2041", ""},
	{"fornecedor@example.com", "", "89.90", "BRL", "", "BRLA", "invoice 2042", "erp-2042"},
	{"Globex Corp", "", "1200.00", "USD", "ACH", "USDC", "invoice 2043", ""},
	{"Globex Corp", "", "2500.00", "USD", "WIRE", "USDC", "invoice 2044", ""},
	{"Sophie Martin", "", "980.00", "EUR", "", "EURC", "Rechnung 2045", ""},
	{"Bodega Luján SA", "", "150000.00", "ARS", "", "", "", ""},
	{"Flores de Bogotá", "", "2500000.00", "COP", "", "", "", ""},
	{"Treasury cold wallet", "", "25.5", "USDC", "", "USDC", "", ""},
	{"0x52908400098527886E0F7030069857D2E4169EE7", "POLYGON", "10", "USDC", "", "USDC", "top-up", ""},
}

// writeTemplate prints the batch template: the columns and templateRows.
func writeTemplate(w io.Writer) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(batch.Columns); err != nil {
		return err
	}
	if err := cw.WriteAll(templateRows); err != nil {
		return err
	}
	return cw.Error()
}

type batchFlags struct {
	dryRun, yes, onlyValid bool
	results, name          string
	concurrency            int
}

func newCmdBatchRun(e *Factory) *cobra.Command {
	var f batchFlags
	cmd := &cobra.Command{
		Use:   "run FILE",
		Short: "Check, price, confirm and pay a batch file; safe to run again",
		Long: `Reads a CSV of payouts (tesouro batch template shows the columns), checks every
row before any money moves (beneficiary, PIX key holder, amounts, balance,
monthly limits, permissions) and prints the review: each row with who it pays
and its price, and the totals per currency. Nothing is sent while a row is
invalid, unless --only-valid says to pay the valid rows alone.

Each row's ticket carries an external id: the file's, or one made of the
batch's name (--batch, default the file's name) and the row's own content.
Running the batch again, after an interruption or with rows appended,
removed, reordered or edited, finds what earlier runs created and pays
exactly the rest; the review marks each row new, already created, parked or
invalid. A lost answer is looked up, never blindly sent again. Every run is
appended to NAME.results.csv beside the file (payouts.csv: payouts.results.csv)
with its time (one line per row, invalid rows with their reason), and each creation is recorded in the local journal.

At a terminal the batch is confirmed (on production by typing the total);
scripts pass --yes, which production profiles refuse unless they allow
scripted writes.`,
		Example: `  tesouro batch template > payouts.csv
  tesouro batch run payouts.csv --dry-run
  tesouro batch run payouts.csv --yes`,
		Args:        exactArgs("FILE"),
		Annotations: map[string]string{longRunning: ""},
	}
	fs := cmd.Flags()
	fs.BoolVar(&f.dryRun, "dry-run", false, "check and price, print the review, send nothing")
	fs.BoolVar(&f.yes, "yes", false, "pay without asking (scripts)")
	fs.BoolVar(&f.onlyValid, "only-valid", false, "pay the valid rows even if others are invalid")
	fs.StringVar(&f.results, "results", "", "where to append the results CSV (default: NAME.results.csv beside the file)")
	fs.StringVar(&f.name, "batch", "", "the batch's NAME, part of every row's external id (default: the file's name without extension)")
	fs.IntVar(&f.concurrency, "concurrency", 4, "rows in flight at once (1-16)")
	out := addOutputFlags(cmd)
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if f.concurrency < 1 || f.concurrency > 16 {
			return Usagef("--concurrency must be between 1 and 16, not %d", f.concurrency)
		}
		data, err := batch.ReadFile(args[0])
		if err != nil {
			return fmt.Errorf("read the batch file: %w", err)
		}
		if f.name == "" {
			f.name = batch.NameOf(args[0])
		}
		file, err := batch.Parse(data, f.name)
		if err != nil {
			return fmt.Errorf("%s: %w", args[0], err)
		}
		interactive := e.StdinTTY() && !f.yes
		if f.results == "" {
			f.results = strings.TrimSuffix(args[0], filepath.Ext(args[0])) + ".results.csv"
		}
		run := func(ctx context.Context, s *session) error { return e.runBatch(ctx, s, file, f, interactive, out) }
		if f.dryRun {
			// A dry run only reads: it never reaches the journal.
			return e.run(cmd, run)
		}
		if !interactive && !f.yes {
			return Usagef("no terminal to confirm at: pass --yes to pay without asking, or --dry-run to check")
		}
		return e.runWrite(cmd, write{what: "batch run (check it with --dry-run)", interactive: interactive}, run)
	}
	return cmd
}

// batchSummary is the result of a batch run, for --json and the table.
type batchSummary struct {
	Batch     string `json:"batch"`
	Rows      int    `json:"rows"`
	Created   int    `json:"created"`
	Existing  int    `json:"existing"`
	Parked    int    `json:"parked"`
	Failed    int    `json:"failed"`
	NotSent   int    `json:"notSent"`
	Invalid   int    `json:"invalid"`
	Remaining int    `json:"remaining"`
	Results   string `json:"results,omitempty"`
	DryRun    bool   `json:"dryRun,omitempty"`
}

func (b batchSummary) table() Table {
	return Table{Columns: []string{"rows", "created", "existing", "parked", "failed", "not_sent", "invalid", "remaining", "results"},
		Rows: [][]string{{fmt.Sprint(b.Rows), fmt.Sprint(b.Created), fmt.Sprint(b.Existing), fmt.Sprint(b.Parked), fmt.Sprint(b.Failed),
			fmt.Sprint(b.NotSent), fmt.Sprint(b.Invalid), fmt.Sprint(b.Remaining), b.Results}}}
}

func (e *Factory) runBatch(ctx context.Context, s *session, file *batch.File, f batchFlags, interactive bool, out *Output) error {
	stateDir, err := keystore.StateDir(e.Getenv)
	if err != nil {
		return fmt.Errorf("state directory: %w", err)
	}
	ledger, err := batch.OpenLedger(filepath.Join(stateDir, "batches"), file.Name)
	if err != nil {
		return err
	}
	defer ledger.Close()
	opts := batch.Options{SubAccountID: s.sub, Concurrency: f.concurrency, Ledger: ledger}
	fmt.Fprintf(e.Stderr, "checking %d rows of batch %q against %s...\n", len(file.Rows), file.Name, s.accountLabel())
	plan, err := batch.Check(ctx, s.client(), file, opts)
	if err != nil {
		return err
	}
	e.printReview(s, plan)
	invalid := len(plan.Rows) - plan.Valid()
	sum := batchSummary{Batch: file.Name, Rows: len(plan.Rows), Invalid: invalid}
	switch {
	case len(plan.Problems) > 0:
		return fmt.Errorf("the batch cannot run: %s; nothing was sent", strings.Join(plan.Problems, "; "))
	case invalid > 0 && !f.onlyValid:
		return fmt.Errorf("%d of %d rows are invalid (listed above); nothing was sent. Fix them, or pay the valid rows alone with --only-valid", invalid, len(plan.Rows))
	case invalid == len(plan.Rows):
		return errors.New("no row is valid; nothing was sent")
	}
	invalidRows := slices.Clone(plan.Rows)
	if invalid > 0 {
		plan.OnlyValid()
		fmt.Fprintf(e.Stderr, "--only-valid: paying the %d valid rows, leaving %d\n", len(plan.Rows), invalid)
	}
	toPay := plan.Count(batch.StateNew)
	if f.dryRun {
		sum.DryRun, sum.Remaining = true, len(plan.Rows)
		fmt.Fprintln(e.Stderr, "--dry-run: nothing was sent")
		return out.Write(e.Stdout, sum, sum.table)
	}
	if toPay > 0 && interactive && !e.confirmBatch(ctx, s, plan) {
		return errors.New("not confirmed: nothing was sent")
	}
	if toPay == 0 {
		fmt.Fprintf(e.Stderr, "nothing to pay: earlier runs of batch %q settled every row\n", file.Name)
	}
	jr, err := s.journal()
	if err != nil {
		return err
	}
	opts.Journal = jr
	results, err := batch.OpenResults(f.results, time.Now())
	if err != nil {
		return err
	}
	defer results.Close()
	if err := results.AddInvalid(invalidRows); err != nil {
		fmt.Fprintf(e.Stderr, "warning: results file: %v\n", err)
	}
	sum.Results = f.results
	progress := e.newMeter(len(plan.Rows))
	prog, runErr := batch.Run(ctx, s.client(), plan, opts, func(o batch.Outcome, p batch.Progress) {
		if err := results.Add(o); err != nil {
			fmt.Fprintf(e.Stderr, "warning: results file: %v\n", err)
		}
		if o.JournalErr != nil {
			fmt.Fprintf(e.Stderr, "warning: journal: %v\n", o.JournalErr)
		}
		if o.Err != "" && o.Status != batch.NotSent {
			fmt.Fprintf(e.Stderr, "row %d: %s: %s\n", o.Row.N, o.Status, termsafe.Line(o.Err))
		}
		progress.update(p.Total-p.Remaining, fmt.Sprintf("created %d  existing %d  parked %d  failed %d  not sent %d  remaining %d",
			p.Created, p.Existing, p.Parked, p.Failed, p.NotSent, p.Remaining))
	})
	progress.finish(false)
	sum.Created, sum.Existing, sum.Parked, sum.Failed, sum.NotSent, sum.Remaining = prog.Created, prog.Existing, prog.Parked, prog.Failed, prog.NotSent, prog.Remaining
	if err := out.Write(e.Stdout, sum, sum.table); err != nil {
		return err
	}
	switch {
	case runErr != nil:
		return fmt.Errorf("%w\nRun the same batch again: what was created is found by its external id and not paid twice", runErr)
	case prog.Failed > 0:
		return fmt.Errorf("%d of %d rows were not paid (see %s); run the same batch again to retry them, nothing is paid twice", prog.Failed, prog.Total, f.results)
	}
	return nil
}

// printReview prints, on stderr, every row with what the review found of
// it (new with who it pays and its price, already created, parked,
// invalid), the problems, and the totals, account and environment.
func (e *Factory) printReview(s *session, plan *batch.Plan) {
	w := e.Stderr
	for _, r := range plan.Rows {
		switch r.State() {
		case batch.StateInvalid:
			fmt.Fprintf(w, "row %d (line %d): INVALID: %s\n", r.N, r.Line, termsafe.Line(r.Problem))
			continue
		case batch.StateDone:
			fmt.Fprintf(w, "row %d: already created by an earlier run: ticket %s (not paid again)\n", r.N, termsafe.Line(r.TicketID))
			continue
		case batch.StateParked:
			fmt.Fprintf(w, "row %d: parked for approval by an earlier run: operation %s (not sent again)\n", r.N, termsafe.Line(nonEmptyOr(r.OperationID, "id not read")))
			continue
		case batch.StateUnknown:
			fmt.Fprintf(w, "row %d: an earlier run lost the answer to its parked creation: not sent again\n", r.N)
			continue
		}
		who := r.Payee.Alias
		if r.Payee.Name != "" && r.Payee.Name != r.Payee.Alias {
			who += " — holder " + r.Payee.Name
		}
		if r.Payee.TaxID != "" {
			who += " " + r.Payee.TaxID
		}
		price := ""
		if r.Quote != nil {
			var fees []string
			fs := r.Fees()
			for _, cur := range batch.Currencies(fs) {
				fees = append(fees, money.Format(fs[cur], cur)+" "+cur)
			}
			price = fmt.Sprintf(" for %s %s (fees %s)", money.Format(r.Quote.InputAmount, r.Source), r.Source, strings.Join(fees, ", "))
		}
		// Who is paid and where come from the file and the service: shown
		// safe, as every other line of the review.
		fmt.Fprintf(w, "row %d: NEW: %s %s to %s [%s]%s\n", r.N, money.Format(r.Amount, r.Currency), termsafe.Line(r.Currency),
			termsafe.Line(who), termsafe.Line(r.Destination()), termsafe.Line(price))
	}
	for _, p := range plan.Problems {
		fmt.Fprintf(w, "BATCH: %s\n", termsafe.Line(p))
	}
	env := "SANDBOX"
	if s.target.Production {
		env = "PRODUCTION (real money)"
	}
	fmt.Fprintf(w, "Environment:  %s\nAccount:      %s\n", env, s.accountLabel())
	fmt.Fprintf(w, "Rows:         %d to pay, %d already created, %d parked earlier, %d invalid, of %d\n",
		plan.Count(batch.StateNew), plan.Count(batch.StateDone), plan.Count(batch.StateParked)+plan.Count(batch.StateUnknown), plan.Count(batch.StateInvalid), len(plan.Rows))
	for _, cur := range batch.Currencies(plan.Out) {
		fmt.Fprintf(w, "They receive: %s %s\n", money.Format(plan.Out[cur], cur), cur)
	}
	for _, cur := range batch.Currencies(plan.In) {
		fmt.Fprintf(w, "You pay:      %s %s (at today's quotes)\n", money.Format(plan.In[cur], cur), cur)
	}
	for _, cur := range batch.Currencies(plan.Fees) {
		fmt.Fprintf(w, "Fees:         %s %s\n", money.Format(plan.Fees[cur], cur), cur)
	}
	if plan.Parks {
		fmt.Fprintln(w, "Approval:     this access's creations wait for approvers: one operation per row")
	}
}

func nonEmptyOr(s, or string) string {
	if s == "" {
		return or
	}
	return s
}

// confirmBatch asks at the terminal. On production the operator types the
// total of each currency the beneficiaries receive; elsewhere y confirms.
func (e *Factory) confirmBatch(ctx context.Context, s *session, plan *batch.Plan) bool {
	if !s.target.Production {
		return e.Prompter.Confirm(ctx, fmt.Sprintf("Pay %d rows?", plan.Count(batch.StateNew)))
	}
	for _, cur := range batch.Currencies(plan.Out) {
		line, _ := e.Prompter.Line(ctx, fmt.Sprintf("PRODUCTION: type the %s total the beneficiaries receive to confirm: ", cur))
		typed, err := money.ParseAmount(line, cur)
		if err != nil || !typed.Equal(plan.Out[cur]) {
			fmt.Fprintf(e.Stderr, "that is not the %s total: nothing was sent\n", cur)
			return false
		}
	}
	return true
}
