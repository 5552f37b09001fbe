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

// errNoStateDir is returned when the session has no state directory to
// write into.
var errNoStateDir = errors.New("no state directory is known: set XDG_STATE_HOME (or HOME) and restart")

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
		path, err := export.WriteFile(filepath.Join(stateDir, "receipts"), "ticket-"+id.String()+".pdf", pdf)
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
