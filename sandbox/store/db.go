package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"time"

	"modernc.org/libc"
	_ "modernc.org/sqlite" // the pure-Go SQLite driver, registered as "sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// The sandbox keeps its state in SQLite (modernc.org/sqlite, no cgo), the
// same schema and code for both modes:
//
//   - --state PATH: a file in WAL mode with synchronous=NORMAL. A commit is
//     in the WAL (the operating system's cache) before the request that made
//     it is answered, so an acknowledged write survives the sandbox being
//     killed (kill -9, a crash, a panic): the crash test proves it. It is not
//     fsynced at each commit, so a power loss or an operating-system crash
//     can lose the last commits (the file stays consistent: SQLite rolls the
//     WAL back to its last complete commit). FULL fsyncs every group commit
//     inside the write lock, which every other writer waits on, for a
//     power-loss guarantee a test sandbox does not need.
//   - default: a private in-memory database, gone with the process; no
//     file is ever created. It is SQLite's memdb VFS (a file kept in
//     memory, under a random name shared by the sandbox's own connections)
//     rather than a ":memory:"-style database: that one's pager keeps every
//     page in its cache, and a transaction that splits an index page (most
//     creations: the indexes are keyed on random ids) makes the commit scan
//     the whole cache, so each commit cost more the more the sandbox held.
//     memdb has no WAL: a reader cannot start while a write transaction is
//     open, so a reader that takes the store lock while a batch of writers
//     is open waits for its commit (see storeLock) and never meets one.
//     It keeps no rollback journal (journal_mode OFF): copying each page
//     before its first change in a transaction was about a tenth of a
//     creation's cost, and a rollback would protect nothing, since any
//     failed write stops the sandbox (errStoreFailed) and the memory goes
//     with the process. The one rollback made on purpose, a bulk fill's
//     template, turns the journal on for its transaction.
//
// One connection writes (SQLite has one writer); a small pool reads.

// database is the sandbox's handles on one SQLite database.
type database struct {
	w    *sql.DB   // the writer's pool: its one connection is held by wr
	wr   *writer   // every write goes through it
	r    *sql.DB   // readers
	ckpt *sql.DB   // the checkpointer's connection (files only), see checkpointLoop
	path string    // "" in memory
	pool stmtCache // r, with prepared statements
	// walFrames counts the frames (pages) commits appended to the WAL, as
	// the checkpoints saw them (files only; the benchmarks report it): a
	// measure, not an account (a WAL started over just before a tick is
	// counted once more).
	walFrames atomic.Int64
}

const readConns = 4

func dsnFor(path string) string {
	pragmas := "_pragma=foreign_keys(1)&_pragma=busy_timeout(10000)"
	if path == "" {
		return "file:/sandbox-" + randomName() + "?vfs=memdb&" + pragmas + "&_pragma=journal_mode(OFF)"
	}
	u := url.URL{Scheme: "file", Opaque: url.PathEscape(path)}
	// wal_autocheckpoint(0): the writer never copies the WAL back into the
	// file itself; checkpointLoop does, off the write lock.
	return u.String() + "?" + pragmas + "&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_pragma=wal_autocheckpoint(0)" +
		"&_pragma=journal_size_limit(" + strconv.Itoa(walSizeLimit) + ")"
}

// memdbLimit is how large the in-memory database may grow. memdb stops at
// 1 GiB by default, about 200,000 tickets, where a refused write would stop
// the sandbox; the limit is the machine's memory instead, as it is for
// everything else the sandbox keeps.
const memdbLimit = 1 << 40

// memdbLimitErr is why memdbLimit could not be set (nil when it was).
var memdbLimitErr = raiseMemdbLimit()

// raiseMemdbLimit sets memdbLimit for the process. SQLite takes it only
// before its first connection, so it runs when the package is loaded.
func raiseMemdbLimit() error {
	tls := libc.NewTLS()
	defer tls.Close()
	va := libc.NewVaList(int64(memdbLimit))
	if va == 0 {
		return errors.New("no memory for the argument")
	}
	defer libc.Xfree(tls, va)
	if rc := sqlite3.Xsqlite3_config(tls, sqlite3.SQLITE_CONFIG_MEMDB_MAXSIZE, va); rc != sqlite3.SQLITE_OK {
		return fmt.Errorf("sqlite3_config: code %d", rc)
	}
	return nil
}

func randomName() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// openDatabase opens (creating if need be) the database at path, or a new
// in-memory one for "", and brings its schema up to date.
func openDatabase(ctx context.Context, path string) (*database, error) {
	if path != "" {
		abs, err := filepath.Abs(path)
		if err != nil {
			return nil, err
		}
		path = abs
	}
	dsn := dsnFor(path)
	w, err := sql.Open("sqlite", dsn+"&_txlock=immediate")
	if err != nil {
		return nil, err
	}
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	w.SetConnMaxIdleTime(0)
	w.SetConnMaxLifetime(0)
	db := &database{w: w, path: path}
	// The first connection creates the file (or the in-memory database,
	// which lives while a connection to it is open: the writer's, kept).
	if err := w.PingContext(ctx); err != nil {
		w.Close()
		return nil, describeOpenError(path, err)
	}
	if err := migrate(ctx, w); err != nil {
		w.Close()
		return nil, describeOpenError(path, err)
	}
	wc, err := w.Conn(ctx)
	if err != nil {
		w.Close()
		return nil, describeOpenError(path, err)
	}
	db.wr = newWriter(wc)
	r, err := sql.Open("sqlite", dsn+"&_pragma=query_only(1)")
	if err != nil {
		db.wr.close()
		w.Close()
		return nil, err
	}
	r.SetMaxOpenConns(readConns)
	r.SetMaxIdleConns(readConns)
	r.SetConnMaxIdleTime(0)
	r.SetConnMaxLifetime(0)
	db.r = r
	db.pool.db = r
	if path != "" {
		c, err := sql.Open("sqlite", dsn)
		if err != nil {
			db.close()
			return nil, err
		}
		c.SetMaxOpenConns(1)
		db.ckpt = c
	}
	return db, nil
}

