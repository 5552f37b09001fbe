package store

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
)

// Start-up reads a state file before anything opens it for writing. A
// writing connection is not harmless on a file that is then refused:
// SQLite deletes the WAL of a database file that is empty, moves a WAL's
// frames into the database when its last connection closes, and brings an
// older schema forward. So every refusal is made read-only, and a refused
// state is left byte for byte as it was:
//
//   - preflight looks at the files alone: a database file that is missing
//     or empty while its WAL holds data is refused (SQLite would delete
//     that WAL, and every write in it, and start afresh); so is a file
//     that is not a SQLite database, a WAL whose header is not a SQLite
//     WAL's, and a state the sandbox could not write (a read-only file or
//     directory, a full disk), which would otherwise be found only by the
//     first write, after the sandbox said it was listening;
//   - checkReadOnly then opens the database read-only and runs the checks
//     of check.go against the seed.

// writeProbe is how much the preflight writes beside the state (and
// deletes) to find a full disk before serving.
const writeProbe = 1 << 20

// preflight checks the files of the state at path (absolute) without
// opening them with SQLite.
func preflight(path string) error {
	db, dbErr := os.Stat(path)
	if dbErr != nil && !os.IsNotExist(dbErr) {
		return fmt.Errorf("sandbox state %s: %w", path, dbErr)
	}
	var walSize int64
	if wal, err := os.Stat(path + "-wal"); err == nil {
		walSize = wal.Size()
	} else if !os.IsNotExist(err) {
		return fmt.Errorf("sandbox state %s: %w", path, err)
	}
	if walSize > 0 && (dbErr != nil || db.Size() == 0) {
		what := "is empty (0 bytes)"
		if dbErr != nil {
			what = "does not exist"
		}
		return fmt.Errorf("sandbox state %s is refused: the database file %s while its WAL %s-wal holds %d bytes of writes; "+
			"starting would delete them. Restore the database file beside its WAL, or move both away to start afresh", path, what, path, walSize)
	}
	if dbErr == nil && db.Size() > 0 {
		if err := refuseNonDatabase(path); err != nil {
			return err
		}
	}
	if walSize > 0 {
		if err := checkWALHeader(path + "-wal"); err != nil {
			return fmt.Errorf("sandbox state %s is refused: its WAL %s-wal %v; it may hold acknowledged writes, so it is left as it is (move it away with the database to start afresh)", path, path, err)
		}
	}
	return checkWritable(path)
}

// checkWALHeader checks the 32-byte header SQLite writes at the start of
// every WAL: the magic number, the format version and its checksum. SQLite
// itself takes a WAL with a bad header for an empty one, and deletes it.
func checkWALHeader(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("cannot be read: %w", err)
	}
	defer f.Close()
	var h [32]byte
	if n, err := io.ReadFull(f, h[:]); err != nil {
		return fmt.Errorf("is %d bytes, shorter than a WAL's header: it is not a SQLite WAL", n)
	}
	magic := binary.BigEndian.Uint32(h[0:4])
	if magic&^1 != 0x377f0682 {
		return errors.New("does not start as a SQLite WAL does (bad magic number): it is damaged or another file")
	}
	if v := binary.BigEndian.Uint32(h[4:8]); v != 3007000 {
		return fmt.Errorf("has WAL format %d, not 3007000: it is damaged or another file", v)
	}
	var order binary.ByteOrder = binary.LittleEndian
	if magic&1 == 1 {
		order = binary.BigEndian
	}
	var s0, s1 uint32
	for i := 0; i < 24; i += 8 {
		s0 += order.Uint32(h[i:]) + s1
		s1 += order.Uint32(h[i+4:]) + s0
	}
	if s0 != binary.BigEndian.Uint32(h[24:28]) || s1 != binary.BigEndian.Uint32(h[28:32]) {
		return errors.New("has a header whose checksum does not match: it is damaged")
	}
	return nil
}

// checkWritable refuses a state the sandbox could not write: the files
// that exist must open for writing, and the directory must take a new
// file (SQLite creates the -wal and -shm files there) and writeProbe bytes
// (a full disk).
func checkWritable(path string) error {
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		f, err := os.OpenFile(p, os.O_RDWR, 0)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			return fmt.Errorf("sandbox state %s cannot be written: %w; give the sandbox write access to it, or name another path", path, err)
		}
		f.Close()
	}
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".probe-*")
	if err != nil {
		return fmt.Errorf("sandbox state %s cannot be written: its directory does not take a new file (%w), and the sandbox keeps its -wal and -shm files there", path, err)
	}
	defer os.Remove(f.Name())
	defer f.Close()
	if _, err := f.Write(make([]byte, writeProbe)); err != nil {
		return fmt.Errorf("sandbox state %s cannot be written: %w; free some space on its disk, or name another path", path, err)
	}
	return nil
}

// verdict is what checkReadOnly found, for Verify.
type verdict struct {
	seed    int64
	checked bool // the checks ran (not for an older schema: Verify runs them once it is brought forward)
	empty   bool
	whole   bool // the whole file was read
}

// checkReadOnly opens the database at path (absolute, through preflight)
// read-only and runs the checks of check.go for seed. A -wal or -shm file
// SQLite creates for the read-only connection is removed after it.
func checkReadOnly(ctx context.Context, path string, seed int64) (verdict, error) {
	v := verdict{seed: seed, checked: true, whole: true}
	created := func(p string) bool { _, err := os.Stat(p); return os.IsNotExist(err) }
	newWAL, newSHM := created(path+"-wal"), created(path+"-shm")
	if created(path) {
		v.empty = true
		return v, nil // a new state: nothing to read
	}
	u := url.URL{Scheme: "file", Opaque: url.PathEscape(path)}
	db, err := sql.Open("sqlite", u.String()+"?mode=ro&_pragma=busy_timeout(10000)&_pragma=query_only(1)")
	if err != nil {
		return v, err
	}
	db.SetMaxOpenConns(1)
	err = func() error {
		var version int
		if err := db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
			return err
		}
		switch {
		case version > len(migrations):
			return fmt.Errorf("the database has schema version %d, this sandbox knows up to %d; use a newer tesouro", version, len(migrations))
		case version == 0:
			v.empty = true // a SQLite file with no schema yet
			return nil
		case version < len(migrations):
			// An older schema: the checks read the newest one, so
			// they run once it is brought forward (Verify). The
			// seed is read now.
			s, ok, err := metaValue(ctx, db, "seed")
			if err == nil && ok && s != fmt.Sprint(seed) {
				err = fmt.Errorf("it was made with --seed %s; start with that seed or name another path", s)
			}
			v.checked = false
			return err
		}
		size, err := databaseSize(ctx, db)
		if err != nil {
			return err
		}
		v.whole = size <= syncCheckLimit
		v.empty, err = checkDatabase(ctx, db, seed, v.whole)
		return err
	}()
	if cerr := db.Close(); err == nil && cerr != nil {
		err = cerr
	}
	if newWAL {
		if fi, e := os.Stat(path + "-wal"); e == nil && fi.Size() == 0 {
			os.Remove(path + "-wal")
		}
	}
	if newSHM {
		os.Remove(path + "-shm")
	}
	if err != nil {
		return v, describeCheckError(path, err)
	}
	return v, nil
}
