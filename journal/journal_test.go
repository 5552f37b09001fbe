package journal

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestOpenPermissions(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state", "tesouro")
	j, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if j.Path() != filepath.Join(dir, FileName) {
		t.Fatalf("Path() = %q", j.Path())
	}
	st, err := os.Stat(dir)
	if err != nil || st.Mode().Perm() != 0o700 {
		t.Fatalf("directory mode = %v, %v; want 0700", st.Mode().Perm(), err)
	}
	st, err = os.Stat(j.Path())
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("file mode = %v, %v; want 0600", st.Mode().Perm(), err)
	}
}

func TestOpenNarrowsExistingFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, FileName)
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(dir); err != nil {
		t.Fatal(err)
	}
	st, _ := os.Stat(path)
	if st.Mode().Perm() != 0o600 {
		t.Fatalf("existing journal left at %v, want 0600", st.Mode().Perm())
	}
}

func TestOpenRefusesEmptyDir(t *testing.T) {
	if _, err := Open(""); err == nil {
		t.Fatal("Open(\"\") succeeded")
	}
}

func TestRecordAndRead(t *testing.T) {
	j, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 7, 1, 12, 30, 0, 0, time.FixedZone("BRT", -3*3600))
	first := Entry{
		Time: at, Profile: "prod", Env: "production", Account: "main",
		Action: "create-ticket", Endpoint: "POST /v2/account/tickets/",
		IDs:     map[string]string{"ticketId": "t-1", "externalId": "e-1"},
		Amounts: map[string]string{"input": "100.00 BRL", "output": "18.123456 USDC"},
		Outcome: "created",
	}
	if err := j.Record(first); err != nil {
		t.Fatal(err)
	}
	before := time.Now()
	if err := j.Record(Entry{Action: "approve-operation", Outcome: "error: 409 already approved"}); err != nil {
		t.Fatal(err)
	}
	got, err := ReadFile(j.Path())
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("read %d entries, want 2", len(got))
	}
	if !got[0].Time.Equal(at) || got[0].IDs["ticketId"] != "t-1" || got[0].Amounts["output"] != "18.123456 USDC" || got[0].Outcome != "created" {
		t.Errorf("first entry = %+v", got[0])
	}
	if got[1].Time.Before(before.Add(-time.Second)) || got[1].Outcome != "error: 409 already approved" {
		t.Errorf("second entry = %+v (zero time must become now)", got[1])
	}
	data, _ := os.ReadFile(j.Path())
	if lines := strings.Count(string(data), "\n"); lines != 2 {
		t.Errorf("file has %d lines, want one per entry:\n%s", lines, data)
	}

	// Reopening appends; it never truncates what is there.
	j2, err := Open(filepath.Dir(j.Path()))
	if err != nil {
		t.Fatal(err)
	}
	if err := j2.Record(Entry{Action: "reject-operation", Outcome: "rejected"}); err != nil {
		t.Fatal(err)
	}
	if got, _ := ReadFile(j.Path()); len(got) != 3 || got[0].Action != "create-ticket" {
		t.Fatalf("after reopen: %d entries, first %+v", len(got), got)
	}
}

func TestConcurrentRecord(t *testing.T) {
	j, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	const writers, each = 20, 50
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				if err := j.Record(Entry{Action: "create-ticket", IDs: map[string]string{"n": fmt.Sprintf("%d-%d", w, i)}, Outcome: strings.Repeat("x", 500)}); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	got, err := ReadFile(j.Path())
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, e := range got {
		seen[e.IDs["n"]] = true
	}
	if len(got) != writers*each || len(seen) != writers*each {
		t.Fatalf("%d entries, %d distinct; want %d: writes were lost or interleaved", len(got), len(seen), writers*each)
	}
}

