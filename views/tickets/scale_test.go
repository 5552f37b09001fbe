package tickets

import (
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"charm.land/bubbles/v2/table"
	tea "charm.land/bubbletea/v2"

	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/ui/widget"
)

// The benchmarks of this file measure the browser with a million tickets
// loaded (TESOURO_BENCH_TICKETS sets another count), under the memory
// settings the dashboard ships with (GOGC=ui.GCPercent, no memory limit),
// each beside the stock Bubbles table
// holding the same rows, measured in the same run: the anchor the figures
// are given against.
//
//	go test -run '^$' -bench 'Scale' -benchtime 20x -timeout 30m ./views/tickets

// scaleTickets is how many tickets the scale benchmarks load.
func scaleTickets() int {
	if n, err := strconv.Atoi(os.Getenv("TESOURO_BENCH_TICKETS")); err == nil && n > 0 {
		return n
	}
	return 1_000_000
}

var scaleFixture struct {
	once sync.Once
	m    *Model
	rows []table.Row // the same tickets' cells, for the stock table
}

// scaleModel is a browser with scaleTickets loaded through the real paging
// path, shared by the benchmarks of one run (loading a million takes
// seconds); each benchmark puts back what it changed.
func scaleModel(b *testing.B) (*Model, []table.Row) {
	b.Helper()
	shippedMemory(b)
	f := &scaleFixture
	f.once.Do(func() {
		f.m = loadAll(b, scaleTickets(), 160, 40)
		f.rows = stockRows(f.m)
	})
	f.m.Update(ui.FilterMsg{Query: ""})
	f.m.SetSize(160, 40)
	return f.m, f.rows
}

// stockRows are the cells of every loaded ticket as the full layout shows
// them, for the stock table.
func stockRows(m *Model) []table.Row {
	items := m.list.Items()
	rows := make([]table.Row, len(items))
	for i, r := range items {
		rows[i] = table.Row(r.row(m.loc()).Cells)
	}
	return rows
}

// stockColumns are the full layout's columns for the stock table.
func stockColumns(w int) []table.Column {
	cols := columns(amountWidth, amountWidth)
	if w < 87 {
		cols = layoutsFor(amountWidth, amountWidth).Medium
	}
	out := make([]table.Column, len(cols))
	used := 0
	for i, c := range cols {
		out[i] = table.Column{Title: c.Title, Width: c.Width}
		used += c.Width + 1
	}
	for i := range out {
		if out[i].Width == 0 {
			out[i].Width = max(w-used, 1)
		}
	}
	return out
}

func stockTable(rows []table.Row, w, h int) table.Model {
	return table.New(table.WithColumns(stockColumns(w)), table.WithRows(rows), table.WithHeight(h), table.WithWidth(w), table.WithFocused(true))
}

// shippedMemory runs the benchmark under the dashboard's memory settings.
func shippedMemory(b *testing.B) {
	old := debug.SetGCPercent(ui.GCPercent)
	b.Cleanup(func() { debug.SetGCPercent(old) })
}

func liveHeap() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// BenchmarkScaleLoad1M loads the tickets page by page through the
// browser's own paging (the page messages the dashboard takes, records
// made as the command does) and reports the time and the live heap per
// ticket once loaded (target: ≤ 250 B/ticket).
func BenchmarkScaleLoad1M(b *testing.B) {
	shippedMemory(b)
	n := scaleTickets()
	for b.Loop() {
		before := liveHeap()
		began := time.Now()
		m := loadAll(b, n, 160, 40)
		took := time.Since(began)
		_ = m.View()
		after := liveHeap()
		b.ReportMetric(float64(after-before)/float64(n), "B/ticket")
		b.ReportMetric(float64(took.Nanoseconds())/float64(n), "ns/ticket")
		runtime.KeepAlive(m)
	}
}

// BenchmarkScaleStockLoad1M is the anchor of BenchmarkScaleLoad1M: the
// stock table given the same tickets' cells (made from the same records),
// the heap it holds per row and the time to make the rows and set them.
func BenchmarkScaleStockLoad1M(b *testing.B) {
	m, _ := scaleModel(b)
	items := m.list.Items()
	loc := m.loc()
	for b.Loop() {
		before := liveHeap()
		began := time.Now()
		rows := make([]table.Row, len(items))
		for i, r := range items {
			rows[i] = table.Row(r.row(loc).Cells)
		}
		t := stockTable(rows, 160, 40)
		took := time.Since(began)
		_ = t.View()
		after := liveHeap()
		b.ReportMetric(float64(after-before)/float64(len(items)), "B/ticket")
		b.ReportMetric(float64(took.Nanoseconds())/float64(len(items)), "ns/ticket")
		runtime.KeepAlive(t)
		runtime.KeepAlive(rows)
	}
}

// BenchmarkScaleResize1M is a resize that changes the column set (160
// cells, all seven columns, to 100, the four of the medium layout, and
// back), timed to the end of the first frame after it (target: ≤ 16 ms).
// Each resize shows rows not drawn before (the selection moves a window
// further between two), so no line of its frame was measured before.
func BenchmarkScaleResize1M(b *testing.B) {
	m, _ := scaleModel(b)
	items := m.list.Items()
	ws := []int{80, 160}
	i := 0
	for b.Loop() {
		b.StopTimer()
		m.list.Table.Table.Select(items[(len(items)/2+i*40)%len(items)].ID.String())
		b.StartTimer()
		m.SetSize(ws[i%2], 40)
		_ = m.View()
		i++
	}
	m.SetSize(160, 40)
}

