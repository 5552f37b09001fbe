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
// In memory there is no group commit: a commit costs no write to disk, and
// the memdb database refuses readers while a write transaction is open, so
// each writer commits before it lets the lock go.
type storeLock struct {
	rw      sync.RWMutex
	s       *Server
	waiting atomic.Int32 // writers queued in Lock
}

// maxBatch bounds a group commit, so that under a steady stream of writers
// the first of a batch still gets its answer soon.
const maxBatch = 64

// commitWindow is how long a batch stays open for write requests in
// flight: it bounds what a writer's answer waits on others.
const commitWindow = 500 * time.Microsecond

// batch is one open transaction and the writers waiting on its commit.
type batch struct {
	tx      *sql.Tx
	err     error // the first failed statement; the batch is then rolled back
	writers int
	// deliveries are the webhook posts the batch's events cause, queued
	// only after the commit.
	deliveries []delivery
	done       chan struct{}
	cerr       error // the commit's outcome, set before done is closed
	// stmts are the batch's statements by text, prepared in tx once per
	// batch rather than once per statement run (the demo history is one
	// batch of thousands of statements).
	stmts map[string]*sql.Stmt
}

func (l *storeLock) RLock()   { l.rw.RLock() }
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
	if b.writers >= maxBatch || s.db.path == "" {
		s.commitLocked(b)
		l.rw.Unlock()
		return
	}
	if l.waiting.Load() > 0 {
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
			err = b.tx.Commit()
		} else {
			_ = b.tx.Rollback()
		}
	}
	if err != nil {
		s.failStore(err)
	} else {
		for _, d := range b.deliveries {
			s.outbox.push(d)
		}
	}
	s.prepareSeen()
	s.commits.Add(1)
	s.committed.Add(int64(b.writers))
	b.cerr = err
	close(b.done)
}

// tx is the open write transaction, begun on first use. The caller holds
// s.mu for writing.
func (s *Server) tx() *batch {
	if s.cur != nil {
		return s.cur
	}
	b := &batch{done: make(chan struct{})}
	tx, err := s.db.w.BeginTx(context.Background(), nil)
	if err != nil {
		b.err = err
		// A batch with no transaction: every statement records err and
		// commit fails the store.
		tx = nil
	}
	b.tx = tx
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
	st, err := s.txStmt(b, query)
	if err == nil {
		_, err = st.Exec(args...)
	}
	if err != nil {
		b.err = fmt.Errorf("%s: %w", firstWords(query), err)
	}
}

// txStmt is query prepared for the open batch b: the writer's prepared
// statement bound to b's transaction, or, for a text not prepared yet, one
// prepared in the transaction (and on the connection after the commit).
// The caller holds s.mu for writing.
func (s *Server) txStmt(b *batch, query string) (*sql.Stmt, error) {
	if ts, ok := b.stmts[query]; ok {
		return ts, nil
	}
	var ts *sql.Stmt
	if st, ok := s.stmts[query]; ok {
		ts = b.tx.Stmt(st)
	} else {
		var err error
		if ts, err = b.tx.Prepare(query); err != nil {
			return nil, err
		}
		if s.toPrepare == nil {
			s.toPrepare = map[string]bool{}
		}
		s.toPrepare[query] = true
	}
	if b.stmts == nil {
		b.stmts = map[string]*sql.Stmt{}
	}
	b.stmts[query] = ts
	return ts, nil
}

// prepareSeen prepares the statements the last batch ran unprepared:
// parsing SQL is a good part of a small write's cost, so each text is
// prepared once on the one writer connection, and later transactions reuse
// it. It runs between transactions (a statement is prepared on a free
// connection), under s.mu.
func (s *Server) prepareSeen() {
	for q := range s.toPrepare {
		st, err := s.db.w.Prepare(q)
		if err != nil {
			continue // it runs unprepared, and says why then
		}
		if s.stmts == nil {
			s.stmts = map[string]*sql.Stmt{}
		}
		s.stmts[q] = st
	}
	s.toPrepare = nil
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
		b := s.tx()
		if b.tx != nil {
			return batchReader{s: s, b: b}
		}
	}
	return &s.db.pool
}

// batchReader reads in the open batch's transaction with its prepared
// statements. Used under s.mu held for writing only.
type batchReader struct {
	s *Server
	b *batch
}

func (r batchReader) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	st, err := r.s.txStmt(r.b, query)
	if err != nil {
		return nil, err
	}
	return st.QueryContext(ctx, args...)
}

func (r batchReader) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	st, err := r.s.txStmt(r.b, query)
	if err != nil {
		return r.b.tx.QueryRowContext(ctx, query, args...) // reports the error
	}
	return st.QueryRowContext(ctx, args...)
}

// readPool reads on the read connections with statements prepared once
// per text (database/sql prepares them again on each connection as
// needed). Safe for concurrent readers.
type readPool struct {
	db    *sql.DB
	stmts sync.Map // query text → *sql.Stmt
}

func (p *readPool) stmt(ctx context.Context, query string) (*sql.Stmt, error) {
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

func (p *readPool) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	st, err := p.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	return st.QueryContext(ctx, args...)
}

func (p *readPool) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	st, err := p.stmt(ctx, query)
	if err != nil {
		return p.db.QueryRowContext(ctx, query, args...) // reports the error
	}
	return st.QueryRowContext(ctx, args...)
}
