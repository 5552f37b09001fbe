package tickets

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/export"
	"github.com/tesouro-treasury/tesouro/export/exporttest"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/ui/screentest"
)

var mainID, subID = uuid.New(), uuid.New()

// startIn starts the browser on a sub-account of "ACME Ltda", its exports
// going to a directory of the test's.
func startIn(t *testing.T, svc *fakeService) (*Model, string) {
	t.Helper()
	s := newSession(t, svc)
	s.Account = ui.Account{ID: subID, Name: "Filial SP"}
	s.Accounts = []api.Account{{ID: mainID, Name: "ACME Ltda"}, {ID: subID, Name: "Filial SP", MainAccountID: mainID.String()}}
	m := New(s, svc).(*Model)
	dir := t.TempDir()
	m.exportDir = func() (string, error) { return dir, nil }
	m.SetSize(120, 30)
	run(t, m, m.Init())
	return m, dir
}

// step runs one command by hand and gives the screen its message: the
// export's pages come one at a time, so the screen can be looked at
// between two of them.
func step(t *testing.T, m *Model, cmd tea.Cmd) tea.Cmd {
	t.Helper()
	if cmd == nil {
		t.Fatal("no command to run")
	}
	_, next := m.Update(cmd())
	return next
}

// e exports every ticket the filter matches, not the one page loaded:
// three pages are fetched with a progress line, and the file, named after
// the account and sub-account, holds every row under the fixed columns.
func TestExportWritesEveryMatchingTicketPageByPage(t *testing.T) {
	svc := &fakeService{tickets: makeTickets(130)}
	svc.tickets[0].ExternalID = "=HYPERLINK(\"http://evil\")"
	m, dir := startIn(t, svc)
	if m.list.Len() != 50 {
		t.Fatalf("%d loaded before the export", m.list.Len())
	}
	_, cmd := m.Update(screentest.KeyPress("e"))
	cmd = step(t, m, cmd)
	mustContain(t, screen(m), "exporting: 50 tickets, 1 pages so far · esc stops")
	cmd = step(t, m, cmd)
	mustContain(t, screen(m), "exporting: 100 tickets, 2 pages so far")
	out := run(t, m, cmd)
	if ts := toasts(out); len(ts) != 1 || !strings.Contains(ts[0], "Exported 130 tickets to ") {
		t.Fatalf("toasts %v", ts)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("export directory holds %v", entries)
	}
	name := entries[0].Name()
	if want := "tesouro-tickets-acme-ltda-filial-sp-20260820-150000.csv"; name != want {
		t.Fatalf("file %q, want %q", name, want)
	}
	mustContain(t, screen(m), "exported 130 tickets to ", name)
	if info, _ := entries[0].Info(); info.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v, want 0600", info.Mode().Perm())
	}
	if q := svc.queries[len(svc.queries)-1]; q.Cursor != "100" || q.SubAccountID != subID {
		t.Fatalf("last export query %+v", q)
	}
	recs := exporttest.Read(t, filepath.Join(dir, name))
	if !slices.Equal(recs[0], export.TicketColumns) || len(recs) != 131 {
		t.Fatalf("header %v, %d lines", recs[0], len(recs))
	}
	col := func(h string) int { return slices.Index(export.TicketColumns, h) }
	first, last := recs[1], recs[130]
	if first[col("account_name")] != "ACME Ltda" || first[col("sub_account_id")] != subID.String() || first[col("sub_account_name")] != "Filial SP" {
		t.Fatalf("account columns %v", first)
	}
	if first[col("external_id")] != "'=HYPERLINK(\"http://evil\")" {
		t.Fatalf("a formula-leading cell was not guarded: %q", first[col("external_id")])
	}
	if first[col("fee_conversion_input")] != "3.00" || first[col("fee_gas_output")] != "0.010000" || first[col("fee_in_input")] != "1.50" || first[col("fees_other")] != "" {
		t.Fatalf("fee columns %v", first)
	}
	if last[col("ticket_id")] != svc.tickets[129].ID.String() {
		t.Fatalf("last row is %s, want the 130th ticket", last[col("ticket_id")])
	}
}

