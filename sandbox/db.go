package sandbox

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"path/filepath"

	_ "modernc.org/sqlite" // the pure-Go SQLite driver, registered as "sqlite"
)

// The sandbox keeps its state in SQLite (modernc.org/sqlite, no cgo), the
// same schema and code for both modes:
//
//   - --state PATH: a file in WAL mode with synchronous=FULL. Every commit
//     is fsynced before the request that made it is answered, so an
//     acknowledged write survives a kill -9 and also a power loss.
//     NORMAL would survive a process kill (the WAL is in the OS cache) but
//     could lose the last commits on power loss; the sandbox runs for days
//     on laptops that sleep and lose power, and with group commit (txn.go)
//     NORMAL measured only about 15% more creations per second than FULL,
//     so FULL is worth it.
//   - default: a private in-memory database (shared cache between the
//     sandbox's own connections, under a random name), gone with the
//     process; no file is ever created.
//
// One connection writes (SQLite has one writer); a small pool reads.

// database is the sandbox's two handles on one SQLite database.
type database struct {
	w    *sql.DB // one connection: every write goes through it
	r    *sql.DB // readers
	path string  // "" in memory
}

const readConns = 4

func dsnFor(path string) string {
	pragmas := "_pragma=foreign_keys(1)&_pragma=busy_timeout(10000)"
	if path == "" {
		return "file:sandbox-" + randomName() + "?mode=memory&cache=shared&" + pragmas + "&_pragma=read_uncommitted(1)"
	}
	u := url.URL{Scheme: "file", Opaque: url.PathEscape(path)}
	return u.String() + "?" + pragmas + "&_pragma=journal_mode(WAL)&_pragma=synchronous(FULL)"
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
		if err := refuseNonDatabase(path); err != nil {
			return nil, err
		}
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
	r, err := sql.Open("sqlite", dsn+"&_pragma=query_only(1)")
	if err != nil {
		w.Close()
		return nil, err
	}
	r.SetMaxOpenConns(readConns)
	r.SetMaxIdleConns(readConns)
	r.SetConnMaxIdleTime(0)
	r.SetConnMaxLifetime(0)
	db.r = r
	return db, nil
}

func (db *database) close() error {
	err := db.r.Close()
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
