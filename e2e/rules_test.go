package e2e

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tesouro-treasury/tesouro/journal"
)

// TestE2ESubAccountNotFoundAndBlacklistedInTheSwitcher: the restricted demo
// access asks for a sub-account that does not exist: the header says it
// was not found (not "resolving…" for ever) and the body says why; the
// switcher then lists the sub-account it is blacklisted from, disabled,
// by its id alone (the service names it to no barred access), and
// refuses it.
func TestE2ESubAccountNotFoundAndBlacklistedInTheSwitcher(t *testing.T) {
	r, creds := startSandbox(t)
	sul := ""
	for _, s := range r.Creds.SubAccounts {
		if s.Name == "Acme Sul" {
			sul = s.ID
		}
	}
	tm := startTUI(t, "--credentials", creds, "--as", "restricted", "--sub-account", "Nope")
	screen := tm.WaitFor("Nope (not found)", 15*time.Second)
	if !strings.Contains(screen, `no account named "Nope"`) || strings.Contains(screen, "resolving") {
		t.Fatalf("the failed lookup is not told:\n%s", screen)
	}
	tm.Send("S")
	screen = tm.WaitFor("Operate which account?", 5*time.Second)
	line := ""
	for _, l := range strings.Split(screen, "\n") {
		if strings.Contains(l, sul[:20]) {
			line = l
		}
	}
	if !strings.Contains(line, "blacklisted") || strings.Contains(screen, "Acme Sul") {
		t.Fatalf("the blacklisted sub-account %s is not shown disabled by its id alone:\n%s", sul, screen)
	}
	tm.Send("Escape")
	tm.WaitGone("Operate which account?", 5*time.Second)
	tm.Send(":")
	tm.Type("sub " + sul)
	tm.Send("Enter")
	tm.WaitFor(sul+" cannot be operated: this access is blacklisted from it", 5*time.Second)
}

// TestE2EJournalNamesTheActor: a write made as a demo access (no profile)
// is journalled with the demo access's name, the access's e-mail and the
// account, under the journal's id keys.
func TestE2EJournalNamesTheActor(t *testing.T) {
	_, tm := unacknowledgedAttempts(t, "operator")
	tm.Send("a")
	tm.WaitFor("Acknowledge 1 attempt?", 5*time.Second)
	tm.Send("y")
	tm.WaitFor("Acknowledged 1 webhook attempt", 10*time.Second)

	es, err := journal.ReadFile(filepath.Join(tm.State, "journal.jsonl"))
	if err != nil || len(es) != 1 {
		t.Fatalf("journal: %d entries, %v", len(es), err)
	}
	e := es[0]
	if e.Profile != "demo:operator" || e.Email != "operator@acme-treasury.example" || e.Account != "main" || e.Action != "acknowledge-webhook-attempts" {
		t.Errorf("journal line = %+v", e)
	}
}