func TestNilJournal(t *testing.T) {
	var j *Journal
	if err := j.Record(Entry{Action: "create-ticket"}); err != nil {
		t.Fatalf("nil journal Record = %v", err)
	}
	if j.Path() != "" {
		t.Fatalf("nil journal Path = %q", j.Path())
	}
}

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	if got, err := ReadFile(filepath.Join(dir, "missing.jsonl")); err != nil || got != nil {
		t.Fatalf("missing file: %v, %v", got, err)
	}
	good := `{"time":"2026-07-01T12:00:00Z","action":"a","outcome":"created"}`
	// An interrupted write leaves a partial last line: it is skipped.
	p := filepath.Join(dir, "partial.jsonl")
	os.WriteFile(p, []byte(good+"\n"+good+"\n"+`{"time":"2026-07-`), 0o600)
	if got, err := ReadFile(p); err != nil || len(got) != 2 {
		t.Fatalf("partial last line: %d entries, %v", len(got), err)
	}
	// Damage in the middle is reported with the line number.
	p = filepath.Join(dir, "bad.jsonl")
	os.WriteFile(p, []byte(good+"\nnot json\n"+good+"\n"), 0o600)
	got, err := ReadFile(p)
	if err == nil || !strings.Contains(err.Error(), "line 2") || len(got) != 1 {
		t.Fatalf("damaged line: %d entries, %v", len(got), err)
	}
	// Blank lines are ignored.
	p = filepath.Join(dir, "blank.jsonl")
	os.WriteFile(p, []byte("\n"+good+"\n\n"), 0o600)
	if got, err := ReadFile(p); err != nil || len(got) != 1 {
		t.Fatalf("blank lines: %d entries, %v", len(got), err)
	}
}

// Who acted is set once and stamped on every line that does not name it;
// the e-mail may arrive after the profile; ids are written under one
// vocabulary whatever key the caller used. Read back from the file.
func TestLinesNameWhoActedAndUseOneIDVocabulary(t *testing.T) {
	j, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Record(Entry{Action: "before-actor"}); err != nil {
		t.Fatal(err)
	}
	j.SetActor(Actor{DemoAccess: "approver1"})
	j.SetActor(Actor{Email: "approver1@acme-treasury.example"})
	callerIDs := map[string]string{"operation": "op-1", "externalID": "ext-1", "row": "3"}
	for _, e := range []Entry{
		{Action: "approve-operation", Account: "main", IDs: callerIDs},
		{Action: "batch-payout", IDs: map[string]string{"ticket": "tk-1", "ticketId": "tk-2"}},
		{Action: "own-profile", Profile: "treasury-prod", Email: "someone@else.example"},
	} {
		if err := j.Record(e); err != nil {
			t.Fatal(err)
		}
	}
	j.SetActor(Actor{Profile: "treasury"}) // the e-mail stays
	if err := j.Record(Entry{Action: "after-profile", IDs: map[string]string{"ticketId": "tk-3"}}); err != nil {
		t.Fatal(err)
	}

	got, err := ReadFile(j.Path())
	if err != nil || len(got) != 5 {
		t.Fatalf("read %d entries, %v", len(got), err)
	}
	want := []struct{ profile, email string }{
		{"", ""},
		{"demo:approver1", "approver1@acme-treasury.example"},
		{"demo:approver1", "approver1@acme-treasury.example"},
		{"treasury-prod", "someone@else.example"},
		{"treasury", "approver1@acme-treasury.example"},
	}
	for i, w := range want {
		if got[i].Profile != w.profile || got[i].Email != w.email {
			t.Errorf("line %d (%s): profile %q email %q, want %q %q", i+1, got[i].Action, got[i].Profile, got[i].Email, w.profile, w.email)
		}
	}
	if ids := got[1].IDs; ids["operationId"] != "op-1" || ids["externalId"] != "ext-1" || ids["row"] != "3" || len(ids) != 3 {
		t.Errorf("ids written as %v", ids)
	}
	if ids := got[2].IDs; ids["ticketId"] != "tk-2" || len(ids) != 1 {
		t.Errorf("both spellings: %v, want the canonical one kept", ids)
	}
	if _, renamed := callerIDs["operationId"]; renamed || len(callerIDs) != 3 {
		t.Errorf("the caller's map was changed: %v", callerIDs)
	}
	raw, _ := os.ReadFile(j.Path())
	if !strings.Contains(string(raw), `"email":"approver1@acme-treasury.example"`) || !strings.Contains(string(raw), `"operationId":"op-1"`) {
		t.Errorf("file lacks the keys as written:\n%s", raw)
	}
}
