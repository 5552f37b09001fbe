package sandbox

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
)

// storeLock is Server.mu: a read-write lock whose write side is also the
// database transaction. Lock starts nothing; the first write under it
// (s.tx) begins a transaction on the writer connection. Unlock commits
// before it returns, so a handler that replies after its deferred Unlock
// replies only after its writes are on disk (ack after commit).
//
// Group commit: a committing writer lets the writers already queued on the
// lock add their statements to the same transaction first, then commits
// them all with one fsync and wakes them; each still returns from Unlock
// only after the commit that holds its writes.
type storeLock struct {
	rw       sync.RWMutex
	s        *Server
	commitMu sync.Mutex // one committer at a time
}

// batch is one open transaction and the writers waiting on its commit.
type batch struct {
	tx   *sql.Tx
	err  error // the first failed statement; the batch is then rolled back
	done chan struct{}
	cerr error // the commit's outcome, set before done is closed
}

func (l *storeLock) RLock()   { l.rw.RLock() }
func (l *storeLock) RUnlock() { l.rw.RUnlock() }
func (l *storeLock) Lock()    { l.rw.Lock() }

// Unlock releases the lock and, when the holder wrote, returns once its
// writes are committed.
func (l *storeLock) Unlock() {
	s := l.s
	b := s.cur
	if b == nil {
		l.rw.Unlock()
		return
	}
	l.rw.Unlock()
	l.commit(b)
}

func (l *storeLock) commit(b *batch) {
	s := l.s
	l.commitMu.Lock()
	defer l.commitMu.Unlock()
	select {
	case <-b.done: // committed by another writer of the batch
		return
	default:
	}
	l.rw.Lock()
	// Queued writers have joined b by now (b is still s.cur: only a commit
	// ends a batch); new ones start the next batch.
	err := s.flushRecords(b)
	s.cur = nil
	if err == nil {
		err = b.err
	}
	if err == nil {
		err = b.tx.Commit()
	} else {
		_ = b.tx.Rollback()
	}
	if err != nil {
		s.failStore(err)
	}
	b.cerr = err
	close(b.done)
	l.rw.Unlock()
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
	e := fmt.Errorf("%w: %v", errStoreFailed, err)
	s.storeErr.CompareAndSwap(nil, &e)
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
// one is open (read-your-writes), the read pool otherwise.
func (s *Server) reader(writing bool) querier {
	if writing {
		b := s.tx()
		if b.tx != nil {
			return b.tx
		}
	}
	return s.db.r
}
