package tickets

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/export"
)

// saveReceipt downloads the PDF receipt of a PAID ticket into the export
// directory (dir gives it, see export.Dir), as ticket-<id>.pdf: receipts
// and exports are found in one place.
func saveReceipt(svc Service, dir func() (string, error), account, id uuid.UUID) func(context.Context) (receipt, error) {
	return func(ctx context.Context) (receipt, error) {
		pdf, err := svc.TicketReceipt(ctx, account, id)
		if err != nil {
			return receipt{id: id}, fmt.Errorf("download receipt of %s: %w", id, err)
		}
		d, err := dir()
		if err != nil {
			return receipt{id: id}, err
		}
		if abs, err := filepath.Abs(d); err == nil {
			d = abs
		}
		path, err := export.WriteFile(d, "ticket-"+id.String()+".pdf", pdf)
		return receipt{id: id, path: path}, err
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
