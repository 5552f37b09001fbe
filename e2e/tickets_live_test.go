package e2e

import (
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/export"
	"github.com/tesouro-treasury/tesouro/export/exporttest"
)

// TestE2ETicketsCancelUnpaid: an operator opens an UNPAID ticket, cancels
// it after the confirmation, and sees it CANCELED with the service's
// TICKET-CANCELED event in its timeline; the service agrees.
func TestE2ETicketsCancelUnpaid(t *testing.T) {
	sb, creds := startSandbox(t)
	c := clientAs(t, sb, "operator")
	p, err := c.ListTickets(t.Context(), api.TicketFilter{Status: "UNPAID"})
	if err != nil || len(p.Items) == 0 {
		t.Fatalf("no UNPAID ticket in the demo data: %v", err)
	}
	target := p.Items[0]
	tm := openAs(t, creds, "operator")
	tm.Send(":")
	tm.Type("ticket " + target.ID.String())
	tm.Send("Enter")
	tm.WaitFor("Ticket "+target.ID.String(), 10*time.Second)
	tm.WaitFor("UNPAID (live)", 10*time.Second)

	tm.Send("c")
	tm.WaitFor("Cancel this UNPAID ticket?", 5*time.Second)
	if got, _ := c.GetTicket(t.Context(), uuid.Nil, target.ID); got.Status != api.TicketUnpaid {
		t.Fatalf("the ticket is %s before the confirmation was answered", got.Status)
	}
	tm.Send("y")
	tm.WaitFor("Ticket "+target.ID.String()[:8]+" CANCELED", 10*time.Second)
	tm.WaitFor("CANCELED", 5*time.Second)
	// The events end the pane; they are read again after the cancel and
	// may land after a G, so G is pressed again until they show.
	var lastG time.Time
	tm.WaitUntil(`"TICKET-CANCELED" at the end of the pane`, 10*time.Second, func(s string) bool {
		if strings.Contains(s, "TICKET-CANCELED") {
			return true
		}
		if time.Since(lastG) > 500*time.Millisecond {
			tm.Send("G")
			lastG = time.Now()
		}
		return false
	})
	if got, err := c.GetTicket(t.Context(), uuid.Nil, target.ID); err != nil || got.Status != api.TicketCanceled {
		t.Fatalf("the service has the ticket %v (%v)", got.Status, err)
	}

	// A second c is not offered: the ticket is no longer UNPAID.
	tm.Send("c")
	time.Sleep(300 * time.Millisecond)
	if strings.Contains(tm.Screen(), "Cancel this UNPAID ticket?") {
		t.Fatal("cancel offered again on a CANCELED ticket")
	}
}

// TestE2ETicketsExportEverythingAndG: e writes every PAID ticket the
// service lists (not just the first page loaded) to export_dir, named after
// the account, under the fixed columns; G then loads the list to its end
// with one key.
func TestE2ETicketsExportEverythingAndG(t *testing.T) {
	sb, creds := startSandbox(t)
	c := clientAs(t, sb, "operator")
	before := paidTickets(t, c)
	if len(before) <= 100 {
		t.Fatalf("the demo data has %d PAID tickets; the export needs several pages", len(before))
	}
	dir := filepath.Join(t.TempDir(), "exports")
	tm := startTUIExporting(t, dir, creds, "operator", defaultWidth, defaultHeight)
	tm.Send("3")
	tm.WaitFor("50 loaded · more available", 10*time.Second)
	filterStatus(tm, "tickets", "PAID")
	tm.WaitFor("50 loaded · more available", 10*time.Second)

	tm.Send("e")
	screen := tm.WaitFor("tickets to ", 20*time.Second)
	after := paidTickets(t, c)
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	hidden, _ := filepath.Glob(filepath.Join(dir, ".*"))
	if len(files) != 1 || len(hidden) != 0 || !strings.HasPrefix(filepath.Base(files[0]), "tesouro-tickets-") {
		t.Fatalf("export directory holds %v and %v:\n%s", files, hidden, screen)
	}
	rows := exporttest.Read(t, files[0])
	if !slices.Equal(rows[0], export.TicketColumns) {
		t.Fatalf("header %v", rows[0])
	}
	n := len(rows) - 1
	if n < min(len(before), len(after)) || n > max(len(before), len(after)) {
		t.Fatalf("%d rows exported; the sandbox had %d then %d PAID tickets", n, len(before), len(after))
	}
	st, acct := slices.Index(export.TicketColumns, "status"), slices.Index(export.TicketColumns, "account_name")
	for _, r := range rows[1:] {
		if r[st] != "PAID" || r[acct] == "" {
			t.Fatalf("row %v: not PAID or no account name", r)
		}
	}
	tm.WaitFor("exported "+strconv.Itoa(n)+" tickets to ", 5*time.Second)

	// One G loads the rest of the list.
	tm.Send("G")
	tm.WaitUntil("every PAID ticket loaded", 20*time.Second, func(s string) bool {
		m := allLoadedRe.FindStringSubmatch(s)
		if m == nil {
			return false
		}
		got, _ := strconv.Atoi(m[1])
		return got >= n
	})
}
