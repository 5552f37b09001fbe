package sandbox

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// storeLock is Server.mu: a read-write lock whose write side is also the
// database transaction. Lock starts nothing; the first write under it
// (s.tx) begins a transaction on the writer connection. Unlock returns only
// once that transaction committed, so a handler that replies after its
// deferred Unlock replies only after its writes are on disk (ack after
// commit).
//
// Group commit: a writer that unlocks while other writers are queued on the
// lock leaves the transaction open for them and waits; the last of the
// queue (or the one that makes the batch maxBatch long) commits them all
// with one fsync, and every one of them returns after that commit.
//
// A writer that finds no one queued but other write requests in flight
// (still reading their body, verifying their signature: see
// Server.inflight) also leaves the transaction open, for at most
// commitWindow: they join it rather than each paying a commit of their
// own (the commit, the WAL frames of the index pages they share). A lone
// writer commits at once, so a single client waits for nothing.
//
// In memory the queue is batched the same way, but a batch never waits
// for requests still in flight: a commit there writes nothing to disk and
// costs little more than its BEGIN. The memdb database refuses a reader
// while a write transaction is open, so a reader that takes the lock
// between two writers of a batch lets it go, waits for the commit and
// takes it again (RLock); while one waits, the next writer commits
// instead of passing the batch on.
type storeLock struct {
	rw      sync.RWMutex
	s       *Server
	waiting atomic.Int32 // writers queued in Lock
	// open is the batch left open between two writers, in memory only.
	open atomic.Pointer[batch]
	// readersWaiting counts the readers waiting for open to commit.
	readersWaiting atomic.Int32
}

// maxBatch bounds a group commit, so that under a steady stream of writers
// the first of a batch still gets its answer soon.
const maxBatch = 64

// commitWindow is how long a batch stays open for write requests in
// flight: it bounds what a writer's answer waits on others.
const commitWindow = 500 * time.Microsecond

// batch is one open transaction and the writers waiting on its commit.
type batch struct {
	tx      *writer // nil when the transaction could not begin
	err     error   // the first failed statement; the batch is then rolled back
	writers int
	// deliveries are the webhook posts the batch's events cause, queued
	// only after the commit.
	deliveries []delivery
	done       chan struct{}
	cerr       error // the commit's outcome, set before done is closed
}

// RLock takes the lock for reading, once no batch is open (in memory).
func (l *storeLock) RLock() {
	waited := false
	for {
		l.rw.RLock()
		b := l.open.Load()
		if b == nil {
			if waited {
				l.readersWaiting.Add(-1)
			}
			return
		}
		l.rw.RUnlock()
		if !waited {
			l.readersWaiting.Add(1)
			waited = true
		}
		<-b.done
	}
}

func (l *storeLock) RUnlock() { l.rw.RUnlock() }

func (l *storeLock) Lock() {
	l.waiting.Add(1)
	l.rw.Lock()
	l.waiting.Add(-1)
}

// Unlock releases the lock and, when a transaction is open, returns once it
// is committed.
func (l *storeLock) Unlock() {
	s := l.s
	b := s.cur
	if b == nil {
		l.rw.Unlock()
		return
	}
	b.writers++
	memory := s.db.path == ""
	if b.writers >= maxBatch || memory && (l.waiting.Load() == 0 || l.readersWaiting.Load() > 0) {
		s.commitLocked(b)
		l.rw.Unlock()
		return
	}
	if l.waiting.Load() > 0 {
		if memory {
			l.open.Store(b)
		}
		l.rw.Unlock() // the next of the queue carries the batch on
		<-b.done
		return
	}
	// Write requests in flight that are not in this batch yet: the
	// batch's writers are requests still in flight (the lifecycle's
	// writes, not counted there, only make the batch commit sooner).
	if s.inflight.Load() <= int32(b.writers) {
		s.commitLocked(b)
		l.rw.Unlock()
		return
	}
	l.rw.Unlock()
	t := time.NewTimer(commitWindow)
	select {
	case <-b.done: // a later writer committed the batch
		t.Stop()
		return
	case <-t.C:
	}
	l.rw.Lock()
	if s.cur == b {
		s.commitLocked(b)
	}
	l.rw.Unlock()
	<-b.done
}

// flush commits the open batch, if any, now (the sandbox's stop).
func (l *storeLock) flush() {
	l.rw.Lock()
	if b := l.s.cur; b != nil {
		l.s.commitLocked(b)
	}
	l.rw.Unlock()
}

// commitLocked ends the batch: its accounts' records are written, then it
// commits (or rolls back after a failed statement, which fails the store).
// The caller holds s.mu for writing.
func (s *Server) commitLocked(b *batch) {
	err := s.flushRecords(b)
	s.cur = nil
	if err == nil {
		err = b.err
	}
	if b.tx != nil {
		if err == nil {
			err = b.tx.commit()
		}
		if err != nil {
			_ = b.tx.rollback()
		}
	}
	if err != nil {
		s.failStore(err)
	} else {
		for _, d := range b.deliveries {
			s.outbox.push(d)
		}
	}
	s.commits.Add(1)
	s.committed.Add(int64(b.writers))
	b.cerr = err
	s.mu.open.Store(nil)
	close(b.done)
}

// tx is the open write transaction, begun on first use. The caller holds
// s.mu for writing.
func (s *Server) tx() *batch {
	if s.cur != nil {
		return s.cur
	}
	b := &batch{done: make(chan struct{}), tx: s.db.wr}
	if err := b.tx.begin(); err != nil {
		b.err = err
		// A batch with no transaction: every statement records err and
		// commit fails the store.
		b.tx = nil
	}
	s.cur = b
	return b
}

// exec runs a write statement in the open transaction. A failure is kept
// and fails the whole batch: the in-memory view already changed, so the
// sandbox stops serving rather than answer from a state it cannot keep.
func (s *Server) exec(query string, args ...any) {
	b := s.tx()
	if b.err != nil {
		return
	}
	if _, err := b.tx.Exec(query, args...); err != nil {
		b.err = fmt.Errorf("%s: %w", firstWords(query), err)
	}
}

func firstWords(q string) string {
	if len(q) > 40 {
		return q[:40]
	}
	return q
}

// errStoreFailed is what every request gets once a commit failed.
var errStoreFailed = errors.New("the sandbox could not save a change and stopped; restart it (acknowledged writes are safe)")

func (s *Server) failStore(err error) {
	s.refuseAll(fmt.Errorf("%w: %v", errStoreFailed, err))
}

// refuseAll makes every request from now on answer err (500).
func (s *Server) refuseAll(err error) {
	s.storeErr.CompareAndSwap(nil, &err)
}

// failed is the store's failure, if any.
func (s *Server) failed() error {
	if p := s.storeErr.Load(); p != nil {
		return *p
	}
	return nil
}

// querier is what reads need: the read pool, or the open write
// transaction when the reader is also writing (to see its own writes).
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// reader is the handle for reads under s.mu: the write transaction when
// one is open (read-your-writes), the read pool otherwise. Either prepares
// each query text once.
func (s *Server) reader(writing bool) querier {
	if writing {
		if b := s.tx(); b.tx != nil {
			return b.tx
		}
	}
	return &s.db.pool
}

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
