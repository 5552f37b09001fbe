// Package journal keeps the local journal of write actions: one JSON line
// per action the user took against the service (time, who acted, account,
// endpoint, ids, amounts, outcome). It never records a secret.
//
// Who acted, and in which environment, is set once per journal (SetActor,
// when the session opens and again when the access info names its e-mail)
// and stamped on every entry that does not name it itself, so the screens,
// commands and the payment core that record writes need not know it. Ids are written under one vocabulary (ticketId, operationId,
// externalId, ...): the short keys older callers used are renamed on the
// way in (see idKeys).
//
// The file is append-only, readable by its owner only (0600 in a 0700
// directory), and each entry is written with a single write call so that a
// crash never leaves half an entry in the middle of the file.
package journal

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// FileName is the name of the journal file inside its directory.
const FileName = "journal.jsonl"

// Entry is one journal line.
type Entry struct {
	Time time.Time `json:"time"`
	// Profile is the profile acted through or, without one, "demo:" and
	// the demo access's name (the sandbox's operator, approver1, ...).
	Profile string `json:"profile"`
	// Email is the access's e-mail: who acted, as the service knows them.
	Email    string            `json:"email"`
	Env      string            `json:"env"`
	Account  string            `json:"account"` // account id, "main" for the main account
	Action   string            `json:"action"`  // e.g. "create-ticket", "approve-operation"
	Endpoint string            `json:"endpoint"`
	IDs      map[string]string `json:"ids,omitempty"`
	Amounts  map[string]string `json:"amounts,omitempty"`
	Outcome  string            `json:"outcome"` // "created", "parked", "approved", "error: ..."
}

// Actor is who acts in a session: the profile (or, without one, the demo
// access acted as), the access's e-mail and the environment acted in
// ("sandbox" or "production").
type Actor struct {
	Profile    string
	DemoAccess string
	Email      string
	Env        string
}

// profile is the Entry.Profile the actor gives.
func (a Actor) profile() string {
	if a.Profile == "" && a.DemoAccess != "" {
		return "demo:" + a.DemoAccess
	}
	return a.Profile
}

// Journal appends entries to a JSON-lines file. A nil *Journal records
// nothing, so callers without a state directory need no special case.
type Journal struct {
	path  string
	mu    sync.Mutex
	now   func() time.Time
	actor Actor // under mu
}

// SetActor names who acts from now on; the fields left empty keep their
// earlier value (the e-mail often arrives after the profile). Safe for
// concurrent use; a nil journal ignores it.
func (j *Journal) SetActor(a Actor) {
	if j == nil {
		return
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	if a.Profile != "" || a.DemoAccess != "" {
		j.actor.Profile, j.actor.DemoAccess = a.Profile, a.DemoAccess
	}
	if a.Email != "" {
		j.actor.Email = a.Email
	}
	if a.Env != "" {
		j.actor.Env = a.Env
	}
}

// idKeys renames the id keys callers have used to the journal's one
// vocabulary, so that a ticket is "ticketId" on every line whoever wrote it.
var idKeys = map[string]string{
	"ticket":      "ticketId",
	"ticketID":    "ticketId",
	"operation":   "operationId",
	"operationID": "operationId",
	"externalID":  "externalId",
	"external_id": "externalId",
}

// canonicalIDs returns ids with idKeys applied (a new map: the caller's is
// not changed). When both spellings are present the canonical one wins.
func canonicalIDs(ids map[string]string) map[string]string {
	if len(ids) == 0 {
		return ids
	}
	out := make(map[string]string, len(ids))
	for k, v := range ids {
		if c, ok := idKeys[k]; ok {
			if _, both := ids[c]; both {
				continue
			}
			k = c
		}
		out[k] = v
	}
	return out
}

// Open prepares the journal in dir: the directory is created with mode 0700
// and the file journal.jsonl with mode 0600 if they do not exist. An existing
// file readable by others is narrowed to 0600.
func Open(dir string) (*Journal, error) {
	if dir == "" {
		return nil, errors.New("journal: no directory given: set a state directory")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("journal: create directory %s: %w", dir, err)
	}
	path := filepath.Join(dir, FileName)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("journal: open %s: %w (check the directory permissions)", path, err)
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.Mode().Perm()&0o077 != 0 {
		if err := f.Chmod(0o600); err != nil {
			return nil, fmt.Errorf("journal: %s is readable by others and cannot be restricted: %w", path, err)
		}
	}
	return &Journal{path: path, now: time.Now}, nil
}

// Path is the journal file's path ("" for a nil journal).
func (j *Journal) Path() string {
	if j == nil {
		return ""
	}
	return j.path
}

// Record appends e as one JSON line. A zero Time is set to now, an empty
// Profile, Email or Env to the actor's, and the id keys to their canonical
// names. It is safe for concurrent use; a nil journal does nothing.
func (j *Journal) Record(e Entry) error {
	if j == nil {
		return nil
	}
	if e.Time.IsZero() {
		e.Time = j.now()
	}
	e.Time = e.Time.UTC()
	e.IDs = canonicalIDs(e.IDs)

	j.mu.Lock()
	defer j.mu.Unlock()
	if e.Profile == "" {
		e.Profile = j.actor.profile()
	}
	if e.Email == "" {
		e.Email = j.actor.Email
	}
	if e.Env == "" {
		e.Env = j.actor.Env
	}
	line, err := json.Marshal(e)
	if err != nil {
		return fmt.Errorf("journal: encode entry: %w", err)
	}
	line = append(line, '\n')
	// Opening per entry keeps no descriptor alive between actions and
	// survives the file being rotated or removed by the operator.
	f, err := os.OpenFile(j.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("journal: open %s: %w", j.path, err)
	}
	if _, err := f.Write(line); err != nil {
		f.Close()
		return fmt.Errorf("journal: write %s: %w", j.path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("journal: write %s: %w", j.path, err)
	}
	return nil
}

// ReadFile reads every entry of a journal file, oldest first. A missing file
// is an empty journal. A malformed line is reported with its number; a
// truncated last line (an interrupted write) is skipped.
func ReadFile(path string) ([]Entry, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("journal: read %s: %w", path, err)
	}
	var out []Entry
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), len(data)+1)
	n := 0
	for sc.Scan() {
		n++
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var e Entry
		if err := json.Unmarshal(line, &e); err != nil {
			last := !bytes.HasSuffix(data, []byte("\n")) && n == bytes.Count(data, []byte("\n"))+1
			if last {
				break
			}
			return out, fmt.Errorf("journal: %s line %d is not a journal entry: %w", path, n, err)
		}
		out = append(out, e)
	}
	if err := sc.Err(); err != nil {
		return out, fmt.Errorf("journal: read %s: %w", path, err)
	}
	return out, nil
}