// CheckpointEvery is how often the WAL is copied back into the database
// file while the sandbox runs.
const CheckpointEvery = 250 * time.Millisecond

// WALTruncateAt is the size of the WAL file past which a checkpoint
// truncates it. Under a steady stream of commits a PASSIVE checkpoint never
// catches up with the writer (new frames are appended while it copies), so
// SQLite never starts the WAL over and the file grows without end (8
// writers for 25 s left 1.3 GB beside a 125 MB database). Past this size
// the checkpointer takes the store lock, commits the open batch and runs a
// TRUNCATE checkpoint: the frames PASSIVE already copied are not copied
// again, so the writers wait for the last ones and the truncation only
// (50–80 ms on the 2-core test machine, about once a second under 8
// writers). The WAL then peaks at this size plus what a tick appends
// (about 70 MB under 8 writers).
const WALTruncateAt = 48 << 20

// walSizeLimit is SQLite's journal_size_limit: a WAL that starts over is
// cut back to this size, should it have grown past it meanwhile.
const walSizeLimit = 8 << 20

// checkpointLoop copies committed WAL frames into the database file in the
// background (a PASSIVE checkpoint: it waits for no reader and no writer),
// so that the writer's commits, taken under the write lock, only append to
// the WAL. When the WAL file has grown past WALTruncateAt anyway, truncate
// (which holds the store lock) empties it. The sandbox's stop checkpoints
// what is left (closing the last connection does).
func (db *database) checkpointLoop(ctx context.Context, truncate func(context.Context) error) {
	if db.ckpt == nil {
		return
	}
	tick := time.NewTicker(CheckpointEvery)
	defer tick.Stop()
	var seen int64 // frames in the WAL at the last checkpoint
	var gen uint32 // the WAL's checkpoint sequence then: it changes when the WAL starts over
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			now := walGeneration(db.path)
			// A failure (a busy file) is retried at the next tick; the
			// WAL only grows meanwhile, and is still read correctly.
			var busy, frames, copied int64
			if err := db.ckpt.QueryRowContext(ctx, "PRAGMA wal_checkpoint(PASSIVE)").Scan(&busy, &frames, &copied); err != nil || frames < 0 {
				continue
			}
			if now != gen || frames < seen {
				db.walFrames.Add(frames) // started over since the last tick
			} else {
				db.walFrames.Add(frames - seen)
			}
			seen, gen = frames, now
			if fi, err := os.Stat(db.path + "-wal"); err == nil && fi.Size() > WALTruncateAt {
				if truncate(ctx) == nil {
					seen = 0 // the next frames are a new WAL's
				}
			}
		}
	}
}

// truncateWAL copies what is left of the WAL into the database file and
// empties the WAL. The caller holds the store lock for writing, with no
// batch open: no writer can append meanwhile, and the readers' snapshots
// end within their query (the busy timeout waits for them).
func (db *database) truncateWAL(ctx context.Context) error {
	var busy, frames, copied int64
	if err := db.ckpt.QueryRowContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)").Scan(&busy, &frames, &copied); err != nil {
		return err
	}
	if busy != 0 {
		return errors.New("the WAL is busy")
	}
	return nil
}

// walGeneration is the checkpoint sequence number in the WAL's header
// (bytes 12-15, big-endian), which SQLite bumps each time the WAL starts
// over; 0 when it cannot be read.
func walGeneration(path string) uint32 {
	f, err := os.Open(path + "-wal")
	if err != nil {
		return 0
	}
	defer f.Close()
	var h [16]byte
	if _, err := f.ReadAt(h[:], 0); err != nil {
		return 0
	}
	return binary.BigEndian.Uint32(h[12:16])
}

func (db *database) close() error {
	var err error
	if db.ckpt != nil {
		err = db.ckpt.Close()
	}
	if e := db.r.Close(); e != nil {
		err = e
	}
	if e := db.wr.close(); e != nil {
		err = e
	}
	if e := db.w.Close(); e != nil {
		err = e
	}
	return err
}

func describeOpenError(path string, err error) error {
	if path == "" {
		return fmt.Errorf("sandbox database: %w", err)
	}
	return fmt.Errorf("sandbox state %s: %w", path, err)
}

// sqliteMagic starts every SQLite database file.
const sqliteMagic = "SQLite format 3\x00"

// refuseNonDatabase keeps the sandbox from turning a file that is not a
// database (an old JSON state, a typo naming another file) into one.
func refuseNonDatabase(path string) error {
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("sandbox state %s: %w", path, err)
	}
	defer f.Close()
	head := make([]byte, len(sqliteMagic))
	n, _ := f.Read(head)
	if n == 0 {
		return nil // empty: a new database
	}
	if string(head[:n]) == sqliteMagic {
		return nil
	}
	if isLegacyState(path) {
		return errLegacyState(path)
	}
	return fmt.Errorf("sandbox state %s is not a sandbox database (SQLite); name another path or move the file away", path)
}
