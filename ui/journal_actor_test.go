package ui

import (
	"context"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/tesouro-treasury/tesouro/journal"
)

// The journal names who acted without the screens telling it: the demo
// access from the options when there is no profile, the e-mail from the
// access info once it has loaded (over the one the connection claimed),
// and the account the write was made on. Read back from the file.
func TestJournalLinesNameTheActor(t *testing.T) {
	j, err := journal.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{t: t, fake: newFake()}
	h.fake.access.Email = "approver1@acme-treasury.example"
	h.newRoot(Options{Env: EnvSandbox, Embedded: true, Journal: j, DemoAccess: "approver1", Connect: func(ctx context.Context) (*Connection, error) {
		return &Connection{Client: h.fake, Email: "claimed@demo.test", Screens: overviewOnly()}, nil
	}})
	h.send(tea.WindowSizeMsg{Width: 100, Height: 32})
	h.run(h.root.Init())
	s := h.root.Session()
	if s == nil || s.Access == nil {
		t.Fatal("the access info did not load")
	}
	e := s.JournalEntry(betaID, "approve-operation", "POST /v2/multi-sig/operations/{id}/approve")
	e.IDs = map[string]string{"operation": "op-9"}
	if err := s.Journal.Record(e); err != nil {
		t.Fatal(err)
	}
	got, err := journal.ReadFile(j.Path())
	if err != nil || len(got) != 1 {
		t.Fatalf("journal: %v, %v", got, err)
	}
	l := got[0]
	if l.Profile != "demo:approver1" || l.Email != "approver1@acme-treasury.example" || l.Account != betaID.String() || l.IDs["operationId"] != "op-9" {
		t.Errorf("line = %+v", l)
	}
}
