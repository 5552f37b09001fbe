package store

import (
	"context"
	"database/sql"
	"fmt"
	"sync"
)

// writer is the one connection that writes, held for the database's life,
// with each statement text it runs prepared once and kept (stmtCache). It
// begins and ends its transactions with statements prepared the same way:
// a database/sql Tx would prepare its BEGIN again for each transaction and
// start a goroutine to watch it, all inside the store lock every writer
// waits on. Used under s.mu held for writing only.
type writer struct {
	stmtCache
	conn *sql.Conn
}

func newWriter(conn *sql.Conn) *writer {
	return &writer{stmtCache: stmtCache{db: conn}, conn: conn}
}

// journal sets the rollback journal's mode, between transactions.
func (w *writer) journal(mode string) error {
	var got string
	if err := w.QueryRowContext(context.Background(), "PRAGMA journal_mode = "+mode).Scan(&got); err != nil {
		return err
	}
	if got != mode {
		return fmt.Errorf("journal mode stayed %s instead of %s", got, mode)
	}
	return nil
}

func (w *writer) begin() error    { _, err := w.Exec("BEGIN IMMEDIATE"); return err }
func (w *writer) commit() error   { _, err := w.Exec("COMMIT"); return err }
func (w *writer) rollback() error { _, err := w.Exec("ROLLBACK"); return err }

func (w *writer) Exec(query string, args ...any) (sql.Result, error) {
	st, err := w.stmt(context.Background(), query)
	if err != nil {
		return nil, err
	}
	return st.Exec(args...)
}

// close finalizes the statements and gives the connection back to its
// pool, which closing the pool then closes.
func (w *writer) close() error {
	w.stmtCache.close()
	return w.conn.Close()
}

// stmtCache runs queries on db (the read pool, or the writer's one
// connection) with statements prepared once per text (database/sql
// prepares a pool's again on each connection as needed). Safe for
// concurrent readers.
type stmtCache struct {
	db interface {
		PrepareContext(ctx context.Context, query string) (*sql.Stmt, error)
		QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	}
	stmts sync.Map // query text → *sql.Stmt
}

func (p *stmtCache) stmt(ctx context.Context, query string) (*sql.Stmt, error) {
	if st, ok := p.stmts.Load(query); ok {
		return st.(*sql.Stmt), nil
	}
	st, err := p.db.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	if prev, loaded := p.stmts.LoadOrStore(query, st); loaded {
		st.Close()
		return prev.(*sql.Stmt), nil
	}
	return st, nil
}

func (p *stmtCache) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	st, err := p.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	return st.QueryContext(ctx, args...)
}

func (p *stmtCache) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	st, err := p.stmt(ctx, query)
	if err != nil {
		return p.db.QueryRowContext(ctx, query, args...) // reports the error
	}
	return st.QueryRowContext(ctx, args...)
}

func (p *stmtCache) close() {
	p.stmts.Range(func(_, st any) bool {
		st.(*sql.Stmt).Close()
		return true
	})
}