// BenchmarkScaleStockResize1M is its anchor: the stock table given the
// other column set with rows of that shape (made before the timing, in the
// stock table's favour: it needs one cell per column) and drawn.
func BenchmarkScaleStockResize1M(b *testing.B) {
	_, rows := scaleModel(b)
	medium := make([]table.Row, len(rows))
	for i, r := range rows {
		medium[i] = r[1:5]
	}
	t := stockTable(rows, 160, 40)
	t.SetCursor(len(rows) / 2)
	ws := []int{80, 160}
	shapes := [][]table.Row{medium, rows}
	i := 0
	for b.Loop() {
		w := ws[i%2]
		if w < 87 {
			t.SetRows(nil) // the old rows do not fit the new columns
		}
		t.SetColumns(stockColumns(w))
		t.SetRows(shapes[i%2])
		t.SetWidth(w)
		_ = t.View()
		i++
	}
}

// BenchmarkScaleFilterKeystroke1M is one keystroke of the / filter, frame
// included (target: ≤ 25 ms): every keystroke gives a query not typed for
// hundreds of keystrokes and not extending the one before, so none is
// answered from a memo or by narrowing the previous matches. The frame
// shows the first matches; the rest are searched in later slices (each
// its own frame, keys taken between), timed below by
// BenchmarkScaleFilterSlice1M and, whole, by BenchmarkScaleFilterAll1M.
func BenchmarkScaleFilterKeystroke1M(b *testing.B) {
	m, _ := scaleModel(b)
	queries := freshScaleQueries()
	i := 0
	for b.Loop() {
		m.Update(ui.FilterMsg{Query: queries[i%len(queries)]})
		_ = m.View()
		i++
	}
	m.Update(ui.FilterMsg{Query: ""})
}

// BenchmarkScaleFilterSlice1M is one later slice of a search under way,
// frame included: what a frame costs while the matches are searched for.
func BenchmarkScaleFilterSlice1M(b *testing.B) {
	m, _ := scaleModel(b)
	queries := freshScaleQueries()
	var next tea.Cmd
	i := 0
	for b.Loop() {
		if next == nil {
			b.StopTimer()
			_, next = m.Update(ui.FilterMsg{Query: queries[i%len(queries)]})
			i++
			b.StartTimer()
			if next == nil {
				continue
			}
		}
		next = sliceOf(b, next).Continue()
		_ = m.View()
	}
	m.Update(ui.FilterMsg{Query: ""})
}

// BenchmarkScaleFilterAll1M is a keystroke to its last match: the first
// slice and every later one, each with its frame, as the dashboard runs
// them when no other key comes between.
func BenchmarkScaleFilterAll1M(b *testing.B) {
	m, _ := scaleModel(b)
	queries := freshScaleQueries()
	i := 0
	slices := 0
	for b.Loop() {
		_, next := m.Update(ui.FilterMsg{Query: queries[i%len(queries)]})
		_ = m.View()
		for next != nil {
			next = sliceOf(b, next).Continue()
			_ = m.View()
			slices++
		}
		i++
	}
	b.ReportMetric(float64(slices)/float64(b.N), "slices/op")
	m.Update(ui.FilterMsg{Query: ""})
}

// sliceOf is the message a screen's command after a filter keystroke
// gives: the next slice of the search.
func sliceOf(b *testing.B, cmd tea.Cmd) widget.SearchMsg {
	b.Helper()
	msg, ok := cmd().(widget.SearchMsg)
	if !ok {
		b.Fatalf("the filter's command gave %T, want a search slice", msg)
	}
	return msg
}

// BenchmarkScaleStockFilterKeystroke1M is its anchor: the stock table has
// no filter, so each keystroke scans the rows' lower-cased text (made once,
// before the timing) and sets the matching rows, then draws.
func BenchmarkScaleStockFilterKeystroke1M(b *testing.B) {
	_, rows := scaleModel(b)
	texts := make([]string, len(rows))
	for i, r := range rows {
		texts[i] = strings.ToLower(strings.Join(r, "\x1f"))
	}
	t := stockTable(nil, 160, 40)
	queries := freshScaleQueries()
	i := 0
	for b.Loop() {
		q := queries[i%len(queries)]
		var kept []table.Row
		for j, s := range texts {
			if strings.Contains(s, q) {
				kept = append(kept, rows[j])
			}
		}
		t.SetRows(kept)
		_ = t.View()
		i++
	}
}

// freshScaleQueries are distinct two-character queries over what ticket
// rows hold, none extending the one before.
func freshScaleQueries() []string {
	const chars = "0123456789abcdef-: "
	var qs []string
	for _, a := range chars {
		for _, c := range chars {
			qs = append(qs, string(a)+string(c))
		}
	}
	return qs
}

// BenchmarkScaleViewUncached1M is a frame of the whole Tickets screen with
// nothing in view drawn before (target: ≤ 1 ms): each iteration moves the
// cursor a page further into rows not yet shown.
func BenchmarkScaleViewUncached1M(b *testing.B) {
	m, _ := scaleModel(b)
	n := len(m.list.Items())
	m.list.Table.Table.Select(m.list.Items()[0].ID.String())
	_ = m.View()
	page := tea.KeyPressMsg{Code: tea.KeyPgDown}
	top := tea.KeyPressMsg{Code: tea.KeyHome}
	moved := 0
	for b.Loop() {
		if moved += 40; moved >= n {
			b.StopTimer()
			m.Update(top)
			moved = 0
			b.StartTimer()
		}
		m.Update(page)
		_ = m.View()
	}
}

// BenchmarkScaleStockView1M is its anchor: the stock table's frame after a
// page down (it caches nothing).
func BenchmarkScaleStockView1M(b *testing.B) {
	_, rows := scaleModel(b)
	t := stockTable(rows, 160, 40)
	moved := 0
	for b.Loop() {
		if moved += 40; moved >= len(rows) {
			t.GotoTop()
			moved = 0
		}
		t.MoveDown(39)
		_ = t.View()
	}
}
