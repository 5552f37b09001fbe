package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/spf13/cobra"

	"github.com/tesouro-treasury/tesouro/batch"
	"github.com/tesouro-treasury/tesouro/journal"
	"github.com/tesouro-treasury/tesouro/keystore"
	"github.com/tesouro-treasury/tesouro/money"
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
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, err := io.WriteString(e.Stdout, batch.Template())
			return err
		},
	}, newCmdBatchRun(e))
	return cmd
}

type batchFlags struct {
	dryRun, yes, onlyValid bool
	results                string
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

Each row's ticket carries an external id (the file's, or one derived from the
file's content and the row number), so running the same file again finds what
an interrupted run created and creates exactly the rest. A lost answer is
looked up, never blindly sent again. Results go to FILE.results.csv (one line
per row), and each row is recorded in the local journal.

At a terminal the batch is confirmed (on production by typing the total);
scripts pass --yes, which production profiles refuse unless they allow
scripted writes.`,
		Example: `  tesouro batch template > payouts.csv
  tesouro batch run payouts.csv --dry-run
  tesouro batch run payouts.csv --yes`,
		Args: exactArgs("FILE"),
	}
	fs := cmd.Flags()
	fs.BoolVar(&f.dryRun, "dry-run", false, "check and price, print the review, send nothing")
	fs.BoolVar(&f.yes, "yes", false, "pay without asking (scripts)")
	fs.BoolVar(&f.onlyValid, "only-valid", false, "pay the valid rows even if others are invalid")
	fs.StringVar(&f.results, "results", "", "where to write the results CSV (default: FILE.results.csv)")
	fs.IntVar(&f.concurrency, "concurrency", 4, "rows in flight at once (1-16)")
	out := addOutputFlags(cmd)
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if f.concurrency < 1 || f.concurrency > 16 {
			return Usagef("--concurrency must be between 1 and 16, not %d", f.concurrency)
		}
		data, err := os.ReadFile(args[0])
		if err != nil {
			return fmt.Errorf("read the batch file: %w", err)
		}
		file, err := batch.Parse(data)
		if err != nil {
			return fmt.Errorf("%s: %w", args[0], err)
		}
		interactive := e.StdinTTY() && !f.yes
		t, err := e.Resolve()
		if err != nil {
			return err
		}
		if !f.dryRun {
			switch {
			case t.ReadOnly:
				return Usagef("read-only: a batch run is a write (use --dry-run to check it, or drop --readonly)")
			case !interactive && !f.yes:
				return Usagef("no terminal to confirm at: pass --yes to pay without asking, or --dry-run to check")
			}
			if err := scriptedWrite(t, "a batch run", interactive); err != nil {
				return err
			}
		}
		if f.results == "" {
			f.results = strings.TrimSuffix(args[0], filepath.Ext(args[0])) + ".results.csv"
		}
		return e.run(cmd, func(ctx context.Context, s *session) error {
			return e.runBatch(ctx, s, file, f, interactive, out)
		})
	}
	return cmd
}

// batchSummary is the result of a batch run, for --json and the table.
type batchSummary struct {
	Batch     string `json:"batch"`
	Rows      int    `json:"rows"`
	Created   int    `json:"created"`
	Parked    int    `json:"parked"`
	Failed    int    `json:"failed"`
	Remaining int    `json:"remaining"`
	Results   string `json:"results,omitempty"`
	DryRun    bool   `json:"dryRun,omitempty"`
}

func (b batchSummary) table() Table {
	return Table{Columns: []string{"rows", "created", "parked", "failed", "remaining", "results"},
		Rows: [][]string{{fmt.Sprint(b.Rows), fmt.Sprint(b.Created), fmt.Sprint(b.Parked), fmt.Sprint(b.Failed), fmt.Sprint(b.Remaining), b.Results}}}
}

func (e *Factory) runBatch(ctx context.Context, s *session, file *batch.File, f batchFlags, interactive bool, out *Output) error {
	opts := batch.Options{SubAccountID: s.sub, Concurrency: f.concurrency}
	fmt.Fprintf(e.Stderr, "checking %d rows against %s...\n", len(file.Rows), s.accountLabel())
	plan, err := batch.Check(ctx, s.client(), file, opts)
	if err != nil {
		return err
	}
	e.printReview(s, plan)
	invalid := len(plan.Rows) - plan.Valid()
	switch {
	case len(plan.Problems) > 0:
		return fmt.Errorf("the batch cannot run: %s; nothing was sent", strings.Join(plan.Problems, "; "))
	case invalid > 0 && !f.onlyValid:
		return fmt.Errorf("%d of %d rows are invalid (listed above); nothing was sent. Fix them, or pay the valid rows alone with --only-valid", invalid, len(plan.Rows))
	case invalid == len(plan.Rows):
		return errors.New("no row is valid; nothing was sent")
	}
	if invalid > 0 {
		plan.OnlyValid()
		fmt.Fprintf(e.Stderr, "--only-valid: paying the %d valid rows, leaving %d\n", len(plan.Rows), invalid)
	}
	sum := batchSummary{Batch: file.Hash[:20], Rows: len(plan.Rows)}
	if f.dryRun {
		sum.DryRun, sum.Remaining = true, len(plan.Rows)
		fmt.Fprintln(e.Stderr, "--dry-run: nothing was sent")
		return out.Write(e.Stdout, sum, sum.table)
	}
	if interactive && !e.confirmBatch(ctx, s, plan) {
		return errors.New("not confirmed: nothing was sent")
	}
	stateDir, err := keystore.StateDir(e.Getenv)
	if err != nil {
		return fmt.Errorf("state directory: %w", err)
	}
	ledger, err := batch.OpenLedger(filepath.Join(stateDir, "batches"), file.Hash)
	if err != nil {
		return err
	}
	defer ledger.Close()
	jr, err := e.Journal()
	if err != nil {
		return fmt.Errorf("the journal is not available, and every payout must be recorded: %w", err)
	}
	jr.SetActor(journal.Actor{Profile: s.target.Profile, DemoAccess: s.target.DemoAccess, Email: s.conn.Email})
	rf, err := os.OpenFile(f.results, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return fmt.Errorf("results file: %w", err)
	}
	defer rf.Close()
	results, err := batch.NewResults(rf)
	if err != nil {
		return err
	}
	sum.Results = f.results
	progress := e.progressLine(len(plan.Rows))
	prog, runErr := batch.Run(ctx, s.client(), plan, opts, ledger, func(o batch.Outcome, p batch.Progress) {
		if err := results.Add(o); err != nil {
			fmt.Fprintf(e.Stderr, "warning: results file: %v\n", err)
		}
		if err := jr.Record(batchEntry(s, file, o)); err != nil {
			fmt.Fprintf(e.Stderr, "warning: journal: %v\n", err)
		}
		if o.Err != "" && o.Status != batch.NotSent {
			fmt.Fprintf(e.Stderr, "row %d: %s: %s\n", o.Row.N, o.Status, o.Err)
		}
		progress(p)
	})
	sum.Created, sum.Parked, sum.Failed, sum.Remaining = prog.Created, prog.Parked, prog.Failed, prog.Remaining
	if err := out.Write(e.Stdout, sum, sum.table); err != nil {
		return err
	}
	switch {
	case runErr != nil:
		return fmt.Errorf("%w\nRun the same file again: what was created is found by its external id and not paid twice", runErr)
	case prog.Failed > 0:
		return fmt.Errorf("%d of %d rows were not paid (see %s); run the same file again to retry them, nothing is paid twice", prog.Failed, prog.Total, f.results)
	}
	return nil
}

// printReview prints, on stderr, every row with who it pays and its price,
// the problems, and the totals, account and environment.
func (e *Factory) printReview(s *session, plan *batch.Plan) {
	w := e.Stderr
	for _, r := range plan.Rows {
		if r.Problem != "" {
			fmt.Fprintf(w, "row %d (line %d): INVALID: %s\n", r.N, r.Line, r.Problem)
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
		fmt.Fprintf(w, "row %d: %s %s to %s [%s]%s\n", r.N, money.Format(r.Amount, r.Currency), r.Currency, who, r.Destination(), price)
	}
	for _, p := range plan.Problems {
		fmt.Fprintf(w, "BATCH: %s\n", p)
	}
	env := "SANDBOX"
	if s.target.Production {
		env = "PRODUCTION (real money)"
	}
	fmt.Fprintf(w, "Environment:  %s\nAccount:      %s\n", env, s.accountLabel())
	fmt.Fprintf(w, "Rows:         %d valid of %d\n", plan.Valid(), len(plan.Rows))
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

// confirmBatch asks at the terminal. On production the operator types the
// total of each currency the beneficiaries receive; elsewhere y confirms.
func (e *Factory) confirmBatch(ctx context.Context, s *session, plan *batch.Plan) bool {
	if !s.target.Production {
		return e.Prompter.Confirm(ctx, fmt.Sprintf("Pay %d rows?", len(plan.Rows)))
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

// progressLine reports progress on stderr: rewritten in place at a
// terminal, a line every tenth of the batch otherwise.
func (e *Factory) progressLine(total int) func(batch.Progress) {
	tty := e.StderrTTY()
	step := max(1, total/10)
	last := time.Time{}
	return func(p batch.Progress) {
		done := p.Total - p.Remaining
		line := fmt.Sprintf("%d/%d  created %d  parked %d  failed %d  remaining %d", done, p.Total, p.Created, p.Parked, p.Failed, p.Remaining)
		switch {
		case tty && (time.Since(last) > 100*time.Millisecond || p.Remaining == 0):
			last = time.Now()
			fmt.Fprintf(e.Stderr, "\r%s", line)
			if p.Remaining == 0 {
				fmt.Fprintln(e.Stderr)
			}
		case !tty && (done%step == 0 || p.Remaining == 0):
			fmt.Fprintln(e.Stderr, line)
		}
	}
}

// batchEntry is the journal line of one row.
func batchEntry(s *session, file *batch.File, o batch.Outcome) journal.Entry {
	p := o.Row
	ids := map[string]string{"batch": file.Hash[:20], "row": fmt.Sprint(p.N), "externalId": p.ExternalID}
	if p.Payee.ID != uuid.Nil {
		ids["beneficiary"] = p.Payee.ID.String()
	}
	if o.TicketID != "" {
		ids["ticketId"] = o.TicketID
	}
	if o.OperationID != "" {
		ids["operationId"] = o.OperationID
	}
	amounts := map[string]string{"output": money.Wire(p.Amount, p.Currency) + " " + p.Currency}
	if p.Quote != nil {
		amounts["input"] = money.Wire(p.Quote.InputAmount, p.Source) + " " + p.Source
	}
	outcome := string(o.Status)
	if o.Err != "" {
		outcome = "error: " + string(o.Status) + ": " + o.Err
	}
	e := s.entry("batch-payout", "POST /v2/account/tickets/")
	e.Profile, e.IDs, e.Amounts, e.Outcome = s.target.Profile, ids, amounts, outcome
	return e
}
