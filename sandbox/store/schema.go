package store

import (
	"context"
	"database/sql"
	"fmt"
)

// migrations are the schema's ordered steps; PRAGMA user_version is the
// number applied. A step is never edited once released: a change is a new
// step, so an older file is brought forward in order at start.
//
// Amounts are TEXT (exact decimals, never REAL); times are UnixNano
// integers (UTC), which order like the clock. The tickets table keeps the
// columns every list filter and the lifecycle read; the rest of a ticket
// (its info blocks) is the detail column (JSON).
var migrations = []string{
	// 1: the first schema.
	`
CREATE TABLE meta (
	key   TEXT PRIMARY KEY,
	value TEXT NOT NULL
) STRICT;

CREATE TABLE accounts (
	id         TEXT PRIMARY KEY,
	name       TEXT NOT NULL CHECK (name <> ''),
	kind       TEXT NOT NULL CHECK (kind IN ('INDIVIDUAL', 'COMPANY')),
	is_main    INTEGER NOT NULL CHECK (is_main IN (0, 1)),
	main_id    TEXT NOT NULL,
	created_at INTEGER NOT NULL,
	pix_key    TEXT NOT NULL,
	wallet     TEXT NOT NULL,
	tax_id     TEXT NOT NULL,
	CHECK ((is_main = 1) = (id = main_id))
) STRICT;
CREATE UNIQUE INDEX accounts_one_main ON accounts (is_main) WHERE is_main = 1;

CREATE TABLE balances (
	account_id TEXT NOT NULL REFERENCES accounts (id),
	currency   TEXT NOT NULL,
	amount     TEXT NOT NULL CHECK (amount NOT LIKE '-%'),
	PRIMARY KEY (account_id, currency)
) STRICT, WITHOUT ROWID;

-- Every balance change is a move; balance_after chains them, so the last
-- move of an account and currency equals its balance.
CREATE TABLE ledger (
	id            INTEGER PRIMARY KEY,
	account_id    TEXT NOT NULL REFERENCES accounts (id),
	currency      TEXT NOT NULL,
	amount        TEXT NOT NULL,
	balance_after TEXT NOT NULL CHECK (balance_after NOT LIKE '-%'),
	ticket_id     TEXT REFERENCES tickets (id) DEFERRABLE INITIALLY DEFERRED,
	reason        TEXT NOT NULL,
	at            INTEGER NOT NULL
) STRICT;
CREATE INDEX ledger_by_account ON ledger (account_id, currency, id);

CREATE TABLE tickets (
	id              TEXT PRIMARY KEY,
	account_id      TEXT NOT NULL REFERENCES accounts (id),
	access_id       TEXT NOT NULL,
	external_id     TEXT,
	status          TEXT NOT NULL CHECK (status IN ('PENDING', 'PROCESSING', 'PAID', 'FAILED', 'EXPIRED')),
	input_currency  TEXT NOT NULL,
	input_method    TEXT NOT NULL,
	output_currency TEXT NOT NULL,
	output_method   TEXT NOT NULL,
	quote_id        TEXT NOT NULL,
	created_at      INTEGER NOT NULL,
	updated_at      INTEGER NOT NULL,
	expires_at      INTEGER NOT NULL,
	sender_e2e      TEXT,
	receiver_e2e    TEXT,
	fund_at         INTEGER,
	pay_at          INTEGER,
	debited         TEXT NOT NULL CHECK (debited NOT LIKE '-%'),
	held            TEXT NOT NULL CHECK (held NOT LIKE '-%'),
	fail_reason     TEXT NOT NULL,
	out_kind        TEXT NOT NULL,
	out_id          TEXT NOT NULL,
	quote           TEXT NOT NULL,
	detail          TEXT NOT NULL
) STRICT;
-- One index per list filter, each ending in the page order (created_at,
-- id), so that a filtered page is a short range scan whatever the total.
CREATE INDEX tickets_by_created ON tickets (account_id, created_at, id);
CREATE INDEX tickets_by_status ON tickets (account_id, status, created_at, id);
CREATE INDEX tickets_by_input_currency ON tickets (account_id, input_currency, created_at, id);
CREATE INDEX tickets_by_output_currency ON tickets (account_id, output_currency, created_at, id);
CREATE INDEX tickets_by_input_method ON tickets (account_id, input_method, created_at, id);
CREATE INDEX tickets_by_output_method ON tickets (account_id, output_method, created_at, id);
CREATE INDEX tickets_by_external_id ON tickets (account_id, external_id, created_at, id) WHERE external_id IS NOT NULL;
CREATE INDEX tickets_by_sender_e2e ON tickets (sender_e2e) WHERE sender_e2e IS NOT NULL;
CREATE INDEX tickets_by_receiver_e2e ON tickets (receiver_e2e) WHERE receiver_e2e IS NOT NULL;
CREATE INDEX tickets_by_quote ON tickets (quote_id);
-- The lifecycle's work list, read at start.
CREATE INDEX tickets_live ON tickets (id) WHERE status IN ('PENDING', 'PROCESSING');

CREATE TABLE events (
	id           TEXT PRIMARY KEY,
	account_id   TEXT NOT NULL REFERENCES accounts (id),
	subscription TEXT NOT NULL,
	status       TEXT NOT NULL,
	data_id      TEXT NOT NULL,
	created_at   INTEGER NOT NULL
) STRICT;

CREATE TABLE attempts (
	id              TEXT PRIMARY KEY,
	account_id      TEXT NOT NULL REFERENCES accounts (id),
	event_id        TEXT NOT NULL REFERENCES events (id),
	url             TEXT NOT NULL,
	created_at      INTEGER NOT NULL,
	updated_at      INTEGER NOT NULL,
	response_status INTEGER NOT NULL,
	acknowledged    INTEGER NOT NULL CHECK (acknowledged IN (0, 1))
) STRICT;
CREATE INDEX attempts_by_account ON attempts (account_id, created_at, id);

CREATE TABLE operations (
	id           TEXT PRIMARY KEY,
	account_id   TEXT NOT NULL REFERENCES accounts (id),
	requester_id TEXT NOT NULL,
	status       TEXT NOT NULL,
	created_at   INTEGER NOT NULL,
	detail       TEXT NOT NULL
) STRICT;

CREATE TABLE payment_sessions (
	id         TEXT PRIMARY KEY,
	account_id TEXT NOT NULL REFERENCES accounts (id),
	access_id  TEXT NOT NULL,
	created_at INTEGER NOT NULL
) STRICT;

-- The small, bounded collections of an account (beneficiaries, webhooks,
-- trades, compliance records): one document per account and kind,
-- rewritten when the account's collection changes.
CREATE TABLE account_records (
	account_id TEXT NOT NULL REFERENCES accounts (id),
	kind       TEXT NOT NULL,
	body       TEXT NOT NULL CHECK (json_valid(body)),
	PRIMARY KEY (account_id, kind)
) STRICT, WITHOUT ROWID;
`,

	// 2: the live ticket states (spec/service.md §7.2). The CHECK on
	// status widens in place (SQLite's documented writable_schema way to
	// change a CHECK: no row is rewritten by it, and the DDL after it
	// bumps the schema cookie); then a waiting ticket (PENDING) becomes
	// UNPAID and an expired one (EXPIRED) CANCELED with its reason, and
	// the lifecycle's index covers the new live states. Should the table
	// not read as step 1 wrote it, the CHECK stays narrow and the first
	// UPDATE fails the step.
	`
PRAGMA writable_schema = ON;
UPDATE sqlite_schema
SET sql = replace(sql, 'CHECK (status IN (''PENDING'', ''PROCESSING'', ''PAID'', ''FAILED'', ''EXPIRED''))',
	'CHECK (status IN (''UNPAID'', ''PENDING'', ''ON-HOLD'', ''PROCESSING'', ''PAID'', ''FAILED'', ''PARTIAL-FAILED'', ''CANCELED''))')
WHERE type = 'table' AND name = 'tickets';
PRAGMA writable_schema = RESET;
DROP INDEX tickets_live;
UPDATE tickets SET status = 'UNPAID', detail = json_set(detail, '$.status', 'UNPAID') WHERE status = 'PENDING';
UPDATE tickets SET status = 'CANCELED', detail = json_set(detail, '$.status', 'CANCELED', '$.reason', 'expired: the input was not funded before expiresAt')
WHERE status = 'EXPIRED';
CREATE INDEX tickets_live ON tickets (id) WHERE status IN ('UNPAID', 'PENDING', 'ON-HOLD', 'PROCESSING');
`,

	// 3: what a payment session was opened with, and its one ticket
	// (spec/service.md §7.4), as JSON beside its owner.
	`
ALTER TABLE payment_sessions ADD COLUMN detail TEXT NOT NULL DEFAULT '{"paymentOptions":["PIX"],"outputCurrency":"BRLA","expirationInMinutes":60}' CHECK (json_valid(detail));
`,

	// 4: the lifecycle's index of live tickets goes: keyed on the random
	// ticket id, it put every creation on a page of its own (one more
	// WAL frame each at 100k tickets), and the start-up reads the live
	// tickets account by account from tickets_by_status instead.
	`
DROP INDEX tickets_live;
`,

	// 5: team administration (spec/service.md §8.8): what changed of the
	// accesses (invited, changed, revoked), their API keys and second
	// factors and the sign-ups, one JSON document per kind and id.
	`
CREATE TABLE team_records (
	kind TEXT NOT NULL,
	id   TEXT NOT NULL,
	body TEXT NOT NULL CHECK (json_valid(body)),
	PRIMARY KEY (kind, id)
) STRICT, WITHOUT ROWID;
`,
}

// migrate brings the schema to the newest version in one transaction. A
// file newer than this sandbox is refused rather than misread.
func migrate(ctx context.Context, db *sql.DB) error {
	var v int
	if err := db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		return err
	}
	if v > len(migrations) {
		return fmt.Errorf("the database has schema version %d, this sandbox knows up to %d; use a newer tesouro", v, len(migrations))
	}
	if v == len(migrations) {
		return nil
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for i := v; i < len(migrations); i++ {
		if _, err := tx.ExecContext(ctx, migrations[i]); err != nil {
			return fmt.Errorf("schema step %d: %w", i+1, err)
		}
	}
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", len(migrations))); err != nil {
		return err
	}
	return tx.Commit()
}