// An export under way when the session ends (an account switch, the
// program's end: the root ends the screen, see ui.Ender) is stopped like
// esc stops it: its hidden partial file is removed, a late page writes
// nothing, and what was stopped is said. While it runs the screen is busy,
// so that the root asks before switching or quitting.
func TestExportEndsWithTheSession(t *testing.T) {
	svc := &fakeService{tickets: makeTickets(130)}
	m, dir := startIn(t, svc)
	if m.Busy() || m.End() != "" {
		t.Fatal("busy, or something to end, before any export")
	}
	_, cmd := m.Update(screentest.KeyPress("e"))
	cmd = step(t, m, cmd)
	if entries, _ := os.ReadDir(dir); len(entries) != 1 || !strings.HasSuffix(entries[0].Name(), ".part") {
		t.Fatalf("while exporting the directory holds %v, want one partial file", entries)
	}
	if !m.Busy() {
		t.Fatal("an export under way does not make the screen busy: the root would switch or quit without asking")
	}
	var end ui.Ender = m
	if said := end.End(); said != "Tickets export stopped after 50 tickets; nothing was saved" {
		t.Fatalf("End said %q", said)
	}
	run(t, m, cmd) // the page asked for before the end comes late
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("after the session's end the directory holds %v", entries)
	}
	if m.Busy() || m.End() != "" || strings.Contains(screen(m), "exporting") {
		t.Fatalf("still exporting after the end:\n%s", screen(m))
	}
}

// esc stops the export: nothing is left in the directory, under the final
// name or any other, and a page that comes after esc is not written.
func TestExportEscStopsAndLeavesNothing(t *testing.T) {
	svc := &fakeService{tickets: makeTickets(130)}
	m, dir := startIn(t, svc)
	_, cmd := m.Update(screentest.KeyPress("e"))
	cmd = step(t, m, cmd)
	mustContain(t, screen(m), "exporting: 50 tickets, 1 pages so far · esc stops")
	if entries, _ := os.ReadDir(dir); len(entries) != 1 || !strings.HasSuffix(entries[0].Name(), ".part") || !strings.HasPrefix(entries[0].Name(), ".") {
		t.Fatalf("while exporting the directory holds %v, want one hidden partial file", entries)
	}
	if !bindsEnabled(m, "esc") {
		t.Fatal("esc is not offered while exporting")
	}
	out := press(t, m, "esc")
	if ts := toasts(out); len(ts) != 1 || ts[0] != "Export stopped after 50 tickets; nothing was saved" {
		t.Fatalf("toasts %v", ts)
	}
	run(t, m, cmd) // the page asked for before esc comes late
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("after esc the directory holds %v", entries)
	}
	if strings.Contains(screen(m), "exporting") || bindsEnabled(m, "esc") {
		t.Fatalf("still exporting after esc:\n%s", screen(m))
	}
	// The next export starts afresh and completes.
	out = press(t, m, "e")
	if ts := toasts(out); len(ts) != 1 || !strings.Contains(ts[0], "Exported 130 tickets") {
		t.Fatalf("second export %v", ts)
	}
}

// A page that fails stops the export and leaves nothing.
func TestExportFailureLeavesNothing(t *testing.T) {
	svc := &fakeService{tickets: makeTickets(130)}
	m, dir := startIn(t, svc)
	_, cmd := m.Update(screentest.KeyPress("e"))
	cmd = step(t, m, cmd)
	svc.mu.Lock()
	svc.failList = &api.Error{Method: "GET", Path: "/v2/account/tickets/", Status: 503, Message: "try later"}
	svc.mu.Unlock()
	out := run(t, m, cmd)
	if ts := toasts(out); len(ts) != 1 || !strings.Contains(ts[0], "Export stopped after 50 tickets, nothing saved") || !strings.Contains(ts[0], "try later") {
		t.Fatalf("toasts %v", ts)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("after a failure the directory holds %v", entries)
	}
}

