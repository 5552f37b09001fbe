package batch

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tesouro-treasury/tesouro/export"
	"github.com/tesouro-treasury/tesouro/money"
)

// ResultColumns are the columns of the results CSV; they never move (run_at,
// the time of the run a line belongs to, came last).
var ResultColumns = []string{"row", "external_id", "beneficiary", "amount", "currency", "status", "ticket_id", "operation_id", "error", "run_at"}

// Results writes one CSV line per row outcome (cells a spreadsheet would
// run as formulas are guarded), each line stamped with the time of its run.
// Runs are appended: a results file holds the history of its batch. It is
// safe for concurrent use.
type Results struct {
	mu    sync.Mutex
	w     *export.Writer
	f     *os.File
	runAt string
}

// OpenResults opens the results file at path for a run started at runAt,
// appending to what earlier runs wrote; a new (or empty) file gets the
// header first. A file whose header is not ResultColumns is refused rather
// than mixed with lines of another shape.
func OpenResults(path string, runAt time.Time) (*Results, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("results file: %w", err)
	}
	head, err := bufio.NewReader(f).ReadString('\n')
	if err != nil && err != io.EOF {
		f.Close()
		return nil, fmt.Errorf("results file %s: %w", path, err)
	}
	want := strings.Join(ResultColumns, ",")
	var cw *export.Writer
	switch strings.TrimRight(head, "\r\n") {
	case "":
		cw, err = export.NewWriter(f, ResultColumns)
	case want:
		cw = export.Continue(f, ResultColumns)
	default:
		err = fmt.Errorf("results file %s has other columns than this version writes (%s): move it away, or give another file with --results", path, want)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return &Results{w: cw, f: f, runAt: runAt.UTC().Format(time.RFC3339)}, nil
}

// Add writes one outcome and flushes it, so that an interrupted run leaves
// every line it reported.
func (r *Results) Add(o Outcome) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	p := o.Row
	amount := p.AmountText
	if p.Problem == "" {
		amount = money.Wire(p.Amount, p.Currency)
	}
	if err := r.w.Row([]string{strconv.Itoa(p.N), p.ExternalID, p.Beneficiary, amount, p.Currency, string(o.Status), o.TicketID, o.OperationID, o.Err, r.runAt}); err != nil {
		return err
	}
	return r.w.Flush()
}

// AddInvalid writes the rows that were not paid as written, with their
// reason, so that the results say what became of every row of the file.
func (r *Results) AddInvalid(rows []*Planned) error {
	for _, p := range rows {
		if p.Problem == "" {
			continue
		}
		if err := r.Add(Outcome{Row: p, Status: Invalid, Err: p.Problem}); err != nil {
			return err
		}
	}
	return nil
}

// Close closes the results file.
func (r *Results) Close() error { return r.f.Close() }

// FileLedger is a Ledger kept as JSON lines in a file per batch (named by
// the batch's name), so that a run of the batch finds the rows an earlier
// run parked, whatever was edited in the file since.
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

// OpenLedger opens (or creates) the ledger of the batch called name in
// dir, which is created 0700.
func OpenLedger(dir, name string) (*FileLedger, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("batch ledger: %w", err)
	}
	sum := sha256.Sum256([]byte(name))
	path := filepath.Join(dir, idPrefix(name)+"-"+hex.EncodeToString(sum[:])[:16]+".jsonl")
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
