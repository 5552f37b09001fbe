package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
)

// paidTickets lists the main account's PAID tickets straight from the
// sandbox.
func paidTickets(t *testing.T, c *api.Client) []api.Ticket {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var out []api.Ticket
	for tk, err := range api.All(ctx, func(ctx context.Context, cursor string) (api.Page[api.Ticket], error) {
		return c.ListTickets(ctx, api.TicketFilter{Status: "PAID", Cursor: cursor})
	}) {
		if err != nil {
			t.Fatalf("list PAID tickets: %v", err)
		}
		out = append(out, tk)
	}
	return out
}

var allLoadedRe = regexp.MustCompile(`all (\d+) loaded`)

// moreRe reads the rows loaded so far while more pages remain.
var moreRe = regexp.MustCompile(`(\d+) loaded · more available`)

// TestE2ETicketsFilterPageDetail: an operator filters PAID tickets, pages
// to the end and reads the count, and opens a ticket (the export is
// TestE2ETicketsExportEverythingAndG's).
func TestE2ETicketsFilterPageDetail(t *testing.T) {
	sb, creds := startSandbox(t)
	want := paidTickets(t, clientAs(t, sb, "operator"))
	if len(want) <= 50 {
		t.Fatalf("the demo data has %d PAID tickets; paging needs more than one page", len(want))
	}
	tm := openAs(t, creds, "operator")
	tm.Send("3")
	tm.WaitFor("50 loaded · more available", 10*time.Second)

	// Filter on PAID in the filter form (typing q here is text, not quit).
	filterStatus(tm, "tickets", "PAID")
	tm.WaitFor("loaded", 10*time.Second)

	// Page to the end: each G goes to the last loaded row, which fetches
	// the next page; the next G waits until that page is on screen.
	loaded := 0
	var screen string
	for {
		screen = tm.WaitUntil(fmt.Sprintf("more than %d tickets loaded", loaded), 10*time.Second, func(s string) bool {
			if allLoadedRe.MatchString(s) {
				return true
			}
			m := moreRe.FindStringSubmatch(s)
			if m == nil {
				return false
			}
			n, _ := strconv.Atoi(m[1])
			return n > loaded
		})
		if allLoadedRe.MatchString(screen) {
			break
		}
		loaded, _ = strconv.Atoi(moreRe.FindStringSubmatch(screen)[1])
		tm.Send("G")
	}
	m := allLoadedRe.FindStringSubmatch(screen)
	// Live tickets of the demo data may get paid meanwhile: the count must
	// lie between what the service listed before and after.
	after := paidTickets(t, clientAs(t, sb, "operator"))
	n, _ := strconv.Atoi(m[1])
	if n < min(len(want), len(after)) || n > max(len(want), len(after)) {
		t.Fatalf("the screen says all %d loaded; the sandbox had %d then %d PAID tickets:\n%s", n, len(want), len(after), screen)
	}
	for _, st := range []string{"UNPAID", "PENDING", "ON-HOLD", "PROCESSING", "FAILED", "PARTIAL-FAILED", "CANCELED"} {
		if strings.Contains(screen, " "+st+" ") {
			t.Fatalf("a %s ticket is listed under status=PAID:\n%s", st, screen)
		}
	}

	// Open the newest one.
	tm.Send("g")
	tm.Send("Enter")
	tm.WaitFor("Ticket ", 10*time.Second)
	detail := tm.WaitFor("✓ PAID", 10*time.Second)
	for _, block := range []string{"Quote", "Fees"} {
		if !strings.Contains(detail, block) {
			t.Fatalf("detail lacks the %s block:\n%s", block, detail)
		}
	}
	// Its receipt lands where exports go (the state directory's exports
	// when no export_dir is set), and the pane says where.
	tm.Send("d")
	tm.WaitFor("Receipt saved", 10*time.Second)
	receipts, _ := filepath.Glob(filepath.Join(tm.State, "exports", "ticket-*.pdf"))
	if len(receipts) != 1 {
		t.Fatalf("receipts in %s: %v", tm.State, receipts)
	}
	if pdf, err := os.ReadFile(receipts[0]); err != nil || !strings.HasPrefix(string(pdf), "%PDF") {
		t.Fatalf("the receipt %s is not a PDF: %v", receipts[0], err)
	}
	tm.Send("Escape")
	tm.WaitFor("all "+m[1]+" loaded", 5*time.Second)
}

// TestE2ETicketCommandOpensOne: ":ticket ID" opens that ticket's detail.
func TestE2ETicketCommandOpensOne(t *testing.T) {
	sb, creds := startSandbox(t)
	paid := paidTickets(t, clientAs(t, sb, "operator"))
	target := paid[len(paid)-1] // the oldest: not on the first page
	tm := openAs(t, creds, "operator")
	tm.Send(":")
	tm.Type("ticket " + target.ID.String())
	tm.Send("Enter")
	tm.WaitFor("Ticket "+target.ID.String(), 10*time.Second)
	tm.WaitFor("Fees", 5*time.Second)
	tm.Send("G") // the timeline ends the pane
	tm.WaitFor("Timeline", 5*time.Second)

	tm.Send("Escape")
	tm.WaitGone("Ticket "+target.ID.String(), 5*time.Second) // a lone Escape, not alt+:
	tm.Send(":")
	tm.Type("ticket " + uuid.NewString())
	tm.Send("Enter")
	tm.WaitFor("was not found", 10*time.Second)
}

var settlementRe = regexp.MustCompile(`Ticket\s+([0-9a-f-]{36})\s+\(t opens it\)`)

// TestE2ETradeJumpsToItsSettlementTicket: a settled end-of-day trade leads
// to the ticket that settled it.
func TestE2ETradeJumpsToItsSettlementTicket(t *testing.T) {
	_, creds := startSandbox(t)
	tm := openAs(t, creds, "operator")
	tm.Send("7")
	tm.WaitFor("loaded", 10*time.Second)
	filterStatus(tm, "trades", "SETTLED")
	tm.WaitFor("all ", 10*time.Second)
	tm.Send("Enter")
	screen := tm.WaitFor("(t opens it)", 5*time.Second)
	m := settlementRe.FindStringSubmatch(screen)
	if m == nil {
		t.Fatalf("no settlement ticket id on the trade:\n%s", screen)
	}
	tm.Send("t")
	tm.WaitFor("Ticket "+m[1], 10*time.Second*patience())
	tm.WaitFor("Quote", 10*time.Second*patience())
}

// filterStatus filters the list on screen (tickets, trades) to one status
// through its filter form, and waits until the list says it is filtered.
func filterStatus(tm *Term, list, status string) {
	tm.Send("f")
	tm.WaitFor("Filter "+list, 5*time.Second)
	tm.Type(status)
	tm.Send("Enter")
	tm.WaitFor("status="+status, 5*time.Second)
}