func bindsEnabled(m *Model, k string) bool {
	for _, b := range m.KeyMap() {
		if b.Enabled() && slices.Contains(b.Keys(), k) {
			return true
		}
	}
	return false
}

// G loads the whole history with one key, the progress in the count line,
// and lands on the oldest ticket; esc stops it halfway, keeping the rows.
func TestGLoadsEveryTicketAndEscStops(t *testing.T) {
	svc := &fakeService{tickets: makeTickets(2345)}
	m := start(t, svc, 120, 30)
	_, cmd := m.Update(screentest.KeyPress("G"))
	cmd = step(t, m, cmd)
	mustContain(t, screen(m), "100 loaded · loading to the end · esc stops")
	if !bindsEnabled(m, "esc") {
		t.Fatal("esc is not offered while loading to the end")
	}
	press(t, m, "esc")
	run(t, m, cmd) // the page asked for before esc
	mustContain(t, screen(m), "100 loaded · more available")
	if bindsEnabled(m, "esc") {
		t.Fatal("esc still offered after stopping")
	}

	asked := svc.asked()
	press(t, m, "G")
	mustContain(t, screen(m), "all 2345 loaded")
	// 45 pages are left; the read-ahead stopped by esc may have had one
	// more request of its own on its way, whose answer is dropped.
	if n := svc.asked() - asked; n < 45 || n > 45+readAhead {
		t.Fatalf("%d pages asked for the rest, want 45 (and at most %d read ahead before esc)", n, readAhead)
	}
	if r, ok := m.selected(); !ok || r.ID != svc.tickets[2344].ID {
		t.Fatal("the cursor is not on the last ticket")
	}
	mustContain(t, screen(m), svc.tickets[2344].ID.String()[:8])
}

// An export follows the screen: with the / filter on, only the rows it
// shows are written, of every page, and the toast says how many of how
// many; the file names where each ticket's money went, its end-to-end id
// and its transaction hash.
func TestExportKeepsWhatTheSlashFilterShows(t *testing.T) {
	svc := &fakeService{tickets: makeTickets(130)}
	for _, i := range []int{7, 99} { // one loaded, one on a later page
		svc.tickets[i].Quote.OutputCurrency = "COP"
	}
	svc.tickets[7].BlockchainReceiverInfo = &api.BlockchainReceiverInfo{WalletAddress: "0xabc", WalletChain: "POLYGON", TxHash: "0xfeed"}
	svc.tickets[7].BrazilianFiatSenderInfo = &api.BrazilianFiatSenderInfo{EndToEndID: "E123"}
	m, dir := startIn(t, svc)
	m.Update(ui.FilterMsg{Query: "COP"})
	_, cmd := m.Update(screentest.KeyPress("e"))
	out := run(t, m, cmd)
	if ts := toasts(out); len(ts) != 1 || !strings.Contains(ts[0], "Exported 2 of 130 tickets (those matching /COP)") {
		t.Fatalf("toasts %v", ts)
	}
	entries, _ := os.ReadDir(dir)
	recs := exporttest.Read(t, filepath.Join(dir, entries[0].Name()))
	if len(recs) != 3 {
		t.Fatalf("%d records, want the header and 2 rows", len(recs))
	}
	col := func(h string) int { return slices.Index(export.TicketColumns, h) }
	row := recs[1]
	if row[col("ticket_id")] != svc.tickets[7].ID.String() || row[col("destination")] != "0xabc POLYGON" ||
		row[col("end_to_end_id")] != "E123" || row[col("tx_hash")] != "0xfeed" {
		t.Fatalf("row %v", row)
	}
}
