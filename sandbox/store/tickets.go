package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
)

// Tickets live in the database only (there can be millions): a request
// reads the rows it needs, and a write is one INSERT or a one-row UPDATE.

// TicketRow is a stored ticket, column by column. Detail is the ticket as
// the service shows it (JSON), which answers about it are made of; Quote
// is the quote it was made from (JSON). The other columns are what the
// list filters and the lifecycle read.
type TicketRow struct {
	ID, AccountID, AccessID         uuid.UUID
	ExternalID                      string
	Status                          string
	InputCurrency, InputMethod      string
	OutputCurrency, OutputMethod    string
	QuoteID                         uuid.UUID
	CreatedAt, UpdatedAt, ExpiresAt time.Time
	SenderE2E, ReceiverE2E          string // PIX end-to-end ids, "" for none
	FundAt, PayAt                   time.Time
	Debited, Held                   decimal.Decimal
	FailReason, OutKind             string
	OutID                           uuid.UUID
	Quote, Detail                   []byte
}

const ticketColumns = `id, account_id, access_id, external_id, status, input_currency, input_method,
	output_currency, output_method, quote_id, created_at, updated_at, expires_at, sender_e2e,
	receiver_e2e, fund_at, pay_at, debited, held, fail_reason, out_kind, out_id, quote, detail`

var insertTicketSQL = "INSERT INTO tickets (" + ticketColumns + ") VALUES (" + strings.TrimSuffix(strings.Repeat("?, ", 24), ", ") + ")"

func (t *TicketRow) args() []any {
	return []any{
		t.ID.String(), t.AccountID.String(), t.AccessID.String(), nullString(t.ExternalID), t.Status,
		t.InputCurrency, t.InputMethod, t.OutputCurrency, t.OutputMethod,
		t.QuoteID.String(), t.CreatedAt.UnixNano(), t.UpdatedAt.UnixNano(), t.ExpiresAt.UnixNano(),
		nullString(t.SenderE2E), nullString(t.ReceiverE2E), nullTime(t.FundAt), nullTime(t.PayAt),
		t.Debited.String(), t.Held.String(), t.FailReason, t.OutKind, t.OutID.String(), string(t.Quote), string(t.Detail),
	}
}

