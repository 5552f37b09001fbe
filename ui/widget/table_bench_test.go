package widget

import (
	"runtime"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/api"
)

// ticketRows builds n rows the way the ticket browser lays out api.Ticket
// values, so that the benchmarks measure realistic cell lengths.
func ticketRows(n int) []Row {
	statuses := []api.TicketStatus{api.TicketPaid, api.TicketUnpaid, api.TicketProcessing, api.TicketFailed, api.TicketCanceled}
	base := time.Date(2026, 8, 1, 12, 0, 0, 0, time.UTC)
	rows := make([]Row, n)
	for i := range rows {
		tk := api.Ticket{
			ID:         uuid.New(),
			ExternalID: uuid.NewString(),
			Status:     statuses[i%len(statuses)],
			CreatedAt:  api.NewTime(base.Add(-time.Duration(i) * time.Minute)),
			Quote: api.TicketQuote{
				InputCurrency: "BRL", InputPaymentMethod: "PIX", InputAmount: decimal.New(int64(1000+i), -2),
				OutputCurrency: "USDC", OutputPaymentMethod: "POLYGON", OutputAmount: decimal.New(int64(180000+i), -6),
			},
		}
		rows[i] = Row{ID: tk.ID.String(), Cells: []string{
			tk.CreatedAt.Format("2006-01-02 15:04"),
			string(tk.Status),
			tk.Quote.InputAmount.StringFixed(2) + " " + tk.Quote.InputCurrency,
			tk.Quote.OutputAmount.StringFixed(6) + " " + tk.Quote.OutputCurrency,
			tk.Quote.OutputPaymentMethod,
			tk.ExternalID,
			tk.ID.String(),
		}}
	}
	return rows
}

func benchTable(n int) *Table {
	t := NewTable(
		Column{Title: "Created", Width: 16}, Column{Title: "Status", Width: 10},
		Column{Title: "Input", Width: 18, Right: true}, Column{Title: "Output", Width: 20, Right: true},
		Column{Title: "Method", Width: 9}, Column{Title: "External ID"}, Column{Title: "ID"},
	)
	t.SetSize(160, 40)
	t.SetRows(ticketRows(n))
	return t
}

func benchView(b *testing.B, n int) {
	t := benchTable(n)
	t.Select(t.idAt(n / 2))
	t.View()
	b.ReportAllocs()
	for b.Loop() {
		_ = t.View()
	}
}

// BenchmarkTableView100 and BenchmarkTableView100k compare a frame with the
// same window over 100 and 100,000 loaded rows (target: ≤ 1 ms, within 1.5×).
func BenchmarkTableView100(b *testing.B)  { benchView(b, 100) }
func BenchmarkTableView100k(b *testing.B) { benchView(b, 100_000) }

// benchViewCold renders a frame with nothing cached: each iteration resizes
// the table by one column, which drops every cached line, so the frame
// draws the header and every visible row afresh (the first frame after a
// resize, a theme change or new columns).
func benchViewCold(b *testing.B, n int) {
	t := benchTable(n)
	t.Select(t.idAt(n / 2))
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		t.SetSize(160-i%2, 40)
		_ = t.View()
		i++
	}
}

// BenchmarkTableViewCold100 and BenchmarkTableViewCold100k: the same
// targets for a frame with nothing cached.
func BenchmarkTableViewCold100(b *testing.B)  { benchViewCold(b, 100) }
func BenchmarkTableViewCold100k(b *testing.B) { benchViewCold(b, 100_000) }

// freshQueries are distinct two-character queries over what ticket rows
// hold (digits, hex, dashes, colons): typed in turn, none extends the one
// before it and none was typed within the last hundreds, so every one scans
// every row, as the first keystroke of a new search does; no memo of
// recent queries can answer it.
func freshQueries() []string {
	const chars = "0123456789abcdef-: "
	var qs []string
	for _, a := range chars {
		for _, c := range chars {
			qs = append(qs, string(a)+string(c))
		}
	}
	return qs
}

// benchScroll moves the cursor one row per frame, so every frame draws a row
// that is not cached yet.
func benchScroll(b *testing.B, n int) {
	t := benchTable(n)
	down := keyPress("j")
	up := keyPress("k")
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if (i/80)%2 == 0 {
			t.Update(down)
		} else {
			t.Update(up)
		}
		i++
		_ = t.View()
	}
}

func BenchmarkTableScrollView100(b *testing.B)  { benchScroll(b, 100) }
func BenchmarkTableScrollView100k(b *testing.B) { benchScroll(b, 100_000) }

// BenchmarkTableFilterKeystroke100k is a keystroke that gives a query the
// table never saw over these rows (a full scan each time) and renders the
// frame (target: ≤ 10 ms).
func BenchmarkTableFilterKeystroke100k(b *testing.B) {
	t := benchTable(100_000)
	queries := freshQueries()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		t.SetFilter(queries[i%len(queries)])
		_ = t.View()
		i++
	}
}

// BenchmarkTableFilterNarrowing100k is the common case of typing: each
// keystroke extends the query, so only the previous matches are scanned.
func BenchmarkTableFilterNarrowing100k(b *testing.B) {
	t := benchTable(100_000)
	q := "processing"
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		n := i%len(q) + 1
		if n == 1 {
			t.SetFilter("")
		}
		t.SetFilter(q[:n])
		_ = t.View()
		i++
	}
}

// TestTableMemory100k measures the heap a table holds with 100,000 ticket
// rows loaded; the browser's whole budget is 150 MB.
func TestTableMemory100k(t *testing.T) {
	if testing.Short() {
		t.Skip("memory measurement skipped in -short mode")
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	tb := benchTable(100_000)
	tb.SetFilter("paid")
	tb.View()
	runtime.GC()
	runtime.ReadMemStats(&after)
	used := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	t.Logf("table with 100,000 ticket rows: %.1f MB of heap", float64(used)/(1<<20))
	if used > 64<<20 {
		t.Fatalf("table holds %.1f MB for 100,000 rows, leaving too little of the 150 MB budget", float64(used)/(1<<20))
	}
	runtime.KeepAlive(tb)
}

// BenchmarkTableFilterTyping100k is typing a word and erasing it, one
// keystroke per iteration: narrowing scans only the previous matches, and
// a backspace scans every row again. The memo of recent queries is emptied
// before each keystroke, so no iteration is answered from it.
func BenchmarkTableFilterTyping100k(b *testing.B) {
	t := benchTable(100_000)
	keys := []string{"p", "pa", "pai", "paid", "pai", "pa", "p", ""}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		t.recent = nil
		t.SetFilter(keys[i%len(keys)])
		_ = t.View()
		i++
	}
}
