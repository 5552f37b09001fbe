package tickets

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/money"
)

// errNoStateDir is returned when the session has no state directory to
// write into.
var errNoStateDir = errors.New("no state directory is known: set XDG_STATE_HOME (or HOME) and restart")

// writePrivate writes data to dir/name with owner-only permissions, through
// a temporary file so that a reader never sees half a file.
func writePrivate(dir, name string, data []byte) (string, error) {
	if dir == "" {
		return "", errNoStateDir
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("create %s: %w", dir, err)
	}
	f, err := os.CreateTemp(dir, "."+name+".*")
	if err != nil {
		return "", fmt.Errorf("create a file in %s: %w", dir, err)
	}
	tmp := f.Name()
	_, werr := f.Write(data)
	cerr := f.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(tmp)
		return "", fmt.Errorf("write %s: %w", tmp, err)
	}
	path := filepath.Join(dir, name)
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return "", fmt.Errorf("save %s: %w", path, err)
	}
	return path, nil
}

// saveReceipt downloads the PDF receipt of a PAID ticket into
// <state>/receipts/ticket-<id>.pdf.
func saveReceipt(svc Service, stateDir string, account, id uuid.UUID) func(context.Context) (receipt, error) {
	return func(ctx context.Context) (receipt, error) {
		pdf, err := svc.TicketReceipt(ctx, account, id)
		if err != nil {
			return receipt{id: id}, fmt.Errorf("download receipt of %s: %w", id, err)
		}
		if stateDir == "" {
			return receipt{id: id}, errNoStateDir
		}
		path, err := writePrivate(filepath.Join(stateDir, "receipts"), "ticket-"+id.String()+".pdf", pdf)
		return receipt{id: id, path: path}, err
	}
}

// feeOrder is the order of the fee types the seed names; other types follow
// in the order they are met.
var feeOrder = []string{"Markup Fee", "In Fee", "Conversion Fee", "Out Fee", "Gas Fee"}

// csvHeader are the fixed columns of the export, before the fee columns.
var csvHeader = []string{
	"id", "externalId", "status", "createdAt", "updatedAt", "expiresAt",
	"inputCurrency", "inputPaymentMethod", "inputAmount",
	"outputCurrency", "outputPaymentMethod", "outputAmount",
	"basePrice", "markupAmount", "markupCurrency",
}

// feeTypes lists the fee types present in recs, known ones first.
func feeTypes(recs []*record) []string {
	seen := map[string]bool{}
	var extra []string
	for _, r := range recs {
		for _, f := range r.Fees {
			if t := f.Type(); !seen[t] {
				seen[t] = true
				if !slices.Contains(feeOrder, t) {
					extra = append(extra, t)
				}
			}
		}
	}
	var out []string
	for _, t := range feeOrder {
		if seen[t] {
			out = append(out, t)
		}
	}
	return append(out, extra...)
}

// writeCSV lays records out as CSV: one row per ticket, then for each fee
// type its amount, currency and whether it is rebatable (a ticket with two
// fees of one type lists their sum when the currencies agree).
func writeCSV(w *csv.Writer, recs []*record) error {
	types := feeTypes(recs)
	header := slices.Clone(csvHeader)
	for _, t := range types {
		header = append(header, t+" amount", t+" currency", t+" rebatable")
	}
	header = append(header, "rebateAmount", "rebateCurrency", "endToEndId", "failureReason")
	if err := w.Write(header); err != nil {
		return err
	}
	ts := func(t time.Time) string {
		if t.IsZero() {
			return ""
		}
		return t.UTC().Format(time.RFC3339)
	}
	for _, r := range recs {
		line := []string{
			r.ID.String(), r.ExternalID, string(r.Status()), ts(r.CreatedAt()), ts(r.UpdatedAt()), ts(r.ExpiresAt()),
			r.InCur(), r.InMethod(), money.Wire(r.InAmount.Decimal(), r.InCur()),
			r.OutCur(), r.OutMethod(), money.Wire(r.OutAmount.Decimal(), r.OutCur()),
			r.BasePrice.Decimal().String(), "", r.MarkupCur(),
		}
		if r.MarkupCur() != "" {
			line[13] = money.Wire(r.MarkupAmount.Decimal(), r.MarkupCur())
		}
		for _, t := range types {
			line = append(line, feeCells(r.Fees, t)...)
		}
		rebate := ""
		if r.RebateCur() != "" {
			rebate = money.Wire(r.RebateAmount.Decimal(), r.RebateCur())
		}
		line = append(line, rebate, r.RebateCur(), r.EndToEndID, r.FailureReason)
		if err := w.Write(line); err != nil {
			return err
		}
	}
	w.Flush()
	return w.Error()
}

// feeCells are the amount, currency and rebatable cells of one fee type.
// Two fees of one type in one currency are listed as their sum.
func feeCells(fees []fee, typ string) []string {
	var (
		found     bool
		total     decimal.Decimal
		currency  string
		rebatable int8 = -1
	)
	for _, f := range fees {
		if f.Type() != typ || found && f.Currency() != currency {
			continue
		}
		found, currency = true, f.Currency()
		total = total.Add(f.Amount.Decimal())
		rebatable = max(rebatable, f.Rebatable)
	}
	if !found {
		return []string{"", "", ""}
	}
	reb := ""
	if rebatable >= 0 {
		reb = strconv.FormatBool(rebatable == 1)
	}
	return []string{money.Wire(total, currency), currency, reb}
}

// exportCSV writes recs to <state>/exports/tickets-<time>.csv.
func exportCSV(stateDir string, now time.Time, recs []*record) func(context.Context) (exported, error) {
	return func(context.Context) (exported, error) {
		if stateDir == "" {
			return exported{}, errNoStateDir
		}
		var buf bytes.Buffer
		if err := writeCSV(csv.NewWriter(&buf), recs); err != nil {
			return exported{}, fmt.Errorf("export tickets: %w", err)
		}
		dir := filepath.Join(stateDir, "exports")
		path, err := writePrivate(dir, freeName(dir, "tickets-"+now.Format("20060102-150405"), ".csv"), buf.Bytes())
		if err != nil {
			return exported{}, fmt.Errorf("export tickets: %w", err)
		}
		return exported{path: path, rows: len(recs)}, nil
	}
}

// freeName returns base+ext, or base-2+ext and so on when a file of that
// name exists already, so that an export never overwrites an earlier one.
func freeName(dir, base, ext string) string {
	name := base + ext
	for i := 2; i < 1000; i++ {
		if _, err := os.Stat(filepath.Join(dir, name)); errors.Is(err, os.ErrNotExist) {
			return name
		}
		name = base + "-" + strconv.Itoa(i) + ext
	}
	return name
}
