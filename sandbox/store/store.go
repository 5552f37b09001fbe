// Package store owns the sandbox's SQLite database: its schema and the
// steps that bring an older file forward (schema.go), the checks a file
// passes before it is served (check.go), the lock whose write side is the
// transaction and the group commit (lock.go), the indexes every list is
// served from, and the rows of each table, read and written through typed
// methods (tickets.go, ledger.go, records.go, load.go). No SQL is written
// outside this package, and nothing here knows HTTP or the service's
// rules: a refusal a request may get is the rules' to make, not the
// store's. Its errors are ErrStopped (a commit failed) and the reasons a
// file is refused at start.
//
// The lock also guards what the store's user keeps in memory beside the
// rows (the accounts and their small collections): a write under it is
// one transaction, which Unlock commits before it returns.
package store

import (
	"context"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
)

// Store is one open database and its lock.
type Store struct {
	db *database

	// The lock (lock.go).
	rw      sync.RWMutex
	waiting atomic.Int32 // writers queued in Lock
	// open is the batch left open between two writers, in memory only.
	open atomic.Pointer[batch]
	// readersWaiting counts the readers waiting for open to commit.
	readersWaiting atomic.Int32
	cur            *batch // the open write transaction, under the lock
	// inflight counts the write requests being served: a batch stays open
	// for them (Unlock).
	inflight atomic.Int32
	// commits and committed count the group commits and the writers they
	// carried.
	commits, committed atomic.Int64
	// failure is set when a commit failed or the file was found damaged.
	failure atomic.Pointer[error]

	// pre is what the read-only check before opening found (OpenFor).
	pre *verdict

	// checked is closed once the whole file was checked (at once, or in
	// the background for a big file).
	checked chan struct{}

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	once   sync.Once
}

// Open opens (creating if need be) the database at path, or a new private
// in-memory one for "", and brings its schema up to date. A file is
// refused first, untouched, when it could not be written or its files do
// not go together (preflight.go); what it holds is checked by Verify.
func Open(path string) (*Store, error) { return open(path, nil) }

// OpenFor is Open for a sandbox of seed: a file is checked read-only
// (preflight.go, then the checks of Verify) before it is opened for
// writing, so that a refused file is left byte for byte as it was.
func OpenFor(path string, seed int64) (*Store, error) { return open(path, &seed) }

func open(path string, seed *int64) (*Store, error) {
	ctx, cancel := context.WithCancel(context.Background())
	var pre *verdict
	if path != "" {
		abs, err := filepath.Abs(path)
		if err == nil {
			err = preflight(abs)
		}
		if err == nil && seed != nil {
			var v verdict
			if v, err = checkReadOnly(ctx, abs, *seed); err == nil {
				pre = &v
			}
		}
		if err != nil {
			cancel()
			return nil, err
		}
	}
	db, err := openDatabase(ctx, path)
	if err != nil {
		cancel()
		return nil, err
	}
	s := &Store{db: db, ctx: ctx, cancel: cancel, checked: make(chan struct{}), pre: pre}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		db.checkpointLoop(ctx, s.truncateWAL)
	}()
	return s, nil
}

// truncateWAL empties the WAL under the store lock (see WALTruncateAt):
// the open batch, if any, is committed first, as the store's close does.
func (s *Store) truncateWAL(ctx context.Context) error {
	s.Lock()
	defer s.rw.Unlock()
	if b := s.cur; b != nil {
		s.commitLocked(b)
	}
	return s.db.truncateWAL(ctx)
}

// Verify checks the database before it is served and reports whether it
// is still empty (never seeded with seed). A file larger than
// syncCheckLimit is read whole in the background, at the lowest priority,
// and the store refuses everything if that fails; Checked is closed once
// the whole file was read.
func (s *Store) Verify(seed int64) (empty bool, err error) {
	path := s.db.path
	var whole bool
	if p := s.pre; p != nil && p.checked && p.seed == seed {
		// Checked read-only before the file was opened for writing.
		empty, whole = p.empty, p.whole
	} else {
		size, err := databaseSize(s.ctx, s.db.r)
		if err != nil {
			return false, describeCheckError(path, err)
		}
		whole = size <= syncCheckLimit
		empty, err = checkDatabase(s.ctx, s.db.r, seed, whole)
		if err != nil {
			return false, describeCheckError(path, err)
		}
	}
	if whole {
		close(s.checked)
		return empty, nil
	}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		defer close(s.checked)
		// Seconds of reading the whole file: on a thread of its own at
		// the lowest priority, so that requests served meanwhile get the
		// cores and the disk first.
		runtime.LockOSThread()
		lowerThreadPriority()
		if err := wholeFileCheck(s.ctx, s.db.r); err != nil && s.ctx.Err() == nil {
			s.Refuse(describeCheckError(path, err))
		}
	}()
	return empty, nil
}

// Checked is closed once the whole file was checked.
func (s *Store) Checked() <-chan struct{} { return s.checked }

// InMemory reports whether the database is the private in-memory one.
func (s *Store) InMemory() bool { return s.db.path == "" }

// Close stops the background work, commits the open batch and closes the
// database (every acknowledged write is already committed). The store's
// users stop writing first.
func (s *Store) Close() error {
	var err error
	s.once.Do(func() {
		s.cancel()
		s.wg.Wait()
		s.flush()
		err = s.db.close()
	})
	return err
}

// Consistency checks, over the whole ledger, that every balance is the sum
// of its moves and that each move's balance after it is the running sum,
// and names each disagreement. It reads every move: a check for tests and
// tools, not for start-up.
func (s *Store) Consistency(ctx context.Context) ([]string, error) {
	return consistencyErrors(ctx, s.db.r)
}

// WALFrames is the number of frames (pages) commits appended to the WAL,
// as the checkpoints saw them (files only; the benchmarks report it).
func (s *Store) WALFrames() int64 { return s.db.walFrames.Load() }

// JournalMode is the writer's rollback journal mode now ("off" in memory,
// "wal" for a file).
func (s *Store) JournalMode() (string, error) {
	s.Lock()
	defer s.Unlock()
	var m string
	err := s.db.wr.QueryRowContext(s.ctx, "PRAGMA journal_mode").Scan(&m)
	return m, err
}
