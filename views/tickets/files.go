package tickets

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/google/uuid"
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
