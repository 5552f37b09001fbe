package batch

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"sync"

	"github.com/tesouro-treasury/tesouro/export"
	"github.com/tesouro-treasury/tesouro/money"
)

// ResultColumns are the columns of the results CSV; they never move.
var ResultColumns = []string{"row", "external_id", "beneficiary", "amount", "currency", "status", "ticket_id", "operation_id", "error"}

// Results writes one CSV line per row outcome (cells a spreadsheet would
// run as formulas are guarded). It is safe for concurrent use.
type Results struct {
	mu sync.Mutex
	w  *export.Writer
}

// NewResults writes the header to w.
func NewResults(w io.Writer) (*Results, error) {
	cw, err := export.NewWriter(w, ResultColumns)
	if err != nil {
		return nil, err
	}
	return &Results{w: cw}, nil
}

// Add writes one outcome and flushes it, so that an interrupted run leaves
// every line it reported.
func (r *Results) Add(o Outcome) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	p := o.Row
	if err := r.w.Row([]string{strconv.Itoa(p.N), p.ExternalID, p.Beneficiary, money.Wire(p.Amount, p.Currency), p.Currency, string(o.Status), o.TicketID, o.OperationID, o.Err}); err != nil {
		return err
	}
	return r.w.Flush()
}

// FileLedger is a Ledger kept as JSON lines in a file per batch (named by
// the file's content hash), so that a run of the same file finds the rows
// an earlier run parked.
type FileLedger struct {
	mu      sync.Mutex
	f       *os.File
	earlier map[string]ledgerLine
}

type ledgerLine struct {
	Row         int    `json:"row"`
	ExternalID  string `json:"externalId"`
	Status      Status `json:"status"`
	TicketID    string `json:"ticketId,omitempty"`
	OperationID string `json:"operationId,omitempty"`
}

// OpenLedger opens (or creates) the ledger of the batch with that hash in
// dir, which is created 0700.
func OpenLedger(dir, hash string) (*FileLedger, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("batch ledger: %w", err)
	}
	path := filepath.Join(dir, hash+".jsonl")
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("batch ledger: %w", err)
	}
	l := &FileLedger{f: f, earlier: map[string]ledgerLine{}}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var line ledgerLine
		if json.Unmarshal(sc.Bytes(), &line) != nil {
			continue // a line cut by a crash
		}
		switch _, had := l.earlier[line.ExternalID]; line.Status {
		case Parked:
			l.earlier[line.ExternalID] = line
		case Unknown:
			if !had {
				l.earlier[line.ExternalID] = line
			}
		case Created:
			delete(l.earlier, line.ExternalID)
		}
	}
	if err := sc.Err(); err != nil {
		f.Close()
		return nil, fmt.Errorf("batch ledger %s: %w", path, err)
	}
	return l, nil
}

// Earlier implements Ledger.
func (l *FileLedger) Earlier(externalID string) (Status, string, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	line, ok := l.earlier[externalID]
	return line.Status, line.OperationID, ok
}

// Record implements Ledger: parked, unknown and created rows are written,
// with one write call per line so that a crash never leaves half a line
// before the next.
func (l *FileLedger) Record(o Outcome) error {
	if o.Status != Parked && o.Status != Created && o.Status != Unknown {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	line := ledgerLine{Row: o.Row.N, ExternalID: o.Row.ExternalID, Status: o.Status, TicketID: o.TicketID, OperationID: o.OperationID}
	if o.Status == Created {
		delete(l.earlier, o.Row.ExternalID)
	} else if _, had := l.earlier[o.Row.ExternalID]; !had || o.Status == Parked {
		l.earlier[o.Row.ExternalID] = line
	}
	b, err := json.Marshal(line)
	if err != nil {
		return err
	}
	if _, err := l.f.Write(append(b, '\n')); err != nil {
		return err
	}
	return l.f.Sync()
}

// Close closes the ledger file.
func (l *FileLedger) Close() error {
	if l == nil || l.f == nil {
		return errors.New("batch ledger: not open")
	}
	return l.f.Close()
}
