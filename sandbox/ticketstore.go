package sandbox

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
)

// Tickets live in the database only (there can be millions): a request
// reads the rows it needs, and a write is one INSERT or a one-row UPDATE.

const ticketColumns = `id, account_id, access_id, external_id, status, input_currency, input_method,
	output_currency, output_method, quote_id, created_at, updated_at, expires_at, sender_e2e,
	receiver_e2e, fund_at, pay_at, debited, held, fail_reason, out_kind, out_id, quote, detail`

// ticketRow is the stored form of a ticket, column by column.
func ticketRow(t *ticket) ([]any, error) {
	// Stored as the list answers it, so a page is served from these bytes.
	detail, err := marshalJSON(&t.Ticket)
	if err != nil {
		return nil, fmt.Errorf("ticket %s: %w", t.ID, err)
	}
	t.stored = detail
	quote := t.q.raw
	if quote == nil {
		if quote, err = json.Marshal(&t.q); err != nil {
			return nil, fmt.Errorf("ticket %s quote: %w", t.ID, err)
		}
	}
	return []any{
		t.ID.String(), t.acct.ID.String(), t.accessID.String(), nullString(t.ExternalID), string(t.Status),
		t.Quote.InputCurrency, t.Quote.InputPaymentMethod, t.Quote.OutputCurrency, t.Quote.OutputPaymentMethod,
		t.Quote.ID.String(), t.CreatedAt.UnixNano(), t.UpdatedAt.UnixNano(), t.ExpiresAt.UnixNano(),
		nullString(senderE2E(t)), nullString(receiverE2E(t)), nullTime(t.fundAt), nullTime(t.payAt),
		t.debited.String(), t.held.String(), t.failReason, t.outKind, t.outID.String(), string(quote), string(detail),
	}, nil
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

var insertTicketSQL = "INSERT INTO tickets (" + ticketColumns + ") VALUES (" + strings.TrimSuffix(strings.Repeat("?, ", 24), ", ") + ")"

// insertTicket stores a new ticket. The caller holds s.mu for writing.
func (s *Server) insertTicket(t *ticket) {
	row, err := ticketRow(t)
	if err != nil {
		s.tx().fail(err)
		return
	}
	s.exec(insertTicketSQL, row...)
}

// saveTicket writes a ticket's transition: one row, and only the columns
// a transition changes (the quote, fixed at creation, is not encoded
// again). The caller holds s.mu for writing.
func (s *Server) saveTicket(t *ticket) {
	detail, err := marshalJSON(&t.Ticket)
	if err != nil {
		s.tx().fail(fmt.Errorf("ticket %s: %w", t.ID, err))
		return
	}
	t.stored = detail
	s.exec(`UPDATE tickets SET status = ?, updated_at = ?, sender_e2e = ?, receiver_e2e = ?, fund_at = ?, pay_at = ?,
		debited = ?, held = ?, fail_reason = ?, detail = ? WHERE id = ?`,
		string(t.Status), t.UpdatedAt.UnixNano(), nullString(senderE2E(t)), nullString(receiverE2E(t)), nullTime(t.fundAt), nullTime(t.payAt),
		t.debited.String(), t.held.String(), t.failReason, string(detail), t.ID.String())
}

// replyTicket answers {"ticket": t} from the ticket's stored JSON: the
// bytes just written (or read) are the answer, not encoded a second time.
// The caller has not changed t since it was saved or read.
func (c *call) replyTicket(status int, t *ticket) error {
	if t.stored == nil {
		return c.reply(status, map[string]any{"ticket": t.Ticket})
	}
	body := make([]byte, 0, len(t.stored)+len(`{"ticket":}`))
	body = append(body, `{"ticket":`...)
	body = append(append(body, t.stored...), '}')
	return c.replyRaw(status, "application/json", body, nil)
}

// replyCreated answers a creation with the superset of §7.1: the live
// service's flat id, brCode and expiration beside {ticket}, the ticket
// being the JSON just stored (not encoded a second time).
func (c *call) replyCreated(t *ticket) error {
	if t.stored == nil {
		return c.reply(http.StatusCreated, createdAnswer(&t.Ticket))
	}
	head, err := json.Marshal(headOf(&t.Ticket))
	if err != nil {
		return err
	}
	body := make([]byte, 0, len(head)+len(t.stored)+len(`,"ticket":}`))
	body = append(body, head[:len(head)-1]...)
	body = append(body, `,"ticket":`...)
	body = append(append(body, t.stored...), '}')
	return c.replyRaw(http.StatusCreated, "application/json", body, nil)
}

func (b *batch) fail(err error) {
	if b.err == nil {
		b.err = err
	}
}

// scanTicket reads one row of ticketColumns.
func (s *Server) scanTicket(sc interface{ Scan(...any) error }) (*ticket, error) {
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
	t := &ticket{failReason: failReason, outKind: outKind, stored: []byte(detail)}
	if err := json.Unmarshal(t.stored, &t.Ticket); err != nil {
		return nil, fmt.Errorf("ticket %s: detail: %w", id, err)
	}
	if err := json.Unmarshal([]byte(quote), &t.q); err != nil {
		return nil, fmt.Errorf("ticket %s: quote: %w", id, err)
	}
	var err error
	aid, err := uuid.Parse(acctID)
	if err != nil {
		return nil, fmt.Errorf("ticket %s: account %q: %w", id, acctID, err)
	}
	t.acct = s.st.accounts[aid]
	if t.acct == nil {
		return nil, fmt.Errorf("ticket %s: unknown account %s", id, acctID)
	}
	if t.accessID, err = uuid.Parse(accessID); err != nil {
		return nil, fmt.Errorf("ticket %s: access %q: %w", id, accessID, err)
	}
	if t.outID, err = uuid.Parse(outID); err != nil {
		return nil, fmt.Errorf("ticket %s: output %q: %w", id, outID, err)
	}
	if t.debited, err = decimal.NewFromString(debited); err != nil {
		return nil, fmt.Errorf("ticket %s: debited: %w", id, err)
	}
	if t.held, err = decimal.NewFromString(held); err != nil {
		return nil, fmt.Errorf("ticket %s: held: %w", id, err)
	}
	if fundAt.Valid {
		t.fundAt = time.Unix(0, fundAt.Int64).UTC()
	}
	if payAt.Valid {
		t.payAt = time.Unix(0, payAt.Int64).UTC()
	}
	return t, nil
}

// getTicket reads a ticket of acct (nil, nil: none).
func (s *Server) loadTicket(q querier, acct *account, id uuid.UUID) (*ticket, error) {
	row := q.QueryRowContext(context.Background(), "SELECT "+ticketColumns+" FROM tickets WHERE id = ? AND account_id = ?", id.String(), acct.ID.String())
	t, err := s.scanTicket(row)
	if err == sql.ErrNoRows {
		return nil, nil
	}
	return t, err
}

// ticketByID reads a ticket whatever its account (the lifecycle's lookup).
func (s *Server) ticketByID(q querier, id uuid.UUID) (*ticket, error) {
	row := q.QueryRowContext(context.Background(), "SELECT "+ticketColumns+" FROM tickets WHERE id = ?", id.String())
	t, err := s.scanTicket(row)
	if err == sql.ErrNoRows {
		return nil, nil
	}
	return t, err
}

// ticketFilter is a list query; empty fields do not filter.
type ticketFilter struct {
	status, inCur, outCur, inMethod, outMethod, externalID, e2e string
	w                                                           window
}

// ticketPage reads up to limit tickets of acct matching f, newest first,
// strictly older than the cursor (keyset pagination on created_at, id: a
// page costs the same deep in the history as on top), as their stored
// JSON: a page is answered without decoding a ticket. next is empty on
// the last page.
func (s *Server) ticketPage(q querier, acct *account, f ticketFilter, cursor string, limit int) ([]json.RawMessage, string, error) {
	where := []string{"account_id = ?"}
	args := []any{acct.ID.String()}
	for _, c := range []struct{ col, v string }{
		{"status", f.status}, {"input_currency", f.inCur}, {"output_currency", f.outCur},
		{"input_method", f.inMethod}, {"output_method", f.outMethod}, {"external_id", f.externalID},
	} {
		if c.v != "" {
			where = append(where, c.col+" = ?")
			args = append(args, c.v)
		}
	}
	if f.e2e != "" {
		where = append(where, "(sender_e2e = ? OR receiver_e2e = ?)")
		args = append(args, f.e2e, f.e2e)
	}
	if !f.w.from.IsZero() {
		where = append(where, "created_at >= ?")
		args = append(args, f.w.from.UnixNano())
	}
	if !f.w.to.IsZero() {
		where = append(where, "created_at < ?")
		args = append(args, f.w.to.UnixNano())
	}
	if cursor != "" {
		at, id, err := decodeCursor(cursor)
		if err != nil {
			return nil, "", err
		}
		where = append(where, "(created_at, id) < (?, ?)")
		args = append(args, at, id.String())
	}
	args = append(args, limit+1)
	query := "SELECT id, created_at, detail FROM tickets WHERE " + strings.Join(where, " AND ") + " ORDER BY created_at DESC, id DESC LIMIT ?"
	rows, err := q.QueryContext(context.Background(), query, args...)
	if err != nil {
		return nil, "", err
	}
	defer rows.Close()
	var out []json.RawMessage
	var lastID string
	var lastAt int64
	for rows.Next() {
		var id string
		var at int64
		var detail []byte
		if err := rows.Scan(&id, &at, &detail); err != nil {
			return nil, "", err
		}
		if len(out) == limit {
			tid, err := uuid.Parse(lastID)
			if err != nil {
				return nil, "", fmt.Errorf("ticket id %q: %w", lastID, err)
			}
			return out, encodeCursor(lastAt, tid), rows.Err()
		}
		out = append(out, detail)
		lastID, lastAt = id, at
	}
	return out, "", rows.Err()
}

// ticketsWithQuote reads the tickets made from a quote, oldest first.
func (s *Server) ticketsWithQuote(q querier, acct *account, quoteID uuid.UUID) ([]*ticket, error) {
	return s.ticketQuery(q, "SELECT "+ticketColumns+" FROM tickets WHERE quote_id = ? AND account_id = ? ORDER BY created_at, id", quoteID.String(), acct.ID.String())
}

// allTickets reads every ticket of acct, oldest first (demo history only:
// a few hundred).
func (s *Server) allTickets(q querier, acct *account) ([]*ticket, error) {
	return s.ticketQuery(q, "SELECT "+ticketColumns+" FROM tickets WHERE account_id = ? ORDER BY created_at, id", acct.ID.String())
}

func (s *Server) ticketQuery(q querier, query string, args ...any) ([]*ticket, error) {
	rows, err := q.QueryContext(context.Background(), query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*ticket
	for rows.Next() {
		t, err := s.scanTicket(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// countTickets is the number of stored tickets of acct.
func (s *Server) countTickets(acct *account) (int, error) {
	var n int
	err := s.db.r.QueryRow("SELECT count(*) FROM tickets WHERE account_id = ?", acct.ID.String()).Scan(&n)
	return n, err
}

func senderE2E(t *ticket) string {
	if t.BrazilianFiatSenderInfo != nil {
		return t.BrazilianFiatSenderInfo.EndToEndID
	}
	return ""
}

func receiverE2E(t *ticket) string {
	if t.BrazilianFiatReceiverInfo != nil {
		return t.BrazilianFiatReceiverInfo.EndToEndID
	}
	return ""
}
