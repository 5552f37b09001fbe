package ui

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// wrote is the value of a write's result in these tests.
type wrote struct{ ticket string }

func (w wrote) Report(err error) string {
	if err != nil {
		return "the ticket was not created: " + err.Error()
	}
	return "ticket " + w.ticket + " created"
}

// TestSwitchEndsTheSessionAndReportsItsWrites: an account switch ends the
// old session's context (its reads stop), a write under way goes on to its
// end, and its outcome is told against the account it was made on, while
// an old read's answer is dropped unseen.
func TestSwitchEndsTheSessionAndReportsItsWrites(t *testing.T) {
	h := newHarness(t, nil)
	old := h.root.Session()
	release := make(chan struct{})
	readDone := make(chan tea.Msg, 1)
	writeDone := make(chan tea.Msg, 1)
	_, read := Call(old, time.Minute, func(ctx context.Context) (string, error) {
		<-ctx.Done()
		return "", ctx.Err()
	})
	var slot Slot
	write := Settle(old, &slot, time.Minute, func(ctx context.Context) (wrote, error) {
		<-release
		return wrote{ticket: "T-1"}, ctx.Err()
	})
	go func() { readDone <- read() }()
	go func() { writeDone <- write() }()

	h.send(SwitchAccountMsg{Account: Account{ID: betaID, Name: "Beta Individual"}})
	if h.root.Session() == old {
		t.Fatal("not switched")
	}
	select {
	case msg := <-readDone:
		if r := msg.(Result[string]); !errors.Is(r.Err, context.Canceled) {
			t.Fatalf("the old session's read ended with %v, want its context cancelled", r.Err)
		}
		h.send(msg)
	case <-time.After(10 * time.Second):
		t.Fatal("the switch did not stop the old session's read")
	}
	if v := plain(h.view()); strings.Contains(v, "before the switch") {
		t.Fatalf("an old read was reported:\n%s", v)
	}

	close(release)
	msg := <-writeDone
	if r := msg.(Result[wrote]); r.Err != nil {
		t.Fatalf("the write was cut short by the switch: %v", r.Err)
	}
	h.send(msg)
	if v := plain(h.view()); !strings.Contains(v, "Tesouro Demo Ltda (before the switch): ticket T-1 created") {
		t.Fatalf("the write's outcome is not told against its account:\n%s", v)
	}
	if !WaitWrites(time.Second) {
		t.Fatal("a settled write is still counted")
	}
}

// TestSwitchQuestionSaysWhatEachFlowBecomes: the question before a switch
// names each busy screen with what the switch does to its flow.
func TestSwitchQuestionSaysWhatEachFlowBecomes(t *testing.T) {
	h := newHarness(t, nil)
	h.key("3", "2")
	h.screen("quote").busy = true
	h.screen("tickets").busy = true
	h.screen("tickets").stopping = "the export stops; nothing is saved"
	h.send(SwitchAccountMsg{Account: Account{ID: betaID, Name: "Beta Individual"}})
	v := plain(h.view())
	for _, want := range []string{"Switch to Beta Individual?", "Switching ends the work of Tesouro Demo Ltda (main):",
		"Quote: the flow under way is dropped: it belongs to this account", "Tickets: the export stops; nothing is saved"} {
		if !strings.Contains(v, want) {
			t.Errorf("the question lacks %q:\n%s", want, v)
		}
	}
}
