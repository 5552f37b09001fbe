package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// The lock of a Store is a read-write lock whose write side is also the
// database transaction. Lock starts nothing; the first write under it
// begins a transaction on the writer connection. Unlock returns only once
// that transaction committed, so a request that answers after its
// Unlock answers only after its writes are on disk (ack after commit).
//
// Group commit: a writer that unlocks while other writers are queued on the
// lock leaves the transaction open for them and waits; the last of the
// queue (or the one that makes the batch maxBatch long) commits them all
// with one fsync, and every one of them returns after that commit.
//
// A writer that finds no one queued but other write requests in flight
// (still reading their body, verifying their signature: see WriteBegun)
// also leaves the transaction open, for at most commitWindow: they join it
// rather than each paying a commit of their own (the commit, the WAL
// frames of the index pages they share). A lone writer commits at once, so
// a single client waits for nothing.
//
// In memory the queue is batched the same way, but a batch never waits
// for requests still in flight: a commit there writes nothing to disk and
// costs little more than its BEGIN. The memdb database refuses a reader
// while a write transaction is open, so a reader that takes the lock
// between two writers of a batch lets it go, waits for the commit and
// takes it again (RLock); while one waits, the next writer commits
// instead of passing the batch on.

// maxBatch bounds a group commit, so that under a steady stream of writers
// the first of a batch still gets its answer soon.
const maxBatch = 64

// commitWindow is how long a batch stays open for write requests in
// flight: it bounds what a writer's answer waits on others. A request in
// flight on a shared machine (its body read, its signature verified) takes
// a millisecond or more to reach the lock; at 500 µs most left before it
// came, and 8 clients on a file stored 26 WAL pages a ticket instead of 24.
const commitWindow = 2 * time.Millisecond

// batch is one open transaction and the writers waiting on its commit.
type batch struct {
	tx      *writer // nil when the transaction could not begin
	err     error   // the first failed statement; the batch is then rolled back
	writers int
	// afterCommit runs once the batch is committed (the webhook posts its
	// events cause: a receiver never hears of a write a crash could undo).
	afterCommit []func()
	done        chan struct{}
	cerr        error // the commit's outcome, set before done is closed
}

// RLock takes the lock for reading, once no batch is open (in memory).
func (s *Store) RLock() {
	waited := false
	for {
		s.rw.RLock()
		b := s.open.Load()
		if b == nil {
			if waited {
				s.readersWaiting.Add(-1)
			}
			return
		}
		s.rw.RUnlock()
		if !waited {
			s.readersWaiting.Add(1)
			waited = true
		}
		<-b.done
	}
}

// RUnlock releases the lock taken by RLock.
func (s *Store) RUnlock() { s.rw.RUnlock() }

// Lock takes the lock for writing.
func (s *Store) Lock() {
	s.waiting.Add(1)
	s.rw.Lock()
	s.waiting.Add(-1)
}

// Unlock releases the lock and, when a transaction is open, returns once it
// is committed.
func (s *Store) Unlock() {
	b := s.cur
	if b == nil {
		s.rw.Unlock()
		return
	}
	b.writers++
	memory := s.db.path == ""
	if b.writers >= maxBatch || memory && (s.waiting.Load() == 0 || s.readersWaiting.Load() > 0) {
		s.commitLocked(b)
		s.rw.Unlock()
		return
	}
	if s.waiting.Load() > 0 {
		if memory {
			s.open.Store(b)
		}
		s.rw.Unlock() // the next of the queue carries the batch on
		<-b.done
		return
	}
	// Write requests in flight that are not in this batch yet: the
	// batch's writers are requests still in flight (the lifecycle's
	// writes, not counted there, only make the batch commit sooner).
	if s.inflight.Load() <= int32(b.writers) {
		s.commitLocked(b)
		s.rw.Unlock()
		return
	}
	s.rw.Unlock()
	t := time.NewTimer(commitWindow)
	select {
	case <-b.done: // a later writer committed the batch
		t.Stop()
		return
	case <-t.C:
	}
	s.rw.Lock()
	if s.cur == b {
		s.commitLocked(b)
	}
	s.rw.Unlock()
	<-b.done
}

// WriteBegun counts a write request from its first byte, WriteEnded once
// it is answered: a batch stays open for the ones in flight (Unlock).
func (s *Store) WriteBegun() { s.inflight.Add(1) }

// WriteEnded is the end of a write request counted by WriteBegun.
func (s *Store) WriteEnded() { s.inflight.Add(-1) }

// flush commits the open batch, if any, now (the store's close).
func (s *Store) flush() {
	s.rw.Lock()
	if b := s.cur; b != nil {
		s.commitLocked(b)
	}
	s.rw.Unlock()
}

// commitLocked ends the batch: it commits (or rolls back after a failed
// statement, which stops the store). The caller holds the lock for
// writing.
func (s *Store) commitLocked(b *batch) {
	s.cur = nil
	err := b.err
	if b.tx != nil {
		if err == nil {
			err = b.tx.commit()
		}
		if err != nil {
			_ = b.tx.rollback()
		}
	}
	if err != nil {
		s.Refuse(fmt.Errorf("%w: %v", ErrStopped, err))
	} else {
		for _, f := range b.afterCommit {
			f()
		}
	}
	s.commits.Add(1)
	s.committed.Add(int64(b.writers))
	b.cerr = err
	s.open.Store(nil)
	close(b.done)
}

// tx is the open write transaction, begun on first use. The caller holds
// the lock for writing.
func (s *Store) tx() *batch {
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

// Fail fails the open transaction (beginning one if need be): its commit
// rolls it back and stops the store. The caller holds the lock for
// writing and has changed in memory what it could not store.
func (s *Store) Fail(err error) {
	if b := s.tx(); b.err == nil {
		b.err = err
	}
}

// AfterCommit runs f once the open transaction is committed, never if it
// fails. The caller holds the lock for writing.
func (s *Store) AfterCommit(f func()) {
	b := s.tx()
	b.afterCommit = append(b.afterCommit, f)
}

// exec runs a write statement in the open transaction. A failure is kept
// and fails the whole batch: the caller's view in memory already changed,
// so the store stops serving rather than answer from a state it cannot
// keep.
func (s *Store) exec(query string, args ...any) {
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

// ErrStopped is what every request gets once a commit failed.
var ErrStopped = errors.New("the sandbox could not save a change and stopped; restart it (acknowledged writes are safe)")

// Refuse makes the store's Failed report err from now on (the first
// reason given stays).
func (s *Store) Refuse(err error) {
	s.failure.CompareAndSwap(nil, &err)
}

// Failed is why the store stopped, or nil: once a commit failed, what is
// in memory is not what is stored, and nothing may be answered from it.
func (s *Store) Failed() error {
	if p := s.failure.Load(); p != nil {
		return *p
	}
	return nil
}

// Commits counts the group commits and the writers they carried (the
// benchmarks report writers per commit).
func (s *Store) Commits() (commits, writers int64) {
	return s.commits.Load(), s.committed.Load()
}

// querier is what reads need: the read pool, or the open write
// transaction when the reader is also writing (to see its own writes).
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// reader is the handle for reads under the lock: the write transaction
// when writing (read-your-writes), the read pool otherwise. Either
// prepares each query text once.
func (s *Store) reader(writing bool) querier {
	if writing {
		if b := s.tx(); b.tx != nil {
			return b.tx
		}
	}
	return &s.db.pool
}