func nullString(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func nullTime(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t.UnixNano()
}

// InsertTicket stores a new ticket. The caller holds the lock for writing.
func (s *Store) InsertTicket(t *TicketRow) {
	s.exec(insertTicketSQL, t.args()...)
}

// UpdateTicket writes a ticket's transition: one row, and only the columns
// a transition changes (the quote and the ticket's identity are fixed at
// creation). The caller holds the lock for writing.
func (s *Store) UpdateTicket(t *TicketRow) {
	s.exec(`UPDATE tickets SET status = ?, updated_at = ?, sender_e2e = ?, receiver_e2e = ?, fund_at = ?, pay_at = ?,
		debited = ?, held = ?, fail_reason = ?, detail = ? WHERE id = ?`,
		t.Status, t.UpdatedAt.UnixNano(), nullString(t.SenderE2E), nullString(t.ReceiverE2E), nullTime(t.FundAt), nullTime(t.PayAt),
		t.Debited.String(), t.Held.String(), t.FailReason, string(t.Detail), t.ID.String())
}

// scanTicket reads one row of ticketColumns.
func scanTicket(sc interface{ Scan(...any) error }) (*TicketRow, error) {
	var (
		id, acctID, accessID, status, inCur, inMethod, outCur, outMethod, quoteID string
		ext, senderE2E, receiverE2E                                               sql.NullString
		created, updated, expires                                                 int64
		fundAt, payAt                                                             sql.NullInt64
		debited, held, failReason, outKind, outID, quote, detail                  string
	)
	if err := sc.Scan(&id, &acctID, &accessID, &ext, &status, &inCur, &inMethod, &outCur, &outMethod, &quoteID,
		&created, &updated, &expires, &senderE2E, &receiverE2E, &fundAt, &payAt, &debited, &held, &failReason,
		&outKind, &outID, &quote, &detail); err != nil {
		return nil, err
	}
	t := &TicketRow{
		ExternalID: ext.String, Status: status, InputCurrency: inCur, InputMethod: inMethod, OutputCurrency: outCur, OutputMethod: outMethod,
		CreatedAt: time.Unix(0, created).UTC(), UpdatedAt: time.Unix(0, updated).UTC(), ExpiresAt: time.Unix(0, expires).UTC(),
		SenderE2E: senderE2E.String, ReceiverE2E: receiverE2E.String, FailReason: failReason, OutKind: outKind,
		Quote: []byte(quote), Detail: []byte(detail),
	}
	var err error
	for _, f := range []struct {
		name, raw string
		to        *uuid.UUID
	}{{"id", id, &t.ID}, {"account", acctID, &t.AccountID}, {"access", accessID, &t.AccessID}, {"output", outID, &t.OutID}} {
		if *f.to, err = uuid.Parse(f.raw); err != nil {
			return nil, fmt.Errorf("ticket %s: %s %q: %w", id, f.name, f.raw, err)
		}
	}
	t.QuoteID, _ = uuid.Parse(quoteID)
	if t.Debited, err = decimal.NewFromString(debited); err != nil {
		return nil, fmt.Errorf("ticket %s: debited: %w", id, err)
	}
	if t.Held, err = decimal.NewFromString(held); err != nil {
		return nil, fmt.Errorf("ticket %s: held: %w", id, err)
	}
	if fundAt.Valid {
		t.FundAt = time.Unix(0, fundAt.Int64).UTC()
	}
	if payAt.Valid {
		t.PayAt = time.Unix(0, payAt.Int64).UTC()
	}
	return t, nil
}

// Ticket reads a ticket of an account (nil, nil: none). writing says
// whether the caller holds the lock for writing (and so reads through its
// transaction) or for reading.
func (s *Store) Ticket(writing bool, account, id uuid.UUID) (*TicketRow, error) {
	row := s.reader(writing).QueryRowContext(context.Background(), "SELECT "+ticketColumns+" FROM tickets WHERE id = ? AND account_id = ?", id.String(), account.String())
	t, err := scanTicket(row)
	if err == sql.ErrNoRows {
		return nil, nil
	}
	return t, err
}

// TicketByID reads a ticket whatever its account (the lifecycle's lookup).
func (s *Store) TicketByID(writing bool, id uuid.UUID) (*TicketRow, error) {
	row := s.reader(writing).QueryRowContext(context.Background(), "SELECT "+ticketColumns+" FROM tickets WHERE id = ?", id.String())
	t, err := scanTicket(row)
	if err == sql.ErrNoRows {
		return nil, nil
	}
	return t, err
}

// Key is a position in a list ordered by creation: the created_at and id
// of the last item a page returned.
type Key struct {
	At int64 // UnixNano
	ID uuid.UUID
}

// TicketFilter is a list query; empty fields do not filter, and the
// window is From inclusive, To exclusive (zero: open).
type TicketFilter struct {
	Status, InputCurrency, OutputCurrency, InputMethod, OutputMethod, ExternalID string
	EndToEndID                                                                   string // the payer's or the receiver's
	From, To                                                                     time.Time
}

// TicketPage reads up to limit tickets of an account matching f, newest
// first, strictly older than after (keyset pagination on created_at, id:
// a page costs the same deep in the history as on top), as their stored
// detail: a page is answered without decoding a ticket. next is nil on
// the last page. The caller holds the lock for reading.
func (s *Store) TicketPage(account uuid.UUID, f TicketFilter, after *Key, limit int) (details []json.RawMessage, next *Key, err error) {
	where := []string{"account_id = ?"}
	args := []any{account.String()}
	for _, c := range []struct{ col, v string }{
		{"status", f.Status}, {"input_currency", f.InputCurrency}, {"output_currency", f.OutputCurrency},
		{"input_method", f.InputMethod}, {"output_method", f.OutputMethod}, {"external_id", f.ExternalID},
	} {
		if c.v != "" {
			where = append(where, c.col+" = ?")
			args = append(args, c.v)
		}
	}
	if f.EndToEndID != "" {
		where = append(where, "(sender_e2e = ? OR receiver_e2e = ?)")
		args = append(args, f.EndToEndID, f.EndToEndID)
	}
	if !f.From.IsZero() {
		where = append(where, "created_at >= ?")
		args = append(args, f.From.UnixNano())
	}
	if !f.To.IsZero() {
		where = append(where, "created_at < ?")
		args = append(args, f.To.UnixNano())
	}
	if after != nil {
		where = append(where, "(created_at, id) < (?, ?)")
		args = append(args, after.At, after.ID.String())
	}
	args = append(args, limit+1)
	query := "SELECT id, created_at, detail FROM tickets WHERE " + strings.Join(where, " AND ") + " ORDER BY created_at DESC, id DESC LIMIT ?"
	rows, err := s.reader(false).QueryContext(context.Background(), query, args...)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	var lastID string
	var lastAt int64
	for rows.Next() {
		var id string
		var at int64
		var detail []byte
		if err := rows.Scan(&id, &at, &detail); err != nil {
			return nil, nil, err
		}
		if len(details) == limit {
			tid, err := uuid.Parse(lastID)
			if err != nil {
				return nil, nil, fmt.Errorf("ticket id %q: %w", lastID, err)
			}
			return details, &Key{At: lastAt, ID: tid}, rows.Err()
		}
		details = append(details, detail)
		lastID, lastAt = id, at
	}
	return details, nil, rows.Err()
}

// TicketsWithQuote reads the tickets of an account made from a quote,
// oldest first.
func (s *Store) TicketsWithQuote(writing bool, account, quoteID uuid.UUID) ([]*TicketRow, error) {
	return s.tickets(writing, "SELECT "+ticketColumns+" FROM tickets WHERE quote_id = ? AND account_id = ? ORDER BY created_at, id", quoteID.String(), account.String())
}

// AccountTickets reads every ticket of an account, oldest first (the demo
// history: a few hundred).
func (s *Store) AccountTickets(writing bool, account uuid.UUID) ([]*TicketRow, error) {
	return s.tickets(writing, "SELECT "+ticketColumns+" FROM tickets WHERE account_id = ? ORDER BY created_at, id", account.String())
}

func (s *Store) tickets(writing bool, query string, args ...any) ([]*TicketRow, error) {
	rows, err := s.reader(writing).QueryContext(context.Background(), query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*TicketRow
	for rows.Next() {
		t, err := scanTicket(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// CountTickets is the number of stored tickets of an account.
func (s *Store) CountTickets(account uuid.UUID) (int, error) {
	var n int
	err := s.db.r.QueryRow("SELECT count(*) FROM tickets WHERE account_id = ?", account.String()).Scan(&n)
	return n, err
}

// FillTickets inserts n tickets in the open transaction, the i-th made by
// row, with a page cache large enough to hold the indexes being filled
// (with the default 2 MB their pages would be spilled to the WAL over and
// over). The caller holds the lock for writing.
func (s *Store) FillTickets(n int, row func(i int) (*TicketRow, error)) error {
	b := s.tx()
	if b.err != nil {
		return b.err
	}
	if _, err := b.tx.Exec("PRAGMA cache_size = -1048576"); err != nil {
		return err
	}
	defer b.tx.Exec("PRAGMA cache_size = -2000")
	stmt, err := b.tx.stmt(context.Background(), insertTicketSQL)
	if err != nil {
		return err
	}
	for i := 0; i < n; i++ {
		t, err := row(i)
		if err != nil {
			return err
		}
		if _, err := stmt.Exec(t.args()...); err != nil {
			return fmt.Errorf("bulk ticket %d: %w", i, err)
		}
	}
	return nil
}

// Scratch runs fn in a savepoint that is rolled back whatever fn does, so
// that nothing fn writes is stored (a bulk fill's template ticket, made by
// the request code). In memory, where the database keeps no rollback
// journal (dsnFor), the journal is on for the scratch transaction alone,
// its mode changing only between transactions: the open batch is committed
// first, and the scratch transaction after fn. The caller holds the lock
// for writing.
func (s *Store) Scratch(fn func() error) (err error) {
	if s.db.path == "" {
		if b := s.cur; b != nil {
			if s.commitLocked(b); b.cerr != nil {
				return b.cerr
			}
		}
		if err := s.db.wr.journal("memory"); err != nil {
			return err
		}
		defer func() {
			if b := s.cur; b != nil {
				s.commitLocked(b)
				err = errors.Join(err, b.cerr)
			}
			err = errors.Join(err, s.db.wr.journal("off"))
		}()
	}
	b := s.tx()
	if b.err != nil {
		return b.err
	}
	if _, err := b.tx.Exec("SAVEPOINT template"); err != nil {
		return err
	}
	err = fn()
	if _, rerr := b.tx.Exec("ROLLBACK TO template; RELEASE template"); rerr != nil && err == nil {
		err = rerr
	}
	return err
}
