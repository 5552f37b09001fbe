package store

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
)

// expiredReason is the reason the rules give a ticket that expired
// unfunded (the engine's), which step 2 gives the ones it cancels.
const expiredReason = "expired: the input was not funded before expiresAt"

// A state file written before the live ticket states is brought forward:
// PENDING (waiting) becomes UNPAID, EXPIRED becomes CANCELED with its
// reason, and the ledger still points at its tickets.
func TestMigrationToLiveTicketStates(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=foreign_keys(1)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	old := []string{
		migrations[0],
		"PRAGMA user_version = 1",
		`INSERT INTO accounts VALUES ('a', 'Acme', 'COMPANY', 1, 'a', 0, 'k', '0x0', '1')`,
	}
	for i, st := range []string{"PENDING", "EXPIRED", "PAID"} {
		id := []string{"t1", "t2", "t3"}[i]
		old = append(old, `INSERT INTO tickets VALUES ('`+id+`', 'a', 'x', NULL, '`+st+`', 'BRL', 'PIX', 'BRLA', 'INTERNAL', 'q', 1, 1, 2,
			NULL, NULL, NULL, NULL, '0', '0', '', 'internal', 'x', '{}', '{"id":"`+id+`","status":"`+st+`","reason":""}')`)
	}
	old = append(old, `INSERT INTO ledger VALUES (1, 'a', 'BRLA', '5', '5', 't3', 'funded', 1)`)
	for _, st := range old {
		if _, err := db.ExecContext(ctx, st); err != nil {
			t.Fatalf("%s: %v", st, err)
		}
	}
	if err := migrate(ctx, db); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"t1": "UNPAID", "t2": "CANCELED", "t3": "PAID"}
	for id, st := range want {
		var col, detail, reason string
		if err := db.QueryRowContext(ctx, "SELECT status, json_extract(detail, '$.status'), json_extract(detail, '$.reason') FROM tickets WHERE id = ?", id).Scan(&col, &detail, &reason); err != nil {
			t.Fatal(err)
		}
		if col != st || detail != st {
			t.Errorf("ticket %s: column %s, detail %s; want %s", id, col, detail, st)
		}
		if st == "CANCELED" && reason != expiredReason {
			t.Errorf("expired ticket's reason %q, want %q", reason, expiredReason)
		}
	}
	var check string
	if err := db.QueryRowContext(ctx, "PRAGMA integrity_check").Scan(&check); err != nil || check != "ok" {
		t.Errorf("integrity_check after the step: %q %v", check, err)
	}
	var ref sql.NullString
	if err := db.QueryRowContext(ctx, "SELECT ticket_id FROM ledger WHERE id = 1").Scan(&ref); err != nil || ref.String != "t3" {
		t.Errorf("ledger reference after the step: %v %v, want t3", ref, err)
	}
	if _, err := db.ExecContext(ctx, `INSERT INTO tickets (id, account_id, access_id, status, input_currency, input_method, output_currency, output_method, quote_id,
		created_at, updated_at, expires_at, debited, held, fail_reason, out_kind, out_id, quote, detail)
		VALUES ('t4', 'a', 'x', 'EXPIRED', 'BRL', 'PIX', 'BRLA', 'INTERNAL', 'q', 1, 1, 1, '0', '0', '', 'i', 'x', '{}', '{}')`); err == nil {
		t.Error("an EXPIRED ticket was stored after the step")
	}
}
