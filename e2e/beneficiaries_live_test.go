package e2e

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestE2EBeneficiariesLive: as operator, a EUR account with a wrong IBAN is
// refused on the IBAN before anything is sent, then the corrected one is
// registered and listed; a PIX key nobody holds is said so on its field,
// and a known key shows its holder (name, masked tax id, bank) under the
// field as typed and in the confirmation before it is saved.
func TestE2EBeneficiariesLive(t *testing.T) {
	_, tm := openBeneficiaries(t)

	// EUR is the fifth tab: two to the left from the first.
	tm.Send("Left")
	tm.WaitFor("[ARS", 5*time.Second)
	tm.Send("Left")
	// The demo has a few SEPA payees of its own; the new one is one more.
	s := tm.WaitFor("[EUR ", 5*time.Second)
	m := regexp.MustCompile(`\[EUR (\d+)\]`).FindStringSubmatch(s)
	if m == nil {
		t.Fatalf("no EUR count on the tab:\n%s", s)
	}
	demo, _ := strconv.Atoi(m[1])
	if demo < 2 {
		t.Fatalf("the demo lists %d EUR accounts, want its SEPA payees:\n%s", demo, s)
	}
	tm.Send("n")
	tm.WaitFor("New EUR bank account", 5*time.Second)
	tm.Type("E2E Lieferant")
	tm.Send("Tab")
	tm.Type("Muster GmbH")
	tm.Send("Tab")
	tm.Type("DE89 3704 0044 0532 0130 01") // last digit wrong
	tm.Send("C-s")
	s = tm.WaitFor("check digits do not match", 5*time.Second)
	if !strings.Contains(s, "› IBAN") || strings.Contains(s, "[EUR") {
		t.Fatalf("the wrong IBAN is not refused on its field:\n%s", s)
	}
	tm.Send("BSpace")
	tm.Type("0")
	tm.WaitFor("check digits verified (DEU)", 5*time.Second)
	s = saveConfirmed(tm)
	if !strings.Contains(s, "PERMANENT") {
		t.Fatalf("the save of an EUR account does not say it is permanent:\n%s", s)
	}
	s = tm.WaitFor(fmt.Sprintf("[EUR %d]", demo+1), 10*time.Second)
	if !strings.Contains(s, "E2E Lieferant") || !strings.Contains(s, "DE89 3704 0044 0532 0130 00") || !strings.Contains(s, "DEU") {
		t.Fatalf("the corrected EUR account is not listed:\n%s", s)
	}
	var actions []string
	for _, e := range readJournal(t, tm) {
		actions = append(actions, e.Action+" "+e.Outcome)
	}
	if strings.Join(actions, ",") != "create-beneficiary-eur created" {
		t.Fatalf("journal = %v, want one EUR creation (the refused form is never sent)", actions)
	}

	// BRL, by PIX key: three to the left.
	tm.Send("Left", "Left", "Left")
	tm.WaitFor("[BRL", 5*time.Second)
	tm.Send("n")
	tm.WaitFor("New BRL beneficiary", 5*time.Second)
	tm.Type("E2E Pix")
	tm.Send("Tab", "Tab")
	tm.Type("ninguem@unknown.example")
	tm.Send("C-s")
	s = tm.WaitFor("no holder for this key", 10*time.Second)
	if !strings.Contains(s, "› PIX key") {
		t.Fatalf("the unknown key is not said on its field:\n%s", s)
	}
	tm.Send("C-u")
	tm.Type("529.982.247-25")
	// The holder shows under the key as soon as typing pauses.
	s = tm.WaitFor("Holder: ", 10*time.Second)
	if !strings.Contains(s, " · ***.982.247-** · ") {
		t.Fatalf("the holder is not under the key:\n%s", s)
	}
	tm.Send("C-s")
	s = tm.WaitFor("Save the PIX key of", 10*time.Second)
	for _, want := range []string{"PIX key 52998224725", "Holder: ", " · ***.982.247-** · ", `"E2E Pix"`} {
		if !strings.Contains(s, want) {
			t.Fatalf("the holder confirmation lacks %q:\n%s", want, s)
		}
	}
	tm.Send("y")
	s = tm.WaitFor("[BRL 3]", 10*time.Second)
	if !strings.Contains(s, "E2E Pix") || !strings.Contains(s, "52998224725") {
		t.Fatalf("the PIX key is not listed after yes:\n%s", s)
	}
}

// TestE2EWebhookEditAndEvents: as operator, the registered webhook also
// subscribes to KYC after a confirmation (read back from the service), and
// the events tab lists the account's ticket events.
func TestE2EWebhookEditAndEvents(t *testing.T) {
	sb, creds := startSandbox(t)
	tm := openAs(t, creds, "operator")
	tm.Send("9")
	tm.WaitFor("Registered webhooks (1", 10*time.Second)
	tm.Send("e")
	tm.WaitFor("Edit webhook", 5*time.Second)
	tm.Send("Tab", "Tab", "Tab") // URL, all events, TICKET, to KYC
	tm.WaitFor("› KYC", 5*time.Second)
	tm.Send("Right")
	tm.Send("C-s")
	s := tm.WaitFor("Change this webhook?", 5*time.Second)
	if !strings.Contains(s, "TICKET → TICKET, KYC") {
		t.Fatalf("the confirmation does not say what changes:\n%s", s)
	}
	tm.Send("y")
	tm.WaitFor("now sends TICKET, KYC", 10*time.Second)
	tm.WaitFor("[TICKET, KYC]", 10*time.Second)

	c := clientAs(t, sb, "operator")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	hooks, err := c.ListWebhooks(ctx)
	if err != nil || len(hooks) != 1 || strings.Join(hooks[0].Subscriptions, ",") != "TICKET,KYC" {
		t.Fatalf("the service has %+v (%v)", hooks, err)
	}

	tm.Send("Right")
	tm.WaitFor("[Events]", 5*time.Second)
	s = tm.WaitFor("TICKET-CREATED", 10*time.Second)
	if !strings.Contains(s, "loaded") {
		t.Fatalf("the events tab:\n%s", s)
	}
}
