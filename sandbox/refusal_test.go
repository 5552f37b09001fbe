package sandbox

import (
	"bytes"
	"crypto/rand"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A state refused at start is left byte for byte as it was: the refusal is
// made reading it, before anything opens it for writing.

// walStates makes a seeded state whose last writes are still in its WAL,
// as a sandbox killed while serving leaves it, and returns a maker of
// copies of it at fresh paths (seeding takes seconds under the race
// detector: it is done once).
func walStates(t *testing.T) func(t *testing.T) string {
	t.Helper()
	good := newStateFile(t)
	db, err := sql.Open("sqlite", "file:"+good+"?_pragma=journal_mode(WAL)&_pragma=wal_autocheckpoint(0)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	for range 20 {
		if _, err := db.Exec("INSERT OR REPLACE INTO meta (key, value) VALUES ('wal-test', hex(randomblob(64)))"); err != nil {
			t.Fatal(err)
		}
	}
	// Copied while the connection is open: the copy's WAL holds frames
	// no checkpoint copied into its database.
	var files [2][]byte
	for i, ext := range []string{"", "-wal"} {
		if files[i], err = os.ReadFile(good + ext); err != nil {
			t.Fatal(err)
		}
	}
	if len(files[1]) == 0 {
		t.Fatal("the WAL holds nothing")
	}
	return func(t *testing.T) string {
		t.Helper()
		path := filepath.Join(t.TempDir(), "state.db")
		for i, ext := range []string{"", "-wal"} {
			if err := os.WriteFile(path+ext, files[i], 0o600); err != nil {
				t.Fatal(err)
			}
		}
		return path
	}
}

// snapshot is the bytes of the state's database and WAL (nil: no file).
func snapshot(t *testing.T, path string) [2][]byte {
	t.Helper()
	var s [2][]byte
	for i, ext := range []string{"", "-wal"} {
		data, err := os.ReadFile(path + ext)
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		if err == nil && data == nil {
			data = []byte{}
		}
		s[i] = data
	}
	return s
}

// refusedUntouched starts a sandbox on path and wants it refused with a
// message holding want, and the files as they were.
func refusedUntouched(t *testing.T, path string, seed int64, want string) {
	t.Helper()
	before := snapshot(t, path)
	r, err := Start(Config{Seed: seed, StatePath: path}, "127.0.0.1:0")
	if err == nil {
		r.Close()
		t.Fatal("the state was served")
	}
	if !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), path) {
		t.Fatalf("the refusal does not name the problem (%q) and the file: %v", want, err)
	}
	after := snapshot(t, path)
	for i, name := range []string{"database", "WAL"} {
		if (before[i] == nil) != (after[i] == nil) || !bytes.Equal(before[i], after[i]) {
			t.Errorf("the refused %s was changed: %d bytes before, %d after (present %v → %v)", name, len(before[i]), len(after[i]), before[i] != nil, after[i] != nil)
		}
	}
}

func TestRefusedStateIsLeftAsItWas(t *testing.T) {
	t.Parallel()
	stateWithWAL := walStates(t)
	t.Run("the state with its WAL is served", func(t *testing.T) {
		// The positive case the others are held against.
		path := stateWithWAL(t)
		r, err := Start(Config{Seed: 5, StatePath: path}, "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		r.Close()
	})
	t.Run("empty database beside a WAL", func(t *testing.T) {
		path := stateWithWAL(t)
		if err := os.Truncate(path, 0); err != nil {
			t.Fatal(err)
		}
		refusedUntouched(t, path, 5, "is empty (0 bytes) while its WAL")
	})
	t.Run("no database beside a WAL", func(t *testing.T) {
		path := stateWithWAL(t)
		if err := os.Remove(path); err != nil {
			t.Fatal(err)
		}
		refusedUntouched(t, path, 5, "does not exist while its WAL")
	})
	t.Run("garbage WAL", func(t *testing.T) {
		path := stateWithWAL(t)
		fi, _ := os.Stat(path + "-wal")
		junk := make([]byte, fi.Size())
		rand.Read(junk)
		if err := os.WriteFile(path+"-wal", junk, 0o600); err != nil {
			t.Fatal(err)
		}
		refusedUntouched(t, path, 5, "not start as a SQLite WAL")
	})
	t.Run("garbage in the database", func(t *testing.T) {
		path := stateWithWAL(t)
		f, err := os.OpenFile(path, os.O_RDWR, 0)
		if err != nil {
			t.Fatal(err)
		}
		fi, _ := f.Stat()
		junk := make([]byte, 64<<10)
		rand.Read(junk)
		if _, err := f.WriteAt(junk, fi.Size()/2); err != nil {
			t.Fatal(err)
		}
		f.Close()
		refusedUntouched(t, path, 5, "is refused")
	})
	t.Run("another seed", func(t *testing.T) {
		refusedUntouched(t, stateWithWAL(t), 6, "--seed 5")
	})
}

// A state the sandbox cannot write is refused at start with the reason,
// not found by the first write after it said it was listening.
func TestUnwritableStateIsRefusedAtStart(t *testing.T) {
	t.Parallel()
	stateWithWAL := walStates(t)
	t.Run("read-only", func(t *testing.T) {
		path := stateWithWAL(t)
		dir := filepath.Dir(path)
		if os.Geteuid() == 0 {
			// Permissions do not hold root back: a read-only mount
			// does.
			ro := t.TempDir()
			if err := syscall.Mount(dir, ro, "", syscall.MS_BIND, ""); err != nil {
				t.Skipf("cannot bind-mount as root: %v", err)
			}
			t.Cleanup(func() { syscall.Unmount(ro, 0) })
			if err := syscall.Mount("", ro, "", syscall.MS_BIND|syscall.MS_REMOUNT|syscall.MS_RDONLY, ""); err != nil {
				t.Skipf("cannot make a read-only mount: %v", err)
			}
			path = filepath.Join(ro, filepath.Base(path))
		} else {
			for _, p := range []string{path, path + "-wal"} {
				if err := os.Chmod(p, 0o400); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.Chmod(dir, 0o500); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.Chmod(dir, 0o700) })
		}
		refusedUntouched(t, path, 5, "cannot be written")
	})
	t.Run("disk full", func(t *testing.T) {
		if os.Geteuid() != 0 {
			t.Skip("a full disk is made with a small tmpfs, which needs root")
		}
		src := stateWithWAL(t)
		full := t.TempDir()
		if err := syscall.Mount("tmpfs", full, "tmpfs", 0, "size=16m"); err != nil {
			t.Skipf("cannot mount a tmpfs: %v", err)
		}
		t.Cleanup(func() { syscall.Unmount(full, 0) })
		path := filepath.Join(full, "state.db")
		for _, ext := range []string{"", "-wal"} {
			data, err := os.ReadFile(src + ext)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path+ext, data, 0o600); err != nil {
				t.Fatalf("the state does not fit the 16 MB tmpfs: %v", err)
			}
		}
		// Fill what is left.
		f, err := os.Create(filepath.Join(full, "filler"))
		if err != nil {
			t.Fatal(err)
		}
		for {
			if _, err := f.Write(make([]byte, 64<<10)); err != nil {
				if !errors.Is(err, syscall.ENOSPC) {
					t.Fatal(err)
				}
				break
			}
		}
		f.Close()
		refusedUntouched(t, path, 5, "no space left")
	})
}
